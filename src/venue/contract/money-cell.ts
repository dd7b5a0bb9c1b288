/**
 * One mutable amount of the contract venue's settle coin, kept as ledger units (counts of
 * 10^-LEDGER_SCALE, the spot ledger's units: a bigint part and a part in doubles, see MoneyCell.big)
 * so the per-fill path adds integers, not Decimals.
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
  return decimalOfDigits(negative, (negative ? -units : units).toString(), 0);
}

/** decimalOfUnits(units + grains · grain): an amount kept in both forms (OrderState, FillRecord). */
export function decimalOfParts(units: bigint, grains: number, grain: number): Decimal {
  // Truth test: the grain fields are absent on records restored from a snapshot written before them.
  if (!grains) return decimalOfUnits(units);
  if (units === 0n) return decimalOfGrains(grains, grain);
  return decimalOfUnits(units + BigInt(grains) * BigInt(grain));
}

/** Per grain (a safe integer of units): grain = factor · 10^zeros with factor not a multiple of 10. */
const GRAIN_PARTS = new Map<number, { readonly factor: number; readonly zeros: number }>();

function grainParts(grain: number): { readonly factor: number; readonly zeros: number } {
  let p = GRAIN_PARTS.get(grain);
  if (p === undefined) {
    let factor = grain;
    let zeros = 0;
    while (factor % 10 === 0 && factor > 0) {
      factor /= 10;
      zeros++;
    }
    GRAIN_PARTS.set(grain, (p = { factor, zeros }));
  }
  return p;
}

/**
 * decimalOfUnits(grains · grain) without the bigint: the digits of grains · factor (a double, while a safe
 * integer) followed by the grain's zeros, grouped as decimalOfUnits groups them. Why: a fill's view read
 * its fee through a bigint product and its text, about 2,000 of a listened cycle's instructions (callgrind).
 */
export function decimalOfGrains(grains: number, grain: number): Decimal {
  if (grains === 0) return ZERO;
  const { factor, zeros } = grainParts(grain);
  const n = grains * factor;
  if (!Number.isSafeInteger(n)) return decimalOfUnits(BigInt(grains) * BigInt(grain));
  return decimalOfDigits(n < 0, String(n < 0 ? -n : n), zeros);
}

/**
 * The Decimal of the integer whose decimal digits are `text` followed by `zeros` zeros, times 10^-18,
 * with decimal.js's fields as its parser sets them (parseDecimal: the first word ends at the units digit
 * of the value, trailing zeros are dropped, the last word is padded on the right); a property test holds
 * it equal to the parser's Decimal field by field.
 */
