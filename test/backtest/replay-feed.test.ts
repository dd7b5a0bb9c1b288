import { expect } from 'chai';
import type { DataRecord, KlineRecord } from '../../src/marketdata/record/record.js';
import { sortAndTrim } from '../../src/backtest/backtest-data.js';
import { replayEvents } from '../../src/backtest/replay-feed.js';
import { ReplayMarket } from '../../src/backtest/replay-market.js';
import { SYMBOL, testInstrument } from './support/exchange-kit.js';

const bar = (ot: number, o: number, h: number, l: number, c: number, v: number): KlineRecord => ({
  s: 'kline',
  m: 'spot',
  i: SYMBOL,
  et: ot + 60_000,
  lt: ot + 60_000,
  iv: '1m',
  ot,
  o: String(o),
  h: String(h),
  l: String(l),
  c: String(c),
  v: String(v),
  x: true,
});
const funding = (et: number, r: string, nt: number): DataRecord => ({ s: 'funding', m: 'spot', i: SYMBOL, et, lt: et, r, nt });

describe('replay feed', () => {
  it('expands_kline_only_bars_into_paths_in_time_order', () => {
    const market = new ReplayMarket([{ instrument: testInstrument(), source: { market: 'spot', symbol: SYMBOL }, klineOnly: true }]);
    // The bar 0–60000 arrives stamped 60000; a funding record at 30000 was read before it.
    const records: DataRecord[] = [funding(30_000, '0.0001', 90_000), bar(0, 100, 110, 97, 105, 8), bar(60_000, 105, 106, 104, 104, 4)];
    const events = [...replayEvents(records, market)];
    expect(events.map((e) => [e.s, e.et])).to.deep.equal([
      ['path', 0],
      ['path', 19_999],
      ['funding', 30_000],
      ['path', 39_999],
      ['path', 59_999],
      ['path', 60_000],
      ['path', 79_999],
      ['path', 99_999],
      ['path', 119_999],
    ]);
    expect(events.filter((e) => e.s === 'path').map((e) => (e.s === 'path' ? e.priceTicks : 0))).to.deep.equal([
      100, 97, 110, 105, 105, 106, 104, 104,
    ]);
  });

  it('lets_out_a_path_while_reading_bars_alone_not_after_the_whole_input', () => {
    const market = new ReplayMarket([{ instrument: testInstrument(), source: { market: 'spot', symbol: SYMBOL }, klineOnly: true }]);
    // 1,000 bars and nothing else, read lazily: the first path point is in order once the next bar
    // has opened a bar later, so it must come out after a few bars are read, not the whole run.
    let read = 0;
    const records = (function* (): Generator<DataRecord> {
      for (let k = 0; k < 1_000; k++) {
        read++;
        yield bar(k * 60_000, 100, 101, 99, 100, 1);
      }
    })();
    const events = replayEvents(records, market)[Symbol.iterator]();
    expect(events.next().value).to.deep.include({ s: 'path', et: 0 });
    expect(read, 'bars read before the first event').to.be.at.most(3);
    let n = 1;
    while (!events.next().done) n++;
    expect(read).to.equal(1_000);
    expect(n, 'every point of every bar').to.equal(1_000 * 4);
  });

  it('keeps_time_then_read_order_across_instruments_and_a_bar_read_twice', () => {
    const other = 'OTHERUSDT';
    const market = new ReplayMarket([
      { instrument: testInstrument(), source: { market: 'spot', symbol: SYMBOL }, klineOnly: true },
      { instrument: { ...testInstrument(), symbol: other as typeof SYMBOL }, source: { market: 'spot', symbol: other }, klineOnly: true },
    ]);
    const of = (r: KlineRecord, i: string): KlineRecord => ({ ...r, i });
    // Each instrument's points queue on their own; the copy of the first bar lays points earlier than its
    // queue's last, so they wait elsewhere: the feed still lets everything out by time, then read order.
    const records: DataRecord[] = [
      bar(0, 100, 110, 97, 105, 8),
      of(bar(0, 50, 55, 45, 52, 4), other),
      funding(30_000, '0.0001', 90_000),
      bar(0, 100, 110, 97, 105, 8),
      bar(60_000, 105, 106, 104, 104, 4),
      of(bar(60_000, 52, 53, 51, 51, 4), other),
    ];
    type Labelled = { readonly s: string; readonly et: number; readonly key?: string };
    const label = (e: Labelled): string => `${e.s}:${e.key ?? ''}@${e.et}`;
    // Read order: each record's events (a bar's four points, 0 / 19,999 / 39,999 / 59,999 ms after its open).
    const read = records.flatMap((r): Labelled[] =>
      r.s === 'kline' ? [0, 19_999, 39_999, 59_999].map((dt) => ({ s: 'path', key: `spot:${r.i}`, et: r.ot + dt })) : [r],
    );
    const expected = [...read].sort((a, b) => a.et - b.et).map(label);
    expect([...replayEvents(records, market)].map((e) => label(e as Labelled))).to.deep.equal(expected);
  });

  it('cuts_funding_history_to_the_span_of_the_market_data', () => {
    const records: DataRecord[] = [
      funding(0, '0.1', 1_000),
      funding(500, '0.2', 2_000),
      bar(2_000, 1, 1, 1, 1, 1),
      funding(2_500, '0.3', 3_000),
      funding(99_999_999, '0.4', 100_000_000),
    ];
    const out = sortAndTrim(records);
    // the bar spans 2000 (its open) to 62000 (its close); the 500 record is carried to 2000
    expect(out.map((r) => [r.s, r.et, r.s === 'funding' ? r.r : ''])).to.deep.equal([
      ['funding', 2_000, '0.2'],
      ['funding', 2_500, '0.3'],
      ['kline', 62_000, ''],
    ]);
  });
});
