import { expect } from 'chai';
import fc from 'fast-check';
import { D } from '../../src/core/decimal.js';
import { type ClientOrderId, orderId, strategyId, tradeId } from '../../src/core/ids.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { Fill } from '../../src/domain/fill.js';
import type { Order, VenueOrder } from '../../src/domain/order.js';
import { encodeClientId } from '../../src/domain/client-id-codec.js';
import { applyOrderEvents, type LocalOrderState, orderStateOf } from '../../src/execution/order-state.js';
import { reconcile, type ReconcileOptions, type VenueReport } from '../../src/execution/reconcile.js';
import { BTCUSDT, ETHUSDT, fill, order, position, S1, venueOrder } from '../domain/support/builders.js';

const OURS = encodeClientId('mm1', 'quote', 1_000, 0, 'b0');
const OPTS: ReconcileOptions = { attribute: (cid) => (cid.startsWith('ppmm1_') ? S1 : undefined), unknownGraceMs: 60_000 };
const report = (over: Partial<VenueReport> = {}): VenueReport => ({
  symbols: [BTCUSDT],
  openOrders: [],
  queriedOrders: [],
  notFound: [],
  fills: [],
  ...over,
});
const types = (es: readonly ExecutionEvent[]) => es.map((e) => e.type);

describe('reconcile', () => {
  it('synthesizes_nothing_when_both_sides_agree', () => {
    const o = order({ venueOrderId: orderId('v1') });
    expect(reconcile(orderStateOf([o]), report({ openOrders: [venueOrder(o)] }), 10, OPTS)).to.deep.equal([]);
  });

  it('reports_a_missed_fill_once', () => {
    const o = order({ venueOrderId: orderId('v1') });
    const f = fill(o, '0.4', '100');
    const venue = report({ openOrders: [venueOrder(o, { status: 'partially-filled', filledQty: D('0.4') })], fills: [f] });
    const local = orderStateOf([o]);
    const events = reconcile(local, venue, 10, OPTS);
    expect(types(events)).to.deep.equal(['OrderPartiallyFilled']);
    const again = reconcile(applyOrderEvents(local, events), venue, 11, OPTS);
    expect(again).to.deep.equal([]);
  });

  it('ignores_a_duplicate_and_an_already_counted_fill', () => {
    const o = order({ venueOrderId: orderId('v1') });
    const seen = fill(o, '0.2', '100', { tradeId: tradeId('t1') });
    const fresh = fill(o, '0.3', '100', { tradeId: tradeId('t2') });
    const local = orderStateOf([{ ...o, filledQty: D('0.2'), filledNotional: D('20'), status: 'partially-filled' }], ['t1']);
    const events = reconcile(
      local,
      report({ openOrders: [venueOrder(o, { status: 'partially-filled', filledQty: D('0.5') })], fills: [seen, fresh, fresh] }),
      10,
      OPTS,
    );
    expect(events.map((e) => (e.type === 'OrderPartiallyFilled' ? e.fill.tradeId : e.type))).to.deep.equal(['t2']);
  });

  it('synthesizes_a_fill_for_cumulative_quantity_no_trade_explains_at_the_price_that_matches_the_average', () => {
    const o = order({ venueOrderId: orderId('v1'), quantity: D(1) });
    // venue: 0.3 filled for 30.3 quote → the gap's price is 30.3 / 0.3 = 101
    const v = venueOrder(o, { status: 'partially-filled', filledQty: D('0.3'), filledNotional: D('30.3') });
    const local = orderStateOf([o]);
    const events = reconcile(local, report({ openOrders: [v] }), 10, OPTS);
    expect(types(events)).to.deep.equal(['OrderPartiallyFilled']);
    const f = (events[0] as Extract<ExecutionEvent, { type: 'OrderPartiallyFilled' }>).fill;
    expect([f.quantity.toFixed(), f.price.toFixed(), f.synthetic, f.tradeId]).to.deep.equal(['0.3', '101', true, 'syn:v1:0.3']);
    expect(reconcile(applyOrderEvents(local, events), report({ openOrders: [v] }), 11, OPTS)).to.deep.equal([]);
  });

  it('does_not_count_a_real_fill_a_synthetic_one_already_covered', () => {
    const o = order({ venueOrderId: orderId('v1') });
    const v = venueOrder(o, { status: 'partially-filled', filledQty: D('0.3'), filledNotional: D('30') });
    const afterSynthetic = applyOrderEvents(orderStateOf([o]), reconcile(orderStateOf([o]), report({ openOrders: [v] }), 10, OPTS));
    const late = fill(o, '0.3', '100', { tradeId: tradeId('real') });
    expect(reconcile(afterSynthetic, report({ openOrders: [v], fills: [late] }), 20, OPTS)).to.deep.equal([]);
  });

  it('adopts_an_unknown_open_order_whose_client_id_is_ours', () => {
    const foreign: VenueOrder = { ...venueOrder(order()), clientOrderId: 'manual-1' as ClientOrderId, venueOrderId: orderId('v7') };
    const ours: VenueOrder = {
      ...venueOrder(order()),
      clientOrderId: OURS,
      venueOrderId: orderId('v8'),
      filledQty: D('0.25'),
      filledNotional: D('25'),
    };
    const events = reconcile(orderStateOf([]), report({ openOrders: [foreign, ours] }), 10, OPTS);
    expect(types(events)).to.deep.equal(['OrderAdopted', 'OrderPartiallyFilled']);
    const adopted = (events[0] as Extract<ExecutionEvent, { type: 'OrderAdopted' }>).order;
    expect([adopted.clientOrderId, adopted.strategyId, adopted.venueOrderId, adopted.filledQty.toFixed()]).to.deep.equal([
      OURS,
      S1,
      'v8',
      '0',
    ]);
    const local = applyOrderEvents(orderStateOf([]), events);
    expect(local.orders.get(OURS)!.filledQty.toFixed()).to.equal('0.25');
    expect(reconcile(local, report({ openOrders: [foreign, ours] }), 11, OPTS)).to.deep.equal([]);
  });

  it('closes_an_order_the_venue_says_it_no_longer_has_as_vanished', () => {
    const o = order({ venueOrderId: orderId('v1') });
    const events = reconcile(orderStateOf([o]), report({ notFound: [o.clientOrderId] }), 10, OPTS);
    expect(events).to.have.length(1);
    expect(events[0]).to.include({ type: 'OrderCancelled', reason: 'vanished' });
  });

  it('closes_an_order_gone_from_the_list_with_the_status_the_venue_gives_and_its_missing_fills', () => {
    const o = order({ venueOrderId: orderId('v1') });
    const v = venueOrder(o, { status: 'cancelled', filledQty: D('0.2'), avgFillPrice: D('100') });
    const events = reconcile(orderStateOf([o]), report({ queriedOrders: [v] }), 10, OPTS);
    expect(types(events)).to.deep.equal(['OrderPartiallyFilled', 'OrderCancelled']);
    const after = applyOrderEvents(orderStateOf([o]), events).orders.get(o.clientOrderId)!;
    expect([after.status, after.filledQty.toFixed()]).to.deep.equal(['cancelled', '0.2']);
  });

  it('fills_an_order_the_venue_reports_filled', () => {
    const o = order({ venueOrderId: orderId('v1') });
    const v = venueOrder(o, { status: 'filled', filledQty: D('1'), avgFillPrice: D('99.5') });
    const events = reconcile(orderStateOf([o]), report({ queriedOrders: [v] }), 10, OPTS);
    expect(types(events)).to.deep.equal(['OrderFilled']);
  });

  it('waits_for_an_unanswered_order_within_the_grace_period_then_rejects_it', () => {
    const o = order({ status: 'submitted', submittedAt: 1_000 });
    const venue = report({ notFound: [o.clientOrderId] });
    expect(reconcile(orderStateOf([o]), venue, 1_000 + 59_999, OPTS)).to.deep.equal([]);
    const late = reconcile(orderStateOf([o]), venue, 1_000 + 60_000, OPTS);
    expect(types(late)).to.deep.equal(['OrderRejected']);
  });

  it('accepts_a_sent_order_the_venue_lists', () => {
    const o = order({ status: 'submitted' });
    const events = reconcile(orderStateOf([o]), report({ openOrders: [venueOrder(o, { venueOrderId: orderId('v5') })] }), 10, OPTS);
    expect(events).to.have.length(1);
    expect(events[0]).to.include({ type: 'OrderAccepted', venueOrderId: 'v5' });
  });

  it('takes_an_amend_it_missed_from_the_venue', () => {
    const o = order({ venueOrderId: orderId('v1'), price: D(100) });
    const events = reconcile(orderStateOf([o]), report({ openOrders: [venueOrder(o, { price: D('100.5') })] }), 10, OPTS);
    expect(types(events)).to.deep.equal(['OrderAmended']);
    expect((events[0] as Extract<ExecutionEvent, { type: 'OrderAmended' }>).price!.toFixed()).to.equal('100.5');
  });

  it('never_guesses_about_an_order_it_has_no_word_on', () => {
    const o = order({ venueOrderId: orderId('v1') });
    expect(reconcile(orderStateOf([o]), report(), 10, OPTS)).to.deep.equal([]);
  });

  it('judges_only_the_symbols_the_report_covers', () => {
    const eth = order({ symbol: ETHUSDT, venueOrderId: orderId('v1') });
    expect(reconcile(orderStateOf([eth]), report({ notFound: [eth.clientOrderId] }), 10, OPTS)).to.deep.equal([]);
  });

  it('raises_an_orphan_alarm_for_an_order_we_closed_that_still_rests', () => {
    const o = order({ venueOrderId: orderId('v1'), status: 'cancelled' });
    const events = reconcile(orderStateOf([o]), report({ openOrders: [venueOrder(o)] }), 10, OPTS);
    expect(events).to.have.length(1);
    expect(events[0]).to.include({ type: 'OrderOrphaned', venueOrderId: 'v1', localStatus: 'cancelled' });
  });

  it('waits_for_a_cancelled_order_that_was_never_acknowledged_until_the_grace_period_ends', () => {
    // cancel requested before the ack: "not found" may only mean the order has not arrived yet
    const o = order({ status: 'pending-cancel', submittedAt: 1_000 });
    const venue = report({ notFound: [o.clientOrderId] });
    expect(reconcile(orderStateOf([o]), venue, 1_000 + 59_999, OPTS)).to.deep.equal([]);
    expect(reconcile(orderStateOf([o]), venue, 1_000 + 60_000, OPTS)[0]).to.include({ type: 'OrderCancelled' });
  });

  it('reports_position_drift', () => {
    const events = reconcile(orderStateOf([]), report({ positions: [position(BTCUSDT, '0.5', '100')] }), 10, {
      ...OPTS,
      localPositions: [position(BTCUSDT, '0.3', '100')],
    });
    expect(events).to.have.length(1);
    const d = events[0] as Extract<ExecutionEvent, { type: 'PositionDrift' }>;
    expect([d.type, d.localQuantity.toFixed(), d.venueQuantity.toFixed()]).to.deep.equal(['PositionDrift', '0.3', '0.5']);
  });

  describe('properties', () => {
    const STATUSES = ['submitted', 'accepted', 'partially-filled', 'pending-cancel', 'pending-amend', 'cancelled', 'filled'] as const;
    const VENUE = ['accepted', 'partially-filled', 'filled', 'cancelled', 'expired', 'rejected'] as const;
    const caseArb = fc.array(
      fc.record({
        local: fc.option(fc.constantFrom(...STATUSES), { nil: undefined }),
        localFilled: fc.integer({ min: 0, max: 4 }),
        venue: fc.constantFrom('open', 'queried', 'notFound', 'silent'),
        venueStatus: fc.constantFrom(...VENUE),
        venueExtra: fc.integer({ min: 0, max: 6 }),
        realFills: fc.integer({ min: 0, max: 3 }),
        ours: fc.boolean(),
        ageMs: fc.constantFrom(0, 120_000),
      }),
      { maxLength: 6 },
    );

    type Case = typeof caseArb extends fc.Arbitrary<(infer T)[]> ? T : never;

    function build(cases: readonly Case[]): { local: LocalOrderState; venue: VenueReport } {
      const orders: Order[] = [];
      const open: VenueOrder[] = [];
      const queried: VenueOrder[] = [];
      const notFound: ClientOrderId[] = [];
      const fills: Fill[] = [];
      cases.forEach((c, i) => {
        const cid = (c.ours ? encodeClientId('mm1', 'place', 1_000 + i, 0) : `x${i}`) as ClientOrderId;
        // quantity 10; local fill in tenths, venue cumulative ≥ local (never more than 10)
        const localFilled = c.local === 'filled' ? 10 : Math.min(c.localFilled, 9);
        const venueFilled = c.venueStatus === 'filled' ? 10 : Math.min(10, localFilled + c.venueExtra);
        const o = order({
          clientOrderId: cid,
          venueOrderId: orderId(`v${i}`),
          quantity: D(10),
          status: c.local ?? 'accepted',
          filledQty: D(localFilled),
          filledNotional: D(localFilled * 100),
          submittedAt: 200_000 - c.ageMs,
          strategyId: S1,
        });
        if (c.local) orders.push(o);
        const v = venueOrder(o, {
          status: c.venueStatus === 'accepted' && venueFilled > 0 ? 'partially-filled' : c.venueStatus,
          filledQty: D(venueFilled),
          filledNotional: D(venueFilled * 100),
        });
        const stillOpen = v.status === 'accepted' || v.status === 'partially-filled';
        if (c.venue === 'open' && stillOpen) open.push(v);
        else if (c.venue === 'queried' || c.venue === 'open') queried.push(v);
        else if (c.venue === 'notFound' && c.local) notFound.push(cid);
        for (let k = 0; k < Math.min(c.realFills, venueFilled - localFilled); k++)
          fills.push(fill(o, 1, 100, { tradeId: tradeId(`f${i}-${k}`), time: k }));
      });
      return { local: orderStateOf(orders), venue: { symbols: [BTCUSDT], openOrders: open, queriedOrders: queried, notFound, fills } };
    }

    it('is_idempotent_applying_its_events_then_reconciling_again_yields_nothing', () => {
      fc.assert(
        fc.property(caseArb, (cases) => {
          const { local, venue } = build(cases);
          const first = reconcile(local, venue, 200_000, OPTS);
          const after = applyOrderEvents(local, first);
          // OrderOrphaned is an alarm about the venue, not a change to our book: it repeats by design
          expect(reconcile(after, venue, 200_000, OPTS).filter((e) => e.type !== 'OrderOrphaned')).to.deep.equal([]);
        }),
        { seed: 3301, numRuns: 500 },
      );
    });

    it('leaves_every_reported_order_with_the_venue_cumulative_quantity', () => {
      fc.assert(
        fc.property(caseArb, (cases) => {
          const { local, venue } = build(cases);
          const after = applyOrderEvents(local, reconcile(local, venue, 200_000, OPTS));
          for (const v of [...venue.openOrders, ...venue.queriedOrders]) {
            const o = after.orders.get(v.clientOrderId!);
            if (!o) continue;
            expect(o.filledQty.toFixed(), v.clientOrderId).to.equal(v.filledQty.toFixed());
          }
        }),
        { seed: 3302, numRuns: 500 },
      );
    });
  });

  it('keeps_the_strategy_on_synthesized_fills', () => {
    const o = order({ venueOrderId: orderId('v1'), strategyId: strategyId('x') });
    const events = reconcile(
      orderStateOf([o]),
      report({ openOrders: [venueOrder(o, { filledQty: D('0.1'), avgFillPrice: D(100) })] }),
      10,
      OPTS,
    );
    expect(events[0]!.strategyId).to.equal('x');
  });
});

