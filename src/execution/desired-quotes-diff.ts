/**
 * Turns "the quotes I want resting" into the fewest venue calls (pure).
 *
 * Lower bound: after removing resting orders that already equal a desired quote, every remaining
 * desired quote needs a call (place or amend) and every remaining order needs a call (cancel or
 * amend), and one amend serves one of each. So per side the floor is max(desired', resting') calls
 * with native amend, and desired' + resting' without (cancel-replace costs a cancel and a place
 * anyway) — batching then divides places and cancels by the batch size. This function reaches it.
 *
 * When the rate budget cannot pay for everything, calls are chosen in this order: cancels (a stale
 * quote can be picked off), then amends, then places, each nearest the touch first. The rest is
 * reported as deferred; the next snapshot recomputes the diff from scratch, so nothing is queued.
 */
import { type Decimal, withinPrecision, ZERO } from '../core/decimal.js';
import type { DesiredQuote } from '../domain/intent.js';
import { type Order, remainingQty } from '../domain/order.js';

export interface QuoteDiffOptions {
  /** native: one call changes price and quantity (contract change_limit_order); cancel-replace: no amend. */
  readonly amend: 'native' | 'cancel-replace';
  /** Orders per placement call (1 = no batching; spot batchOrders takes 20). */
  readonly batchPlaceMax: number;
  /** Orders per cancel call (1 = one by one; contract order/cancel takes 50). */
  readonly batchCancelMax: number;
  /** Calls this round may spend. */
  readonly budget: number;
  /** A resting order within this distance of the desired price counts as equal (default 0). */
  readonly priceTolerance?: Decimal;
  /** Likewise for the remaining quantity (default 0). */
  readonly quantityTolerance?: Decimal;
}

export interface QuoteAmend {
  readonly order: Order;
  readonly quote: DesiredQuote;
  readonly price: Decimal;
  /** New TOTAL order quantity: what already filled plus the desired remaining quantity. */
  readonly quantity: Decimal;
}

export interface QuoteDiffPlan {
  readonly cancels: readonly Order[];
  readonly amends: readonly QuoteAmend[];
  readonly places: readonly DesiredQuote[];
}

export interface QuoteDiff extends QuoteDiffPlan {
  /** Resting orders that already match a desired quote. */
  readonly keep: readonly { order: Order; quote: DesiredQuote }[];
  /** Orders with a request in flight (sent, amending, cancelling): left alone this round. */
  readonly inFlight: readonly Order[];
  /** What the budget could not pay for. */
  readonly deferred: QuoteDiffPlan;
  /** Calls the chosen plan costs (≤ budget). */
  readonly calls: number;
  /** Calls the full plan would cost. */
  readonly callsNeeded: number;
}

interface Candidate {
  readonly order: Order;
  readonly remaining: Decimal;
  /** order.price and remaining as doubles (see sameValue). */
  readonly px: number;
  readonly rem: number;
  /** The order's slot and compatibility code, read once (see compatCode). */
  readonly slot: string | undefined;
  readonly code: number;
}

const candidate = (order: Order, remaining: Decimal): Candidate => ({
  order,
  remaining,
  px: order.price!.toNumber(),
  rem: remaining.toNumber(),
  slot: order.slot,
  code: compatCode(order.side, order.positionSide, order.reduceOnly, order.timeInForce),
});

const POSITION_SIDES: readonly unknown[] = [undefined, 'long', 'short'];
const TIFS: readonly unknown[] = ['gtc', 'ioc', 'fok', 'post-only'];

/**
 * What compatible() compares, as one small integer: side, position side, reduce-only (absent = false) and
 * time in force. Two codes are equal exactly when the four values are; −1 for a value outside the known
 * ones, which then goes to compatible() itself. Each order was compared with each quote field by field.
 */
function compatCode(side: unknown, positionSide: unknown, reduceOnly: unknown, tif: unknown): number {
  const s = side === 'buy' ? 0 : side === 'sell' ? 1 : -1;
  const p = POSITION_SIDES.indexOf(positionSide);
  const r = reduceOnly === undefined || reduceOnly === false ? 0 : reduceOnly === true ? 1 : -1;
  const t = TIFS.indexOf(tif);
  return s < 0 || p < 0 || r < 0 || t < 0 ? -1 : s + 2 * (p + 3 * (r + 2 * t));
}

/**
 * `a` and `b` within `tol` (`a.eq(b)` when tol is 0), given each value's double (`toNumber()`). The
 * conversion is correctly rounded, so equal values have equal doubles and different doubles mean
 * different values: comparing the doubles first leaves the exact comparison only for pairs that may
 * be equal — each quote against each resting order was a Decimal comparison before.
 */
