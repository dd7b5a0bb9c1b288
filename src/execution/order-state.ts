/**
 * The order manager's local book of orders as a pure reducer over execution events. Both the live
 * order manager and the tests (reconcile idempotence) apply events through this one function, so
 * "what an event means" is written once.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import { eventClientOrderId, type ExecutionEvent } from '../domain/execution-event.js';
import type { Fill } from '../domain/fill.js';
import { applyFillToOrder, isLive, isTerminal, type Order, type OrderStatus, transitionOrder, withKey } from '../domain/order.js';

export interface LocalOrderState {
  /** Keyed by client order id. */
  readonly orders: ReadonlyMap<string, Order>;
  readonly seenTradeIds: ReadonlySet<string>;
}

const NO_ORDERS: readonly Order[] = Object.freeze([]);

export const emptyOrderState = (): LocalOrderState => ({ orders: new Map(), seenTradeIds: new Set() });

export function orderStateOf(orders: readonly Order[], seenTradeIds: Iterable<string> = []): LocalOrderState {
  return { orders: new Map(orders.map((o) => [o.clientOrderId, o])), seenTradeIds: new Set(seenTradeIds) };
}

/** Applies a batch of events in order. */
export function applyOrderEvents(state: LocalOrderState, events: readonly ExecutionEvent[]): LocalOrderState {
  let s = state;
  for (const e of events) s = applyOrderEvent(s, e);
  return s;
}

/**
 * One event's effect. Late and repeated news is absorbed (an ack after the cancel, a second
 * cancel confirmation, a fill already seen); a move the transition table forbids throws.
 */
export function applyOrderEvent(state: LocalOrderState, e: ExecutionEvent): LocalOrderState {
  const fill = fillOf(e);
  if (fill && state.seenTradeIds.has(fill.tradeId)) return state;
  const cid = eventClientOrderId(e);
  const before = cid === undefined ? undefined : state.orders.get(cid);
  const after = cid === undefined ? undefined : reduceOrder(before, e);
  if (!fill && after === before) return state;
  const orders = after === before ? state.orders : new Map(state.orders).set(cid!, after!);
  const seenTradeIds = fill ? new Set(state.seenTradeIds).add(fill.tradeId) : state.seenTradeIds;
  return { orders, seenTradeIds };
}

/** The fill an event carries, if any (the key for dedupe by trade id). */
export function fillOf(e: ExecutionEvent): Fill | undefined {
  return e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled' || e.type === 'VenueFill' ? e.fill : undefined;
}

/**
 * The order after one event (same object when nothing changes; undefined stays undefined unless the
 * event creates the order). The caller dedupes fills by trade id before calling.
 */
export function reduceOrder(o: Order | undefined, e: ExecutionEvent): Order | undefined {
  if (e.type === 'OrderSubmitted') return o ?? (e.order.status === 'initialized' ? transitionOrder(e.order, 'submitted', e.ts) : e.order);
  if (e.type === 'OrderAdopted') return o ?? e.order;
  if (!o) return o;
  switch (e.type) {
    case 'OrderAccepted':
      if (o.status === 'submitted') return transitionOrder(o, 'accepted', e.ts, { venueOrderId: e.venueOrderId });
      return o.venueOrderId === e.venueOrderId ? o : withKey(o, 'venueOrderId', e.venueOrderId);
    case 'OrderRejected':
      return isTerminal(o.status) ? o : transitionOrder(o, 'rejected', e.ts, { rejectReason: e.reason });
    case 'OrderPartiallyFilled':
    case 'OrderFilled':
      return orderWithFill(o, e.fill, e.ts, e.type === 'OrderFilled');
    case 'OrderCancelRequested':
      return isLive(o.status) && o.status !== 'pending-cancel' ? transitionOrder(o, 'pending-cancel', e.ts) : o;
    case 'OrderCancelled':
      return isTerminal(o.status) ? o : transitionOrder(o, 'cancelled', e.ts);
    case 'OrderExpired':
      return isTerminal(o.status) ? o : transitionOrder(o, 'expired', e.ts);
    case 'OrderCancelRejected':
      return o.status === 'pending-cancel' ? transitionOrder(o, restingStatus(o), e.ts) : o;
    case 'OrderAmendRequested':
      return o.status === 'accepted' || o.status === 'partially-filled' ? transitionOrder(o, 'pending-amend', e.ts) : o;
    case 'OrderAmended': {
      if (isTerminal(o.status)) return o;
      // Assigned, not spread in: conditional spreads take V8's slow path (one per amend).
      const patch: { -readonly [K in keyof Order]?: Order[K] } = {};
      if (e.price) patch.price = e.price;
      if (e.quantity) patch.quantity = e.quantity;
      if (e.venueOrderId) patch.venueOrderId = e.venueOrderId;
      // A pending cancel outranks the amend news: the order is still on its way out.
      const to: OrderStatus = o.status === 'pending-cancel' ? 'pending-cancel' : o.status === 'submitted' ? 'accepted' : restingStatus(o);
      return transitionOrder(o, to, e.ts, patch);
    }
    case 'OrderAmendRejected':
      return o.status === 'pending-amend' ? transitionOrder(o, restingStatus(o), e.ts) : o;
    case 'OrderReplaced':
      return o.replacedByClientOrderId === e.newClientOrderId ? o : withKey(o, 'replacedByClientOrderId', e.newClientOrderId);
    default:
      return o;
  }
}

