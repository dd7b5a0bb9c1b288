import { Decimal, ZERO } from '../../core/decimal.js';
import type { Instrument } from '../../domain/instrument.js';
import { isLive, type Order, type OrderSpec } from '../../domain/order.js';
import { positionKey } from '../../domain/position.js';
import type { MarketSnapshot } from '../../domain/snapshot.js';
import { legOf } from '../exposure.js';
import {
  byTouchPriority,
  effectivePrice,
  fmt,
  isOpening,
  orderRemaining,
  proposalRemaining,
  type ProposedOrder,
  proposedOrders,
  releasedOrders,
  slotOf,
} from '../order-proposals.js';
import type { RiskRule, RiskState } from '../risk-rule.js';
import { approxNumber, SCREEN_MARGIN } from '../approx-number.js';
import type { Intent } from '../../domain/intent.js';
import type { AccountSnapshot } from '../../domain/balance.js';

const RULE = 'free-balance';

interface Need {
  readonly asset: string;
  readonly amount: Decimal;
}

/**
 * Funds an order holds while it rests. Spot: quote for a buy (price·qty, or the quote amount), base for
 * a sell. Contract, opening only: initial margin price·qty·contractSize / leverage plus the taker fee on
 * that notional; closing orders hold nothing. Undefined when it cannot be priced (fail closed).
 */
export function reservationOf(
  spec: OrderSpec,
  remaining: Decimal,
  instrument: Instrument,
  snapshot: MarketSnapshot | undefined,
  leverage: Readonly<Record<string, number>>,
  quoteLeft?: Decimal,
): Need | undefined {
  if (instrument.kind === 'spot') {
    if (spec.side === 'sell') return { asset: instrument.baseAsset, amount: remaining };
    if (spec.quoteQuantity && !spec.quantity) return { asset: instrument.quoteAsset, amount: quoteLeft ?? spec.quoteQuantity };
    const px = priceFor(spec, remaining, snapshot);
    return px ? { asset: instrument.quoteAsset, amount: px.mul(remaining) } : undefined;
  }
  if (!isOpening(spec)) return { asset: instrument.settleCoin, amount: ZERO };
  const px = priceFor(spec, remaining, snapshot);
  const lev = spec.leverage ?? leverage[positionKey(instrument.symbol, legOf(spec))];
  if (!px || !lev) return undefined;
  const notional = px.mul(remaining).mul(instrument.contractSize);
  return { asset: instrument.settleCoin, amount: notional.div(lev).plus(notional.mul(instrument.takerFeeRate)) };
}

/** effectivePrice of the order for `remaining` (a limit order is its price: no copy of the spec needed). */
const priceFor = (spec: OrderSpec, remaining: Decimal, snapshot: MarketSnapshot | undefined): Decimal | undefined =>
  spec.type === 'limit' ? spec.price : effectivePrice({ ...spec, quantity: remaining }, snapshot);

/**
 * Reservations of our resting limit orders, kept per order object: orders are immutable values (a fill
 * or an amend makes a new one), and a limit order's reservation depends on nothing else but its
 * instrument and leg leverage, both checked on a hit. A quote set re-judged every snapshot mostly meets
 * the same resting orders, held and released: this took 20 of every 30 reservations off the Decimal
 * path of a 10-quote set.
 *
 * Kept by client id, each entry naming the order object it was made for (a hit must be that object): an
 * amend makes a new object every snapshot, and a WeakMap entry per new object cost more than the
 * reservation it saved, while a Map entry per client id is overwritten in place. Cleared when it grows
 * past LIMIT_RESERVATIONS_MAX (closed orders' entries are never read again).
 */
const limitReservations = new Map<string, OrderReservation>();
const LIMIT_RESERVATIONS_MAX = 4096;

/** An order's reservation for the screen in doubles, and (made when first asked) in Decimal for the exact path. */
interface OrderReservation {
  readonly order: Order;
  readonly instrument: Instrument;
  readonly lev: number | undefined;
  /** Undefined when the order cannot be valued (reservationOf() is undefined). */
  readonly approx: ApproxNeed | undefined;
  need?: Need | undefined;
  readonly exact: () => Need | undefined;
}

