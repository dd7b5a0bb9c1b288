import { stepOfPrecision } from '../../core/decimal.js';
import { stepOf } from '../../domain/instrument.js';
import { fmt, proposedOrders } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

/** Quantities must be whole steps (spot 10^-baseAssetPrecision, contract volUnit); a spot quote amount fits quoteAssetPrecision. */
export const quantityStepRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  const step = stepOf(instrument);
  for (const p of proposedOrders(intent, instrument, state)) {
    const q = p.spec.quantity;
    const slot = p.slot ? { slot: p.slot } : {};
    if (q && !q.mod(step).isZero()) {
      const below = q.div(step).floor().mul(step);
      return { rule: 'quantity-step', reason: `quantity ${fmt(q)} is not a multiple of the step ${fmt(step)} (truncated: ${fmt(below)})`, ...slot };
    }
    const qq = p.spec.quoteQuantity;
    if (qq && instrument.kind === 'spot') {
      const qStep = stepOfPrecision(instrument.quoteAssetPrecision);
      if (!qq.mod(qStep).isZero()) return { rule: 'quantity-step', reason: `quote amount ${fmt(qq)} has more than ${instrument.quoteAssetPrecision} decimals`, ...slot };
    }
  }
  return undefined;
};
