/**
 * Whether a Decimal is a whole number of a unit (a price tick, a quantity step) — asked for every
 * price and quantity of every intent. Units are almost always powers of ten (0.01, 0.00001, 1): then
 * the answer is "no more decimal places than the unit has", which decimal.js knows without dividing.
 * Other units (0.5, 25) take the remainder, as before.
 */
import { Decimal } from '../core/decimal.js';

/** k when `unit` is 10^−k with k ≥ 0 (0.01 → 2, 1 → 0), else null; per unit object. */
const powerOfTen = new WeakMap<Decimal, number | null>();

export function placesOf(unit: Decimal): number | null {
  let k = powerOfTen.get(unit);
  if (k === undefined) {
    const dp = unit.decimalPlaces();
    k = unit.eq(new Decimal(10).pow(-dp)) ? dp : null;
    powerOfTen.set(unit, k);
  }
  return k;
}

export function isMultipleOf(value: Decimal, unit: Decimal): boolean {
  const k = placesOf(unit);
  return k === null ? value.mod(unit).isZero() : value.decimalPlaces() <= k;
}
