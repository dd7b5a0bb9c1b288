import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { D, Decimal } from '../../../src/core/decimal.js';
import { spotSymbol } from '../../../src/core/ids.js';
import type { SpotInstrument } from '../../../src/domain/instrument.js';
import { SpotVenue } from '../../../src/venue/spot/spot-venue.js';
import { SPOT_CROWD_TAKER, spotCrowdMaker } from '../../../src/venue/market/crowd-accounts.js';
import { fundSpotCrowd, SpotVenueLiquidityPort } from '../../../src/venue/market/spot-venue-liquidity-port.js';
import { SyntheticMarket } from '../../../src/venue/market/synthetic-market.js';
import { TapeAggregator } from '../../../src/venue/market/tape-aggregator.js';

const btcUsdt: SpotInstrument = {
  kind: 'spot',
  symbol: spotSymbol('BTCUSDT'),
  status: '1',
  baseAsset: 'BTC',
  quoteAsset: 'USDT',
  baseAssetPrecision: 4,
  quotePrecision: 2,
  quoteAssetPrecision: 2,
  baseCommissionPrecision: 8,
  quoteCommissionPrecision: 8,
  tick: D('0.01'),
  step: D('0.0001'),
  orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER'],
  isSpotTradingAllowed: true,
  isMarginTradingAllowed: false,
  permissions: ['SPOT'],
  minQuoteAmount: D('0.0001'),
  minQuantity: D('0.0001'),
  minQuoteAmountMarket: D('0.0001'),
  maxQuoteAmount: D('100000000'),
  maxQuoteAmountMarket: D('100000000'),
  makerCommission: D('0.001'),
  takerCommission: D('0.002'),
  tradeSideType: 1,
  apiTradable: true,
};

function total(venue: SpotVenue, asset: string, accounts: string[]): Decimal {
  return accounts.reduce((s, a) => {
    const b = venue.balance(a, asset);
    return s.plus(b.free).plus(b.locked);
  }, D(0));
}

describe('SpotVenueLiquidityPort', () => {
  it('fills_our_order_on_the_real_spot_venue_and_conserves_funds', () => {
    const clock = new VirtualClock(Date.UTC(2024, 0, 1));
    const venue = new SpotVenue({ clock, instruments: [btcUsdt] });
    fundSpotCrowd(venue, '1000000');
    venue.deposit('us', 'USDT', '10000');
    const tape = new TapeAggregator({ tick: btcUsdt.tick, step: btcUsdt.step });
    let seq = 0;
    venue.subscribe((e) => {
      if (e.type === 'trade')
        tape.onTrade({
          id: ++seq,
          time: e.time,
          priceTicks: e.priceTicks,
          lots: e.lots,
          takerSide: e.takerSide === 'BUY' ? 'buy' : 'sell',
          takerOrderId: e.takerOrderId,
        });
    });
    const accounts = ['us', spotCrowdMaker('BTCUSDT'), SPOT_CROWD_TAKER];
    const before = [total(venue, 'BTC', accounts), total(venue, 'USDT', accounts)];
    const market = new SyntheticMarket(
      {
        seed: 'spot-venue',
        initialPrice: 1000,
        stepMs: 500,
        volatilityPerYear: 0,
        books: [
          {
            symbol: 'BTCUSDT',
            kind: 'spot',
            tick: '0.01',
            spreadTicks: 4,
            levels: 5,
            touchLots: 20,
            takerArrivalPerSec: 4,
            takerMeanLots: 2,
            takerBuyProbability: 0,
          },
        ],
      },
      { clock, port: new SpotVenueLiquidityPort(venue) },
    );
    market.start();
    // Crowd bid touch: floor(100000 − 2) = 99998 ticks = 999.98; ours improves it by a tick.
    expect(venue.book('BTCUSDT')!.bestBid()).to.equal(99998);
    const placed = venue.placeOrder({
      accountId: 'us',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      price: '999.99',
      quantity: '0.0005',
    });
    expect(placed.ok).to.equal(true);
    const orderId = placed.ok ? placed.order.orderId : '';
    for (let k = 0; k < 120; k++) clock.advanceBy(500);
    const mine = venue.getOrder('us', 'BTCUSDT', { orderId });
    expect(mine.ok && mine.order.status).to.equal('FILLED');
    // 0.0005 BTC bought at 999.99 = 0.499995 USDT, maker fee 0.1 % of the BTC received = 0.0000005.
    const usdt = venue.balance('us', 'USDT');
    expect(usdt.free.plus(usdt.locked).toString()).to.equal('9999.500005');
    // Fees went to the venue, not to anyone in `accounts`: only our maker fee leaves the total.
    const after = [total(venue, 'BTC', accounts), total(venue, 'USDT', accounts)];
    expect(before[0]!.minus(after[0]!).toString()).to.equal('0.0000005');
    expect(before[1]!.eq(after[1]!)).to.equal(true);
    expect(tape.ticker24h(clock.now()).count).to.be.greaterThan(10);
    expect(venue.checkInvariants()).to.deep.equal([]);
    market.stop();
  });
});
