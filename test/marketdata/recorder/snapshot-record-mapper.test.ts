import { expect } from 'chai';
import { join } from 'node:path';
import { D } from '../../../src/core/decimal.js';
import { contractSymbol, spotSymbol } from '../../../src/core/ids.js';
import type { Kline, MarketTrade } from '../../../src/domain/snapshot.js';
import type { PolledSnapshot } from '../../../src/marketdata/poll/market-data-events.js';
import { SnapshotRecordMapper, type MappedInstrument } from '../../../src/marketdata/recorder/snapshot-record-mapper.js';
import type { DataRecord } from '../../../src/marketdata/record/record.js';
import { RecordStoreReader } from '../../../src/marketdata/store/record-store-reader.js';
import { RecordStoreWriter } from '../../../src/marketdata/store/record-store-writer.js';
import { TempDirs } from './support/recorder-rig.js';

const BTCUSDT = spotSymbol('BTCUSDT');
const BTC_USDT = contractSymbol('BTC_USDT');
const SPOT: MappedInstrument = {
  kind: 'spot',
  symbol: 'BTCUSDT',
  streams: { depth: {}, bookTicker: {}, trades: { limit: 10 }, klines: { intervals: ['1m'] }, ticker24h: { everyMs: 5000 } },
};

const trade = (time: number, price: string, side: 'buy' | 'sell' | null = 'buy', id?: string): MarketTrade => ({
  time,
  price: D(price),
  quantity: D('0.5'),
  ...(side ? { takerSide: side } : {}),
  ...(id ? { id } : {}),
});
const kline = (openTime: number, close: string): Kline => ({
  openTime,
  closeTime: openTime + 60_000,
  open: D('100'),
  high: D('101'),
  low: D('99'),
  close: D(close),
  volume: D('2'),
});
const book = (time: number, seq: string) => ({
  bids: [{ price: D('100.10'), quantity: D('1.50') }],
  asks: [{ price: D('100.2'), quantity: D('2') }],
  sequence: seq,
  exchangeTime: time,
});
const streams = (rs: readonly DataRecord[]): string[] => rs.map((r) => r.s);