/** reservationOf() of a live order, for what remains of it. */
function orderReservation(
  o: Order,
  instrument: Instrument,
  snapshot: MarketSnapshot | undefined,
  leverage: Readonly<Record<string, number>>,
): OrderReservation {
  const lev = instrument.kind === 'contract' ? (o.leverage ?? leverage[positionKey(instrument.symbol, legOf(o))]) : undefined;
  const limit = o.type === 'limit' && !(o.quoteQuantity && !o.quantity);
  const hit = limit ? limitReservations.get(o.clientOrderId) : undefined;
  if (hit !== undefined && hit.order === o && hit.instrument === instrument && hit.lev === lev) return hit;
  const exact = (): Need | undefined =>
    reservationOf(o, orderRemaining(o), instrument, snapshot, leverage, o.quoteQuantity?.minus(o.filledNotional));
  let approx: ApproxNeed | undefined;
  if (limit) {
    // orderRemaining() in doubles: quantity − filled, never below 0.
    const q = o.quantity ? approxNumber(o.quantity) : 0;
    const f = o.quantity && !o.filledQty.isZero() ? approxNumber(o.filledQty) : 0;
    const px = o.price ? approxNumber(o.price) : NaN;
    approx = approxReservationOf(o, px, q - f > 0 ? q - f : 0, Math.abs(q) + Math.abs(f), instrument, leverage);
  } else {
    const need = exact();
    approx = need && { asset: need.asset, amount: approxNumber(need.amount), magnitude: Math.abs(approxNumber(need.amount)) };
  }
  const r: OrderReservation = {
    order: o,
    instrument,
    lev,
    approx,
    exact(): Need | undefined {
      if (!('need' in r)) r.need = exact();
      return r.need;
    },
  };
  if (limit) {
    if (limitReservations.size >= LIMIT_RESERVATIONS_MAX && !limitReservations.has(o.clientOrderId)) limitReservations.clear();
    limitReservations.set(o.clientOrderId, r);
  }
  return r;
}

const reservationOfOrder = (
  o: Order,
  instrument: Instrument,
  snapshot: MarketSnapshot | undefined,
  leverage: Readonly<Record<string, number>>,
): Need | undefined => orderReservation(o, instrument, snapshot, leverage).exact();

/** A reservation in doubles, with the magnitudes summed into it (the bound of its rounding error). */
interface ApproxNeed {
  readonly asset: string;
  readonly amount: number;
  readonly magnitude: number;
}

/**
 * reservationOf() in doubles for a limit order (a spot buy by quote amount excepted) of `remaining`:
 * undefined exactly where reservationOf() is (no price, or no leverage to open a contract with).
 */
function approxReservationOf(
  spec: OrderSpec,
  /** approxNumber(spec.price), converted by the caller (a proposal carries it). */
  price: number,
  remaining: number,
  remainingMagnitude: number,
  instrument: Instrument,
  leverage: Readonly<Record<string, number>>,
): ApproxNeed | undefined {
  if (instrument.kind === 'spot') {
    if (spec.side === 'sell') return { asset: instrument.baseAsset, amount: remaining, magnitude: remainingMagnitude };
    if (!spec.price) return undefined;
    return { asset: instrument.quoteAsset, amount: price * remaining, magnitude: Math.abs(price) * remainingMagnitude };
  }
  if (!isOpening(spec)) return { asset: instrument.settleCoin, amount: 0, magnitude: 0 };
  const lev = spec.leverage ?? leverage[positionKey(instrument.symbol, legOf(spec))];
  if (!spec.price || !lev) return undefined;
  const { contractSize, takerFee: fee } = contractDoubles(instrument);
  const scale = price * contractSize;
  const notional = scale * remaining;
  return {
    asset: instrument.settleCoin,
    amount: notional / lev + notional * fee,
    magnitude: Math.abs(scale) * remainingMagnitude * (1 / Math.abs(lev) + Math.abs(fee)),
  };
}

/**
 * An instrument's contract size and taker fee rate as doubles, kept for the last instrument asked about
 * (instruments are immutable values): the screen converted both for every proposal and every order.
 */
