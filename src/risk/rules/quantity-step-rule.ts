import { type Decimal, stepOfPrecision } from '../../core/decimal.js';
import { stepOf } from '../../domain/instrument.js';
import { isMultipleOf } from '../multiple-of.js';
import { fmt, proposedOrders, slotOf } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

/** 10^−precision, one Decimal per precision (so isMultipleOf knows it next time). */
const quoteSteps = new Map<number, Decimal>();
const quoteStep = (precision: number): Decimal => {
  let s = quoteSteps.get(precision);
  if (!s) quoteSteps.set(precision, (s = stepOfPrecision(precision)));
  return s;
};

/** Quantities must be whole steps (spot 10^-baseAssetPrecision, contract volUnit); a spot quote amount fits quoteAssetPrecision. */
export const quantityStepRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  const step = stepOf(instrument);
  for (const p of proposedOrders(intent, instrument, state)) {
    const q = p.spec.quantity;
    // A quantity that is a whole number of lots (qtyLots, made once per proposal) needs no Decimal check.
    if (q && !(p.qtyLots !== undefined && Number.isInteger(p.qtyLots)) && !isMultipleOf(q, step)) {
      const below = q.div(step).floor().mul(step);
      return {
        rule: 'quantity-step',
        reason: `quantity ${fmt(q)} is not a multiple of the step ${fmt(step)} (truncated: ${fmt(below)})`,
        ...slotOf(p),
      };
    }
    const qq = p.spec.quoteQuantity;
    if (qq && instrument.kind === 'spot') {
      const qStep = quoteStep(instrument.quoteAssetPrecision);
      if (!isMultipleOf(qq, qStep))
        return {
          rule: 'quantity-step',
          reason: `quote amount ${fmt(qq)} has more than ${instrument.quoteAssetPrecision} decimals`,
          ...slotOf(p),
        };
    }
  }
  return undefined;
};
