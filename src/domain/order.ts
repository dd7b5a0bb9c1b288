/**
 * A venue-neutral order and the table of the moves its status may make (docs/architecture.md rule 6).
 *
 * Orders are immutable values: every change returns a new Order, so the pure reconcile() and the
 * order store can compare "before" and "after" without defensive copies.
 */
import { type Decimal, withinPrecision, ZERO } from '../core/decimal.js';
import { IllegalTransition, ValidationError } from '../core/errors.js';
import type { ClientOrderId, InstrumentSymbol, OrderId, StrategyId } from '../core/ids.js';

export type InstrumentKind = 'spot' | 'contract';
export type OrderSide = 'buy' | 'sell';
export type OrderType = 'limit' | 'market';
/** Both venues carry time in force inside the order type; we keep it apart and let gateways map it. */
export type TimeInForce = 'gtc' | 'ioc' | 'fok' | 'post-only';
/** A hedged-mode position leg. Absent means one-way (net) mode or spot. */
export type PositionSide = 'long' | 'short';
export type MarginMode = 'isolated' | 'cross';
export type Liquidity = 'maker' | 'taker';
/** Which price a contract TP/SL trigger watches. */
export type TriggerPriceType = 'last' | 'fair' | 'index';

export const ORDER_STATUSES = [
  /** Client id created and journaled; nothing sent yet. */
  'initialized',
  /** Request sent; no answer yet (or the answer was lost: outcome unknown). */
  'submitted',
  'accepted',
  'partially-filled',
  /** An amend (or a spot cancel-replace) is in flight. */
  'pending-amend',
  /** A cancel is in flight; the order still holds funds until the venue confirms. */
  'pending-cancel',
  'filled',
  /** Cancelled, possibly after partial fills (spot PARTIALLY_CANCELED). */
  'cancelled',
  'rejected',
  /** IOC / FOK remainder removed by the venue. */
  'expired',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Every legal move. Self-moves exist where an update keeps the status (another partial fill, a fill
 * while a cancel is in flight). Anything not listed throws IllegalTransition.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  initialized: ['submitted', 'rejected'],
  submitted: ['accepted', 'rejected', 'partially-filled', 'filled', 'pending-cancel', 'cancelled', 'expired'],
  accepted: ['accepted', 'partially-filled', 'filled', 'pending-amend', 'pending-cancel', 'cancelled', 'expired'],
  'partially-filled': ['partially-filled', 'filled', 'pending-amend', 'pending-cancel', 'cancelled', 'expired'],
  'pending-amend': ['pending-amend', 'accepted', 'partially-filled', 'filled', 'pending-cancel', 'cancelled', 'expired'],
  // accepted / partially-filled here mean "the cancel was refused, the order still rests".
  // submitted: the cancel of an order never acknowledged was refused (unknown order): its outcome is still open.
  'pending-cancel': ['pending-cancel', 'submitted', 'accepted', 'partially-filled', 'filled', 'cancelled', 'expired'],
  filled: [],
  cancelled: [],
  rejected: [],
  expired: [],
};

// Comparisons rather than Set lookups: asked for every order in every risk check and for every event the
// order manager applies, where a string Set's has() (hash, then probe) was ~3 % of a 10-quote risk check.
export const isTerminal = (s: OrderStatus): boolean => s === 'filled' || s === 'cancelled' || s === 'rejected' || s === 'expired';
/** Known to rest at the venue (acknowledged and not closed). */
export const isWorking = (s: OrderStatus): boolean =>
  s === 'accepted' || s === 'partially-filled' || s === 'pending-amend' || s === 'pending-cancel';
/** Holds (or may hold) funds at the venue: working, or sent without an answer yet. */
export const isLive = (s: OrderStatus): boolean => isWorking(s) || s === 'submitted';
export const canTransition = (from: OrderStatus, to: OrderStatus): boolean => ORDER_TRANSITIONS[from].includes(to);