let doublesOf: { readonly instrument: Instrument; readonly contractSize: number; readonly takerFee: number } | undefined;
function contractDoubles(instrument: Instrument & { kind: 'contract' }): { readonly contractSize: number; readonly takerFee: number } {
  if (doublesOf === undefined || doublesOf.instrument !== instrument)
    doublesOf = { instrument, contractSize: approxNumber(instrument.contractSize), takerFee: approxNumber(instrument.takerFeeRate) };
  return doublesOf;
}

/** What our live orders hold in `asset`; a string naming an order that cannot be valued (fail closed). */
function heldByOurOrders(asset: string, state: RiskState, instrument: Instrument): { held: Decimal; pendingCancel: number } | string {
  let held = ZERO;
  let pendingCancel = 0;
  for (const o of state.openOrders) {
    if (!isLive(o.status) || o.kind !== instrument.kind) continue;
    const inst = o.symbol === instrument.symbol ? instrument : state.instruments?.instrument(o.symbol);
    if (!inst) return `no instrument rules for ${o.symbol} to value our order ${o.clientOrderId} (fail closed)`;
    // A limit order is valued at its price; a resting market order elsewhere is valued by nothing we hold.
    const r = reservationOfOrder(o, inst, o.symbol === instrument.symbol ? state.snapshot : undefined, state.leverage);
    if (!r) return `cannot value our order ${o.clientOrderId} on ${o.symbol} (no price or leverage; fail closed)`;
    if (r.asset !== asset) continue;
    held = held.plus(r.amount);
    if (o.status === 'pending-cancel') pendingCancel++;
  }
  return { held, pendingCancel };
}

/**
 * Free balance (spot) or available margin (contract) covers what the intent adds. Available is
 * min(free, free + locked − held by our live orders): the venue's free figure may not yet reflect
 * orders we just sent, and our orders pending cancel keep holding funds until the venue confirms.
 * Orders the intent replaces give their funds back.
 */
export const freeBalanceRule: RiskRule = (intent, instrument, state) => {
  if (!instrument || !state.account) return undefined;
  const proposals = proposedOrders(intent, instrument, state);
  if (proposals.length === 0) return undefined;
  if (clearlyCovered(intent, proposals, instrument, state, state.account)) return undefined;
  const released = releasedOrders(intent, state);
  const releasedBy = new Map<string, Decimal>();
  for (const o of released) {
    const r = reservationOfOrder(o, instrument, state.snapshot, state.leverage);
    if (r) releasedBy.set(r.asset, (releasedBy.get(r.asset) ?? ZERO).plus(r.amount));
  }
  const needBy = new Map<string, Decimal>();
  const countBy = new Map<string, number>();
  // Per asset, once: what our orders hold and what is available (the same for every proposal).
  const availableBy = new Map<string, { held: Decimal; pendingCancel: number; available: Decimal } | string>();
  for (const p of byTouchPriority(proposals)) {
    const r = reservationOf(p.spec, proposalRemaining(p), instrument, state.snapshot, state.leverage);
    if (!r)
      return {
        rule: RULE,
        reason: `cannot price the funds ${p.spec.side} ${fmt(p.spec.quantity ?? 0)} needs (no price or leverage; fail closed)`,
        ...slotOf(p),
      };
    if (r.amount.isZero()) continue;
    const need = (needBy.get(r.asset) ?? ZERO).plus(r.amount);
    needBy.set(r.asset, need);
    countBy.set(r.asset, (countBy.get(r.asset) ?? 0) + 1);
    const b = state.account.balances[r.asset];
    const free = b?.free ?? ZERO;
    const locked = b?.locked ?? ZERO;
    let a = availableBy.get(r.asset);
    if (a === undefined) {
      const h = heldByOurOrders(r.asset, state, instrument);
      a =
        typeof h === 'string'
          ? h
          : { ...h, available: Decimal.min(free, free.plus(locked).minus(h.held)).plus(releasedBy.get(r.asset) ?? ZERO) };
      availableBy.set(r.asset, a);
    }
    if (typeof a === 'string') return { rule: RULE, reason: a, ...slotOf(p) };
    const { held, pendingCancel, available } = a;
    if (need.gt(available)) {
      const n = countBy.get(r.asset)!;
      return {
        rule: RULE,
        reason:
          `needs ${fmt(need)} ${r.asset} (${n} order${n === 1 ? '' : 's'}) but ${fmt(Decimal.max(available, ZERO))} ${r.asset} is available ` +
          `(free ${fmt(free)}, locked ${fmt(locked)}, held by our orders ${fmt(held)} incl. ${pendingCancel} pending cancel, released by this intent ${fmt(releasedBy.get(r.asset) ?? ZERO)})`,
        ...slotOf(p),
      };
    }
  }
  return undefined;
};

