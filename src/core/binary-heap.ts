/**
 * A binary min-heap over an array, ordered by `before(a, b)` (true when a comes out first). The
 * replays' reorder buffers and the record store's k-way merge use it; their orders are total (ties are
 * broken by a sequence number), so the order items come out in never depends on the heap's shape.
 */
export class BinaryHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** The first item, without removing it. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const h = this.items;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  /** Removes and returns the first item. */
  pop(): T | undefined {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last !== undefined) {
      h[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Restores the order after the first item's key grew in place (a merge cursor moved on). */
  topChanged(): void {
    if (this.items.length > 1) this.siftDown(0);
  }

  private siftDown(i: number): void {
    const h = this.items;
    const n = h.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const m = r < n && this.before(h[r]!, h[l]!) ? r : l;
      if (!this.before(h[m]!, h[i]!)) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}