describe('reconcile: fills of orders not ours (TP/SL, liquidation, by hand)', () => {
  const SYM = 'BTC_USDT' as never;
  /** A contract fill as the contract gateway derives it: one per order state, cumulative numbers. */
  const cumulative = (venueOrderId: string, qty: string, avg: string, fee: string, pnl: string): Fill => ({
    tradeId: tradeId(`syn:${venueOrderId}:${qty}`),
    venueOrderId: orderId(venueOrderId),
    symbol: SYM,
    kind: 'contract',
    side: 'buy',
    price: D(avg),
    quantity: D(qty),
    fee: D(fee),
    feeAsset: 'USDT',
    liquidity: 'taker',
    time: 5,
    reduceOnly: true,
    realizedPnl: D(pnl),
    synthetic: true,
  });
  const owner = strategyId('pt');
  const opts: ReconcileOptions = { ...OPTS, ownerOf: () => owner };
  const rep = (fills: Fill[]) => ({ symbols: [SYM], openOrders: [], queriedOrders: [], notFound: [], fills });

  it('books_a_venue_order_fill_on_the_position_owner_and_ignores_it_without_an_owner_function', () => {
    const es = reconcile(orderStateOf([]), rep([cumulative('77', '20', '87600', '0.01752', '-0.2')]), 9, opts);
    const row = (e: ExecutionEvent) => {
      if (e.type !== 'VenueFill') return e.type;
      return [e.strategyId, ...[e.fill.quantity, e.fill.price, e.fill.fee, e.fill.realizedPnl].map((x) => x?.toFixed())];
    };
    expect(es.map(row)).to.deep.equal([[owner, '20', '87600', '0.01752', '-0.2']]);
    const stopLoss = rep([cumulative('77', '20', '87600', '0.01752', '-0.2')]);
    expect(reconcile(orderStateOf([]), stopLoss, 9, OPTS)).to.deep.equal([]);
    // Applied, the trade id is seen: a second pass books nothing.
    expect(reconcile(applyOrderEvents(orderStateOf([]), es), stopLoss, 9, opts)).to.deep.equal([]);
  });

  it('books_only_the_growth_of_a_partly_filled_venue_order_at_the_price_that_makes_the_average_agree', () => {
    const first = reconcile(orderStateOf([]), rep([cumulative('78', '5', '100', '0.05', '0')]), 9, opts);
    const booked = new Map([['78', { quantity: D(5), notional: D(500), fee: D('0.05'), realizedPnl: D(0) }]]);
    // Cumulative 15 at an average of 102: the new 10 cost 15·102 − 5·100 = 1030, i.e. 103 each.
    const grown = rep([cumulative('78', '15', '102', '0.2', '0')]);
    const second = reconcile(applyOrderEvents(orderStateOf([]), first), grown, 9, { ...opts, foreignFilled: booked });
    const row = (e: ExecutionEvent) =>
      e.type === 'VenueFill' ? [e.fill.tradeId, e.fill.quantity.toFixed(), e.fill.price.toFixed(), e.fill.fee.toFixed()] : e.type;
    expect(second.map(row)).to.deep.equal([['syn:78:15', '10', '103', '0.15']]);
  });
});
