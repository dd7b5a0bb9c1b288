import { expect } from 'chai';
import { Subject } from 'rxjs';
import { VirtualClock } from '../../../src/core/clock.js';
import { spotSymbol } from '../../../src/core/ids.js';
import type { MarketSnapshot } from '../../../src/domain/snapshot.js';
import type { MarketDataStale } from '../../../src/marketdata/poll/market-data-events.js';
import { isSnapshotFresh, staleGuard, watchFreshness, type Freshness } from '../../../src/marketdata/poll/stale-guard.js';

const BTC = spotSymbol('BTCUSDT');
const ETH = spotSymbol('ETHUSDT');
const snap = (symbol: typeof BTC, pollTime: number, seq = 1): MarketSnapshot => ({ symbol, kind: 'spot', pollTime, seq });

describe('stale guard', () => {
  it('passes_a_snapshot_exactly_at_the_age_limit', () => {
    // age = 1500 − 1000 = 500 = maxAge → fresh; 501 → stale
    expect(isSnapshotFresh(snap(BTC, 1000), 1500, 500)).to.equal(true);
    expect(isSnapshotFresh(snap(BTC, 1000), 1501, 500)).to.equal(false);
  });

  it('never_delivers_a_snapshot_older_than_the_limit_and_reports_it', () => {
    const clock = new VirtualClock(10_000);
    const input = new Subject<MarketSnapshot>();
    const delivered: MarketSnapshot[] = [];
    const stale: MarketDataStale[] = [];
    input.pipe(staleGuard({ clock, maxAgeMs: 2000, watchdog: false, onStale: (e) => stale.push(e) })).subscribe((s) => delivered.push(s));
    input.next(snap(BTC, 9_000, 1)); // age 1000: fresh
    input.next(snap(BTC, 7_999, 2)); // age 2001: stale
    input.next(snap(BTC, 8_000, 3)); // age 2000: fresh (limit inclusive)
    expect(delivered.map((s) => s.seq)).to.deep.equal([1, 3]);
    expect(stale).to.have.length(1);
    expect(stale[0]).to.deep.include({
      type: 'MarketDataStale',
      reason: 'arrived-stale',
      symbol: BTC,
      pollTime: 7_999,
      ageMs: 2001,
      maxAgeMs: 2000,
      ts: 10_000,
    });
  });

  it('judges_age_when_the_snapshot_reaches_the_guard_not_when_it_was_polled', () => {
    const clock = new VirtualClock(0);
    const input = new Subject<MarketSnapshot>();
    const delivered: MarketSnapshot[] = [];
    input.pipe(staleGuard({ clock, maxAgeMs: 500, watchdog: false })).subscribe((s) => delivered.push(s));
    const s = snap(BTC, 0);
    clock.advanceTo(600); // the snapshot sat in a queue for 600 ms
    input.next(s);
    expect(delivered).to.have.length(0);
  });

  it('raises_no_update_once_when_a_symbol_goes_quiet_and_rearms_on_fresh_data', () => {
    const clock = new VirtualClock(0);
    const input = new Subject<MarketSnapshot>();
    const out: Freshness[] = [];
    input.pipe(watchFreshness({ clock, maxAgeMs: 1000 })).subscribe((f) => out.push(f));
    input.next(snap(BTC, 0, 1));
    input.next(snap(ETH, 0, 1));
    clock.advanceTo(800);
    input.next(snap(ETH, 800, 2)); // ETH keeps flowing
    clock.advanceTo(5000);
    const stale = out.filter((f): f is MarketDataStale => f.type === 'MarketDataStale');
    // BTC: last poll 0 → stale just after 0 + 1000 (fires at 1001); ETH: last poll 800 → fires at 1801.
    expect(stale.map((e) => [e.symbol, e.ts, e.ageMs, e.reason])).to.deep.equal([
      [BTC, 1001, 1001, 'no-update'],
      [ETH, 1801, 1001, 'no-update'],
    ]);
    input.next(snap(BTC, 5000, 2));
    clock.advanceTo(7000);
    const after = out.filter((f) => f.type === 'MarketDataStale');
    expect(after).to.have.length(3); // re-armed by the fresh BTC snapshot: fires at 6001
    expect(out.filter((f) => f.type === 'MarketDataFresh')).to.have.length(4);
  });

  it('clears_its_timers_on_unsubscribe', () => {
    const clock = new VirtualClock(0);
    const input = new Subject<MarketSnapshot>();
    const sub = input.pipe(watchFreshness({ clock, maxAgeMs: 1000 })).subscribe(() => undefined);
    input.next(snap(BTC, 0));
    expect(clock.pendingTimers()).to.equal(1);
    sub.unsubscribe();
    expect(clock.pendingTimers()).to.equal(0);
  });

  it('refuses_a_non_positive_age', () => {
    expect(() => watchFreshness({ clock: new VirtualClock(0), maxAgeMs: 0 })).to.throw(/maxSnapshotAgeMs/);
  });
});
