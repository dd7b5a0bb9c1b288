/**
 * One mutable amount of the contract venue's settle coin, kept as ledger units (bigint counts of
 * 10^-LEDGER_SCALE, the spot ledger's units) so the per-fill path adds integers, not Decimals.
 *
 * Why a Decimal fallback: the venue also books amounts that are not whole units — funding is value ·
 * rate at the fair price's decimals, deposits and margin changes take any amount, the automatic top-up
 * and the cross liquidation fee follow the fair price. Such an amount switches the cell to a Decimal,
 * and every later operation on it is the Decimal operation the venue did before (same rounding to the
 * Decimal precision), so the digits stay those of the Decimal venue; it returns to units as soon as
 * its value is a whole number of units again.
 */
import { Decimal, ZERO } from '../../core/decimal.js';
import { LEDGER_SCALE, amountToUnits, unitsToDecimal } from '../ledger/ledger-units.js';

/** decimal.js's fields (as core/decimal.ts reads them): sign, base-10 exponent, base-10^7 digit words. */
interface DecimalFields {
  s: number;
  e: number;
  d: number[];
}

const DIGITS_PER_WORD = 7;
const WORD_PAD = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000];

/**
 * unitsToDecimal (ledger-units.ts) without the text round trip: the views of every order and fill turn
 * a few amounts into Decimals, and building `"<units>e-18"` for decimal.js to parse again cost about a
 * microsecond each. The digits of the units are grouped into decimal.js's words exactly as its parser
 * groups them (parseDecimal: the first word ends at the units digit of the value, trailing zeros are
 * dropped, the last word is padded on the right), so the result is the parser's Decimal, field by
 * field; a property test holds the two equal.
 */
export function decimalOfUnits(units: bigint): Decimal {
  if (units === 0n) return ZERO;
  const negative = units < 0n;
  const text = (negative ? -units : units).toString();
  let len = text.length;
  while (text.charCodeAt(len - 1) === 48) len--;
  const e = text.length - 1 - LEDGER_SCALE;
  // Digits in the first word: those from the leading digit down to the units digit, mod 7 (0 → 7).
  let size = (e + 1) % DIGITS_PER_WORD;
  if (size <= 0) size += DIGITS_PER_WORD;
  const d: number[] = [];
  let word = 0;
  let inWord = 0;
  for (let i = 0; i < len; i++) {
    word = word * 10 + (text.charCodeAt(i) - 48);
    if (++inWord === size) {
      d.push(word);
      word = 0;
      inWord = 0;
      size = DIGITS_PER_WORD;
    }
  }
  if (inWord > 0) d.push(word * WORD_PAD[size - inWord]!);
  // A fresh Decimal (its own fields in decimal.js's order), given the value's fields before anyone sees it.
  const x = new Decimal(0);
  const f = x as unknown as DecimalFields;
  f.s = negative ? -1 : 1;
  f.e = e;
  f.d = d;
  return x;
}

/** Whole ledger units of `v`, or undefined when it has more decimals than the ledger scale. */
export function exactUnits(v: Decimal): bigint | undefined {
  return v.decimalPlaces() <= LEDGER_SCALE ? amountToUnits(v) : undefined;
}

/** Ledger units of an amount that must be whole units (a price step, a fee per tick·lot); RangeError naming `what` otherwise. */
export function requireUnits(v: Decimal, what: string): bigint {
  const u = exactUnits(v);
  if (u === undefined) throw new RangeError(`${what} ${v.toFixed()} has more than ${LEDGER_SCALE} decimals (the venue's money units)`);
  return u;
}

export class MoneyCell {
  /** The amount in ledger units while `dec` is undefined. */
  units = 0n;
  /** The amount when it is not a whole number of units. */
  dec: Decimal | undefined = undefined;
  /** The amount as a Decimal, built when read and kept until it changes (readers compare it by identity). */
  private cached: Decimal | undefined = undefined;

  get value(): Decimal {
    return (this.cached ??= this.dec ?? decimalOfUnits(this.units));
  }

  set(v: Decimal): void {
    const u = exactUnits(v);
    if (u === undefined) this.dec = v;
    else {
      this.dec = undefined;
      this.units = u;
    }
    this.cached = v;
  }

  /** Takes `other`'s amount (a copy that later changes of `other` do not reach). */
  copyFrom(other: MoneyCell): void {
    this.units = other.units;
    this.dec = other.dec;
    this.cached = other.cached;
  }

  setUnits(u: bigint): void {
    this.dec = undefined;
    this.units = u;
    this.cached = undefined;
  }

  addUnits(u: bigint): void {
    if (u === 0n) return;
    if (this.dec === undefined) {
      // From zero, keep `u` itself: `0n + u` is a new bigint (cells of retained orders survive collections).
      this.units = this.units === 0n ? u : this.units + u;
      this.cached = undefined;
    } else this.set(this.dec.add(unitsToDecimal(u)));
  }

  /**
   * Subtracts `u` ledger units: `addUnits(-u)` without the negated bigint (each bigint operation
   * allocates; a fill subtracts its margin and fee from the wallet). The Decimal branch is addUnits's.
   */
  subUnits(u: bigint): void {
    if (u === 0n) return;
    if (this.dec === undefined) {
      this.units -= u;
      this.cached = undefined;
    } else this.addUnits(-u);
  }

  /** Adds another cell's amount. */
  addCell(c: MoneyCell): void {
    if (c.dec === undefined) this.addUnits(c.units);
    else this.set(this.value.add(c.dec));
  }

  isNegative(): boolean {
    return this.dec === undefined ? this.units < 0n : this.dec.lt(0);
  }

  isPositive(): boolean {
    return this.dec === undefined ? this.units > 0n : this.dec.gt(0);
  }

  isZero(): boolean {
    return this.dec === undefined ? this.units === 0n : this.dec.isZero();
  }

  toString(): string {
    return this.value.toString();
  }

  toNumber(): number {
    return this.dec === undefined ? Number(this.units) / UNITS_PER_COIN : this.dec.toNumber();
  }
}

const UNITS_PER_COIN = 10 ** LEDGER_SCALE;

/** A cell holding `units` (a fresh amount the caller goes on to combine). */
export function cellOfUnits(units: bigint): MoneyCell {
  const c = new MoneyCell();
  c.units = units;
  return c;
}
