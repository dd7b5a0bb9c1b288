/**
 * A price-level (L2) book rebuilt from a depth snapshot and depth diffs, in integer ticks and lots,
 * with the venue's sequencing rules:
 *  - diffs before the first snapshot are ignored ('no-snapshot');
 *  - a diff whose final id u is ≤ the book's id is stale and dropped;
 *  - the first diff after a snapshot must bracket it (U ≤ id + 1); later diffs must chain, by
 *    `pu === previous u` where the venue sends pu (futures), else by `U === previous u + 1` (spot);
 *  - a break is counted and reported as 'gap' but the diff is still applied: replay prefers a book
 *    that is slightly off to no book at all, and the next snapshot resynchronises it.
 */
export type DiffOutcome = 'applied' | 'gap' | 'stale' | 'no-snapshot';

/** [priceTicks, lots] */
export type L2Level = readonly [priceTicks: number, lots: number];

class LevelSide {
  /** Ascending prices. */
  private prices: number[] = [];
  private readonly lots = new Map<number, number>();

  constructor(private readonly descending: boolean) {}

  get size(): number {
    return this.prices.length;
  }

  clear(): void {
    this.prices = [];
    this.lots.clear();
  }

  set(price: number, lots: number): void {
    const had = this.lots.has(price);
    if (lots <= 0) {
      if (!had) return;
      this.lots.delete(price);
      this.prices.splice(this.indexOf(price), 1);
      return;
    }
    this.lots.set(price, lots);
    if (!had) this.prices.splice(this.indexOf(price), 0, price);
  }

  best(): number | undefined {
    const n = this.prices.length;
    if (n === 0) return undefined;
    return this.descending ? this.prices[n - 1] : this.prices[0];
  }

  top(n: number): L2Level[] {
    const out: L2Level[] = [];
    const len = this.prices.length;
    for (let k = 0; k < n && k < len; k++) {
      const p = this.prices[this.descending ? len - 1 - k : k]!;
      out.push([p, this.lots.get(p)!]);
    }
    return out;
  }

  private indexOf(price: number): number {
    let lo = 0;
    let hi = this.prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.prices[mid]! < price) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export class L2Book {
  private readonly bids = new LevelSide(true);
  private readonly asks = new LevelSide(false);
  private id: number | undefined;
  private firstAfterSnapshot = false;
  gaps = 0;

  get lastUpdateId(): number | undefined {
    return this.id;
  }

  applySnapshot(lastUpdateId: number, bids: Iterable<L2Level>, asks: Iterable<L2Level>): void {
    this.bids.clear();
    this.asks.clear();
    for (const [p, q] of bids) this.bids.set(p, q);
    for (const [p, q] of asks) this.asks.set(p, q);
    this.id = lastUpdateId;
    this.firstAfterSnapshot = true;
  }

  applyDiff(U: number, u: number, pu: number | undefined, bids: Iterable<L2Level>, asks: Iterable<L2Level>): DiffOutcome {
    if (this.id === undefined) return 'no-snapshot';
    if (u <= this.id) return 'stale';
    let chained: boolean;
    if (this.firstAfterSnapshot) chained = U <= this.id + 1;
    else chained = pu !== undefined ? pu === this.id : U === this.id + 1;
    for (const [p, q] of bids) this.bids.set(p, q);
    for (const [p, q] of asks) this.asks.set(p, q);
    this.id = u;
    this.firstAfterSnapshot = false;
    if (!chained) this.gaps++;
    return chained ? 'applied' : 'gap';
  }

  /** Replaces the top of the book from a best bid / ask quote (a bookTicker-only source). */
  applyTopOfBook(bid: L2Level, ask: L2Level): void {
    this.bids.clear();
    this.asks.clear();
    this.bids.set(bid[0], bid[1]);
    this.asks.set(ask[0], ask[1]);
  }

  bestBid(): number | undefined {
    return this.bids.best();
  }

  bestAsk(): number | undefined {
    return this.asks.best();
  }

  isCrossed(): boolean {
    const b = this.bids.best();
    const a = this.asks.best();
    return b !== undefined && a !== undefined && b >= a;
  }

  top(side: 'buy' | 'sell', n: number): L2Level[] {
    return (side === 'buy' ? this.bids : this.asks).top(n);
  }

  levelCount(side: 'buy' | 'sell'): number {
    return (side === 'buy' ? this.bids : this.asks).size;
  }
}
