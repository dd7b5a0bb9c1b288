/**
 * The edge where domain decimals become venue numbers (docs/architecture.md rule 3, ccxt priceToPrecision):
 * prices go to the tick with an EXPLICIT direction, quantities truncate to the step, and a value that
 * rounds to nothing is a ValidationError rather than an order the venue refuses or, worse, accepts.
 *
 * Limit prices round passively — a buy down, a sell up — so the order is never worse for us than the
 * strategy's limit (a buy never pays more, a sell never gets less). Trigger prices (TP/SL) have no
 * "worse" side that holds for both legs, so they go to the nearest tick.
 */
import { type Decimal, fromUnits, roundToTick, toUnits, type RoundDirection } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import type { OrderSide } from '../../domain/order.js';

export const limitPriceDirection = (side: OrderSide): RoundDirection => (side === 'buy' ? 'down' : 'up');

export function limitPriceOnTick(price: Decimal, tick: Decimal, side: OrderSide, field = 'order.price'): Decimal {
  return fromUnits(limitPriceTicks(price, tick, side, field), tick);
}

/** limitPriceOnTick as its count of ticks (the same rounding, the same refusal), for a venue that counts in ticks. */
export function limitPriceTicks(price: Decimal, tick: Decimal, side: OrderSide, field = 'order.price'): number {
  const direction = limitPriceDirection(side);
  const n = toUnits(price, tick, direction);
  if (atMostZero(n, tick))
    throw new ValidationError(
      field,
      `a price of at least one tick (${tick.toFixed()}) after rounding ${direction} for a ${side}`,
      price.toFixed(),
    );
  return n;
}

/** n·unit ≤ 0, without computing the product (a zero unit never gets here: toUnits refuses the division). */
const atMostZero = (n: number, unit: Decimal): boolean => (unit.isNegative() ? n >= 0 : n <= 0);

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
  return fromUnits(quantitySteps(quantity, step, field), step);
}

/** quantityOnStep as its count of steps (the same truncation, the same refusal), for a venue that counts in lots. */
export function quantitySteps(quantity: Decimal, step: Decimal, field = 'order.quantity'): number {
  const n = toUnits(quantity, step, 'down');
  if (atMostZero(n, step))
    throw new ValidationError(field, `a quantity of at least one step (${step.toFixed()}) after truncation`, quantity.toFixed());
  return n;
}
