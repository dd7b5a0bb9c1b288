/**
 * Ledger money is a bigint count of 10^-scale of an asset (scale 18 by default, the precision the real
 * venue shows in balances such as "88.120131350620957006"). Why bigint and not numbers: a spot fill's
 * quote amount is price·qty with the decimals of tick and step added (0.01 × 0.00000001 → 10 decimals),
 * and a 90 000 USDT balance at 10^-10 already passes 2^53. Why one scale for every asset: any new
 * instrument fits without rescaling balances, and conversions are a multiplication by a constant.
 */
import { D, Decimal, ZERO, type DecimalLike } from '../../core/decimal.js';

export const LEDGER_SCALE = 18;

const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 40; i++, p *= 10n) POW10.push(p);

/** 10^n as a bigint (n ≤ 40). */
export function pow10(n: number): bigint {
  const p = POW10[n];
  if (p === undefined) throw new RangeError(`10^${n} is outside the supported range`);
  return p;
}

/** Exact amount → units. Throws RangeError when the amount has more decimals than the scale. */
export function amountToUnits(amount: DecimalLike, scale = LEDGER_SCALE): bigint {
  const scaled = D(amount).mul(pow10AsDecimal(scale));
  if (!scaled.isInteger()) throw new RangeError(`${D(amount).toFixed()} has more than ${scale} decimals`);
  return BigInt(scaled.toFixed(0));
}

/** Units → exact Decimal. */
export function unitsToDecimal(units: bigint, scale = LEDGER_SCALE): Decimal {
  if (units === 0n) return ZERO; // most fee, profit and margin fields of a view are zero: no parse
  return new Decimal(`${units.toString()}e-${scale}`);
}

/** Units of one step / tick / tick·step (must be a whole number of units at this scale). */
export function unitsPer(step: DecimalLike, scale = LEDGER_SCALE): bigint {
  const u = amountToUnits(step, scale);
  if (u <= 0n) throw new RangeError(`step ${D(step).toFixed()} must be positive`);
  return u;
}

function pow10AsDecimal(n: number): Decimal {
  return new Decimal(10).pow(n);
}

/** Greatest common divisor of two integers (≥ 0; 0 when both are 0): the grain two amounts of units share. */
export function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
