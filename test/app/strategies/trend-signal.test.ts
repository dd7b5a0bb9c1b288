import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { BarSampler, ema, emaCross } from '../../../strategies/trend-signal.js';

describe('trend signal', () => {
  it('computes_the_ema_seeded_with_the_first_value', () => {
    // period 3: α = 0.5 → 1, 0.5·2 + 0.5·1 = 1.5, 0.5·3 + 0.5·1.5 = 2.25
    expect(ema([1, 2, 3], 3)).to.deep.equal([1, 1.5, 2.25]);
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
