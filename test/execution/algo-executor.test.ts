/**
 * TWAP and iceberg parents carried out by the OrderManager on a virtual clock, over the scripted
 * FakeGateway (so outcomes can be lost and fills placed exactly), every child judged by the real
 * RiskEngine with the default rules against a hand-set state (spotState: 10 000 USDT unless a test
 * lowers it). Expected schedules and sizes are worked out by hand in each test.
 */
import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { D, type Decimal } from '../../src/core/decimal.js';
import type { ClientOrderId } from '../../src/core/ids.js';
import type { AlgoUpdated, ExecutionEvent } from '../../src/domain/execution-event.js';
import { InstrumentRegistry } from '../../src/domain/instrument-registry.js';
import { dueSlice, twapSchedule, twapTarget } from '../../src/domain/twap-schedule.js';
import { ClientIdCodec, childClientId, parentOfClientId } from '../../src/domain/client-id-codec.js';
import { MemoryOrderJournal } from '../../src/execution/order-journal.js';
import { OrderManager } from '../../src/execution/order-manager.js';
import type { PlaceRequest } from '../../src/execution/exchange-gateway.js';
import { RiskEngine } from '../../src/risk/risk-engine.js';
import { IntentFactory } from '../../src/strategy/intent-factory.js';
import { account, balance, BTCUSDT, S1, snapshot, spotInstrument } from '../domain/support/builders.js';
import { spotState } from '../risk/support.js';
import { FakeGateway, SPOT_CAPS } from './fake-gateway.js';

const T0 = 1_000_000;
const MIN = 60_000;

function setup(opts: { journal?: MemoryOrderJournal; gw?: FakeGateway; clock?: VirtualClock } = {}) {
  const clock = opts.clock ?? new VirtualClock(T0);
  const gw = opts.gw ?? new FakeGateway(SPOT_CAPS);
  const journal = opts.journal ?? new MemoryOrderJournal();
  const codec = new ClientIdCodec(clock);
  codec.register(S1, 'mm1');
  const inst = spotInstrument();
  const om = new OrderManager(gw, journal, clock, codec, new InstrumentRegistry([inst]), { unknownGraceMs: 60_000 });
  const intents = new IntentFactory(S1);
  const risk = new RiskEngine();
  const funds = { usdt: '100000' };
  const snap = () => snapshot(BTCUSDT, { bids: [['99.99', '50']], asks: [['100.01', '50']], last: '100', pollTime: clock.now() });
  // The runtime's gate does the same with its live state (intent-pipeline.ts gateChild).
  om.setAlgoGate((child) => {
    const d = risk.evaluate(
      child,
      inst,
      spotState({
        now: clock.now(),
        snapshot: snap(),
        account: account('spot', balance('USDT', funds.usdt), balance('BTC', '10')),
        openOrders: om.liveOrders(),
      }),
    );
    return d.approved ? { approved: true } : { approved: false, rule: d.denials[0]!.rule, reason: d.denials[0]!.reason };
  });
  const events: ExecutionEvent[] = [];
  om.events$.subscribe((e) => events.push(e));
  const tick = () => om.onSnapshot(snap());
  return { clock, gw, journal, om, intents, funds, events, tick };
}

/** An IOC matching engine: every IOC child fills `ratio` of its quantity at its own price, the rest expires. */
function fillIoc(gw: FakeGateway, clock: VirtualClock, ratio = D(1)): void {
  gw.afterAccept = (req: PlaceRequest) => {
    if (req.order.timeInForce !== 'ioc') return;
    const q = req.order.quantity!.mul(ratio);
    if (q.gt(0)) gw.fill(req.clientOrderId, q.toFixed(), req.order.price!.toFixed(), clock.now());
    gw.expire(req.clientOrderId);
  };
}