/** Where an order returns when a pending amend / cancel ends without closing it. */
function restingStatus(o: Order): OrderStatus {
  // A positive filled quantity, read from the sign and the first digit word (isZero) rather than by gt(ZERO):
  // asked at the end of every amend, and the comparison's `instanceof Decimal` is V8's generic one there.
  if (isPositiveQty(o.filledQty)) return 'partially-filled';
  // Never acknowledged (no venue id): a refused cancel proves nothing about whether it exists.
  return o.statusBeforePending === 'submitted' && !o.venueOrderId ? 'submitted' : 'accepted';
}

/** `d > 0` (false for NaN, zero and negative values, as gt(ZERO) is). */
const isPositiveQty = (d: Decimal): boolean => d.isPositive() && !d.isZero();

function orderWithFill(o: Order, fill: Fill, ts: number, complete: boolean): Order {
  if (isTerminal(o.status)) {
    // A fill that happened before the close but is learned after it: count it, keep the status.
    const filledQty = o.filledQty.plus(fill.quantity);
    const filledNotional = o.filledNotional.plus(fill.price.mul(fill.quantity));
    return {
      ...o,
      filledQty,
      filledNotional,
      avgFillPrice: filledNotional.div(filledQty),
      fees: { ...o.fees, [fill.feeAsset]: (o.fees[fill.feeAsset] ?? ZERO).plus(fill.fee) },
      updatedAt: ts,
    };
  }
  const base = o.status === 'initialized' ? transitionOrder(o, 'submitted', ts) : o;
  const next = applyFillToOrder(base, fill, ts);
  // The venue says FILLED although our quantity says otherwise (spot market buy by quote amount).
  return complete && next.status !== 'filled' ? transitionOrder(next, 'filled', ts) : next;
}

/**
 * The mutable twin of LocalOrderState for the order manager's hot path (no map copy per event),
 * applying events through the same reduceOrder().
 */
export class OrderStore {
  private readonly orders = new Map<string, Order>();
  /**
   * The live ones among `orders`, in the same order (an order is live from its first event until it
   * closes, and never again): asked for several times per snapshot, while `orders` keeps every
   * closed order for hours.
   */
  private readonly liveOrders = new Map<string, Order>();
  /** trade id → fill time, pruned with the orders. */
  private readonly seen = new Map<string, number>();

  constructor(initial?: LocalOrderState) {
    if (initial) {
      for (const [k, o] of initial.orders) {
        this.orders.set(k, o);
        if (isLive(o.status)) this.liveOrders.set(k, o);
      }
      for (const t of initial.seenTradeIds) this.seen.set(t, 0);
    }
  }

