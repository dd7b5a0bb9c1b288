import { expect } from 'chai';
import { clientOrderId } from '../../src/core/ids.js';
import type { VenueOrder } from '../../src/domain/order.js';
import { book, kit, SYMBOL, trade } from './support/exchange-kit.js';

const shown = (v: VenueOrder | undefined) =>
  v && [v.status, v.quantity?.toFixed(), v.filledQty.toFixed(), v.filledNotional?.toFixed(), v.avgFillPrice?.toFixed(), v.updatedAt];

describe('spot sim venue: orders as the gateway answers them', () => {
  it('lists_an_unchanged_order_with_the_same_answer_and_a_moved_one_with_the_venues_numbers', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 5]], [[102, 10]]));
    const id = 'pptest_p_00000000901';
    await k.place('buy', 100, 3, 'gtc', id);
    const first = k.venue.openOrders(SYMBOL)[0]!;
    expect(shown(first)).to.deep.equal(['accepted', '3', '0', '0', undefined, 1_000]);
    // Nothing moved: the listing of a reconciliation pass answers what it answered before.
    expect(shown(k.venue.openOrders(SYMBOL)[0])).to.deep.equal(shown(first));
    expect(shown(k.venue.query(SYMBOL, clientOrderId(id)))).to.deep.equal(shown(first));

    k.at(1_001, trade(1_001, 'sell', 100, 7)); // the 5 ahead, then 2 of ours
    const partly = k.venue.openOrders(SYMBOL)[0]!;
    expect(shown(partly)).to.deep.equal(['partially-filled', '3', '2', '200', '100', 1_001]);
    expect(shown(k.venue.openOrders(SYMBOL)[0])).to.deep.equal(shown(partly));

    k.at(1_002, trade(1_002, 'sell', 100, 1)); // the last lot
    expect(k.venue.openOrders(SYMBOL)).to.deep.equal([]);
    expect(shown(k.venue.query(SYMBOL, clientOrderId(id)))).to.deep.equal(['filled', '3', '3', '300', '100', 1_002]);
  });

  it('answers_a_cancelled_order_with_its_closing_status', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 5]], [[102, 10]]));
    const id = 'pptest_p_00000000902';
    await k.place('buy', 100, 3, 'gtc', id);
    const open = k.venue.query(SYMBOL, clientOrderId(id));
    expect(shown(open)).to.deep.equal(['accepted', '3', '0', '0', undefined, 1_000]);
    k.at(1_005);
    k.venue.cancel({ symbol: SYMBOL, clientOrderId: clientOrderId(id) });
    expect(shown(k.venue.query(SYMBOL, clientOrderId(id)))).to.deep.equal(['cancelled', '3', '0', '0', undefined, 1_005]);
  });
});
