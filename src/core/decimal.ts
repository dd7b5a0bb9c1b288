/**
 * Decimal at the edges, integers in the hot path (docs/architecture.md rule 3). These helpers convert
 * between venue decimals and integer ticks / lots with an explicit rounding direction.
 */
import { Decimal } from 'decimal.js';

export { Decimal };

Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });

/** decimal.js's internal form: sign, exponent (base 10^7 words), digit words. */
interface DecimalDigits {
  readonly s: number;
  readonly e: number;
  readonly d: readonly number[] | null;
}

/** The library's comparison, kept for values the in-place one hands back to it and for the tests. */
// oxlint-disable-next-line typescript/unbound-method -- it is only ever called with .call(a Decimal)
const cmpCopying: (this: Decimal, y: Decimal.Value) => number = Decimal.prototype.comparedTo;

/**
 * decimal.js copies its argument on every comparison (`new Decimal(y)`, the digit array included), so
 * each `eq`, `gt`, `lte` … allocates; a risk check or a quote diff makes hundreds of them. This is the
 * library's own comparison (decimal.js 10, `P.cmp`) reading a Decimal argument in place; anything else —
 * a string or number, NaN, ±Infinity, an exponent beyond the library's limits, where its copy would
 * change the value — goes to the library's comparison unchanged. A differential test holds the two equal.
 */
function cmpInPlace(this: Decimal, y: Decimal.Value): number {
  if (!(y instanceof Decimal)) return cmpCopying.call(this, y);
  const x = this as unknown as DecimalDigits;
  const v = y as unknown as DecimalDigits;
  const xd = x.d;
  const yd = v.d;
  if (!xd || !yd || v.e > Decimal.maxE || v.e < Decimal.minE) return cmpCopying.call(this, y);
  const xs = x.s;
  if (!xd[0] || !yd[0]) return xd[0] ? xs : yd[0] ? -v.s : 0;
  if (xs !== v.s) return xs;
  if (x.e !== v.e) return x.e > v.e !== xs < 0 ? 1 : -1;
  const xdL = xd.length;
  const ydL = yd.length;
  for (let i = 0, j = xdL < ydL ? xdL : ydL; i < j; ++i) {
    if (xd[i] !== yd[i]) return xd[i]! > yd[i]! !== xs < 0 ? 1 : -1;
  }
  return xdL === ydL ? 0 : xdL > ydL !== xs < 0 ? 1 : -1;
}
// eq, gt, gte, lt, lte call this.cmp: they all compare in place now.
Decimal.prototype.comparedTo = Decimal.prototype.cmp = cmpInPlace;

/** @internal The library's own comparison, for the differential test of cmpInPlace. */
export const libraryCmp = (a: Decimal, b: Decimal.Value): number => cmpCopying.call(a, b);

// oxlint-disable-next-line typescript/unbound-method -- it is only ever called with .call(a Decimal)
const toNumberViaString: (this: Decimal) => number = Decimal.prototype.toNumber;

/** 10^0 … 10^22: every one is a double exactly. */
const EXACT_POWERS = Array.from({ length: 23 }, (_, k) => 10 ** k);
const WORD = 1e7;
const MAX_EXACT = 2 ** 53;

/**
 * decimal.js turns a Decimal into a number through its string (`+this`): a string built and parsed on
 * every fair-price update of the liquidation screen and in every price-to-double step. A price has
 * few digits: its digits M as an integer and its power of ten k with M ≤ 2^53 and |k| ≤ 22 are both
 * doubles exactly, so one multiplication or division (M·10^k, M / 10^−k) is correctly rounded — the
 * same double as parsing the string, which is correctly rounded too (Clinger's fast path, as in every
 * strtod). Anything else — more digits, a larger exponent, NaN, ±Infinity — goes to the library's
 * conversion unchanged. A differential test holds the two equal.
 */
function toNumberFast(this: Decimal): number {
  const x = this as unknown as DecimalDigits;
  const m = mantissaOf(x);
  if (Number.isNaN(m)) return toNumberViaString.call(this);
  if (m === 0) return x.s < 0 ? -0 : 0;
  const k = mantissaPower;
  let v: number;
  if (k >= 0) {
    if (k > 22) return toNumberViaString.call(this);
    v = m * EXACT_POWERS[k]!;
  } else {
    if (k < -22) return toNumberViaString.call(this);
    v = m / EXACT_POWERS[-k]!;
  }
  return x.s < 0 ? -v : v;
}

/** Set by mantissaOf(): the power of ten of the mantissa it returned. */
let mantissaPower = 0;

/**
 * |x| = M·10^k with M a whole number without trailing zeros: returns M (below 2^53, so a double exactly)
 * and leaves k in mantissaPower; 0 for zero; NaN when M ≥ 2^53 or x is NaN or ±Infinity. No allocation.
 */
function mantissaOf(x: DecimalDigits): number {
  const d = x.d;
  if (!d) return NaN;
  const n = d.length;
  const first = d[0]!;
  if (first === 0) {
    mantissaPower = 0;
    return 0;
  }
  // The trailing zeros of the last word are dropped from M in int32 arithmetic: `last /= 10` made it a
  // double, and a double's % is a call to fmod (most of a conversion's cost for a price like 60000.1).
  let last = d[n - 1]! | 0;
  if (last === 0) return NaN;
  let zeros = 0;
  while (last % 10 === 0) {
    last = (last / 10) | 0;
    zeros++;
  }
  let m: number;
  let digits: number;
  if (n === 1) {
    m = last;
    digits = digitCount(first) - zeros;
  } else {
    m = first;
    for (let i = 1; i < n - 1; i++) m = m * WORD + d[i]!;
    m = m * EXACT_POWERS[7 - zeros]! + last;
    if (m >= MAX_EXACT) return NaN;
    digits = digitCount(first) + (n - 1) * 7 - zeros;
  }
  mantissaPower = x.e + 1 - digits;
  return m;
}

/**
 * `value` as a whole number of units 10^−places (ticks of a 0.01 tick: places 2), exactly: n with
 * value = n·10^−places and |n| < 2^53, else NaN (more decimals than `places`, too many digits, NaN,
 * ±Infinity). The risk rules and the order manager convert a price or quantity once and compare
 * integers; NaN sends them to the Decimal computation.
 */
export function unitsOf(value: Decimal, places: number): number {
  const x = value as unknown as DecimalDigits;
  const m = mantissaOf(x);
  if (m === 0) return 0;
  if (!(m > 0)) return NaN;
  // M has no trailing zeros: a negative shift means decimals beyond `places`.
  const j = mantissaPower + places;
  if (j < 0 || j > 22) return NaN;
  const v = m * EXACT_POWERS[j]!;
  if (v >= MAX_EXACT) return NaN;
  return x.s < 0 ? -v : v;
}

const digitCount = (w: number): number => (w < 10 ? 1 : w < 100 ? 2 : w < 1e3 ? 3 : w < 1e4 ? 4 : w < 1e5 ? 5 : w < 1e6 ? 6 : 7);
Decimal.prototype.toNumber = toNumberFast;

/** @internal The library's own conversion, for the differential test of toNumberFast. */
export const libraryToNumber = (a: Decimal): number => toNumberViaString.call(a);

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

/**
 * True when arithmetic would not round `d` (finite, at most the configured significant digits): then
 * d − 0 and 0 + d equal d, and a hot path may hand d on instead of computing a copy.
 */
export const withinPrecision = (d: Decimal): boolean => d.isFinite() && d.precision() <= Decimal.precision;
