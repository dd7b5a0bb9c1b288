import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { D } from '../../src/core/decimal.js';
import { AuthenticationError, ExchangeUnavailable, InvalidOrder, RateLimited } from '../../src/core/errors.js';
import { type ClientOrderId, orderId } from '../../src/core/ids.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { Instrument } from '../../src/domain/instrument.js';
import type { Fill } from '../../src/domain/fill.js';
import { InstrumentRegistry } from '../../src/domain/instrument-registry.js';
import { ClientIdCodec, encodeClientId } from '../../src/domain/client-id-codec.js';
import type { GatewayCapabilities } from '../../src/execution/exchange-gateway.js';
import { MemoryOrderJournal } from '../../src/execution/order-journal.js';
import { OrderManager } from '../../src/execution/order-manager.js';
import { IntentFactory } from '../../src/strategy/intent-factory.js';
import { BTC_USDT, BTCUSDT, contractInstrument, fill, order, S1, snapshot, spotInstrument } from '../domain/support/builders.js';
import { CONTRACT_CAPS, FakeGateway, SPOT_CAPS } from './fake-gateway.js';

const T0 = 1_000_000;

function setup(caps: GatewayCapabilities = SPOT_CAPS, instruments: Instrument[] = [spotInstrument(), contractInstrument()]) {
  const clock = new VirtualClock(T0);
  const gw = new FakeGateway(caps);
  const journal = new MemoryOrderJournal();
  const codec = new ClientIdCodec(clock);
  codec.register(S1, 'mm1');
  const om = new OrderManager(gw, journal, clock, codec, new InstrumentRegistry(instruments), { unknownGraceMs: 60_000 });
  const intents = new IntentFactory(S1);
  return { clock, gw, journal, codec, om, intents };
}

const types = (es: readonly ExecutionEvent[]) => es.map((e) => e.type);
const cidOf = (es: readonly ExecutionEvent[]): ClientOrderId => {
  const s = es.find((e) => e.type === 'OrderSubmitted');
  if (!s || s.type !== 'OrderSubmitted') throw new Error('no OrderSubmitted');
  return s.order.clientOrderId;
};

