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
import { type DesiredQuote, slotCode } from '../domain/intent.js';
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

/**
 * One resting order as the matching reads it: each field read once. Orders come in many hidden classes
 * (keys added as they move through their states), so loads from them are polymorphic; a Candidate is one
 * class, and its loads in the matching loops stay monomorphic.
 */
class Candidate {
  /** order.price and remaining as doubles (see sameValue). */
  readonly px: number;
  readonly rem: number;
  readonly slot: string | undefined;
  /** slotCode() of the slot, −1 without one or for a slot SLOT_PATTERN refuses (see Quotes.sameSlot). */
  readonly slotCode: number;
  readonly side: 'buy' | 'sell';
  /** The order's compatibility code (see compatCode). */
  readonly code: number;

  constructor(
    readonly order: Order,
    readonly remaining: Decimal,
  ) {
    this.px = order.price!.toNumber();
    this.rem = remaining.toNumber();
    this.slot = order.slot;
    this.slotCode = typeof order.slot === 'string' ? slotCode(order.slot) : -1;
    this.side = order.side;
    this.code = compatCode(order.side, order.positionSide, order.reduceOnly, order.timeInForce);
  }
}

/**
 * What compatible() compares, as one small integer: side, position side, reduce-only (absent = false) and
 * time in force. Two codes are equal exactly when the four values are; −1 for a value outside the known
 * ones, which then goes to compatible() itself. Each order was compared with each quote field by field.
 */
