/**
 * Values keyed by a counter-issued integer, stored densely in an array: inserting in counter order is
 * an array push (no hashing, no table rehash as the venue's order history grows to millions), lookup
 * is an index. Deleted slots become holes; compact() drops the leading holes once old entries are gone.
 */
export class SeqStore<V> {
  private items: (V | undefined)[] = [];
  private base: number | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Keys are normally added in increasing order (a counter's order); any key ≥ the first works. */
  set(seq: number, value: V): void {
    if (this.base === undefined) this.base = seq;
    const i = seq - this.base;
    if (i < 0) throw new RangeError(`SeqStore: key ${seq} is below the first key ${this.base}`);
    while (this.items.length < i) this.items.push(undefined);
    if (i === this.items.length) {
      this.items.push(value);
      this.count++;
      return;
    }
    if (this.items[i] === undefined) this.count++;
    this.items[i] = value;
  }

  get(seq: number): V | undefined {
    if (this.base === undefined) return undefined;
    return this.items[seq - this.base];
  }

  delete(seq: number): boolean {
    if (this.base === undefined) return false;
    const i = seq - this.base;
    if (i < 0 || i >= this.items.length || this.items[i] === undefined) return false;
    this.items[i] = undefined;
    this.count--;
    return true;
  }

  *values(): IterableIterator<V> {
    for (const v of this.items) if (v !== undefined) yield v;
  }

  /** Drops leading holes so memory follows what is still kept. */
  compact(): void {
    if (this.base === undefined) return;
    let k = 0;
    while (k < this.items.length && this.items[k] === undefined) k++;
    if (k === 0) return;
    this.items = this.items.slice(k);
    this.base += k;
  }
}