describe('OrderManager placement', () => {
  it('journals_the_order_before_sending_it', async () => {
    const { gw, journal, om, intents } = setup();
    let journaledFirst: string | undefined;
    let eventsJournaled: string[] = [];
    gw.onPlace = (req) => {
      journaledFirst = journal.order(req.clientOrderId)?.status;
      eventsJournaled = journal.events.map((e) => e.type);
    };
    const events = await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5'));
    // when the request goes out the journal already holds the order (status submitted: sent, answer pending)
    expect(journaledFirst).to.equal('submitted');
    expect(eventsJournaled).to.deep.equal(['OrderSubmitted']);
    expect(types(events)).to.deep.equal(['OrderSubmitted', 'OrderAccepted']);
    const cid = cidOf(events);
    expect(om.order(cid)!.status).to.equal('accepted');
    expect(journal.order(cid)!.status).to.equal('accepted');
    expect(journal.intents).to.have.length(1);
  });

  it('encodes_strategy_and_intent_in_the_client_id', async () => {
    const { om, codec, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    expect(cid.startsWith('ppmm1_p_')).to.equal(true);
    expect(codec.strategyOf(cid)).to.equal(S1);
  });

  it('publishes_the_same_events_on_the_stream', async () => {
    const { om, intents } = setup();
    const seen: string[] = [];
    om.events$.subscribe((e) => seen.push(e.type));
    const events = await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5'));
    expect(seen).to.deep.equal(types(events));
  });

  it('checks_an_order_that_cannot_rest_at_once_but_not_a_resting_limit', async () => {
    // Neither venue's placement answer carries a status, so a market order is queried right after its ack.
    const { gw, om, intents } = setup();
    await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5'));
    expect(gw.count('queryOrder')).to.equal(0);
    await om.execute(intents.market(BTCUSDT, 'buy', '0.5'));
    expect(gw.count('queryOrder')).to.equal(1);
  });

  it('records_a_venue_refusal_as_rejected_with_its_code', async () => {
    const { gw, om, intents } = setup();
    gw.script('placeOrder', { kind: 'reject', error: new InvalidOrder('price outside the allowed range', { venueCode: 30087 }) });
    const events = await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5'));
    expect(types(events)).to.deep.equal(['OrderSubmitted', 'OrderRejected']);
    expect(events[1]).to.include({ venueCode: 30087 });
    expect(om.order(cidOf(events))!.status).to.equal('rejected');
  });

  it('records_a_request_refused_before_processing_as_not_sent', async () => {
    const { gw, om, intents } = setup();
    gw.script('placeOrder', { kind: 'throw', error: new RateLimited('429', 1000) });
    const events = await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5'));
    const rej = events[1] as Extract<ExecutionEvent, { type: 'OrderRejected' }>;
    expect(rej.reason.startsWith('not sent: ')).to.equal(true);
  });
});

describe('OrderManager outcome unknown', () => {
  it('finds_the_order_by_client_id_and_never_sends_it_again', async () => {
    const { gw, om, intents } = setup();
    gw.script('placeOrder', { kind: 'unknown' });
    const events = await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5'));
    expect(types(events)).to.deep.equal(['OrderSubmitted', 'OrderOutcomeUnknown', 'OrderAccepted']);
    expect(gw.count('placeOrder')).to.equal(1);
    expect(gw.count('queryOrder')).to.equal(1);
    expect(om.unresolved()).to.deep.equal([]);
  });

  it('keeps_an_order_not_found_as_unknown_until_the_grace_period_has_passed', async () => {
    const { gw, om, clock, intents } = setup();
    gw.script('placeOrder', { kind: 'lost' });
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    expect(om.order(cid)!.status).to.equal('submitted');
    expect(om.unresolved()).to.deep.equal([cid]);
    clock.advanceBy(59_999);
    expect(await om.resolveUnknown(cid)).to.equal('unknown');
    clock.advanceBy(1);
    expect(await om.resolveUnknown(cid)).to.equal('not-found');
    expect(om.order(cid)!.status).to.equal('rejected');
    expect(gw.count('placeOrder')).to.equal(1);
  });

  it('stays_unknown_while_the_query_fails_and_resolves_on_a_later_pass', async () => {
    const { gw, om, intents } = setup();
    gw.script('placeOrder', { kind: 'unknown' });
    gw.script('queryOrder', { kind: 'throw', error: new ExchangeUnavailable('503') });
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    expect(om.order(cid)!.status).to.equal('submitted');
    const later = (await om.resolvePending())!;
    expect(types(later)).to.deep.equal(['OrderAccepted']);
    expect(om.unresolved()).to.deep.equal([]);
    expect(gw.count('placeOrder')).to.equal(1);
  });

  it('retries_an_outcome_made_unknown_by_an_operation_still_queued_when_asked', async () => {
    // resolvePending answers at once only when nothing is unknown AND nothing is queued or running:
    // here the placement that makes the outcome unknown has not run yet when the retry is asked for.
    const { gw, om, intents } = setup();
    gw.script('placeOrder', { kind: 'unknown' });
    gw.script('queryOrder', { kind: 'throw', error: new ExchangeUnavailable('503') });
    const placing = om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5'));
    expect(om.unresolved()).to.deep.equal([]);
    const retried = om.resolvePending();
    const cid = cidOf(await placing);
    expect(types((await retried)!)).to.deep.equal(['OrderAccepted']);
    expect(om.order(cid)!.status).to.equal('accepted');
    expect(om.unresolved()).to.deep.equal([]);
    expect(gw.count('queryOrder')).to.equal(2);
  });

  it('asks_the_venue_nothing_when_no_outcome_is_unknown', async () => {
    const { gw, om, intents } = setup();
    await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5'));
    // Nothing to ask: no promise to await either (the runtime's reconciliation tick awaits only a promise).
    expect(om.resolvePending()).to.equal(undefined);
    expect(gw.count('queryOrder')).to.equal(0);
  });

  it('reports_a_cancel_whose_outcome_is_unknown_as_refused_when_the_order_still_rests', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    gw.script('cancelOrder', { kind: 'lost' });
    const events = await om.execute(intents.cancel(BTCUSDT, cid));
    expect(types(events)).to.deep.equal(['OrderCancelRequested', 'OrderOutcomeUnknown', 'OrderCancelRejected']);
    expect(om.order(cid)!.status).to.equal('accepted');
    expect(gw.count('cancelOrder')).to.equal(1);
  });

  it('takes_a_cancel_whose_answer_was_lost_as_done_when_the_venue_shows_it_cancelled', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    gw.script('cancelOrder', { kind: 'unknown' });
    const events = await om.execute(intents.cancel(BTCUSDT, cid));
    expect(types(events)).to.deep.equal(['OrderCancelRequested', 'OrderOutcomeUnknown', 'OrderCancelled']);
    expect(om.order(cid)!.status).to.equal('cancelled');
  });
});