/** What a strategy asks the venue for; the same shape for spot and contract. */
export interface OrderSpec {
  readonly symbol: InstrumentSymbol;
  readonly kind: InstrumentKind;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  /** Required for limit orders; absent for market orders. */
  readonly price?: Decimal;
  /** Base quantity (spot) or contracts (contract). Absent only for a spot market buy by quote amount. */
  readonly quantity?: Decimal;
  /** Spot market buy: the quote amount to spend. */
  readonly quoteQuantity?: Decimal;
  readonly reduceOnly?: boolean;
  readonly positionSide?: PositionSide;
  readonly leverage?: number;
  readonly marginMode?: MarginMode;
  readonly takeProfitPrice?: Decimal;
  readonly stopLossPrice?: Decimal;
  readonly triggerPriceType?: TriggerPriceType;
}

export interface Order extends OrderSpec {
  readonly clientOrderId: ClientOrderId;
  readonly venueOrderId?: OrderId;
  readonly strategyId: StrategyId;
  readonly intentId?: string;
  /** Desired-quotes slot this order fills, when it came from a DesiredQuotes intent. */
  readonly slot?: string;
  readonly status: OrderStatus;
  readonly filledQty: Decimal;
  /** Sum of price·qty over fills (quote units for spot, price·contracts for contracts). */
  readonly filledNotional: Decimal;
  readonly avgFillPrice?: Decimal;
  /** Fees paid, per fee asset. */
  readonly fees: Readonly<Record<string, Decimal>>;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly submittedAt?: number;
  readonly acceptedAt?: number;
  readonly closedAt?: number;
  readonly rejectReason?: string;
  /** Spot cancel-replace: the order this one replaces, and the one that replaced it. */
  readonly replacesClientOrderId?: ClientOrderId;
  readonly replacedByClientOrderId?: ClientOrderId;
  /** Status before an amend / cancel went in flight, to return to if the venue refuses it. */
  readonly statusBeforePending?: OrderStatus;
}

export interface NewOrderMeta {
  readonly clientOrderId: ClientOrderId;
  readonly strategyId: StrategyId;
  readonly now: number;
  readonly intentId?: string;
  readonly slot?: string;
  readonly replacesClientOrderId?: ClientOrderId;
}

/** Checks the spec's shape (not the venue rules: that is the risk engine's job). */
export function validateOrderSpec(spec: OrderSpec): void {
  if (spec.type === 'limit') {
    if (!spec.price) throw new ValidationError('order.price', 'a price for a limit order');
    if (!spec.quantity) throw new ValidationError('order.quantity', 'a quantity for a limit order');
  } else if (!spec.quantity && !spec.quoteQuantity) {
    throw new ValidationError('order.quantity', 'quantity or quoteQuantity for a market order');
  }
  if (spec.price && spec.price.lte(0)) throw new ValidationError('order.price', 'a price > 0', spec.price.toString());
  if (spec.quantity && spec.quantity.lte(0)) throw new ValidationError('order.quantity', 'a quantity > 0', spec.quantity.toString());
  if (spec.quoteQuantity && spec.quoteQuantity.lte(0))
    throw new ValidationError('order.quoteQuantity', 'an amount > 0', spec.quoteQuantity.toString());
  if (spec.quoteQuantity && (spec.kind !== 'spot' || spec.type !== 'market')) {
    throw new ValidationError('order.quoteQuantity', 'only on spot market orders');
  }
}

/**
 * The keys, order and values of `{ ...spec, clientOrderId, strategyId, [intentId], [slot],
 * [replacesClientOrderId], status, filledQty, filledNotional, fees, createdAt, updatedAt }`, built as a
 * copy of the spec (copyOrder) plus named stores: that spread, followed by keys the spec lacks, took
 * V8's slow path — 8.9–9.8 µs a call against ~0.27 µs so (bench of 64 specs of a few shapes, validation
 * included), one call per order placed (test/domain/transition-order-shape.test.ts holds the shape).
 */
export function createOrder(spec: OrderSpec, meta: NewOrderMeta): Order {
  validateOrderSpec(spec);
  const next = copyOrder(spec as Order);
  next.clientOrderId = meta.clientOrderId;
  next.strategyId = meta.strategyId;
  if (meta.intentId !== undefined) next.intentId = meta.intentId;
  if (meta.slot !== undefined) next.slot = meta.slot;
  if (meta.replacesClientOrderId !== undefined) next.replacesClientOrderId = meta.replacesClientOrderId;
  next.status = 'initialized';
  next.filledQty = ZERO;
  next.filledNotional = ZERO;
  next.fees = {};
  next.createdAt = meta.now;
  next.updatedAt = meta.now;
  return next;
}

