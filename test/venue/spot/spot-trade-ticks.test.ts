import { expect } from 'chai';
import type { SpotTradeTick } from '../../../src/venue/spot/spot-events.js';
import type { SpotVenue } from '../../../src/venue/spot/spot-venue.js';
import { fund, harness } from './spot-fixtures.js';

const SYMBOL = 'BTCUSDT';

function limit(venue: SpotVenue, accountId: string, side: 'BUY' | 'SELL', quantity: string, price: string): string {
  const r = venue.placeOrder({ accountId, symbol: SYMBOL, side, type: 'LIMIT', quantity, price });
  if (!r.ok) throw new Error(`unexpected rejection ${r.code} ${r.msg}`);
  return r.order.orderId;
}

describe('SpotVenue trade ticks', () => {
  it('delivers_one_integer_tick_per_fill_in_fill_order', () => {
    const { venue, clock } = harness({ tradeIdPrefix: 'T' });
    fund(venue, 'alice', 'bob', 'carol');
    const bob = limit(venue, 'bob', 'SELL', '0.5', '100');
    const carol = limit(venue, 'carol', 'SELL', '1', '101');
    const ticks: SpotTradeTick[] = [];
    venue.subscribeTrades((t) => ticks.push(t));
    clock.advanceBy(5);
    const alice = limit(venue, 'alice', 'BUY', '1.2', '101');
    // 0.5 @ 100 from bob, then 0.7 @ 101 from carol: ticks 10000 / 10100, lots (step 0.0001) 5000 / 7000
    expect(ticks).to.deep.equal([
      {
        symbol: SYMBOL,
        tradeId: 'T1',
        time: clock.now(),
        priceTicks: 10000,
        lots: 5000,
        takerSide: 'BUY',
        takerOrderId: alice,
        makerOrderId: bob,
        takerAccountId: 'alice',
        makerAccountId: 'bob',
        isSelfTrade: false,
      },
      {
        symbol: SYMBOL,
        tradeId: 'T2',
        time: clock.now(),
        priceTicks: 10100,
        lots: 7000,
        takerSide: 'BUY',
        takerOrderId: alice,
        makerOrderId: carol,
        takerAccountId: 'alice',
        makerAccountId: 'carol',
        isSelfTrade: false,
      },
    ]);
    // the same ids as the own trades
    expect(venue.myTrades('alice', SYMBOL).map((t) => t.tradeId)).to.deep.equal(['T1', 'T2']);
  });

  it('delivers_ticks_after_the_command_before_its_other_events', () => {
    const { venue } = harness();
    fund(venue, 'mm', 'taker');
    limit(venue, 'mm', 'SELL', '1', '100');
    const seen: string[] = [];
    venue.subscribe((e) => seen.push(e.type));
    venue.subscribeTrades(() => {
      // the command has finished: the taker's order is already FILLED and the venue consistent
      expect(venue.openOrders('taker')).to.deep.equal([]);
      expect(venue.checkInvariants()).to.deep.equal([]);
      seen.push('tick');
    });
    limit(venue, 'taker', 'BUY', '1', '100');
    expect(seen[0]).to.equal('tick');
    expect(seen.slice(1, 4)).to.deep.equal(['orderAccepted', 'trade', 'orderFilled']);
  });

  it('lets_a_tick_listener_call_the_venue_and_stops_after_unsubscribe', () => {
    const { venue } = harness();
    fund(venue, 'mm', 'taker');
    limit(venue, 'mm', 'SELL', '1', '100');
    let ticks = 0;
    const off = venue.subscribeTrades(() => {
      ticks++;
      // a market maker re-quoting from the tape
      if (ticks === 1) limit(venue, 'mm', 'SELL', '1', '100.5');
    });
    limit(venue, 'taker', 'BUY', '1', '100');
    expect(venue.book(SYMBOL)!.bestAsk()).to.equal(10050);
    off();
    limit(venue, 'taker', 'BUY', '1', '100.5');
    expect(ticks).to.equal(1);
    expect(venue.checkInvariants()).to.deep.equal([]);
  });
});