  /** Applies one event; false when it was a duplicate fill or changed nothing. */
  apply(e: ExecutionEvent): boolean {
    const fill = fillOf(e);
    if (fill) {
      if (this.seen.has(fill.tradeId)) return false;
      this.seen.set(fill.tradeId, fill.time);
      if (fill.time > 0 && fill.time < this.oldestSeen) this.oldestSeen = fill.time;
    }
    const cid = eventClientOrderId(e);
    if (cid === undefined) return fill !== undefined;
    const before = this.orders.get(cid);
    const after = reduceOrder(before, e);
    if (after && after !== before) {
      this.orders.set(cid, after);
      if (isLive(after.status)) this.liveOrders.set(cid, after);
      else this.liveOrders.delete(cid);
      if (isTerminal(after.status)) {
        const t = after.closedAt ?? after.updatedAt;
        if (t < this.oldestClosed) this.oldestClosed = t;
      }
    }
    return fill !== undefined || after !== before;
  }

  get(cid: string): Order | undefined {
    return this.orders.get(cid);
  }

  hasSeenTrade(tradeId: string): boolean {
    return this.seen.has(tradeId);
  }

  all(): Order[] {
    return [...this.orders.values()];
  }

  /** Our live orders: a copy, or one shared empty list while there are none (most snapshots of a taker strategy). */
  live(): readonly Order[] {
    return this.liveOrders.size === 0 ? NO_ORDERS : [...this.liveOrders.values()];
  }

  /**
   * The live orders of one strategy on one symbol, in store order: a list of their own (the caller may
   * change it), made in one pass over the live orders instead of a copy of them all and a filtered copy.
   */
  liveOf(strategyId: string, symbol: string): Order[] {
    const out: Order[] = [];
    for (const o of this.liveOrders.values()) if (o.strategyId === strategyId && o.symbol === symbol) out.push(o);
    return out;
  }

  byVenueId(venueOrderId: string): Order | undefined {
    for (const o of this.orders.values()) if (o.venueOrderId === venueOrderId) return o;
    return undefined;
  }

  /** A frozen copy for pure functions (reconcile). */
  snapshot(): LocalOrderState {
    return { orders: new Map(this.orders), seenTradeIds: new Set(this.seen.keys()) };
  }

  /**
   * The book as LocalOrderState WITHOUT copying, for a pure function called synchronously (nothing
   * can change the store while it runs): reconcile runs every few seconds over every retained order,
   * and copying them all each time cost more than the reconciliation.
   */
  view(): LocalOrderState {
    return { orders: this.orders, seenTradeIds: this.seenView };
  }

  private readonly seenView: ReadonlySet<string> = new KeySetView(this.seen);

  /**
   * Forgets closed orders older than `before` and trade ids older than `tradesBefore` (keeps memory
   * bounded on long runs). Runs
   * at every reconciliation over everything kept for hours: a pass is skipped while nothing can be
   * old enough (the oldest time seen since the last pass is a lower bound).
   */
  prune(before: number, tradesBefore = before): void {
    if (before > this.oldestClosed) {
      let oldest = Infinity;
      this.orders.forEach((o, k) => {
        if (!isTerminal(o.status)) return;
        const t = o.closedAt ?? o.updatedAt;
        if (t < before) this.orders.delete(k);
        else if (t < oldest) oldest = t;
      });
      this.oldestClosed = oldest;
    }
    if (tradesBefore > this.oldestSeen) {
      let oldest = Infinity;
      this.seen.forEach((time, t) => {
        if (time > 0 && time < tradesBefore) this.seen.delete(t);
        else if (time > 0 && time < oldest) oldest = time;
      });
      this.oldestSeen = oldest;
    }
  }

  /** Lower bounds of the close times of terminal orders and of the times of seen trades (see prune). */
  private oldestClosed = -Infinity;
  private oldestSeen = -Infinity;
}

/** The keys of a Map as a ReadonlySet (live, not a copy). */
class KeySetView<K> implements ReadonlySet<K> {
  constructor(private readonly map: ReadonlyMap<K, unknown>) {}

  get size(): number {
    return this.map.size;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  forEach(fn: (value: K, key: K, set: ReadonlySet<K>) => void, thisArg?: unknown): void {
    for (const k of this.map.keys()) fn.call(thisArg, k, k, this);
  }

  keys(): SetIterator<K> {
    return this.map.keys() as SetIterator<K>;
  }

  values(): SetIterator<K> {
    return this.map.keys() as SetIterator<K>;
  }

  *entries(): SetIterator<[K, K]> {
    for (const k of this.map.keys()) yield [k, k];
  }

  [Symbol.iterator](): SetIterator<K> {
    return this.map.keys() as SetIterator<K>;
  }
}