const placed = (gw: FakeGateway) => gw.calls.filter((c) => c.method === 'placeOrder').map((c) => c.arg as PlaceRequest);
const updates = (es: readonly ExecutionEvent[]) => es.filter((e): e is AlgoUpdated => e.type === 'AlgoUpdated');
const lastUpdate = (es: readonly ExecutionEvent[]) => updates(es).at(-1)!;
const sum = (xs: readonly Decimal[]) => xs.reduce((a, b) => a.plus(b), D(0));

describe('TWAP schedule (pure)', () => {
  it('ten_over_ten_minutes_in_five_slices_is_two_every_two_minutes', () => {
    const s = twapSchedule(10 * MIN, 5);
    expect(s).to.deep.equal({ count: 5, intervalMs: 2 * MIN });
    // slice k due at k·2 min; cumulative target 10·(k+1)/5 = 2, 4, 6, 8, 10
    expect([0, 1, 2, 3, 4].map((k) => twapTarget(s, k, D(10), D('0.001')).toFixed())).to.deep.equal(['2', '4', '6', '8', '10']);
    expect([0, 2 * MIN - 1, 2 * MIN, 8 * MIN, 9.9 * MIN].map((t) => dueSlice(s, 0, t))).to.deep.equal([0, 0, 1, 4, 4]);
  });

  it('an_interval_that_does_not_divide_the_duration_gives_a_shorter_last_slice_and_step_truncated_targets', () => {
    // 7 min every 3 min: slices at 0, 3, 6 → ⌈7/3⌉ = 3; 1 over 3 to step 0.01: 0.33, 0.66, then all of it.
    const s = twapSchedule(7 * MIN, undefined, 3 * MIN);
    expect(s).to.deep.equal({ count: 3, intervalMs: 3 * MIN });
    expect([0, 1, 2].map((k) => twapTarget(s, k, D(1), D('0.01')).toFixed())).to.deep.equal(['0.33', '0.66', '1']);
  });

  it('names_the_field_of_a_bad_schedule', () => {
    expect(() => twapSchedule(10 * MIN)).to.throw(/twap\.slices.*exactly one/);
    expect(() => twapSchedule(0, 5)).to.throw(/twap\.durationMs/);
    expect(() => twapSchedule(10 * MIN, 0)).to.throw(/twap\.slices/);
  });
});

describe('client ids of an execution algorithm', () => {
  it('derives_each_child_id_from_the_parent_and_back', () => {
    const codec = new ClientIdCodec(new VirtualClock(T0));
    codec.register(S1, 'mm1');
    const parent = codec.next(S1, 'twap');
    expect(parent).to.match(/^ppmm1_t_/);
    const c1 = childClientId(parent, 1);
    const c37 = childClientId(parent, 37);
    expect(c1).to.match(/^ppmm1_t1_/);
    // 37 in base 36 is "11"
    expect(c37).to.match(/^ppmm1_t11_/);
    expect(parentOfClientId(c37)).to.deep.equal({ parentId: parent, child: 37 });
    expect(parentOfClientId(parent)).to.equal(undefined);
    expect(codec.strategyOf(c1)).to.equal(S1);
    expect(() => childClientId(codec.next(S1, 'place'), 1)).to.throw(/parentId/);
  });
});

