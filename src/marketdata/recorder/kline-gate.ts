/**
 * Which polled candles to record: only CLOSED bars, each once. A kline poll returns the last N bars,
 * the newest usually still open (its high, low, close and volume keep changing); recording it would
 * store a bar that never existed in that form.
 *
 * A bar counts as closed when
 *  - a later bar is in the same response (the venue has moved on; it serves a bar for every interval,
 *    gap-filled with flat bars), or
 *  - its close time plus `graceMs` is not after `sentAfter`, a time before which the request cannot
 *    have been sent: the newest venue time of the previous snapshot (the venue's own clock, so our
 *    clock's skew cannot make an open bar look closed), else the previous poll time on our clock.
 *    The grace covers the venue still adding late prints to a bar just past its close.
 * Bars are recorded in open-time order, once: a bar whose open time is not after the last recorded
 * one of its interval is skipped. The first poll of a fresh recording writes the closed bars it
 * returns (up to the configured limit) as history.
 */
import type { Kline } from '../../domain/snapshot.js';
import { nextKlineOpenTime, type KlineInterval } from '../../domain/kline-interval.js';

export const DEFAULT_KLINE_GRACE_MS = 2000;

export interface ClosedBar {
  readonly bar: Kline;
  /** The bar's close time (the next bar's open time on these venues). */
  readonly closeTime: number;
}

export class KlineGate {
  private readonly last = new Map<KlineInterval, number>();

  constructor(readonly graceMs: number = DEFAULT_KLINE_GRACE_MS) {}

  /** Open time of the last bar recorded for `interval`, if any. */
  lastOpenTime(interval: KlineInterval): number | undefined {
    return this.last.get(interval);
  }

  /** Bars up to `openTime` are recorded already (a resumed recording). */
  seed(interval: KlineInterval, openTime: number): void {
    const prev = this.last.get(interval);
    if (prev === undefined || openTime > prev) this.last.set(interval, openTime);
  }

  /** The closed, not yet recorded bars of one response (bars in any order). */
  admit(interval: KlineInterval, bars: readonly Kline[], sentAfter: number | undefined): ClosedBar[] {
    if (bars.length === 0) return [];
    const sorted = [...bars].sort((a, b) => a.openTime - b.openTime);
    const newestOpen = sorted[sorted.length - 1]!.openTime;
    let last = this.last.get(interval) ?? -Infinity;
    const out: ClosedBar[] = [];
    for (const bar of sorted) {
      if (bar.openTime <= last) continue;
      const closeTime = bar.closeTime ?? nextKlineOpenTime(interval, bar.openTime);
      const closed = bar.openTime < newestOpen || (sentAfter !== undefined && closeTime + this.graceMs <= sentAfter);
      // Later bars cannot be closed when this one is not.
      if (!closed) break;
      out.push({ bar, closeTime });
      last = bar.openTime;
    }
    if (last !== -Infinity) this.last.set(interval, last);
    return out;
  }
}