describe('OrderManager venue reads that fail', () => {
  it('books_no_invented_fill_when_the_fills_cannot_be_read_and_books_the_real_trades_on_the_next_pass', async () => {
    // The venue filled 0.2 @ 100 and 0.1 @ 103 of a resting 0.5 buy; the cancel answer says 0.3 filled. Reading
    // the trades then fails (a 503). The old code went on with no trades and reconcile booked ONE synthetic
    // fill of 0.3 at the average 101 (no fee, no trade id): a fill that never happened. Now the order is left
    // as it is, the failure is reported, and the next reconciliation books the venue's two trades by id.
    const { gw, om, intents } = setup();
    const warnings: string[] = [];
    om.warnings$.subscribe((w) => warnings.push(`${w.message}: ${w.error}`));
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    gw.fill(cid, '0.2', '100', T0 + 1);
    gw.fill(cid, '0.1', '103', T0 + 2);
    gw.script('fillsSince', { kind: 'throw', error: new ExchangeUnavailable('503 Service Unavailable') });
    const events = await om.execute(intents.cancel(BTCUSDT, cid));
    expect(types(events)).to.deep.equal(['OrderCancelRequested', 'OrderCancelled']);
    expect(om.order(cid)!.filledQty.toFixed()).to.equal('0');
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(
      /could not read the fills of order .* \(the venue shows 0\.3 filled\); asked again on the next pass: .*503/,
    );
    const later = await om.reconcile([BTCUSDT]);
    const fills = later.flatMap((e) => (e.type === 'OrderPartiallyFilled' || e.type === 'OrderFilled' ? [e.fill] : []));
    expect(fills.map((f) => `${f.tradeId} ${f.quantity.toFixed()}@${f.price.toFixed()}${f.synthetic ? ' synthetic' : ''}`)).to.deep.equal([
      'T1 0.2@100',
      'T2 0.1@103',
    ]);
    expect(om.order(cid)!.filledQty.toFixed()).to.equal('0.3');
  });

  it('reports_a_failed_order_query_and_keeps_the_outcome_unknown', async () => {
    // An auth error (or a bug) on the query used to be swallowed silently; it stays unknown and is reported.
    const { gw, om, intents } = setup();
    const warnings: string[] = [];
    om.warnings$.subscribe((w) => warnings.push(w.error));
    gw.script('placeOrder', { kind: 'unknown' });
    gw.script('queryOrder', {
      kind: 'throw',
      error: new AuthenticationError('signature for this request is not valid', { venueCode: 700002 }),
    });
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    expect(om.unresolved()).to.deep.equal([cid]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('signature for this request is not valid');
    expect(types((await om.resolvePending())!)).to.deep.equal(['OrderAccepted']);
  });
});

describe('OrderManager cancel and amend', () => {
  it('reports_a_cancel_of_an_order_it_does_not_hold', async () => {
    const { gw, om, intents } = setup();
    const events = await om.execute(intents.cancel(BTCUSDT, 'nope' as ClientOrderId));
    expect(types(events)).to.deep.equal(['IntentFailed']);
    expect(gw.count('cancelOrder')).to.equal(0);
  });

  it('cancels_through_pending_cancel', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    const events = await om.execute(intents.cancel(BTCUSDT, cid));
    expect(types(events)).to.deep.equal(['OrderCancelRequested', 'OrderCancelled']);
    expect(gw.orders.get(cid)!.status).to.equal('cancelled');
  });

  it('records_the_fill_when_the_order_to_cancel_had_filled', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    gw.fill(cid, '0.5', '100');
    const events = await om.execute(intents.cancel(BTCUSDT, cid));
    expect(types(events)).to.deep.equal(['OrderCancelRequested', 'OrderFilled']);
    expect(om.order(cid)!.status).to.equal('filled');
  });

  it('amends_a_contract_order_in_place', async () => {
    const { gw, om, intents } = setup(CONTRACT_CAPS);
    const cid = cidOf(await om.execute(intents.limit(BTC_USDT, 'buy', '100', '10', { leverage: 10 })));
    const events = await om.execute(intents.amend(BTC_USDT, cid, { price: '100.5' }));
    expect(types(events)).to.deep.equal(['OrderAmendRequested', 'OrderAmended']);
    expect(om.order(cid)!.price!.toFixed()).to.equal('100.5');
    expect(gw.orders.get(cid)!.price!.toFixed()).to.equal('100.5');
    expect(gw.count('placeOrder')).to.equal(1);
  });

  it('amends_on_spot_by_cancelling_first_then_placing_the_unfilled_rest', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '1')));
    gw.fill(cid, '0.3', '100');
    const events = await om.execute(intents.amend(BTCUSDT, cid, { price: '101' }));
    expect(types(events)).to.deep.equal([
      'OrderAmendRequested',
      'OrderCancelled',
      'OrderPartiallyFilled',
      'OrderSubmitted',
      'OrderAccepted',
      'OrderReplaced',
    ]);
    const replaced = events.find((e) => e.type === 'OrderReplaced') as Extract<ExecutionEvent, { type: 'OrderReplaced' }>;
    const fresh = om.order(replaced.newClientOrderId)!;
    // total 1 − filled 0.3 = 0.7 at the new price
    expect([fresh.quantity!.toFixed(), fresh.price!.toFixed(), fresh.replacesClientOrderId]).to.deep.equal(['0.7', '101', cid]);
    expect(replaced.newClientOrderId.startsWith('ppmm1_a_')).to.equal(true);
    expect(om.order(cid)!.status).to.equal('cancelled');
    expect(om.order(cid)!.filledQty.toFixed()).to.equal('0.3');
  });

  it('places_nothing_when_the_spot_order_to_amend_filled_first', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '1')));
    gw.fill(cid, '1', '100');
    const events = await om.execute(intents.amend(BTCUSDT, cid, { price: '101' }));
    expect(types(events)).to.deep.equal(['OrderAmendRequested', 'OrderFilled']);
    expect(gw.count('placeOrder')).to.equal(1);
  });

  it('places_nothing_when_the_spot_cancel_outcome_is_unknown', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '1')));
    gw.script('cancelOrder', { kind: 'lost' });
    const events = await om.execute(intents.amend(BTCUSDT, cid, { price: '101' }));
    expect(types(events)).to.deep.equal(['OrderAmendRequested', 'OrderOutcomeUnknown', 'OrderAmendRejected']);
    expect(gw.count('placeOrder')).to.equal(1);
    expect(om.order(cid)!.status).to.equal('accepted');
  });
});