describe('TWAP executed by the order manager', () => {
  it('sends_two_btc_at_0_2_4_6_8_minutes_as_ioc_children_and_completes', async () => {
    const { clock, gw, om, intents, events, tick } = setup();
    await tick();
    fillIoc(gw, clock);
    const at: string[] = [];
    gw.onPlace = (r) =>
      at.push(`${(clock.now() - T0) / MIN}m ${r.order.quantity!.toFixed()} ${r.order.timeInForce} @ ${r.order.price!.toFixed()}`);
    const intent = intents.twap(BTCUSDT, 'buy', 10, { durationMs: 10 * MIN, slices: 5 });
    await om.execute(intent);
    // Snapshots every 30 s for 10 minutes: a slice goes out at the first snapshot at or after its time.
    for (let t = 30_000; t <= 10 * MIN; t += 30_000) {
      clock.advanceTo(T0 + t);
      await tick();
    }
    // IOC at the far touch (ask 100.01, no deviation asked), 2 each: cumulative targets 2, 4, 6, 8, 10.
    expect(at).to.deep.equal(['0m 2 ioc @ 100.01', '2m 2 ioc @ 100.01', '4m 2 ioc @ 100.01', '6m 2 ioc @ 100.01', '8m 2 ioc @ 100.01']);
    const done = lastUpdate(events).parent;
    expect(done.state).to.equal('completed');
    expect(done.filledQty.toFixed()).to.equal('10');
    expect(done.avgPrice!.toFixed()).to.equal('100.01');
    expect(done.remaining.toFixed()).to.equal('0');
    expect(done.children).to.equal(5);
    expect(done.intentId).to.equal(intent.intentId);
    // Completed at the last child (8 min), not at the end of the duration.
    expect(done.updatedAt).to.equal(T0 + 8 * MIN);
    // Every child carries an id derived from the parent.
    for (const r of placed(gw)) expect(parentOfClientId(r.clientOrderId)?.parentId).to.equal(done.parentId);
    expect(om.algoOrders({ strategyId: S1 })[0]!.state).to.equal('completed');
  });

  it('catches_up_a_short_slice_in_the_next_one_and_expires_with_the_rest_reported', async () => {
    const { clock, gw, om, intents, events, tick } = setup();
    await tick();
    // Each IOC child fills half: 10 over 5 slices → child = target − filled:
    //   t0: 2 (fills 1) · t2: 4−1 = 3 (fills 1.5) · t4: 6−2.5 = 3.5 (1.75) · t6: 8−4.25 = 3.75 (1.875)
    //   t8: 10−6.125 = 3.875 (1.9375) → filled 8.0625, 1.9375 left when the 10 minutes end.
    fillIoc(gw, clock, D('0.5'));
    await om.execute(intents.twap(BTCUSDT, 'buy', 10, { durationMs: 10 * MIN, slices: 5 }));
    for (let t = MIN; t <= 10 * MIN; t += MIN) {
      clock.advanceTo(T0 + t);
      await tick();
    }
    expect(placed(gw).map((r) => r.order.quantity!.toFixed())).to.deep.equal(['2', '3', '3.5', '3.75', '3.875']);
    const end = lastUpdate(events).parent;
    expect(end.state).to.equal('expired');
    expect(end.filledQty.toFixed()).to.equal('8.0625');
    expect(end.remaining.toFixed()).to.equal('1.9375');
    expect(end.inFlight.toFixed()).to.equal('0');
  });

  it('passive_children_are_re_priced_each_slice_and_never_overfill_when_the_venue_filled_more_than_we_knew', async () => {
    const { clock, gw, om, intents, events, tick } = setup();
    await tick();
    await om.execute(intents.twap(BTCUSDT, 'buy', 4, { durationMs: 4 * MIN, slices: 2, childType: 'passive', limitPrice: '100' }));
    // Child 1: 2 resting at the bid 99.99 (below the 100 cap).
    const [c1] = placed(gw);
    expect(`${c1!.order.quantity!.toFixed()} ${c1!.order.timeInForce} @ ${c1!.order.price!.toFixed()}`).to.equal('2 gtc @ 99.99');
    // The venue fills 1.5 of it; the bot has not heard (no reconcile yet).
    gw.fill(c1!.clientOrderId, '1.5', '99.99', T0 + MIN);
    clock.advanceTo(T0 + 2 * MIN);
    await tick();
    // Slice 2: cancel first; the cancel answer says 1.5 filled, so the new child is 4 − 1.5 = 2.5, not 4 − 0 − 0 = 4.
    const [, c2] = placed(gw);
    expect(gw.orders.get(c1!.clientOrderId)!.status).to.equal('cancelled');
    expect(c2!.order.quantity!.toFixed()).to.equal('2.5');
    gw.fill(c2!.clientOrderId, '2.5', '99.99', T0 + 3 * MIN);
    clock.advanceTo(T0 + 4 * MIN);
    await tick();
    // At the end the resting child is cancelled; its answer shows it filled: complete, exactly 4.
    const end = lastUpdate(events).parent;
    expect(end.state).to.equal('completed');
    expect(end.filledQty.toFixed()).to.equal('4');
    expect(placed(gw)).to.have.length(2);
  });

  it('resolves_a_lost_placement_before_sizing_the_next_child', async () => {
    const { clock, gw, om, intents, events, tick } = setup();
    await tick();
    fillIoc(gw, clock);
    // 4 over 2 min in 4 slices: targets 1, 2, 3, 4 at 0, 30, 60, 90 s. The first child's request never
    // reaches the venue and the answer is lost: outcome unknown.
    gw.script('placeOrder', { kind: 'lost' });
    await om.execute(intents.twap(BTCUSDT, 'buy', 4, { durationMs: 2 * MIN, slices: 4 }));
    const first = placed(gw)[0]!.clientOrderId;
    expect(om.unresolved()).to.deep.equal([first]);
    expect(lastUpdate(events).parent.inFlight.toFixed()).to.equal('1');
    // Slice 2 is due, but child 1 may still arrive (60 s grace): it is asked about, and nothing is sent
    // while it stays unknown (sending 2 − 0 − 0 could buy 3 if child 1 then arrived).
    clock.advanceTo(T0 + 30_000);
    const queries = gw.count('queryOrder');
    await tick();
    expect(gw.count('queryOrder')).to.be.greaterThan(queries);
    expect(placed(gw)).to.have.length(1);
    // Past the grace the venue still has no such order: child 1 is rejected (reported), slice 3 sends 3 − 0.
    clock.advanceTo(T0 + 61_000);
    await tick();
    expect(om.unresolved()).to.deep.equal([]);
    clock.advanceTo(T0 + 90_000);
    await tick();
    expect(placed(gw).map((r) => r.order.quantity!.toFixed())).to.deep.equal(['1', '3', '1']);
    expect(updates(events).some((u) => /child denied \(venue\): child .* rejected by the venue/.test(u.change))).to.equal(true);
    expect(lastUpdate(events).parent).to.include({ state: 'completed', denials: 1 });
    expect(lastUpdate(events).parent.filledQty.toFixed()).to.equal('4');
  });

  it('a_child_risk_denies_is_reported_the_quantity_kept_and_three_in_a_row_stop_the_parent', async () => {
    const { clock, gw, om, intents, events, funds, tick } = setup();
    await tick();
    fillIoc(gw, clock);
    await om.execute(intents.twap(BTCUSDT, 'buy', 10, { durationMs: 10 * MIN, slices: 5 }));
    // 2 filled. Now 150 USDT free: the next child (2 × 100.01 = 200.02 USDT) is denied by free-balance.
    funds.usdt = '150';
    clock.advanceTo(T0 + 2 * MIN);
    await tick();
    const denied = lastUpdate(events);
    expect(denied.change).to.match(/^child denied \(free-balance\)/);
    expect(denied.parent).to.include({ state: 'working', denials: 1 });
    expect(denied.parent.remaining.toFixed()).to.equal('8');
    // Money back: the next slice catches up the denied one (6 − 2 = 4).
    funds.usdt = '100000';
    clock.advanceTo(T0 + 4 * MIN);
    await tick();
    expect(placed(gw).map((r) => r.order.quantity!.toFixed())).to.deep.equal(['2', '4']);
    // Denied again at 6 and 8 min: the TWAP ends at 10 min with what it did and what it did not.
    funds.usdt = '1';
    for (const t of [6, 8, 10]) {
      clock.advanceTo(T0 + t * MIN);
      await tick();
    }
    const end = lastUpdate(events).parent;
    expect(end).to.include({ state: 'expired', denials: 3, children: 2 });
    expect(end.filledQty.toFixed()).to.equal('6');
    expect(end.remaining.toFixed()).to.equal('4');
  });
});

