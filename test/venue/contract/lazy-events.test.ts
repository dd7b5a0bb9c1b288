/**
 * The events whose views are built when read (lazy-events.ts) keep the face the object literals with
 * getters had: the same JSON text, key for key in the same order, the same keys to for…in (and so to
 * chai's deep equality), views of the moment the event was queued, built once.
 */
import { expect } from 'chai';
import { PositionMode } from '../../../src/domain/contract-enums.js';
import type { ContractVenueEvent } from '../../../src/venue/contract/contract-events.js';
import { makeKit, placed, S } from './contract-test-kit.js';

/** The literal the venue built before, from the event's own fields, in the key order it used. */
function literalOf(e: ContractVenueEvent): object | undefined {
  switch (e.type) {
    case 'OrderAccepted':
      return { type: e.type, time: e.time, order: e.order };
    case 'OrderFilled':
      return { type: e.type, time: e.time, order: e.order, fill: e.fill };
    case 'OrderCancelled':
      return { type: e.type, time: e.time, order: e.order, reason: e.reason };
    case 'PositionChanged':
      return { type: e.type, time: e.time, position: e.position };
    default:
      return undefined;
  }
}

const forInKeys = (o: object): string[] => {
  const keys: string[] = [];
  for (const k in o) keys.push(k);
  return keys;
};

describe('contract venue events with views built when read', () => {
  it('write_the_same_json_and_list_the_same_keys_as_the_literals_did', () => {
    const kit = makeKit();
    for (const a of ['maker', 'taker']) {
      kit.venue.openAccount(a, PositionMode.HEDGED);
      kit.venue.deposit(a, 'USDT', 100_000);
    }
    const events: ContractVenueEvent[] = [];
    kit.venue.on((e) => events.push(e));
    placed(kit.venue, 'maker', { side: S.OPEN_SHORT, price: 50000, vol: 5 });
    placed(kit.venue, 'taker', { side: S.OPEN_LONG, price: 50000, vol: 3 });
    kit.venue.cancelAll('maker');
    const seen = new Set<string>();
    for (const e of events) {
      const literal = literalOf(e);
      if (literal === undefined) continue;
      seen.add(e.type);
      expect(JSON.stringify(e), e.type).to.equal(JSON.stringify(literal));
      expect(forInKeys(e).sort(), e.type).to.deep.equal(Object.keys(literal).sort());
      expect(e, e.type).to.deep.equal(literal);
    }
    expect([...seen].sort()).to.deep.equal(['OrderAccepted', 'OrderCancelled', 'OrderFilled', 'PositionChanged']);
  });

  it('show_the_moment_they_were_queued_and_build_each_view_once', () => {
    const kit = makeKit();
    for (const a of ['maker', 'taker']) {
      kit.venue.openAccount(a, PositionMode.HEDGED);
      kit.venue.deposit(a, 'USDT', 100_000);
    }
    const events: ContractVenueEvent[] = [];
    kit.venue.on((e) => events.push(e), ['OrderAccepted', 'OrderFilled']);
    placed(kit.venue, 'maker', { side: S.OPEN_SHORT, price: 50000, vol: 5 });
    placed(kit.venue, 'taker', { side: S.OPEN_LONG, price: 50000, vol: 2 });
    placed(kit.venue, 'taker', { side: S.OPEN_LONG, price: 50000, vol: 3 });
    const accepted = events.find((e) => e.type === 'OrderAccepted')!;
    // Read after both fills: the maker's acceptance still shows nothing dealt, state 2 (uncompleted)
    // and the 5 lots it was placed with; its first fill shows 2 of 5 dealt, the second all 5.
    expect(accepted.type === 'OrderAccepted' && accepted.order.dealVol.toString()).to.equal('0');
    const makerFills = events.filter((e) => e.type === 'OrderFilled' && e.fill.taker === false);
    expect(makerFills.map((e) => (e.type === 'OrderFilled' ? e.order.dealVol.toString() : ''))).to.deep.equal(['2', '5']);
    const first = makerFills[0]!;
    if (first.type !== 'OrderFilled') throw new Error('not a fill');
    expect(first.order).to.equal(first.order);
    expect(first.fill).to.equal(first.fill);
  });
});
