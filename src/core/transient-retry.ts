/**
 * Patience for transient venue errors: a 429 (wait its Retry-After), a timeout, a 5xx, a refused or reset
 * connection. Such an error says nothing about the request itself, so a read may simply be asked again
 * until a deadline. Writes are not retried here: a write whose answer was lost has an unknown outcome
 * and is resolved by reading (OutcomeUnknown is never transient).
 *
 * Waits are on the injected Clock; jitter comes from the injected random source, so a run backs off the
 * same way each time.
 */
import type { Clock } from './clock.js';
import { NetworkError, RateLimited } from './errors.js';

/** A uniform [0, 1) draw (SeededRandom fits). */
export interface JitterSource {
  next(): number;
}

export interface BackoffSettings {
  /** First backoff, before jitter. */
  readonly baseDelayMs: number;
  /** Cap of the exponential backoff (a Retry-After may be longer and is honoured). */
  readonly maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = Object.freeze({ baseDelayMs: 250, maxDelayMs: 5_000 });

/** True for the errors a read may be retried after: rate limits, timeouts, 5xx, connection failures. */
export function isTransient(e: unknown): e is NetworkError {
  return e instanceof NetworkError && e.retryable;
}

/**
 * The wait before retry `attempt` (0-based): the venue's Retry-After when it gave one, else
 * min(max, base·2ⁿ)·(0.5 + 0.5·random) ("equal jitter": never less than half, spread over the rest).
 */
export function transientDelay(e: unknown, attempt: number, random: JitterSource, backoff: BackoffSettings = DEFAULT_BACKOFF): number {
  if (e instanceof RateLimited && e.retryAfterMs !== undefined) return e.retryAfterMs;
  const cap = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** Math.min(attempt, 30));
  return Math.round(cap * (0.5 + 0.5 * random.next()));
}

export interface RetryTransientOptions {
  readonly clock: Clock;
  readonly random: JitterSource;
  /** Absolute time (clock ms) after which the last transient error is thrown. */
  readonly deadlineAt: number;
  readonly backoff?: BackoffSettings;
  /** Told before each wait (logging). */
  readonly onRetry?: (info: { attempt: number; delayMs: number; error: NetworkError }) => void;
}

/**
 * Runs `fn` until it succeeds, throws a non-transient error, or the deadline passes. A wait that would
 * end after the deadline is cut to it, so the last attempt happens at the deadline.
 */
export async function retryTransient<T>(fn: () => Promise<T>, o: RetryTransientOptions): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const left = o.deadlineAt - o.clock.now();
      if (!isTransient(e) || left <= 0) throw e;
      const delayMs = Math.min(left, transientDelay(e, attempt, o.random, o.backoff));
      o.onRetry?.({ attempt, delayMs, error: e });
      await o.clock.sleep(delayMs);
    }
  }
}
