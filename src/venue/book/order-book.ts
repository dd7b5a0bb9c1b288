/**
 * Integer limit order book: prices in ticks, sizes in lots (plain JS safe integers), price-time
 * priority, partial fills. Shared by the spot venue, the contract venue and the market model, so the
 * API below is stable: extend it, do not break it.
 *
 * API (all O(1) unless noted; L = number of price levels on a side, Q = orders at one level)
 *
 *   new OrderBook<T, Id>()                   T = the caller's payload carried on each resting order;
 *                                            Id = string (default) or number order ids
 *   add(id, side, priceTicks, lots, owner, data?) → BookOrder<T>
 *                                            rests an order at the tail of its level. O(log L), plus an
 *                                            array splice when a new level opens away from the touch.
 *                                            Throws RangeError on a duplicate id, non-positive /
 *                                            non-integer lots or price, or a price that would cross the
 *                                            opposite best (match first, then rest the remainder).
 *   cancel(id) → BookOrder<T> | undefined    removes an order; undefined when unknown.
 *   remove(order) → boolean                  cancel() by the handle add() returned (no id lookup);
 *                                            false when it is no longer on the book.
 *   amend(id, newPriceTicks, newLots) → BookOrder<T> | undefined
 *                                            size decrease at the same price keeps queue priority;
 *                                            a price change or a size increase moves the order to the
 *                                            tail of its (new) level. Same validation as add().
 *   reduce(id, byLots) → BookOrder<T> | undefined
 *                                            shrinks in place (keeps priority); removes at zero.
 *   match(side, opts, selfTrade?) → MatchResult<T>
 *                                            takes liquidity for an incoming `side` order: walks the
 *                                            opposite side best-first within opts.limitTicks, up to
 *                                            opts.lots and (optionally) opts.quoteBudget, removing filled
 *                                            makers. selfTrade(maker) returns an StpAction.
 *   sweep(side, limitTicks, lots, sink) → lots
 *                                            match() for the common case (no self-trade check, no quote
 *                                            budget) without building a result: each fill goes to
 *                                            sink.onFill as it happens. The allocation-free path of a
 *                                            taker in the spot venue.
 *   previewMatch(side, opts, selfTrade?) → { lots, quote }
 *                                            what match() would fill, without changing anything
 *                                            (fill-or-kill checks, LIMIT_MAKER style checks).
 *   wouldCross(side, priceTicks) → boolean   an order of `side` at that price would take liquidity.
 *   bestBid() / bestAsk() → number | undefined             best price in ticks
 *   bestBidLots() / bestAskLots() → number                 lots resting at the best level (0 if empty)
 *   depth(side, levels) → DepthLevel[]       aggregated [priceTicks, lots, orderCount], best first, O(levels)
 *   ordersAt(side, priceTicks) → BookOrder<T>[]            FIFO order at one level, O(Q)
 *   queuePosition(id) → QueuePosition | undefined          lots/orders ahead at the same level, O(Q)
 *   version → number                         counts changes: +1 per add, cancel, amend or reduce that
 *                                            found its order, per match that filled or removed something,
 *                                            per clear (a depth snapshot's update id)
 *   get(id) / has(id) / size / levelCount(side)
 *   orders(side?) → IterableIterator<BookOrder<T>>         priority order (best level first, FIFO)
 *   levels(side) → IterableIterator<BookLevel<T>>          best first
 *   clear()
 *   checkInvariants() → string[]             empty when consistent (tests call this after every event)
 *
 * Quote units: "tick-lots" = Σ priceTicks·lots. For a spot pair with tick 0.01 and step 0.000001 one
 * tick-lot is 0.00000001 quote. opts.quoteBudget (number or bigint) is honoured exactly; the
 * MatchResult.quote / previewMatch().quote sums are doubles, exact below 2^53 (≈ 9·10^15).
 *
 * Why this shape: each side is an array of levels sorted so the BEST level is LAST (push/pop at the
 * touch is O(1), which is where almost all traffic lands), a Map price→level for O(1) level lookup,
 * and an intrusive doubly-linked FIFO per level so cancel is O(1) without searching the queue. No
 * Decimal, no closures allocated per event; the only per-fill allocation is the Fill record returned.
 */