function sameValue(a: Decimal, an: number, b: Decimal, bn: number, tol: Decimal, exact: boolean): boolean {
  if (exact) return an === bn && a.eq(b);
  return a.minus(b).abs().lte(tol);
}

/**
 * `byTouch(side, a, b)` given the doubles: different doubles order the values as they order themselves;
 * equal ones (or NaN) leave it to the Decimal comparison.
 */
function touch(side: 'buy' | 'sell', an: number, a: Decimal, bn: number, b: Decimal): number {
  if (side === 'buy') return bn < an ? -1 : bn > an ? 1 : b.comparedTo(a);
  return an < bn ? -1 : an > bn ? 1 : a.comparedTo(b);
}

/**
 * `resting` is this strategy's live orders on the symbol. Orders pending cancel are ignored (they are
 * leaving); orders submitted or pending amend can satisfy a quote that equals their target but are
 * not touched otherwise, because a second request racing the first gains nothing.
 *
 * Matching walks the desired quotes in their order, skipping those already used (what `findIndex` on a
 * list spliced as quotes were used did), and compares prices and quantities as doubles first.
 * test/execution/desired-quotes-diff-equivalence.test.ts holds it to the earlier Decimal formulation.
 */
export function diffDesiredQuotes(desired: readonly DesiredQuote[], resting: readonly Order[], opts: QuoteDiffOptions): QuoteDiff {
  const pTol = opts.priceTolerance ?? ZERO;
  const qTol = opts.quantityTolerance ?? ZERO;
  const pExact = pTol.isZero();
  const qExact = qTol.isZero();
  const inFlight: Order[] = [];
  let live: Candidate[] = [];
  for (const o of resting) {
    if (o.status === 'pending-cancel') continue;
    if (o.type !== 'limit' || !o.price || !o.quantity) continue;
    if (o.status === 'submitted' || o.status === 'pending-amend') inFlight.push(o);
    else if (o.status === 'accepted' || o.status === 'partially-filled') live.push(candidate(o, remainingQty(o) ?? ZERO));
  }

  const n = desired.length;
  const qPx: number[] = new Array<number>(n);
  const qQty: number[] = new Array<number>(n);
  /** Quotes no order stands for yet (the earlier `open` list, kept as flags over `desired`). */
  const qSlot: string[] = new Array<string>(n);
  const qCode: number[] = new Array<number>(n);
  const open: boolean[] = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    const q = desired[i]!;
    qPx[i] = q.price.toNumber();
    qQty[i] = q.quantity.toNumber();
    qSlot[i] = q.slot;
    qCode[i] = compatCode(q.side, q.positionSide, q.reduceOnly, q.timeInForce ?? 'gtc');
    open[i] = true;
  }
  const fits = (c: Candidate, i: number): boolean =>
    c.code >= 0 && qCode[i]! >= 0 ? c.code === qCode[i] : compatible(c.order, desired[i]!);
  const equal = (c: Candidate, i: number): boolean =>
    fits(c, i) &&
    sameValue(c.order.price!, c.px, desired[i]!.price, qPx[i]!, pTol, pExact) &&
    sameValue(c.remaining, c.rem, desired[i]!.quantity, qQty[i]!, qTol, qExact);
  const keep: { order: Order; quote: DesiredQuote }[] = [];

  // In-flight orders first: if one already targets a desired quote, nothing to send for it.
  const flightLeft: Order[] = [];
  for (const o of inFlight) {
    const c = candidate(o, remainingQty(o) ?? ZERO);
    let i = 0;
    while (i < n && !(open[i] && equal(c, i))) i++;
    if (i < n) {
      keep.push({ order: o, quote: desired[i]! });
      open[i] = false;
    } else flightLeft.push(o);
  }

  // Exact matches: same slot first (keeps slots stable), then any slot.
  for (let pass = 0; pass < 2; pass++) {
    const sameSlotOnly = pass === 0;
    const nextLive: Candidate[] = [];
    for (const c of live) {
      let i = 0;
      while (i < n && !(open[i] && (!sameSlotOnly || qSlot[i] === c.slot) && equal(c, i))) i++;
      if (i < n) {
        keep.push({ order: c.order, quote: desired[i]! });
        open[i] = false;
      } else nextLive.push(c);
    }
    live = nextLive;
  }

  const amends: QuoteAmend[] = [];
  /** Quote index of each amend, for sorting by the quote's price. */
  const amendQuote: number[] = [];
  if (opts.amend === 'native') {
    // Pair leftovers for amends: same slot first, then by price rank within each side.
    const pair = (c: Candidate, i: number): void => {
      const q = desired[i]!;
      const filled = c.order.filledQty;
      // Nothing filled (the usual amend): 0 + quantity is the quantity, without a Decimal operation.
      const quantity = filled.isZero() && !q.quantity.isZero() && withinPrecision(q.quantity) ? q.quantity : filled.plus(q.quantity);
      amends.push({ order: c.order, quote: q, price: q.price, quantity });
      amendQuote.push(i);
      open[i] = false;
    };
    const nextLive: Candidate[] = [];
    for (const c of live) {
      let i = 0;
      while (i < n && !(open[i] && qSlot[i] === c.slot && fits(c, i))) i++;
      if (i < n) pair(c, i);
      else nextLive.push(c);
    }
    live = nextLive;
    // Nothing left on either side (every leftover paired by slot, the usual round): no rank pairing.
    for (const side of live.length > 0 ? (['buy', 'sell'] as const) : []) {
      const ls = live.filter((c) => c.order.side === side).sort((a, b) => touch(side, a.px, a.order.price!, b.px, b.order.price!));
      const qs: number[] = [];
      for (let i = 0; i < n; i++) if (open[i] && desired[i]!.side === side) qs.push(i);
      qs.sort((a, b) => touch(side, qPx[a]!, desired[a]!.price, qPx[b]!, desired[b]!.price));
      const usedL = new Set<Candidate>();
      for (const i of qs) {
        const c = ls.find((x) => !usedL.has(x) && fits(x, i));
        if (!c) continue;
        usedL.add(c);
        pair(c, i);
      }
      if (usedL.size > 0) live = live.filter((c) => !usedL.has(c));
    }
  }

  const cancelled = live.sort((a, b) =>
    a.order.side !== b.order.side ? (a.order.side === 'buy' ? -1 : 1) : touch(a.order.side, a.px, a.order.price!, b.px, b.order.price!),
  );
  const cancels = cancelled.map((c) => c.order);
  for (const o of flightLeft) if (o.status === 'submitted') cancels.push(o);
  const placeIdx: number[] = [];
  for (let i = 0; i < n; i++) if (open[i]) placeIdx.push(i);
  const bySideThenTouch = (a: number, b: number): number => {
    const qa = desired[a]!;
    const qb = desired[b]!;
    return qa.side === qb.side ? touch(qa.side, qPx[a]!, qa.price, qPx[b]!, qb.price) : qa.side === 'buy' ? -1 : 1;
  };
  const places = placeIdx.sort(bySideThenTouch).map((i) => desired[i]!);
  // Already in order (slot pairs of quotes placed in rank order, the usual round): a stable sort would
  // leave them as they are. Otherwise sorted through their indices (the same comparisons, the same order).
  let inOrder = true;
  for (let k = 1; k < amends.length && inOrder; k++) inOrder = bySideThenTouch(amendQuote[k - 1]!, amendQuote[k]!) <= 0;
  if (!inOrder) {
    const order = amends.map((_, k) => k).sort((x, y) => bySideThenTouch(amendQuote[x]!, amendQuote[y]!));
    const sorted = order.map((k) => amends[k]!);
    for (let k = 0; k < sorted.length; k++) amends[k] = sorted[k]!;
  }

  const full: QuoteDiffPlan = { cancels, amends, places };
  const callsNeeded = costOf(full, opts);
  const chosen = withinBudget(full, opts);
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

