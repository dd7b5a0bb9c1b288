/**
 * A placement's answer is an order view built when first read (lazy-order-view.ts, issue 12). It must
 * keep the plain view's face: the same JSON text key for key, the same keys to for…in (so the same to
 * chai's deep equality), the values of the moment the placement returned even when read after the
 * order filled, and each field the same value on every read.
 */
import { expect } from 'chai';
import { PositionMode } from '../../../src/domain/contract-enums.js';
import type { ContractOrderView } from '../../../src/venue/contract/contract-views.js';
import { makeKit, placed, S, T } from './contract-test-kit.js';

const forInKeys = (o: object): string[] => {
  const keys: string[] = [];
  for (const k in o) keys.push(k);
  return keys;
};

/** A plain copy read field by field in for…in order (what the answer was before: an object literal). */
const plain = (v: ContractOrderView): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k in v) out[k] = (v as unknown as Record<string, unknown>)[k];
  return out;
};

function twoAccounts() {
  const kit = makeKit();
  for (const a of ['maker', 'taker']) {
    kit.venue.openAccount(a, PositionMode.HEDGED);
    kit.venue.deposit(a, 'USDT', 100_000);
  }
  return kit;
}

describe('the order view a placement answers with (built when read)', () => {
  it('equals_the_venues_plain_view_in_json_keys_and_deep_equality', () => {
    const kit = twoAccounts();
    const rest = placed(kit.venue, 'maker', { side: S.OPEN_SHORT, price: 50000, vol: 5 });
    const take = placed(kit.venue, 'taker', { side: S.OPEN_LONG, price: 50000, vol: 5 });
    const ioc = placed(kit.venue, 'taker', { side: S.OPEN_LONG, price: 49000, vol: 2, type: T.IOC });
    // Read now: the taker and the IOC order are final, so the venue's own view of them (a plain object
    // built by the same builder) is what the answer must equal; the maker filled after its answer, so
    // its plain view differs in dealt volume and state (checked in the next test).
    for (const [v, id] of [
      [take, take.orderId],
      [ioc, ioc.orderId],
    ] as const) {
      const now = kit.venue.getOrder('taker', id)!;
      expect(JSON.stringify(v)).to.equal(JSON.stringify(now));
      expect(forInKeys(v)).to.deep.equal(Object.keys(now));
      expect(v).to.deep.equal(now);
    }
    expect(forInKeys(rest)).to.deep.equal(Object.keys(kit.venue.getOrder('maker', rest.orderId)!));
  });

  it('shows_the_moment_the_placement_returned_and_the_same_value_on_every_read', () => {
    const kit = twoAccounts();
    const rest = placed(kit.venue, 'maker', { side: S.OPEN_SHORT, price: 50000, vol: 5 });
    const before = JSON.stringify(kit.venue.getOrder('maker', rest.orderId));
    placed(kit.venue, 'taker', { side: S.OPEN_LONG, price: 50000, vol: 3 });
    // Read only after the maker's order dealt 3 of its 5 lots: the answer still shows nothing dealt,
    // state 2 (uncompleted), no order margin released, exactly the plain view taken at that moment.
    expect(rest.dealVol.toString()).to.equal('0');
    expect(rest.state).to.equal(2);
    expect(JSON.stringify(rest)).to.equal(before);
    expect(kit.venue.getOrder('maker', rest.orderId)!.dealVol.toString()).to.equal('3');
    // Built once: a Decimal field is the same object on every read.
    expect(rest.vol).to.equal(rest.vol);
    expect(rest.dealAvgPrice).to.equal(rest.dealAvgPrice);
    expect(JSON.stringify(plain(rest))).to.equal(before);
  });
});
