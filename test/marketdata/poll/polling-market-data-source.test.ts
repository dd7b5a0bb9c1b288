import { expect } from 'chai';
import type { Subscription } from 'rxjs';
import { VirtualClock } from '../../../src/core/clock.js';
import { ConfigError } from '../../../src/core/errors.js';
import { contractSymbol, spotSymbol } from '../../../src/core/ids.js';
import type { MarketDataEvent, MarketDataPollFailed, PolledSnapshot } from '../../../src/marketdata/poll/market-data-events.js';
import type { MarketPollConfig } from '../../../src/marketdata/poll/poll-config.js';
import { PollingMarketDataSource } from '../../../src/marketdata/poll/polling-market-data-source.js';
import { flush, gate, StubContractFetcher, StubSpotFetcher } from './support/stub-fetchers.js';

const BTCUSDT = spotSymbol('BTCUSDT');
const BTC_USDT = contractSymbol('BTC_USDT');

interface Rig {
  clock: VirtualClock;
  spot: StubSpotFetcher;
  contract: StubContractFetcher;
  source: PollingMarketDataSource;
  got: PolledSnapshot[];
  events: MarketDataEvent[];
  subs: Subscription[];
}

function rig(config: MarketPollConfig): Rig {
  const clock = new VirtualClock(0);
  const spot = new StubSpotFetcher();
  const contract = new StubContractFetcher();
  const source = new PollingMarketDataSource({ clock, config, spot, contract });
  const r: Rig = { clock, spot, contract, source, got: [], events: [], subs: [] };
  r.subs.push(source.events$.subscribe((e) => r.events.push(e)));
  return r;
}

/** Moves virtual time in 1 ms-granular steps of `step`, letting each cycle's promises settle. */
async function advance(r: Rig, ms: number, step = 100): Promise<void> {
  await flush();
  for (let t = 0; t < ms; t += step) {
    r.clock.advanceBy(Math.min(step, ms - t));
    await flush();
  }
}

const spotOnly = (
  streams: MarketPollConfig['instruments'][number]['streams'],
  cycleMs = 1000,
  extra: Partial<MarketPollConfig> = {},
): MarketPollConfig => ({
  instruments: [{ kind: 'spot', symbol: 'BTCUSDT', cycleMs, streams } as MarketPollConfig['instruments'][number]],
  ...extra,
});