export type BookSide = 'BUY' | 'SELL';

/** What to do when the taker meets one of its own (same STP group) resting orders. */
export const StpAction = {
  /** Trade normally (a self-trade is reported as such by the caller). */
  Trade: 0,
  /** Remove the resting order and keep matching. */
  CancelMaker: 1,
  /** Stop matching; the caller cancels the taker's remainder. */
  CancelTaker: 2,
  /** Remove the resting order and stop matching. */
  CancelBoth: 3,
} as const;
export type StpAction = (typeof StpAction)[keyof typeof StpAction];

export type SelfTradeCheck<T, Id extends BookOrderId = string> = (maker: BookOrder<T, Id>) => StpAction;

/** Order ids are strings by default; a caller with integer ids (the spot venue) saves string hashing. */
export type BookOrderId = string | number;

export interface BookOrder<T = unknown, Id extends BookOrderId = string> {
  readonly id: Id;
  readonly side: BookSide;
  /** Current price (changes only through amend). */
  priceTicks: number;
  /** Remaining (unfilled) lots on the book. */
  lots: number;
  readonly owner: string;
  /** Insertion sequence (time priority); renewed when an amend loses priority. */
  seq: number;
  data: T;
  /** @internal intrusive FIFO links; do not touch. */
  prev: BookOrder<T, Id> | null;
  /** @internal */
  next: BookOrder<T, Id> | null;
  /** @internal */
  level: BookLevel<T, Id> | null;
}

export interface BookLevel<T = unknown, Id extends BookOrderId = string> {
  readonly priceTicks: number;
  totalLots: number;
  count: number;
  head: BookOrder<T, Id> | null;
  tail: BookOrder<T, Id> | null;
}

export interface MatchOptions {
  /** Worst price the taker accepts; undefined = market (no limit). */
  limitTicks?: number | undefined;
  /** Most lots to fill; Infinity when only a quote budget bounds the order. */
  lots: number;
  /**
   * Most tick-lots to spend (buy) or receive (sell); undefined = unbounded. A bigint keeps budgets
   * above 2^53 exact (a 4M USDT order on a 0.01 × 0.00000001 pair is 4·10^17 tick-lots); only this
   * path pays for BigInt arithmetic.
   */
  quoteBudget?: number | bigint | undefined;
}

export interface Fill<T = unknown, Id extends BookOrderId = string> {
  /** The resting order (already updated: maker.lots is what is left). */
  readonly maker: BookOrder<T, Id>;
  readonly priceTicks: number;
  readonly lots: number;
  /** The maker has nothing left and was removed from the book. */
  readonly makerDone: boolean;
}

export interface MatchResult<T = unknown, Id extends BookOrderId = string> {
  readonly fills: Fill<T, Id>[];
  /** Σ fill lots. */
  readonly lots: number;
  /**
   * Σ priceTicks·lots of the fills (tick-lots), as a double: exact below 2^53. Callers that need exact
   * money sum BigInt(f.priceTicks) * BigInt(f.lots) over the fills.
   */
  readonly quote: number;
  /** Resting orders removed by self-trade prevention (CancelMaker / CancelBoth), in meeting order. */
  readonly stpCancelled: BookOrder<T, Id>[];
  /** Matching stopped because of CancelTaker / CancelBoth. */
  readonly takerStopped: boolean;
}

/**
 * Receives the fills of sweep(): the maker is already updated (maker.lots is what is left) and, when
 * done, removed from the book. One object serves many calls (no closure per taker). It must not read
 * or change the book it is called from: the sweep is mid-way.
 */
export interface FillSink<T = unknown, Id extends BookOrderId = string> {
  onFill(maker: BookOrder<T, Id>, priceTicks: number, lots: number, makerDone: boolean): void;
}

export type DepthLevel = [priceTicks: number, lots: number, orderCount: number];

export interface QueuePosition {
  readonly ordersAhead: number;
  readonly lotsAhead: number;
  /** Lots at the level in total, including this order. */
  readonly levelLots: number;
}

