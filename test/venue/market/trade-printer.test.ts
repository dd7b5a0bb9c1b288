import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { OrderBookLiquidityPort, type PrintEvent } from '../../../src/venue/market/order-book-liquidity-port.js';
import { printTrade } from '../../../src/venue/market/trade-printer.js';

function setup() {
  const clock = new VirtualClock(1_000);
  const prints: PrintEvent[] = [];
  const port = new OrderBookLiquidityPort(clock, ['X'], (e) => prints.push(e));
  return { port, prints };
}
const summary = (prints: PrintEvent[]) =>
  prints.map((p) => [p.makerOwner, p.takerOwner, p.trade.takerSide, p.trade.priceTicks, p.trade.lots]);

describe('printTrade', () => {
  it('fills_our_resting_order_in_price_time_priority', () => {
    const { port, prints } = setup();
    port.place('X', 'sell', 101, 2, 'limit'); // crowd ask 101 × 2
    port.placeAs('us', 'X', 'sell', 101, 3, 'limit'); // ours behind it
    // A recorded taker buy of 4 at 101: crowd 2 first, then 2 of ours.
    const out = printTrade(port, 'X', 'buy', 101, 4, true);
    expect(out).to.deep.equal({ matchedLots: 4, forcedLots: 0 });
    expect(summary(prints)).to.deep.equal([
      ['crowd-maker', 'crowd-taker', 'buy', 101, 2],
      ['us', 'crowd-taker', 'buy', 101, 2],
    ]);
  });

  it('forces_the_missing_part_of_a_print_through_a_crowd_maker', () => {
    const { port, prints } = setup();
    port.place('X', 'sell', 101, 1, 'limit');
    // Recorded 5 at 101, only 1 here: 1 matched, 4 printed through a crowd maker at 101.
    const out = printTrade(port, 'X', 'buy', 101, 5, true);
    expect(out).to.deep.equal({ matchedLots: 1, forcedLots: 4 });
    expect(summary(prints)).to.deep.equal([
      ['crowd-maker', 'crowd-taker', 'buy', 101, 1],
      ['crowd-maker', 'crowd-taker', 'buy', 101, 4],
    ]);
    expect(port.bestAsk('X')).to.equal(undefined);
  });

  it('leaves_the_book_alone_when_not_forcing', () => {
    const { port, prints } = setup();
    const out = printTrade(port, 'X', 'sell', 99, 3, false);
    expect(out).to.deep.equal({ matchedLots: 0, forcedLots: 0 });
    expect(prints).to.deep.equal([]);
  });

  it('fills_our_bid_above_a_forced_sell_print', () => {
    const { port, prints } = setup();
    port.placeAs('us', 'X', 'buy', 100, 2, 'limit');
    // Recorded taker sell of 3 at 100 with nothing else here: ours fills (2), 1 is forced.
    const out = printTrade(port, 'X', 'sell', 100, 3, true);
    expect(out).to.deep.equal({ matchedLots: 2, forcedLots: 1 });
    expect(summary(prints)[0]).to.deep.equal(['us', 'crowd-taker', 'sell', 100, 2]);
    expect(port.bestBid('X')).to.equal(undefined);
  });
});
