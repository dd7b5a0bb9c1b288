/**
 * A list of records kept to its newest `limit`, each record a row of doubles in one Float64Array and of
 * references in one plain array, in a ring: the storage of an account's final orders (OrderHistory) and
 * fills (FillLog), which read and write the rows; this class only places them.
 *
 * Why rows instead of an object per record: every record the lists kept outlived the young generation
 * and was copied twice by the scavenger; keeping the history was ~40 % of a maker+taker cycle's cpu
 * (issue 12, s18-cv: µs per cycle at history 10,000 vs 0). A row allocates nothing, and a Float64Array
 * of more than a few rows lives outside the collected heap.
 */

/**
 * The number whose text String(n) is `text` (a non-negative integer of at most 15 digits, so exact in a
 * double), or −1: what a row keeps of an id is its number, and the id read back is String(n). One pass
 * over the digits: String(n) to compare made a new string on every call (the number-string cache
 * missed, ~420 instructions an order in callgrind), and +text on a fresh string ran the ToNumber builtin.
 */
export function ownNumber(text: string): number {
  const len = text.length;
  if (len === 0 || len > 15) return -1;
  let n = 0;
  for (let i = 0; i < len; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9 || (d === 0 && i === 0 && len > 1)) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Rows of the first columns made; they double up to the limit. */
const FIRST_ROWS = 16;

export abstract class ColumnRing {
  protected nums = new Float64Array(0);
  protected refs: unknown[] = [];
  /** Rows the columns hold. */
  private rows = 0;
  /** The row of the oldest record. */
  private first = 0;
  private count = 0;
  /** Records dropped so far: a record's position is `dropped` + its age rank (see nextPosition). */
  private dropped = 0;

  protected constructor(
    /** Doubles per row. */
    private readonly numStride: number,
    /** References per row. */
    private readonly refStride: number,
  ) {}

  get length(): number {
    return this.count;
  }

  /** The position of the next record appended (positions count every record ever appended). */
  get nextPosition(): number {
    return this.dropped + this.count;
  }

  /** The row of the record at `position`, or −1 when it was dropped (or is not there yet). */
  protected rowAtPosition(position: number): number {
    const index = position - this.dropped;
    return index >= 0 && index < this.count ? this.rowOf(index) : -1;
  }

  /** The row of the index-th oldest record (0 ≤ index < length). */
  protected rowOf(index: number): number {
    const row = this.first + index;
    return row >= this.rows ? row - this.rows : row;
  }

  /** The row of the oldest record (the list is not empty). */
  protected get firstRow(): number {
    return this.first;
  }

  /** Makes room for one more record (the caller has dropped the oldest at the limit) and answers its row. */
  protected appendRow(limit: number): number {
    if (this.count === this.rows) this.grow(limit);
    return this.rowOf(this.count++);
  }

  /**
   * Drops the oldest record (the list is not empty). Its references are left until the row is written
   * again: every append writes all of a row's references, and at the limit (rows = limit from 16 rows on)
   * the next append takes this very row; clearing them cost ~130 instructions a drop (callgrind).
   */
  dropOldest(): void {
    this.first = this.first + 1 === this.rows ? 0 : this.first + 1;
    this.count--;
    this.dropped++;
  }

  /** Doubles the rows, to at most the limit (the records move to rows 0 … count − 1, oldest first). */
  private grow(limit: number): void {
    const rows = Math.max(FIRST_ROWS, this.count + 1, Math.min(this.rows * 2, limit));
    const ns = this.numStride;
    const rs = this.refStride;
    const nums = new Float64Array(rows * ns);
    const refs = new Array<unknown>(rows * rs).fill(undefined);
    for (let i = 0; i < this.count; i++) {
      const row = this.rowOf(i);
      nums.set(this.nums.subarray(row * ns, (row + 1) * ns), i * ns);
      for (let k = 0; k < rs; k++) refs[i * rs + k] = this.refs[row * rs + k];
    }
    this.nums = nums;
    this.refs = refs;
    this.rows = rows;
    this.first = 0;
  }
}