function compatCode(side: unknown, positionSide: unknown, reduceOnly: unknown, tif: unknown): number {
  const s = side === 'buy' ? 0 : side === 'sell' ? 1 : -1;
  const p = positionSide === undefined ? 0 : positionSide === 'long' ? 1 : positionSide === 'short' ? 2 : -1;
  const r = reduceOnly === undefined || reduceOnly === false ? 0 : reduceOnly === true ? 1 : -1;
  const t = tif === 'gtc' ? 0 : tif === 'ioc' ? 1 : tif === 'fok' ? 2 : tif === 'post-only' ? 3 : -1;
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

/** How a resting order is matched with a quote: same slot and equal, equal, same slot and compatible. */
const SAME_SLOT_EQUAL = 0;
const EQUAL = 1;
const SAME_SLOT_FITS = 2;

/**
 * The desired quotes as the matching reads them (each field read once), and which of them no order
 * stands for yet (`open`: the earlier list of open quotes, kept as flags over `desired`).
 */
class Quotes {
  readonly px: number[] = [];
  readonly qty: number[] = [];
  readonly slot: string[] = [];
  readonly slotCode: number[] = [];
  readonly code: number[] = [];
  readonly open: boolean[] = [];
  private readonly pExact: boolean;
  private readonly qExact: boolean;

  constructor(
    readonly desired: readonly DesiredQuote[],
    private readonly pTol: Decimal,
    private readonly qTol: Decimal,
  ) {
    this.pExact = pTol.isZero();
    this.qExact = qTol.isZero();
    // A ladder's quotes share one quantity object (Decimals are immutable values): converted once.
    let quantity: Decimal | undefined;
    let qty = NaN;
    for (let i = 0; i < desired.length; i++) {
      const q = desired[i]!;
      this.px.push(q.price.toNumber());
      if (q.quantity !== quantity) {
        quantity = q.quantity;
        qty = quantity.toNumber();
      }
      this.qty.push(qty);
      this.slot.push(q.slot);
      this.slotCode.push(typeof q.slot === 'string' ? slotCode(q.slot) : -1);
      this.code.push(compatCode(q.side, q.positionSide, q.reduceOnly, q.timeInForce ?? 'gtc'));
      this.open.push(true);
    }
  }

  /**
   * The order's slot is quote i's. Compared by slot code where both have one (equal codes are equal
   * slots): the slots are strings made at run time, so `!==` was a string comparison (a builtin call),
   * ~50 a snapshot of the runtime-core bench.
   */
  sameSlot(c: Candidate, i: number): boolean {
    const code = this.slotCode[i]!;
    return code >= 0 && c.slotCode >= 0 ? code === c.slotCode : this.slot[i] === c.slot;
  }

  fits(c: Candidate, i: number): boolean {
    const code = this.code[i]!;
    return c.code >= 0 && code >= 0 ? c.code === code : compatible(c.order, this.desired[i]!);
  }

  equal(c: Candidate, i: number): boolean {
    const q = this.desired[i]!;
    return (
      this.fits(c, i) &&
      sameValue(c.order.price!, c.px, q.price, this.px[i]!, this.pTol, this.pExact) &&
      sameValue(c.remaining, c.rem, q.quantity, this.qty[i]!, this.qTol, this.qExact)
    );
  }

  /** The first open quote `c` can stand for under `how` (quotes in their order), or −1. */
  find(c: Candidate, how: number): number {
    const n = this.desired.length;
    for (let i = 0; i < n; i++) {
      if (!this.open[i]) continue;
      if (how !== EQUAL && !this.sameSlot(c, i)) continue;
      if (how === SAME_SLOT_FITS ? this.fits(c, i) : this.equal(c, i)) return i;
    }
    return -1;
  }

  /** `byTouch` of quotes a and b, buys first. */
  rank(a: number, b: number): number {
    const qa = this.desired[a]!;
    const qb = this.desired[b]!;
    return qa.side === qb.side ? touch(qa.side, this.px[a]!, qa.price, this.px[b]!, qb.price) : qa.side === 'buy' ? -1 : 1;
  }
}

/** The amends of a round and the quote each serves (to order them by the quote's price). */
class Amends {
  readonly list: QuoteAmend[] = [];
  readonly quote: number[] = [];

  constructor(private readonly quotes: Quotes) {}

  pair(c: Candidate, i: number): void {
    const q = this.quotes.desired[i]!;
    const filled = c.order.filledQty;
    // Nothing filled (the usual amend): 0 + quantity is the quantity, without a Decimal operation.
    const quantity = filled.isZero() && !q.quantity.isZero() && withinPrecision(q.quantity) ? q.quantity : filled.plus(q.quantity);
    this.list.push({ order: c.order, quote: q, price: q.price, quantity });
    this.quote.push(i);
    this.quotes.open[i] = false;
  }

  /** In the order of their quotes (buys first, each side nearest the touch first): a stable sort. */
  sorted(): QuoteAmend[] {
    const { list, quote, quotes } = this;
    // Already in order (slot pairs of quotes placed in rank order, the usual round): a stable sort would
    // leave them as they are. Otherwise sorted through their indices (the same comparisons, the same order).
    let inOrder = true;
    for (let k = 1; k < list.length && inOrder; k++) inOrder = quotes.rank(quote[k - 1]!, quote[k]!) <= 0;
    if (inOrder) return list;
    const order = list.map((_, k) => k).sort((x, y) => quotes.rank(quote[x]!, quote[y]!));
    return order.map((k) => list[k]!);
  }
}

/**
 * Keeps (in `keep`) each candidate that matches an open quote under `how`, in turn; returns the others
 * in their order.
 */
function keepMatches(quotes: Quotes, live: Candidate[], how: number, keep: { order: Order; quote: DesiredQuote }[]): Candidate[] {
  let left = 0;
  for (let k = 0; k < live.length; k++) {
    const c = live[k]!;
    const i = quotes.find(c, how);
    if (i >= 0) {
      keep.push({ order: c.order, quote: quotes.desired[i]! });
      quotes.open[i] = false;
    } else live[left++] = c;
  }
  live.length = left;
  return live;
}

/** Native amends: leftovers paired with open quotes of their own slot; returns the unpaired, in their order. */
function pairBySlot(quotes: Quotes, live: Candidate[], amends: Amends): Candidate[] {
  let left = 0;
  for (let k = 0; k < live.length; k++) {
    const c = live[k]!;
    const i = quotes.find(c, SAME_SLOT_FITS);
    if (i >= 0) amends.pair(c, i);
    else live[left++] = c;
  }
  live.length = left;
  return live;
}

/** Native amends, then: the rest paired by price rank within each side; returns the unpaired, in their order. */
function pairByRank(quotes: Quotes, live: Candidate[], amends: Amends): Candidate[] {
  const { desired, open, px } = quotes;
  for (const side of ['buy', 'sell'] as const) {
    const ls = live.filter((c) => c.side === side).sort((a, b) => touch(side, a.px, a.order.price!, b.px, b.order.price!));
    const qs: number[] = [];
    for (let i = 0; i < desired.length; i++) if (open[i] && desired[i]!.side === side) qs.push(i);
    qs.sort((a, b) => touch(side, px[a]!, desired[a]!.price, px[b]!, desired[b]!.price));
    const usedL = new Set<Candidate>();
    for (const i of qs) {
      const c = ls.find((x) => !usedL.has(x) && quotes.fits(x, i));
      if (!c) continue;
      usedL.add(c);
      amends.pair(c, i);
    }
    if (usedL.size > 0) live = live.filter((c) => !usedL.has(c));
  }
  return live;
}

/** Candidates left to cancel, buys first, each side nearest the touch first. */
function cancelOrder(a: Candidate, b: Candidate): number {
  return a.side !== b.side ? (a.side === 'buy' ? -1 : 1) : touch(a.side, a.px, a.order.price!, b.px, b.order.price!);
}

const NOTHING: readonly never[] = Object.freeze([]);
const NOTHING_DEFERRED: QuoteDiffPlan = Object.freeze({ cancels: NOTHING, amends: NOTHING, places: NOTHING });

/**
 * `resting` is this strategy's live orders on the symbol. Orders pending cancel are ignored (they are
 * leaving); orders submitted or pending amend can satisfy a quote that equals their target but are
 * not touched otherwise, because a second request racing the first gains nothing.
 *
 * Matching walks the desired quotes in their order, skipping those already used (what `findIndex` on a
 * list spliced as quotes were used did), and compares prices and quantities as doubles first.
 * test/execution/desired-quotes-diff-equivalence.test.ts holds it to the earlier Decimal formulation.
 *
 * Written as small functions over two classes (Candidate, Quotes) rather than one function with closures:
 * that one took TurboFan 180–300 ms to compile, and it was thrown away 5–6 times over the runtime-core
 * bench's first 7 passes (wrong map at the rarely taken array calls of its tail), running as baseline code
 * meanwhile.
 */
export function diffDesiredQuotes(desired: readonly DesiredQuote[], resting: readonly Order[], opts: QuoteDiffOptions): QuoteDiff {
  const quotes = new Quotes(desired, opts.priceTolerance ?? ZERO, opts.quantityTolerance ?? ZERO);
  const inFlight: Order[] = [];
  let live: Candidate[] = [];
  for (let k = 0; k < resting.length; k++) {
    const o = resting[k]!;
    const status = o.status;
    if (status === 'pending-cancel') continue;
    if (o.type !== 'limit' || !o.price || !o.quantity) continue;
    if (status === 'submitted' || status === 'pending-amend') inFlight.push(o);
    else if (status === 'accepted' || status === 'partially-filled') live.push(new Candidate(o, remainingQty(o) ?? ZERO));
  }
  const keep: { order: Order; quote: DesiredQuote }[] = [];

  // In-flight orders first: if one already targets a desired quote, nothing to send for it.
  const flightLeft: Order[] = [];
  for (let k = 0; k < inFlight.length; k++) {
    const o = inFlight[k]!;
    const i = quotes.find(new Candidate(o, remainingQty(o) ?? ZERO), EQUAL);
    if (i >= 0) {
      keep.push({ order: o, quote: desired[i]! });
      quotes.open[i] = false;
    } else flightLeft.push(o);
  }

  // Exact matches: same slot first (keeps slots stable), then any slot.
  live = keepMatches(quotes, live, SAME_SLOT_EQUAL, keep);
  live = keepMatches(quotes, live, EQUAL, keep);

  const pairs = new Amends(quotes);
  if (opts.amend === 'native') {
    // Pair leftovers for amends: same slot first, then by price rank within each side.
    live = pairBySlot(quotes, live, pairs);
    // Nothing left on either side (every leftover paired by slot, the usual round): no rank pairing.
    if (live.length > 0) live = pairByRank(quotes, live, pairs);
  }

  if (live.length > 1) live.sort(cancelOrder);
  const cancels: Order[] = [];
  for (let k = 0; k < live.length; k++) cancels.push(live[k]!.order);
  const stillInFlight: Order[] = [];
  for (let k = 0; k < flightLeft.length; k++) {
    const o = flightLeft[k]!;
    if (o.status === 'submitted') cancels.push(o);
    else stillInFlight.push(o);
  }
  const placeIdx: number[] = [];
  for (let i = 0; i < desired.length; i++) if (quotes.open[i]) placeIdx.push(i);
  if (placeIdx.length > 1) placeIdx.sort((a, b) => quotes.rank(a, b));
  const places: DesiredQuote[] = [];
  for (let k = 0; k < placeIdx.length; k++) places.push(desired[placeIdx[k]!]!);
  const amends = pairs.sorted();

  const full: QuoteDiffPlan = { cancels, amends, places };
  const callsNeeded = costOf(full, opts);
  // Everything affordable (the usual round): the plan is the full one and nothing is deferred.
  if (callsNeeded <= Math.floor(opts.budget))
    return { keep, inFlight: stillInFlight, cancels, amends, places, deferred: NOTHING_DEFERRED, calls: callsNeeded, callsNeeded };
  const chosen = withinBudget(full, opts);
  return {
    keep,
    inFlight: stillInFlight,
    cancels: chosen.cancels,
    amends: chosen.amends,
    places: chosen.places,
    deferred: {
      cancels: cancels.slice(chosen.cancels.length),
      amends: amends.slice(chosen.amends.length),
      places: places.slice(chosen.places.length),
    },
    calls: costOf(chosen, opts),
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
