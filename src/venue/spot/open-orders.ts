/**
 * One account's open (resting) orders in placement order: an intrusive doubly-linked list through the
 * orders themselves. Why not a Map keyed by seq: every order that rests is inserted and later removed,
 * and that churn (hashing, deleted entries, rehashing) was the single largest cost of a passive
 * placement; here insert, remove and membership are a few pointer writes.
 */
export interface OpenListed<O extends OpenListed<O>> {
  readonly seq: number;
  /** @internal list links and owner; only OpenOrders touches them. */
  openPrev: O | null;
  openNext: O | null;
  openList: OpenOrders<O> | null;
}

export class OpenOrders<O extends OpenListed<O>> {
  private head: O | null = null;
  private tail: O | null = null;
  private count = 0;

  /**
   * @param index the venue's order index by seq, for get/has by seq (an object, not a closure: the
   * emulator's engine snapshot carries data, not functions).
   */
  constructor(private readonly index: { get(seq: number): O | undefined }) {}

  get size(): number {
    return this.count;
  }

  /** Appends an order that is not listed anywhere. */
  add(o: O): void {
    if (o.openList !== null) throw new Error(`order ${o.seq} is already listed open`);
    o.openList = this;
    o.openPrev = this.tail;
    o.openNext = null;
    if (this.tail === null) this.head = o;
    else this.tail.openNext = o;
    this.tail = o;
    this.count++;
  }

  /** Removes the order when it is listed here; false otherwise. */
  remove(o: O): boolean {
    if (o.openList !== this) return false;
    if (o.openPrev === null) this.head = o.openNext;
    else o.openPrev.openNext = o.openNext;
    if (o.openNext === null) this.tail = o.openPrev;
    else o.openNext.openPrev = o.openPrev;
    o.openPrev = o.openNext = null;
    o.openList = null;
    this.count--;
    return true;
  }

  includes(o: O): boolean {
    return o.openList === this;
  }

  get(seq: number): O | undefined {
    const o = this.index.get(seq);
    return o !== undefined && o.openList === this ? o : undefined;
  }

  has(seq: number): boolean {
    return this.get(seq) !== undefined;
  }

  /** Oldest first. Removing the order just returned is safe; a snapshot ([...values()]) is for more. */
  *values(): IterableIterator<O> {
    for (let o = this.head; o !== null;) {
      const next = o.openNext;
      yield o;
      o = next;
    }
  }
}