type MutableOrder = { -readonly [K in keyof Order]: Order[K] };

/**
 * Moves the order to `to` through the table, merging `patch`. Throws IllegalTransition.
 *
 * The result has the keys, order and values of `{ ...order, ...patch, status, updatedAt, [submittedAt],
 * [acceptedAt], [closedAt] }` with statusBeforePending set on entering a pending state and removed on
 * leaving one (test/domain/transition-order-shape.test.ts holds it to that formula). It is built as a
 * copy (copyOrder: the spread's keys by named stores) plus named stores: V8 turns an object into
 * a slow dictionary once a store with a computed key (`next[k] = v`, `{ ...o, [k]: v }`) adds a property
 * beyond the 16th, and every accepted order then became one — each later spread of it cost ~10 µs and
 * every property read in the risk rules and the quote diff went through a hash lookup.
 */
export function transitionOrder(order: Order, to: OrderStatus, now: number, patch?: Partial<Order>): Order {
  if (!canTransition(order.status, to)) throw new IllegalTransition(`order ${order.clientOrderId}`, order.status, to);
  const enteringPending = (to === 'pending-cancel' || to === 'pending-amend') && order.status !== to;
  const leavingPending = (order.status === 'pending-cancel' || order.status === 'pending-amend') && to !== order.status;
  // Leaving a pending state for a state that is not pending drops statusBeforePending: the copy leaves it
  // out (the other keys keep their order, as deleting it did) instead of a second walk over the keys and a
  // delete (a runtime call, ~1k instructions an amend).
  const next = copyOrder(order, leavingPending && !enteringPending);
  if (patch !== undefined) for (const k in patch) if (Object.hasOwn(patch, k)) setOrderKey(next, k as keyof Order, patch[k as keyof Order]);
  next.status = to;
  next.updatedAt = now;
  if (to === 'submitted') next.submittedAt = now;
  if (to === 'accepted' && order.acceptedAt === undefined) next.acceptedAt = now;
  if (isTerminal(to)) next.closedAt = now;
  // Entering a pending state wins over leaving one (pending-amend → pending-cancel keeps the key, re-set).
  if (enteringPending)
    next.statusBeforePending =
      order.status === 'pending-amend' || order.status === 'pending-cancel' ? order.statusBeforePending : order.status;
  else if (leavingPending && Object.hasOwn(next, 'statusBeforePending')) return withoutStatusBeforePending(next);
  return next;
}

/**
 * `{ ...order }`: the same own keys in the same order with the same values, copied by named stores. The
 * spread's clone IC is fast only while it sees one hidden class, and orders change class as they move
 * and as their fields generalise during warm-up, so in steady state every transition took V8's generic
 * clone: 620–830 ns of CPU per transition of an amend cycle (accepted → pending-amend → accepted, 6
 * orders), 280–470 ns with this copy (4 alternating runs). A named store adds a property through a map
 * transition as the spread's clone does; a computed-key store (`next[k] = v`) would make the order a
 * dictionary past the 16th property (see transitionOrder), so only a key outside Order takes it. for…in
 * lists the own string keys in the spread's order (an order has no inherited enumerable keys and no
 * symbol keys).
 *
 * The key is told by its length first, then by at most five string comparisons: one switch over the 34
 * names compared each key with every name before its own. Under callgrind, the runtime-core bench's
 * copies (~4.8 a snapshot) took 10.9k instructions a snapshot that way, 6.9k this way.
 */
