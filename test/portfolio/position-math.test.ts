import { expect } from 'chai';
import fc from 'fast-check';
import { D, type Decimal, ZERO } from '../../src/core/decimal.js';
import { flatPosition } from '../../src/domain/position.js';
import { applyTrade, netRealized, unrealizedPnl } from '../../src/portfolio/position-math.js';
import { BTC_USDT, BTCUSDT } from '../domain/support/builders.js';

const spot = () => flatPosition(BTCUSDT, 'spot', 'net', D(1), 'USDT');
const perp = () => flatPosition(BTC_USDT, 'contract', 'net', D('0.0001'), 'USDT');
const trade = (p: ReturnType<typeof spot>, side: 'buy' | 'sell', price: string, qty: string) => applyTrade(p, side, D(price), D(qty), 0);

describe('position math', () => {
  it('averages_the_entry_of_a_long_built_in_two_buys', () => {
    // 1 @ 100 + 3 @ 104 → (100 + 312) / 4 = 103
    const p = trade(trade(spot(), 'buy', '100', '1').position, 'buy', '104', '3').position;
    expect([p.quantity.toFixed(), p.entryPrice.toFixed()]).to.deep.equal(['4', '103']);
  });

  it('realises_a_partial_close_of_a_long_and_keeps_the_entry', () => {
    // long 4 @ 103, sell 1 @ 110 → realised (110 − 103) × 1 = 7
    const long = trade(spot(), 'buy', '103', '4').position;
    const r = trade(long, 'sell', '110', '1');
    expect([r.realized.toFixed(), r.position.quantity.toFixed(), r.position.entryPrice.toFixed()]).to.deep.equal(['7', '3', '103']);
  });

  it('realises_a_short_closed_below_its_entry_as_profit', () => {
    // short 2 @ 100, buy 2 @ 95 → (100 − 95) × 2 = 10
    const r = trade(trade(spot(), 'sell', '100', '2').position, 'buy', '95', '2');
    expect([r.realized.toFixed(), r.position.quantity.toFixed(), r.position.entryPrice.toFixed()]).to.deep.equal(['10', '0', '0']);
  });

  it('flips_through_zero_opening_the_rest_at_the_fill_price', () => {
    // long 1 @ 100, sell 3 @ 90 → realise (90 − 100) × 1 = −10, then short 2 @ 90
    const r = trade(trade(spot(), 'buy', '100', '1').position, 'sell', '90', '3');
    expect([r.realized.toFixed(), r.position.quantity.toFixed(), r.position.entryPrice.toFixed()]).to.deep.equal(['-10', '-2', '90']);
  });

  it('scales_contract_pnl_by_the_contract_size', () => {
    // 1000 contracts × 0.0001 BTC: long @ 60 000, close @ 61 000 → 1000 × 0.0001 × 1000 = 100
    const r = trade(trade(perp(), 'buy', '60000', '1000').position, 'sell', '61000', '1000');
    expect(r.realized.toFixed()).to.equal('100');
  });

  it('marks_unrealised_pnl_for_long_and_short', () => {
    // long 2 @ 100 at 103 → +6; short 2 @ 100 at 103 → −6
    expect(unrealizedPnl(trade(spot(), 'buy', '100', '2').position, D(103)).toFixed()).to.equal('6');
    expect(unrealizedPnl(trade(spot(), 'sell', '100', '2').position, D(103)).toFixed()).to.equal('-6');
  });

  it('nets_fees_and_funding_in_net_realised', () => {
    const p = { ...trade(trade(spot(), 'buy', '100', '1').position, 'sell', '110', '1').position, fees: D('0.2'), funding: D('-0.05') };
    // 10 − 0.2 − 0.05 = 9.75
    expect(netRealized(p).toFixed()).to.equal('9.75');
  });

  describe('properties', () => {
    const fillArb = fc.record({
      side: fc.constantFrom('buy' as const, 'sell' as const),
      price: fc.integer({ min: 90, max: 110 }),
      qty: fc.integer({ min: 1, max: 5 }),
    });
    const run = (fills: readonly { side: 'buy' | 'sell'; price: number; qty: number }[]) => {
      let p = spot();
      let realized: Decimal = ZERO;
      for (const x of fills) {
        const r = applyTrade(p, x.side, D(x.price), D(x.qty), 0);
        p = r.position;
        realized = realized.plus(r.realized);
      }
      return { p, realized };
    };

    it('applying_fills_in_any_order_gives_the_same_quantity_and_the_same_total_pnl', () => {
      fc.assert(
        fc.property(
          fc.array(fillArb, { minLength: 1, maxLength: 8 }),
          fc.integer({ min: 80, max: 120 }),
          fc.func(fc.integer()),
          (fills, mark, key) => {
            const a = run(fills);
            const shuffled = [...fills]
              .map((x, i) => ({ x, k: key(i) }))
              .sort((u, v) => u.k - v.k)
              .map((u) => u.x);
            const b = run(shuffled);
            expect(a.p.quantity.toFixed()).to.equal(b.p.quantity.toFixed());
            const total = (r: ReturnType<typeof run>) =>
              r.realized
                .plus(unrealizedPnl(r.p, D(mark)))
                .toDecimalPlaces(12)
                .toFixed();
            expect(total(a)).to.equal(total(b));
          },
        ),
        { seed: 4242, numRuns: 300 },
      );
    });

    it('total_pnl_equals_mark_value_minus_cash_paid', () => {
      fc.assert(
        fc.property(fc.array(fillArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 80, max: 120 }), (fills, mark) => {
          const { p, realized } = run(fills);
          let cash = ZERO;
          for (const x of fills)
            cash = cash.plus(
              D(x.price)
                .mul(x.qty)
                .mul(x.side === 'buy' ? -1 : 1),
            );
          expect(
            realized
              .plus(unrealizedPnl(p, D(mark)))
              .toDecimalPlaces(12)
              .toFixed(),
          ).to.equal(cash.plus(p.quantity.mul(mark)).toDecimalPlaces(12).toFixed());
        }),
        { seed: 4243, numRuns: 300 },
      );
    });
  });
});
