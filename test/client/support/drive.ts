/**
 * Runs a client call to completion on a VirtualClock: whenever the call is waiting on a clock timer
 * (backoff, rate-limit wait) and not on I/O, time jumps to that timer. Transport deadlines are set far
 * beyond the horizon in these tests, so an in-flight request is never timed out by the driver.
 */
import type { VirtualClock } from '../../../src/core/clock.js';
import { settle } from './fake-venue.js';

export const FAR_DEADLINE_MS = 1e9;

export async function drive<T>(clock: VirtualClock, call: Promise<T>, horizonMs = 3_600_000): Promise<T> {
  let done = false;
  call.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await settle(2);
    if (done) break;
    const t = clock.nextTimerAt();
    if (t !== undefined && t <= clock.now() + horizonMs) clock.advanceTo(Math.max(t, clock.now()));
  }
  return call;
}

/** The rejection of a promise (fails the test when it resolves). */
export async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the call to fail, it succeeded');
}