describe('PollingMarketDataSource', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    if (r) {
      for (const s of r.subs) s.unsubscribe();
      await r.source.stop();
    }
    r = undefined;
  });

  describe('cadence', () => {
    it('polls_each_stream_at_its_own_cadence_and_carries_slower_records', async () => {
      r = rig(spotOnly({ depth: {}, trades: { everyMs: 3000 }, klines: { everyMs: 60_000, intervals: ['1m', '5m'] } }));
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await advance(r, 6000);
      // cycles at 0, 1000, …, 6000 → 7 depth calls; trades due every 3000 ms → at 0, 3000, 6000 = 3;
      // klines every 60 s → only at 0, one call per interval.
      expect(r.spot.count('depth')).to.equal(7);
      expect(r.spot.count('trades')).to.equal(3);
      expect(r.spot.count('klines:1m')).to.equal(1);
      expect(r.spot.count('klines:5m')).to.equal(1);
      expect(r.got.map((s) => s.pollTime)).to.deep.equal([0, 1000, 2000, 3000, 4000, 5000, 6000]);
      expect(r.got.map((s) => s.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
      // The snapshot at 2000 carries the trades fetched at 1st call (t=0); the one at 3000 the 2nd call's.
      expect(r.got[2]!.trades![0]!.id).to.equal('t1');
      expect(r.got[3]!.trades![0]!.id).to.equal('t2');
      expect(Object.keys(r.got[6]!.klines!)).to.deep.equal(['1m', '5m']);
    });

    it('rounds_a_cadence_up_to_whole_cycles', async () => {
      // everyMs 1500 on a 1000 ms cycle: due when ≥ 1500 ms passed → cycles 0, 2000, 4000.
      r = rig(spotOnly({ depth: {}, bookTicker: { everyMs: 1500 } }));
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await advance(r, 4000);
      expect(r.spot.count('depth')).to.equal(5);
      expect(r.spot.count('bookTicker')).to.equal(3);
    });

    it('does_not_poll_before_start_nor_without_subscribers', async () => {
      r = rig(spotOnly({ depth: {} }));
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => r!.got.push(s)));
      await advance(r, 3000);
      expect(r.spot.count('depth')).to.equal(0);
      for (const s of r.subs.splice(1)) s.unsubscribe();
      await r.source.start();
      await advance(r, 3000);
      expect(r.spot.count('depth')).to.equal(0);
    });

    it('never_overlaps_cycles_when_a_fetch_outlasts_the_cycle', async () => {
      r = rig(spotOnly({ depth: {} }));
      const g = gate();
      r.spot.gates.set('depth', g);
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await advance(r, 2500);
      expect(r.spot.count('depth')).to.equal(1); // still waiting on the first answer
      r.spot.gates.delete('depth');
      g.open();
      await flush();
      // The first cycle completes at 2500 (late); the next starts at max(0 + 1000, 2500) = 2500.
      expect(r.got.map((s) => s.pollTime)).to.deep.equal([2500]);
      r.clock.advanceBy(0);
      await flush();
      expect(r.spot.count('depth')).to.equal(2);
      expect(r.got.map((s) => s.pollTime)).to.deep.equal([2500, 2500]);
    });
  });

  describe('snapshot assembly', () => {
    it('keeps_poll_time_on_our_clock_apart_from_the_venue_time', async () => {
      r = rig({
        instruments: [
          { kind: 'contract', symbol: 'BTC_USDT', cycleMs: 1000, streams: { depth: {}, ticker: {}, indexPrice: {}, fundingRate: {} } },
        ],
      });
      r.contract.venueTime = 400; // the venue's clock is far behind ours
      const g = gate();
      r.contract.gates.set('depth', g);
      r.subs.push(r.source.snapshots(BTC_USDT).subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await flush();
      r.clock.advanceBy(30); // the depth answer takes 30 ms
      g.open();
      await flush();
      const s = r.got[0]!;
      expect(s.pollTime).to.equal(30); // when the cycle completed, by our clock
      // newest venue time among records: book 400, ticker 400+7, index 400+3, funding 400 → 407
      expect(s.exchangeTime).to.equal(407);
      expect(s.kind).to.equal('contract');
      expect(s.symbol).to.equal(BTC_USDT);
      expect(s.book!.bids[0]!.price.toString()).to.equal('101'); // call 1: 100 + 1
      expect(s.contractTicker!.bid1!.toString()).to.equal('100'); // 99 + 1
      expect(s.indexPrice!.exchangeTime).to.equal(403);
      expect(s.fundingRate!.rate.toString()).to.equal('0.0001');
    });

    it('assembles_every_spot_record_into_one_snapshot', async () => {
      r = rig(spotOnly({ depth: { limit: 5 }, bookTicker: {}, trades: {}, klines: { intervals: ['1m'] }, ticker24h: {}, avgPrice: {} }));
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await flush();
      const s = r.got[0]!;
      expect(Object.keys(s).sort()).to.deep.equal([
        'avgPrice',
        'book',
        'bookTicker',
        'exchangeTime',
        'kind',
        'klines',
        'pollTime',
        'seq',
        'symbol',
        'ticker24h',
        'trades',
      ]);
      // venue times: book 1000, ticker24h 1000 − 10 → newest 1000
      expect(s.exchangeTime).to.equal(1000);
      expect(s.avgPrice!.windowMinutes).to.equal(5);
    });

    it('merges_instruments_in_the_all_symbols_stream', async () => {
      r = rig({
        instruments: [
          { kind: 'spot', symbol: 'BTCUSDT', cycleMs: 1000, streams: { depth: {} } },
          { kind: 'contract', symbol: 'BTC_USDT', cycleMs: 2000, streams: { ticker: {} } },
        ],
      });
      r.subs.push(r.source.snapshots().subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await advance(r, 2000);
      // spot at 0, 1000, 2000; contract at 0, 2000
      expect(r.got.filter((s) => s.symbol === BTCUSDT)).to.have.length(3);
      expect(r.got.filter((s) => s.symbol === BTC_USDT)).to.have.length(2);
      expect(r.source.symbols).to.deep.equal([BTCUSDT, BTC_USDT]);
    });
  });

  describe('failures', () => {
    it('backs_off_exponentially_and_resumes_without_ending_the_stream', async () => {
      r = rig(spotOnly({ depth: {}, trades: {} }, 1000, { backoff: { initialMs: 500, multiplier: 2, maxMs: 30_000 } }));
      // depth calls: 1 ok (t=0), 2 fail (t=1000), 3 fail, 4 fail, 5 ok
      r.spot.script.set('depth', ['ok', 'fail', 'fail', 'fail', 'ok']);
      let completed = false;
      let errored = false;
      r.subs.push(
        r.source
          .snapshots(BTCUSDT)
          .subscribe({ next: (s) => r!.got.push(s), complete: () => (completed = true), error: () => (errored = true) }),
      );
      await r.source.start();
      await advance(r, 10_000, 50);
      const failed = r.events.filter((e): e is MarketDataPollFailed => e.type === 'MarketDataPollFailed');
      // failures at 1000, 1000+500 = 1500, 1500+1000 = 2500; retry 2500+2000 = 4500 succeeds.
      expect(failed.map((e) => [e.ts, e.consecutiveFailures, e.retryInMs])).to.deep.equal([
        [1000, 1, 500],
        [1500, 2, 1000],
        [2500, 3, 2000],
      ]);
      expect(failed[0]!.streams).to.deep.equal(['depth']);
      expect(r.events.filter((e) => e.type === 'MarketDataPollRecovered').map((e) => e.ts)).to.deep.equal([4500]);
      // snapshots: 0, then 4500, then every 1000 ms from the recovery: 5500 … 9500
      expect(r.got.map((s) => s.pollTime)).to.deep.equal([0, 4500, 5500, 6500, 7500, 8500, 9500]);
      expect(r.got.map((s) => s.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
      expect(completed || errored).to.equal(false);
      const stats = r.source.stats()[0]!;
      expect([stats.failures, stats.consecutiveFailures, stats.snapshots]).to.deep.equal([3, 0, 7]);
    });

    it('caps_the_backoff_delay', async () => {
      r = rig(spotOnly({ depth: {} }, 1000, { backoff: { initialMs: 500, multiplier: 3, maxMs: 2000 } }));
      r.spot.script.set('depth', ['fail', 'fail', 'fail', 'fail', 'fail']);
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await advance(r, 8000, 50);
      const delays = r.events.filter((e): e is MarketDataPollFailed => e.type === 'MarketDataPollFailed').map((e) => e.retryInMs);
      // 500, 500·3 = 1500, 500·9 = 4500 → capped 2000, 2000, 2000
      expect(delays.slice(0, 5)).to.deep.equal([500, 1500, 2000, 2000, 2000]);
      // failures at 0, 500, 2000, 4000, 6000; the 6th call (8000) succeeds
      expect(r.got.map((s) => s.pollTime)).to.deep.equal([8000]);
    });

    it('keeps_nothing_of_a_failed_cycle', async () => {
      r = rig(spotOnly({ depth: {}, trades: {} }));
      r.spot.script.set('trades', ['ok', 'fail']);
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await advance(r, 1500, 50);
      // cycle at 1000: depth call 2 succeeded, trades failed → retry at 1500 fetches both again
      expect(r.spot.count('depth')).to.equal(3);
      const s = r.got[1]!;
      expect(s.pollTime).to.equal(1500);
      expect(s.book!.sequence).to.equal('3'); // from the retry, not the failed cycle's call 2
    });
  });

  describe('multicast', () => {
    it('shares_one_poller_between_two_subscribers', async () => {
      r = rig(spotOnly({ depth: {}, trades: {} }));
      const a: PolledSnapshot[] = [];
      const b: PolledSnapshot[] = [];
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => a.push(s)));
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => b.push(s)));
      r.subs.push(r.source.snapshots().subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await advance(r, 3000);
      // 4 cycles (0, 1000, 2000, 3000): one depth request each, whatever the number of subscribers
      expect(r.spot.count('depth')).to.equal(4);
      expect(r.spot.count('trades')).to.equal(4);
      expect(a).to.have.length(4);
      expect(b.map((s) => s.seq)).to.deep.equal(a.map((s) => s.seq));
      expect(b[3]).to.equal(a[3]); // the very same object
      expect(r.got).to.have.length(4);
    });

    it('replays_the_latest_snapshot_to_a_late_subscriber', async () => {
      r = rig(spotOnly({ depth: {} }));
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => r!.got.push(s)));
      await r.source.start();
      await advance(r, 2000);
      const late: PolledSnapshot[] = [];
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe((s) => late.push(s)));
      expect(late.map((s) => s.seq)).to.deep.equal([3]);
      expect(r.spot.count('depth')).to.equal(3);
    });

    it('stops_polling_when_the_last_subscriber_leaves', async () => {
      r = rig(spotOnly({ depth: {} }));
      const s1 = r.source.snapshots(BTCUSDT).subscribe(() => undefined);
      const s2 = r.source.snapshots(BTCUSDT).subscribe(() => undefined);
      await r.source.start();
      await advance(r, 1000);
      s1.unsubscribe();
      await advance(r, 1000);
      expect(r.spot.count('depth')).to.equal(3);
      s2.unsubscribe();
      await advance(r, 5000);
      expect(r.spot.count('depth')).to.equal(3);
      expect(r.clock.pendingTimers()).to.equal(0);
    });

    it('completes_every_stream_on_stop', async () => {
      r = rig(spotOnly({ depth: {} }));
      let done = 0;
      r.subs.push(r.source.snapshots(BTCUSDT).subscribe({ complete: () => done++ }));
      r.subs.push(r.source.snapshots().subscribe({ complete: () => done++ }));
      await r.source.start();
      await advance(r, 1000);
      await r.source.stop();
      await advance(r, 3000);
      expect(done).to.equal(2);
      expect(r.spot.count('depth')).to.equal(2);
      expect(r.clock.pendingTimers()).to.equal(0);
    });
  });

  describe('configuration', () => {
    it('refuses_a_cadence_faster_than_the_cycle', () => {
      const clock = new VirtualClock(0);
      expect(() => new PollingMarketDataSource({ clock, spot: new StubSpotFetcher(), config: spotOnly({ depth: { everyMs: 500 } }) }))
        .to.throw(ConfigError)
        .with.property('path', 'marketData.instruments[0].streams.depth.everyMs');
    });

    it('refuses_a_contract_stream_on_a_spot_instrument', () => {
      const clock = new VirtualClock(0);
      const config = {
        instruments: [{ kind: 'spot', symbol: 'BTCUSDT', cycleMs: 1000, streams: { fundingRate: {} } }],
      } as unknown as MarketPollConfig;
      expect(() => new PollingMarketDataSource({ clock, spot: new StubSpotFetcher(), config }))
        .to.throw(ConfigError)
        .with.property('path', 'marketData.instruments[0].streams.fundingRate');
    });

    it('refuses_an_instrument_without_its_fetcher', () => {
      const clock = new VirtualClock(0);
      expect(
        () =>
          new PollingMarketDataSource({
            clock,
            spot: new StubSpotFetcher(),
            config: { instruments: [{ kind: 'contract', symbol: 'BTC_USDT', cycleMs: 1000, streams: { ticker: {} } }] },
          }),
      )
        .to.throw(ConfigError)
        .with.property('path', 'marketData.instruments[0]');
    });

    it('refuses_a_symbol_of_the_wrong_shape', () => {
      const clock = new VirtualClock(0);
      expect(
        () =>
          new PollingMarketDataSource({
            clock,
            contract: new StubContractFetcher(),
            config: { instruments: [{ kind: 'contract', symbol: 'BTCUSDT', cycleMs: 1000, streams: { ticker: {} } }] },
          }),
      )
        .to.throw(ConfigError)
        .with.property('path', 'marketData.instruments[0].symbol');
    });

    it('refuses_snapshots_of_a_symbol_not_polled', () => {
      r = rig(spotOnly({ depth: {} }));
      expect(() => r!.source.snapshots(spotSymbol('ETHUSDT'))).to.throw(ConfigError);
    });
  });
});
