import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { encodeRecordLines, parseRecordLines } from '../../../src/marketdata/record/json-lines-codec.js';
import { metaRecord, type MarketRecord } from '../../../src/marketdata/record/record.js';
import { ReplayMarketSource } from '../../../src/marketdata/record/replay-market-source.js';
import { OrderBookLiquidityPort, type PrintEvent } from '../../../src/venue/market/order-book-liquidity-port.js';
import { TapeAggregator } from '../../../src/venue/market/tape-aggregator.js';

const spot = { market: 'spot', symbol: 'BTCUSDT', tick: '0.01', step: '0.001', depthLevels: 10 } as const;
const head = (et: number) => ({ m: 'spot', i: 'BTCUSDT', et, lt: et + 1200 }) as const;

/**
 * A tiny hand-made recording (tick 0.01, step 0.001 → "100.00" = 10000 ticks, "0.005" = 5 lots):
 * snapshot, a buy print into the ask, a diff that agrees with it, a new bid level, a sell print that
 * walks through the bids (and our order), and a diff that empties both bid levels.
 */
const recording: MarketRecord[] = [
  metaRecord('hand-made'),
  {
    s: 'depth.snapshot',
    ...head(1000),
    u: 100,
    b: [
      ['100.00', '0.005'],
      ['99.99', '0.010'],
    ],
    a: [
      ['100.02', '0.004'],
      ['100.03', '0.010'],
    ],
  },
  { s: 'trade', ...head(1500), id: 't1', p: '100.02', q: '0.001', ts: 'buy' },
  { s: 'depth.diff', ...head(1600), U: 101, u: 102, b: [], a: [['100.02', '0.003']] },
  { s: 'depth.diff', ...head(2000), U: 103, u: 103, b: [['100.01', '0.002']], a: [] },
  { s: 'trade', ...head(2500), id: 't2', p: '100.00', q: '0.008', ts: 'sell' },
  {
    s: 'depth.diff',
    ...head(2600),
    U: 104,
    u: 104,
    b: [
      ['100.01', '0'],
      ['100.00', '0'],
    ],
    a: [],
  },
];

function setup(records: MarketRecord[], extra: Partial<ConstructorParameters<typeof ReplayMarketSource>[0]> = {}) {
  const clock = new VirtualClock(0);
  const prints: PrintEvent[] = [];
  const tape = new TapeAggregator({ tick: '0.01', step: '0.001' });
  const port = new OrderBookLiquidityPort(clock, ['BTCUSDT', 'BTC_USDT'], (e) => {
    prints.push(e);
    if (e.symbol === 'BTCUSDT') tape.onTrade(e.trade);
  });
  const source = new ReplayMarketSource({ records, instruments: [spot], clock, port, ...extra });
  return { clock, port, prints, tape, source, book: port.book('BTCUSDT') };
}

