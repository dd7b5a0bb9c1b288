import { type Decimal, unitsOf } from '../../core/decimal.js';
import { type Instrument, stepOf } from '../../domain/instrument.js';
import { placesOf } from '../multiple-of.js';
import { describe, fmt, type ProposedOrder, proposedOrders, slotOf } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

/** An instrument's bounds in lots of its step (NaN where not a whole number of them), once per instrument (an immutable value). */
const boundsInLots = new WeakMap<Instrument, { readonly min: number; readonly max: number; readonly minPositive: boolean }>();
function lotsOf(instrument: Instrument): { readonly min: number; readonly max: number; readonly minPositive: boolean } {
  let b = boundsInLots.get(instrument);
  if (b === undefined) {
    const places = placesOf(stepOf(instrument));
    const lots = (v: Decimal): number => (places === null ? NaN : unitsOf(v, places));
    b =
      instrument.kind === 'spot'
        ? { min: lots(instrument.minQuantity), max: NaN, minPositive: instrument.minQuantity.gt(0) }
        : { min: lots(instrument.minVol), max: lots(instrument.maxVol), minPositive: true };
    boundsInLots.set(instrument, b);
  }
  return b;
}

/**
 * q < bound (sign −1) or q > bound (+1): in lots when both are whole numbers of them (the same step, so
 * the integers order as the values), else in Decimal.
 */
function beyond(p: ProposedOrder, q: Decimal, boundLots: number, bound: Decimal, sign: -1 | 1): boolean {
  const lots = p.qtyLots;
  if (lots !== undefined && Number.isInteger(lots) && Number.isInteger(boundLots)) return sign < 0 ? lots < boundLots : lots > boundLots;
  return sign < 0 ? q.lt(bound) : q.gt(bound);
}

/** Spot: quantity ≥ minQuantity (baseSizePrecision). Contract: minVol ≤ vol ≤ maxVol. */
export const quantityBoundsRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  const proposals = proposedOrders(intent, instrument, state);
  if (proposals.length === 0) return undefined;
  const bounds = lotsOf(instrument);
  for (const p of proposals) {
    const q = p.spec.quantity;
    if (!q) continue;
    if (instrument.kind === 'spot') {
      if (bounds.minPositive && beyond(p, q, bounds.min, instrument.minQuantity, -1)) {
        return {
          rule: 'quantity-bounds',
          reason: `${describe(p.spec, p.slot)}: quantity ${fmt(q)} is below the minimum ${fmt(instrument.minQuantity)} ${instrument.baseAsset}`,
          ...slotOf(p),
        };
      }
    } else {
      if (beyond(p, q, bounds.min, instrument.minVol, -1))
        return {
          rule: 'quantity-bounds',
          reason: `${describe(p.spec, p.slot)}: ${fmt(q)} contracts is below minVol ${fmt(instrument.minVol)}`,
          ...slotOf(p),
        };
      if (beyond(p, q, bounds.max, instrument.maxVol, 1))
        return {
          rule: 'quantity-bounds',
          reason: `${describe(p.spec, p.slot)}: ${fmt(q)} contracts is above maxVol ${fmt(instrument.maxVol)}`,
          ...slotOf(p),
        };
    }
  }
  return undefined;
};
