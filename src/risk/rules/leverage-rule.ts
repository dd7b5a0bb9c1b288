import { positionKey } from '../../domain/position.js';
import type { ContractInstrument, RiskTier } from '../../domain/instrument.js';
import type { Decimal } from '../../core/decimal.js';
import { cumulativeExposures, legOf, worstCaseExposure } from '../exposure.js';
import { fmt, isOpening, proposedOrders, releasedOrders } from '../order-proposals.js';
import type { Denial, RiskRule } from '../risk-rule.js';

const RULE = 'leverage';

/** The smallest tier whose maxVol holds `size` contracts; undefined when the size exceeds every tier. */
export function tierFor(instrument: ContractInstrument, size: Decimal): RiskTier | undefined {
  return tiersByMaxVol(instrument.riskTiers).find((t) => size.lte(t.maxVol));
}

/** Tiers sorted by maxVol, once per tier list (instruments are immutable): the sort ran for every proposal. */
const sortedTiers = new WeakMap<readonly RiskTier[], readonly RiskTier[]>();
function tiersByMaxVol(tiers: readonly RiskTier[]): readonly RiskTier[] {
  let sorted = sortedTiers.get(tiers);
  if (sorted === undefined) {
    sorted = [...tiers].sort((a, b) => a.maxVol.comparedTo(b.maxVol));
    sortedTiers.set(tiers, sorted);
  }
  return sorted;
}

function checkLeverage(instrument: ContractInstrument, leverage: number, size: Decimal, what: string, slot?: string): Denial | undefined {
  const s = slot ? { slot } : {};
  if (leverage < instrument.minLeverage || leverage > instrument.maxLeverage) {
    return {
      rule: RULE,
      reason: `${what}: leverage ${leverage} is outside ${instrument.symbol}'s ${instrument.minLeverage}–${instrument.maxLeverage}`,
      ...s,
    };
  }
  if (instrument.riskTiers.length === 0) return undefined;
  const tier = tierFor(instrument, size);
  if (!tier) {
    const top = instrument.riskTiers.reduce((m, t) => (t.maxVol.gt(m) ? t.maxVol : m), instrument.riskTiers[0]!.maxVol);
    return { rule: RULE, reason: `${what}: a position of ${fmt(size)} contracts exceeds the largest risk tier (maxVol ${fmt(top)})`, ...s };
  }
  if (leverage > tier.maxLeverage) {
    return {
      rule: RULE,
      reason: `${what}: leverage ${leverage} is above ${tier.maxLeverage}, the maximum of risk tier ${tier.level} (positions up to ${fmt(tier.maxVol)} contracts) that a position of ${fmt(size)} contracts falls in`,
      ...s,
    };
  }
  return undefined;
}

/**
 * Contract leverage within min/maxLeverage and within the risk tier the resulting position falls in
 * (position plus every opening order of that direction, as if all filled). An opening order with no
 * leverage on it and none known for the leg is denied: the venue needs one to open.
 */
export const leverageRule: RiskRule = (intent, instrument, state) => {
  if (!instrument || instrument.kind !== 'contract') return undefined;
  if (intent.kind === 'set-leverage') {
    const leg = intent.positionSide ?? 'net';
    const directions = intent.positionSide ? [intent.positionSide] : (['long', 'short'] as const);
    for (const d of directions) {
      const size = worstCaseExposure(instrument.symbol, leg, d, state.positions, state.openOrders, new Set(), []);
      const denial = checkLeverage(instrument, intent.leverage, size, `set leverage ${intent.leverage} (${d})`);
      if (denial) return denial;
    }
    return undefined;
  }
  const proposals = proposedOrders(intent, instrument, state);
  if (proposals.length === 0) return undefined;
  const released = new Set(releasedOrders(intent, state).map((o) => o.clientOrderId));
  const sizes = cumulativeExposures(instrument.symbol, state.positions, state.openOrders, released, proposals);
  for (let i = 0; i < proposals.length; i++) {
    const p = proposals[i]!;
    if (!isOpening(p.spec)) continue;
    const leg = legOf(p.spec);
    const lev = p.spec.leverage ?? state.leverage[positionKey(instrument.symbol, leg)];
    const what = `${p.spec.side} ${fmt(p.spec.quantity ?? 0)}${p.slot ? ` (slot ${p.slot})` : ''}`;
    if (lev === undefined)
      return {
        rule: RULE,
        reason: `${what}: no leverage given and none known for ${instrument.symbol} ${leg} (fail closed)`,
        ...(p.slot ? { slot: p.slot } : {}),
      };
    const size = sizes[i]!;
    const denial = checkLeverage(instrument, lev, size, what, p.slot);
    if (denial) return denial;
  }
  return undefined;
};