/** The read-only face of a book, for code that must look but not touch (depth, tickers, models). */
export type OrderBookView<T = unknown, Id extends BookOrderId = string> = Pick<
  OrderBook<T, Id>,
  | 'size'
  | 'version'
  | 'levelCount'
  | 'get'
  | 'has'
  | 'bestBid'
  | 'bestAsk'
  | 'bestBidLots'
  | 'bestAskLots'
  | 'wouldCross'
  | 'previewMatch'
  | 'depth'
  | 'ordersAt'
  | 'queuePosition'
  | 'levels'
  | 'orders'
  | 'checkInvariants'
>;

const NO_STOP = 0;

/** Entries of one of the book's maps but its filler (see the maps). */
const sizeWithoutFiller = (map: ReadonlyMap<unknown, unknown>): number => map.size - (map.has(null) ? 1 : 0);

export class OrderBook<T = unknown, Id extends BookOrderId = string> {
  /** Sorted by price ascending: best bid last. */
  private readonly bidLevels: BookLevel<T, Id>[] = [];
  /** Sorted by price descending: best ask last. */
  private readonly askLevels: BookLevel<T, Id>[] = [];
  // Each map holds one filler entry (key null, value undefined) so that it never empties: a Map that a
  // delete leaves empty is shrunk — a call into the runtime and a new table — on every such delete, and
  // a book that fills each order it rests (a maker+taker cycle) empties its id map and a level map each
  // time. Nothing relies on the filler being there (a book restored from an older snapshot has none).
  private readonly bidMap = new Map<number | null, BookLevel<T, Id> | undefined>([[null, undefined]]);
  private readonly askMap = new Map<number | null, BookLevel<T, Id> | undefined>([[null, undefined]]);
  private readonly byId = new Map<Id | null, BookOrder<T, Id> | undefined>([[null, undefined]]);
  private seqCounter = 0;
  private changes = 0;

  get size(): number {
    return sizeWithoutFiller(this.byId);
  }

  get version(): number {
    return this.changes;
  }

  levelCount(side: BookSide): number {
    return side === 'BUY' ? this.bidLevels.length : this.askLevels.length;
  }

  get(id: Id): BookOrder<T, Id> | undefined {
    return this.byId.get(id);
  }

  has(id: Id): boolean {
    return this.byId.has(id);
  }

  bestBid(): number | undefined {
    const n = this.bidLevels.length;
    return n === 0 ? undefined : this.bidLevels[n - 1]!.priceTicks;
  }

  bestAsk(): number | undefined {
    const n = this.askLevels.length;
    return n === 0 ? undefined : this.askLevels[n - 1]!.priceTicks;
  }

  bestBidLots(): number {
    const n = this.bidLevels.length;
    return n === 0 ? 0 : this.bidLevels[n - 1]!.totalLots;
  }

  bestAskLots(): number {
    const n = this.askLevels.length;
    return n === 0 ? 0 : this.askLevels[n - 1]!.totalLots;
  }

  /** An order of `side` at `priceTicks` would take liquidity from the opposite side. */
  wouldCross(side: BookSide, priceTicks: number): boolean {
    if (side === 'BUY') {
      const n = this.askLevels.length;
      return n !== 0 && priceTicks >= this.askLevels[n - 1]!.priceTicks;
    }
    const n = this.bidLevels.length;
    return n !== 0 && priceTicks <= this.bidLevels[n - 1]!.priceTicks;
  }

  add(id: Id, side: BookSide, priceTicks: number, lots: number, owner: string, data?: T): BookOrder<T, Id> {
    const order: BookOrder<T, Id> = {
      id,
      side,
      priceTicks,
      lots,
      owner,
      seq: 0,
      data: data as T,
      prev: null,
      next: null,
      level: null,
    };
    // One hash operation instead of has() then set(): a duplicate id shows as an unchanged size (it
    // replaced the resting order, which is put back before throwing).
    const size = this.byId.size;
    this.byId.set(id, order);
    if (this.byId.size === size) {
      this.reindex(id);
      throw new RangeError(`order ${id} is already on the book`);
    }
    if (!isPositiveInt(priceTicks) || !isPositiveInt(lots) || this.wouldCross(side, priceTicks)) {
      this.byId.delete(id);
      checkPositiveInt('priceTicks', priceTicks);
      checkPositiveInt('lots', lots);
      throw new RangeError(`order ${id} at ${priceTicks} would cross the book; match it first`);
    }
    order.seq = ++this.seqCounter;
    this.enqueue(order);
    this.changes++;
    return order;
  }

