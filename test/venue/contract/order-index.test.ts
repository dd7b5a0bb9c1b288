/**
 * The venue's index of retained orders (contract-state.ts OrderIndex) answers get / set / delete as the
 * Map<string, OrderState> it replaced: checked against a Map over random command streams whose ids are
 * the venue's (idBase + seq) and ids of other forms ("0123", "1e3", " 7", "x"), across page boundaries;
 * drop(o), which the venue calls for an order leaving an account's history, does what delete(o.id) does.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { OrderIndex, type OrderState } from '../../../src/venue/contract/contract-state.js';

/** An order record with only what the index reads (its id and sequence number). */
const orderOf = (id: string, seq: number): OrderState => ({ id, seq }) as unknown as OrderState;

describe('OrderIndex (retained orders by id)', () => {
  it('answers_get_set_and_delete_as_a_map_does', () => {
    const idBase = fc.constantFrom(0, 1000, 7_000_000_000);
    // seq near page edges (1024) and far apart; odd ids that parse to a number but are not the canonical text.
    const seq = fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.constantFrom(1, 1023, 1024, 1025, 2047, 2048, 3 * 1024 - 1));
    const oddId = fc.constantFrom('0123', '1e3', ' 7', 'x', '', '-1', '1.0', '0x10', 'NaN', '2048.5');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('setVenue' as const), seq }),
      fc.record({ kind: fc.constant('setOdd' as const), id: oddId, seq }),
      fc.record({ kind: fc.constant('deleteVenue' as const), seq }),
      fc.record({ kind: fc.constant('deleteOdd' as const), id: oddId }),
      // An order set before (by its place in the list of made ones), or a new record with a venue id never set.
      fc.record({ kind: fc.constant('drop' as const), pick: fc.nat(), seq }),
    );
    fc.assert(
      fc.property(idBase, fc.array(op, { maxLength: 300 }), (base, ops) => {
        const index = new OrderIndex(base);
        const map = new Map<string, OrderState>();
        const asked = new Set<string>();
        const made: OrderState[] = [];
        for (const o of ops) {
          if (o.kind === 'setVenue' || o.kind === 'setOdd') {
            const id = o.kind === 'setVenue' ? String(base + o.seq) : o.id;
            const order = orderOf(id, o.seq);
            expect(index.set(id, order)).to.equal(index);
            map.set(id, order);
            made.push(order);
            asked.add(id);
          } else if (o.kind === 'drop') {
            const order = o.pick % 4 !== 0 && made.length > 0 ? made[o.pick % made.length]! : orderOf(String(base + o.seq), o.seq);
            index.drop(order);
            map.delete(order.id);
            asked.add(order.id);
          } else {
            const id = o.kind === 'deleteVenue' ? String(base + o.seq) : o.id;
            expect(index.delete(id), `delete ${id}`).to.equal(map.delete(id));
            asked.add(id);
          }
          for (const id of asked) expect(index.get(id), `get ${id}`).to.equal(map.get(id));
        }
        // Neighbours of every id asked, and the odd forms, find what the map finds (nothing unless set).
        for (const id of [...asked, '0', '00', '1e3', '-0']) expect(index.get(id)).to.equal(map.get(id));
      }),
      { numRuns: 300 },
    );
  });

  it('frees_a_page_when_its_last_order_goes', () => {
    const index = new OrderIndex(0);
    for (let s = 1; s <= 2048; s++) index.set(String(s), orderOf(String(s), s));
    const pages = (index as unknown as { pages: Map<number, unknown> }).pages;
    // seq 1…1023 on page 0, 1024…2047 on page 1, 2048 on page 2.
    expect([...pages.keys()]).to.deep.equal([0, 1, 2]);
    for (let s = 1; s <= 1023; s++) index.delete(String(s));
    expect([...pages.keys()]).to.deep.equal([1, 2]);
    expect(index.get('1024')?.seq).to.equal(1024);
    expect(index.get('5')).to.equal(undefined);
  });

  it('makes_a_new_page_from_the_last_emptied_one_with_every_slot_clear', () => {
    // As with accounts keeping no history: each order ends (and is dropped) before the next one comes.
    const index = new OrderIndex(0);
    const pages = (index as unknown as { pages: Map<number, { slots: unknown[]; live: number }> }).pages;
    index.set('1', orderOf('1', 1));
    const first = pages.get(0)!;
    index.drop(index.get('1')!);
    expect(pages.size).to.equal(0);
    for (let s = 2; s <= 5000; s++) {
      const o = orderOf(String(s), s);
      index.set(String(s), o);
      const page = pages.get(Math.floor(s / 1024))!;
      expect(page).to.equal(first);
      expect(page.live).to.equal(1);
      expect(page.slots.filter((x) => x !== undefined)).to.deep.equal([o]);
      expect(index.get(String(s))).to.equal(o);
      expect(index.get(String(s - 1))).to.equal(undefined);
      if (s % 2 === 0) index.drop(o);
      else index.delete(String(s));
      expect(pages.size).to.equal(0);
    }
  });
});
