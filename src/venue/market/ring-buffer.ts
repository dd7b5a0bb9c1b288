/**
 * Fixed-capacity FIFO that overwrites its oldest entry: recent trades and aggregate trades keep the
 * last N prints without allocating per print once full.
 */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0)
      throw new RangeError(`ring buffer capacity must be a positive integer, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count++;
    } else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  /** The i-th entry, 0 = oldest. */
  at(i: number): T {
    if (i < 0 || i >= this.count) throw new RangeError(`ring buffer index ${i} outside 0..${this.count - 1}`);
    return this.items[(this.start + i) % this.capacity] as T;
  }

  last(): T | undefined {
    return this.count === 0 ? undefined : this.at(this.count - 1);
  }

  /** Index of the first entry whose key is >= k, for entries sorted by key (size when none). */
  lowerBound(k: number, key: (item: T) => number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (key(this.at(mid)) < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Entries in [from, to), newest first. */
  newestFirst(from = 0, to = this.count): T[] {
    const out: T[] = [];
    for (let i = Math.min(to, this.count) - 1; i >= Math.max(0, from); i--) out.push(this.at(i));
    return out;
  }
}
