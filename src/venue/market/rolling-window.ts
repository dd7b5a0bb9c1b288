/**
 * Sums and extremes of the prints in a trailing time window (24h ticker, 5-minute average price),
 * kept in time buckets so memory stays bounded whatever the trade rate.
 *
 * Granularity: the window starts at a bucket boundary, `windowStart(now) = floor((now − window) /
 * bucket) · bucket`, so a print leaves the window between `window` and `window + bucket` after it
 * happened. Binance documents the same kind of bound for its rolling statistics ("no more than 59999
 * ms from the requested windowSize"), which is why the 24h ticker uses one-minute buckets.
 */
interface Bucket {
  readonly start: number;
  readonly open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  quote: number;
  count: number;
}

export interface WindowStats {
  /** Start of the window (a bucket boundary) and the `now` it was computed for. */
  readonly openTime: number;
  readonly closeTime: number;
  /** First print in the window (price units), NaN when none. */
  readonly firstPrice: number;
  /** Last print that left the window (the price at the window start), NaN when none left yet. */
  readonly priceBefore: number;
  readonly high: number;
  readonly low: number;
  readonly last: number;
  readonly volume: number;
  readonly quote: number;
  readonly count: number;
}

export class RollingWindow {
  private buckets: Bucket[] = [];
  private head = 0;
  private volume = 0;
  private quote = 0;
  private count = 0;
  private high = -Infinity;
  private low = Infinity;
  private extremesStale = false;
  private evictedClose = NaN;

  constructor(
    readonly windowMs: number,
    readonly bucketMs: number,
  ) {
    if (!(bucketMs > 0) || !(windowMs >= bucketMs))
      throw new RangeError(`rolling window needs window ≥ bucket > 0, got ${windowMs}/${bucketMs}`);
  }

  /** Adds a print; `t` must not go backwards. */
  add(t: number, price: number, lots: number, quote: number): void {
    const start = Math.floor(t / this.bucketMs) * this.bucketMs;
    let b = this.buckets.length > this.head ? this.buckets[this.buckets.length - 1]! : undefined;
    if (!b || b.start !== start) {
      // Evict here too, so a window nobody queries still stays bounded.
      this.evictBefore(this.windowStart(t));
      b = { start, open: price, high: price, low: price, close: price, volume: 0, quote: 0, count: 0 };
      this.buckets.push(b);
    } else {
      if (price > b.high) b.high = price;
      if (price < b.low) b.low = price;
      b.close = price;
    }
    b.volume += lots;
    b.quote += quote;
    b.count++;
    this.volume += lots;
    this.quote += quote;
    this.count++;
    if (price > this.high) this.high = price;
    if (price < this.low) this.low = price;
  }

  windowStart(now: number): number {
    return Math.floor((now - this.windowMs) / this.bucketMs) * this.bucketMs;
  }

  stats(now: number): WindowStats {
    const openTime = this.windowStart(now);
    this.evictBefore(openTime);
    if (this.extremesStale) this.recomputeExtremes();
    const empty = this.count === 0;
    const lastBucket = this.buckets.length > this.head ? this.buckets[this.buckets.length - 1] : undefined;
    return {
      openTime,
      closeTime: now,
      firstPrice: empty ? NaN : this.buckets[this.head]!.open,
      priceBefore: this.evictedClose,
      high: empty ? NaN : this.high,
      low: empty ? NaN : this.low,
      last: lastBucket ? lastBucket.close : this.evictedClose,
      volume: this.volume,
      quote: this.quote,
      count: this.count,
    };
  }

  private evictBefore(openTime: number): void {
    while (this.head < this.buckets.length && this.buckets[this.head]!.start < openTime) {
      const b = this.buckets[this.head]!;
      this.volume -= b.volume;
      this.quote -= b.quote;
      this.count -= b.count;
      if (b.high >= this.high || b.low <= this.low) this.extremesStale = true;
      this.evictedClose = b.close;
      this.head++;
    }
    if (this.head === this.buckets.length) {
      // Reset the running sums exactly so float drift from subtraction cannot accumulate forever.
      this.buckets = [];
      this.head = 0;
      this.volume = 0;
      this.quote = 0;
      this.count = 0;
      this.high = -Infinity;
      this.low = Infinity;
      this.extremesStale = false;
    } else if (this.head > 1024 && this.head * 2 > this.buckets.length) {
      this.buckets = this.buckets.slice(this.head);
      this.head = 0;
    }
  }

  private recomputeExtremes(): void {
    let hi = -Infinity;
    let lo = Infinity;
    for (let i = this.head; i < this.buckets.length; i++) {
      const b = this.buckets[i]!;
      if (b.high > hi) hi = b.high;
      if (b.low < lo) lo = b.low;
    }
    this.high = hi;
    this.low = lo;
    this.extremesStale = false;
  }
}
