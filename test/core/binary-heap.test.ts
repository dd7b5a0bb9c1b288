import { expect } from 'chai';
import fc from 'fast-check';
import { BinaryHeap } from '../../src/core/binary-heap.js';

interface Item {
  key: number;
  seq: number;
}
const before = (a: Item, b: Item): boolean => a.key < b.key || (a.key === b.key && a.seq < b.seq);
/** The independent answer: a stable sort by key (seq is the insertion order). */
const sorted = (items: readonly Item[]): Item[] => [...items].sort((a, b) => a.key - b.key || a.seq - b.seq);

describe('core/binary-heap', () => {
  it('pops_in_key_order_with_ties_in_insertion_order_across_interleaved_pushes_and_pops', () => {
    // An op is a push of a key, or a pop (null); what is popped must be the least of what is held.
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }), { maxLength: 200 }), (ops) => {
        const heap = new BinaryHeap<Item>(before);
        let held: Item[] = [];
        let seq = 0;
        for (const op of ops) {
          if (op === null) {
            const want = sorted(held)[0];
            expect(heap.pop()).to.equal(want);
            if (want) held = held.filter((i) => i !== want);
          } else {
            const item = { key: op, seq: seq++ };
            heap.push(item);
            held.push(item);
          }
          expect(heap.size).to.equal(held.length);
          expect(heap.peek()).to.equal(sorted(held)[0]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reorders_after_the_first_items_key_grows_in_place', () => {
    // A k-way merge: each cursor's key is its next value; the top cursor moves on, then topChanged().
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 8 }), { maxLength: 8 }), (lists) => {
        const cursors = lists.map((l, n) => ({ values: [...l].sort((a, b) => a - b), pos: 0, n }));
        const key = (c: (typeof cursors)[number]): number => c.values[c.pos]!;
        const heap = new BinaryHeap<(typeof cursors)[number]>((a, b) => key(a) < key(b) || (key(a) === key(b) && a.n < b.n));
        for (const c of cursors) heap.push(c);
        const out: number[] = [];
        for (let top = heap.peek(); top; top = heap.peek()) {
          out.push(key(top));
          top.pos++;
          if (top.pos === top.values.length) heap.pop();
          else heap.topChanged();
        }
        expect(out).to.deep.equal(lists.flat().sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });
});
