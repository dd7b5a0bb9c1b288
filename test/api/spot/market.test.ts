import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { spotCatalogue as c } from '../../../src/api/spot/catalogue.js';
import { expectIssue, fixture, parseOk, unwrapSpot } from './spot-test-kit.js';

const s = (d: Decimal | undefined) => d?.toFixed();

describe('spot market data (4.1)', () => {
  describe('responses from the captured fixtures', () => {
    it('parses_server_time', () => {
      expect(parseOk(c.serverTime.response, fixture('spot_GET_api_v3_time.json')).serverTime).to.equal(1767211150479);
    });

    it('parses_default_symbols_after_unwrapping', () => {
      const list = parseOk(c.defaultSymbols.response, unwrapSpot(fixture('spot_GET_api_v3_defaultSymbols.json')));
      expect(list).to.have.length(10);
      expect([list[0], list[9]]).to.deep.equal(['SNTUSDT', 'MATUSDT']);
    });

    it('parses_exchange_info_with_string_status_numeric_trade_side_and_percent_filter', () => {
      const info = parseOk(c.exchangeInfo.response, fixture('spot_GET_api_v3_exchangeInfo.json'));
      expect(info.serverTime).to.equal(1767211169287);
      expect(info.timezone).to.equal('CST');
      const btc = info.symbols[0]!;
      expect([btc.symbol, btc.status, btc.tradeSideType]).to.deep.equal(['BTCUSDT', '1', 1]);
      expect([btc.baseAssetPrecision, btc.quotePrecision]).to.deep.equal([8, 2]);
      expect(btc.filters![0]!.filterType).to.equal('PERCENT_PRICE_BY_SIDE');
      expect(s(btc.filters![0]!.bidMultiplierUp)).to.equal('0.005');
      expect(s(btc.baseSizePrecision)).to.equal('0.000001');
      expect(s(btc.maxQuoteAmount)).to.equal('4000000');
      expect(s(btc.takerCommission)).to.equal('0.0005');
      expect(btc.isSpotTradingAllowed).to.equal(false);
      expect(btc.contractAddress).to.equal(undefined); // "" counts as absent
      expect(btc.conceptPlateIds).to.deep.equal([50, 5, 39, 12]);
    });

    it('parses_exchange_info_of_all_symbols', () => {
      const info = parseOk(c.exchangeInfo.response, fixture('spot_GET_api_v3_exchangeInfo_all.json'));
      expect(info.symbols.map((x) => x.symbol)).to.deep.equal(['BTCUSDT', 'METALUSDT', 'RARIUSDT', 'PYTHUSDT', 'AOUSDT', 'AMPEDUSDT']);
      const pyth = info.symbols[3]!;
      expect(s(pyth.baseSizePrecision)).to.equal('0');
      expect(pyth.quotePrecision).to.equal(5);
      expect(s(pyth.filters![0]!.askMultiplierDown)).to.equal('0.02');
    });

    it('parses_depth_with_its_undocumented_timestamp', () => {
      const d = parseOk(c.depth.response, fixture('spot_GET_api_v3_depth.json'));
      expect(d.lastUpdateId).to.equal(56217769552);
      expect(d.timestamp).to.equal(1767205854814);
      expect([d.bids.length, d.asks.length]).to.deep.equal([5, 5]);
      expect(d.bids[0]!.price.eq('87900')).to.equal(true);
      expect(s(d.bids[0]!.qty)).to.equal('0.05661525');
      expect(s(d.asks[0]!.price)).to.equal('87903.98');
      expect(s(d.asks[0]!.qty)).to.equal('5.121816');
    });

    it('parses_trades_with_null_ids_and_trade_type', () => {
      const t = parseOk(c.trades.response, fixture('spot_GET_api_v3_trades.json'));
      expect(t).to.have.length(5);
      expect(t[0]!.id).to.equal(undefined);
      expect([t[0]!.tradeType, t[1]!.tradeType]).to.deep.equal(['BID', 'ASK']);
      expect([t[0]!.isBuyerMaker, t[1]!.isBuyerMaker]).to.deep.equal([false, true]);
      expect(s(t[0]!.price)).to.equal('87924.49');
      expect(s(t[0]!.quoteQty)).to.equal('635.3054364542');
      expect(t[0]!.time).to.equal(1767205820300);
    });

    it('parses_aggregate_trades_with_null_ids', () => {
      const a = parseOk(c.aggTrades.response, fixture('spot_GET_api_v3_aggTrades.json'));
      expect(a).to.have.length(5);
      expect([a[0]!.a, a[0]!.f, a[0]!.l]).to.deep.equal([undefined, undefined, undefined]);
      expect(s(a[0]!.p)).to.equal('87644.58');
      expect(s(a[0]!.q)).to.equal('0.61162371');
      expect([a[0]!.T, a[0]!.m, a[0]!.M]).to.deep.equal([1767204403000, false, true]);
    });

    it('parses_kline_rows_into_named_fields', () => {
      const k = parseOk(c.klines.response, fixture('spot_GET_api_v3_klines.json'));
      expect(k).to.have.length(2);
      expect([k[0]!.openTime, k[0]!.closeTime]).to.deep.equal([1767204000000, 1767204300000]);
      expect([s(k[0]!.open), s(k[0]!.high), s(k[0]!.low), s(k[0]!.close)]).to.deep.equal(['87621.27', '87683.93', '87570', '87667.2']);
      expect([s(k[0]!.volume), s(k[0]!.quoteVolume)]).to.deep.equal(['26.68976225', '2339029.48']);
      // consecutive 5m klines: open times 300000 ms apart
      expect(k[1]!.openTime - k[0]!.openTime).to.equal(300_000);
    });

    it('parses_average_price', () => {
      const a = parseOk(c.avgPrice.response, fixture('spot_GET_api_v3_avgPrice.json'));
      expect(a.mins).to.equal(5);
      expect(s(a.price)).to.equal('87920.64');
    });

    it('parses_one_24h_ticker_into_an_array_of_one', () => {
      const t = parseOk(c.ticker24hr.response, fixture('spot_GET_api_v3_ticker_24hr.json'));
      expect(t).to.have.length(1);
      expect(t[0]!.symbol).to.equal('BTCUSDT');
      expect(s(t[0]!.priceChange)).to.equal('-491.05');
      expect(s(t[0]!.priceChangePercent)).to.equal('-0.0055');
      expect(t[0]!.count).to.equal(undefined);
      expect([t[0]!.openTime, t[0]!.closeTime]).to.deep.equal([1767206022041, 1767206031677]);
    });

    it('parses_all_24h_tickers', () => {
      const t = parseOk(c.ticker24hr.response, fixture('spot_GET_api_v3_ticker_24hr_all.json'));
      expect(t.map((x) => x.symbol)).to.deep.equal(['METALUSDT', 'RARIUSDT', 'PYTHUSDT', 'AOUSDT', 'AMPEDUSDT']);
      expect(s(t[4]!.lastPrice)).to.equal('0.00281');
    });

    it('parses_price_tickers_one_and_all', () => {
      const one = parseOk(c.tickerPrice.response, fixture('spot_GET_api_v3_ticker_price.json'));
      expect(one.map((x) => [x.symbol, s(x.price)])).to.deep.equal([['BTCUSDT', '87878.42']]);
      const all = parseOk(c.tickerPrice.response, fixture('spot_GET_api_v3_ticker_price_all.json'));
      expect(all).to.have.length(5);
      expect([all[3]!.symbol, s(all[3]!.price)]).to.deep.equal(['AOUSDT', '5.35']);
    });

    it('parses_book_tickers_one_and_all', () => {
      const one = parseOk(c.bookTicker.response, fixture('spot_GET_api_v3_ticker_bookTicker.json'));
      expect([s(one[0]!.bidPrice), s(one[0]!.bidQty), s(one[0]!.askPrice), s(one[0]!.askQty)]).to.deep.equal([
        '87893.56',
        '3.141912',
        '87894.45',
        '1.783024',
      ]);
      const all = parseOk(c.bookTicker.response, fixture('spot_GET_api_v3_ticker_bookTicker_all.json'));
      expect(all).to.have.length(5);
      expect(s(all[1]!.bidQty)).to.equal('58.3');
    });

    it('parses_ping_and_offline_symbols_shapes', () => {
      expect(parseOk(c.ping.response, {})).to.deep.equal({});
      const off = parseOk(c.offlineSymbols.response, {
        data: [
          { symbol: 'OLDUSDT', state: 3, offlineTime: '1767200000000' },
          { symbol: 'SUSUSDT', state: '2' },
        ],
      });
      expect(off.data.map((x) => [x.symbol, x.state, x.offlineTime])).to.deep.equal([
        ['OLDUSDT', 3, 1767200000000],
        ['SUSUSDT', 2, undefined],
      ]);
      // the same list inside a code/msg/timestamp body is accepted too
      expect(parseOk(c.offlineSymbols.response, { code: 0, msg: 'success', data: [], timestamp: 1 }).data).to.deep.equal([]);
    });
  });

  describe('malformed responses', () => {
    it('rejects_a_non_numeric_depth_price_naming_it', () => {
      expectIssue(c.depth.response, { lastUpdateId: 1, bids: [['abc', '1']], asks: [] }, ['bids', 0, 0]);
    });

    it('rejects_a_non_numeric_ticker_price_naming_it', () => {
      expectIssue(c.ticker24hr.response, { symbol: 'BTCUSDT', lastPrice: 'n/a' }, ['lastPrice']);
      expectIssue(c.ticker24hr.response, [{ symbol: 'BTCUSDT' }, { symbol: 'ETHUSDT', askQty: 'x' }], [1, 'askQty']);
    });

    it('rejects_an_unknown_symbol_status_naming_it', () => {
      const info = fixture('spot_GET_api_v3_exchangeInfo.json') as { symbols: Record<string, unknown>[] };
      info.symbols[0]!.status = '9';
      expectIssue(c.exchangeInfo.response, info, ['symbols', 0, 'status']);
    });

    it('rejects_a_percent_filter_without_its_multiplier', () => {
      const info = fixture('spot_GET_api_v3_exchangeInfo.json') as { symbols: { filters: Record<string, unknown>[] }[] };
      delete info.symbols[0]!.filters[0]!.bidMultiplierUp;
      expectIssue(c.exchangeInfo.response, info, ['symbols', 0, 'filters', 0, 'bidMultiplierUp']);
    });

    it('rejects_a_short_kline_row', () => {
      expectIssue(c.klines.response, [[1767204000000, '1', '1', '1', '1', '1']], [0, 6]);
    });
  });

  describe('request validation', () => {
    it('serialises_depth_limit_as_a_string', () => {
      expect(parseOk(c.depth.request, { symbol: 'BTCUSDT', limit: 5000 })).to.deep.equal({ symbol: 'BTCUSDT', limit: '5000' });
    });

    it('clamps_depth_limit_above_5000_and_refuses_below_1', () => {
      expect(parseOk(c.depth.request, { symbol: 'BTCUSDT', limit: 5001 }).limit).to.equal('5000');
      expectIssue(c.depth.request, { symbol: 'BTCUSDT', limit: '0' }, ['limit'], /1\.\.5000/);
      expectIssue(c.depth.request, { symbol: 'BTCUSDT', limit: 2.5 }, ['limit'], /1\.\.5000/);
    });

    for (const key of ['trades', 'aggTrades', 'klines'] as const) {
      it(`clamps_${key}_limit_above_1000_and_refuses_negative_or_non_numeric`, () => {
        const base = key === 'klines' ? { symbol: 'BTCUSDT', interval: '1m' as const } : { symbol: 'BTCUSDT' };
        expect(parseOk(c[key].request, { ...base, limit: 1000 }).limit).to.equal('1000');
        expect(parseOk(c[key].request, { ...base, limit: 1001 }).limit).to.equal('1000');
        expectIssue(c[key].request, { ...base, limit: -5 }, ['limit'], /1\.\.1000/);
        expectIssue(c[key].request, { ...base, limit: 'abc' }, ['limit'], /1\.\.1000/);
      });
    }

    it('refuses_aggTrades_startTime_without_endTime', () => {
      expectIssue(c.aggTrades.request, { symbol: 'BTCUSDT', startTime: 1767204283384 }, ['endTime'], /both or neither/);
    });

    it('refuses_klines_endTime_without_startTime', () => {
      expectIssue(c.klines.request, { symbol: 'BTCUSDT', interval: '5m', endTime: 1767204600000 }, ['startTime'], /both or neither/);
    });

    it('refuses_a_time_window_that_ends_before_it_starts', () => {
      expectIssue(c.aggTrades.request, { symbol: 'BTCUSDT', startTime: 2000, endTime: 1000 }, ['endTime'], />= startTime/);
    });

    it('refuses_the_1h_interval_and_points_to_60m', () => {
      expectIssue(c.klines.request, { symbol: 'BTCUSDT', interval: '1h' }, ['interval'], /60m/);
      expect(parseOk(c.klines.request, { symbol: 'BTCUSDT', interval: '60m' }).interval).to.equal('60m');
    });

    it('requires_a_symbol_naming_it', () => {
      expectIssue(c.depth.request, {}, ['symbol'], /spot symbol/);
      expectIssue(c.avgPrice.request, { symbol: 'btc-usdt' }, ['symbol'], /spot symbol/);
    });

    it('joins_exchange_info_symbols_and_refuses_symbol_with_symbols', () => {
      expect(parseOk(c.exchangeInfo.request, { symbols: ['BTCUSDT', 'ETHUSDT'] })).to.deep.equal({ symbols: 'BTCUSDT,ETHUSDT' });
      expect(parseOk(c.exchangeInfo.request, { symbols: 'BTCUSDT,ETHUSDT' })).to.deep.equal({ symbols: 'BTCUSDT,ETHUSDT' });
      expectIssue(c.exchangeInfo.request, { symbol: 'BTCUSDT', symbols: 'ETHUSDT' }, ['symbols'], /not both/);
    });

    it('accepts_wire_strings_for_times_and_limits', () => {
      const wire = { symbol: 'BTCUSDT', interval: '5m', startTime: '1767204000000', endTime: '1767204600000', limit: '1000' };
      expect(parseOk(c.klines.request, wire)).to.deep.equal(wire);
    });
  });

  it('keeps_unknown_response_fields', () => {
    const t = parseOk(c.avgPrice.response, { mins: 5, price: '1.5', closeTime: 1 }) as Record<string, unknown>;
    expect(t.closeTime).to.equal(1);
    expect((t.price as Decimal).eq('1.5')).to.equal(true);
  });
});