describe('iceberg executed by the order manager', () => {
  it('shows_0_3_then_0_3_0_3_0_1_each_placed_when_the_previous_filled', async () => {
    const { clock, gw, om, intents, events, tick } = setup();
    await tick();
    await om.execute(intents.iceberg(BTCUSDT, 'sell', '1.0', '0.3', '100.5'));
    for (let n = 1; n <= 4; n++) {
      const child = placed(gw)[n - 1]!;
      // Nothing new while the visible child rests.
      clock.advanceBy(1_000);
      await tick();
      expect(placed(gw)).to.have.length(n);
      gw.fill(child.clientOrderId, child.order.quantity!.toFixed(), '100.5', clock.now());
      await om.reconcile([BTCUSDT]);
      await tick();
    }
    // 1.0 shown 0.3 at a time: 0.3, 0.3, 0.3, then the 0.1 left.
    expect(placed(gw).map((r) => `${r.order.side} ${r.order.quantity!.toFixed()} @ ${r.order.price!.toFixed()}`)).to.deep.equal([
      'sell 0.3 @ 100.5',
      'sell 0.3 @ 100.5',
      'sell 0.3 @ 100.5',
      'sell 0.1 @ 100.5',
    ]);
    expect(lastUpdate(events).parent).to.include({ state: 'completed', children: 4 });
    expect(lastUpdate(events).parent.filledQty.toFixed()).to.equal('1');
  });

  it('draws_randomised_visible_sizes_from_the_seed_within_the_bounds_and_replays_them', async () => {
    const run = async (seed: number) => {
      const { clock, gw, om, intents, tick } = setup();
      await tick();
      await om.execute(intents.iceberg(BTCUSDT, 'buy', '2', '0.3', '99', { visibleVariance: '0.5', seed }));
      for (let n = 0; n < 40 && om.algoOrders()[0]!.state === 'working'; n++) {
        const child = placed(gw).at(-1)!;
        gw.fill(child.clientOrderId, child.order.quantity!.toFixed(), '99', clock.now());
        await om.reconcile([BTCUSDT]);
        clock.advanceBy(1_000);
        await tick();
      }
      return placed(gw).map((r) => r.order.quantity!);
    };
    const a = await run(7);
    expect((await run(7)).map((x) => x.toFixed())).to.deep.equal(a.map((x) => x.toFixed()));
    expect((await run(8)).map((x) => x.toFixed())).to.not.deep.equal(a.map((x) => x.toFixed()));
    // visible 0.3 ± 50 %: every child but the last in [0.15, 0.45]; together exactly 2.
    for (const q of a.slice(0, -1)) expect(q.gte('0.15') && q.lte('0.45'), q.toFixed()).to.equal(true);
    expect(sum(a).toFixed()).to.equal('2');
  });

  it('stops_after_three_denials_in_a_row_one_second_apart', async () => {
    const { clock, gw, om, intents, events, funds, tick } = setup();
    await tick();
    funds.usdt = '10';
    // 0.3 × 99 = 29.7 USDT to hold: free-balance denies; retried after 1 s, stopped at the third.
    await om.execute(intents.iceberg(BTCUSDT, 'buy', '1', '0.3', '99'));
    for (let i = 0; i < 5; i++) {
      clock.advanceBy(500);
      await tick();
    }
    const end = lastUpdate(events).parent;
    expect(placed(gw)).to.have.length(0);
    expect(end).to.include({ state: 'stopped', denials: 3, children: 0 });
    expect(end.reason).to.match(/3 children denied in a row; last: free-balance/);
    expect(end.remaining.toFixed()).to.equal('1');
    expect(updates(events).map((u) => u.ts - T0)).to.deep.equal([0, 0, 1_000, 2_000]);
  });
});

