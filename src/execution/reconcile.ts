/**
 * What the venue says against what we believe, as a pure function (docs/architecture.md rule 7):
 * reconcile(local, venueReport, now) → events that, applied through applyOrderEvent, make the local
 * book agree with the venue. Applying its events and reconciling again with the same report yields
 * nothing (idempotent), which the tests check as a property.
 *
 *  - fills the venue lists that we have not seen → OrderPartiallyFilled / OrderFilled, each trade once;
 *  - an order's venue cumulative quantity beyond what fills explain → ONE synthetic fill for the gap at
 *    the price that makes the averages agree (trade id derived from order id + cumulative quantity, so
 *    it is made once); a real fill learned later for quantity a synthetic one already covered is not
 *    counted again;
 *  - open venue orders we do not know → adopted when their client id decodes to one of our strategies,
 *    otherwise left alone (manual orders, other bots);
 *  - our live orders the venue no longer lists → closed with the status the venue gives for them
 *    (queried by client id), or cancelled as "vanished" when the venue says it has no such order;
 *    an order sent less than `unknownGraceMs` ago is left alone (its request may still be in flight);
 *  - an order we closed that the venue still lists as open → OrderOrphaned (the order manager cancels
 *    it at the venue); this alarm is not a state change and repeats until the venue drops the order;
 *  - venue positions that differ from ours → PositionDrift;
 *  - with `ownerOf` given: fills of orders that are not ours (no client id of ours: a TP/SL, plan or
 *    trailing order firing, a liquidation, a close-all, an order placed by hand, spot or contract) →
 *    VenueFill, attributed to the owner of the position's leg (none: booked on the account only). A
 *    real trade (its own trade id) is booked as it is, once. A synthetic one carries the venue order's
 *    cumulative numbers (one fill per order state): what was booked before for the same venue order
 *    (`foreignFilled`) is taken off, so each contract is booked once at the price that makes the
 *    averages agree.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { ClientOrderId, InstrumentSymbol, StrategyId, TradeId } from '../core/ids.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import { type Fill, syntheticTradeId } from '../domain/fill.js';
import { isLive, isTerminal, type Order, type VenueOrder, venueFilledNotional } from '../domain/order.js';
import { type Position, type PositionLeg, positionKey } from '../domain/position.js';
import type { LocalOrderState } from './order-state.js';

export interface VenueReport {
  /** Symbols the report covers; local orders of other symbols are not judged. */
  readonly symbols: readonly InstrumentSymbol[];
  /** Every open order of those symbols (all pages). */
  readonly openOrders: readonly VenueOrder[];
  /** Orders looked up one by one (our live orders missing from openOrders). */
  readonly queriedOrders: readonly VenueOrder[];
  /** Client ids the venue answered "no such order" for. */
  readonly notFound: readonly ClientOrderId[];
  /** Own fills since the watermark. */
  readonly fills: readonly Fill[];
  /** Venue positions of those symbols, when fetched. */
  readonly positions?: readonly Position[];
}

export interface ReconcileOptions {
  /** Strategy an unknown order belongs to, from its client id (undefined: not ours). */
  readonly attribute: (clientOrderId: string) => StrategyId | undefined;
  /** How long after sending an order missing at the venue may still be on its way. */
  readonly unknownGraceMs: number;
  /** Our positions of the report's symbols, to compare with venue positions. */
  readonly localPositions?: readonly Position[];
  /** Owner of a position leg for fills of orders not ours; absent: such fills are ignored (backtests). */
  readonly ownerOf?: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined;
  /** What VenueFills already booked per venue order id (their sums). */
  readonly foreignFilled?: ReadonlyMap<string, ForeignFilled>;
  /** Fills of orders not ours from before this venue time (ms) are not booked: they predate the bot. */
  readonly foreignSince?: number;
}

/** Sums of the VenueFills booked for one venue order. */
export interface ForeignFilled {
  readonly quantity: Decimal;
  readonly notional: Decimal;
  readonly fee: Decimal;
  readonly realizedPnl: Decimal;
}

export const NOTHING_FILLED: ForeignFilled = { quantity: ZERO, notional: ZERO, fee: ZERO, realizedPnl: ZERO };