describe('SnapshotRecordMapper', () => {
  const dirs = new TempDirs();
  after(() => dirs.cleanup());

  it('records_only_the_streams_fetched_in_this_cycle', () => {
    const m = new SnapshotRecordMapper([SPOT]);
    const ticker24h = { lastPrice: D('100.15'), volume: D('12'), exchangeTime: 990 };
    const first: PolledSnapshot = { symbol: BTCUSDT, kind: 'spot', pollTime: 1000, book: book(995, '7'), ticker24h };
    expect(streams(m.records(first))).to.deep.equal(['depth.snapshot', 'ticker']);
    // Next cycle: a new book; the ticker is carried over (the same object), so not written again.
    const second: PolledSnapshot = { ...first, pollTime: 2000, book: book(1995, '8') };
    expect(m.records(second).map((r) => [r.s, r.et, r.lt])).to.deep.equal([['depth.snapshot', 1995, 2000]]);
  });

  it('stamps_venue_time_as_et_and_the_poll_time_as_lt', () => {
    const m = new SnapshotRecordMapper([SPOT]);
    const rs = m.records({
      symbol: BTCUSDT,
      kind: 'spot',
      pollTime: 5000,
      book: book(4990, '42'),
      bookTicker: { bidPrice: D('100.1'), bidQty: D('1'), askPrice: D('100.2'), askQty: D('2') },
      trades: [trade(4000, '100.1'), trade(4500, '100.2', 'sell')],
    });
    expect(rs).to.deep.equal([
      { s: 'trade', m: 'spot', i: 'BTCUSDT', lt: 5000, et: 4000, p: '100.1', q: '0.5', ts: 'buy' },
      { s: 'trade', m: 'spot', i: 'BTCUSDT', lt: 5000, et: 4500, p: '100.2', q: '0.5', ts: 'sell' },
      // Decimals as values: "100.10" → "100.1" (Decimal drops the padding).
      { s: 'depth.snapshot', m: 'spot', i: 'BTCUSDT', lt: 5000, et: 4990, u: 42, b: [['100.1', '1.5']], a: [['100.2', '2']] },
      // The spot book ticker has no venue time: et = lt.
      { s: 'bookTicker', m: 'spot', i: 'BTCUSDT', lt: 5000, et: 5000, bp: '100.1', bq: '1', ap: '100.2', aq: '2' },
    ]);
  });

  it('writes_new_trades_only_and_skips_those_without_a_taker_side', () => {
    const m = new SnapshotRecordMapper([SPOT]);
    m.records({ symbol: BTCUSDT, kind: 'spot', pollTime: 1000, trades: [trade(900, '1'), trade(950, '2')] });
    const rs = m.records({
      symbol: BTCUSDT,
      kind: 'spot',
      pollTime: 2000,
      trades: [trade(900, '1'), trade(950, '2'), trade(1500, '3', null), trade(1600, '4')],
    });
    expect(rs.map((r) => [r.s, r.et])).to.deep.equal([['trade', 1600]]);
    expect(m.counters.tradesWithoutSide).to.equal(1);
  });

  it('writes_closed_bars_once_with_the_close_time_as_et', () => {
    const m = new SnapshotRecordMapper([SPOT]);
    const poll = (pollTime: number, bars: Kline[]): DataRecord[] =>
      m.records({ symbol: BTCUSDT, kind: 'spot', pollTime, klines: { '1m': bars } });
    expect(
      poll(61_000, [kline(0, '100.5'), kline(60_000, '100.7')]).map((r) => (r.s === 'kline' ? [r.iv, r.ot, r.et, r.lt, r.c, r.x] : r.s)),
    ).to.deep.equal([['1m', 0, 60_000, 61_000, '100.5', true]]);
    expect(poll(62_000, [kline(0, '100.5'), kline(60_000, '100.8')])).to.deep.equal([]);
  });

  it('judges_a_lone_bar_closed_by_the_venue_clock_not_ours', () => {
    const m = new SnapshotRecordMapper([SPOT]);
    // Our clock runs 10 s ahead of the venue's. The venue serves only the bar opened at 0 (closes at 60 000).
    const poll = (pollTime: number, venueTime: number): DataRecord[] =>
      m.records({
        symbol: BTCUSDT,
        kind: 'spot',
        pollTime,
        exchangeTime: venueTime,
        book: book(venueTime, String(pollTime)),
        klines: { '1m': [kline(0, String(pollTime))] },
      });
    poll(63_000, 53_000);
    // Sent after venue time 53 000: the bar may still be open, although our clock says 63 000.
    expect(streams(poll(73_000, 63_000))).to.deep.equal(['depth.snapshot']);
    // Sent after venue time 63 000 ≥ 60 000 + 2000 grace: closed; its values are those of this poll.
    expect(poll(74_000, 64_000).map((r) => (r.s === 'kline' ? `kline ${r.ot} ${r.c}` : r.s))).to.deep.equal([
      'depth.snapshot',
      'kline 0 74000',
    ]);
  });

  it('takes_fair_index_and_funding_from_the_contract_ticker_unless_polled_on_their_own', () => {
    const tickerOnly = new SnapshotRecordMapper([{ kind: 'contract', symbol: 'BTC_USDT', streams: { ticker: {} } }]);
    const withFair = new SnapshotRecordMapper([{ kind: 'contract', symbol: 'BTC_USDT', streams: { ticker: {}, fairPrice: {} } }]);
    const contractTicker = {
      lastPrice: D('87000.5'),
      volume24: D('1200'),
      fairPrice: D('87001'),
      indexPrice: D('86999.9'),
      fundingRate: D('-0.0001'),
      exchangeTime: 7990,
    };
    const s: PolledSnapshot = { symbol: BTC_USDT, kind: 'contract', pollTime: 8000, contractTicker };
    expect(tickerOnly.records(s).map((r) => [r.s, r.et, r.lt])).to.deep.equal([
      ['ticker', 7990, 8000],
      ['fair', 7990, 8000],
      ['index', 7990, 8000],
      ['funding', 7990, 8000],
    ]);
    // fairPrice is its own stream there (recorded from its record), so the ticker does not repeat it.
    expect(streams(withFair.records(s))).to.deep.equal(['ticker', 'index', 'funding']);
  });

  it('keeps_the_contract_depth_order_counts', () => {
    const m = new SnapshotRecordMapper([{ kind: 'contract', symbol: 'BTC_USDT', streams: { depth: {} } }]);
    const rs = m.records({
      symbol: BTC_USDT,
      kind: 'contract',
      pollTime: 1,
      book: { bids: [{ price: D('87000'), quantity: D('15'), orders: 3 }], asks: [], sequence: '123456789' },
    });
    expect(rs).to.deep.equal([
      { s: 'depth.snapshot', m: 'contract', i: 'BTC_USDT', lt: 1, et: 1, u: 123456789, b: [['87000', '15', 3]], a: [] },
    ]);
  });

  it('continues_a_store_without_writing_its_newest_trades_or_its_last_bar_again', () => {
    const dir = join(dirs.make(), 'store');
    const w = RecordStoreWriter.open(dir, { fsync: 'never' });
    const head = { m: 'spot', i: 'BTCUSDT' } as const;
    w.appendAll([
      { s: 'trade', ...head, et: 900, lt: 1000, p: '1', q: '0.5', ts: 'buy' },
      { s: 'trade', ...head, et: 950, lt: 1000, p: '2', q: '0.5', ts: 'buy' },
      { s: 'kline', ...head, et: 60_000, lt: 61_000, iv: '1m', ot: 0, o: '100', h: '101', l: '99', c: '100.5', v: '2', x: true },
    ]);
    w.close();
    const m = new SnapshotRecordMapper([SPOT]);
    const reader = RecordStoreReader.open(dir);
    expect(m.seed(reader)).to.deep.equal({ trades: 2, klineIntervals: 1 });
    reader.close();
    const rs = m.records({
      symbol: BTCUSDT,
      kind: 'spot',
      pollTime: 121_000,
      trades: [trade(900, '1'), trade(950, '2'), trade(1200, '3')],
      klines: { '1m': [kline(0, '100.5'), kline(60_000, '100.6'), kline(120_000, '100.9')] },
    });
    expect(rs.map((r) => (r.s === 'kline' ? `kline ${r.ot}` : `${r.s} ${r.et}`))).to.deep.equal(['trade 1200', 'kline 60000']);
  });
});
