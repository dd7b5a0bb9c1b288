import { expect } from 'chai';
import fc from 'fast-check';
import { D } from '../../src/core/decimal.js';
import type { DesiredQuote } from '../../src/domain/intent.js';
import type { Order } from '../../src/domain/order.js';
import { costOf, diffDesiredQuotes, type QuoteDiffOptions } from '../../src/execution/desired-quotes-diff.js';
import { order } from '../domain/support/builders.js';

const q = (slot: string, side: 'buy' | 'sell', price: string, qty: string, over: Partial<DesiredQuote> = {}): DesiredQuote => ({
  slot,
  side,
  price: D(price),
  quantity: D(qty),
  ...over,
});
const rest = (slot: string, side: 'buy' | 'sell', price: string, qty: string, over: Partial<Order> = {}): Order =>
  order({ slot, side, price: D(price), quantity: D(qty), ...over });
const NATIVE: QuoteDiffOptions = { amend: 'native', batchPlaceMax: 1, batchCancelMax: 1, budget: 100 };
const REPLACE: QuoteDiffOptions = { amend: 'cancel-replace', batchPlaceMax: 1, batchCancelMax: 1, budget: 100 };

describe('diffDesiredQuotes', () => {
  it('sends_nothing_when_the_resting_quotes_already_match', () => {
    const d = diffDesiredQuotes(
      [q('b0', 'buy', '99', '1'), q('a0', 'sell', '101', '1')],
      [rest('b0', 'buy', '99', '1'), rest('a0', 'sell', '101', '1')],
      NATIVE,
    );
    expect([d.calls, d.keep.length]).to.deep.equal([0, 2]);
  });

  it('moves_a_quote_with_one_amend_when_the_venue_amends_natively', () => {
    const o = rest('b0', 'buy', '99', '1');
    const d = diffDesiredQuotes([q('b0', 'buy', '99.5', '1')], [o], NATIVE);
    expect(d.amends).to.have.length(1);
    expect(d.amends[0]!.order).to.equal(o);
    expect(d.amends[0]!.price.toFixed()).to.equal('99.5');
    expect([d.cancels.length, d.places.length, d.calls]).to.deep.equal([0, 0, 1]);
  });

  it('moves_a_quote_with_cancel_and_place_on_spot', () => {
    const d = diffDesiredQuotes([q('b0', 'buy', '99.5', '1')], [rest('b0', 'buy', '99', '1')], REPLACE);
    expect([d.cancels.length, d.amends.length, d.places.length, d.calls]).to.deep.equal([1, 0, 1, 2]);
  });

  it('amends_a_partially_filled_order_to_filled_plus_the_desired_remainder', () => {
    // filled 0.3 of 1; desired 0.5 resting → new total 0.8
    const o = rest('b0', 'buy', '99', '1', { status: 'partially-filled', filledQty: D('0.3') });
    const d = diffDesiredQuotes([q('b0', 'buy', '98', '0.5')], [o], NATIVE);
    expect(d.amends[0]!.quantity.toFixed()).to.equal('0.8');
  });

  it('keeps_a_partially_filled_order_whose_remainder_matches', () => {
    const o = rest('b0', 'buy', '99', '1', { status: 'partially-filled', filledQty: D('0.3') });
    const d = diffDesiredQuotes([q('b0', 'buy', '99', '0.7')], [o], NATIVE);
    expect(d.calls).to.equal(0);
  });

  it('cancels_extra_orders_and_places_missing_quotes', () => {
    const d = diffDesiredQuotes([q('a0', 'sell', '101', '1')], [rest('b0', 'buy', '99', '1')], NATIVE);
    // a buy cannot become a sell: cancel + place
    expect([d.cancels.length, d.places.length, d.amends.length]).to.deep.equal([1, 1, 0]);
  });

  it('keeps_an_equal_order_even_under_another_slot', () => {
    const d = diffDesiredQuotes([q('b1', 'buy', '99', '1')], [rest('b0', 'buy', '99', '1')], NATIVE);
    expect(d.calls).to.equal(0);
  });

  it('does_not_amend_across_time_in_force', () => {
    const d = diffDesiredQuotes([q('b0', 'buy', '99', '1', { timeInForce: 'post-only' })], [rest('b0', 'buy', '98', '1')], NATIVE);
    expect([d.amends.length, d.cancels.length, d.places.length]).to.deep.equal([0, 1, 1]);
  });

  it('batches_places_and_cancels', () => {
    const desired = ['95', '96', '97', '98', '99'].map((p, i) => q(`b${i}`, 'buy', p, '1'));
    const resting = ['90', '91', '92'].map((p, i) => rest(`x${i}`, 'sell', p, '1'));
    const d = diffDesiredQuotes(desired, resting, { amend: 'cancel-replace', batchPlaceMax: 20, batchCancelMax: 50, budget: 100 });
    // 3 cancels in one call + 5 places in one call
    expect(d.calls).to.equal(2);
  });

  it('spends_a_short_budget_on_cancels_first_then_amends_then_places_nearest_the_touch', () => {
    const resting = [rest('x0', 'sell', '150', '1'), rest('b0', 'buy', '99', '1')];
    const desired = [q('b0', 'buy', '99.5', '1'), q('b1', 'buy', '98', '1'), q('b2', 'buy', '98.5', '1')];
    const d = diffDesiredQuotes(desired, resting, { ...NATIVE, budget: 3 });
    // full plan: cancel sell 150, amend b0, place 98.5 and 98 = 4 calls; budget 3 drops the farthest place (98)
    expect(d.callsNeeded).to.equal(4);
    expect(d.calls).to.equal(3);
    expect(d.places.map((p) => p.price.toFixed())).to.deep.equal(['98.5']);
    expect(d.deferred.places.map((p) => p.price.toFixed())).to.deep.equal(['98']);
  });

  it('with_no_budget_sends_nothing_and_defers_everything', () => {
    const d = diffDesiredQuotes([q('b0', 'buy', '99', '1')], [rest('x0', 'sell', '101', '1')], { ...NATIVE, budget: 0 });
    expect([d.calls, d.deferred.cancels.length, d.deferred.places.length]).to.deep.equal([0, 1, 1]);
  });

  it('leaves_orders_in_flight_alone_and_ignores_pending_cancels', () => {
    const amending = rest('b0', 'buy', '99', '1', { status: 'pending-amend' });
    const leaving = rest('b1', 'buy', '98', '1', { status: 'pending-cancel' });
    const d = diffDesiredQuotes([q('b1', 'buy', '98', '1')], [amending, leaving], NATIVE);
    // the pending cancel does not count as the 98 quote: a new one is placed; the amending order waits
    expect(d.places).to.have.length(1);
    expect(d.inFlight).to.deep.equal([amending]);
    expect(d.cancels).to.have.length(0);
  });

  it('lets_a_sent_order_stand_for_its_quote_and_cancels_a_sent_order_no_longer_wanted', () => {
    const sent = rest('b0', 'buy', '99', '1', { status: 'submitted' });
    const stale = rest('b1', 'buy', '97', '1', { status: 'submitted' });
    const d = diffDesiredQuotes([q('b0', 'buy', '99', '1')], [sent, stale], NATIVE);
    expect(d.keep.map((k) => k.order)).to.deep.equal([sent]);
    expect(d.cancels).to.deep.equal([stale]);
  });

  it('treats_prices_within_tolerance_as_equal', () => {
    const d = diffDesiredQuotes([q('b0', 'buy', '99.01', '1')], [rest('b0', 'buy', '99', '1')], { ...NATIVE, priceTolerance: D('0.02') });
    expect(d.calls).to.equal(0);
  });

  describe('properties', () => {
    const PRICES = ['97', '98', '99', '101', '102', '103'];
    const quoteArb = fc.record({
      side: fc.constantFrom('buy' as const, 'sell' as const),
      price: fc.constantFrom(...PRICES),
      qty: fc.constantFrom('1', '2'),
    });
    const setArb = fc.array(quoteArb, { maxLength: 6 });
    const key = (side: string, price: string, qty: string) => `${side}|${price}|${qty}`;

    it('applying_the_plan_leaves_exactly_the_desired_quotes_resting', () => {
      fc.assert(
        fc.property(setArb, setArb, fc.boolean(), (want, have, native) => {
          const desired = want.map((w, i) => q(`q${i}`, w.side, w.price, w.qty));
          const resting = have.map((h, i) => rest(`r${i}`, h.side, h.price, h.qty));
          const d = diffDesiredQuotes(desired, resting, native ? NATIVE : REPLACE);
          const after = new Map<string, number>();
          const bump = (k: string, n: number) => after.set(k, (after.get(k) ?? 0) + n);
          const gone = new Set([...d.cancels, ...d.amends.map((a) => a.order)]);
          for (const o of resting) if (!gone.has(o)) bump(key(o.side, o.price!.toFixed(), o.quantity!.toFixed()), 1);
          for (const a of d.amends) bump(key(a.order.side, a.price.toFixed(), a.quantity.toFixed()), 1);
          for (const p of d.places) bump(key(p.side, p.price.toFixed(), p.quantity.toFixed()), 1);
          const want2 = new Map<string, number>();
          for (const w of desired)
            want2.set(
              key(w.side, w.price.toFixed(), w.quantity.toFixed()),
              (want2.get(key(w.side, w.price.toFixed(), w.quantity.toFixed())) ?? 0) + 1,
            );
          const clean = (m: Map<string, number>) => [...m].filter(([, n]) => n > 0).sort();
          expect(clean(after)).to.deep.equal(clean(want2));
        }),
        { seed: 2201, numRuns: 500 },
      );
    });

    it('uses_the_fewest_calls_possible', () => {
      fc.assert(
        fc.property(setArb, setArb, fc.boolean(), (want, have, native) => {
          const desired = want.map((w, i) => q(`q${i}`, w.side, w.price, w.qty));
          const resting = have.map((h, i) => rest(`r${i}`, h.side, h.price, h.qty));
          const d = diffDesiredQuotes(desired, resting, native ? NATIVE : REPLACE);
          // Lower bound per side: after removing the multiset intersection, native amend pairs the
          // leftovers (max(D', R')); cancel-replace needs every leftover (D' + R').
          let bound = 0;
          for (const side of ['buy', 'sell']) {
            const count = (xs: { side: string; price: string; qty: string }[]) => {
              const m = new Map<string, number>();
              for (const x of xs) if (x.side === side) m.set(key(x.side, x.price, x.qty), (m.get(key(x.side, x.price, x.qty)) ?? 0) + 1);
              return m;
            };
            const a = count(want);
            const b = count(have);
            let common = 0;
            for (const [k, n] of a) common += Math.min(n, b.get(k) ?? 0);
            const dl = [...a.values()].reduce((s, n) => s + n, 0) - common;
            const rl = [...b.values()].reduce((s, n) => s + n, 0) - common;
            bound += native ? Math.max(dl, rl) : dl + rl;
          }
          expect(d.calls).to.equal(bound);
          expect(d.calls).to.equal(costOf(d, NATIVE));
        }),
        { seed: 2202, numRuns: 500 },
      );
    });
  });

  it('an_empty_plan_costs_no_calls_and_batches_round_up', () => {
    expect(costOf({ cancels: [], amends: [], places: [] }, NATIVE)).to.equal(0);
    const places = Array.from({ length: 21 }, (_, i) => q(`b${i}`, 'buy', '1', '1'));
    // 21 places in batches of 20 → 2 calls
    expect(costOf({ cancels: [], amends: [], places }, { batchPlaceMax: 20, batchCancelMax: 1 })).to.equal(2);
  });
});
