import { expect } from 'chai';
import fc from 'fast-check';
import { OrderBook, StpAction, type BookSide } from '../../../src/venue/book/order-book.js';

function book(): OrderBook<string> {
  return new OrderBook<string>();
}

describe('OrderBook', () => {
  it('rests_orders_and_reports_best_prices', () => {
    const b = book();
    b.add('b1', 'BUY', 100, 5, 'a');
    b.add('b2', 'BUY', 101, 3, 'a');
    b.add('s1', 'SELL', 105, 2, 'b');
    b.add('s2', 'SELL', 104, 4, 'b');
    expect(b.bestBid()).to.equal(101);
    expect(b.bestAsk()).to.equal(104);
    expect(b.bestBidLots()).to.equal(3);
    expect(b.bestAskLots()).to.equal(4);
    expect(b.size).to.equal(4);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('counts_every_change_in_its_version_and_nothing_else', () => {
    const b = book();
    b.add('s1', 'SELL', 105, 2, 'x'); // 1
    b.add('s2', 'SELL', 106, 2, 'x'); // 2
    b.cancel('nope'); // unknown: no change
    b.amend('s2', 107, 2); // 3
    b.reduce('s2', 1); // 4
    b.match('BUY', { limitTicks: 104, lots: 5 }); // crosses nothing: no change
    b.match('BUY', { limitTicks: 105, lots: 1 }); // 5: one fill
    b.cancel('s1'); // 6
    expect(b.version).to.equal(6);
    b.clear(); // 7
    expect(b.version).to.equal(7);
  });

  it('removes_an_order_by_its_handle_once', () => {
    const b = book();
    const o = b.add('s1', 'SELL', 105, 2, 'x');
    b.add('s2', 'SELL', 105, 3, 'x');
    expect(b.remove(o)).to.equal(true);
    expect(b.remove(o)).to.equal(false);
    // level 105 keeps s2 only: 3 lots in 1 order
    expect([b.has('s1'), b.depth('SELL', 1)]).to.deep.equal([false, [[105, 3, 1]]]);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('reports_undefined_best_on_empty_book', () => {
    const b = book();
    expect(b.bestBid()).to.equal(undefined);
    expect(b.bestAsk()).to.equal(undefined);
    expect(b.bestBidLots()).to.equal(0);
    expect(b.depth('BUY', 5)).to.deep.equal([]);
  });

  it('aggregates_depth_best_first', () => {
    const b = book();
    b.add('1', 'SELL', 105, 2, 'x');
    b.add('2', 'SELL', 104, 4, 'x');
    b.add('3', 'SELL', 104, 1, 'y');
    b.add('4', 'SELL', 110, 7, 'x');
    b.add('5', 'BUY', 99, 3, 'x');
    b.add('6', 'BUY', 90, 1, 'x');
    // asks: 104 has 4+1 = 5 lots in 2 orders, then 105, then 110 (cut by levels=2)
    expect(b.depth('SELL', 2)).to.deep.equal([
      [104, 5, 2],
      [105, 2, 1],
    ]);
    expect(b.depth('BUY', 10)).to.deep.equal([
      [99, 3, 1],
      [90, 1, 1],
    ]);
  });

  it('throws_when_an_add_would_cross', () => {
    const b = book();
    b.add('s', 'SELL', 100, 1, 'x');
    expect(() => b.add('b', 'BUY', 100, 1, 'y')).to.throw(RangeError);
    expect(() => b.add('s', 'SELL', 101, 1, 'y')).to.throw(RangeError, /already/);
    expect(() => b.add('z', 'SELL', 101, 0, 'y')).to.throw(RangeError);
    expect(() => b.add('z', 'SELL', 101.5, 1, 'y')).to.throw(RangeError);
  });

  it('keeps_the_resting_order_and_nothing_else_after_a_refused_add', () => {
    const b = book();
    const s = b.add('s', 'SELL', 100, 1, 'x');
    expect(() => b.add('s', 'SELL', 101, 2, 'y')).to.throw(RangeError, /already/);
    expect(() => b.add('b', 'BUY', 100, 1, 'y')).to.throw(RangeError, /cross/);
    expect(() => b.add('z', 'SELL', 101, 0, 'y')).to.throw(RangeError, /lots/);
    // the first 's' is still the one found by id; the refused ids were never indexed
    expect([b.get('s') === s, b.has('b'), b.has('z'), b.size, b.version]).to.deep.equal([true, false, false, 1, 1]);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('matches_in_price_then_time_priority_with_partial_fill', () => {
    const b = book();
    b.add('a1', 'SELL', 101, 2, 'm1');
    b.add('a2', 'SELL', 100, 3, 'm2');
    b.add('a3', 'SELL', 100, 4, 'm3');
    // buy 6 up to 101: a2 (3 @100), a3 (3 of 4 @100) → quote = 3·100 + 3·100 = 600
    const r = b.match('BUY', { limitTicks: 101, lots: 6 });
    expect(r.fills.map((f) => [f.maker.id, f.priceTicks, f.lots, f.makerDone])).to.deep.equal([
      ['a2', 100, 3, true],
      ['a3', 100, 3, false],
    ]);
    expect(r.lots).to.equal(6);
    expect(r.quote).to.equal(600);
    expect(b.get('a3')!.lots).to.equal(1);
    expect(b.has('a2')).to.equal(false);
    expect(b.bestAsk()).to.equal(100);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('stops_at_the_limit_price', () => {
    const b = book();
    b.add('a1', 'SELL', 100, 1, 'm');
    b.add('a2', 'SELL', 102, 5, 'm');
    const r = b.match('BUY', { limitTicks: 101, lots: 10 });
    expect(r.lots).to.equal(1);
    expect(b.bestAsk()).to.equal(102);
  });

  it('sells_into_bids_best_first_without_limit', () => {
    const b = book();
    b.add('b1', 'BUY', 98, 2, 'm');
    b.add('b2', 'BUY', 99, 2, 'm');
    // 3 lots: 2@99 + 1@98 → quote 198 + 98 = 296
    const r = b.match('SELL', { lots: 3 });
    expect(r.quote).to.equal(296);
    expect(b.bestBid()).to.equal(98);
    expect(b.bestBidLots()).to.equal(1);
  });

  it('limits_a_buy_by_quote_budget', () => {
    const b = book();
    b.add('a1', 'SELL', 100, 2, 'm');
    b.add('a2', 'SELL', 110, 5, 'm');
    // budget 450: 2@100 = 200 → 250 left, floor(250/110) = 2 lots @110 = 220 → 30 left (< 110: stop)
    const r = b.match('BUY', { lots: Infinity, quoteBudget: 450 });
    expect(r.lots).to.equal(4);
    expect(r.quote).to.equal(420);
    expect(b.get('a2')!.lots).to.equal(3);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('honours_a_bigint_quote_budget_above_2_pow_53_exactly', () => {
    const b = book();
    // price 10^7 ticks (100000.00 at tick 0.01), 3·10^9 lots resting (30 BTC at step 1e-8)
    b.add('a', 'SELL', 10_000_000, 3_000_000_000, 'm');
    // budget 2·10^16 + 9_999_999 tick-lots: floor(budget / 10^7) = 2·10^9 lots, 9_999_999 left over
    const budget = 20_000_000_009_999_999n;
    expect(b.previewMatch('BUY', { lots: Infinity, quoteBudget: budget }).lots).to.equal(2_000_000_000);
    const r = b.match('BUY', { lots: Infinity, quoteBudget: budget });
    expect(r.lots).to.equal(2_000_000_000);
    expect(b.get('a')!.lots).to.equal(1_000_000_000);
  });

  it('previews_without_changing_the_book', () => {
    const b = book();
    b.add('a1', 'SELL', 100, 2, 'm');
    b.add('a2', 'SELL', 110, 5, 'm');
    expect(b.previewMatch('BUY', { limitTicks: 110, lots: 4 })).to.deep.equal({ lots: 4, quote: 200 + 220 });
    expect(b.previewMatch('BUY', { lots: Infinity, quoteBudget: 450 })).to.deep.equal({ lots: 4, quote: 420 });
    expect(b.previewMatch('BUY', { limitTicks: 105, lots: 4 })).to.deep.equal({ lots: 2, quote: 200 });
    expect(b.size).to.equal(2);
    expect(b.get('a1')!.lots).to.equal(2);
  });

  it('cancels_and_drops_empty_levels', () => {
    const b = book();
    b.add('1', 'BUY', 100, 1, 'x');
    b.add('2', 'BUY', 99, 1, 'x');
    b.add('3', 'BUY', 100, 1, 'x');
    expect(b.cancel('1')!.id).to.equal('1');
    expect(b.levelCount('BUY')).to.equal(2);
    b.cancel('3');
    expect(b.bestBid()).to.equal(99);
    expect(b.levelCount('BUY')).to.equal(1);
    expect(b.cancel('nope')).to.equal(undefined);
    b.cancel('2');
    expect(b.bestBid()).to.equal(undefined);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('keeps_priority_on_size_decrease_and_loses_it_on_increase_or_price_change', () => {
    const b = book();
    b.add('1', 'SELL', 100, 5, 'x');
    b.add('2', 'SELL', 100, 5, 'y');
    b.amend('1', 100, 3);
    expect(b.ordersAt('SELL', 100).map((o) => o.id)).to.deep.equal(['1', '2']);
    expect(b.depth('SELL', 1)).to.deep.equal([[100, 8, 2]]);
    b.amend('1', 100, 4);
    expect(b.ordersAt('SELL', 100).map((o) => o.id)).to.deep.equal(['2', '1']);
    b.amend('2', 101, 5);
    b.amend('2', 100, 5);
    expect(b.ordersAt('SELL', 100).map((o) => o.id)).to.deep.equal(['1', '2']);
    expect(b.amend('zz', 100, 1)).to.equal(undefined);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('refuses_an_amend_that_would_cross', () => {
    const b = book();
    b.add('1', 'SELL', 100, 5, 'x');
    b.add('2', 'BUY', 99, 5, 'x');
    expect(() => b.amend('2', 100, 5)).to.throw(RangeError);
    expect(b.get('2')!.priceTicks).to.equal(99);
  });

  it('reduces_in_place_and_removes_at_zero', () => {
    const b = book();
    b.add('1', 'SELL', 100, 5, 'x');
    b.add('2', 'SELL', 100, 5, 'x');
    b.reduce('1', 2);
    expect(b.ordersAt('SELL', 100).map((o) => [o.id, o.lots])).to.deep.equal([
      ['1', 3],
      ['2', 5],
    ]);
    b.reduce('1', 3);
    expect(b.has('1')).to.equal(false);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('reports_queue_position', () => {
    const b = book();
    b.add('1', 'BUY', 100, 5, 'x');
    b.add('2', 'BUY', 100, 2, 'x');
    b.add('3', 'BUY', 100, 4, 'x');
    expect(b.queuePosition('3')).to.deep.equal({ ordersAhead: 2, lotsAhead: 7, levelLots: 11 });
    expect(b.queuePosition('1')).to.deep.equal({ ordersAhead: 0, lotsAhead: 0, levelLots: 11 });
    expect(b.queuePosition('x')).to.equal(undefined);
  });

  it('iterates_orders_in_priority_order', () => {
    const b = book();
    b.add('b1', 'BUY', 99, 1, 'x');
    b.add('b2', 'BUY', 100, 1, 'x');
    b.add('b3', 'BUY', 99, 1, 'x');
    b.add('s1', 'SELL', 102, 1, 'x');
    b.add('s2', 'SELL', 101, 1, 'x');
    expect([...b.orders()].map((o) => o.id)).to.deep.equal(['b2', 'b1', 'b3', 's2', 's1']);
    expect([...b.orders('SELL')].map((o) => o.id)).to.deep.equal(['s2', 's1']);
    expect([...b.levels('BUY')].map((l) => l.priceTicks)).to.deep.equal([100, 99]);
  });

  it('applies_self_trade_actions', () => {
    const b = book();
    b.add('own1', 'SELL', 100, 1, 'me');
    b.add('other', 'SELL', 100, 2, 'you');
    b.add('own2', 'SELL', 101, 1, 'me');
    const check = (action: StpAction) => (m: { owner: string }) => (m.owner === 'me' ? action : StpAction.Trade);
    // cancel maker: own1 removed, fills 2 from other, own2 removed, then nothing left
    const r = b.match('BUY', { lots: 5 }, check(StpAction.CancelMaker));
    expect(r.stpCancelled.map((o) => o.id)).to.deep.equal(['own1', 'own2']);
    expect(r.lots).to.equal(2);
    expect(r.takerStopped).to.equal(false);
    expect(b.size).to.equal(0);
    expect(b.checkInvariants()).to.deep.equal([]);

    b.add('other', 'SELL', 100, 2, 'you');
    b.add('own', 'SELL', 100, 1, 'me');
    b.add('other2', 'SELL', 100, 2, 'you');
    const t = b.match('BUY', { lots: 5 }, check(StpAction.CancelTaker));
    expect(t.lots).to.equal(2);
    expect(t.takerStopped).to.equal(true);
    expect(t.stpCancelled).to.deep.equal([]);
    expect(b.has('own')).to.equal(true);

    const both = b.match('BUY', { lots: 5 }, check(StpAction.CancelBoth));
    expect(both.lots).to.equal(0);
    expect(both.takerStopped).to.equal(true);
    expect(both.stpCancelled.map((o) => o.id)).to.deep.equal(['own']);
    expect([...b.orders()].map((o) => o.id)).to.deep.equal(['other2']);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('removes_an_stp_emptied_level_exactly_once', () => {
    const b = book();
    b.add('x', 'SELL', 99, 1, 'you');
    b.add('own', 'SELL', 100, 1, 'me');
    b.add('deep', 'SELL', 105, 1, 'you');
    // fills x, then own (alone at 100) is STP-removed, then deep fills
    const r = b.match('BUY', { lots: 3 }, (m) => (m.owner === 'me' ? StpAction.CancelMaker : StpAction.Trade));
    expect(r.lots).to.equal(2);
    expect(b.size).to.equal(0);
    expect(b.checkInvariants()).to.deep.equal([]);
  });

  it('previews_with_self_trade_prevention', () => {
    const b = book();
    b.add('o1', 'SELL', 100, 2, 'you');
    b.add('own', 'SELL', 100, 1, 'me');
    b.add('o2', 'SELL', 101, 2, 'you');
    expect(b.previewMatch('BUY', { lots: 10 }, (m) => (m.owner === 'me' ? StpAction.CancelMaker : StpAction.Trade)).lots).to.equal(4);
    expect(b.previewMatch('BUY', { lots: 10 }, (m) => (m.owner === 'me' ? StpAction.CancelTaker : StpAction.Trade)).lots).to.equal(2);
  });

  it('stays_consistent_and_matches_a_naive_model_under_random_operations', () => {
    type Op = { kind: 0 | 1 | 2 | 3; side: BookSide; price: number; lots: number; pick: number };
    const op = fc.record({
      kind: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
      side: fc.constantFrom('BUY', 'SELL') as fc.Arbitrary<BookSide>,
      price: fc.integer({ min: 90, max: 110 }),
      lots: fc.integer({ min: 1, max: 20 }),
      pick: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops: Op[]) => {
        const b = book();
        // naive model: list of resting orders, priority = (price better, then seq)
        let model: { id: string; side: BookSide; price: number; lots: number; seq: number }[] = [];
        let seq = 0;
        let next = 0;
        const better = (s: BookSide) => (x: { price: number; seq: number }, y: { price: number; seq: number }) =>
          s === 'BUY' ? y.price - x.price || x.seq - y.seq : x.price - y.price || x.seq - y.seq;
        for (const o of ops) {
          const ids = model.map((m) => m.id);
          if (o.kind === 0) {
            // place a limit order: match, then rest the remainder
            const id = `o${next++}`;
            const r = b.match(o.side, { limitTicks: o.price, lots: o.lots });
            let want = o.lots;
            const opp = model.filter((m) => m.side !== o.side).sort(better(o.side === 'BUY' ? 'SELL' : 'BUY'));
            const expectFills: [string, number, number][] = [];
            for (const m of opp) {
              if (want === 0) break;
              if (o.side === 'BUY' ? m.price > o.price : m.price < o.price) break;
              const take = Math.min(want, m.lots);
              m.lots -= take;
              want -= take;
              expectFills.push([m.id, m.price, take]);
            }
            model = model.filter((m) => m.lots > 0);
            expect(r.fills.map((f) => [f.maker.id, f.priceTicks, f.lots])).to.deep.equal(expectFills);
            if (want > 0) {
              b.add(id, o.side, o.price, want, 'x');
              model.push({ id, side: o.side, price: o.price, lots: want, seq: seq++ });
            }
          } else if (o.kind === 1 && ids.length) {
            const id = ids[o.pick % ids.length]!;
            b.cancel(id);
            model = model.filter((m) => m.id !== id);
          } else if (o.kind === 2 && ids.length) {
            const id = ids[o.pick % ids.length]!;
            const m = model.find((x) => x.id === id)!;
            if (!b.wouldCross(m.side, o.price)) {
              const keep = o.price === m.price && o.lots <= m.lots;
              b.amend(id, o.price, o.lots);
              if (!keep) m.seq = seq++;
              m.price = o.price;
              m.lots = o.lots;
            }
          } else if (o.kind === 3) {
            const r = b.match(o.side, { lots: o.lots });
            let want = o.lots;
            for (const m of model.filter((x) => x.side !== o.side).sort(better(o.side === 'BUY' ? 'SELL' : 'BUY'))) {
              const take = Math.min(want, m.lots);
              m.lots -= take;
              want -= take;
            }
            model = model.filter((m) => m.lots > 0);
            expect(r.lots).to.equal(o.lots - want);
          }
          expect(b.checkInvariants()).to.deep.equal([]);
          for (const s of ['BUY', 'SELL'] as const) {
            const expected = model
              .filter((m) => m.side === s)
              .sort(better(s))
              .map((m) => [m.id, m.price, m.lots]);
            expect([...b.orders(s)].map((x) => [x.id, x.priceTicks, x.lots])).to.deep.equal(expected);
          }
        }
      }),
      { numRuns: 200, seed: 42 },
    );
  });
});
