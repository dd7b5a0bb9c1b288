import { expect } from 'chai';
import { TapeAggregator, type TapeTrade } from '../../../src/venue/market/tape-aggregator.js';

const MIN = 60_000;
let nextId = 1;
function trade(time: number, priceTicks: number, lots: number, takerSide: 'buy' | 'sell' = 'buy', takerOrderId?: string): TapeTrade {
  return { id: nextId++, time, priceTicks, lots, takerSide, ...(takerOrderId === undefined ? {} : { takerOrderId }) };
}
const s = (v: { toString(): string } | undefined): string | undefined => v?.toString();

describe('TapeAggregator', () => {
  beforeEach(() => {
    nextId = 1;
  });

  describe('klines', () => {
    // tick 0.01, step 0.001: 10000 ticks = 100.00, 2 lots = 0.002.
    const SUN_2359_30 = Date.UTC(2024, 0, 7, 23, 59, 30); // Sunday
    const SUN_2359_45 = Date.UTC(2024, 0, 7, 23, 59, 45);
    const MON_0000_10 = Date.UTC(2024, 0, 8, 0, 0, 10); // Monday: a new ISO week
    const MON_0001_00 = Date.UTC(2024, 0, 8, 0, 1, 0);
    const NOW = Date.UTC(2024, 0, 8, 0, 5, 20);
    let tape: TapeAggregator;
    beforeEach(() => {
      tape = new TapeAggregator({ tick: '0.01', step: '0.001' });
      tape.onTrade(trade(SUN_2359_30, 10000, 2, 'buy'));
      tape.onTrade(trade(SUN_2359_45, 10100, 1, 'sell'));
      tape.onTrade(trade(MON_0000_10, 9950, 3, 'buy'));
      tape.onTrade(trade(MON_0001_00, 10200, 1, 'buy'));
    });

    it('computes_ohlcv_per_minute_across_the_boundary', () => {
      const bars = tape.klineViews('1m', { startTime: Date.UTC(2024, 0, 7, 23, 59), endTime: Date.UTC(2024, 0, 8, 0, 2) }, NOW);
      expect(bars.map((b) => [b.openTime, b.closeTime])).to.deep.equal([
        [Date.UTC(2024, 0, 7, 23, 59), Date.UTC(2024, 0, 8, 0, 0)],
        [Date.UTC(2024, 0, 8, 0, 0), Date.UTC(2024, 0, 8, 0, 1)],
        [Date.UTC(2024, 0, 8, 0, 1), Date.UTC(2024, 0, 8, 0, 2)],
      ]);
      // 23:59 bar: O 100 H 101 L 100 C 101, V 0.002 + 0.001, Q 100·0.002 + 101·0.001 = 0.301, taker buys 0.002 / 0.2.
      const b = bars[0]!;
      expect([s(b.open), s(b.high), s(b.low), s(b.close), s(b.volume), s(b.quoteVolume), b.count]).to.deep.equal([
        '100',
        '101',
        '100',
        '101',
        '0.003',
        '0.301',
        2,
      ]);
      expect([s(b.takerBuyVolume), s(b.takerBuyQuoteVolume)]).to.deep.equal(['0.002', '0.2']);
      // 00:00 bar: one print 99.5 × 0.003 = 0.2985.
      expect([s(bars[1]!.open), s(bars[1]!.close), s(bars[1]!.quoteVolume)]).to.deep.equal(['99.5', '99.5', '0.2985']);
    });

    it('splits_weeks_on_monday_and_months_on_the_first', () => {
      const weeks = tape.klineViews('1W', {}, NOW);
      // Week of Mon 2024-01-01: the two Sunday prints; week of Mon 01-08: 99.5 then 102.
      expect(weeks.map((b) => [b.openTime, s(b.open), s(b.high), s(b.low), s(b.close), s(b.volume)])).to.deep.equal([
        [Date.UTC(2024, 0, 1), '100', '101', '100', '101', '0.003'],
        [Date.UTC(2024, 0, 8), '99.5', '102', '99.5', '102', '0.004'],
      ]);
      // Q of the second week: 99.5·0.003 + 102·0.001 = 0.2985 + 0.102 = 0.4005.
      expect(s(weeks[1]!.quoteVolume)).to.equal('0.4005');
      const months = tape.klineViews('1M', {}, NOW);
      expect(
        months.map((b) => [b.openTime, b.closeTime, s(b.open), s(b.high), s(b.low), s(b.close), s(b.volume), s(b.quoteVolume)]),
      ).to.deep.equal([[Date.UTC(2024, 0, 1), Date.UTC(2024, 1, 1), '100', '102', '99.5', '102', '0.007', '0.7015']]);
    });

    it('opens_a_new_month_bar_on_the_first_of_the_month', () => {
      const t = new TapeAggregator({ tick: '0.01', step: '0.001' });
      t.onTrade(trade(Date.UTC(2024, 1, 29, 23, 59, 59, 999), 10000, 1));
      t.onTrade(trade(Date.UTC(2024, 2, 1), 10500, 1));
      const months = t.klineViews('1M', {}, Date.UTC(2024, 2, 2));
      // February 2024 has 29 days: its bar closes at March 1.
      expect(months.map((b) => [b.openTime, b.closeTime, s(b.close)])).to.deep.equal([
        [Date.UTC(2024, 1, 1), Date.UTC(2024, 2, 1), '100'],
        [Date.UTC(2024, 2, 1), Date.UTC(2024, 3, 1), '105'],
      ]);
    });

    it('excludes_the_bar_opening_at_end_time_like_the_captured_spot_response', () => {
      const bars = tape.klineBars('1m', { startTime: Date.UTC(2024, 0, 7, 23, 59), endTime: Date.UTC(2024, 0, 8, 0, 1) }, NOW);
      expect(bars.map((b) => b.openTime)).to.deep.equal([Date.UTC(2024, 0, 7, 23, 59), Date.UTC(2024, 0, 8, 0, 0)]);
    });

    it('fills_quiet_minutes_with_flat_bars_up_to_now', () => {
      // Without startTime: the `limit` bars ending at now (00:05); 00:02 … 00:05 had no prints.
      const bars = tape.klineViews('1m', { limit: 3 }, NOW);
      expect(bars.map((b) => [b.openTime, s(b.open), s(b.close), s(b.volume), b.count])).to.deep.equal([
        [Date.UTC(2024, 0, 8, 0, 3), '102', '102', '0', 0],
        [Date.UTC(2024, 0, 8, 0, 4), '102', '102', '0', 0],
        [Date.UTC(2024, 0, 8, 0, 5), '102', '102', '0', 0],
      ]);
    });

    it('returns_no_bars_before_the_first_print', () => {
      expect(tape.klineBars('1m', { startTime: 0, endTime: Date.UTC(2024, 0, 7) }, NOW)).to.deep.equal([]);
    });
  });

  describe('contract candles', () => {
    // tick 0.1, step 1 contract, contractSize 0.0001.
    const T0 = Date.UTC(2024, 0, 1, 0, 0, 0);
    let tape: TapeAggregator;
    beforeEach(() => {
      tape = new TapeAggregator({ tick: '0.1', step: '1', contractSize: '0.0001' });
      tape.onTrade(trade(T0 + 10_000, 1000, 5)); // 100.0 × 5
      tape.onTrade(trade(T0 + MIN + 5_000, 990, 10)); // 99.0 × 10
      tape.onTrade(trade(T0 + MIN + 6_000, 995, 10)); // 99.5 × 10
    });

    it('opens_each_candle_at_the_previous_close_and_keeps_real_prices_apart', () => {
      const c = tape.contractCandles('1m', { start: T0 / 1000 }, T0 + 2 * MIN + 1);
      expect(c.time).to.deep.equal([T0 / 1000, T0 / 1000 + 60, T0 / 1000 + 120]);
      // Bar 2: prev close 100 → open 100, high max(99.5, 100) = 100, low 99, close 99.5; real open 99, real high 99.5.
      expect([c.open[1], c.high[1], c.low[1], c.close[1], c.realOpen[1], c.realHigh[1], c.realLow[1], c.realClose[1]]).to.deep.equal([
        100, 100, 99, 99.5, 99, 99.5, 99, 99.5,
      ]);
      // vol in contracts 20; amount = (99·10 + 99.5·10) · 0.0001 = 0.1985.
      expect([c.vol[1], c.amount[1]]).to.deep.equal([20, 0.1985]);
      // Bar 1 is the first ever: open = its own first print.
      expect([c.open[0], c.realOpen[0], c.amount[0]]).to.deep.equal([100, 100, 0.05]);
      // Bar 3 had no prints: flat at 99.5.
      expect([c.open[2], c.high[2], c.low[2], c.close[2], c.vol[2]]).to.deep.equal([99.5, 99.5, 99.5, 99.5, 0]);
    });

    it('includes_the_candle_opening_at_end_and_none_containing_start', () => {
      // [start, end] on open times: start mid-bar-1 excludes bar 1; end exactly at bar 2's open includes it.
      const c = tape.contractCandles('1m', { start: T0 / 1000 + 30, end: T0 / 1000 + 60 }, T0 + 10 * MIN);
      expect(c.time).to.deep.equal([T0 / 1000 + 60]);
    });

    it('applies_the_2000_point_rules_for_start_only_end_only_and_neither', () => {
      const t = new TapeAggregator({ tick: '0.1', step: '1' });
      for (let k = 0; k < 2100; k++) t.onTrade(trade(T0 + k * MIN, 1000 + k, 1));
      const now = T0 + 2099 * MIN + 1;
      const first = T0 / 1000;
      // Neither: the 2000 most recent = bars 100 … 2099.
      const recent = t.contractCandles('1m', {}, now);
      expect([recent.time.length, recent.time[0], recent.time[1999]]).to.deep.equal([2000, first + 100 * 60, first + 2099 * 60]);
      // End only at bar 2050: the 2000 up to it = bars 51 … 2050.
      const ending = t.contractCandles('1m', { end: first + 2050 * 60 }, now);
      expect([ending.time.length, ending.time[0], ending.time[1999]]).to.deep.equal([2000, first + 51 * 60, first + 2050 * 60]);
      // Start only at bar 10: start … now, capped at the first 2000 = bars 10 … 2009.
      const starting = t.contractCandles('1m', { start: first + 10 * 60 }, now);
      expect([starting.time.length, starting.time[0], starting.time[1999]]).to.deep.equal([2000, first + 10 * 60, first + 2009 * 60]);
    });
  });

  describe('24h ticker', () => {
    const T0 = Date.UTC(2024, 0, 1, 0, 0, 30);
    const DAY = 86_400_000;

    it('rolls_a_print_off_between_24h_and_24h_plus_one_minute', () => {
      const tape = new TapeAggregator({ tick: '0.01', step: '0.001' });
      tape.onTrade(trade(T0, 10000, 1)); // 100 × 0.001
      tape.onTrade(trade(T0 + 3_600_000, 11000, 2)); // 110 × 0.002
      // now = Jan 2 00:00:59.999 → window opens at floor(Jan 1 00:00:59.999 / 1 min) = Jan 1 00:00: both prints.
      const inside = tape.ticker24h(Date.UTC(2024, 0, 2, 0, 0, 59, 999));
      expect([
        inside.openTime,
        s(inside.open),
        s(inside.high),
        s(inside.low),
        s(inside.volume),
        s(inside.quoteVolume),
        inside.count,
      ]).to.deep.equal([
        Date.UTC(2024, 0, 1),
        '100',
        '110',
        '100',
        '0.003',
        '0.32', // 100·0.001 + 110·0.002 = 0.1 + 0.22
        2,
      ]);
      // now = Jan 2 00:01:00 → window opens Jan 1 00:01: the first print is gone; it becomes the open.
      const after = tape.ticker24h(Date.UTC(2024, 0, 2, 0, 1));
      expect([
        after.openTime,
        s(after.open),
        s(after.prevClose),
        s(after.high),
        s(after.low),
        s(after.last),
        s(after.volume),
        after.count,
      ]).to.deep.equal([Date.UTC(2024, 0, 1, 0, 1), '100', '100', '110', '110', '110', '0.002', 1]);
      // change 110 − 100 = 10, ratio 0.1.
      expect([s(after.priceChange), s(after.priceChangePercent)]).to.deep.equal(['10', '0.1']);
      // A day after the last print the window is empty: high = low = last, no volume.
      const empty = tape.ticker24h(T0 + 3_600_000 + DAY + 2 * MIN);
      expect([s(empty.open), s(empty.high), s(empty.low), s(empty.last), s(empty.volume), empty.count, s(empty.priceChange)]).to.deep.equal(
        ['110', '110', '110', '110', '0', 0, '0'],
      );
    });

    it('truncates_the_change_ratio_to_four_places_like_the_venue', () => {
      // The captured ticker: open 88395.05, last 87904 → change −491.05, −491.05 / 88395.05 = −0.0055552… → −0.0055.
      const tape = new TapeAggregator({ tick: '0.01', step: '0.00000001' });
      tape.onTrade(trade(T0, 8839505, 1));
      tape.onTrade(trade(T0 + 1000, 8790400, 1));
      const t = tape.ticker24h(T0 + 2000);
      expect([s(t.priceChange), s(t.priceChangePercent), s(t.lastQty)]).to.deep.equal(['-491.05', '-0.0055', '0.00000001']);
    });
  });

  describe('avgPrice', () => {
    const T0 = Date.UTC(2024, 0, 1, 0, 0, 0);

    it('weights_by_volume_over_five_minutes_then_falls_back_to_last', () => {
      const tape = new TapeAggregator({ tick: '0.01', step: '1' });
      expect(tape.avgPrice(T0)).to.equal(undefined);
      tape.onTrade(trade(T0, 10000, 1)); // 100 × 1
      tape.onTrade(trade(T0 + MIN, 11000, 3)); // 110 × 3
      // (100·1 + 110·3) / 4 = 430 / 4 = 107.5
      const both = tape.avgPrice(T0 + 2 * MIN)!;
      expect([both.mins, s(both.price)]).to.deep.equal([5, '107.5']);
      // now = T0 + 5 min + 1 s: window opens at T0 + 1 s, the first print's bucket (T0) is gone.
      expect(s(tape.avgPrice(T0 + 5 * MIN + 1000)!.price)).to.equal('110');
      // Nothing in the window at all: the last price.
      expect(s(tape.avgPrice(T0 + 20 * MIN)!.price)).to.equal('110');
    });

    it('rounds_the_average_to_the_tick', () => {
      const tape = new TapeAggregator({ tick: '0.01', step: '1' });
      tape.onTrade(trade(T0, 10000, 1));
      tape.onTrade(trade(T0, 10001, 2));
      // (10000 + 2·10001) / 3 = 10000.666… ticks → 10001 → 100.01
      expect(s(tape.avgPrice(T0)!.price)).to.equal('100.01');
    });
  });

  describe('trades', () => {
    const T = Date.UTC(2024, 0, 1);

    it('aggregates_prints_of_one_taker_order_at_one_price_and_time', () => {
      const tape = new TapeAggregator({ tick: '0.01', step: '1' });
      tape.onTrade(trade(T, 10000, 1, 'sell', 'A')); // id 1
      tape.onTrade(trade(T, 10000, 2, 'sell', 'A')); // id 2: same order, price, time → joins aggregate 1
      tape.onTrade(trade(T, 9999, 1, 'sell', 'A')); // id 3: new price
      tape.onTrade(trade(T, 9999, 1, 'buy', 'B')); // id 4: other order
      tape.onTrade(trade(T + 1, 9999, 1, 'buy', 'B')); // id 5: later time
      const aggs = tape.aggTrades();
      expect(aggs.map((a) => [a.a, a.f, a.l, s(a.price), s(a.qty), a.time, a.buyerMaker])).to.deep.equal([
        [4, 5, 5, '99.99', '1', T + 1, false],
        [3, 4, 4, '99.99', '1', T, false],
        [2, 3, 3, '99.99', '1', T, true],
        [1, 1, 2, '100', '3', T, true],
      ]);
      expect(tape.aggTrades({ startTime: T + 1, endTime: T + 1 }).map((a) => a.a)).to.deep.equal([4]);
      expect(tape.aggTrades({ startTime: T, endTime: T, limit: 2 }).map((a) => a.a)).to.deep.equal([3, 2]);
    });

    it('does_not_aggregate_prints_without_a_taker_order_id', () => {
      const tape = new TapeAggregator({ tick: '0.01', step: '1' });
      tape.onTrade(trade(T, 10000, 1, 'buy'));
      tape.onTrade(trade(T, 10000, 1, 'buy'));
      expect(tape.aggTrades().length).to.equal(2);
    });

    it('keeps_recent_trades_newest_first_within_capacity', () => {
      const tape = new TapeAggregator({ tick: '0.01', step: '0.1' }, { recentTrades: 3 });
      for (let k = 0; k < 5; k++) tape.onTrade(trade(T + k, 10000 + k, 2, k % 2 === 0 ? 'buy' : 'sell'));
      const r = tape.recentTrades(10);
      expect(r.map((t) => t.id)).to.deep.equal([5, 4, 3]);
      // id 4: 100.03 × 0.2 = 20.006, seller took → buyer was maker.
      expect([s(r[1]!.price), s(r[1]!.qty), s(r[1]!.quoteQty), r[1]!.buyerMaker]).to.deep.equal(['100.03', '0.2', '20.006', true]);
      expect(tape.recentTrades(1).map((t) => t.id)).to.deep.equal([5]);
    });

    it('books_a_late_print_at_the_previous_time', () => {
      const tape = new TapeAggregator({ tick: '0.01', step: '1' });
      tape.onTrade(trade(T + MIN, 10000, 1));
      tape.onTrade(trade(T + 10, 10100, 1));
      expect(tape.lateTrades).to.equal(1);
      expect(tape.recentTrades(1)[0]!.time).to.equal(T + MIN);
      expect(tape.klineBars('1m', {}, T + MIN).map((b) => [b.openTime, b.count])).to.deep.equal([[T + MIN, 2]]);
    });
  });

  describe('a tape keeping only what its reader asks for', () => {
    const T = Date.UTC(2024, 0, 8, 0, 0, 0);
    const prints: [number, number, number, 'buy' | 'sell'][] = [
      [T + 1_000, 10000, 2, 'buy'],
      [T + 61_000, 10100, 1, 'sell'],
      [T + 30_000, 9900, 4, 'buy'], // late: booked at T + 61 000
      [T + 400_000, 10200, 3, 'sell'],
    ];

    it('gives_the_same_bars_ticker_and_average_from_onPrint_as_the_full_tape_from_onTrade', () => {
      const full = new TapeAggregator({ tick: '0.01', step: '0.001' });
      const lean = new TapeAggregator({ tick: '0.01', step: '0.001' }, { recentTrades: 0, aggTrades: 0, klineIntervals: ['5m'] });
      prints.forEach(([t, p, q, side], k) => {
        full.onTrade({ id: k + 1, time: t, priceTicks: p, lots: q, takerSide: side });
        lean.onPrint(k + 1, t, p, q, side);
      });
      const now = T + 600_000;
      expect(lean.klineBars('5m', {}, now)).to.deep.equal(full.klineBars('5m', {}, now));
      expect(lean.ticker24h(now)).to.deep.equal(full.ticker24h(now));
      expect(lean.avgPrice(now)).to.deep.equal(full.avgPrice(now));
      expect(lean.lateTrades).to.equal(1);
      expect(lean.lastPriceTicks()).to.equal(10200);
    });

    it('refuses_queries_for_what_it_does_not_keep', () => {
      const lean = new TapeAggregator(
        { tick: '0.01', step: '0.001' },
        { recentTrades: 0, aggTrades: 0, klineIntervals: ['5m'], ticker24h: false, avgPrice: false },
      );
      lean.onPrint(1, T, 10000, 1, 'buy');
      expect(() => lean.klineBars('1m', {}, T + 1)).to.throw(RangeError, /1m/);
      expect(() => lean.ticker24h(T + 1)).to.throw(RangeError);
      expect(() => lean.avgPrice(T + 1)).to.throw(RangeError);
      expect(() => lean.recentTrades(1)).to.throw(RangeError);
      expect(() => lean.aggTrades()).to.throw(RangeError);
    });
  });
});
