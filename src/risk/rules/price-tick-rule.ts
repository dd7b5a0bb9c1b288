import type { Decimal } from '../../core/decimal.js';
import { tickOf } from '../../domain/instrument.js';
import { isMultipleOf } from '../multiple-of.js';
import { fmt, proposedOrders } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const offTick = (price: Decimal, tick: Decimal): boolean => !isMultipleOf(price, tick);

/** Every price (limit, take-profit, stop-loss) must be a whole number of ticks. */
export const priceTickRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  const tick = tickOf(instrument);
  const check = (label: string, price: Decimal | undefined, slot?: string) => {
    if (!price || price.isZero() || !offTick(price, tick)) return undefined;
    const below = price.div(tick).floor().mul(tick);
    return {
      rule: 'price-tick',
      reason: `${label} ${fmt(price)} is not a multiple of the tick ${fmt(tick)} (nearest: ${fmt(below)} or ${fmt(below.plus(tick))})`,
      ...(slot ? { slot } : {}),
    };
  };
  if (intent.kind === 'protective-order')
    return intent.spec.type === 'plan'
      ? check('plan trigger price', intent.spec.triggerPrice)
      : check('activation price', intent.spec.activationPrice);
  if (intent.kind === 'attach-tpsl')
    return check('take-profit price', intent.takeProfitPrice) ?? check('stop-loss price', intent.stopLossPrice);
  for (const p of proposedOrders(intent, instrument, state)) {
    // A price that is a whole number of ticks (priceTicks, made once per proposal) needs no Decimal check.
    const onTick = p.priceTicks !== undefined && Number.isInteger(p.priceTicks);
    const d =
      (onTick ? undefined : check(p.slot ? `quote ${p.slot} price` : 'price', p.spec.price, p.slot)) ??
      check('take-profit price', p.spec.takeProfitPrice) ??
      check('stop-loss price', p.spec.stopLossPrice);
    if (d) return d;
  }
  return undefined;
};
