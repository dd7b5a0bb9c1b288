/**
 * Decimal at the edges, integers in the hot path (docs/architecture.md rule 3). These helpers convert
 * between venue decimals and integer ticks / lots with an explicit rounding direction.
 */
import { Decimal } from 'decimal.js';

export { Decimal };

Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });

export type DecimalLike = Decimal | string | number;

export const D = (v: DecimalLike): Decimal => (v instanceof Decimal ? v : new Decimal(v));
export const ZERO = new Decimal(0);

export type RoundDirection = 'down' | 'up' | 'nearest';

/** Number of whole `step`s in `value`, rounded as told. A non-multiple with `exact` throws. */
export function toUnits(value: DecimalLike, step: DecimalLike, direction: RoundDirection | 'exact' = 'exact'): number {
  const q = D(value).div(D(step));
  let r: Decimal;
  switch (direction) {
    case 'down':
      r = q.floor();
      break;
    case 'up':
      r = q.ceil();
      break;
    case 'nearest':
      r = q.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
      break;
    case 'exact':
      if (!q.isInteger()) throw new RangeError(`${D(value).toString()} is not a multiple of ${D(step).toString()}`);
      r = q;
      break;
  }
  const n = r.toNumber();
  if (!Number.isSafeInteger(n)) throw new RangeError(`${D(value).toString()} / ${D(step).toString()} overflows integer units`);
  return n;
}

export const fromUnits = (units: number, step: DecimalLike): Decimal => D(step).mul(units);

/** Price rounded to the tick: buys round down and sells round up keep a limit order passive-safe. */
export function roundToTick(price: DecimalLike, tick: DecimalLike, direction: RoundDirection): Decimal {
  return fromUnits(toUnits(price, tick, direction), tick);
}

/** Quantities truncate to the step (never order more than asked). */
export function truncateToStep(qty: DecimalLike, step: DecimalLike): Decimal {
  return fromUnits(toUnits(qty, step, 'down'), step);
}

/** Step of a precision given as a number of decimals: 2 → 0.01. */
export const stepOfPrecision = (decimals: number): Decimal => new Decimal(10).pow(-decimals);

/** Decimal places of a step: 0.01 → 2, 5 → 0. */
export const decimalsOfStep = (step: DecimalLike): number => D(step).decimalPlaces();

/** Plain string without exponent, trailing zeros removed. */
export const toPlain = (v: DecimalLike): string => D(v).toFixed();