/** Calls a plan costs with batching. */
export function costOf(plan: QuoteDiffPlan, opts: Pick<QuoteDiffOptions, 'batchPlaceMax' | 'batchCancelMax'>): number {
  const b = (n: number, max: number): number => (n === 0 ? 0 : Math.ceil(n / Math.max(1, max)));
  return b(plan.cancels.length, opts.batchCancelMax) + plan.amends.length + b(plan.places.length, opts.batchPlaceMax);
}

function withinBudget(plan: QuoteDiffPlan, opts: QuoteDiffOptions): QuoteDiffPlan {
  let left = Math.max(0, Math.floor(opts.budget));
  const take = <T>(items: readonly T[], batch: number): T[] => {
    const out: T[] = [];
    for (const it of items) {
      const startsCall = out.length % Math.max(1, batch) === 0;
      if (startsCall) {
        if (left === 0) break;
        left--;
      }
      out.push(it);
    }
    return out;
  };
  const cancels = take(plan.cancels, opts.batchCancelMax);
  const amends = take(plan.amends, 1);
  const places = take(plan.places, opts.batchPlaceMax);
  return { cancels, amends, places };
}

/** An order can stand for a quote only with the same side and the same position / tif semantics. */
function compatible(o: Order, q: DesiredQuote): boolean {
  return (
    o.side === q.side &&
    o.positionSide === q.positionSide &&
    (o.reduceOnly ?? false) === (q.reduceOnly ?? false) &&
    o.timeInForce === (q.timeInForce ?? 'gtc')
  );
}
