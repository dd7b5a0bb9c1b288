import { positionKey } from '../../domain/position.js';
import type { ContractInstrument, RiskTier } from '../../domain/instrument.js';
import type { Decimal } from '../../core/decimal.js';
import { cumulativeExposures, directionOf, legOf, worstCaseExposure } from '../exposure.js';
import { approxNumber, SCREEN_MARGIN } from '../approx-number.js';
import type { OrderSpec, PositionSide } from '../../domain/order.js';
import type { PositionLeg } from '../../domain/position.js';
import { fmt, isOpening, orderRemaining, type ProposedOrder, proposedOrders, releasedIds } from '../order-proposals.js';
import type { Denial, RiskRule, RiskState } from '../risk-rule.js';

const RULE = 'leverage';

/** The smallest tier whose maxVol holds `size` contracts; undefined when the size exceeds every tier. */
export function tierFor(instrument: ContractInstrument, size: Decimal): RiskTier | undefined {
  return tiersByMaxVol(instrument.riskTiers).find((t) => size.lte(t.maxVol));
}

/**
 * Tiers sorted by maxVol, and their maxVol as doubles for the screen, once per tier list (instruments are
 * immutable): the sort ran for every proposal, and the screen converted every tier bound for every
 * proposal (a third of the conversions of a 10-quote check).
 */
interface SortedTiers {
  readonly tiers: readonly RiskTier[];
  readonly maxVols: readonly number[];
}
const sortedTiers = new WeakMap<readonly RiskTier[], SortedTiers>();
function sortedTiersOf(tiers: readonly RiskTier[]): SortedTiers {
  let sorted = sortedTiers.get(tiers);
  if (sorted === undefined) {
    const byMaxVol = [...tiers].sort((a, b) => a.maxVol.comparedTo(b.maxVol));
    sorted = { tiers: byMaxVol, maxVols: byMaxVol.map((t) => approxNumber(t.maxVol)) };
    sortedTiers.set(tiers, sorted);
  }
  return sorted;
}
const tiersByMaxVol = (tiers: readonly RiskTier[]): readonly RiskTier[] => sortedTiersOf(tiers).tiers;

function checkLeverage(
  instrument: ContractInstrument,
  leverage: number,
  size: Decimal,
  what: () => string,
  slot?: string,
): Denial | undefined {
  const s = slot ? { slot } : {};
  if (leverage < instrument.minLeverage || leverage > instrument.maxLeverage) {
    return {
      rule: RULE,
      reason: `${what()}: leverage ${leverage} is outside ${instrument.symbol}'s ${instrument.minLeverage}–${instrument.maxLeverage}`,
      ...s,
    };
  }
  if (instrument.riskTiers.length === 0) return undefined;
  const tier = tierFor(instrument, size);
  if (!tier) {
    const top = instrument.riskTiers.reduce((m, t) => (t.maxVol.gt(m) ? t.maxVol : m), instrument.riskTiers[0]!.maxVol);
    return {
      rule: RULE,
      reason: `${what()}: a position of ${fmt(size)} contracts exceeds the largest risk tier (maxVol ${fmt(top)})`,
      ...s,
    };
  }
  if (leverage > tier.maxLeverage) {
    return {
      rule: RULE,
      reason: `${what()}: leverage ${leverage} is above ${tier.maxLeverage}, the maximum of risk tier ${tier.level} (positions up to ${fmt(tier.maxVol)} contracts) that a position of ${fmt(size)} contracts falls in`,
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
      const denial = checkLeverage(instrument, intent.leverage, size, () => `set leverage ${intent.leverage} (${d})`);
      if (denial) return denial;
    }
    return undefined;
  }
  const proposals = proposedOrders(intent, instrument, state);
  if (proposals.length === 0) return undefined;
  const released = releasedIds(intent, state);
  if (clearlyWithinTiers(instrument, state, released, proposals)) return undefined;
  const sizes = cumulativeExposures(instrument.symbol, state.positions, state.openOrders, released, proposals);
  for (let i = 0; i < proposals.length; i++) {
    const p = proposals[i]!;
    if (!isOpening(p.spec)) continue;
    const leg = legOf(p.spec);
    const lev = p.spec.leverage ?? state.leverage[positionKey(instrument.symbol, leg)];
    // Worded only for a denial: formatting the quantity of every quote that passes cost more than the check.
    const what = (): string => `${p.spec.side} ${fmt(p.spec.quantity ?? 0)}${p.slot ? ` (slot ${p.slot})` : ''}`;
    if (lev === undefined)
      return {
        rule: RULE,
        reason: `${what()}: no leverage given and none known for ${instrument.symbol} ${leg} (fail closed)`,
        ...(p.slot ? { slot: p.slot } : {}),
      };
    const size = sizes[i]!;
    const denial = checkLeverage(instrument, lev, size, what, p.slot);
    if (denial) return denial;
  }
  return undefined;
};

