import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { spotInstrument } from '../../domain/support/builders.js';
import { inventorySkew, ladderOf, planQuotes, type QuoteSettings } from '../../../strategies/market-maker-quotes.js';

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

  it('quotes_from_a_ladder_made_once_as_from_the_settings_on_every_call', () => {
    // The spot market maker makes the ladder once per symbol and plans every snapshot on it: across mids and
    // inventories, it must quote as planning from the settings does (which makes a ladder each call).
    const coarse = spotInstrument({ tick: D('0.1'), step: D('0.001'), minQuantity: D('0.001') });
    for (const [s, i, count] of [
      [settings({ levels: 3, spreadBps: 4, levelStepBps: 2 }), inst, 6],
      [settings({ levels: 2, orderSize: D('0.0005') }), coarse, 0],
    ] as const) {
      const ladder = ladderOf(s, i);
      for (const mid of ['100000.37', '99999.99', '100123.4'])
        for (const inventory of ['0', '0.002', '-0.004']) {
          const planned = show(planQuotes(D(mid), D(inventory), s, i, ladder));
          expect(planned).to.deep.equal(show(planQuotes(D(mid), D(inventory), s, i)));
          if (inventory === '0') expect(planned).to.have.length(count);
        }
    }
  });

  it('clamps_the_skew_to_plus_minus_one', () => {
    expect(inventorySkew(D('0.05'), D('0.01')).toNumber()).to.equal(1);
    expect(inventorySkew(D('-0.002'), D('0.01')).toNumber()).to.equal(-0.2);
  });
});
