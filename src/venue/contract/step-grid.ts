/**
 * One grid of a contract (the price tick or the volume lot): whole steps ↔ Decimals, with the two
 * conversions every order makes kept off decimal.js (issue 12: parsing the request and building the
 * order view were a quarter of a maker+taker cycle).
 *
 * - `valueOf(n)` is `step · n`, remembered for recent n: Decimals are immutable and decimal.js keeps
 *   one canonical form per value (digits without trailing zero words), so the remembered one is the
 *   very value the multiplication gives.
 * - `exactSteps(v)` answers the common case of "how many whole steps is v" without dividing: in exact
 *   integer doubles for a short Decimal, otherwise it guesses n from a double and checks it exactly
 *   (below). Anything it cannot prove — off the grid, not positive, a string, too many digits — gives
 *   undefined, and the caller takes its exact Decimal path, which decides as before.
 */
import { Decimal } from '../../core/decimal.js';
import { lastCall } from '../../core/last-call.js';

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

/** A grid's remembered values; an order asks one grid several times in a row (its price checked and shown, its volumes). */
const rememberedFor = lastCall((grid: StepGrid): Map<number, Decimal> => {
  let remembered = rememberedOf.get(grid);
  if (remembered === undefined) rememberedOf.set(grid, (remembered = new Map()));
  return remembered;
});

export class StepGrid {
  private readonly stepNumber: number;
  /** step = mantissa · 10^-exponent with integers, when both are small enough for exact double checks. */
  private readonly mantissa: number | undefined;
  private readonly power: number | undefined;
  /**
   * power = 10^exponent. A grid restored from a snapshot written before this field has none, and
   * exactSteps then takes its older test (same answers).
   */
  private readonly exponent: number | undefined;

  constructor(readonly step: Decimal) {
    this.stepNumber = step.toNumber();
    const exponent = step.decimalPlaces();
    const mantissa = step.mul(new Decimal(10).pow(exponent));
    const ok = exponent <= 22 && mantissa.isInteger() && mantissa.lt(SAFE_DIGITS_LIMIT);
    this.mantissa = ok ? mantissa.toNumber() : undefined;
    this.power = ok ? 10 ** exponent : undefined;
    this.exponent = ok ? exponent : undefined;
  }

  /** step · n (n a whole number of steps, or any number: the product is exact either way). */
  valueOf(n: number): Decimal {
    const remembered = rememberedFor(this);
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
   * A Decimal of one or two digit words (prices and sizes as clients send them): wholeSteps decides in
   * integer doubles; that skipped building n · step, comparing Decimals and a power of ten (ieee754::pow,
   * ~600 instructions of a maker+taker cycle in callgrind). A longer one: n is guessed from its leading
   * digits and confirmed by an exact comparison with n · step.
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
    if (typeof v === 'string') {
      const whole = this.textSteps(v);
      return whole !== undefined && whole > 0 ? whole : undefined;
    }
    if (v instanceof Decimal) {
      const whole = this.wholeSteps(v as unknown as DecimalDigits);
      if (whole !== undefined) return whole > 0 ? whole : undefined;
      const n = Math.round(approximate(v as unknown as DecimalDigits) / this.stepNumber);
      if (!(n > 0) || !Number.isSafeInteger(n)) return undefined;
      return this.valueOf(n).eq(v) ? n : undefined;
    }
    return undefined;
  }

