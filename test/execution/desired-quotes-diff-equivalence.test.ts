import { expect } from 'chai';
import fc from 'fast-check';
import { D, type Decimal, withinPrecision, ZERO } from '../../src/core/decimal.js';
import type { DesiredQuote } from '../../src/domain/intent.js';
import { type Order, type OrderStatus, remainingQty } from '../../src/domain/order.js';
import {
  costOf,
  diffDesiredQuotes,
  type QuoteAmend,
  type QuoteDiff,
  type QuoteDiffOptions,
  type QuoteDiffPlan,
} from '../../src/execution/desired-quotes-diff.js';
import { order } from '../domain/support/builders.js';

/**
 * diffDesiredQuotes() compares prices and quantities as doubles first and keeps the quotes in a flag array
 * instead of a spliced list. The reference below is the earlier Decimal formulation, written out; both
 * run over random quote sets and resting orders built to collide (few price levels, equal prices, values
 * with more digits than a double holds, partial fills, in-flight orders, tolerances, tight budgets), and
 * the plans must be the same objects in the same order.
 */
interface RefCandidate {
  readonly order: Order;
  readonly remaining: Decimal;
}

function diffBefore(desired: readonly DesiredQuote[], resting: readonly Order[], opts: QuoteDiffOptions): QuoteDiff {
  const pTol = opts.priceTolerance ?? ZERO;
  const qTol = opts.quantityTolerance ?? ZERO;
  const inFlight: Order[] = [];
  const candidates: RefCandidate[] = [];
  for (const o of resting) {
    if (o.status === 'pending-cancel') continue;
    if (o.type !== 'limit' || !o.price || !o.quantity) continue;
    const rem = remainingQty(o) ?? ZERO;
    if (o.status === 'submitted' || o.status === 'pending-amend') inFlight.push(o);
    else if (o.status === 'accepted' || o.status === 'partially-filled') candidates.push({ order: o, remaining: rem });
  }
  const near = (a: Decimal, b: Decimal, tol: Decimal): boolean => (tol.isZero() ? a.eq(b) : a.minus(b).abs().lte(tol));
  const equal = (c: RefCandidate, q: DesiredQuote): boolean =>
    compatible(c.order, q) && near(c.order.price!, q.price, pTol) && near(c.remaining, q.quantity, qTol);
  let open = [...desired];
  const keep: { order: Order; quote: DesiredQuote }[] = [];
  const flightLeft: Order[] = [];
  for (const o of inFlight) {
    const i = open.findIndex((q) => equal({ order: o, remaining: remainingQty(o) ?? ZERO }, q));
    if (i >= 0) {
      keep.push({ order: o, quote: open[i]! });
      open.splice(i, 1);
    } else flightLeft.push(o);
  }
  let live = [...candidates];
  for (const sameSlotOnly of [true, false]) {
    const nextLive: RefCandidate[] = [];
    for (const c of live) {
      const i = open.findIndex((q) => (!sameSlotOnly || q.slot === c.order.slot) && equal(c, q));
      if (i >= 0) {
        keep.push({ order: c.order, quote: open[i]! });
        open.splice(i, 1);
      } else nextLive.push(c);
    }
    live = nextLive;
  }
  const amends: QuoteAmend[] = [];
  if (opts.amend === 'native') {
    const pair = (c: RefCandidate, q: DesiredQuote): void => {
      const filled = c.order.filledQty;
      const quantity = filled.isZero() && !q.quantity.isZero() && withinPrecision(q.quantity) ? q.quantity : filled.plus(q.quantity);
      amends.push({ order: c.order, quote: q, price: q.price, quantity });
    };
    const nextLive: RefCandidate[] = [];
    for (const c of live) {
      const i = open.findIndex((q) => q.slot === c.order.slot && compatible(c.order, q));
      if (i >= 0) {
        pair(c, open[i]!);
        open.splice(i, 1);
      } else nextLive.push(c);
    }
    live = nextLive;
    for (const side of ['buy', 'sell'] as const) {
      const ls = live.filter((c) => c.order.side === side).sort((a, b) => byTouch(side, a.order.price!, b.order.price!));
      const qs = open.filter((q) => q.side === side).sort((a, b) => byTouch(side, a.price, b.price));
      const usedL = new Set<RefCandidate>();
      const usedQ = new Set<DesiredQuote>();
      for (const q of qs) {
        const c = ls.find((x) => !usedL.has(x) && compatible(x.order, q));
        if (!c) continue;
        usedL.add(c);
        usedQ.add(q);
        pair(c, q);
      }
      live = live.filter((c) => !usedL.has(c));
      open = open.filter((q) => !usedQ.has(q));
    }
  }
  const cancels = live.map((c) => c.order).sort((a, b) => touchRankOrder(a, b));
  cancels.push(...flightLeft.filter((o) => o.status === 'submitted'));
  const places = [...open].sort((a, b) => (a.side === b.side ? byTouch(a.side, a.price, b.price) : a.side === 'buy' ? -1 : 1));
  amends.sort((a, b) => (a.quote.side === b.quote.side ? byTouch(a.quote.side, a.price, b.price) : a.quote.side === 'buy' ? -1 : 1));
  const full: QuoteDiffPlan = { cancels, amends, places };
  const callsNeeded = costOf(full, opts);
  const chosen = withinBudgetBefore(full, opts);
  const calls = costOf(chosen, opts);
  return {
    keep,
    inFlight: flightLeft.filter((o) => o.status !== 'submitted'),
    cancels: chosen.cancels,
    amends: chosen.amends,
    places: chosen.places,
    deferred: {
      cancels: cancels.slice(chosen.cancels.length),
      amends: amends.slice(chosen.amends.length),
      places: places.slice(chosen.places.length),
    },
    calls,
    callsNeeded,
  };
}

