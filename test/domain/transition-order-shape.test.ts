import { expect } from 'chai';
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { D, ZERO } from '../../src/core/decimal.js';
import {
  applyFillToOrder,
  createOrder,
  isTerminal,
  type NewOrderMeta,
  type Order,
  type OrderSpec,
  ORDER_TRANSITIONS,
  type OrderStatus,
  transitionOrder,
  withKey,
} from '../../src/domain/order.js';
import { clientOrderId } from '../../src/core/ids.js';
import { BTC_USDT, order, S1 } from '../domain/support/builders.js';

/**
 * transitionOrder() builds the order entering a pending state without `{ ...next, statusBeforePending }`
 * (V8's slow path in Node 20). Journals and pinned-run hashes serialise orders, so the result must
 * have the same keys in the same order with the same values as before. The reference is the earlier
 * code, written out here; it runs over every allowed transition from orders with and without each
 * optional key the function reads or writes.
 */
function transitionBefore(order: Order, to: OrderStatus, now: number, patch: Partial<Order> = {}): Order {
  const enteringPending = (to === 'pending-cancel' || to === 'pending-amend') && order.status !== to;
  const leavingPending = (order.status === 'pending-cancel' || order.status === 'pending-amend') && to !== order.status;
  const next: Order = {
    ...order,
    ...patch,
    status: to,
    updatedAt: now,
    ...(to === 'submitted' ? { submittedAt: now } : {}),
    ...(to === 'accepted' && order.acceptedAt === undefined ? { acceptedAt: now } : {}),
    ...(isTerminal(to) ? { closedAt: now } : {}),
  };
  if (enteringPending)
    return {
      ...next,
      statusBeforePending: order.status === 'pending-amend' || order.status === 'pending-cancel' ? order.statusBeforePending : order.status,
    };
  if (leavingPending) {
    const { statusBeforePending: _drop, ...rest } = next;
    return rest;
  }
  return next;
}

