/**
 * The pollers against the in-process emulator's synthetic market over real HTTP: one snapshot per
 * instrument per cycle, both times kept apart, one request per stream per cycle whatever the number
 * of subscribers.
 */
import { expect } from 'chai';
import type { Subscription } from 'rxjs';
import { contractSymbol, spotSymbol } from '../../../src/core/ids.js';
import { bestAsk, bestBid } from '../../../src/domain/snapshot.js';
import type { MarketDataEvent, PolledSnapshot } from '../../../src/marketdata/poll/market-data-events.js';
import { MexcContractMarketFetcher, MexcSpotMarketFetcher } from '../../../src/marketdata/poll/mexc-market-fetcher.js';
import { PollingMarketDataSource } from '../../../src/marketdata/poll/polling-market-data-source.js';
import { staleGuard } from '../../../src/marketdata/poll/stale-guard.js';
import { startRig, T0, until, type EmulatorRig } from '../../execution/gateways/support/emulator-rig.js';

const BTCUSDT = spotSymbol('BTCUSDT');
const BTC_USDT = contractSymbol('BTC_USDT');

describe('PollingMarketDataSource over HTTP (emulator)', function () {
  this.timeout(30_000);
  let rig: EmulatorRig;
  let source: PollingMarketDataSource;
  const subs: Subscription[] = [];

  before(async () => {
    rig = await startRig();
    source = new PollingMarketDataSource({
      clock: rig.clock,
      spot: new MexcSpotMarketFetcher(rig.spot),
      contract: new MexcContractMarketFetcher(rig.contract, rig.clock),
      config: {
        instruments: [
          {
            kind: 'spot',
            symbol: 'BTCUSDT',
            cycleMs: 1000,
            streams: {
              depth: { limit: 5 },
              bookTicker: {},
              trades: { everyMs: 2000, limit: 20 },
              klines: { everyMs: 2000, intervals: ['1m'], limit: 5 },
              ticker24h: { everyMs: 5000 },
              avgPrice: { everyMs: 5000 },
            },
          },
          {
            kind: 'contract',
            symbol: 'BTC_USDT',
            cycleMs: 1000,
            streams: {
              depth: { limit: 5 },
              ticker: {},
              fundingRate: { everyMs: 5000 },
              fairPrice: {},
              indexPrice: {},
              deals: { everyMs: 2000, limit: 20 },
              klines: { everyMs: 2000, intervals: ['Min1'], limit: 5 },
            },
          },
        ],
      },
    });
  });
  after(async () => {
    for (const s of subs) s.unsubscribe();
    await source?.stop();
    await rig?.close();
  });

  it('streams_snapshots_of_the_synthetic_market_with_one_request_per_stream_per_cycle', async () => {
    const a: PolledSnapshot[] = [];
    const b: PolledSnapshot[] = [];
    const all: PolledSnapshot[] = [];
    subs.push(source.snapshots(BTCUSDT).subscribe((s) => a.push(s)));
    subs.push(source.snapshots(BTCUSDT).subscribe((s) => b.push(s)));
    subs.push(source.snapshots().subscribe((s) => all.push(s)));
    await source.start();
    await until(() => a.length === 1 && all.length === 2);
    for (let cycle = 1; cycle <= 2; cycle++) {
      rig.clock.advanceBy(1000);
      await until(() => a.length === cycle + 1 && all.length === 2 * (cycle + 1));
    }
    // 3 cycles (T0, +1 s, +2 s): depth and bookTicker every cycle, trades and klines at T0 and +2 s, 24h / avg / funding once
    expect(rig.spotWire.count('/api/v3/depth')).to.equal(3);
    expect(rig.spotWire.count('/api/v3/ticker/bookTicker')).to.equal(3);
    expect(rig.spotWire.count('/api/v3/trades')).to.equal(2);
    expect(rig.spotWire.count('/api/v3/klines')).to.equal(2);
    expect(rig.spotWire.count('/api/v3/ticker/24hr')).to.equal(1);
    expect(rig.spotWire.count('/api/v3/avgPrice')).to.equal(1);
    expect(rig.contractWire.count('/api/v1/contract/depth/')).to.equal(3);
    expect(rig.contractWire.count('/api/v1/contract/ticker')).to.equal(3);
    expect(rig.contractWire.count('/api/v1/contract/deals/')).to.equal(2);
    expect(rig.contractWire.count('/api/v1/contract/funding_rate/')).to.equal(1);
    expect(rig.contractWire.count('/api/v1/contract/kline/')).to.equal(2);
    expect(b.map((s) => s.seq)).to.deep.equal(a.map((s) => s.seq));

    const s = a[2]!;
    expect(s.pollTime).to.equal(T0 + 2000); // our clock at completion (virtual: no time passes during I/O)
    expect(s.exchangeTime).to.be.a('number');
    expect(bestBid(s)!.lt(bestAsk(s)!)).to.equal(true);
    expect(s.book!.bids).to.have.length.greaterThan(0);
    expect(s.klines!['1m']).to.have.length.greaterThan(0);
    expect(s.ticker24h!.lastPrice.gt(0)).to.equal(true);
    expect(s.avgPrice!.windowMinutes).to.be.a('number');

    const c = all.filter((x) => x.symbol === BTC_USDT).at(-1)!;
    expect(c.kind).to.equal('contract');
    expect([c.contractTicker, c.fairPrice, c.indexPrice, c.fundingRate, c.book].every((r) => r !== undefined)).to.equal(true);
    // klines fetched at +2 s: the candle the crowd's first trades opened (the tape is empty at T0)
    expect(c.klines!.Min1!.length).to.be.greaterThan(0);
    expect(c.klines!.Min1!.at(-1)!.closeTime! - c.klines!.Min1!.at(-1)!.openTime).to.equal(60_000);
    expect(c.fairPrice!.exchangeTime).to.be.a('number');
  });

  it('holds_back_a_replayed_snapshot_that_aged_while_nobody_polled', async () => {
    // The latest snapshot is replayed to a new subscriber; once it is older than allowed the guard drops it.
    rig.clock.advanceBy(100); // between cycles: no new snapshot yet
    const got: PolledSnapshot[] = [];
    const stale: string[] = [];
    const sub = source
      .snapshots(BTCUSDT)
      .pipe(staleGuard({ clock: rig.clock, maxAgeMs: 50, watchdog: false, onStale: (e) => stale.push(e.reason) }))
      .subscribe((s) => got.push(s));
    subs.push(sub);
    expect(got).to.have.length(0);
    expect(stale).to.deep.equal(['arrived-stale']);
  });
});

