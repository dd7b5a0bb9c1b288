/**
 * One grid of a contract (the price tick or the volume lot): whole steps ↔ Decimals, with the two
 * conversions every order makes kept off decimal.js (issue 12: parsing the request and building the
 * order view were a quarter of a maker+taker cycle).
 *
 * - `valueOf(n)` is `step · n`, remembered for recent n: Decimals are immutable and decimal.js keeps
 *   one canonical form per value (digits without trailing zero words), so the remembered one is the
 *   very value the multiplication gives.
 * - `exactSteps(v)` answers the common case of "how many whole steps is v" without dividing: it
 *   guesses n from a double and checks it exactly (below). Anything it cannot prove — off the grid, not
 *   positive, a string, too many digits — gives undefined, and the caller takes its exact Decimal path,
 *   which decides as before.
 */
import { Decimal } from '../../core/decimal.js';

/** decimal.js's internal form (as core/decimal.ts reads it): sign, exponent, base-10^7 digit words. */
interface DecimalDigits {
  readonly s: number;
  readonly e: number;
  readonly d: readonly number[] | null;
}

/** Values remembered per grid before the memory starts over (prices and sizes in use are far fewer). */
const REMEMBERED = 4096;

/** A double's 15 significant digits always survive decimal → double → shortest decimal (DBL_DIG). */
const SAFE_DIGITS_LIMIT = 1e15;

/**
 * The remembered values of each grid. A cache, not state: kept beside the grid rather than in a field,
 * so the emulator's snapshot (which writes a registered object's own fields and restores objects
 * without running their constructors) neither carries it nor loses it; any grid gets one when asked.
 */
const rememberedOf = new WeakMap<StepGrid, Map<number, Decimal>>();

export class StepGrid {
  private readonly stepNumber: number;
  /** step = mantissa · 10^-exponent with integers, when both are small enough for exact double checks. */
  private readonly mantissa: number | undefined;
  private readonly power: number | undefined;

  constructor(readonly step: Decimal) {
    this.stepNumber = step.toNumber();
    const exponent = step.decimalPlaces();
    const mantissa = step.mul(new Decimal(10).pow(exponent));
    const ok = exponent <= 22 && mantissa.isInteger() && mantissa.lt(SAFE_DIGITS_LIMIT);
    this.mantissa = ok ? mantissa.toNumber() : undefined;
    this.power = ok ? 10 ** exponent : undefined;
  }

  /** step · n (n a whole number of steps, or any number: the product is exact either way). */
  valueOf(n: number): Decimal {
    let remembered = rememberedOf.get(this);
    if (remembered === undefined) rememberedOf.set(this, (remembered = new Map()));
    let v = remembered.get(n);
    if (v === undefined) {
      v = this.step.mul(n.toString());
      if (remembered.size >= REMEMBERED) remembered.clear();
      remembered.set(n, v);
    }
    return v;
  }

  /**
   * step · n as the nearest double, what `valueOf(n).toNumber()` gives (decimal.js parses its own text,
   * correctly rounded): n · mantissa below 2^53 is exact, and one division by an exact 10^e rounds it
   * correctly too.
   */
  numberOf(n: number): number {
    const mantissa = this.mantissa;
    const power = this.power;
    if (mantissa !== undefined && power !== undefined && Number.isSafeInteger(n * mantissa)) return (n * mantissa) / power;
    return this.valueOf(n).toNumber();
  }

  /**
   * n > 0 with v = n · step exactly, or undefined when that is not shown here (the caller's exact path
   * then decides, with the same answer whenever this one gives a number).
   *
   * A Decimal: n is guessed from its leading digits and confirmed by an exact comparison with n · step.
   * A number: Decimal reads it as its shortest decimal text. With c = n · mantissa < 10^15, c / 10^e is
   * one correctly rounded division of two exact doubles, so it equals v only when n · step rounds to v;
   * a decimal of at most 15 significant digits is the shortest text of the double it rounds to, so that
   * text is n · step itself.
   */
  exactSteps(v: unknown): number | undefined {
    if (typeof v === 'number') {
      const mantissa = this.mantissa;
      const power = this.power;
      if (mantissa === undefined || power === undefined) return undefined;
      const n = Math.round((v * power) / mantissa);
      if (!(n > 0) || n * mantissa >= SAFE_DIGITS_LIMIT) return undefined;
      return (n * mantissa) / power === v ? n : undefined;
    }
    if (v instanceof Decimal) {
      const n = Math.round(approximate(v as unknown as DecimalDigits) / this.stepNumber);
      if (!(n > 0) || !Number.isSafeInteger(n)) return undefined;
      return this.valueOf(n).eq(v) ? n : undefined;
    }
    return undefined;
  }
}

/** A Decimal's value to about 14 significant digits, from its first three digit words (NaN for NaN / ±Infinity). */
function approximate(x: DecimalDigits): number {
  const d = x.d;
  if (d === null || d.length === 0) return NaN;
  const w0 = d[0]!;
  // d[0] holds 1–7 digits; the value is 0.(d[0] d[1] …) scaled so that d[0]'s first digit sits at 10^e.
  const len0 = w0 >= 1e6 ? 7 : w0 >= 1e5 ? 6 : w0 >= 1e4 ? 5 : w0 >= 1e3 ? 4 : w0 >= 100 ? 3 : w0 >= 10 ? 2 : 1;
  const head = (w0 * 1e7 + (d[1] ?? 0)) * 1e7 + (d[2] ?? 0);
  return x.s * head * 10 ** (x.e - len0 + 1 - 14);
}
