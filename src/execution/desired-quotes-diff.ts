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
}

/**
 * `resting` is this strategy's live orders on the symbol. Orders pending cancel are ignored (they are
 * leaving); orders submitted or pending amend can satisfy a quote that equals their target but are
 * not touched otherwise, because a second request racing the first gains nothing.
 */
export function diffDesiredQuotes(desired: readonly DesiredQuote[], resting: readonly Order[], opts: QuoteDiffOptions): QuoteDiff {
  const pTol = opts.priceTolerance ?? ZERO;
  const qTol = opts.quantityTolerance ?? ZERO;
  const inFlight: Order[] = [];
  const candidates: Candidate[] = [];
  for (const o of resting) {
    if (o.status === 'pending-cancel') continue;
    if (o.type !== 'limit' || !o.price || !o.quantity) continue;
    const rem = remainingQty(o) ?? ZERO;
    if (o.status === 'submitted' || o.status === 'pending-amend') inFlight.push(o);
    else if (o.status === 'accepted' || o.status === 'partially-filled') candidates.push({ order: o, remaining: rem });
  }

  // Zero tolerance (the usual case) compares without building difference Decimals.
  const near = (a: Decimal, b: Decimal, tol: Decimal): boolean => (tol.isZero() ? a.eq(b) : a.minus(b).abs().lte(tol));
  const equal = (c: { order: Order; remaining: Decimal }, q: DesiredQuote): boolean =>
    compatible(c.order, q) && near(c.order.price!, q.price, pTol) && near(c.remaining, q.quantity, qTol);

  let open = [...desired];
  const keep: { order: Order; quote: DesiredQuote }[] = [];

  // In-flight orders first: if one already targets a desired quote, nothing to send for it.
  const flightLeft: Order[] = [];
  for (const o of inFlight) {
    const i = open.findIndex((q) => equal({ order: o, remaining: remainingQty(o) ?? ZERO }, q));
    if (i >= 0) {
      keep.push({ order: o, quote: open[i]! });
      open.splice(i, 1);
    } else flightLeft.push(o);
  }

  // Exact matches: same slot first (keeps slots stable), then any slot.
  let live = [...candidates];
  for (const sameSlotOnly of [true, false]) {
    const nextLive: Candidate[] = [];
    for (const c of live) {
      const i = open.findIndex((q) => (!sameSlotOnly || q.slot === c.order.slot) && equal(c, q));
      if (i >= 0) {
        keep.push({ order: c.order, quote: open[i]! });
        open.splice(i, 1);
      } else nextLive.push(c);
    }
    live = nextLive;
  }

  const amends: QuoteAmend[] = [];
  if (opts.amend === 'native') {
    // Pair leftovers for amends: same slot first, then by price rank within each side.
    const pair = (c: Candidate, q: DesiredQuote): void => {
      const filled = c.order.filledQty;
      // Nothing filled (the usual amend): 0 + quantity is the quantity, without a Decimal operation.
      const quantity = filled.isZero() && !q.quantity.isZero() && withinPrecision(q.quantity) ? q.quantity : filled.plus(q.quantity);
      amends.push({ order: c.order, quote: q, price: q.price, quantity });
    };
    const nextLive: Candidate[] = [];
    for (const c of live) {
      const i = open.findIndex((q) => q.slot === c.order.slot && compatible(c.order, q));
      if (i >= 0) {
        pair(c, open[i]!);
        open.splice(i, 1);
      } else nextLive.push(c);
    }
    live = nextLive;
    for (const side of ['buy', 'sell'] as const) {
      const ls = live.filter((c) => c.order.side === side).sort((a, b) => byTouch(side, a.order.price!, b.order.price!));
      const qs = open.filter((q) => q.side === side).sort((a, b) => byTouch(side, a.price, b.price));
      const usedL = new Set<Candidate>();
      const usedQ = new Set<DesiredQuote>();
      for (const q of qs) {
        const c = ls.find((x) => !usedL.has(x) && compatible(x.order, q));
        if (!c) continue;
        usedL.add(c);
        usedQ.add(q);
        pair(c, q);
      }
      live = live.filter((c) => !usedL.has(c));
      open = open.filter((q) => !usedQ.has(q));
    }
  }

  const cancels = live.map((c) => c.order).sort((a, b) => touchRankOrder(a, b));
  cancels.push(...flightLeft.filter((o) => o.status === 'submitted'));
  const places = [...open].sort((a, b) => (a.side === b.side ? byTouch(a.side, a.price, b.price) : a.side === 'buy' ? -1 : 1));
  amends.sort((a, b) => (a.quote.side === b.quote.side ? byTouch(a.quote.side, a.price, b.price) : a.quote.side === 'buy' ? -1 : 1));

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

/** Nearest the touch first: highest bid, lowest ask. */
function byTouch(side: 'buy' | 'sell', a: Decimal, b: Decimal): number {
  return side === 'buy' ? b.comparedTo(a) : a.comparedTo(b);
}

function touchRankOrder(a: Order, b: Order): number {
  if (a.side !== b.side) return a.side === 'buy' ? -1 : 1;
  return byTouch(a.side, a.price!, b.price!);
}