/** The sums after one more VenueFill of the same venue order. */
export function addForeignFill(before: ForeignFilled, f: Fill): ForeignFilled {
  return {
    quantity: before.quantity.plus(f.quantity),
    notional: before.notional.plus(f.price.mul(f.quantity)),
    fee: before.fee.plus(f.fee),
    realizedPnl: before.realizedPnl.plus(f.realizedPnl ?? ZERO),
  };
}

export function reconcile(local: LocalOrderState, venue: VenueReport, now: number, opts: ReconcileOptions): ExecutionEvent[] {
  if (nothingToJudge(local, venue, opts)) return [];
  const events: ExecutionEvent[] = [];
  const inScope = new Set<string>(venue.symbols);
  // Built on first use: most passes find every order by client id (or have nothing to look up), and
  // the local book holds every order retained for hours.
  let byVenueIdMap: Map<string, Order> | undefined;
  const byVenueId = (): Map<string, Order> => {
    if (!byVenueIdMap) {
      byVenueIdMap = new Map<string, Order>();
      for (const o of local.orders.values()) if (o.venueOrderId) byVenueIdMap.set(o.venueOrderId, o);
    }
    return byVenueIdMap;
  };
  const find = (v: { clientOrderId?: string | undefined; venueOrderId?: string | undefined }): Order | undefined =>
    (v.clientOrderId ? local.orders.get(v.clientOrderId) : undefined) ?? (v.venueOrderId ? byVenueId().get(v.venueOrderId) : undefined);

  // The venue's latest word per order: open list wins over a query (it is the fresher listing).
  const venueOrders = new Map<string, VenueOrder>();
  for (const v of venue.queriedOrders) venueOrders.set(v.venueOrderId, v);
  for (const v of venue.openOrders) venueOrders.set(v.venueOrderId, v);

  // Working copy of each touched order's cumulative numbers, so fills and synthetic gaps add up.
  const cum = new Map<string, { qty: Decimal; notional: Decimal; quantity: Decimal | undefined }>();
  const orderFor = new Map<string, Order>();
  const track = (o: Order): { qty: Decimal; notional: Decimal; quantity: Decimal | undefined } => {
    let c = cum.get(o.clientOrderId);
    if (!c) {
      c = { qty: o.filledQty, notional: o.filledNotional, quantity: o.quantity };
      cum.set(o.clientOrderId, c);
      orderFor.set(o.clientOrderId, o);
    }
    return c;
  };

  // 1. Adopt venue orders we do not know but that are ours.
  const sortedVenue = [...venueOrders.values()].filter((v) => inScope.has(v.symbol)).sort(byVenueOrder);
  for (const v of sortedVenue) {
    if (find(v) || !v.clientOrderId) continue;
    // A closed order with nothing filled changes nothing of ours: not worth adopting.
    if (isTerminal(v.status) && v.filledQty.isZero()) continue;
    const strategyId = opts.attribute(v.clientOrderId);
    if (strategyId === undefined) continue;
    const adopted = adoptedOrder(v, strategyId, now);
    events.push({ type: 'OrderAdopted', ts: now, strategyId, order: adopted });
    byVenueId().set(v.venueOrderId, adopted);
    track(adopted);
  }
  const findAny = (v: { clientOrderId?: string | undefined; venueOrderId?: string | undefined }): Order | undefined => {
    const o = find(v);
    if (o) return o;
    for (const a of orderFor.values())
      if ((v.clientOrderId && a.clientOrderId === v.clientOrderId) || (v.venueOrderId && a.venueOrderId === v.venueOrderId)) return a;
    return undefined;
  };

  // Acknowledgements first, so the events read in the order things happened.
  for (const v of sortedVenue) {
    const o = findAny(v);
    if (o && o.status === 'submitted' && v.status !== 'submitted' && !orderFor.has(o.clientOrderId)) {
      events.push({
        type: 'OrderAccepted',
        ts: now,
        strategyId: o.strategyId,
        clientOrderId: o.clientOrderId,
        symbol: o.symbol,
        venueOrderId: v.venueOrderId,
      });
    }
  }

  // 2. Real fills not seen yet, in venue time order. The seen ones are left out before the sort (the loop
  // skipped them): a pass lists every fill of the overlap, nearly all seen — the reference market maker's
  // backtest lists 19,719 fills in its 381 passes (52 a pass), each copied and sorted on every pass.
  const fills = venue.fills
    .filter((f) => inScope.has(f.symbol) && !local.seenTradeIds.has(f.tradeId))
    .sort((a, b) => a.time - b.time || cmp(a.tradeId, b.tradeId));
  const taken = new Set<string>();
  const foreign = new Map(opts.foreignFilled ?? []);
  for (const f of fills) {
    if (taken.has(f.tradeId)) continue;
    const o = findAny(f);
    if (!o) {
      const book = opts.ownerOf && f.time >= (opts.foreignSince ?? 0);
      const e = book ? venueFill(f, foreign, opts.ownerOf!, now) : undefined;
      if (e) {
        taken.add(f.tradeId);
        events.push(e);
      }
      continue;
    }
    const c = track(o);
    const v = o.venueOrderId ? venueOrders.get(o.venueOrderId) : undefined;
    const ceiling = v?.filledQty ?? c.quantity;
    // Already covered by a synthetic fill made from the venue's cumulative numbers.
    if (ceiling && c.qty.plus(f.quantity).gt(ceiling)) continue;
    taken.add(f.tradeId);
    c.qty = c.qty.plus(f.quantity);
    c.notional = c.notional.plus(f.price.mul(f.quantity));
    const done = (c.quantity !== undefined && c.qty.gte(c.quantity)) || (v?.status === 'filled' && v.filledQty.lte(c.qty));
    const fill: Fill = { ...f, clientOrderId: o.clientOrderId, strategyId: o.strategyId };
    events.push({
      type: done ? 'OrderFilled' : 'OrderPartiallyFilled',
      ts: now,
      strategyId: o.strategyId,
      clientOrderId: o.clientOrderId,
      symbol: o.symbol,
      fill,
    });
  }

  // 3. Venue cumulative beyond what fills explain → one synthetic fill for the gap.
  for (const v of sortedVenue) {
    const o = findAny(v);
    if (!o) continue;
    const c = track(o);
    // The venue's cumulative not beyond ours (every pass over resting quotes): no gap, and no Decimal
    // made for it. A difference rounded to 40 digits has the sign of the exact one, so this is gap ≤ 0.
    if (v.filledQty.lte(c.qty)) continue;
    const gap = v.filledQty.minus(c.qty);
    const tradeId: TradeId = syntheticTradeId(v.venueOrderId, v.filledQty);
    if (local.seenTradeIds.has(tradeId)) continue;
    const venueNotional = venueFilledNotional(v);
    const price = venueNotional.gt(c.notional) ? venueNotional.minus(c.notional).div(gap) : (v.avgFillPrice ?? v.price ?? o.price ?? ZERO);
    c.qty = v.filledQty;
    c.notional = c.notional.plus(price.mul(gap));
    const done = v.status === 'filled' || (c.quantity !== undefined && c.qty.gte(c.quantity));
    const fill: Fill = {
      tradeId,
      venueOrderId: v.venueOrderId,
      clientOrderId: o.clientOrderId,
      strategyId: o.strategyId,
      symbol: o.symbol,
      kind: o.kind,
      side: o.side,
      price,
      quantity: gap,
      // The fee is unknown without the trade; the balance reconciliation corrects it.
      fee: ZERO,
      feeAsset: '',
      liquidity: 'maker',
      time: v.updatedAt ?? now,
      ...(o.positionSide ? { positionSide: o.positionSide } : {}),
      ...(o.reduceOnly ? { reduceOnly: true } : {}),
      synthetic: true,
    };
    events.push({
      type: done ? 'OrderFilled' : 'OrderPartiallyFilled',
      ts: now,
      strategyId: o.strategyId,
      clientOrderId: o.clientOrderId,
      symbol: o.symbol,
      fill,
    });
  }

  // 4. Status of orders the venue reports.
  for (const v of sortedVenue) {
    const o = findAny(v);
    if (!o) continue;
    if (isTerminal(o.status)) {
      // We closed it, the venue still rests it: an alarm, repeated until the venue no longer lists it.
      if (isWorkingStatus(v.status)) {
        events.push({
          type: 'OrderOrphaned',
          ts: now,
          strategyId: o.strategyId,
          clientOrderId: o.clientOrderId,
          symbol: o.symbol,
          venueOrderId: v.venueOrderId,
          localStatus: o.status,
        });
      }
      continue;
    }
    const base = { ts: now, strategyId: o.strategyId, clientOrderId: o.clientOrderId, symbol: o.symbol };
    const filledNow = cum.get(o.clientOrderId)?.qty ?? o.filledQty;
    switch (v.status) {
      case 'accepted':
      case 'partially-filled':
      case 'pending-amend':
      case 'pending-cancel': {
        const priceMoved = v.price && o.price && !v.price.eq(o.price);
        const qtyMoved = v.quantity && o.quantity && !v.quantity.eq(o.quantity);
        if ((priceMoved || qtyMoved) && o.status !== 'pending-cancel') {
          events.push({
            ...base,
            type: 'OrderAmended',
            ...(priceMoved ? { price: v.price! } : {}),
            ...(qtyMoved ? { quantity: v.quantity! } : {}),
          });
        }
        break;
      }
      case 'filled':
        // Reaching `filled` happens through the fill events above; a FILLED order whose fills add
        // up to less than its quantity (quote-amount market buys) is closed here.
        if (!(o.quantity && filledNow.gte(o.quantity)) && !cumFilledEventEmitted(events, o.clientOrderId)) {
          events.push({ ...base, type: 'OrderCancelled', reason: 'venue-closed-filled' });
        }
        break;
      case 'cancelled':
        events.push({ ...base, type: 'OrderCancelled', reason: 'venue' });
        break;
      case 'expired':
        events.push({ ...base, type: 'OrderExpired' });
        break;
      case 'rejected':
        // Rejected is an answer to sending; an order already acknowledged that the venue later marks
        // invalid (contract state 5) is closed as cancelled.
        if (o.status === 'submitted' && !orderFor.has(o.clientOrderId))
          events.push({ ...base, type: 'OrderRejected', reason: 'venue reports the order invalid' });
        else events.push({ ...base, type: 'OrderCancelled', reason: 'venue reports the order invalid' });
        break;
      default:
        break;
    }
  }

  // 5. Our live orders the venue neither lists nor reports a status for.
  // Only orders the venue said it does not know can be closed here: nothing to do without any.
  if (venue.notFound.length > 0) {
    const reported = new Set<string>();
    for (const v of venueOrders.values()) {
      const o = findAny(v);
      if (o) reported.add(o.clientOrderId);
    }
    const notFound = new Set<string>(venue.notFound);
    const ours = [...local.orders.values()]
      .filter((o) => inScope.has(o.symbol) && isLive(o.status) && !reported.has(o.clientOrderId))
      .sort((a, b) => cmp(a.clientOrderId, b.clientOrderId));
    for (const o of ours) {
      if (!notFound.has(o.clientOrderId)) continue; // no word from the venue: wait, never guess
      const base = { ts: now, strategyId: o.strategyId, clientOrderId: o.clientOrderId, symbol: o.symbol };
      // Never acknowledged (no venue id, no fill seen in this pass): the request may still be on its way
      // until the grace period is over; after it, the order was never placed.
      const neverAcked = o.venueOrderId === undefined && !cum.has(o.clientOrderId);
      if (neverAcked) {
        const age = now - (o.submittedAt ?? o.createdAt);
        if (age < opts.unknownGraceMs) continue;
        const reason = `not found at the venue ${age} ms after sending: never placed`;
        if (o.status === 'submitted') events.push({ ...base, type: 'OrderRejected', reason });
        else events.push({ ...base, type: 'OrderCancelled', reason });
      } else {
        events.push({ ...base, type: 'OrderCancelled', reason: 'vanished' });
      }
    }
  }

  // 6. Positions.
  if (venue.positions && opts.localPositions) {
    const mine = new Map(opts.localPositions.filter((p) => inScope.has(p.symbol)).map((p) => [positionKey(p.symbol, p.leg), p]));
    const theirs = new Map(venue.positions.filter((p) => inScope.has(p.symbol)).map((p) => [positionKey(p.symbol, p.leg), p]));
    const keys = [...new Set([...mine.keys(), ...theirs.keys()])].sort(cmp);
    for (const k of keys) {
      const a = mine.get(k);
      const b = theirs.get(k);
      const lq = a?.quantity ?? ZERO;
      const vq = b?.quantity ?? ZERO;
      if (lq.eq(vq)) continue;
      const p = (a ?? b)!;
      events.push({ type: 'PositionDrift', ts: now, symbol: p.symbol, leg: p.leg, localQuantity: lq, venueQuantity: vq });
    }
  }
  return events;
}