describe('transitionOrder keeps the shape of the order it makes', () => {
  const statuses = Object.keys(ORDER_TRANSITIONS) as OrderStatus[];
  const pairs = statuses.flatMap((from) => ORDER_TRANSITIONS[from].map((to) => [from, to] as const));

  it('gives_the_same_keys_in_the_same_order_and_the_same_values_as_the_spread_it_replaces', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.record({
          acceptedAt: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
          venueOrderId: fc.boolean(),
          slot: fc.boolean(),
          // statusBeforePending absent, present before other optional keys, or present with the value undefined
          before: fc.constantFrom('absent', 'early', 'undefined'),
          patch: fc.constantFrom('none', 'amend', 'reject', 'fill'),
          closedAt: fc.boolean(),
          submittedAt: fc.boolean(),
        }),
        ([from, to], k) => {
          const over: Record<string, unknown> = { symbol: BTC_USDT, status: from };
          if (k.before === 'early') over['statusBeforePending'] = 'accepted';
          if (k.before === 'undefined') over['statusBeforePending'] = undefined;
          if (k.acceptedAt !== undefined) over['acceptedAt'] = k.acceptedAt;
          if (k.venueOrderId) over['venueOrderId'] = 'v1';
          if (k.slot) over['slot'] = 'b0';
          if (!k.submittedAt) over['submittedAt'] = undefined;
          if (k.closedAt) over['closedAt'] = 7;
          const o = order(over as Partial<Order>);
          const patch: Partial<Order> | undefined =
            k.patch === 'amend'
              ? { price: D('101.5'), quantity: D('3'), venueOrderId: 'v2' as Order['venueOrderId'] }
              : k.patch === 'reject'
                ? { rejectReason: 'no' }
                : k.patch === 'fill'
                  ? { filledQty: D('1'), filledNotional: D('100'), avgFillPrice: D('100'), fees: { USDT: D('0.01') } }
                  : undefined;
          const got = transitionOrder(o, to, 42, patch);
          const want = transitionBefore(o, to, 42, patch);
          expect(Object.keys(got), `${from} → ${to}`).to.deep.equal(Object.keys(want));
          for (const key of Object.keys(want)) expect((got as never)[key], key).to.equal((want as never)[key]);
          expect(JSON.stringify(got)).to.equal(JSON.stringify(want));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('copies_every_key_of_an_order_in_its_own_order_whatever_keys_it_has', () => {
    // transitionOrder copies the order key by key (named stores per Order key, a computed store for any
    // other): every Order key, present or not, in any order, with a key Order does not name among them.
    const optional = [
      'quoteQuantity',
      'reduceOnly',
      'positionSide',
      'leverage',
      'marginMode',
      'takeProfitPrice',
      'stopLossPrice',
      'triggerPriceType',
      'venueOrderId',
      'intentId',
      'slot',
      'avgFillPrice',
      'submittedAt',
      'acceptedAt',
      'closedAt',
      'rejectReason',
      'replacesClientOrderId',
      'replacedByClientOrderId',
      'statusBeforePending',
      'notAnOrderKey',
    ];
    const required = [
      'symbol',
      'kind',
      'side',
      'type',
      'timeInForce',
      'price',
      'quantity',
      'clientOrderId',
      'strategyId',
      'status',
      'filledQty',
      'filledNotional',
      'fees',
      'createdAt',
      'updatedAt',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.shuffledSubarray(optional),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom('none', 'amend', 'fill'),
        ([from, to], present, seed, patchKind) => {
          // Required keys first in a seeded order, the present optional ones shuffled in among them.
          const keys = [...required];
          let r = seed;
          for (const k of present) {
            r = (r * 1103515245 + 12345) % 2147483648;
            keys.splice(r % (keys.length + 1), 0, k);
          }
          const base = order({ symbol: BTC_USDT, status: from, intentId: 'i1', slot: 'b0', venueOrderId: 'v1' } as Partial<Order>);
          const o: Record<string, unknown> = {};
          for (const k of keys) o[k] = k in base ? (base as never)[k] : k === 'statusBeforePending' ? 'accepted' : `value-of-${k}`;
          o['status'] = from;
          const patch: Partial<Order> | undefined =
            patchKind === 'amend'
              ? { price: D('101.5'), quantity: D('3'), venueOrderId: 'v2' as Order['venueOrderId'] }
              : patchKind === 'fill'
                ? { filledQty: D('1'), filledNotional: D('100'), avgFillPrice: D('100'), fees: { USDT: D('0.01') } }
                : undefined;
          const got = transitionOrder(o as unknown as Order, to, 42, patch);
          const want = transitionBefore(o as unknown as Order, to, 42, patch);
          expect(Object.keys(got), `${from} → ${to}`).to.deep.equal(Object.keys(want));
          for (const key of Object.keys(want)) expect((got as never)[key], key).to.equal((want as never)[key]);
          expect(JSON.stringify(got)).to.equal(JSON.stringify(want));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('withKey_gives_the_keys_values_and_order_of_the_spread_it_replaces', () => {
    // The reference is the spread itself, `{ ...o, [key]: value }`, over orders with and without each key set.
    const keys = ['venueOrderId', 'replacedByClientOrderId', 'statusBeforePending', 'slot', 'price'] as const;
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.subarray([...keys]), fc.option(fc.string(), { nil: undefined }), (key, present, value) => {
        const over: Record<string, unknown> = { symbol: BTC_USDT };
        for (const k of present) over[k] = k === 'price' ? D('100') : `was-${k}`;
        const o = order(over as Partial<Order>);
        const v = (key === 'price' ? (value === undefined ? undefined : D('101')) : value) as never;
        const got = withKey(o, key, v);
        const want = { ...o, [key]: v };
        expect(Object.keys(got)).to.deep.equal(Object.keys(want));
        for (const k of Object.keys(want)) expect((got as never)[k], k).to.equal((want as never)[k]);
        expect(got).to.not.equal(o);
      }),
      { numRuns: 1000 },
    );
  });

  it('createOrder_gives_the_keys_values_and_order_of_the_spread_it_replaces', () => {
    // The reference is the earlier literal. Specs with any of their optional keys in any order, plus keys a
    // spec does not name (an Order key the literal then overwrites in place, and a key Order does not name).
    const before = (spec: OrderSpec, meta: NewOrderMeta): Order => ({
      ...spec,
      clientOrderId: meta.clientOrderId,
      strategyId: meta.strategyId,
      ...(meta.intentId !== undefined ? { intentId: meta.intentId } : {}),
      ...(meta.slot !== undefined ? { slot: meta.slot } : {}),
      ...(meta.replacesClientOrderId !== undefined ? { replacesClientOrderId: meta.replacesClientOrderId } : {}),
      status: 'initialized',
      filledQty: ZERO,
      filledNotional: ZERO,
      fees: {},
      createdAt: meta.now,
      updatedAt: meta.now,
    });
    const values: Record<string, unknown> = {
      symbol: BTC_USDT,
      kind: 'contract',
      side: 'sell',
      type: 'limit',
      timeInForce: 'post-only',
      price: D('60000.1'),
      quantity: D(3),
      reduceOnly: true,
      positionSide: 'short',
      leverage: 20,
      marginMode: 'isolated',
      takeProfitPrice: D(50000),
      stopLossPrice: D(70000),
      triggerPriceType: 'mark',
      slot: 'spec-slot',
      status: 'accepted',
      notAnOrderKey: 'x',
    };
    fc.assert(
      fc.property(
        fc.shuffledSubarray(Object.keys(values).slice(7)),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.record({ intentId: fc.boolean(), slot: fc.boolean(), replaces: fc.boolean() }),
        (present, seed, m) => {
          const keys = Object.keys(values).slice(0, 7);
          let r = seed;
          for (const k of present) {
            r = (r * 1103515245 + 12345) % 2147483648;
            keys.splice(r % (keys.length + 1), 0, k);
          }
          const spec: Record<string, unknown> = {};
          for (const k of keys) spec[k] = values[k];
          const meta: NewOrderMeta = {
            clientOrderId: clientOrderId('c1'),
            strategyId: S1,
            now: 9,
            ...(m.intentId ? { intentId: 'i1' } : {}),
            ...(m.slot ? { slot: 'b0' } : {}),
            ...(m.replaces ? { replacesClientOrderId: clientOrderId('c0') } : {}),
          };
          const got = createOrder(spec as unknown as OrderSpec, meta);
          const want = before(spec as unknown as OrderSpec, meta);
          expect(Object.keys(got)).to.deep.equal(Object.keys(want));
          for (const k of Object.keys(want)) expect((got as never)[k], k).to.deep.equal((want as never)[k]);
          expect(JSON.stringify(got)).to.equal(JSON.stringify(want));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps_an_order_in_fast_properties_through_its_life', () => {
    // V8 makes an object a dictionary once a computed-key store adds its 17th property or a key other
    // than the last is deleted; such an order cost ~10 µs to copy at every later event (an accepted
    // order, copied key by key, was one). %HasFastProperties is V8's own answer, enabled for this check.
    setFlagsFromString('--allow-natives-syntax');
    // oxlint-disable-next-line typescript/no-implied-eval -- the only way to reach a V8 intrinsic from a test
    const fast = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
    const spec = {
      symbol: BTC_USDT,
      kind: 'contract',
      side: 'buy',
      type: 'limit',
      timeInForce: 'gtc',
      price: D('60000.1'),
      quantity: D(10),
    };
    let o = createOrder({ ...spec, leverage: 10 } as never, {
      clientOrderId: clientOrderId('f1'),
      strategyId: S1,
      now: 1,
      intentId: 'mm1:1',
      slot: 'b0',
    });
    const steps: [OrderStatus, Partial<Order>?][] = [
      ['submitted'],
      ['accepted', { venueOrderId: 'v1' as Order['venueOrderId'] }],
      ['pending-amend'],
      ['accepted', { price: D('60000.2'), quantity: D(10), venueOrderId: 'v1' as Order['venueOrderId'] }],
      ['pending-cancel'],
      ['accepted'],
      ['pending-amend'],
    ];
    for (const [to, patch] of steps) {
      o = transitionOrder(o, to, 2, patch);
      expect(fast(o), `after ${to}`).to.equal(true);
    }
    o = applyFillToOrder(o, { price: D('60000.2'), quantity: D(4), fee: D('0.1'), feeAsset: 'USDT' }, 3);
    expect(fast(o), 'after a fill while pending').to.equal(true);
    o = transitionOrder(o, 'partially-filled', 4);
    expect(fast(o), 'after leaving the pending state with a key added after it').to.equal(true);
    expect(fast(withKey(o, 'replacedByClientOrderId', clientOrderId('f2'))), 'withKey').to.equal(true);
  });
});