  cancel(id: Id): BookOrder<T, Id> | undefined {
    const order = this.byId.get(id);
    if (order === undefined) return undefined;
    this.changes++;
    this.byId.delete(id);
    this.unlink(order);
    return order;
  }

  /** cancel() by the handle this book's add() returned; false when the order has left the book already. */
  remove(order: BookOrder<T, Id>): boolean {
    if (order.level === null) return false;
    this.changes++;
    this.byId.delete(order.id);
    this.unlink(order);
    return true;
  }

  amend(id: Id, newPriceTicks: number, newLots: number): BookOrder<T, Id> | undefined {
    const order = this.byId.get(id);
    if (order === undefined) return undefined;
    checkPositiveInt('priceTicks', newPriceTicks);
    checkPositiveInt('lots', newLots);
    if (newPriceTicks !== order.priceTicks && this.wouldCross(order.side, newPriceTicks))
      throw new RangeError(`amend of ${id} to ${newPriceTicks} would cross the book`);
    this.changes++;
    if (newPriceTicks === order.priceTicks) {
      if (newLots <= order.lots) {
        order.level!.totalLots -= order.lots - newLots;
        order.lots = newLots;
        return order;
      }
      this.unlink(order);
      order.lots = newLots;
      order.seq = ++this.seqCounter;
      this.enqueue(order);
      return order;
    }
    this.unlink(order);
    order.priceTicks = newPriceTicks;
    order.lots = newLots;
    order.seq = ++this.seqCounter;
    this.enqueue(order);
    return order;
  }

  reduce(id: Id, byLots: number): BookOrder<T, Id> | undefined {
    const order = this.byId.get(id);
    if (order === undefined) return undefined;
    checkPositiveInt('byLots', byLots);
    this.changes++;
    if (byLots >= order.lots) {
      this.byId.delete(id);
      this.unlink(order);
      order.lots = 0;
      return order;
    }
    order.lots -= byLots;
    order.level!.totalLots -= byLots;
    return order;
  }

  match(side: BookSide, opts: MatchOptions, selfTrade?: SelfTradeCheck<T, Id>): MatchResult<T, Id> {
    const fills: Fill<T, Id>[] = [];
    const stpCancelled: BookOrder<T, Id>[] = [];
    const levels = side === 'BUY' ? this.askLevels : this.bidLevels;
    const map = side === 'BUY' ? this.askMap : this.bidMap;
    const isBuy = side === 'BUY';
    const limit = opts.limitTicks === undefined ? (isBuy ? Infinity : -Infinity) : opts.limitTicks;
    let wanted = opts.lots;
    const budgeted = opts.quoteBudget !== undefined;
    let budget = budgeted ? BigInt(opts.quoteBudget!) : 0n;
    let filled = 0;
    let quote = 0;
    let stopped = false;
    outer: while (wanted > 0 && levels.length !== 0) {
      const level = levels[levels.length - 1]!;
      const price = level.priceTicks;
      if (isBuy ? price > limit : price < limit) break;
      let order = level.head;
      while (order !== null) {
        const next = order.next;
        if (selfTrade !== undefined) {
          const action = selfTrade(order);
          if (action !== NO_STOP) {
            if (action === StpAction.CancelMaker || action === StpAction.CancelBoth) {
              this.byId.delete(order.id);
              this.unlink(order);
              stpCancelled.push(order);
            }
            if (action === StpAction.CancelTaker || action === StpAction.CancelBoth) {
              stopped = true;
              break outer;
            }
            order = next;
            continue;
          }
        }
        let take = order.lots < wanted ? order.lots : wanted;
        if (budgeted) {
          const affordable = budget / BigInt(price);
          if (affordable < BigInt(take)) take = Number(affordable);
          if (take <= 0) break outer;
          budget -= BigInt(take) * BigInt(price);
        }
        order.lots -= take;
        level.totalLots -= take;
        wanted -= take;
        filled += take;
        quote += take * price;
        const done = order.lots === 0;
        if (done) {
          this.byId.delete(order.id);
          // Unlink from the head without the general path: the filled maker is always the head here.
          level.head = next;
          if (next !== null) next.prev = null;
          else level.tail = null;
          level.count--;
          order.next = null;
          order.level = null;
        }
        fills.push({ maker: order, priceTicks: price, lots: take, makerDone: done });
        if (wanted <= 0) break;
        order = next;
      }
      if (level.count === 0) {
        // Fills leave the emptied level in place; an STP removal (unlink) may already have dropped it.
        if (levels[levels.length - 1] === level) {
          levels.pop();
          map.delete(price);
        }
      } else if (wanted > 0) {
        // Level not exhausted yet wanted remains: the budget ran out.
        break;
      }
    }
    if (fills.length !== 0 || stpCancelled.length !== 0) this.changes++;
    return { fills, lots: filled, quote, stpCancelled, takerStopped: stopped };
  }