describe('OrderManager chase', () => {
  it('reprices_a_spot_order_toward_the_best_bid_at_most_max_times', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '1')));
    await om.onSnapshot(snapshot(BTCUSDT, { bids: [['100.2', '1']], asks: [['100.6', '1']] }));
    const first = await om.execute(intents.chase(BTCUSDT, cid, 2));
    const r1 = first.find((e) => e.type === 'OrderReplaced') as Extract<ExecutionEvent, { type: 'OrderReplaced' }>;
    expect(om.order(r1.newClientOrderId)!.price!.toFixed()).to.equal('100.2');
    expect(r1.newClientOrderId.startsWith('ppmm1_c_')).to.equal(true);
    const second = (await om.onSnapshot(snapshot(BTCUSDT, { bids: [['100.4', '1']], asks: [['100.6', '1']] })))!;
    const r2 = second.find((e) => e.type === 'OrderReplaced') as Extract<ExecutionEvent, { type: 'OrderReplaced' }>;
    expect(om.order(r2.newClientOrderId)!.price!.toFixed()).to.equal('100.4');
    const third = om.onSnapshot(snapshot(BTCUSDT, { bids: [['100.5', '1']], asks: [['100.6', '1']] }));
    // Two reprices made: the chase is over, the snapshot is only stored (nothing to await).
    expect(third).to.equal(undefined);
    expect(gw.count('placeOrder')).to.equal(3);
  });

  it('never_chases_past_the_cap', async () => {
    const { om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '1')));
    await om.onSnapshot(snapshot(BTCUSDT, { bids: [['101', '1']], asks: [['101.2', '1']] }));
    const events = await om.execute(intents.chase(BTCUSDT, cid, 5, '100.5'));
    const r = events.find((e) => e.type === 'OrderReplaced') as Extract<ExecutionEvent, { type: 'OrderReplaced' }>;
    expect(om.order(r.newClientOrderId)!.price!.toFixed()).to.equal('100.5');
    // at the cap: nothing more to do however far the bid runs
    expect(await om.onSnapshot(snapshot(BTCUSDT, { bids: [['102', '1']], asks: [['102.2', '1']] }))).to.deep.equal([]);
  });

  it('uses_the_venue_chase_on_contracts', async () => {
    const { gw, om, intents } = setup(CONTRACT_CAPS);
    const cid = cidOf(await om.execute(intents.limit(BTC_USDT, 'buy', '100', '10', { leverage: 10 })));
    gw.chaseTo = D('100.3');
    await om.onSnapshot(snapshot(BTC_USDT, { bids: [['100.3', '5']], asks: [['100.5', '5']] }));
    const events = await om.execute(intents.chase(BTC_USDT, cid, 1));
    expect(types(events)).to.deep.equal(['OrderAmendRequested', 'OrderAmended']);
    expect(gw.count('chaseOrder')).to.equal(1);
    expect(om.order(cid)!.price!.toFixed()).to.equal('100.3');
  });
});

describe('OrderManager desired quotes', () => {
  it('places_a_new_quote_set_in_one_batch_on_spot_and_then_sends_nothing_while_it_matches', async () => {
    const { gw, om, intents } = setup();
    const want = [
      { slot: 'b0', side: 'buy' as const, price: '99', quantity: '0.1' },
      { slot: 'a0', side: 'sell' as const, price: '101', quantity: '0.1' },
    ];
    const first = await om.execute(intents.quotes(BTCUSDT, want));
    expect(types(first)).to.deep.equal(['OrderSubmitted', 'OrderSubmitted', 'OrderAccepted', 'OrderAccepted']);
    expect(gw.count('placeOrders')).to.equal(1);
    expect(
      om
        .liveOrders({ strategyId: S1 })
        .map((o) => o.slot)
        .sort(),
    ).to.deep.equal(['a0', 'b0']);
    expect(await om.execute(intents.quotes(BTCUSDT, want))).to.deep.equal([]);
  });

  it('moves_a_spot_quote_by_cancel_and_place', async () => {
    const { gw, om, intents } = setup();
    await om.execute(intents.quotes(BTCUSDT, [{ slot: 'b0', side: 'buy', price: '99', quantity: '0.1' }]));
    const events = await om.execute(intents.quotes(BTCUSDT, [{ slot: 'b0', side: 'buy', price: '99.5', quantity: '0.1' }]));
    expect(types(events)).to.deep.equal(['OrderCancelRequested', 'OrderCancelled', 'OrderSubmitted', 'OrderAccepted']);
    expect(gw.count('cancelOrder')).to.equal(1);
  });

  it('moves_a_contract_quote_with_one_amend', async () => {
    const { gw, om, intents } = setup(CONTRACT_CAPS);
    await om.execute(intents.quotes(BTC_USDT, [{ slot: 'b0', side: 'buy', price: '99', quantity: '10', leverage: 5 }]));
    const events = await om.execute(intents.quotes(BTC_USDT, [{ slot: 'b0', side: 'buy', price: '99.5', quantity: '10', leverage: 5 }]));
    expect(types(events)).to.deep.equal(['OrderAmendRequested', 'OrderAmended']);
    expect(gw.count('amendOrder')).to.equal(1);
  });

  it('withdraws_every_quote_with_an_empty_set_in_one_batch_cancel_on_contracts', async () => {
    const { gw, om, intents } = setup(CONTRACT_CAPS);
    await om.execute(
      intents.quotes(BTC_USDT, [
        { slot: 'b0', side: 'buy', price: '99', quantity: '10', leverage: 5 },
        { slot: 'a0', side: 'sell', price: '101', quantity: '10', leverage: 5 },
      ]),
    );
    await om.execute(intents.quotes(BTC_USDT, []));
    expect(om.liveOrders({ strategyId: S1 })).to.deep.equal([]);
    expect(gw.count('cancelOrders')).to.equal(1);
  });
});

