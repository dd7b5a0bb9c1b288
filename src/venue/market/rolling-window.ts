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
  private evictedClose = NaN;
  /**
   * The extremes as monotonic queues of buckets (the sliding-window maximum): `highs` from `highHead` on
   * holds the buckets whose high no later bucket reaches, in time order, so the first is the window's
   * high; `lows` likewise. A 24h ticker polled once a bar evicts a bucket a minute, and an evicted
   * bucket holding the high or low made the window scan its 1,440 buckets again (0.7 % of a 50.8-day
   * kline backtest's CPU profile). A window restored from an emulator snapshot written before them
   * builds them from its buckets (reviveAfterSnapshot).
   */
  private highs: Bucket[] = [];
  private highHead = 0;
  private lows: Bucket[] = [];
  private lowHead = 0;

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
      this.highs.push(b);
      this.lows.push(b);
      this.raiseHigh(b);
      this.lowerLow(b);
    } else {
      b.close = price;
      if (price > b.high) {
        b.high = price;
        this.raiseHigh(b);
      }
      if (price < b.low) {
        b.low = price;
        this.lowerLow(b);
      }
    }
    b.volume += lots;
    b.quote += quote;
    b.count++;
    this.volume += lots;
    this.quote += quote;
    this.count++;
  }

  /** `b` (the newest bucket, last in the queue) got a new high: the earlier buckets it reaches leave the queue. */
  private raiseHigh(b: Bucket): void {
    const q = this.highs;
    q.pop();
    while (q.length > this.highHead && q[q.length - 1]!.high <= b.high) q.pop();
    q.push(b);
  }

  /** `b` (the newest bucket, last in the queue) got a new low: the earlier buckets it reaches leave the queue. */
  private lowerLow(b: Bucket): void {
    const q = this.lows;
    q.pop();
    while (q.length > this.lowHead && q[q.length - 1]!.low >= b.low) q.pop();
    q.push(b);
  }

  /**
   * Called by the emulator's snapshot restore (object-graph REVIVE): a snapshot written before the extreme
   * queues restores a window without them (the restore deletes the fields it lacks), and they are built
   * from the buckets, as add() would have kept them.
   */
  reviveAfterSnapshot(): void {
    if (Object.hasOwn(this, 'highs') && Object.hasOwn(this, 'lows')) return;
    this.highs = [];
    this.lows = [];
    this.highHead = 0;
    this.lowHead = 0;
    for (let i = this.head; i < this.buckets.length; i++) {
      const b = this.buckets[i]!;
      this.highs.push(b);
      this.raiseHigh(b);
      this.lows.push(b);
      this.lowerLow(b);
    }
  }

  windowStart(now: number): number {
    return Math.floor((now - this.windowMs) / this.bucketMs) * this.bucketMs;
  }

  stats(now: number): WindowStats {
    const openTime = this.windowStart(now);
    this.evictBefore(openTime);
    const empty = this.count === 0;
    const lastBucket = this.buckets.length > this.head ? this.buckets[this.buckets.length - 1] : undefined;
    return {
      openTime,
      closeTime: now,
      firstPrice: empty ? NaN : this.buckets[this.head]!.open,
      priceBefore: this.evictedClose,
      high: empty ? NaN : this.highs[this.highHead]!.high,
      low: empty ? NaN : this.lows[this.lowHead]!.low,
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
      // Buckets leave in time order: one still queued is the first of its queue.
      if (this.highs[this.highHead] === b) this.highHead++;
      if (this.lows[this.lowHead] === b) this.lowHead++;
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
      this.highs = [];
      this.highHead = 0;
      this.lows = [];
      this.lowHead = 0;
    } else if (this.head > 1024 && this.head * 2 > this.buckets.length) {
      this.buckets = this.buckets.slice(this.head);
      this.head = 0;
    }
    // The queues drop what they passed as soon as it is half of them (amortised O(1): a copy of the rest,
    // never longer than what was passed). Passed entries are evicted buckets kept alive: with the
    // buckets' own 1,024, an emulator snapshot after one simulated day held 3,222 more objects
    // (6.60 -> 7.09 MB) before this.
    if (this.highHead > QUEUE_SLACK && this.highHead * 2 > this.highs.length) {
      this.highs = this.highs.slice(this.highHead);
      this.highHead = 0;
    }
    if (this.lowHead > QUEUE_SLACK && this.lowHead * 2 > this.lows.length) {
      this.lows = this.lows.slice(this.lowHead);
      this.lowHead = 0;
    }
  }
}

/** Passed entries an extreme queue may hold before it drops them (see evictBefore). */
const QUEUE_SLACK = 16;