  /**
   * v / step for a Decimal of at most two digit words, decided in exact integer doubles without
   * building n · step: 0 or a negative number when v is not a positive whole number of steps, undefined
   * when the figures are too long for this test (exactSteps then guesses and compares Decimals).
   *
   * v = s · I · 10^(e − D + 1), with I the integer its D digits spell (below 10^14 for two words), and
   * step = mantissa / 10^exponent, so v = n · step ⇔ I · 10^z = n · mantissa with z = e − D + 1 + exponent.
   * Every product below stays under 10^15 (exact doubles) and every division is tested for a remainder.
   */
  private wholeSteps(x: DecimalDigits): number | undefined {
    const mantissa = this.mantissa;
    const exponent = this.exponent;
    const d = x.d;
    if (mantissa === undefined || exponent === undefined || d === null || d.length === 0 || d.length > 2) return undefined;
    if (x.s < 0) return 0;
    const w0 = d[0]!;
    const len0 = w0 >= 1e6 ? 7 : w0 >= 1e5 ? 6 : w0 >= 1e4 ? 5 : w0 >= 1e3 ? 4 : w0 >= 100 ? 3 : w0 >= 10 ? 2 : 1;
    const digits = d.length === 1 ? len0 : len0 + 7;
    const whole = d.length === 1 ? w0 : w0 * 1e7 + d[1]!;
    return this.stepsOf(whole, x.e - digits + 1 + exponent);
  }

  /**
   * v / step for decimal text of plain digits with at most one inner point ("61234.5", "0.002", as wire
   * requests and toPlain write numbers) spelling less than 10^15, decided as wholeSteps decides: v is
   * I · 10^-f for the integer I its digits spell and f digits after the point. Why: a request's price
   * and vol in text took decimal.js's parse and an exact division each (the backtest's orders and the
   * emulator's order/create send text). Anything else (a sign, an exponent, spaces, more digits) is
   * undefined here and decided by the exact path.
   */
  private textSteps(v: string): number | undefined {
    const power = this.power;
    const n = v.length;
    if (this.mantissa === undefined || power === undefined || n === 0 || n > 17) return undefined;
    // A grid restored from before `exponent` existed has its power (10^exponent, exact) to read it from.
    let exponent = this.exponent;
    if (exponent === undefined) for (exponent = 0; 10 ** exponent < power;) exponent++;
    let whole = 0;
    let places = -1; // digits after the point; -1 before it
    for (let i = 0; i < n; i++) {
      const c = v.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        whole = whole * 10 + (c - 48);
        if (places >= 0) places++;
      } else if (c === 46 && places < 0 && i > 0 && i < n - 1) places = 0;
      else return undefined;
    }
    // Past 10^15 the digits may not be exact in a double (and the test below needs products under 10^15).
    if (whole >= SAFE_DIGITS_LIMIT) return undefined;
    return this.stepsOf(whole, exponent - Math.max(places, 0));
  }

  /** n with whole · 10^z = n · mantissa (0 or negative: no such whole number of steps; undefined: too long to decide here). */
  private stepsOf(whole: number, z: number): number | undefined {
    const mantissa = this.mantissa!;
    let scaled: number;
    if (z >= 0) {
      if (z >= POWERS.length) return undefined;
      scaled = whole * POWERS[z]!;
      if (scaled >= SAFE_DIGITS_LIMIT) return undefined;
    } else {
      if (-z >= POWERS.length) return 0; // more than 15 decimals below the grid's: a whole number of digits < 10^14 cannot cancel them
      const p = POWERS[-z]!;
      if (whole % p !== 0) return 0;
      scaled = whole / p;
    }
    if (scaled % mantissa !== 0) return 0;
    const n = scaled / mantissa;
    // The same value, as a small integer when it is one (n | 0 === n below 2^30). Why: a division's
    // result is a double to V8, and an order's ticks stored as one made every number field derived from
    // them (its ticks, deal cost, fee and PnL counts, its fills' too) a double field, each boxed in its
    // own 16-byte object per order and fill kept in the history: 11 boxes per order and fill, 3 with
    // this (%DebugPrint); the history of the bench's two accounts held 2.5 MB less (23.6 -> 21.1 MB)
    // and a maker+taker cycle allocated 4,629 -> 4,206 bytes (heap sampling).
    return n < SMALL_INTEGER_LIMIT ? n | 0 : n;
  }
}

/** Below this a whole number is a small integer (V8's Smi: 31 bits on every platform it runs on). */
const SMALL_INTEGER_LIMIT = 2 ** 30;

/** 10^0 … 10^15, exact doubles. */
const POWERS = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

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
