/**
 * A strategy never acts on a snapshot older than a configured age, judged on OUR clock (poll time),
 * not the venue's: venue clocks and our offset to them drift, our own clock is the one the rest of
 * the pipeline runs on.
 *
 * `watchFreshness` turns snapshots into a stream of fresh snapshots and MarketDataStale events:
 *  - `arrived-stale`: a snapshot is already older than `maxAgeMs` when it reaches the guard (a
 *    replayed last value after a gap, a queue behind a slow strategy) — it is held back;
 *  - `no-update`: a watchdog on the Clock fires when no snapshot of a symbol younger than `maxAgeMs`
 *    has arrived by lastPollTime + maxAgeMs (the poller is failing or stuck) — once per gap; the
 *    next fresh snapshot re-arms it.
 * `staleGuard` is the same as an operator that passes fresh snapshots only and hands the events to a
 * callback. Place it where the snapshot is consumed (after any job queue), so age is
 * judged when the strategy would act. No RxJS time operators: timers come from the injected Clock.
 */
import { Observable, type MonoTypeOperatorFunction, type OperatorFunction } from 'rxjs';
import type { Clock, TimerHandle } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import type { MarketSnapshot } from '../../domain/snapshot.js';
import type { MarketDataStale } from './market-data-events.js';

export interface StaleGuardOptions {
  readonly clock: Pick<Clock, 'now' | 'setTimer' | 'clearTimer'>;
  /** Oldest snapshot (now − pollTime) a strategy may see, ms. */
  readonly maxAgeMs: number;
  /** Raise `no-update` when the stream goes quiet (default true). */
  readonly watchdog?: boolean;
}

export type Freshness<S extends MarketSnapshot = MarketSnapshot> =
  { readonly type: 'MarketDataFresh'; readonly snapshot: S } | MarketDataStale;

/** True when the snapshot is no older than `maxAgeMs` at `now`. */
export const isSnapshotFresh = (s: MarketSnapshot, now: number, maxAgeMs: number): boolean => now - s.pollTime <= maxAgeMs;

export function watchFreshness<S extends MarketSnapshot>(options: StaleGuardOptions): OperatorFunction<S, Freshness<S>> {
  const { clock, maxAgeMs } = options;
  if (!(maxAgeMs > 0)) throw new ConfigError('marketData.maxSnapshotAgeMs', `expected an age > 0 ms, got ${maxAgeMs}`);
  const watchdog = options.watchdog ?? true;
  return (source) =>
    new Observable<Freshness<S>>((subscriber) => {
      const timers = new Map<string, TimerHandle>();
      const newest = new Map<string, number>();
      const arm = (s: S): void => {
        if (!watchdog) return;
        clock.clearTimer(timers.get(s.symbol));
        const deadline = s.pollTime + maxAgeMs;
        // Fires just after the deadline: at exactly maxAgeMs the snapshot is still fresh.
        timers.set(
          s.symbol,
          clock.setTimer(deadline + 1, () => {
            timers.delete(s.symbol);
            const now = clock.now();
            subscriber.next({
              type: 'MarketDataStale',
              ts: now,
              symbol: s.symbol,
              reason: 'no-update',
              pollTime: s.pollTime,
              ageMs: now - s.pollTime,
              maxAgeMs,
            });
          }),
        );
      };
      const sub = source.subscribe({
        next: (s) => {
          const now = clock.now();
          const seen = newest.get(s.symbol);
          if (seen === undefined || s.pollTime > seen) newest.set(s.symbol, s.pollTime);
          if (!isSnapshotFresh(s, now, maxAgeMs)) {
            subscriber.next({
              type: 'MarketDataStale',
              ts: now,
              symbol: s.symbol,
              reason: 'arrived-stale',
              pollTime: s.pollTime,
              ageMs: now - s.pollTime,
              maxAgeMs,
            });
            return;
          }
          // An older snapshot arriving after a newer one (out-of-order merge) must not re-arm the watchdog backwards.
          if (s.pollTime >= (seen ?? -Infinity)) arm(s);
          subscriber.next({ type: 'MarketDataFresh', snapshot: s });
        },
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      });
      return () => {
        sub.unsubscribe();
        for (const t of timers.values()) clock.clearTimer(t);
        timers.clear();
      };
    });
}

/** Passes fresh snapshots only; stale ones (and quiet streams) become `onStale` events. */
export function staleGuard<S extends MarketSnapshot>(
  options: StaleGuardOptions & { readonly onStale?: (e: MarketDataStale) => void },
): MonoTypeOperatorFunction<S> {
  const freshness = watchFreshness<S>(options);
  return (source) =>
    new Observable<S>((subscriber) =>
      freshness(source).subscribe({
        next: (f) => {
          if (f.type === 'MarketDataFresh') subscriber.next(f.snapshot);
          else options.onStale?.(f);
        },
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      }),
    );
}
