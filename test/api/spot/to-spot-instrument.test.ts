import { expect } from 'chai';
import { toUnits } from '../../../src/core/decimal.js';
import { spotCatalogue as c } from '../../../src/api/spot/catalogue.js';
import { toSpotInstrument, toSpotInstruments } from '../../../src/api/spot/to-spot-instrument.js';
import { fixture, parseOk } from './spot-test-kit.js';

const allInfo = () => parseOk(c.exchangeInfo.response, fixture('spot_GET_api_v3_exchangeInfo_all.json'));

describe('toSpotInstrument', () => {
  it('derives_tick_from_quotePrecision_and_step_from_baseAssetPrecision', () => {
    const btc = toSpotInstrument(allInfo().symbols[0]!);
    // quotePrecision 2 → 10^-2; baseAssetPrecision 8 → 10^-8
    expect(btc.tick.toFixed()).to.equal('0.01');
    expect(btc.step.toFixed()).to.equal('0.00000001');
    const metal = toSpotInstrument(allInfo().symbols[1]!);
    // quotePrecision 5, baseAssetPrecision 2
    expect([metal.tick.toFixed(), metal.step.toFixed()]).to.deep.equal(['0.00001', '0.01']);
  });

  it('puts_every_captured_price_and_quantity_on_that_grid', () => {
    const bySymbol = new Map(toSpotInstruments(allInfo()).map((i) => [i.symbol as string, i]));
    const tickers = parseOk(c.bookTicker.response, fixture('spot_GET_api_v3_ticker_bookTicker_all.json'));
    const daily = parseOk(c.ticker24hr.response, fixture('spot_GET_api_v3_ticker_24hr_all.json'));
    let checked = 0;
    for (const t of tickers) {
      const i = bySymbol.get(t.symbol)!;
      for (const p of [t.bidPrice!, t.askPrice!]) toUnits(p, i.tick, 'exact');
      for (const q of [t.bidQty!, t.askQty!]) toUnits(q, i.step, 'exact');
      checked += 4;
    }
    for (const t of daily) {
      const i = bySymbol.get(t.symbol)!;
      for (const p of [t.lastPrice!, t.highPrice!, t.lowPrice!, t.openPrice!, t.bidPrice!, t.askPrice!]) toUnits(p, i.tick, 'exact');
      for (const q of [t.volume!, t.bidQty!, t.askQty!]) toUnits(q, i.step, 'exact');
      checked += 9;
    }
    const btc = bySymbol.get('BTCUSDT')!;
    const depth = parseOk(c.depth.response, fixture('spot_GET_api_v3_depth.json'));
    for (const l of [...depth.bids, ...depth.asks]) {
      toUnits(l.price, btc.tick, 'exact');
      toUnits(l.qty, btc.step, 'exact');
      checked += 2;
    }
    // 5 book tickers × 4 + 5 daily tickers × 9 + 10 depth levels × 2
    expect(checked).to.equal(5 * 4 + 5 * 9 + 10 * 2);
  });

  it('does_not_take_baseSizePrecision_as_the_step', () => {
    const btc = toSpotInstrument(allInfo().symbols[0]!);
    // the book holds 0.05661525 BTC: not a multiple of the 0.000001 minimum quantity
    expect(() => toUnits('0.05661525', btc.minQuantity, 'exact')).to.throw(RangeError);
    expect(toUnits('0.05661525', btc.step, 'exact')).to.equal(5_661_525);
  });

  it('maps_limits_fees_filter_and_status', () => {
    const btc = toSpotInstrument(allInfo().symbols[0]!);
    expect([btc.kind, btc.symbol, btc.status, btc.baseAsset, btc.quoteAsset]).to.deep.equal(['spot', 'BTCUSDT', '1', 'BTC', 'USDT']);
    expect([btc.minQuantity.toFixed(), btc.minQuoteAmount.toFixed(), btc.minQuoteAmountMarket.toFixed()]).to.deep.equal([
      '0.000001',
      '1',
      '1',
    ]);
    expect([btc.maxQuoteAmount.toFixed(), btc.maxQuoteAmountMarket.toFixed()]).to.deep.equal(['4000000', '4000000']);
    expect([btc.makerCommission.toFixed(), btc.takerCommission.toFixed()]).to.deep.equal(['0', '0.0005']);
    expect(btc.percentPriceBySide?.bidMultiplierUp.toFixed()).to.equal('0.005');
    expect(btc.percentPriceBySide?.askMultiplierDown.toFixed()).to.equal('0.005');
    expect([btc.tradeSideType, btc.fullName, btc.st]).to.deep.equal([1, 'Bitcoin', false]);
    expect(btc.orderTypes).to.deep.equal(['LIMIT', 'MARKET', 'LIMIT_MAKER']);
    expect([btc.quoteAssetPrecision, btc.baseCommissionPrecision, btc.quoteCommissionPrecision]).to.deep.equal([2, 8, 2]);
  });

  it('marks_api_tradable_from_the_default_symbols_when_given', () => {
    const entry = allInfo().symbols[0]!;
    expect(toSpotInstrument(entry, new Set(['BTCUSDT'])).apiTradable).to.equal(true);
    expect(toSpotInstrument(entry, new Set(['ETHUSDT'])).apiTradable).to.equal(false);
  });

  it('falls_back_to_isSpotTradingAllowed_without_default_symbols', () => {
    const [btc, metal] = allInfo().symbols;
    expect(toSpotInstrument(btc!).apiTradable).to.equal(false); // isSpotTradingAllowed false in the capture
    expect(toSpotInstrument(metal!).apiTradable).to.equal(true);
  });

  it('fills_missing_optional_fields_with_safe_values', () => {
    const entry = parseOk(c.exchangeInfo.response, {
      symbols: [
        {
          symbol: 'NEWUSDT',
          status: 2,
          baseAsset: 'NEW',
          quoteAsset: 'USDT',
          baseAssetPrecision: 3,
          quotePrecision: 1,
          orderTypes: ['LIMIT', 'STOP_LOSS'],
        },
      ],
    }).symbols[0]!;
    const i = toSpotInstrument(entry);
    expect([i.status, i.tick.toFixed(), i.step.toFixed()]).to.deep.equal(['2', '0.1', '0.001']);
    expect([i.quoteAssetPrecision, i.baseCommissionPrecision, i.quoteCommissionPrecision]).to.deep.equal([1, 3, 1]);
    expect([i.minQuantity.toFixed(), i.minQuoteAmount.toFixed(), i.makerCommission.toFixed()]).to.deep.equal(['0', '0', '0']);
    expect(i.maxQuoteAmount.isFinite()).to.equal(false);
    expect([i.tradeSideType, i.percentPriceBySide, i.apiTradable]).to.deep.equal([1, undefined, false]);
    expect(i.orderTypes).to.deep.equal(['LIMIT']);
  });
});