function withinBudgetBefore(plan: QuoteDiffPlan, opts: QuoteDiffOptions): QuoteDiffPlan {
  let left = Math.max(0, Math.floor(opts.budget));
  const take = <T>(items: readonly T[], batch: number): T[] => {
    const out: T[] = [];
    for (const it of items) {
      if (out.length % Math.max(1, batch) === 0) {
        if (left === 0) break;
        left--;
      }
      out.push(it);
    }
    return out;
  };
  return { cancels: take(plan.cancels, opts.batchCancelMax), amends: take(plan.amends, 1), places: take(plan.places, opts.batchPlaceMax) };
}

function compatible(o: Order, q: DesiredQuote): boolean {
  return (
    o.side === q.side &&
    o.positionSide === q.positionSide &&
    (o.reduceOnly ?? false) === (q.reduceOnly ?? false) &&
    o.timeInForce === (q.timeInForce ?? 'gtc')
  );
}

function byTouch(side: 'buy' | 'sell', a: Decimal, b: Decimal): number {
  return side === 'buy' ? b.comparedTo(a) : a.comparedTo(b);
}

function touchRankOrder(a: Order, b: Order): number {
  if (a.side !== b.side) return a.side === 'buy' ? -1 : 1;
  return byTouch(a.side, a.price!, b.price!);
}

// Prices on a few levels so that quotes and orders collide; the long ones differ beyond a double's 17 digits.
const PRICES = ['99', '99.5', '100', '100.0', '100.5', '101', '100.00000000000000000001', '100.00000000000000000002', '1e-30', '7'];
const QTYS = ['1', '2', '0.5', '3', '1.000000000000000000001'];
const STATUSES: OrderStatus[] = ['accepted', 'partially-filled', 'submitted', 'pending-amend', 'pending-cancel', 'filled'];
const SLOTS = ['b0', 'b1', 'a0', 'a1', 'x'];

const quoteArb = fc.record({
  slot: fc.constantFrom(...SLOTS),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  price: fc.constantFrom(...PRICES),
  quantity: fc.constantFrom(...QTYS),
  tif: fc.constantFrom(undefined, 'gtc' as const, 'post-only' as const),
  positionSide: fc.constantFrom(undefined, 'long' as const),
  reduceOnly: fc.constantFrom(undefined, false, true),
});

const orderArb = fc.record({
  slot: fc.option(fc.constantFrom(...SLOTS), { nil: undefined }),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  price: fc.option(fc.constantFrom(...PRICES), { nil: undefined, freq: 12 }),
  quantity: fc.constantFrom(...QTYS),
  filled: fc.constantFrom('0', '0', '0.5', '1', '4'),
  status: fc.constantFrom(...STATUSES),
  type: fc.constantFrom('limit' as const, 'limit' as const, 'limit' as const, 'market' as const),
  tif: fc.constantFrom('gtc' as const, 'gtc' as const, 'post-only' as const),
  positionSide: fc.constantFrom(undefined, undefined, 'long' as const),
  reduceOnly: fc.constantFrom(undefined, true),
});

