import { expect } from 'chai';
import { D } from '../../src/core/decimal.js';
import { IllegalTransition } from '../../src/core/errors.js';
import { orderId } from '../../src/core/ids.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import { applyOrderEvent, applyOrderEvents, emptyOrderState, OrderStore, orderStateOf } from '../../src/execution/order-state.js';
import { BTCUSDT, fill, order, S1 } from '../domain/support/builders.js';

const base = (o: { clientOrderId: string }) => ({ ts: 1, strategyId: S1, clientOrderId: o.clientOrderId as never, symbol: BTCUSDT });

describe('order state reducer', () => {
  it('walks_an_order_from_submitted_to_filled', () => {
    const o = order({ status: 'initialized' });
    const f1 = fill(o, '0.4', '100');
    const f2 = fill(o, '0.6', '100');
    const s = applyOrderEvents(emptyOrderState(), [
      { type: 'OrderSubmitted', ts: 1, strategyId: S1, order: o },
      { ...base(o), type: 'OrderAccepted', venueOrderId: orderId('v1') },
      { ...base(o), type: 'OrderPartiallyFilled', fill: f1 },
      { ...base(o), type: 'OrderFilled', fill: f2 },
    ]);
    const after = s.orders.get(o.clientOrderId)!;
    expect([after.status, after.venueOrderId, after.filledQty.toFixed()]).to.deep.equal(['filled', 'v1', '1']);
    expect([...s.seenTradeIds].sort()).to.deep.equal([f1.tradeId, f2.tradeId].sort());
  });

  it('counts_a_fill_once_however_often_it_arrives', () => {
    const o = order();
    const f = fill(o, '0.4', '100');
    const e: ExecutionEvent = { ...base(o), type: 'OrderPartiallyFilled', fill: f };
    const s = applyOrderEvents(orderStateOf([o]), [e, e, e]);
    expect(s.orders.get(o.clientOrderId)!.filledQty.toFixed()).to.equal('0.4');
  });

  it('absorbs_a_late_ack_and_a_second_cancel_confirmation', () => {
    const o = order({ status: 'cancelled' });
    const s0 = orderStateOf([o]);
    const s = applyOrderEvents(s0, [
      { ...base(o), type: 'OrderAccepted', venueOrderId: orderId('v9') },
      { ...base(o), type: 'OrderCancelled', reason: 'user' },
    ]);
    expect(s.orders.get(o.clientOrderId)!.status).to.equal('cancelled');
    expect(s.orders.get(o.clientOrderId)!.venueOrderId).to.equal('v9');
  });

  it('counts_a_fill_learned_after_the_cancel_without_reopening_the_order', () => {
    const o = order({ status: 'cancelled' });
    const s = applyOrderEvent(orderStateOf([o]), { ...base(o), type: 'OrderPartiallyFilled', fill: fill(o, '0.2', '100') });
    const after = s.orders.get(o.clientOrderId)!;
    expect([after.status, after.filledQty.toFixed()]).to.deep.equal(['cancelled', '0.2']);
  });

  it('returns_to_resting_when_a_cancel_is_refused', () => {
    const o = order({ status: 'partially-filled', filledQty: D('0.5'), filledNotional: D('50') });
    const s = applyOrderEvents(orderStateOf([o]), [
      { ...base(o), type: 'OrderCancelRequested' },
      { ...base(o), type: 'OrderCancelRejected', reason: 'no' },
    ]);
    expect(s.orders.get(o.clientOrderId)!.status).to.equal('partially-filled');
  });

  it('returns_to_submitted_when_the_cancel_of_an_unacknowledged_order_is_refused', () => {
    // A dropped placement answer, then cancel answers "unknown order": the order may still arrive,
    // so its outcome stays open (submitted) instead of being taken for a resting order.
    const o = order({ status: 'submitted' });
    const s = applyOrderEvents(orderStateOf([o]), [
      { ...base(o), type: 'OrderCancelRequested' },
      { ...base(o), type: 'OrderCancelRejected', reason: 'unknown order' },
    ]);
    expect(s.orders.get(o.clientOrderId)!.status).to.equal('submitted');
  });

  it('applies_an_amend_confirmation_and_leaves_pending_amend', () => {
    const o = order();
    const s = applyOrderEvents(orderStateOf([o]), [
      { ...base(o), type: 'OrderAmendRequested', price: D(101) },
      { ...base(o), type: 'OrderAmended', price: D(101), quantity: D(2) },
    ]);
    const after = s.orders.get(o.clientOrderId)!;
    expect([after.status, after.price!.toFixed(), after.quantity!.toFixed()]).to.deep.equal(['accepted', '101', '2']);
  });

  it('throws_when_news_contradicts_the_table', () => {
    const o = order({ status: 'initialized' });
    // an order never sent cannot be amended into acceptance
    expect(() => applyOrderEvent(orderStateOf([o]), { ...base(o), type: 'OrderExpired' })).to.throw(IllegalTransition);
  });

  it('the_mutable_store_agrees_with_the_pure_reducer', () => {
    const o = order({ status: 'initialized' });
    const events: ExecutionEvent[] = [
      { type: 'OrderSubmitted', ts: 1, strategyId: S1, order: o },
      { ...base(o), type: 'OrderAccepted', venueOrderId: orderId('v1') },
      { ...base(o), type: 'OrderPartiallyFilled', fill: fill(o, '0.4', '100') },
      { ...base(o), type: 'OrderPartiallyFilled', fill: fill(o, '0.4', '100') },
      { ...base(o), type: 'OrderCancelRequested' },
      { ...base(o), type: 'OrderCancelled', reason: 'user' },
    ];
    const store = new OrderStore();
    const applied = events.map((e) => store.apply(e));
    const pure = applyOrderEvents(emptyOrderState(), events);
    expect(store.get(o.clientOrderId)).to.deep.equal(pure.orders.get(o.clientOrderId));
    // the repeated fill is the only event that changed nothing
    expect(applied).to.deep.equal([true, true, true, false, true, true]);
  });

  it('lists_live_orders_in_creation_order_as_they_open_and_close', () => {
    // Restored: c-a live, c-b filled, c-c live; then two new ones; then c-a and one new one close.
    const a = order({ status: 'accepted' });
    const b = order({ status: 'filled', closedAt: 10 });
    const c = order({ status: 'accepted' });
    const store = new OrderStore(orderStateOf([a, b, c]));
    const d = order({ status: 'submitted' });
    const e = order({ status: 'submitted' });
    store.apply({ type: 'OrderSubmitted', ts: 20, strategyId: S1, order: d });
    store.apply({ type: 'OrderSubmitted', ts: 21, strategyId: S1, order: e });
    expect(store.live().map((o) => o.clientOrderId)).to.deep.equal([a, c, d, e].map((o) => o.clientOrderId));
    store.apply({ ...base(a), type: 'OrderCancelled', reason: 'user' });
    store.apply({ ...base(d), type: 'OrderRejected', reason: 'no' });
    store.apply({ ...base(e), type: 'OrderAccepted', venueOrderId: orderId('v9') });
    expect(store.live().map((o) => [o.clientOrderId, o.status])).to.deep.equal([
      [c.clientOrderId, 'accepted'],
      [e.clientOrderId, 'accepted'],
    ]);
    expect(store.live()).to.deep.equal(store.all().filter((o) => o.status === 'accepted' || o.status === 'submitted'));
  });

  it('prunes_an_order_that_closed_after_an_earlier_pass', () => {
    // A pass at 100 finds nothing old enough; the order closed at 150 goes at the pass at 200.
    const a = order({ status: 'submitted' });
    const store = new OrderStore();
    store.apply({ type: 'OrderSubmitted', ts: 10, strategyId: S1, order: a });
    store.apply({ ...base(a), type: 'OrderAccepted', venueOrderId: orderId('v1') });
    store.prune(100);
    store.apply({ ...base(a), ts: 150, type: 'OrderCancelled', reason: 'user' });
    store.prune(150);
    expect(store.get(a.clientOrderId)?.status).to.equal('cancelled');
    store.prune(200);
    expect(store.get(a.clientOrderId)).to.equal(undefined);
  });

  it('prunes_closed_orders_but_keeps_live_ones', () => {
    const store = new OrderStore(orderStateOf([order({ status: 'filled', closedAt: 10 }), order({ status: 'accepted' })]));
    store.prune(100);
    expect(store.all().map((o) => o.status)).to.deep.equal(['accepted']);
  });
});
