/**
 * A Decimal as the nearest-ish double, read from decimal.js's digit words without a string round trip
 * (`toNumber()` formats and parses). Risk uses it only to screen: a check that is far from its limit in
 * doubles (by a margin many orders of magnitude above the doubles' rounding error) is decided; anything
 * near the limit, or not finite, goes to the exact Decimal computation. Relative error ≤ ~1e-15.
 */
import type { Decimal } from '../core/decimal.js';

/** decimal.js's internal form: sign, exponent of the first digit, base-10^7 digit words (null for NaN, ±Infinity). */
interface DecimalDigits {
  readonly s: number;
  readonly e: number;
  readonly d: readonly number[] | null;
}

const POW10: number[] = [];
for (let i = 0; i <= 308; i++) POW10.push(Number(`1e${i}`));

const digitsOf = (w: number): number =>
  w < 10 ? 1 : w < 100 ? 2 : w < 1000 ? 3 : w < 10_000 ? 4 : w < 100_000 ? 5 : w < 1_000_000 ? 6 : 7;

/** The value as a double; NaN for NaN and ±Infinity; beyond the double range it over- or underflows. */
export function approxNumber(x: Decimal): number {
  const { s, e, d } = x as unknown as DecimalDigits;
  if (!d) return NaN;
  // value = s × (d0 d1 d2 … as one integer) × 10^(e − digits(d0) + 1 − 7·(words − 1)); 4 words are 22+ digits.
  const n = d.length < 4 ? d.length : 4;
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 1e7 + d[i]!;
  const exp = e - digitsOf(d[0]!) + 1 - 7 * (n - 1);
  if (exp >= 0) return s * (exp <= 308 ? v * POW10[exp]! : v * Infinity);
  return s * (exp >= -308 ? v / POW10[-exp]! : (v / 1e308) * 10 ** (exp + 308));
}

/**
 * Relative margin of a screen in doubles: their rounding error over thousands of terms stays below 1e-12
 * of the magnitudes summed, Decimal's (40 significant digits) far below that; a check within 1e-9 of
 * its limit is left to the exact computation.
 */
export const SCREEN_MARGIN = 1e-9;
