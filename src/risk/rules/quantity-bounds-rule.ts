import { describe, fmt, proposedOrders, slotOf } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

/** Spot: quantity ≥ minQuantity (baseSizePrecision). Contract: minVol ≤ vol ≤ maxVol. */
export const quantityBoundsRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  for (const p of proposedOrders(intent, instrument, state)) {
    const q = p.spec.quantity;
    if (!q) continue;
    if (instrument.kind === 'spot') {
      if (instrument.minQuantity.gt(0) && q.lt(instrument.minQuantity)) {
        return {
          rule: 'quantity-bounds',
          reason: `${describe(p.spec, p.slot)}: quantity ${fmt(q)} is below the minimum ${fmt(instrument.minQuantity)} ${instrument.baseAsset}`,
          ...slotOf(p),
        };
      }
    } else {
      if (q.lt(instrument.minVol))
        return {
          rule: 'quantity-bounds',
          reason: `${describe(p.spec, p.slot)}: ${fmt(q)} contracts is below minVol ${fmt(instrument.minVol)}`,
          ...slotOf(p),
        };
      if (q.gt(instrument.maxVol))
        return {
          rule: 'quantity-bounds',
          reason: `${describe(p.spec, p.slot)}: ${fmt(q)} contracts is above maxVol ${fmt(instrument.maxVol)}`,
          ...slotOf(p),
        };
    }
  }
  return undefined;
};
