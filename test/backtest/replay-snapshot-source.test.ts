import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { D } from '../../src/core/decimal.js';
import { SeededRandom } from '../../src/core/random.js';
import type { PolledSnapshot } from '../../src/marketdata/poll/market-data-events.js';
import { ReplayMarket } from '../../src/backtest/replay-market.js';
import { ReplaySnapshotSource } from '../../src/backtest/replay-snapshot-source.js';
import { CONTRACT_PRESETS } from '../../src/emulator/config/instrument-presets.js';
import { contractInstrumentSchema, toContractInstrument } from '../../src/emulator/config/instrument-schemas.js';
import { book, diff, SYMBOL, testInstrument, trade } from './support/exchange-kit.js';

function setup(latencyMs: number) {
  const clock = new VirtualClock(1_000);
  const market = new ReplayMarket([{ instrument: testInstrument(), source: { market: 'spot', symbol: SYMBOL } }]);
  const source = new ReplaySnapshotSource({
    clock,
    market,
    latencyMs,
    config: {
      instruments: [
        { kind: 'spot', symbol: SYMBOL, cycleMs: 1_000, streams: { depth: { limit: 5 }, trades: { everyMs: 2_000, limit: 3 } } },
      ],
    },
  });
  const got: PolledSnapshot[] = [];
  source.snapshots().subscribe((s) => got.push(s));
  const step = (t: number): void => {
    for (let due = source.nextDueAt(); due !== undefined && due <= t; due = source.nextDueAt()) {
      clock.advanceTo(due);
      source.runDue(due);
    }
    clock.advanceTo(t);
  };
  return { clock, market, source, got, step };
}

