/**
 * An account setting (position mode, leverage, margin mode) applied the way a careful person would:
 * read it first and send nothing when it is already in place (idempotent), send the change, then read
 * it back. A change whose answer was lost (timeout, reset, 5xx: OutcomeUnknown) or that met a transient
 * error is resolved by reading, never by giving up; when the read shows it is not in place the change
 * is sent again — setting a value twice is harmless — until the deadline. A refusal by the venue (an
 * ExchangeError: positions open, a bad leverage) is final and passes through unchanged.
 */
import type { Clock } from '../../core/clock.js';
import { ExchangeError, OutcomeUnknown } from '../../core/errors.js';
import { isTransient, retryTransient, transientDelay, type JitterSource } from '../../core/transient-retry.js';

export interface SettingRetry {
  readonly clock: Clock;
  readonly random: JitterSource;
  /** How long one setting may take, answers lost and retries included. */
  readonly deadlineMs: number;
}

export interface VerifiedSetting {
  /** What is being set, for the error message (`position mode one-way`). */
  readonly what: string;
  readonly endpoint: string;
  /** Reads the venue: is the setting in place? */
  readonly isApplied: () => Promise<boolean>;
  /** Sends the change once. */
  readonly change: () => Promise<unknown>;
}

/**
 * Applies `s` and returns once the venue shows it. Without `retry` (a stub clock in unit tests) there
 * is one send and one read-back, and a read-back that disagrees is an error.
 */
export async function applyVerified(s: VerifiedSetting, retry: SettingRetry | undefined): Promise<void> {
  const deadlineAt = retry ? retry.clock.now() + retry.deadlineMs : 0;
  const read = (): Promise<boolean> =>
    retry ? retryTransient(s.isApplied, { clock: retry.clock, random: retry.random, deadlineAt }) : s.isApplied();
  if (await read()) return;
  let lastError: unknown;
  for (let attempt = 0; ; attempt++) {
    try {
      await s.change();
      lastError = undefined;
    } catch (e) {
      if (!(e instanceof OutcomeUnknown) && !isTransient(e)) throw e;
      lastError = e;
    }
    if (await read()) return;
    const left = retry ? deadlineAt - retry.clock.now() : 0;
    if (left <= 0) {
      const why =
        lastError instanceof Error ? ` (last send: ${lastError.message})` : ' (the venue acknowledged it but reads back otherwise)';
      throw new ExchangeError(`${s.what}: not in effect at the venue after ${attempt + 1} attempt(s)${why}`, { endpoint: s.endpoint });
    }
    await retry!.clock.sleep(Math.min(left, transientDelay(lastError, attempt, retry!.random)));
  }
}