describe('PollingMarketDataSource over HTTP: venue failures (emulator fault injection)', function () {
  this.timeout(30_000);
  let rig: EmulatorRig;

  before(async () => {
    rig = await startRig();
  });
  after(async () => {
    await rig?.close();
  });

  it('backs_off_on_5xx_answers_and_resumes_the_same_stream', async () => {
    const source = new PollingMarketDataSource({
      clock: rig.clock,
      spot: new MexcSpotMarketFetcher(rig.spot),
      config: {
        instruments: [{ kind: 'spot', symbol: 'BTCUSDT', cycleMs: 1000, streams: { depth: {}, bookTicker: {} } }],
        backoff: { initialMs: 500, multiplier: 2, maxMs: 10_000 },
      },
    });
    const got: PolledSnapshot[] = [];
    const events: MarketDataEvent[] = [];
    let ended = false;
    const subs = [
      source.events$.subscribe((e) => events.push(e)),
      source.snapshots(BTCUSDT).subscribe({ next: (x) => got.push(x), complete: () => (ended = true), error: () => (ended = true) }),
    ];
    await source.start();
    await until(() => got.length === 1);
    // the next two depth requests answer 503 (the client does not retry: the poller owns the retry)
    rig.emu.faults.inject({ match: 'spot.depth', kind: 'error5xx', status: 503, times: 2 });
    rig.clock.advanceBy(1000); // cycle at +1000 fails → retry in 500
    await until(() => events.length === 1);
    rig.clock.advanceBy(500); // +1500 fails → retry in 1000
    await until(() => events.length === 2);
    rig.clock.advanceBy(1000); // +2500 succeeds
    await until(() => got.length === 2);
    expect(
      events.map((e) => (e.type === 'MarketDataPollFailed' ? [e.ts - T0, e.errorName, e.retryInMs, e.streams.join()] : [e.type])),
    ).to.deep.equal([
      [1000, 'ExchangeUnavailable', 500, 'depth'],
      [1500, 'ExchangeUnavailable', 1000, 'depth'],
      ['MarketDataPollRecovered'],
    ]);
    expect(got.map((x) => [x.pollTime - T0, x.seq])).to.deep.equal([
      [0, 1],
      [2500, 2],
    ]);
    expect(ended).to.equal(false);
    for (const sub of subs) sub.unsubscribe();
    await source.stop();
  });
});