function copyOrder(order: Order, withoutStatusBeforePending = false): MutableOrder {
  const next = {} as MutableOrder;
  for (const k in order) {
    switch (k.length) {
      case 4:
        if (k === 'kind') next.kind = order.kind;
        else if (k === 'side') next.side = order.side;
        else if (k === 'type') next.type = order.type;
        else if (k === 'slot') next.slot = order.slot;
        else if (k === 'fees') next.fees = order.fees;
        else copyOther(next, order, k);
        break;
      case 5:
        if (k === 'price') next.price = order.price;
        else copyOther(next, order, k);
        break;
      case 6:
        if (k === 'symbol') next.symbol = order.symbol;
        else if (k === 'status') next.status = order.status;
        else copyOther(next, order, k);
        break;
      case 8:
        if (k === 'quantity') next.quantity = order.quantity;
        else if (k === 'leverage') next.leverage = order.leverage;
        else if (k === 'intentId') next.intentId = order.intentId;
        else if (k === 'closedAt') next.closedAt = order.closedAt;
        else copyOther(next, order, k);
        break;
      case 9:
        if (k === 'filledQty') next.filledQty = order.filledQty;
        else if (k === 'createdAt') next.createdAt = order.createdAt;
        else if (k === 'updatedAt') next.updatedAt = order.updatedAt;
        else copyOther(next, order, k);
        break;
      case 10:
        if (k === 'reduceOnly') next.reduceOnly = order.reduceOnly;
        else if (k === 'marginMode') next.marginMode = order.marginMode;
        else if (k === 'strategyId') next.strategyId = order.strategyId;
        else if (k === 'acceptedAt') next.acceptedAt = order.acceptedAt;
        else copyOther(next, order, k);
        break;
      case 11:
        if (k === 'timeInForce') next.timeInForce = order.timeInForce;
        else if (k === 'submittedAt') next.submittedAt = order.submittedAt;
        else copyOther(next, order, k);
        break;
      case 12:
        if (k === 'positionSide') next.positionSide = order.positionSide;
        else if (k === 'venueOrderId') next.venueOrderId = order.venueOrderId;
        else if (k === 'avgFillPrice') next.avgFillPrice = order.avgFillPrice;
        else if (k === 'rejectReason') next.rejectReason = order.rejectReason;
        else copyOther(next, order, k);
        break;
      case 13:
        if (k === 'quoteQuantity') next.quoteQuantity = order.quoteQuantity;
        else if (k === 'stopLossPrice') next.stopLossPrice = order.stopLossPrice;
        else if (k === 'clientOrderId') next.clientOrderId = order.clientOrderId;
        else copyOther(next, order, k);
        break;
      case 14:
        if (k === 'filledNotional') next.filledNotional = order.filledNotional;
        else copyOther(next, order, k);
        break;
      case 15:
        if (k === 'takeProfitPrice') next.takeProfitPrice = order.takeProfitPrice;
        else copyOther(next, order, k);
        break;
      case 16:
        if (k === 'triggerPriceType') next.triggerPriceType = order.triggerPriceType;
        else copyOther(next, order, k);
        break;
      case 19:
        if (k === 'statusBeforePending') {
          if (!withoutStatusBeforePending) next.statusBeforePending = order.statusBeforePending;
        } else copyOther(next, order, k);
        break;
      case 21:
        if (k === 'replacesClientOrderId') next.replacesClientOrderId = order.replacesClientOrderId;
        else copyOther(next, order, k);
        break;
      case 23:
        if (k === 'replacedByClientOrderId') next.replacedByClientOrderId = order.replacedByClientOrderId;
        else copyOther(next, order, k);
        break;
      default:
        copyOther(next, order, k);
    }
  }
  return next;
}

/** A key outside Order, copied as the spread would (a computed-key store: see copyOrder). */
function copyOther(next: MutableOrder, order: Order, k: string): void {
  (next as unknown as Record<string, unknown>)[k] = (order as unknown as Record<string, unknown>)[k];
}

/**
 * `next` without statusBeforePending, the other keys in their order. Deleting the property added last
 * (where an order entering a pending state puts it) takes V8 back to the previous hidden class; deleting
 * any other one would make the object a dictionary, so then the rest is copied as the spread did.
 */
function withoutStatusBeforePending(next: MutableOrder): Order {
  let last: string | undefined;
  for (const k in next) last = k;
  if (last === 'statusBeforePending') {
    delete next.statusBeforePending;
    return next;
  }
  const { statusBeforePending: _drop, ...rest } = next;
  return rest;
}

/**
 * `o[key] = value` as a named store for the keys events and fills set (see transitionOrder for why a
 * computed-key store is avoided); any other key takes the computed store.
 */