describe('ReplayMarketSource', () => {
  it('rebuilds_the_recorded_book_as_crowd_liquidity_and_prints_recorded_trades', () => {
    // Through the codec, as a recording file would be read.
    const { source, book, tape, clock } = setup(parseRecordLines(encodeRecordLines(recording)));
    source.advanceTo(1000);
    expect(book.depth('BUY', 5)).to.deep.equal([
      [10000, 5, 1],
      [9999, 10, 1],
    ]);
    expect(book.depth('SELL', 5)).to.deep.equal([
      [10002, 4, 1],
      [10003, 10, 1],
    ]);
    clock.advanceTo(1600);
    source.advanceTo(1600);
    // t1 took 1 of the 4 at 100.02; the diff to 3 agrees, so nothing is re-placed.
    expect(book.depth('SELL', 1)).to.deep.equal([[10002, 3, 1]]);
    expect(source.stats).to.include({ trades: 1, matchedLots: 1, forcedLots: 0 });
    expect(tape.recentTrades(1).map((t) => [t.price.toString(), t.qty.toString(), t.takerSide])).to.deep.equal([
      ['100.02', '0.001', 'buy'],
    ]);
  });

  it('fills_our_resting_order_when_a_recorded_trade_walks_through_it', () => {
    const { source, port, prints, book } = setup(recording);
    source.advanceTo(1700);
    // Our bid joins the back of the 100.00 queue behind the crowd's 5 lots.
    const ours = port.placeAs('us', 'BTCUSDT', 'buy', 10000, 2, 'limit').id!;
    source.advanceTo(2500);
    // t2 sells 8 with limit 100.00: 100.01 × 2 (crowd), 100.00 × 5 (crowd, ahead of us), then 1 of ours.
    expect(prints.slice(1).map((p) => [p.makerOwner, p.trade.priceTicks, p.trade.lots])).to.deep.equal([
      ['crowd-maker', 10001, 2],
      ['crowd-maker', 10000, 5],
      ['us', 10000, 1],
    ]);
    expect(port.remaining('BTCUSDT', ours)).to.equal(1);
    source.advanceTo(2600);
    // The source's 100.01 and 100.00 bids are gone (ours stays), 99.99 × 10 is untouched.
    expect(book.depth('BUY', 5)).to.deep.equal([
      [10000, 1, 1],
      [9999, 10, 1],
    ]);
    expect(source.done).to.equal(true);
    expect(source.stats).to.include({ records: 6, trades: 2, sequenceGaps: 0, staleDiffs: 0 });
  });

  it('orders_by_exchange_time_within_the_reorder_window_or_by_local_time_when_asked', () => {
    // Received in this order, but the second happened first on the exchange.
    const records: MarketRecord[] = [
      { s: 'trade', m: 'spot', i: 'BTCUSDT', et: 3000, lt: 3100, p: '100.03', q: '0.001', ts: 'buy' },
      { s: 'trade', m: 'spot', i: 'BTCUSDT', et: 2900, lt: 3200, p: '100.02', q: '0.001', ts: 'buy' },
    ];
    const byExchange = setup(records);
    byExchange.source.advanceTo(10_000);
    expect(byExchange.prints.map((p) => p.trade.priceTicks)).to.deep.equal([10002, 10003]);
    const byLocal = setup(records, { timeBase: 'local' });
    byLocal.source.advanceTo(10_000);
    expect(byLocal.prints.map((p) => p.trade.priceTicks)).to.deep.equal([10003, 10002]);
  });

  it('paces_records_on_the_clock_at_the_configured_speed', () => {
    const { source, clock, book } = setup(recording, { speed: 2 });
    clock.advanceTo(10_000);
    source.start();
    // Record times map to 10000 + (et − 1000) / 2: the snapshot now, the first diff (et 1600) at 10300.
    clock.advanceTo(10_000);
    expect(book.depth('SELL', 1)).to.deep.equal([[10002, 4, 1]]);
    expect(source.nextDueAt()).to.equal(10_250); // t1 at et 1500
    clock.advanceTo(10_249);
    expect(source.stats.trades).to.equal(0);
    clock.advanceTo(10_250);
    expect(source.stats.trades).to.equal(1);
    clock.advanceTo(10_800);
    expect(source.done).to.equal(true);
    expect(clock.pendingTimers()).to.equal(0);
    source.stop();
  });

  it('loops_the_recording_shifted_by_its_span', () => {
    const { source } = setup(recording, { loop: true });
    // Span 1000 … 2600 → second pass starts at 1000 + 1601 = 2601.
    source.advanceTo(2600);
    expect(source.stats.records).to.equal(6);
    expect(source.nextRecordTime()).to.equal(2601);
    source.advanceTo(2601 + 1600);
    expect(source.stats.records).to.equal(12);
    expect(source.done).to.equal(false);
  });

  it('feeds_index_fair_and_funding_of_a_perpetual_and_detects_settlements', () => {
    const h = (et: number) => ({ m: 'contract', i: 'BTC_USDT', et, lt: et }) as const;
    const T8 = Date.UTC(2026, 0, 1, 8);
    const records: MarketRecord[] = [
      { s: 'index', ...h(T8 - 2000), p: '87812.39' },
      { s: 'fair', ...h(T8 - 2000), p: '87790.2' },
      { s: 'funding', ...h(T8 - 1000), r: '0.0001', nt: T8, min: '-0.0018', max: '0.0018', cy: 8 },
      { s: 'funding', ...h(T8 + 1000), r: '0.00012', nt: T8 + 8 * 3_600_000 },
    ];
    const clock = new VirtualClock(0);
    const port = new OrderBookLiquidityPort(clock, ['BTC_USDT'], () => {});
    const source = new ReplayMarketSource({
      records,
      instruments: [{ market: 'contract', symbol: 'BTC_USDT', tick: '0.1', step: '1', indexTick: '0.01' }],
      clock,
      port,
    });
    const board = source.contractPrices('BTC_USDT')!;
    source.advanceTo(T8 - 1000);
    expect([
      board.index()!.price.toString(),
      board.fair()!.price.toString(),
      board.funding()!.rate.toString(),
      board.funding()!.nextSettleTime,
    ]).to.deep.equal(['87812.39', '87790.2', '0.0001', T8]);
    source.advanceTo(T8 + 1000);
    // The announced next settle time moved on: 0.0001 was paid at 08:00.
    expect(board.settlements().map((s) => [s.settleTime, s.rate.toString(), s.collectCycleHours])).to.deep.equal([[T8, '0.0001', 8]]);
    // min / max carry over from the earlier record.
    expect([board.funding()!.rate.toString(), board.funding()!.maxRate.toString()]).to.deep.equal(['0.00012', '0.0018']);
  });

  it('skips_records_of_unconfigured_instruments', () => {
    const { source } = setup([{ s: 'trade', m: 'spot', i: 'ETHUSDT', et: 1, lt: 1, p: '1', q: '1', ts: 'buy' }]);
    source.advanceTo(10);
    expect(source.stats).to.include({ records: 1, skipped: 1, trades: 0 });
  });
});
