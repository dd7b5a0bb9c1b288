import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { CrowdBookMirror } from '../../../src/venue/market/crowd-book-mirror.js';
import { OrderBookLiquidityPort, type PrintEvent } from '../../../src/venue/market/order-book-liquidity-port.js';

function setup() {
  const clock = new VirtualClock(1_000);
  const prints: PrintEvent[] = [];
  const port = new OrderBookLiquidityPort(clock, ['X'], (e) => prints.push(e));
  return { port, prints, mirror: new CrowdBookMirror(port, 'X'), book: port.book('X') };
}

describe('CrowdBookMirror', () => {
  it('reproduces_the_target_levels', () => {
    const { mirror, book } = setup();
    mirror.sync(
      [
        [100, 5],
        [99, 7],
      ],
      [[102, 3]],
    );
    expect(book.depth('BUY', 5)).to.deep.equal([
      [100, 5, 1],
      [99, 7, 1],
    ]);
    expect(book.depth('SELL', 5)).to.deep.equal([[102, 3, 1]]);
  });

  it('keeps_crowd_orders_ahead_of_ours_when_a_level_shrinks_and_joins_behind_when_it_grows', () => {
    const { mirror, port, book } = setup();
    mirror.sync([[100, 5]], []);
    const ours = port.placeAs('us', 'X', 'buy', 100, 2, 'limit').id!;
    // Level grows 5 → 8: the 3 extra lots join behind us.
    mirror.sync([[100, 8]], []);
    expect(book.ordersAt('BUY', 100).map((o) => [o.owner, o.lots])).to.deep.equal([
      ['crowd-maker', 5],
      ['us', 2],
      ['crowd-maker', 3],
    ]);
    // Shrinks 8 → 4: the newest crowd order (3) goes, then the 5-lot one would leave 0 < 4, so it goes too
    // and a new 4-lot order joins the back: we moved up one place.
    mirror.sync([[100, 4]], []);
    expect(book.ordersAt('BUY', 100).map((o) => [o.owner, o.lots])).to.deep.equal([
      ['us', 2],
      ['crowd-maker', 4],
    ]);
    expect(port.remaining('X', ours)).to.equal(2);
    expect(mirror.lotsAt('buy', 100)).to.equal(4);
  });

  it('removes_levels_that_left_the_target_before_placing_new_ones', () => {
    const { mirror, book, prints } = setup();
    mirror.sync([[100, 5]], [[102, 5]]);
    // The market moved up two ticks: the old ask at 102 must go before the new bid at 102 is placed.
    mirror.sync([[102, 4]], [[104, 4]]);
    expect(prints).to.deep.equal([]);
    expect(book.depth('BUY', 5)).to.deep.equal([[102, 4, 1]]);
    expect(book.depth('SELL', 5)).to.deep.equal([[104, 4, 1]]);
  });

  it('trades_with_our_order_when_the_source_book_moves_through_it', () => {
    const { mirror, port, prints } = setup();
    mirror.sync([[100, 5]], [[103, 5]]);
    const ours = port.placeAs('us', 'X', 'sell', 102, 3, 'limit').id!;
    // The source's bid rises to 102 with 4 lots: a crowd bid at 102 takes our 3 and rests 1.
    mirror.sync([[102, 4]], [[103, 5]]);
    expect(port.remaining('X', ours)).to.equal(0);
    expect(prints.map((p) => [p.makerOwner, p.takerOwner, p.trade.priceTicks, p.trade.lots])).to.deep.equal([
      ['us', 'crowd-maker', 102, 3],
    ]);
    expect(mirror.lotsAt('buy', 102)).to.equal(1);
  });

  it('forgets_crowd_orders_that_were_filled', () => {
    const { mirror, port, book } = setup();
    mirror.sync([[100, 5]], []);
    port.placeAs('us', 'X', 'sell', 100, 5, 'ioc');
    // The crowd's 5 lots were taken; a sync to 5 places a fresh 5.
    mirror.sync([[100, 5]], []);
    expect(book.depth('BUY', 5)).to.deep.equal([[100, 5, 1]]);
  });
});
