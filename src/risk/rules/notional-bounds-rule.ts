import { describe, estimateMarketPrice, fmt, proposedOrders, slotOf } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const quoteAmount = (): string => 'quote amount';

/**
 * Spot order amount in quote within [minQuoteAmount, maxQuoteAmount] (the Market variants for market
 * orders). A market order by quantity is valued by walking the visible book; no book and no ticker
 * means no estimate, and that denies (fail closed).
 */
export const notionalBoundsRule: RiskRule = (intent, instrument, state) => {
  if (!instrument || instrument.kind !== 'spot') return undefined;
  for (const p of proposedOrders(intent, instrument, state)) {
    const s = p.spec;
    const market = s.type === 'market';
    let amount;
    // How the amount was made, worded only for a denial: the text of every limit order judged (two
    // Decimals formatted) was built and dropped.
    let how: () => string;
    if (s.quoteQuantity) {
      amount = s.quoteQuantity;
      how = quoteAmount;
    } else if (!market) {
      amount = s.price!.mul(s.quantity!);
      how = () => `${fmt(s.quantity!)} × ${fmt(s.price!)}`;
    } else {
      const px = estimateMarketPrice(state.snapshot, s.side, s.quantity);
      if (!px)
        return {
          rule: 'notional-bounds',
          reason: `${describe(s, p.slot)}: no book or ticker to estimate the market order's amount (fail closed)`,
          ...slotOf(p),
        };
      amount = px.mul(s.quantity!);
      how = () => `${fmt(s.quantity!)} × estimated ${fmt(px.toDecimalPlaces(instrument.quotePrecision + 2))}`;
    }
    const min = market ? instrument.minQuoteAmountMarket : instrument.minQuoteAmount;
    const max = market ? instrument.maxQuoteAmountMarket : instrument.maxQuoteAmount;
    const q = instrument.quoteAsset;
    if (amount.lt(min))
      return {
        rule: 'notional-bounds',
        reason: `${describe(s, p.slot)}: amount ${fmt(amount)} ${q} (${how()}) is below the minimum ${fmt(min)} ${q}`,
        ...slotOf(p),
      };
    if (max.gt(0) && amount.gt(max))
      return {
        rule: 'notional-bounds',
        reason: `${describe(s, p.slot)}: amount ${fmt(amount)} ${q} (${how()}) is above the maximum ${fmt(max)} ${q}`,
        ...slotOf(p),
      };
  }
  return undefined;
};
