import { expect } from 'chai';
import { D } from '../../src/core/decimal.js';
import {
  bestAsk,
  bestBid,
  fairPrice,
  lastPrice,
  markPrice,
  midPrice,
  type MarketSnapshot,
  snapshotAge,
} from '../../src/domain/snapshot.js';
import { BTC_USDT, BTCUSDT, snapshot } from './support/builders.js';

describe('MarketSnapshot helpers', () => {
  it('prefers_the_book_then_falls_back_to_the_book_ticker', () => {
    const fromBook = snapshot(BTCUSDT, { bids: [['99', '1']], asks: [['101', '1']] });
    expect(bestBid(fromBook)!.toFixed()).to.equal('99');
    expect(midPrice(fromBook)!.toFixed()).to.equal('100');
    const tickerOnly: MarketSnapshot = {
      symbol: BTCUSDT,
      kind: 'spot',
      pollTime: 0,
      bookTicker: { bidPrice: D(98), bidQty: D(1), askPrice: D(102), askQty: D(1) },
    };
    expect(bestAsk(tickerOnly)!.toFixed()).to.equal('102');
  });

  it('takes_the_last_price_from_the_ticker_or_the_newest_trade', () => {
    const s: MarketSnapshot = {
      symbol: BTCUSDT,
      kind: 'spot',
      pollTime: 0,
      trades: [
        { price: D(1), quantity: D(1), time: 1 },
        { price: D(2), quantity: D(1), time: 2 },
      ],
    };
    expect(lastPrice(s)!.toFixed()).to.equal('2');
    expect(lastPrice({ ...s, ticker24h: { lastPrice: D(3) } })!.toFixed()).to.equal('3');
  });

  it('marks_contracts_at_the_fair_price_and_spot_at_the_mid', () => {
    const c = snapshot(BTC_USDT, { bids: [['99', '1']], asks: [['101', '1']], fair: '100.5' });
    expect(fairPrice(c)!.toFixed()).to.equal('100.5');
    expect(markPrice(c)!.toFixed()).to.equal('100.5');
    expect(markPrice(snapshot(BTCUSDT, { bids: [['99', '1']], asks: [['101', '1']], fair: '100.5' }))!.toFixed()).to.equal('100');
  });

  it('measures_age_on_our_clock_not_the_exchange_clock', () => {
    const s = { ...snapshot(BTCUSDT, { pollTime: 1_000 }), exchangeTime: 500 };
    expect(snapshotAge(s, 1_250)).to.equal(250);
  });
});