/**
 * The pass of a quiet venue, the common one (a runtime reconciles every minute or so; a backtest on
 * bars does it at every bar): no order listed or looked up, no fill it has not seen (in scope), no
 * positions to compare. Every step below then finds nothing: the pass makes no event.
 */
function nothingToJudge(local: LocalOrderState, venue: VenueReport, opts: ReconcileOptions): boolean {
  if (venue.openOrders.length > 0 || venue.queriedOrders.length > 0 || venue.notFound.length > 0) return false;
  if (venue.positions && opts.localPositions) return false;
  for (const f of venue.fills) if (!local.seenTradeIds.has(f.tradeId) && venue.symbols.includes(f.symbol)) return false;
  return true;
}

/**
 * The part of a venue order's cumulative fill `f` not booked yet, as a VenueFill of the leg's owner
 * (undefined when nothing is new). Quantity, notional, fee and realised PnL are each the venue's total
 * minus what earlier VenueFills of the order booked.
 */
function venueFill(
  f: Fill,
  foreign: Map<string, ForeignFilled>,
  ownerOf: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined,
  now: number,
): ExecutionEvent | undefined {
  const key = f.venueOrderId ?? f.tradeId;
  const before = foreign.get(key) ?? NOTHING_FILLED;
  if (!f.synthetic) {
    // A trade of its own (deduped by trade id like ours): booked as the venue made it.
    const strategyId = ownerOf(f.symbol, f.positionSide ?? 'net');
    const fill: Fill = { ...f, ...(strategyId !== undefined ? { strategyId } : {}) };
    foreign.set(key, addForeignFill(before, fill));
    return { type: 'VenueFill', ts: now, ...(strategyId !== undefined ? { strategyId } : {}), symbol: f.symbol, fill };
  }
  const quantity = f.quantity.minus(before.quantity);
  if (quantity.lte(0)) return undefined;
  const notional = f.price.mul(f.quantity).minus(before.notional);
  const strategyId = ownerOf(f.symbol, f.positionSide ?? 'net');
  const fill: Fill = {
    ...f,
    quantity,
    price: notional.div(quantity),
    fee: f.fee.minus(before.fee),
    ...(f.realizedPnl !== undefined ? { realizedPnl: f.realizedPnl.minus(before.realizedPnl) } : {}),
    ...(strategyId !== undefined ? { strategyId } : {}),
  };
  foreign.set(key, addForeignFill(before, fill));
  return { type: 'VenueFill', ts: now, ...(strategyId !== undefined ? { strategyId } : {}), symbol: f.symbol, fill };
}

