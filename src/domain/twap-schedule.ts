/**
 * The TWAP schedule, pure: n slices `intervalMs` apart from the start, slice k (0-based) due at
 * start + k·interval with a cumulative target of ⌊quantity·(k+1)/n⌋ to the step (the last slice's
 * target is the whole quantity). 10 over 10 min in 5 slices: 2, 4, 6, 8, 10 at 0, 2, 4, 6, 8 min.
 * Targets are cumulative so a slice that filled short is caught up by the next, never dropped.
 */
import { type Decimal, truncateToStep } from '../core/decimal.js';
import { ValidationError } from '../core/errors.js';

export interface TwapSchedule {
  readonly count: number;
  readonly intervalMs: number;
}

/** Exactly one of `slices` and `sliceIntervalMs`; the interval is whole ms. */
export function twapSchedule(durationMs: number, slices?: number, sliceIntervalMs?: number): TwapSchedule {
  if (!(Number.isInteger(durationMs) && durationMs > 0))
    throw new ValidationError('twap.durationMs', 'a positive integer (ms)', durationMs);
  if ((slices === undefined) === (sliceIntervalMs === undefined))
    throw new ValidationError('twap.slices', 'exactly one of slices and sliceIntervalMs', { slices, sliceIntervalMs });
  if (slices !== undefined) {
    if (!(Number.isInteger(slices) && slices > 0 && slices <= durationMs))
      throw new ValidationError('twap.slices', `an integer in 1..${durationMs} (durationMs)`, slices);
    return { count: slices, intervalMs: Math.floor(durationMs / slices) };
  }
  const iv = sliceIntervalMs!;
  if (!(Number.isInteger(iv) && iv > 0 && iv <= durationMs))
    throw new ValidationError('twap.sliceIntervalMs', `an integer in 1..${durationMs} (durationMs)`, iv);
  return { count: Math.ceil(durationMs / iv), intervalMs: iv };
}

/** Index of the newest slice due at `now` (−1 before the start). */
export function dueSlice(s: TwapSchedule, startedAt: number, now: number): number {
  if (now < startedAt) return -1;
  return Math.min(s.count - 1, Math.floor((now - startedAt) / s.intervalMs));
}

/** Cumulative quantity slice k should have reached. */
export function twapTarget(s: TwapSchedule, k: number, quantity: Decimal, step: Decimal): Decimal {
  if (k >= s.count - 1) return quantity;
  return truncateToStep(quantity.mul(k + 1).div(s.count), step);
}