  /** match(side, { limitTicks, lots }) with each fill handed to `sink` instead of collected; returns the lots filled. */
  sweep(side: BookSide, limitTicks: number | undefined, lots: number, sink: FillSink<T, Id>): number {
    const isBuy = side === 'BUY';
    const levels = isBuy ? this.askLevels : this.bidLevels;
    const map = isBuy ? this.askMap : this.bidMap;
    const limit = limitTicks === undefined ? (isBuy ? Infinity : -Infinity) : limitTicks;
    let wanted = lots;
    while (wanted > 0 && levels.length !== 0) {
      const level = levels[levels.length - 1]!;
      const price = level.priceTicks;
      if (isBuy ? price > limit : price < limit) break;
      let order = level.head;
      while (order !== null && wanted > 0) {
        const next: BookOrder<T, Id> | null = order.next;
        const take = order.lots < wanted ? order.lots : wanted;
        order.lots -= take;
        level.totalLots -= take;
        wanted -= take;
        const done = order.lots === 0;
        if (done) {
          // The filled maker is always the head here (same as match()).
          this.byId.delete(order.id);
          level.head = next;
          if (next !== null) next.prev = null;
          else level.tail = null;
          level.count--;
          order.next = null;
          order.level = null;
        }
        sink.onFill(order, price, take, done);
        order = next;
      }
      if (level.count === 0) {
        levels.pop();
        map.delete(price);
      }
    }
    const filled = lots - wanted;
    if (filled !== 0) this.changes++;
    return filled;
  }

  previewMatch(side: BookSide, opts: MatchOptions, selfTrade?: SelfTradeCheck<T, Id>): { lots: number; quote: number } {
    const levels = side === 'BUY' ? this.askLevels : this.bidLevels;
    const isBuy = side === 'BUY';
    const limit = opts.limitTicks === undefined ? (isBuy ? Infinity : -Infinity) : opts.limitTicks;
    let wanted = opts.lots;
    const budgeted = opts.quoteBudget !== undefined;
    let budget = budgeted ? BigInt(opts.quoteBudget!) : 0n;
    let filled = 0;
    let quote = 0;
    outer: for (let i = levels.length - 1; i >= 0 && wanted > 0; i--) {
      const level = levels[i]!;
      const price = level.priceTicks;
      if (isBuy ? price > limit : price < limit) break;
      if (selfTrade === undefined && !budgeted) {
        const take = level.totalLots < wanted ? level.totalLots : wanted;
        wanted -= take;
        filled += take;
        quote += take * price;
        continue;
      }
      for (let order = level.head; order !== null; order = order.next) {
        if (selfTrade !== undefined) {
          const action = selfTrade(order);
          if (action === StpAction.CancelTaker || action === StpAction.CancelBoth) break outer;
          if (action === StpAction.CancelMaker) continue;
        }
        let take = order.lots < wanted ? order.lots : wanted;
        if (budgeted) {
          const affordable = budget / BigInt(price);
          if (affordable < BigInt(take)) take = Number(affordable);
          if (take <= 0) break outer;
          budget -= BigInt(take) * BigInt(price);
        }
        wanted -= take;
        filled += take;
        quote += take * price;
        if (wanted <= 0) break outer;
      }
    }
    return { lots: filled, quote };
  }

