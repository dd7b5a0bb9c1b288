/**
 * A commission rate as an exact rational num/den, so fees on bigint ledger units stay exact.
 * Fees are rounded UP to the ledger unit (the venue never undercharges by rounding) and never exceed
 * the amount they are taken from.
 */
import { D, type Decimal, type DecimalLike } from '../../core/decimal.js';
import { pow10 } from './ledger-units.js';

export interface FeeRate {
  readonly rate: Decimal;
  readonly num: bigint;
  readonly den: bigint;
}

export const ZERO_FEE: FeeRate = feeRate(0);

export function feeRate(rate: DecimalLike): FeeRate {
  const r = D(rate);
  if (r.isNegative() || r.gte(1)) throw new RangeError(`fee rate must be in [0, 1), got ${r.toFixed()}`);
  const dp = r.decimalPlaces();
  const den = pow10(dp);
  return { rate: r, num: BigInt(r.mul(D(10).pow(dp)).toFixed(0)), den };
}

/** ceil(amount · rate), capped at amount. */
export function feeOn(amountUnits: bigint, rate: FeeRate): bigint {
  if (rate.num === 0n || amountUnits <= 0n) return 0n;
  const fee = (amountUnits * rate.num + rate.den - 1n) / rate.den;
  return fee > amountUnits ? amountUnits : fee;
}

/**
 * Fee units per `unitsPerCount` when the fee of any whole number of counts is exact (then the fee of n
 * counts is n times it, with no rounding); 0n at a zero rate; undefined when rounding would matter.
 */
export function exactFeePer(unitsPerCount: bigint, rate: FeeRate): bigint | undefined {
  if (rate.num === 0n) return 0n;
  const p = unitsPerCount * rate.num;
  return p % rate.den === 0n ? p / rate.den : undefined;
}
