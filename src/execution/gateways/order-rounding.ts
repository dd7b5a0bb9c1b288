/**
 * The edge where domain decimals become venue numbers (docs/architecture.md rule 3, ccxt priceToPrecision):
 * prices go to the tick with an EXPLICIT direction, quantities truncate to the step, and a value that
 * rounds to nothing is a ValidationError rather than an order the venue refuses or, worse, accepts.
 *
 * Limit prices round passively — a buy down, a sell up — so the order is never worse for us than the
 * strategy's limit (a buy never pays more, a sell never gets less). Trigger prices (TP/SL) have no
 * "worse" side that holds for both legs, so they go to the nearest tick.
 */
import { type Decimal, roundToTick, truncateToStep, type RoundDirection } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import type { OrderSide } from '../../domain/order.js';

export const limitPriceDirection = (side: OrderSide): RoundDirection => (side === 'buy' ? 'down' : 'up');

export function limitPriceOnTick(price: Decimal, tick: Decimal, side: OrderSide, field = 'order.price'): Decimal {
  const direction = limitPriceDirection(side);
  const p = roundToTick(price, tick, direction);
  if (p.lte(0))
    throw new ValidationError(
      field,
      `a price of at least one tick (${tick.toFixed()}) after rounding ${direction} for a ${side}`,
      price.toFixed(),
    );
  return p;
}

export function triggerPriceOnTick(price: Decimal, tick: Decimal, field: string): Decimal {
  const p = roundToTick(price, tick, 'nearest');
  if (p.lte(0))
    throw new ValidationError(
      field,
      `a trigger price of at least one tick (${tick.toFixed()}) after rounding to the nearest tick`,
      price.toFixed(),
    );
  return p;
}

export function quantityOnStep(quantity: Decimal, step: Decimal, field = 'order.quantity'): Decimal {
  const q = truncateToStep(quantity, step);
  if (q.lte(0))
    throw new ValidationError(field, `a quantity of at least one step (${step.toFixed()}) after truncation`, quantity.toFixed());
  return q;
}