const isWorkingStatus = (s: VenueOrder['status']): boolean =>
  s === 'accepted' || s === 'partially-filled' || s === 'pending-amend' || s === 'pending-cancel';

function cumFilledEventEmitted(events: readonly ExecutionEvent[], cid: string): boolean {
  return events.some((e) => e.type === 'OrderFilled' && e.clientOrderId === cid);
}

/** A local order built from a venue order; fills arrive as events so they are counted once. */
function adoptedOrder(v: VenueOrder, strategyId: StrategyId, now: number): Order {
  const status = v.status === 'partially-filled' ? 'accepted' : v.status;
  return {
    symbol: v.symbol,
    kind: v.kind,
    side: v.side,
    type: v.type,
    timeInForce: v.timeInForce,
    ...(v.price ? { price: v.price } : {}),
    ...(v.quantity ? { quantity: v.quantity } : {}),
    ...(v.quoteQuantity ? { quoteQuantity: v.quoteQuantity } : {}),
    ...(v.positionSide ? { positionSide: v.positionSide } : {}),
    ...(v.reduceOnly ? { reduceOnly: v.reduceOnly } : {}),
    ...(v.leverage ? { leverage: v.leverage } : {}),
    clientOrderId: v.clientOrderId!,
    venueOrderId: v.venueOrderId,
    strategyId,
    status: isTerminal(status) ? 'accepted' : status === 'submitted' ? 'submitted' : 'accepted',
    filledQty: ZERO,
    filledNotional: ZERO,
    fees: {},
    createdAt: v.createdAt ?? now,
    updatedAt: now,
    submittedAt: v.createdAt ?? now,
    acceptedAt: v.createdAt ?? now,
  };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byVenueOrder = (a: VenueOrder, b: VenueOrder): number => cmp(a.venueOrderId, b.venueOrderId);
