/**
 * An account's open orders (contract-state.ts ContractOpenOrders) answer get / set / has / delete /
 * values / size as the Map<string, OrderState> they replaced, though they keep a filler entry so the map
 * never empties: checked against a Map over random command streams (the filler's key, the empty id,
 * included), values in insertion order after every step.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ContractOpenOrders, type OrderState } from '../../../src/venue/contract/contract-state.js';

const orderOf = (id: string): OrderState => ({ id }) as unknown as OrderState;

describe("ContractOpenOrders (an account's open orders by id)", () => {
  it('answers_as_a_map_does_whatever_the_commands', () => {
    const id = fc.oneof(fc.integer({ min: 1, max: 12 }).map(String), fc.constantFrom('', '0', 'x'));
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), id }),
      fc.record({ kind: fc.constant('delete' as const), id }),
      fc.record({ kind: fc.constant('read' as const), id }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const open = new ContractOpenOrders();
        const map = new Map<string, OrderState>();
        for (const o of ops) {
          if (o.kind === 'set') {
            // The empty id is the filler's key and no order has it (ids are idBase + seq): refused.
            if (o.id === '') expect(() => open.set(o.id, orderOf(o.id))).to.throw(RangeError);
            else {
              const order = orderOf(o.id);
              expect(open.set(o.id, order)).to.equal(open);
              map.set(o.id, order);
            }
          } else if (o.kind === 'delete') expect(open.delete(o.id), `delete ${o.id}`).to.equal(map.delete(o.id));
          else {
            expect(open.get(o.id), `get ${o.id}`).to.equal(map.get(o.id));
            expect(open.has(o.id), `has ${o.id}`).to.equal(map.has(o.id));
          }
          expect(open.size).to.equal(map.size);
          expect([...open.values()]).to.deep.equal([...map.values()]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('restored_from_a_snapshot_written_before_its_filled_field_lists_the_same_orders', () => {
    // The emulator's snapshot restores an instance's own fields without its constructor: one written
    // before `filled` existed has only the map (with its filler), and values() and size must skip it.
    const open = new ContractOpenOrders();
    const a = orderOf('1');
    const b = orderOf('2');
    open.set('1', a);
    open.set('2', b);
    open.delete('1');
    const fields = open as unknown as Record<string, unknown>;
    expect(fields.filled).to.equal(true);
    const old = Object.create(ContractOpenOrders.prototype) as ContractOpenOrders;
    (old as unknown as Record<string, unknown>).map = fields.map;
    expect([...old.values()]).to.deep.equal([b]);
    expect(old.size).to.equal(1);
    old.set('1', a);
    expect([...old.values()]).to.deep.equal([b, a]);
    expect([...open.values()]).to.deep.equal([b, a]);
  });

  it('lists_its_orders_in_placement_order_after_being_emptied', () => {
    const open = new ContractOpenOrders();
    const a = orderOf('1');
    const b = orderOf('2');
    open.set('1', a);
    open.delete('1');
    expect(open.size).to.equal(0);
    expect([...open.values()]).to.deep.equal([]);
    open.set('2', b);
    open.set('1', a);
    expect([...open.values()]).to.deep.equal([b, a]);
    expect(open.size).to.equal(2);
  });
});