function decimalOfDigits(negative: boolean, text: string, zeros: number): Decimal {
  let len = text.length;
  while (text.charCodeAt(len - 1) === 48) len--;
  const e = text.length + zeros - 1 - LEDGER_SCALE;
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

/**
 * Values that a snapshot written before the two-part fields set through legacy accessors (MoneyCell
 * units, Wallet frozenUnits, ContractPosition's costs), kept for their reviveAfterSnapshot.
 */
export const legacyValues = new WeakMap<object, bigint>();

/**
 * Largest grain count addGrains adds in doubles, and the bound the fast part is folded at: a sum of two
 * counts within ±2^52 stays within ±2^53, so it is exact in doubles.
 */
export const MAX_FAST = 2 ** 52;

/** Relative size below which a double sum of the two parts does not tell the sign (its error is ≤ 2^-52 of the parts). */
const SIGN_SLACK = 1e-12;

export class MoneyCell {
  /**
   * The amount in ledger units is big + fast · grain while `dec` is undefined (as the spot ledger's Slot):
   * `big` a bigint, `fast` a safe integer count of `grain` units (a safe integer) that the fill path adds
   * to in doubles. Why: an amount of 10^-18 units passes 2^53 from 0.009 coin, so every sum on a bigint
   * allocated, about 37 of them per contract maker+taker cycle (issue 12); margin, fees and PnL are whole
   * counts of a coarser grain (margin-units.ts), and their sums stay small integers.
   */
  big = 0n;
  fast = 0;
  grain = 0;
  /**
   * Number(big), kept with it: the sign and the float screens read the cell after every fill, and each
   * Number() of a bigint past 2^53 was ~150 instructions; big itself changes only on a fold or a set.
   */
  bigNumber = 0;
  /** The amount when it is not a whole number of units. */
  dec: Decimal | undefined = undefined;
  /** The amount as a Decimal, built when read and kept until it changes (readers compare it by identity). */
  private cached: Decimal | undefined = undefined;

  /**
   * The amount in ledger units while `dec` is undefined. Not folded into `big` on reading: a view read
   * after every fill (cross equity, realised) folded the cells, and the next fills then took the bigint
   * paths that need the amount in the double part (floorShareGrains, realised's sum); callgrind counted
   * 94,600 instructions per listened cycle against 79,200 before the two parts.
   */
  get units(): bigint {
    // A truth test: a snapshot restore reads this on a cell made without its fields (then it is undefined).
    return this.fast ? this.big + BigInt(this.fast) * BigInt(this.grain) : this.big;
  }

  /**
   * Sets the amount in units. Only a snapshot written before the two parts sets `units`: its restore
   * then deletes the fields it did not write (big, fast, …), so the value is kept aside for
   * reviveAfterSnapshot to rebuild them from.
   */
  set units(u: bigint) {
    this.setBig(u);
    this.fast = 0;
    legacyValues.set(this, u);
  }

  /** Called by the emulator's snapshot restore (object-graph.ts REVIVE): rebuilds the parts an older snapshot lacks. */
  reviveAfterSnapshot(): void {
    if ((this.big as bigint | undefined) !== undefined) return;
    this.setBig(legacyValues.get(this) ?? 0n);
    this.fast = 0;
    this.grain = 0;
  }

  private setBig(u: bigint): void {
    this.big = u;
    this.bigNumber = Number(u);
  }

  /** Moves the fast part into `big` (same amount). */
  private fold(): void {
    this.setBig(this.big + BigInt(this.fast) * BigInt(this.grain));
    this.fast = 0;
  }

  get value(): Decimal {
    // A cell held wholly in its double part (position margin, fees, PnL: the usual case) without a bigint.
    return (this.cached ??= this.dec ?? (this.big === 0n ? decimalOfGrains(this.fast, this.grain) : decimalOfUnits(this.units)));
  }

  set(v: Decimal): void {
    const u = exactUnits(v);
    if (u === undefined) this.dec = v;
    else {
      this.dec = undefined;
      this.setBig(u);
      this.fast = 0;
    }
    this.cached = v;
  }

  /** Takes `other`'s amount (a copy that later changes of `other` do not reach). */
  copyFrom(other: MoneyCell): void {
    this.big = other.big;
    this.bigNumber = other.bigNumber;
    this.fast = other.fast;
    this.grain = other.grain;
    this.dec = other.dec;
    this.cached = other.cached;
  }

  setUnits(u: bigint): void {
    this.dec = undefined;
    this.setBig(u);
    this.fast = 0;
    this.cached = undefined;
  }

  addUnits(u: bigint): void {
    if (u === 0n) return;
    if (this.dec === undefined) {
      // From zero, keep `u` itself: `0n + u` is a new bigint (cells of retained orders survive collections).
      this.setBig(this.big === 0n ? u : this.big + u);
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
      this.setBig(this.big - u);
      this.cached = undefined;
    } else this.addUnits(-u);
  }

  /**
   * Adds n · grain ledger units (n a safe integer, grain a positive safe integer): in doubles while n is
   * within ±MAX_FAST and the cell already counts in `grain` (or holds no fast part), else exactly in
   * bigints. A Decimal cell takes the Decimal operation addUnits does.
   */
  addGrains(n: number, grain: number): void {
    if (n === 0) return;
    if (this.dec !== undefined || n > MAX_FAST || n < -MAX_FAST) {
      this.addUnits(BigInt(n) * BigInt(grain));
      return;
    }
    if (grain !== this.grain) {
      if (this.fast !== 0) this.fold();
      this.grain = grain;
    }
    const f = this.fast + n;
    this.fast = f;
    if (f > MAX_FAST || f < -MAX_FAST) this.fold();
    this.cached = undefined;
  }

  subGrains(n: number, grain: number): void {
    this.addGrains(-n, grain);
  }

  /** Adds another cell's amount. */
  addCell(c: MoneyCell): void {
    if (c.dec !== undefined) this.set(this.value.add(c.dec));
    // Into a Decimal cell in one addition (each Decimal addition rounds to its precision).
    else if (this.dec !== undefined) this.addUnits(c.units);
    else {
      if (c.big !== 0n) this.addUnits(c.big);
      if (c.fast !== 0) this.addGrains(c.fast, c.grain);
    }
  }

  /**
   * The sign of big + fast · grain: from the double sum when it is clearly away from zero (its error is
   * within 2^-52 of the parts' magnitudes), else exactly after folding.
   */
  private sign(): number {
    // Number() of a bigint keeps its sign (and zero), so bigNumber tells big's sign exactly.
    const b = this.bigNumber;
    if (this.fast === 0) return b < 0 ? -1 : b > 0 ? 1 : 0;
    const f = this.fast * this.grain;
    const s = b + f;
    if (Math.abs(s) > SIGN_SLACK * (Math.abs(b) + Math.abs(f))) return s > 0 ? 1 : -1;
    const u = this.units;
    return u < 0n ? -1 : u > 0n ? 1 : 0;
  }

  isNegative(): boolean {
    return this.dec === undefined ? this.sign() < 0 : this.dec.lt(0);
  }

  isPositive(): boolean {
    return this.dec === undefined ? this.sign() > 0 : this.dec.gt(0);
  }

  isZero(): boolean {
    return this.dec === undefined ? this.sign() === 0 : this.dec.isZero();
  }

  toString(): string {
    return this.value.toString();
  }

  /**
   * The amount in coins as a double, for the float screens: within 2^-52 of magnitude() of the exact
   * amount (the two parts are rounded and summed), which the screens' slack (1e-9 of what they sum) covers.
   */
  toNumber(): number {
    if (this.dec !== undefined) return this.dec.toNumber();
    return this.fast === 0 ? this.bigNumber / UNITS_PER_COIN : (this.bigNumber + this.fast * this.grain) / UNITS_PER_COIN;
  }

  /** |big| + |fast · grain| in coins: what toNumber's rounding is relative to. */
  magnitude(): number {
    if (this.dec !== undefined) return Math.abs(this.dec.toNumber());
    return (Math.abs(this.bigNumber) + Math.abs(this.fast * this.grain)) / UNITS_PER_COIN;
  }
}

const UNITS_PER_COIN = 10 ** LEDGER_SCALE;

/** A cell holding `units` (a fresh amount the caller goes on to combine). */
export function cellOfUnits(units: bigint): MoneyCell {
  const c = new MoneyCell();
  c.setUnits(units);
  return c;
}
