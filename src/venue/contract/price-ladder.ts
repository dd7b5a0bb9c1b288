/**
 * Items keyed by a price (a double), keys ascending, ties in insertion order: the sorted structure
 * behind the venue's incremental risk checks (issue 12) — trigger orders by the price that makes them
 * act (triggers/trigger-index.ts), isolated positions by their liquidation edge (liquidation-index.ts).
 * A price update crosses a prefix or a suffix of the keys, so it is found by walking from that end
 * and costs O(k + 1) for k crossed items. Insertion and removal are a binary search and a splice: the
 * ladders hold hundreds to a few thousand items and change far less often than prices move.
 */
import type { Decimal } from '../../core/decimal.js';
import { lastCall } from '../../core/last-call.js';

/**
 * A price as a ladder key: the double nearest to it. Decimal→double rounding is monotonic, so an exact
 * p ≥ X implies key(p) ≥ key(X) (likewise ≤): comparing keys non-strictly never misses a crossing.
 * The last conversion is remembered (Decimals are immutable): one fair-price update is keyed by the
 * liquidation check and then by the trigger book.
 */
export const priceKey: (price: Decimal) => number = lastCall((price: Decimal): number => price.toNumber());

export class PriceLadder<T> {
  readonly keys: number[] = [];
  readonly items: T[] = [];

  get size(): number {
    return this.keys.length;
  }

  insert(key: number, item: T): void {
    const i = this.bound(key, true);
    this.keys.splice(i, 0, key);
    this.items.splice(i, 0, item);
  }

  /** Removes `item`, which must sit at `key` (the key it was inserted with). */
  remove(key: number, item: T): void {
    const keys = this.keys;
    for (let i = this.bound(key, false); i < keys.length && keys[i] === key; i++) {
      if (this.items[i] !== item) continue;
      keys.splice(i, 1);
      this.items.splice(i, 1);
      return;
    }
    throw new Error(`price ladder: no such item at key ${key}`);
  }

  /** Whether some item has key ≤ p (O(1): the update crosses nothing otherwise). */
  anyAtOrBelow(p: number): boolean {
    return this.keys.length > 0 && this.keys[0]! <= p;
  }

  /** Whether some item has key ≥ p. */
  anyAtOrAbove(p: number): boolean {
    const n = this.keys.length;
    return n > 0 && this.keys[n - 1]! >= p;
  }

  /** Calls `visit` for each item with key ≤ p, lowest key first. */
  atOrBelow(p: number, visit: (item: T) => void): void {
    const keys = this.keys;
    for (let i = 0; i < keys.length && keys[i]! <= p; i++) visit(this.items[i]!);
  }

  /** Calls `visit` for each item with key ≥ p, highest key first. */
  atOrAbove(p: number, visit: (item: T) => void): void {
    const keys = this.keys;
    for (let i = keys.length - 1; i >= 0 && keys[i]! >= p; i--) visit(this.items[i]!);
  }

  /** First index whose key is > `key` (`after`) or ≥ `key`. */
  private bound(key: number, after: boolean): number {
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key || (after && keys[mid] === key)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
