import { Decimal } from '../../core/decimal.js';
import { fairPrice } from '../../domain/snapshot.js';
import { describe, fmt, proposedOrders } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const ONE = new Decimal(1);

/** Contract limit prices within fair·(1+bidLimitPriceRate) for buys and fair·(1−askLimitPriceRate) for sells. */
export const contractPriceLimitRule: RiskRule = (intent, instrument, state) => {
  if (!instrument || instrument.kind !== 'contract') return undefined;
  const proposals = proposedOrders(intent, instrument, state).filter((p) => p.spec.type === 'limit' && p.spec.price);
  if (proposals.length === 0) return undefined;
  const fair = fairPrice(state.snapshot);
  if (!fair)
    return { rule: 'contract-price-limit', reason: `no fair price for ${instrument.symbol} to check bid/askLimitPriceRate (fail closed)` };
  // The bounds once per intent, not per quote.
  let cap: Decimal | undefined;
  let floor: Decimal | undefined;
  for (const p of proposals) {
    const price = p.spec.price!;
    const slot = p.slot ? { slot: p.slot } : {};
    if (p.spec.side === 'buy') {
      cap ??= fair.mul(ONE.plus(instrument.bidLimitPriceRate));
      if (price.gt(cap))
        return {
          rule: 'contract-price-limit',
          reason: `${describe(p.spec, p.slot)}: buy price ${fmt(price)} is above ${fmt(cap)} (fair ${fmt(fair)}, bidLimitPriceRate ${fmt(instrument.bidLimitPriceRate)})`,
          ...slot,
        };
    } else {
      floor ??= fair.mul(ONE.minus(instrument.askLimitPriceRate));
      if (price.lt(floor))
        return {
          rule: 'contract-price-limit',
          reason: `${describe(p.spec, p.slot)}: sell price ${fmt(price)} is below ${fmt(floor)} (fair ${fmt(fair)}, askLimitPriceRate ${fmt(instrument.askLimitPriceRate)})`,
          ...slot,
        };
    }
  }
  return undefined;
};
