import { expect } from 'chai';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { D } from '../../../src/core/decimal.js';
import { PROJECT_ROOT } from '../../support/project-root.js';
import { BarSampler, ema, emaCross } from '../../../strategies/trend-signal.js';

describe('trend signal', () => {
  it('computes_the_ema_seeded_with_the_first_value', () => {
    // period 3: α = 0.5 → 1, 0.5·2 + 0.5·1 = 1.5, 0.5·3 + 0.5·1.5 = 2.25
    expect(ema([1, 2, 3], 3)).to.deep.equal([1, 1.5, 2.25]);
  });

  it('computes_hand_worked_values_for_a_period_of_four', () => {
    // period 4: α = 2/5 = 0.4 → 10; 0.4·20 + 0.6·10 = 14; 0.4·5 + 0.6·14 = 10.4; 0.4·10 + 0.6·10.4 = 10.24
    const got = ema([10, 20, 5, 10], 4);
    const want = [10, 14, 10.4, 10.24];
    got.forEach((v, i) => expect(v).to.be.closeTo(want[i]!, 1e-12));
  });

  it('matches_the_hand_written_recursion_it_replaced_on_the_sample_bars', () => {
    // The recursion the strategy used before trading-signals, kept here as the independent method.
    const handEma = (values: readonly number[], period: number): number[] => {
      const a = 2 / (period + 1);
      let prev: number | undefined;
      return values.map((v) => (prev = prev === undefined ? v : a * v + (1 - a) * prev));
    };
    const handCross = (closes: readonly number[], fast: number, slow: number): string | undefined => {
      if (closes.length < slow + 1) return undefined;
      const f = handEma(closes, fast);
      const s = handEma(closes, slow);
      const n = closes.length;
      const now = Math.sign(f[n - 1]! - s[n - 1]!);
      const before = Math.sign(f[n - 2]! - s[n - 2]!);
      return now > 0 && before <= 0 ? 'up' : now < 0 && before >= 0 ? 'down' : undefined;
    };
    const file = join(PROJECT_ROOT, 'data', 'sample', 'binance_usdm_BTCUSDT_perp_1m_2025-05-04_2025-05-12.csv.gz');
    const closes = gunzipSync(readFileSync(file))
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => Number(line.split(',')[4]));
    expect(closes.length).to.equal(10_587);
    // Values: equal up to float rounding (the library's seed is close·α + close·(1 − α)).
    for (const period of [9, 30]) {
      const lib = ema(closes, period);
      const hand = handEma(closes, period);
      const worst = Math.max(...lib.map((v, i) => Math.abs(v - hand[i]!) / hand[i]!));
      expect(worst).to.be.below(1e-14);
    }
    // Signals: identical on every window the shipped backtest judges (59 closed bars of 60 klines, 9/30).
    let crosses = 0;
    for (let end = 31; end <= closes.length; end++) {
      const window = closes.slice(Math.max(0, end - 59), end);
      const want = handCross(window, 9, 30);
      expect(emaCross(window, 9, 30), `window ending at bar ${end}`).to.equal(want);
      if (want) crosses++;
    }
    expect(crosses).to.be.greaterThan(100);
  });

  it('judges_exactly_as_the_library_averages_it_streams', () => {
    // emaCross runs the averages itself in one pass (issue 13); the independent method here is the
    // judgement on trading-signals' own EMA series (ema above), compared exactly: the same doubles give
    // the same signs, ties (fast = slow, e.g. flat prices) included.
    const libCross = (closes: readonly number[], fast: number, slow: number): string | undefined => {
      if (closes.length < slow + 1) return undefined;
      const f = ema(closes, fast);
      const s = ema(closes, slow);
      const n = closes.length;
      const now = Math.sign(f[n - 1]! - s[n - 1]!);
      const before = Math.sign(f[n - 2]! - s[n - 2]!);
      return now > 0 && before <= 0 ? 'up' : now < 0 && before >= 0 ? 'down' : undefined;
    };
    const price = fc.oneof(fc.integer({ min: 99_990, max: 100_010 }), fc.double({ min: 1, max: 1e6, noNaN: true }));
    fc.assert(
      fc.property(
        fc.array(price, { minLength: 0, maxLength: 80 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 2, max: 40 }),
        (closes, fast, slow) => {
          expect(emaCross(closes, fast, slow)).to.equal(libCross(closes, fast, slow));
        },
      ),
      { numRuns: 2000 },
    );
    // Flat then one step: the averages tie until the step (sign 0 before, so a step judges a cross).
    expect(emaCross([5, 5, 5, 5, 6], 2, 3))
      .to.equal('up')
      .and.to.equal(libCross([5, 5, 5, 5, 6], 2, 3));
    expect(emaCross([5, 5, 5, 5, 4], 2, 3))
      .to.equal('down')
      .and.to.equal(libCross([5, 5, 5, 5, 4], 2, 3));
  });

  it('finds_a_cross_up_on_the_newest_bar_only', () => {
    // fast(2) α=2/3: …10, 9.333, 11.111; slow(3) α=1/2: …10, 9.5, 10.75 → −0.167 then +0.361
    expect(emaCross([10, 10, 10, 10, 9, 12], 2, 3)).to.equal('up');
    // one bar later the fast stays above: no new cross
    expect(emaCross([10, 10, 10, 10, 9, 12, 13], 2, 3)).to.equal(undefined);
  });

  it('finds_a_cross_down', () => {
    expect(emaCross([10, 10, 10, 10, 11, 8], 2, 3)).to.equal('down');
  });

  it('needs_slow_plus_one_bars', () => {
    expect(emaCross([10, 9, 12], 2, 3)).to.equal(undefined);
  });

  it('samples_bars_that_close_when_a_later_price_arrives', () => {
    const s = new BarSampler(1000, 10);
    expect(s.add(100, D(10))).to.equal(false);
    expect(s.add(900, D(11))).to.equal(false);
    // t=1100 is in the next bar: the first bar closes at its last price, 11
    expect(s.add(1100, D(12))).to.equal(true);
    expect(s.closed()).to.deep.equal([11]);
  });
});
