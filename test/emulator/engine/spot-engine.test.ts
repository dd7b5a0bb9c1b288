import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { SpotEngine } from '../../../src/emulator/engine/spot-engine.js';
import { btcUsdt } from '../../venue/spot/spot-fixtures.js';

function arrange(): { engine: SpotEngine; clock: VirtualClock } {
  const clock = new VirtualClock(1_700_000_000_000);
  const engine = new SpotEngine({ clock, instruments: [btcUsdt()], maxOpenOrders: 500 });
  for (const a of ['maker', 'taker']) {
    engine.venue.deposit(a, 'USDT', '100000');
    engine.venue.deposit(a, 'BTC', '100');
  }
  return { engine, clock };
}

describe('SpotEngine (tape and depth version from the venue)', () => {
  it('prints_each_fill_and_aggregates_one_taker_order_per_price', () => {
    const { engine, clock } = arrange();
    const place = (side: 'BUY' | 'SELL', priceTicks: number, lots: number) =>
      engine.venue.placeOrderUnits({
        accountId: side === 'SELL' ? 'maker' : 'taker',
        symbol: 'BTCUSDT',
        side,
        type: 'LIMIT',
        priceTicks,
        lots,
      });
    place('SELL', 10000, 1000);
    place('SELL', 10000, 2000);
    place('SELL', 10100, 3000);
    clock.advanceBy(10);
    // one buy takes 1000 + 2000 lots at 100.00 and 1000 of the 3000 at 101.00: three prints, two aggregates
    place('BUY', 10100, 4000);
    const tape = engine.tape('BTCUSDT')!;
    expect(tape.recentTrades(10).map((t) => [t.id, t.price.toFixed(), t.qty.toFixed(), t.takerSide, t.time])).to.deep.equal([
      [3, '101', '0.1', 'buy', clock.now()],
      [2, '100', '0.2', 'buy', clock.now()],
      [1, '100', '0.1', 'buy', clock.now()],
    ]);
    // lots × step 0.0001: 1000 + 2000 = 0.3 BTC at 100, 1000 = 0.1 BTC at 101
    expect(tape.aggTrades({ limit: 10 }).map((a) => [a.a, a.f, a.l, a.price.toFixed(), a.qty.toFixed(), a.buyerMaker])).to.deep.equal([
      [2, 3, 3, '101', '0.1', false],
      [1, 1, 2, '100', '0.3', false],
    ]);
  });

  it('moves_the_depth_version_once_per_book_change', () => {
    const { engine } = arrange();
    expect(engine.version('BTCUSDT')).to.equal(1);
    const r = engine.venue.placeOrderUnits({
      accountId: 'maker',
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      priceTicks: 10000,
      lots: 1000,
    }); // 2: rests
    engine.venue.placeOrderUnits({ accountId: 'maker', symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', priceTicks: 10050, lots: 1000 }); // 3: rests
    engine.venue.placeOrderUnits({ accountId: 'taker', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', priceTicks: 9000, lots: 1000 }); // 4: rests
    engine.venue.placeOrderUnits({
      accountId: 'taker',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'IMMEDIATE_OR_CANCEL',
      priceTicks: 9500,
      lots: 1000,
    }); // crosses nothing: no change
    engine.venue.placeOrderUnits({ accountId: 'taker', symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', lots: 500 }); // 5: one fill
    if (!r.ok) throw new Error(r.msg);
    engine.venue.cancelOrder('maker', 'BTCUSDT', { orderId: r.order.orderId }); // 6: the rest of the first ask leaves
    expect(engine.version('BTCUSDT')).to.equal(6);
    expect(engine.version('NOPE')).to.equal(0);
  });
});