describe('cancelling an execution algorithm', () => {
  it('strategy_cancel_and_cancel_all_cancel_the_resting_child_and_stop_slicing', async () => {
    const { clock, gw, om, intents, events, tick } = setup();
    await tick();
    await om.execute(intents.twap(BTCUSDT, 'buy', 4, { durationMs: 4 * MIN, slices: 2, childType: 'passive' }));
    await om.execute(intents.iceberg(BTCUSDT, 'buy', 1, '0.5', '99'));
    const [twap, ice] = om.algoOrders();
    gw.fill(placed(gw)[0]!.clientOrderId, '0.5', '99.99', clock.now());
    await om.execute(intents.cancelAlgo(BTCUSDT, twap!.parentId));
    expect(gw.orders.get(placed(gw)[0]!.clientOrderId)!.status).to.equal('cancelled');
    const t = om.algoOrders().find((p) => p.parentId === twap!.parentId)!;
    expect(t).to.include({ state: 'cancelled', reason: 'cancelled by the strategy' });
    // The cancel answer settled what the child did.
    expect(t.filledQty.toFixed()).to.equal('0.5');
    expect(t.remaining.toFixed()).to.equal('3.5');
    // cancel-all of the strategy (runtime stop, kill switch, operator) stops the iceberg too.
    await om.execute(intents.cancelAll(undefined, 'strategy'));
    expect(om.algoOrders().find((p) => p.parentId === ice!.parentId)!.state).to.equal('cancelled');
    expect([...gw.orders.values()].filter((v) => v.status === 'accepted')).to.deep.equal([]);
    const n = placed(gw).length;
    clock.advanceBy(2 * MIN);
    await tick();
    expect(placed(gw)).to.have.length(n);
    // A second cancel of a finished parent fails loudly.
    await om.execute(intents.cancelAlgo(BTCUSDT, twap!.parentId));
    expect(events.at(-1)!.type).to.equal('IntentFailed');
  });

  it('a_desired_quotes_set_of_the_same_strategy_leaves_the_algorithms_child_alone', async () => {
    const { gw, om, intents, tick } = setup();
    await tick();
    await om.execute(intents.iceberg(BTCUSDT, 'buy', 1, '0.5', '99'));
    const child = placed(gw)[0]!.clientOrderId;
    // The strategy also quotes the symbol; its quote set does not name the child (it is no quote), yet
    // the child must keep resting: it belongs to the iceberg.
    await om.execute(intents.quotes(BTCUSDT, [{ slot: 'a0', side: 'sell', price: '101', quantity: '0.1' }]));
    await om.execute(intents.quotes(BTCUSDT, []));
    expect(gw.orders.get(child)!.status).to.equal('accepted');
    expect(om.algoOrders()[0]!.state).to.equal('working');
  });

  it('a_restart_cancels_a_working_parent_and_counts_the_fills_the_venue_made_while_down', async () => {
    const journal = new MemoryOrderJournal();
    const gw = new FakeGateway(SPOT_CAPS);
    const clock = new VirtualClock(T0);
    const a = setup({ journal, gw, clock });
    await a.tick();
    await a.om.execute(a.intents.twap(BTCUSDT, 'sell', 3, { durationMs: 3 * MIN, slices: 3, childType: 'passive' }));
    const parentId = a.om.algoOrders()[0]!.parentId;
    const child = placed(gw)[0]!.clientOrderId as ClientOrderId;
    // The process dies; meanwhile the venue fills 0.4 of the resting child (1 @ the ask 100.01).
    gw.fill(child, '0.4', '100.01', T0 + 30_000);
    clock.advanceTo(T0 + 5 * MIN);
    const b = setup({ journal, gw, clock });
    await b.om.restore();
    expect(b.om.algoOrders()[0]).to.include({ parentId, state: 'working' });
    await b.om.reconcile([BTCUSDT]);
    const p = b.om.algoOrders()[0]!;
    expect(p).to.include({ parentId, state: 'cancelled' });
    expect(p.reason).to.match(/^restart/);
    // Truth from the venue: 0.4 filled (not the 0 the journal had), 2.6 left, the child cancelled there.
    expect(p.filledQty.toFixed()).to.equal('0.4');
    expect(p.remaining.toFixed()).to.equal('2.6');
    expect(gw.orders.get(child)!.status).to.equal('cancelled');
    // Journaled: a third start finds nothing working.
    expect(journal.restore().algoParents).to.equal(undefined);
  });
});
