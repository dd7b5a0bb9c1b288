import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { spotInstrument } from '../../domain/support/builders.js';
import { inventorySkew, planQuotes, type QuoteSettings } from '../../../strategies/market-maker-quotes.js';

const inst = spotInstrument(); // tick 0.01, step 0.000001, min quantity 0.000001, min quote 1
const settings = (over: Partial<QuoteSettings> = {}): QuoteSettings => ({
  spreadBps: 10,
  levels: 1,
  levelStepBps: 5,
  orderSize: D('0.001'),
  maxInventory: D('0.01'),
  skewBps: 5,
  ...over,
});
const show = (qs: ReturnType<typeof planQuotes>) => qs.map((q) => `${q.slot} ${q.side} ${q.price.toFixed()} ${q.quantity.toFixed()}`);

describe('planQuotes', () => {
  it('quotes_half_the_spread_each_side_of_a_flat_mid', () => {
    // offset 10/2 = 5 bp: 100000 × 0.9995 = 99950, 100000 × 1.0005 = 100050
    expect(show(planQuotes(D(100000), D(0), settings(), inst))).to.deep.equal(['b0 buy 99950 0.001', 'a0 sell 100050 0.001']);
  });

  it('skews_both_quotes_against_a_long_inventory', () => {
    // skew 0.005/0.01 = 0.5 → centre 100000 × (1 − 5 × 0.5 / 10⁴) = 99975
    // bid 99975 × 0.9995 = 99925.0125 → down 99925.01; ask 99975 × 1.0005 = 100024.9875 → up 100024.99
    expect(show(planQuotes(D(100000), D('0.005'), settings(), inst))).to.deep.equal(['b0 buy 99925.01 0.001', 'a0 sell 100024.99 0.001']);
  });

  it('withdraws_the_side_that_would_exceed_max_inventory', () => {
    // at +max: centre 100000 × (1 − 5/10⁴) = 99950; ask 99950 × 1.0005 = 99999.975 → up 99999.98; no bid
    expect(show(planQuotes(D(100000), D('0.01'), settings(), inst))).to.deep.equal(['a0 sell 99999.98 0.001']);
    expect(show(planQuotes(D(100000), D('-0.01'), settings(), inst)).map((s) => s.slice(0, 2))).to.deep.equal(['b0']);
  });

  it('adds_levels_level_step_further_out', () => {
    // level 1 offset 5 + 5 = 10 bp: 99900 and 100100
    expect(show(planQuotes(D(100000), D(0), settings({ levels: 2 }), inst))).to.deep.equal([
      'b0 buy 99950 0.001',
      'a0 sell 100050 0.001',
      'b1 buy 99900 0.001',
      'a1 sell 100100 0.001',
    ]);
  });

  it('leaves_out_quotes_under_the_minimum_quote_amount', () => {
    // bid 0.00001 × 99950 = 0.9995 USDT < 1 USDT: left out; ask 0.00001 × 100050 = 1.0005 USDT: kept
    expect(show(planQuotes(D(100000), D(0), settings({ orderSize: D('0.00001') }), inst))).to.deep.equal(['a0 sell 100050 0.00001']);
  });

  it('gives_one_settings_object_the_quotes_of_fresh_settings_across_instruments_and_changed_values', () => {
    // planQuotes keeps what it derives from the settings and the instrument (per settings object): the same
    // object asked again, with another instrument or with values changed in place, must quote as new settings do.
    const s: { -readonly [K in keyof QuoteSettings]: QuoteSettings[K] } = settings({ levels: 2 });
    const coarse = spotInstrument({ tick: D('0.1'), step: D('0.001'), minQuantity: D('0.001') });
    const fresh = (i: typeof inst) => show(planQuotes(D('100000.37'), D('0.002'), { ...s }, i));
    for (const i of [inst, coarse, inst]) expect(show(planQuotes(D('100000.37'), D('0.002'), s, i))).to.deep.equal(fresh(i));
    s.orderSize = D('0.0005');
    expect(show(planQuotes(D('100000.37'), D('0.002'), s, coarse)))
      .to.deep.equal(fresh(coarse))
      .and.to.deep.equal([]);
    s.levels = 3;
    s.spreadBps = 4;
    s.levelStepBps = 2;
    expect(show(planQuotes(D('100000.37'), D('0.002'), s, inst)))
      .to.deep.equal(fresh(inst))
      .and.to.have.length(6);
  });

  it('clamps_the_skew_to_plus_minus_one', () => {
    expect(inventorySkew(D('0.05'), D('0.01')).toNumber()).to.equal(1);
    expect(inventorySkew(D('-0.002'), D('0.01')).toNumber()).to.equal(-0.2);
  });
});
