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
import { Decimal } from '../../core/decimal.js';
import { LEDGER_SCALE, amountToUnits, unitsToDecimal } from '../ledger/ledger-units.js';

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
    return (this.cached ??= this.dec ?? unitsToDecimal(this.units));
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

  setUnits(u: bigint): void {
    this.dec = undefined;
    this.units = u;
    this.cached = undefined;
  }

  addUnits(u: bigint): void {
    if (u === 0n) return;
    if (this.dec === undefined) {
      this.units += u;
      this.cached = undefined;
    } else this.set(this.dec.add(unitsToDecimal(u)));
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
