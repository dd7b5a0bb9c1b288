/**
 * Funding settles at fixed multiples of the cycle since the epoch (00:00, 08:00, 16:00 UTC for the
 * venue's 8-hour cycle), so every venue instance agrees on the settle times whatever its start time.
 */
import type { Decimal } from '../../core/decimal.js';
import { PositionType } from '../../domain/contract-enums.js';

export const HOUR_MS = 3_600_000;

/** The first settle time strictly after `now`. */
export function nextFundingTime(now: number, intervalMs: number): number {
  if (!(intervalMs > 0)) throw new RangeError(`funding interval must be > 0, got ${intervalMs}`);
  return (Math.floor(now / intervalMs) + 1) * intervalMs;
}

/**
 * Signed funding of one position: positionValue · rate, paid by longs and received by shorts when
 * the rate is positive (the reverse when negative). Positive = received. Not rounded, so the longs'
 * payments and the shorts' receipts cancel exactly when open interest is balanced.
 */
export function positionFunding(positionType: PositionType, positionValue: Decimal, rate: Decimal): Decimal {
  const amount = positionValue.mul(rate);
  return positionType === PositionType.LONG ? amount.neg() : amount;
}