function setOrderKey(o: MutableOrder, key: keyof Order, value: unknown): void {
  switch (key) {
    case 'venueOrderId':
      o.venueOrderId = value as Order['venueOrderId'];
      return;
    case 'price':
      o.price = value as Order['price'];
      return;
    case 'quantity':
      o.quantity = value as Order['quantity'];
      return;
    case 'rejectReason':
      o.rejectReason = value as Order['rejectReason'];
      return;
    case 'filledQty':
      o.filledQty = value as Order['filledQty'];
      return;
    case 'filledNotional':
      o.filledNotional = value as Order['filledNotional'];
      return;
    case 'avgFillPrice':
      o.avgFillPrice = value as Order['avgFillPrice'];
      return;
    case 'fees':
      o.fees = value as Order['fees'];
      return;
    case 'statusBeforePending':
      o.statusBeforePending = value as Order['statusBeforePending'];
      return;
    case 'replacedByClientOrderId':
      o.replacedByClientOrderId = value as Order['replacedByClientOrderId'];
      return;
    default:
      (o as Record<string, unknown>)[key] = value;
  }
}

/**
 * `{ ...o, [key]: value }`: the same keys in the same order, the same values, built as transitionOrder
 * builds its result (a clone and a named store) so that the order keeps a fast hidden class.
 */
export function withKey<K extends keyof Order>(o: Order, key: K, value: Order[K]): Order {
  const copy = copyOrder(o);
  setOrderKey(copy, key, value);
  return copy;
}

/** Quantity still to fill (undefined for a spot market buy by quote amount). */
export function remainingQty(order: Order): Decimal | undefined {
  const q = order.quantity;
  if (!q) return undefined;
  // Nothing filled (most resting orders): q − 0 is q itself, without a Decimal operation.
  if (order.filledQty.isZero() && withinPrecision(q)) return clampToZero(q);
  return clampToZero(q.minus(order.filledQty));
}

const clampToZero = (d: Decimal): Decimal => (d.isNegative() ? ZERO : d);

export interface OrderFillUpdate {
  readonly price: Decimal;
  readonly quantity: Decimal;
  readonly fee: Decimal;
  readonly feeAsset: string;
}

/**
 * Adds one fill: cumulative quantity, notional, average price and fees. A fill that completes the
 * order moves it to `filled`; otherwise the status stays pending (a cancel or amend in flight keeps
 * its claim on the order) or becomes partially-filled.
 */
export function applyFillToOrder(order: Order, fill: OrderFillUpdate, now: number): Order {
  if (fill.quantity.lte(0)) throw new ValidationError('fill.quantity', 'a quantity > 0', fill.quantity.toString());
  const filledQty = order.filledQty.plus(fill.quantity);
  const filledNotional = order.filledNotional.plus(fill.price.mul(fill.quantity));
  const fees = { ...order.fees, [fill.feeAsset]: (order.fees[fill.feeAsset] ?? ZERO).plus(fill.fee) };
  const complete = order.quantity !== undefined && filledQty.gte(order.quantity);
  let to: OrderStatus;
  if (complete) to = 'filled';
  else if (order.status === 'pending-cancel' || order.status === 'pending-amend') to = order.status;
  else to = 'partially-filled';
  return transitionOrder(order, to, now, { filledQty, filledNotional, avgFillPrice: filledNotional.div(filledQty), fees });
}

/**
 * An order as the venue reports it (open-order lists, queries by client id). Gateways map venue codes
 * to our statuses: spot PARTIALLY_CANCELED → cancelled with filledQty > 0; contract state 1 (pending
 * submission) → submitted, 5 (invalid) → rejected.
 */
export interface VenueOrder {
  readonly venueOrderId: OrderId;
  /** Absent for orders placed without a client id (manual orders). */
  readonly clientOrderId?: ClientOrderId;
  readonly symbol: InstrumentSymbol;
  readonly kind: InstrumentKind;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly price?: Decimal;
  readonly quantity?: Decimal;
  readonly quoteQuantity?: Decimal;
  readonly status: OrderStatus;
  /** Cumulative filled quantity. */
  readonly filledQty: Decimal;
  /** Cumulative filled quote (spot cummulativeQuoteQty) or price·contracts; else derived from avg. */
  readonly filledNotional?: Decimal;
  readonly avgFillPrice?: Decimal;
  readonly positionSide?: PositionSide;
  readonly reduceOnly?: boolean;
  readonly leverage?: number;
  readonly createdAt?: number;
  readonly updatedAt?: number;
}

/** Cumulative notional of a venue order: as reported, else avg·qty. */
export function venueFilledNotional(v: VenueOrder): Decimal {
  if (v.filledNotional) return v.filledNotional;
  return v.avgFillPrice ? v.avgFillPrice.mul(v.filledQty) : ZERO;
}
