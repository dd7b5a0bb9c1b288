import { expect } from 'chai';
import { ContractPriceBoard } from '../../../src/venue/market/contract-price-board.js';
import { PriceCandleSeries } from '../../../src/venue/market/price-candles.js';

const T0 = Date.UTC(2024, 0, 1);

describe('PriceCandleSeries', () => {
  it('builds_ohlc_of_samples_with_zero_volume_and_real_columns_equal_to_close', () => {
    const s = new PriceCandleSeries('0.01');
    s.add(T0, '100.00');
    s.add(T0 + 10_000, '101.50');
    s.add(T0 + 70_000, '99.00');
    const c = s.contractCandles('1m', {}, T0 + 90_000);
    expect(c.time).to.deep.equal([T0 / 1000, T0 / 1000 + 60]);
    // Bar 1: 100 → 101.5. Bar 2 opens at the previous close 101.5, low 99, closes 99.
    expect([c.open, c.high, c.low, c.close]).to.deep.equal([
      [100, 101.5],
      [101.5, 101.5],
      [100, 99],
      [101.5, 99],
    ]);
    expect([c.vol, c.amount, c.realOpen, c.realHigh, c.realLow, c.realClose]).to.deep.equal([
      [0, 0],
      [0, 0],
      [101.5, 99],
      [101.5, 99],
      [101.5, 99],
      [101.5, 99],
    ]);
    expect(s.last()!.toString()).to.equal('99');
  });

  it('rounds_samples_to_its_resolution', () => {
    const s = new PriceCandleSeries('0.1');
    s.add(T0, '87812.39');
    expect(s.last()!.toString()).to.equal('87812.4');
  });
});

describe('ContractPriceBoard', () => {
  it('keeps_settlements_newest_first_and_notifies_until_unsubscribed', () => {
    const b = new ContractPriceBoard('BTC_USDT', '0.01', '0.1');
    const seen: string[] = [];
    const off = b.onSettlement((s) => seen.push(s.rate.toString()));
    b.settle('0.0001', T0, 8);
    off();
    b.settle('-0.0002', T0 + 8 * 3_600_000, 8);
    expect(seen).to.deep.equal(['0.0001']);
    expect(b.settlements().map((s) => [s.settleTime, s.rate.toString()])).to.deep.equal([
      [T0 + 8 * 3_600_000, '-0.0002'],
      [T0, '0.0001'],
    ]);
  });
});
