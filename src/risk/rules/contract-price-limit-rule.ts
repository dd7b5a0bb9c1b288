import { Decimal } from '../../core/decimal.js';
import { fairPrice } from '../../domain/snapshot.js';
import { describe, fmt, type ProposedOrder, proposedOrders, slotOf } from '../order-proposals.js';
import type { ContractInstrument, Instrument } from '../../domain/instrument.js';
import type { RiskRule } from '../risk-rule.js';
import { approxNumber, SCREEN_MARGIN } from '../approx-number.js';

const ONE = new Decimal(1);

const isPricedLimit = (p: ProposedOrder): boolean => p.spec.type === 'limit' && !!p.spec.price;

/** cap and floor of one fair price object for one instrument (both immutable values), made when first asked. */
const boundsByFair = new WeakMap<Decimal, { readonly instrument: Instrument; cap?: Decimal; floor?: Decimal }>();

/** 1 + bidLimitPriceRate and 1 − askLimitPriceRate, once per instrument (an immutable value), and as doubles. */
interface Factors {
  readonly up: Decimal;
  readonly down: Decimal;
  readonly upApprox: number;
  readonly downApprox: number;
}
const factors = new WeakMap<Instrument, Factors>();
function factorsOf(instrument: ContractInstrument): Factors {
  let f = factors.get(instrument);
  if (f === undefined) {
    const up = ONE.plus(instrument.bidLimitPriceRate);
    const down = ONE.minus(instrument.askLimitPriceRate);
    f = { up, down, upApprox: approxNumber(up), downApprox: approxNumber(down) };
    factors.set(instrument, f);
  }
  return f;
}

/**
 * True only when every priced limit proposal is inside its bound by more than SCREEN_MARGIN of the
 * magnitudes, judged in doubles (fair·factor against the price): a quote set re-judged every snapshot
 * is almost always well inside, and each new snapshot's fair price cost two Decimal multiplications
 * (and their cache entry) for bounds no quote came near. Anything near a bound, or not finite, takes
 * the exact path, which words the denial.
 * @internal Exported for the property test that holds it to the Decimal formula.
 */
export function clearlyWithinPriceLimits(proposals: readonly ProposedOrder[], fair: Decimal, instrument: ContractInstrument): boolean {
  const f = factorsOf(instrument);
  const fairApprox = approxNumber(fair);
  for (const p of proposals) {
    if (!isPricedLimit(p)) continue;
    const price = p.priceApprox;
    if (p.spec.side === 'buy') {
      const cap = fairApprox * f.upApprox;
      if (!(price + (Math.abs(price) + Math.abs(cap)) * SCREEN_MARGIN < cap)) return false;
    } else {
      const floor = fairApprox * f.downApprox;
      if (!(price - (Math.abs(price) + Math.abs(floor)) * SCREEN_MARGIN > floor)) return false;
    }
  }
  return true;
}

/** Contract limit prices within fair·(1+bidLimitPriceRate) for buys and fair·(1−askLimitPriceRate) for sells. */
export const contractPriceLimitRule: RiskRule = (intent, instrument, state) => {
  if (!instrument || instrument.kind !== 'contract') return undefined;
  const proposals = proposedOrders(intent, instrument, state);
  if (!proposals.some(isPricedLimit)) return undefined;
  const fair = fairPrice(state.snapshot);
  if (!fair)
    return { rule: 'contract-price-limit', reason: `no fair price for ${instrument.symbol} to check bid/askLimitPriceRate (fail closed)` };
  if (clearlyWithinPriceLimits(proposals, fair, instrument)) return undefined;
  // The bounds once per fair price (a snapshot's), not per intent or quote.
  let bounds = boundsByFair.get(fair);
  if (bounds === undefined || bounds.instrument !== instrument) {
    bounds = { instrument };
    boundsByFair.set(fair, bounds);
  }
  for (const p of proposals) {
    if (!isPricedLimit(p)) continue;
    const price = p.spec.price!;
    if (p.spec.side === 'buy') {
      const cap = (bounds.cap ??= fair.mul(factorsOf(instrument).up));
      if (price.gt(cap))
        return {
          rule: 'contract-price-limit',
          reason: `${describe(p.spec, p.slot)}: buy price ${fmt(price)} is above ${fmt(cap)} (fair ${fmt(fair)}, bidLimitPriceRate ${fmt(instrument.bidLimitPriceRate)})`,
          ...slotOf(p),
        };
    } else {
      const floor = (bounds.floor ??= fair.mul(factorsOf(instrument).down));
      if (price.lt(floor))
        return {
          rule: 'contract-price-limit',
          reason: `${describe(p.spec, p.slot)}: sell price ${fmt(price)} is below ${fmt(floor)} (fair ${fmt(fair)}, askLimitPriceRate ${fmt(instrument.askLimitPriceRate)})`,
          ...slotOf(p),
        };
    }
  }
  return undefined;
};
