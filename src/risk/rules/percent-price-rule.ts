import { Decimal } from '../../core/decimal.js';
import { lastPrice } from '../../domain/snapshot.js';
import { describe, fmt, proposedOrders, slotOf } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const ONE = new Decimal(1);

/** Highest buy price the filter allows: last·(1+up) for a fractional up (< 1), last·up otherwise (wire-protocol.md). */
export const maxBuyPrice = (last: Decimal, up: Decimal): Decimal => (up.lt(ONE) ? last.mul(ONE.plus(up)) : last.mul(up));
/** Lowest sell price: last·(1−down) for a fractional down, last·down otherwise. */
export const minSellPrice = (last: Decimal, down: Decimal): Decimal => (down.lt(ONE) ? last.mul(ONE.minus(down)) : last.mul(down));

/**
 * Spot PERCENT_PRICE_BY_SIDE against the last trade price; no last price denies (fail closed). The
 * spec names LIMIT, IOC and FOK; we also hold post-only (LIMIT_MAKER) orders to the band, the stricter
 * reading, since an order outside it is refused (30087) or would cross anyway.
 */
export const percentPriceRule: RiskRule = (intent, instrument, state) => {
  if (!instrument || instrument.kind !== 'spot' || !instrument.percentPriceBySide) return undefined;
  const band = instrument.percentPriceBySide;
  const proposals = proposedOrders(intent, instrument, state).filter((p) => p.spec.type === 'limit' && p.spec.price);
  if (proposals.length === 0) return undefined;
  const last = lastPrice(state.snapshot);
  if (!last)
    return { rule: 'percent-price-by-side', reason: `no last price for ${instrument.symbol} to check PERCENT_PRICE_BY_SIDE (fail closed)` };
  // The bounds depend on the last price alone: made once per side, not once per quote.
  let cap: Decimal | undefined;
  let floor: Decimal | undefined;
  for (const p of proposals) {
    const price = p.spec.price!;
    if (p.spec.side === 'buy') {
      cap ??= maxBuyPrice(last, band.bidMultiplierUp);
      if (price.gt(cap)) {
        return {
          rule: 'percent-price-by-side',
          reason: `${describe(p.spec, p.slot)}: buy price ${fmt(price)} is above ${fmt(cap)} (last ${fmt(last)}, bidMultiplierUp ${fmt(band.bidMultiplierUp)})`,
          ...slotOf(p),
        };
      }
    } else {
      floor ??= minSellPrice(last, band.askMultiplierDown);
      if (price.lt(floor)) {
        return {
          rule: 'percent-price-by-side',
          reason: `${describe(p.spec, p.slot)}: sell price ${fmt(price)} is below ${fmt(floor)} (last ${fmt(last)}, askMultiplierDown ${fmt(band.askMultiplierDown)})`,
          ...slotOf(p),
        };
      }
    }
  }
  return undefined;
};