describe('diffDesiredQuotes matches its earlier Decimal formulation', () => {
  it('gives_the_same_plan_keep_in_flight_deferred_and_costs_on_random_colliding_inputs', function () {
    this.timeout(60_000);
    fc.assert(
      fc.property(
        fc.array(quoteArb, { maxLength: 8 }),
        fc.array(orderArb, { maxLength: 8 }),
        fc.record({
          amend: fc.constantFrom('native' as const, 'cancel-replace' as const),
          batchPlaceMax: fc.integer({ min: 1, max: 3 }),
          batchCancelMax: fc.integer({ min: 1, max: 3 }),
          budget: fc.integer({ min: 0, max: 12 }),
          priceTolerance: fc.constantFrom(undefined, '0', '0.5', '1'),
          quantityTolerance: fc.constantFrom(undefined, '0', '0.5'),
        }),
        (qs, os, o) => {
          const desired: DesiredQuote[] = qs.map((x) => ({
            slot: x.slot,
            side: x.side,
            price: D(x.price),
            quantity: D(x.quantity),
            ...(x.tif ? { timeInForce: x.tif } : {}),
            ...(x.positionSide ? { positionSide: x.positionSide } : {}),
            ...(x.reduceOnly !== undefined ? { reduceOnly: x.reduceOnly } : {}),
          })) as DesiredQuote[];
          const resting = os.map((x) =>
            order({
              ...(x.slot ? { slot: x.slot } : {}),
              side: x.side,
              type: x.type,
              timeInForce: x.tif,
              ...(x.price ? { price: D(x.price) } : { price: undefined }),
              quantity: D(x.quantity),
              filledQty: D(x.filled),
              status: x.status,
              ...(x.positionSide ? { positionSide: x.positionSide } : {}),
              ...(x.reduceOnly ? { reduceOnly: true } : {}),
            }),
          );
          const opts: QuoteDiffOptions = {
            amend: o.amend,
            batchPlaceMax: o.batchPlaceMax,
            batchCancelMax: o.batchCancelMax,
            budget: o.budget,
            ...(o.priceTolerance !== undefined ? { priceTolerance: D(o.priceTolerance) } : {}),
            ...(o.quantityTolerance !== undefined ? { quantityTolerance: D(o.quantityTolerance) } : {}),
          };
          const got = diffDesiredQuotes(desired, resting, opts);
          const want = diffBefore(desired, resting, opts);
          expectSamePlan(got, want);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('tells_apart_prices_a_double_cannot', () => {
    // 100.00000000000000000001 and …02 are the same double: the exact comparison must still see two prices.
    const mk = (p: string): Order => order({ slot: 'b0', side: 'buy', price: D(p), quantity: D('1') });
    const resting = [mk('100.00000000000000000001')];
    const desired: DesiredQuote[] = [{ slot: 'b0', side: 'buy', price: D('100.00000000000000000002'), quantity: D('1') }];
    const d = diffDesiredQuotes(desired, resting, { amend: 'native', batchPlaceMax: 1, batchCancelMax: 1, budget: 10 });
    expect(d.keep).to.have.length(0);
    expect(d.amends).to.have.length(1);
    expect(d.amends[0]!.price.toFixed()).to.equal('100.00000000000000000002');
  });
});

function expectSamePlan(got: QuoteDiff, want: QuoteDiff): void {
  const ids = (os: readonly Order[]): string[] => os.map((o) => o.clientOrderId);
  const slots = (qs: readonly DesiredQuote[]): unknown[] => qs.map((q) => q);
  const amends = (as: readonly QuoteAmend[]): unknown[] =>
    as.map((a) => [a.order.clientOrderId, a.quote, a.price.toFixed(), a.quantity.toFixed()]);
  expect(
    got.keep.map((k) => [k.order.clientOrderId, k.quote]),
    'keep',
  ).to.deep.equal(want.keep.map((k) => [k.order.clientOrderId, k.quote]));
  expect(ids(got.inFlight), 'inFlight').to.deep.equal(ids(want.inFlight));
  expect(ids(got.cancels), 'cancels').to.deep.equal(ids(want.cancels));
  expect(amends(got.amends), 'amends').to.deep.equal(amends(want.amends));
  expect(slots(got.places), 'places').to.deep.equal(slots(want.places));
  expect(ids(got.deferred.cancels), 'deferred cancels').to.deep.equal(ids(want.deferred.cancels));
  expect(amends(got.deferred.amends), 'deferred amends').to.deep.equal(amends(want.deferred.amends));
  expect(slots(got.deferred.places), 'deferred places').to.deep.equal(slots(want.deferred.places));
  expect([got.calls, got.callsNeeded]).to.deep.equal([want.calls, want.callsNeeded]);
  // The very objects, not copies: the order manager sends what the plan names.
  got.places.forEach((q, i) => expect(q).to.equal(want.places[i]));
  got.amends.forEach((a, i) => {
    expect(a.quote).to.equal(want.amends[i]!.quote);
    expect(a.order).to.equal(want.amends[i]!.order);
  });
}