describe('replay snapshot source', () => {
  it('shows_the_book_as_of_poll_time_minus_latency', async () => {
    const { market, source, got, step } = setup(100);
    await source.start();
    market.apply(book(1_000, 1, [[100, 5]], [[102, 7]]));
    source.begin(1_000);
    step(1_000); // captured at 1000, on its way
    market.apply(diff(1_050, 2, [[100, 9]], [])); // happens after the capture
    step(1_100);
    expect(got).to.have.length(1);
    expect(got[0]!.pollTime).to.equal(1_100);
    expect(got[0]!.book!.bids.map((l) => [l.price.toNumber(), l.quantity.toNumber()])).to.deep.equal([[100, 5]]);
    expect(got[0]!.book!.exchangeTime).to.equal(1_000);
    step(2_100); // the next cycle (scheduled 2000) sees the change
    expect(got[1]!.book!.bids[0]!.quantity.toNumber()).to.equal(9);
    expect(got.map((s) => s.seq)).to.deep.equal([1, 2]);
  });

  it('polls_each_stream_at_its_own_cadence_and_carries_the_rest', async () => {
    const { market, source, got, step } = setup(0);
    await source.start();
    market.apply(book(1_000, 1, [[100, 5]], [[102, 7]]));
    market.apply(trade(1_000, 'buy', 102, 1));
    source.begin(1_000);
    step(1_000);
    market.apply(trade(1_500, 'sell', 100, 2));
    step(2_000); // trades not due (everyMs 2000): the 1000 list is carried
    step(3_000); // due again
    expect(got.map((s) => s.pollTime)).to.deep.equal([1_000, 2_000, 3_000]);
    expect(got.map((s) => s.trades!.length)).to.deep.equal([1, 1, 2]);
    expect(got[2]!.trades!.map((t) => [t.takerSide, t.price.toNumber(), t.quantity.toNumber()])).to.deep.equal([
      ['buy', 102, 1],
      ['sell', 100, 2],
    ]);
  });

  it('gives_levels_and_prints_that_read_compare_and_serialise_like_plain_records', async () => {
    const { market, source, got, step } = setup(0);
    await source.start();
    market.apply(
      book(
        1_000,
        1,
        [
          [100, 5],
          [99, 4],
        ],
        [[102, 7]],
      ),
    );
    market.apply(trade(1_000, 'buy', 102, 1));
    source.begin(1_000);
    step(1_000);
    const s = got[0]!;
    // What a poller would have built from the venue's answers (tick 1, step 1 in the test instrument).
    const plainBids = [
      { price: D(100), quantity: D(5) },
      { price: D(99), quantity: D(4) },
    ];
    expect(s.book!.bids).to.deep.equal(plainBids);
    expect(JSON.stringify(s.book)).to.equal(
      JSON.stringify({ bids: plainBids, asks: [{ price: D(102), quantity: D(7) }], sequence: '1', exchangeTime: 1_000 }),
    );
    const plainTrade = { id: '1', price: D(102), quantity: D(1), takerSide: 'buy', time: 1_000 };
    expect(s.trades).to.deep.equal([plainTrade]);
    expect(JSON.stringify(s.trades)).to.equal(JSON.stringify([plainTrade]));
  });

  it('gives_contract_bars_and_tickers_that_read_compare_and_serialise_like_plain_records', async () => {
    // BTC_USDT: tick 0.1, 1 lot = 1 contract = 0.0001 BTC. Values worked out by hand from the prints.
    const clock = new VirtualClock(0);
    const inst = toContractInstrument(contractInstrumentSchema.parse(CONTRACT_PRESETS.BTC_USDT));
    const market = new ReplayMarket([{ instrument: inst, source: { market: 'contract', symbol: 'BTC_USDT' } }]);
    const source = new ReplaySnapshotSource({
      clock,
      market,
      config: {
        instruments: [
          { kind: 'contract', symbol: 'BTC_USDT', cycleMs: 60_000, streams: { klines: { intervals: ['Min1'], limit: 5 }, ticker: {} } },
        ],
      },
    });
    const got: PolledSnapshot[] = [];
    source.snapshots().subscribe((x) => got.push(x));
    await source.start();
    const head = (et: number) => ({ m: 'contract' as const, i: 'BTC_USDT', et, lt: et });
    market.apply({ ...head(0), s: 'depth.snapshot', u: 1, b: [['60000.0', '9']], a: [['60000.5', '4']] });
    market.apply({ ...head(0), s: 'funding', r: '0.0001', nt: 28_800_000 });
    market.apply({ ...head(1_000), s: 'trade', p: '60000.0', q: '2', ts: 'sell' });
    market.apply({ ...head(2_000), s: 'trade', p: '60010.5', q: '3', ts: 'buy' });
    market.apply({ ...head(61_000), s: 'trade', p: '60005.0', q: '1', ts: 'sell' });
    source.begin(0);
    clock.advanceTo(120_000);
    source.runDue(120_000);
    // The poll at 120 000 sees the bars of [0, 60 000), [60 000, 120 000) and the one opening at 120 000.
    const s = got[0]!;
    const plainBars = [
      // 2 + 3 contracts; quote 2 · 0.0001 · 60000 + 3 · 0.0001 · 60010.5 = 12 + 18.00315
      {
        openTime: 0,
        closeTime: 60_000,
        open: D('60000'),
        high: D('60010.5'),
        low: D('60000'),
        close: D('60010.5'),
        volume: D(5),
        quoteVolume: D('30.00315'),
      },
      // 1 contract; quote 0.0001 · 60005 = 6.0005
      {
        openTime: 60_000,
        closeTime: 120_000,
        open: D('60005'),
        high: D('60005'),
        low: D('60005'),
        close: D('60005'),
        volume: D(1),
        quoteVolume: D('6.0005'),
      },
      // The bar opening at the poll's time, no print yet: the last close, nothing traded.
      {
        openTime: 120_000,
        closeTime: 180_000,
        open: D('60005'),
        high: D('60005'),
        low: D('60005'),
        close: D('60005'),
        volume: D(0),
        quoteVolume: D(0),
      },
    ];
    // A print after the poll changes the forming bar in the tape, not the bar the poll gave (read lazily).
    market.apply({ ...head(121_000), s: 'trade', p: '60100.0', q: '7', ts: 'buy' });
    expect(s.klines!.Min1).to.deep.equal(plainBars);
    expect(JSON.stringify(s.klines)).to.equal(JSON.stringify({ Min1: plainBars }));
    // No mark recorded: fair and index follow the last trade; 24h totals are the three prints.
    const plainTicker = {
      lastPrice: D('60005'),
      bid1: D('60000'),
      ask1: D('60000.5'),
      volume24: D(6),
      amount24: D('36.00365'),
      fairPrice: D('60005'),
      indexPrice: D('60005'),
      fundingRate: D('0.0001'),
      exchangeTime: 120_000,
    };
    expect(s.contractTicker).to.deep.equal(plainTicker);
    expect(Object.keys(s.contractTicker!)).to.include.members(['lastPrice', 'bid1', 'ask1', 'fairPrice', 'exchangeTime']);
    expect(JSON.stringify(s.contractTicker)).to.equal(JSON.stringify(plainTicker));
    // The next poll shares the bars that were closed at this one, and shows the forming bar as it closed.
    clock.advanceTo(180_000);
    source.runDue(180_000);
    const next = got[1]!.klines!.Min1!;
    expect(next.slice(0, 2)).to.have.ordered.members(s.klines!.Min1!.slice(0, 2));
    expect(next[2]).to.not.equal(s.klines!.Min1![2]);
    // 7 contracts at 60100.0: quote 7 · 0.0001 · 60100 = 42.07
    expect(next[2]).to.deep.equal({
      openTime: 120_000,
      closeTime: 180_000,
      open: D('60100'),
      high: D('60100'),
      low: D('60100'),
      close: D('60100'),
      volume: D(7),
      quoteVolume: D('42.07'),
    });
  });

  it('moves_the_bar_window_as_the_tape_reads_it_whole_at_every_cadence', async () => {
    // The window after the first is built from the last one's closed bars and the tape's newer bars
    // (issue 13). The independent method: the tape's own whole window at each poll's time (what every
    // poll read before), bar by bar. Prints at random times with quiet minutes (bars without prints),
    // polled twice a bar, once a bar, and every 7 bars (further apart than the 5-bar window).
    const inst = toContractInstrument(contractInstrumentSchema.parse(CONTRACT_PRESETS.BTC_USDT));
    for (const cycleMs of [30_000, 60_000, 420_000]) {
      const clock = new VirtualClock(0);
      const market = new ReplayMarket([{ instrument: inst, source: { market: 'contract', symbol: 'BTC_USDT' } }]);
      const source = new ReplaySnapshotSource({
        clock,
        market,
        config: {
          instruments: [{ kind: 'contract', symbol: 'BTC_USDT', cycleMs, streams: { klines: { intervals: ['Min1'], limit: 5 } } }],
        },
      });
      const got: PolledSnapshot[] = [];
      source.snapshots().subscribe((x) => got.push(x));
      await source.start();
      const rnd = new SeededRandom(`bars-${cycleMs}`);
      const tape = market.instrument('BTC_USDT')!.tape;
      const plain = (k: {
        openTime: number;
        closeTime?: number;
        open: unknown;
        high: unknown;
        low: unknown;
        close: unknown;
        volume: unknown;
      }) => JSON.stringify([k.openTime, k.closeTime, k.open, k.high, k.low, k.close, k.volume]);
      const want: string[][] = [];
      let t = 1_000;
      let price = 600_000;
      market.apply({ m: 'contract', i: 'BTC_USDT', et: 0, lt: 0, s: 'trade', p: '60000.0', q: '1', ts: 'buy' });
      source.begin(0);
      while (t < 3_600_000) {
        for (let due = source.nextDueAt(); due !== undefined && due <= t; due = source.nextDueAt()) {
          clock.advanceTo(due);
          want.push(tape.klineBars('1m', { limit: 5 }, due).map((b) => plain(new SnapshotBar(inst.priceUnit, b))));
          source.runDue(due);
        }
        clock.advanceTo(t);
        price += rnd.int(-30, 30);
        const q = String(rnd.int(1, 9));
        market.apply({
          m: 'contract',
          i: 'BTC_USDT',
          et: t,
          lt: t,
          s: 'trade',
          p: (price / 10).toFixed(1),
          q,
          ts: rnd.int(0, 1) ? 'buy' : 'sell',
        });
        // Mostly a print every few seconds, sometimes minutes without one.
        t += rnd.int(0, 9) === 0 ? rnd.int(60_000, 400_000) : rnd.int(1_000, 20_000);
      }
      expect(got.length, `polls every ${cycleMs} ms`).to.be.greaterThan(cycleMs === 420_000 ? 7 : 50);
      expect(
        got.map((x) => x.klines!.Min1!.map(plain)),
        `polls every ${cycleMs} ms`,
      ).to.deep.equal(want);
    }
  });

  it('reuses_a_level_unchanged_since_the_last_poll_and_replaces_a_changed_one', async () => {
    const { market, source, got, step } = setup(0);
    await source.start();
    market.apply(
      book(
        1_000,
        1,
        [
          [100, 5],
          [99, 4],
        ],
        [[102, 7]],
      ),
    );
    market.apply(trade(1_000, 'buy', 102, 1));
    source.begin(1_000);
    step(1_000);
    market.apply(
      diff(
        1_500,
        2,
        [
          [101, 1],
          [100, 6],
        ],
        [],
      ),
    );
    market.apply(trade(1_600, 'sell', 100, 2));
    step(2_000);
    const [first, second] = [got[0]!.book!, got[1]!.book!];
    expect(second.bids.map((l) => l.price.toNumber())).to.deep.equal([101, 100, 99]);
    expect(second.bids[1]).to.not.equal(first.bids[0]);
    expect(second.bids[1]!.quantity.toNumber()).to.equal(6);
    expect(second.bids[2]).to.equal(first.bids[1]);
    expect(second.asks[0]).to.equal(first.asks[0]);
    // trades are polled every 2000 ms in this setup: the third poll lists both prints, the first one reused.
    step(3_000);
    const [t1, t3] = [got[0]!.trades!, got[2]!.trades!];
    expect(t3.map((t) => t.id)).to.deep.equal(['1', '2']);
    expect(t3[0]).to.equal(t1[0]);
  });

  it('stays_quiet_until_the_market_has_data', async () => {
    const { source, got, step } = setup(0);
    await source.start();
    source.begin(1_000);
    step(3_000);
    expect(got).to.have.length(0);
    expect(source.stats.empty).to.equal(3);
  });

  it('completes_its_streams_on_stop', async () => {
    const { source } = setup(0);
    let completed = false;
    source.snapshots(SYMBOL).subscribe({ complete: () => (completed = true) });
    await source.start();
    await source.stop();
    expect(completed).to.equal(true);
    expect(source.nextDueAt()).to.equal(undefined);
  });
});

/** A tape bar as the plain values a poll's Kline shows (prices on the tick, volume in contracts). */
class SnapshotBar {
  readonly openTime: number;
  readonly closeTime: number;
  readonly open: unknown;
  readonly high: unknown;
  readonly low: unknown;
  readonly close: unknown;
  readonly volume: unknown;
  constructor(
    tick: ReturnType<typeof D>,
    b: { openTime: number; closeTime: number; open: number; high: number; low: number; close: number; volume: number },
  ) {
    this.openTime = b.openTime;
    this.closeTime = b.closeTime;
    this.open = tick.mul(b.open);
    this.high = tick.mul(b.high);
    this.low = tick.mul(b.low);
    this.close = tick.mul(b.close);
    this.volume = D(b.volume);
  }
}