/**
 * True only when the exact check passes every proposal with room to spare, judged in doubles: each
 * opening proposal has a leverage within min/maxLeverage, and the position it may reach (the same sum
 * cumulativeExposures makes) lies in one risk tier by more than SCREEN_MARGIN of the magnitudes from
 * both of the tier's bounds, with the leverage within that tier's. Anything else — a denial, a size
 * near a tier bound — takes the exact path, which words the denial.
 * @internal Exported for the property test that holds it to the Decimal formula.
 */
export function clearlyWithinTiers(
  instrument: ContractInstrument,
  state: RiskState,
  released: ReadonlySet<string>,
  proposals: readonly ProposedOrder[],
): boolean {
  const symbol = instrument.symbol;
  // Per (leg, direction): the worst-case size with every proposal in, and the magnitudes summed into it.
  const totals: { leg: PositionLeg; direction: PositionSide; size: number; magnitude: number }[] = [];
  const totalOf = (spec: OrderSpec): { size: number; magnitude: number } | undefined => {
    if (spec.symbol !== symbol || !isOpening(spec)) return undefined;
    const leg = legOf(spec);
    const direction = directionOf(spec);
    // Indexed loops: the for…of loops called the array iterator's next() (a builtin) ~23 times a snapshot of
    // the runtime-core bench, ~2.6k instructions under callgrind.
    for (let i = 0; i < totals.length; i++) if (totals[i]!.leg === leg && totals[i]!.direction === direction) return totals[i];
    let size = 0;
    let magnitude = 0;
    const positions = state.positions;
    for (let i = 0; i < positions.length; i++) {
      const p = positions[i]!;
      if (p.symbol !== symbol || p.leg !== leg) continue;
      const q = approxNumber(p.quantity);
      size += direction === 'long' ? q : -q;
      magnitude += Math.abs(q);
    }
    const open = state.openOrders;
    for (let i = 0; i < open.length; i++) {
      const o = open[i]!;
      if (released.has(o.clientOrderId) || o.symbol !== symbol || legOf(o) !== leg || !isOpening(o) || directionOf(o) !== direction)
        continue;
      const q = approxNumber(orderRemaining(o));
      size += q;
      magnitude += Math.abs(q);
    }
    const t = { leg, direction, size: size < 0 ? 0 : size, magnitude };
    totals.push(t);
    return t;
  };
  for (const p of proposals) {
    const t = totalOf(p.spec);
    if (!t) continue;
    const q = p.remainingApprox;
    t.size += q;
    t.magnitude += Math.abs(q);
  }
  const { tiers, maxVols } = sortedTiersOf(instrument.riskTiers);
  for (const p of proposals) {
    if (!isOpening(p.spec)) continue;
    const lev = p.spec.leverage ?? state.leverage[positionKey(symbol, legOf(p.spec))];
    if (lev === undefined || lev < instrument.minLeverage || lev > instrument.maxLeverage) return false;
    if (tiers.length === 0) continue;
    const t = totalOf(p.spec);
    const size = t ? t.size : 0;
    const magnitude = t ? t.magnitude : 0;
    let i = 0;
    for (; i < tiers.length; i++) {
      const maxVol = maxVols[i]!;
      if (size + (magnitude + Math.abs(maxVol)) * SCREEN_MARGIN < maxVol) break;
    }
    if (i === tiers.length || lev > tiers[i]!.maxLeverage) return false;
    if (i > 0) {
      const below = maxVols[i - 1]!;
      if (!(below < size - (magnitude + Math.abs(below)) * SCREEN_MARGIN)) return false;
    }
  }
  return true;
}