  depth(side: BookSide, levels: number): DepthLevel[] {
    const arr = side === 'BUY' ? this.bidLevels : this.askLevels;
    const out: DepthLevel[] = [];
    for (let i = arr.length - 1; i >= 0 && out.length < levels; i--) {
      const l = arr[i]!;
      out.push([l.priceTicks, l.totalLots, l.count]);
    }
    return out;
  }

  ordersAt(side: BookSide, priceTicks: number): BookOrder<T, Id>[] {
    const level = (side === 'BUY' ? this.bidMap : this.askMap).get(priceTicks);
    const out: BookOrder<T, Id>[] = [];
    for (let o = level?.head ?? null; o !== null; o = o.next) out.push(o);
    return out;
  }

  queuePosition(id: Id): QueuePosition | undefined {
    const order = this.byId.get(id);
    if (order === undefined) return undefined;
    let ordersAhead = 0;
    let lotsAhead = 0;
    for (let o = order.level!.head; o !== null && o !== order; o = o.next) {
      ordersAhead++;
      lotsAhead += o.lots;
    }
    return { ordersAhead, lotsAhead, levelLots: order.level!.totalLots };
  }

  *levels(side: BookSide): IterableIterator<BookLevel<T, Id>> {
    const arr = side === 'BUY' ? this.bidLevels : this.askLevels;
    for (let i = arr.length - 1; i >= 0; i--) yield arr[i]!;
  }

  /** Resting orders in priority order; bids then asks when no side is given. */
  *orders(side?: BookSide): IterableIterator<BookOrder<T, Id>> {
    const sides: BookSide[] = side === undefined ? ['BUY', 'SELL'] : [side];
    for (const s of sides) {
      for (const level of this.levels(s)) {
        for (let o = level.head; o !== null; o = o.next) yield o;
      }
    }
  }

  clear(): void {
    this.changes++;
    for (const o of this.byId.values()) {
      if (o === undefined) continue;
      o.prev = o.next = null;
      o.level = null;
    }
    this.byId.clear();
    this.byId.set(null, undefined);
    this.bidLevels.length = 0;
    this.askLevels.length = 0;
    this.bidMap.clear();
    this.askMap.clear();
    this.bidMap.set(null, undefined);
    this.askMap.set(null, undefined);
  }

  /** Structural self-check for tests; returns the problems found (empty = consistent). */
  checkInvariants(): string[] {
    const problems: string[] = [];
    let counted = 0;
    for (const side of ['BUY', 'SELL'] as const) {
      const arr = side === 'BUY' ? this.bidLevels : this.askLevels;
      const map = side === 'BUY' ? this.bidMap : this.askMap;
      if (arr.length !== sizeWithoutFiller(map)) problems.push(`${side}: ${arr.length} levels but ${sizeWithoutFiller(map)} in the map`);
      for (let i = 0; i < arr.length; i++) {
        const l = arr[i]!;
        if (map.get(l.priceTicks) !== l) problems.push(`${side}: level ${l.priceTicks} missing from the map`);
        if (i > 0) {
          const prev = arr[i - 1]!.priceTicks;
          if (side === 'BUY' ? prev >= l.priceTicks : prev <= l.priceTicks)
            problems.push(`${side}: levels out of order at ${l.priceTicks}`);
        }
        let lots = 0;
        let count = 0;
        let prevSeq = -Infinity;
        let prevOrder: BookOrder<T, Id> | null = null;
        for (let o = l.head; o !== null; o = o.next) {
          count++;
          lots += o.lots;
          if (o.lots <= 0) problems.push(`order ${o.id} rests with ${o.lots} lots`);
          if (o.level !== l) problems.push(`order ${o.id} points at the wrong level`);
          if (o.prev !== prevOrder) problems.push(`order ${o.id} has a broken prev link`);
          if (o.priceTicks !== l.priceTicks || o.side !== side) problems.push(`order ${o.id} sits at the wrong level`);
          if (o.seq <= prevSeq) problems.push(`order ${o.id} breaks time priority`);
          if (this.byId.get(o.id) !== o) problems.push(`order ${o.id} missing from the id map`);
          prevSeq = o.seq;
          prevOrder = o;
        }
        if (l.tail !== prevOrder) problems.push(`${side}: level ${l.priceTicks} tail is wrong`);
        if (count === 0) problems.push(`${side}: empty level ${l.priceTicks} kept`);
        if (count !== l.count) problems.push(`${side}: level ${l.priceTicks} count ${l.count} != ${count}`);
        if (lots !== l.totalLots) problems.push(`${side}: level ${l.priceTicks} lots ${l.totalLots} != ${lots}`);
        counted += count;
      }
    }
    if (counted !== this.size) problems.push(`${counted} orders on levels but ${this.size} in the id map`);
    const bb = this.bestBid();
    const ba = this.bestAsk();
    if (bb !== undefined && ba !== undefined && bb >= ba) problems.push(`crossed book: bid ${bb} >= ask ${ba}`);
    return problems;
  }