/** Per asset the screen touches: what the proposals need, and the magnitudes summed into the comparison. */
interface ScreenAsset {
  readonly asset: string;
  need: number;
  held: number;
  released: number;
  magnitude: number;
}

/**
 * True only when the exact rule would allow the intent with room to spare: every proposal is a priced
 * limit order whose funds are positive, every live order can be valued, and per asset the whole set's
 * need is below what is available by more than SCREEN_MARGIN of the magnitudes involved. Needs are
 * positive, so every prefix the exact rule checks (nearest the touch first) is below the total. It
 * decides in doubles what a quote set re-judged every snapshot almost always is — well inside its
 * funds — without ~60 Decimal operations; any denial, and anything near the limit, takes the exact path
 * (which words the denial).
 * @internal Exported for the property test that holds it to the Decimal formula.
 */
export function clearlyCovered(
  intent: Intent,
  proposals: readonly ProposedOrder[],
  instrument: Instrument,
  state: RiskState,
  account: AccountSnapshot,
): boolean {
  const assets: ScreenAsset[] = [];
  const entry = (asset: string): ScreenAsset => {
    for (let i = 0; i < assets.length; i++) if (assets[i]!.asset === asset) return assets[i]!;
    const a = { asset, need: 0, held: 0, released: 0, magnitude: 0 };
    assets.push(a);
    return a;
  };
  for (let i = 0; i < proposals.length; i++) {
    const p = proposals[i]!;
    const spec = p.spec;
    if (spec.type !== 'limit' || (spec.quoteQuantity && !spec.quantity)) return false;
    const remaining = p.remainingApprox;
    const r = approxReservationOf(spec, p.priceApprox, remaining, Math.abs(remaining), instrument, state.leverage);
    if (!r) return false;
    // A closing contract order holds nothing: the exact rule skips it too.
    if (instrument.kind === 'contract' && !isOpening(spec)) continue;
    // Zero, negative or not finite: the exact rule skips or judges it.
    if (!(r.amount > r.magnitude * SCREEN_MARGIN)) return false;
    const a = entry(r.asset);
    a.need += r.amount;
    a.magnitude += r.magnitude;
  }
  if (assets.length === 0) return false;
  const open = state.openOrders;
  for (let i = 0; i < open.length; i++) {
    const o = open[i]!;
    if (!isLive(o.status) || o.kind !== instrument.kind) continue;
    const inst = o.symbol === instrument.symbol ? instrument : state.instruments?.instrument(o.symbol);
    if (!inst) return false;
    const r = orderReservation(o, inst, o.symbol === instrument.symbol ? state.snapshot : undefined, state.leverage).approx;
    if (!r) return false;
    for (let k = 0; k < assets.length; k++) {
      const a = assets[k]!;
      if (a.asset !== r.asset) continue;
      a.held += r.amount;
      a.magnitude += r.magnitude;
    }
  }
  const released = releasedOrders(intent, state);
  for (let i = 0; i < released.length; i++) {
    const r = orderReservation(released[i]!, instrument, state.snapshot, state.leverage).approx;
    if (!r) continue;
    for (let k = 0; k < assets.length; k++) {
      const a = assets[k]!;
      if (a.asset !== r.asset) continue;
      a.released += r.amount;
      a.magnitude += r.magnitude;
    }
  }
  for (let k = 0; k < assets.length; k++) {
    const a = assets[k]!;
    const b = account.balances[a.asset];
    const free = b ? approxNumber(b.free) : 0;
    const locked = b ? approxNumber(b.locked) : 0;
    const available = Math.min(free, free + locked - a.held) + a.released;
    const magnitude = a.magnitude + Math.abs(free) + Math.abs(locked);
    if (!(a.need + magnitude * SCREEN_MARGIN < available)) return false;
  }
  return true;
}