describe('OrderManager other intents', () => {
  it('cancels_everything_on_the_symbol_with_the_venue_cancel_all', async () => {
    const { gw, om, intents } = setup();
    await om.execute(intents.limit(BTCUSDT, 'buy', '99', '0.1'));
    await om.execute(intents.limit(BTCUSDT, 'sell', '101', '0.1'));
    const events = await om.execute(intents.cancelAll(BTCUSDT, 'venue'));
    expect(types(events).filter((t) => t === 'OrderCancelled')).to.have.length(2);
    expect(gw.count('cancelAll')).to.equal(1);
    expect(om.liveOrders()).to.deep.equal([]);
  });

  it('reports_leverage_set_or_failed', async () => {
    const { gw, om, intents } = setup(CONTRACT_CAPS);
    expect(types(await om.execute(intents.leverage(BTC_USDT, 20)))).to.deep.equal(['LeverageChanged']);
    expect(gw.leverage!.leverage).to.equal(20);
    gw.script('setLeverage', { kind: 'reject', error: new InvalidOrder('leverage too high') });
    expect(types(await om.execute(intents.leverage(BTC_USDT, 900)))).to.deep.equal(['IntentFailed']);
  });
});

describe('OrderManager trailing and plan orders', () => {
  // Trigger orders carry no client id: a lost placement answer is resolved from the venue's list.
  const trailing = (intents: IntentFactory) => intents.trailingStop(BTC_USDT, 'short', '20', { callbackRate: '0.002' });
  const placedEvents = (es: readonly ExecutionEvent[]) => es.filter((e) => e.type === 'ProtectiveOrderPlaced');

  it('announces_the_order_a_placement_with_a_lost_answer_made', async () => {
    const { gw, om, intents, clock } = setup(CONTRACT_CAPS);
    gw.venueTime = clock.now();
    gw.script('placeProtectiveOrder', { kind: 'unknown' });
    const events = await om.execute(trailing(intents));
    expect(types(events)).to.deep.equal(['ProtectiveOrderPlaced']);
    const [placed] = placedEvents(events);
    expect(placed!.type === 'ProtectiveOrderPlaced' && placed!.order.id).to.equal(gw.protective[0]!.id);
  });

  it('fails_the_intent_when_the_lost_request_never_reached_the_venue', async () => {
    const { gw, om, intents } = setup(CONTRACT_CAPS);
    gw.script('placeProtectiveOrder', { kind: 'lost' });
    const events = await om.execute(trailing(intents));
    expect(types(events)).to.deep.equal(['IntentFailed']);
    expect(events[0]!.type === 'IntentFailed' && events[0]!.reason).to.match(/^outcome unknown: .*placed since at the venue: none$/);
  });

  it('does_not_take_an_order_placed_before_the_request_or_one_it_announced_already', async () => {
    const { gw, om, intents, clock } = setup(CONTRACT_CAPS);
    // One of the same shape placed by hand 11 s before (outside the 10 s clock margin) …
    gw.venueTime = clock.now() - 11_000;
    gw.protective.push({ symbol: BTC_USDT, positionSide: 'short', kind: 'trailing', id: 'HAND', quantity: D(20), createdAt: gw.venueTime });
    // … and one this manager placed and announced a moment ago.
    gw.venueTime = clock.now();
    await om.execute(trailing(intents));
    gw.script('placeProtectiveOrder', { kind: 'lost' });
    expect(types(await om.execute(trailing(intents)))).to.deep.equal(['IntentFailed']);
  });

  it('fails_the_intent_when_two_new_orders_of_that_shape_cannot_be_told_apart', async () => {
    const { gw, om, intents, clock } = setup(CONTRACT_CAPS);
    gw.venueTime = clock.now();
    gw.protective.push({
      symbol: BTC_USDT,
      positionSide: 'short',
      kind: 'trailing',
      id: 'OTHER',
      quantity: D(20),
      createdAt: gw.venueTime,
    });
    gw.script('placeProtectiveOrder', { kind: 'unknown' });
    const events = await om.execute(trailing(intents));
    expect(types(events)).to.deep.equal(['IntentFailed']);
    expect(events[0]!.type === 'IntentFailed' && events[0]!.reason).to.match(/: 2, which cannot be told apart$/);
  });

  it('fails_the_intent_with_the_lost_answer_when_the_list_cannot_be_read', async () => {
    const { gw, om, intents, clock } = setup(CONTRACT_CAPS);
    gw.venueTime = clock.now();
    gw.script('placeProtectiveOrder', { kind: 'unknown' });
    gw.script('protectiveStops', { kind: 'throw', error: new ExchangeUnavailable('503') });
    const events = await om.execute(trailing(intents));
    expect(types(events)).to.deep.equal(['IntentFailed']);
    expect(events[0]!.type === 'IntentFailed' && events[0]!.reason).to.equal('outcome unknown: answer lost');
  });
});

