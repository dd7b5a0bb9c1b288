import { expect } from 'chai';
import fc from 'fast-check';
import type { DataRecord, KlineRecord } from '../../src/marketdata/record/record.js';
import { replayEvents } from '../../src/backtest/replay-feed.js';
import { ReplayEventList } from '../../src/backtest/replay-event-list.js';
import { compileBar, ReplayMarket, replayScale, type ReplayEvent, type ReplayInstrumentSpec } from '../../src/backtest/replay-market.js';
import { SYMBOL, testInstrument } from './support/exchange-kit.js';

const spec = (quantityFactor?: number): ReplayInstrumentSpec => ({
  instrument: testInstrument(),
  source: { market: 'spot', symbol: SYMBOL },
  klineOnly: true,
  ...(quantityFactor !== undefined ? { quantityFactor } : {}),
});

const bar = (ot: number, o: string, h: string, l: string, c: string, v: string, iv: KlineRecord['iv'] = '1m'): KlineRecord => ({
  s: 'kline',
  m: 'spot',
  i: SYMBOL,
  et: ot + 60_000,
  lt: ot + 60_000 + 5,
  iv,
  ot,
  o,
  h,
  l,
  c,
  v,
  x: true,
});
const funding = (et: number, r: string): DataRecord => ({ s: 'funding', m: 'spot', i: SYMBOL, et, lt: et, r, nt: et + 1 });

/** The list with every kline of the instrument compiled, as loadReplay builds it. */
const listOf = (events: readonly ReplayEvent[], s: ReplayInstrumentSpec): ReplayEventList => {
  const scale = replayScale(s);
  return ReplayEventList.of(events, (e) => (e.s === 'kline' ? compileBar(e, scale) : undefined));
};

describe('replay event list (bars in columns)', () => {
  it('gives_back_the_events_in_order_with_bars_compiled_and_others_as_the_same_objects', () => {
    const f = funding(30_000, '0.0001');
    const events: DataRecord[] = [f, bar(0, '100', '110', '97', '105', '8'), bar(60_000, '105', '106', '104', '104.5', '4')];
    const list = listOf(events, spec());
    expect(list.length).to.equal(3);
    expect(list.bars).to.equal(2);
    const out = [...list];
    expect(out[0]).to.equal(f);
    // testInstrument's tick and step are 1 (exchange-kit): prices are ticks, 104.5 rounds to 105 (half up), 4 → 4 lots.
    expect(out[2]).to.deep.equal({
      s: 'bar',
      key: `spot:${SYMBOL}`,
      et: 120_000,
      ot: 60_000,
      iv: '1m',
      open: 105,
      high: 106,
      low: 104,
      close: 105,
      volumeLots: 4,
    });
  });

  it('replays_compiled_bars_into_the_same_paths_as_their_kline_records', () => {
    // Any prices on or off the tick, any volumes, two intervals (the feed keeps the first it meets),
    // funding between: the feed over the list must give exactly the events it gives over the records.
    const price = fc.integer({ min: 1, max: 10_000_000 }).map((n) => (n / 1000).toString());
    const rec = fc.record({
      o: price,
      h: price,
      l: price,
      c: price,
      v: fc.integer({ min: 0, max: 1_000_000 }).map((n) => (n / 100).toString()),
      iv: fc.constantFrom<KlineRecord['iv']>('1m', '1m', '1m', '5m'),
      funding: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(rec, { maxLength: 30 }), fc.constantFrom(undefined, 1, 0.5), (bars, qf) => {
        const records: DataRecord[] = [];
        bars.forEach((b, k) => {
          if (b.funding) records.push(funding(k * 60_000 + 30_000, '0.0002'));
          records.push(bar(k * 60_000, b.o, b.h, b.l, b.c, b.v, b.iv));
        });
        const s = spec(qf);
        const fromRecords = [...replayEvents(records, new ReplayMarket([s]))];
        const fromList = [...replayEvents(listOf(records, s), new ReplayMarket([s]))];
        expect(fromList).to.deep.equal(fromRecords);
      }),
    );
  });
});