  /** Points the id map back at the resting order with this id (after add() overwrote it). */
  private reindex(id: Id): void {
    for (const o of this.orders()) {
      if (o.id === id) {
        this.byId.set(id, o);
        return;
      }
    }
  }

  private enqueue(order: BookOrder<T, Id>): void {
    const isBid = order.side === 'BUY';
    const map = isBid ? this.bidMap : this.askMap;
    let level = map.get(order.priceTicks);
    if (level === undefined) {
      level = { priceTicks: order.priceTicks, totalLots: 0, count: 0, head: null, tail: null };
      map.set(order.priceTicks, level);
      insertLevel(isBid ? this.bidLevels : this.askLevels, level, isBid);
    }
    order.level = level;
    order.next = null;
    order.prev = level.tail;
    if (level.tail === null) level.head = order;
    else level.tail.next = order;
    level.tail = order;
    level.count++;
    level.totalLots += order.lots;
  }

  private unlink(order: BookOrder<T, Id>): void {
    const level = order.level!;
    if (order.prev === null) level.head = order.next;
    else order.prev.next = order.next;
    if (order.next === null) level.tail = order.prev;
    else order.next.prev = order.prev;
    order.prev = order.next = null;
    order.level = null;
    level.count--;
    level.totalLots -= order.lots;
    if (level.count === 0) {
      const isBid = order.side === 'BUY';
      (isBid ? this.bidMap : this.askMap).delete(level.priceTicks);
      removeLevel(isBid ? this.bidLevels : this.askLevels, level, isBid);
    }
  }
}

/** Insert keeping the array sorted with the best level last (bids ascending, asks descending). */
function insertLevel<T, Id extends BookOrderId>(arr: BookLevel<T, Id>[], level: BookLevel<T, Id>, isBid: boolean): void {
  const p = level.priceTicks;
  const n = arr.length;
  // Fast path: a new best level (most common for active quoting).
  if (n === 0 || (isBid ? p > arr[n - 1]!.priceTicks : p < arr[n - 1]!.priceTicks)) {
    arr.push(level);
    return;
  }
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const mp = arr[mid]!.priceTicks;
    if (isBid ? mp < p : mp > p) lo = mid + 1;
    else hi = mid;
  }
  arr.splice(lo, 0, level);
}

function removeLevel<T, Id extends BookOrderId>(arr: BookLevel<T, Id>[], level: BookLevel<T, Id>, isBid: boolean): void {
  const n = arr.length;
  if (arr[n - 1] === level) {
    arr.pop();
    return;
  }
  const p = level.priceTicks;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const mp = arr[mid]!.priceTicks;
    if (isBid ? mp < p : mp > p) lo = mid + 1;
    else hi = mid;
  }
  if (arr[lo] === level) arr.splice(lo, 1);
}

function isPositiveInt(v: number): boolean {
  return Number.isSafeInteger(v) && v > 0;
}

function checkPositiveInt(name: string, v: number): void {
  if (!isPositiveInt(v)) throw new RangeError(`${name} must be a positive safe integer, got ${v}`);
}