describe('OrderManager restart and reconciliation', () => {
  it('treats_an_order_journaled_but_maybe_unsent_as_unknown_and_rejects_it_after_the_grace_period', async () => {
    const { journal, gw, om, clock } = setup();
    journal.recordOrder(order({ clientOrderId: encodeClientId('mm1', 'place', T0 - 10, 0), status: 'initialized', createdAt: T0 - 10 }));
    await om.restore();
    expect(await om.reconcile([BTCUSDT])).to.deep.equal([]);
    clock.advanceBy(60_000);
    expect(types(await om.reconcile([BTCUSDT]))).to.deep.equal(['OrderRejected']);
    expect(gw.count('placeOrder')).to.equal(0);
  });

  // The chaos suite's orphan quote: a market maker killed while its cancel was on the way (journaled
  // pending-cancel, never answered) was restarted with the order still pending-cancel. Nothing asked the
  // venue about it, and the exit cancels skip orders already being cancelled: it rested after a clean stop.
  describe('an order the journal left pending a cancel', () => {
    const killedMidCancel = async () => {
      const first = setup();
      const cid = cidOf(await first.om.execute(first.intents.limit(BTCUSDT, 'buy', '100', '0.5')));
      const resting = first.om.order(cid)!;
      // What the journal holds after a SIGKILL between writing OrderCancelRequested and sending the cancel.
      first.journal.recordOrder({ ...resting, status: 'pending-cancel', statusBeforePending: 'accepted' });
      const codec = new ClientIdCodec(first.clock);
      codec.register(S1, 'mm1');
      const om = new OrderManager(first.gw, first.journal, first.clock, codec, new InstrumentRegistry([spotInstrument()]), {
        unknownGraceMs: 60_000,
      });
      await om.restore();
      return { ...first, om, cid };
    };

    it('asks_the_venue_after_a_restart_and_cancels_the_order_again_when_it_still_rests', async () => {
      const { gw, om, intents, cid } = await killedMidCancel();
      expect(om.unresolved()).to.deep.equal([cid]);
      // The venue lists it open: the cancel never arrived; the listing alone cannot say so.
      expect(await om.reconcile([BTCUSDT])).to.deep.equal([]);
      const resolved = (await om.resolvePending())!;
      expect(types(resolved)).to.deep.equal(['OrderCancelRejected']);
      expect(om.order(cid)!.status).to.equal('accepted');
      expect(om.unresolved()).to.deep.equal([]);
      // Now the exit cancel (cancel-all of the strategy) reaches it.
      expect(types(await om.execute(intents.cancelAll(undefined, 'strategy')))).to.deep.equal(['OrderCancelRequested', 'OrderCancelled']);
      expect(gw.orders.get(cid)!.status).to.equal('cancelled');
    });

    it('closes_it_at_the_first_reconciliation_when_the_cancel_did_reach_the_venue', async () => {
      const { gw, om, cid } = await killedMidCancel();
      gw.orders.set(cid, { ...gw.orders.get(cid)!, status: 'cancelled' });
      const events = await om.reconcile([BTCUSDT]);
      expect(types(events)).to.deep.equal(['OrderCancelled']);
      expect(om.unresolved()).to.deep.equal([]);
      expect(gw.count('cancelOrder')).to.equal(0);
    });
  });

  it('picks_up_a_fill_made_while_down_exactly_once', async () => {
    const { journal, gw, om } = setup();
    const o = order({ clientOrderId: encodeClientId('mm1', 'place', T0 - 10, 0), venueOrderId: orderId('V77'), status: 'accepted' });
    journal.recordOrder(o);
    gw.addOrder({
      venueOrderId: orderId('V77'),
      clientOrderId: o.clientOrderId,
      symbol: BTCUSDT,
      kind: 'spot',
      side: 'buy',
      type: 'limit',
      timeInForce: 'gtc',
      price: D(100),
      quantity: D(1),
      status: 'accepted',
      filledQty: D(0),
      filledNotional: D(0),
    });
    gw.fill(o.clientOrderId, '0.4', '100', T0 - 5);
    await om.restore();
    expect(types(await om.reconcile([BTCUSDT]))).to.deep.equal(['OrderPartiallyFilled']);
    expect(await om.reconcile([BTCUSDT])).to.deep.equal([]);
    expect(om.order(o.clientOrderId)!.filledQty.toFixed()).to.equal('0.4');
  });

  it('reads_each_symbols_fills_from_its_own_watermark_after_a_restart', async () => {
    // The journal's newest fill is a spot quote at T0 - 1 s; the contract's newest at T0 - 600 s. While the
    // bot was down a TP/SL closed the contract position at T0 - 300 s: a venue order, not ours. A restart
    // that read every symbol from the one newest fill (T0 - 1 s less the 60 s overlap = T0 - 61 s) never
    // asked for it, and the strategy kept a position the venue had closed (chaos suite, perp-trend run).
    const { journal, gw, om } = setup(CONTRACT_CAPS);
    const quote = order({ symbol: BTCUSDT, status: 'filled' });
    const entry = order({ symbol: BTC_USDT, side: 'sell', status: 'filled' });
    const ts = T0;
    journal.recordEvent({
      type: 'OrderFilled',
      ts,
      strategyId: S1,
      clientOrderId: entry.clientOrderId,
      symbol: BTC_USDT,
      fill: fill(entry, '20', '100', { time: T0 - 600_000 }),
    });
    journal.recordEvent({
      type: 'OrderFilled',
      ts,
      strategyId: S1,
      clientOrderId: quote.clientOrderId,
      symbol: BTCUSDT,
      fill: fill(quote, '0.1', '100', { time: T0 - 1_000 }),
    });
    const stop = order({ symbol: BTC_USDT, side: 'buy', venueOrderId: orderId('V3521') });
    const { clientOrderId: _none, strategyId: _noStrategy, ...close } = fill(stop, '20', '101', { time: T0 - 300_000, reduceOnly: true });
    gw.fills.push(close);
    om.attributeVenueFills(() => S1, 0);
    await om.restore();
    const events = await om.reconcile([BTC_USDT]);
    expect(types(events)).to.deep.equal(['VenueFill']);
    const booked = events[0]!;
    if (booked.type !== 'VenueFill') throw new Error('not a VenueFill');
    expect(booked.fill.quantity.toFixed()).to.equal('20');
    expect(booked.fill.venueOrderId).to.equal('V3521');
    // the fills query for the contract started at its own newest fill less the overlap
    expect(gw.calls.filter((c) => c.method === 'fillsSince').map((c) => c.arg)).to.deep.equal([T0 - 600_000 - 60_000]);
  });

  it('books_a_venue_fill_once_even_when_it_stays_the_newest_fill_for_longer_than_trades_are_kept', async () => {
    // A trailing order closed the position at T0 + 1 s, then nothing traded for 7 hours. fillsSince keeps
    // returning that fill (it is at the watermark); its trade id used to be pruned after retainClosedMs
    // (6 h) and the close booked again at every pass from then on (a backtest's strategy saw itself
    // reversed, again and again).
    const { clock, gw, om } = setup(CONTRACT_CAPS);
    const trigger = order({ symbol: BTC_USDT, side: 'buy', venueOrderId: orderId('V77') });
    const { clientOrderId: _none, strategyId: _noStrategy, ...close } = fill(trigger, '20', '101', { time: T0 + 1_000, reduceOnly: true });
    gw.fills.push(close);
    om.attributeVenueFills(() => S1, 0);
    clock.advanceBy(2_000);
    expect(types(await om.reconcile([BTC_USDT]))).to.deep.equal(['VenueFill']);
    const again: string[] = [];
    for (let h = 1; h <= 7; h++) {
      clock.advanceBy(3_600_000);
      again.push(...types(await om.reconcile([BTC_USDT])));
    }
    expect(again).to.deep.equal([]);
  });

  it('keeps_the_trade_ids_the_overlap_of_the_next_fills_query_still_returns', async () => {
    // Two fills 30 s apart, then 7 quiet hours. The next query starts at the newest fill less the 60 s
    // overlap, so it still returns the older one: its trade id must outlive retainClosedMs too. (Kept
    // only back to the newest fill, it was booked again at every pass from hour 6 on: a funding-carry
    // backtest's perpetual leg, entered and rebalanced a minute apart, was re-booked for days.)
    const { clock, gw, om } = setup(CONTRACT_CAPS);
    const first = order({ symbol: BTC_USDT, side: 'sell', venueOrderId: orderId('V81') });
    const second = order({ symbol: BTC_USDT, side: 'sell', venueOrderId: orderId('V82') });
    const strip = (f: Fill): Fill => {
      const { clientOrderId: _c, strategyId: _s, ...rest } = f;
      return rest;
    };
    gw.fills.push(
      strip(fill(first, '500', '105512.6', { time: T0 + 1_000 })),
      strip(fill(second, '500', '105558.2', { time: T0 + 31_000 })),
    );
    om.attributeVenueFills(() => S1, 0);
    clock.advanceBy(32_000);
    expect(types(await om.reconcile([BTC_USDT]))).to.deep.equal(['VenueFill', 'VenueFill']);
    const again: string[] = [];
    for (let h = 1; h <= 7; h++) {
      clock.advanceBy(3_600_000);
      again.push(...types(await om.reconcile([BTC_USDT])));
    }
    expect(again).to.deep.equal([]);
  });

  it('adopts_an_order_of_ours_the_journal_lost', async () => {
    const { gw, om } = setup();
    const cid = encodeClientId('mm1', 'quote', T0 - 10, 0, 'b0');
    gw.addOrder({
      venueOrderId: orderId('V5'),
      clientOrderId: cid,
      symbol: BTCUSDT,
      kind: 'spot',
      side: 'buy',
      type: 'limit',
      timeInForce: 'gtc',
      price: D(99),
      quantity: D(1),
      status: 'accepted',
      filledQty: D(0),
    });
    gw.addOrder({
      venueOrderId: orderId('V6'),
      clientOrderId: 'web-order' as ClientOrderId,
      symbol: BTCUSDT,
      kind: 'spot',
      side: 'buy',
      type: 'limit',
      timeInForce: 'gtc',
      price: D(98),
      quantity: D(1),
      status: 'accepted',
      filledQty: D(0),
    });
    await om.restore();
    const events = await om.reconcile([BTCUSDT]);
    expect(types(events)).to.deep.equal(['OrderAdopted']);
    expect(om.order(cid)!.strategyId).to.equal(S1);
    expect(om.order('web-order')).to.equal(undefined);
  });

  it('closes_an_order_that_vanished_from_the_venue', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    gw.orders.delete(cid);
    const events = await om.reconcile([BTCUSDT]);
    expect(events).to.have.length(1);
    expect(events[0]).to.include({ type: 'OrderCancelled', reason: 'vanished' });
  });

  it('cancels_at_the_venue_an_order_it_had_closed_but_the_venue_still_rests', async () => {
    const { gw, om, intents } = setup();
    const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '0.5')));
    // our cancel was answered OK but the venue kept the order (a venue fault)
    const v = gw.orders.get(cid)!;
    await om.execute(intents.cancel(BTCUSDT, cid));
    gw.orders.set(cid, { ...v, status: 'accepted' });
    const events = await om.reconcile([BTCUSDT]);
    expect(types(events)).to.deep.equal(['OrderOrphaned']);
    expect(gw.orders.get(cid)!.status).to.equal('cancelled');
    expect(await om.reconcile([BTCUSDT])).to.deep.equal([]);
  });

  it('asks_the_gateway_on_every_pass_unless_given_the_venues_answers_at_hand_and_finds_the_same', async () => {
    // Paper and live (no readsAtHand) ask the venue for open orders and fills on every pass; a venue in
    // this process (a backtest's) answers at hand, read directly, and the pass finds the same events.
    const asked = setup();
    const atHand = setup();
    const { gw } = atHand;
    atHand.om.readsAtHand({
      balances: () => ({ kind: 'spot', balances: {}, time: 0 }),
      positions: () => [],
      openOrders: (symbol) =>
        [...gw.orders.values()].filter((v) => v.symbol === symbol && (v.status === 'accepted' || v.status === 'partially-filled')),
      fillsSince: (symbol, since) => gw.fills.filter((f) => f.symbol === symbol && f.time >= since),
    });
    const seen: string[][] = [];
    for (const { gw: venue, om, intents } of [asked, atHand]) {
      const cid = cidOf(await om.execute(intents.limit(BTCUSDT, 'buy', '100', '1')));
      venue.fill(cid, '0.4', '100', T0);
      const passes = [...types(await om.reconcile([BTCUSDT])), ...types(await om.reconcile([BTCUSDT]))];
      venue.fill(cid, '0.6', '100', T0 + 1);
      passes.push(...types(await om.reconcile([BTCUSDT])));
      expect(om.order(cid)!.status).to.equal('filled');
      seen.push(passes);
    }
    expect(seen[0]).to.deep.equal(['OrderPartiallyFilled', 'OrderFilled']);
    expect(seen[1]).to.deep.equal(seen[0]);
    expect([asked.gw.count('openOrders'), asked.gw.count('fillsSince')]).to.deep.equal([3, 3]);
    expect([atHand.gw.count('openOrders'), atHand.gw.count('fillsSince')]).to.deep.equal([0, 0]);
  });

  it('refuses_to_go_on_when_the_venue_at_hand_cannot_be_read', async () => {
    const { om } = setup();
    om.readsAtHand({
      balances: () => ({ kind: 'spot', balances: {}, time: 0 }),
      positions: () => [],
      openOrders: () => {
        throw new ExchangeUnavailable('503');
      },
      fillsSince: () => [],
    });
    let failed: unknown;
    await om.reconcile([BTCUSDT]).catch((e: unknown) => (failed = e));
    expect(failed).to.be.instanceOf(ExchangeUnavailable);
  });

  it('refuses_to_go_on_when_the_venue_cannot_be_read', async () => {
    const { gw, om } = setup();
    gw.script('openOrders', { kind: 'throw', error: new ExchangeUnavailable('503') });
    let failed = false;
    await om.reconcile([BTCUSDT]).catch(() => (failed = true));
    expect(failed).to.equal(true);
  });
});
