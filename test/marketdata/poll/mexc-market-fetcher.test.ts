import { expect } from 'chai';
import { spotCatalogue } from '../../../src/api/spot/catalogue.js';
import { contractCatalogue } from '../../../src/api/contract/catalogue.js';
import type { EndpointDef } from '../../../src/api/endpoint.js';
import { VirtualClock } from '../../../src/core/clock.js';
import {
  MexcContractMarketFetcher,
  MexcSpotMarketFetcher,
  type ContractMarketClient,
  type SpotMarketClient,
} from '../../../src/marketdata/poll/mexc-market-fetcher.js';
import { contractFixtureData, spotFixture } from './support/fixtures.js';

interface Call {
  readonly method: string;
  readonly req: unknown;
  readonly opts: unknown;
}

/** A client stub that answers each method with a captured fixture parsed by the catalogue's own schema. */
function stubClient<T>(catalogue: Record<string, EndpointDef>, answers: Record<string, unknown>, calls: Call[]): T {
  const out: Record<string, unknown> = {};
  for (const [method, body] of Object.entries(answers)) {
    out[method] = async (req: unknown, opts: unknown) => {
      calls.push({ method, req, opts });
      return catalogue[method]!.response.parse(body);
    };
  }
  return out as T;
}

describe('MexcSpotMarketFetcher', () => {
  const calls: Call[] = [];
  const client = stubClient<SpotMarketClient>(
    spotCatalogue,
    {
      depth: spotFixture('spot_GET_api_v3_depth.json'),
      trades: spotFixture('spot_GET_api_v3_trades.json'),
      klines: spotFixture('spot_GET_api_v3_klines.json'),
      ticker24hr: spotFixture('spot_GET_api_v3_ticker_24hr.json'),
      bookTicker: spotFixture('spot_GET_api_v3_ticker_bookTicker.json'),
      avgPrice: spotFixture('spot_GET_api_v3_avgPrice.json'),
    },
    calls,
  );
  const fetcher = new MexcSpotMarketFetcher(client, { timeoutMs: 800 });

  it('maps_depth_best_first_with_the_venue_time_and_sequence', async () => {
    const book = await fetcher.depth('BTCUSDT', 5);
    expect(book.bids[0]!.price.toString()).to.equal('87900');
    expect(book.asks[0]!.price.toString()).to.equal('87903.98');
    expect(book.asks[0]!.quantity.toString()).to.equal('5.121816');
    expect(book.sequence).to.equal('56217769552');
    expect(book.exchangeTime).to.equal(1767205854814);
    expect(calls.at(-1)).to.deep.equal({ method: 'depth', req: { symbol: 'BTCUSDT', limit: 5 }, opts: { maxRetries: 0, timeoutMs: 800 } });
  });

  it('maps_trades_oldest_first_with_the_taker_side', async () => {
    const trades = await fetcher.trades('BTCUSDT', 3);
    const times = trades.map((t) => t.time);
    expect(times).to.deep.equal([...times].sort((a, b) => a - b));
    const newest = trades[trades.length - 1]!;
    // newest fixture trade: 87924.49, tradeType BID (the taker bought), isBuyerMaker false
    expect([newest.price.toString(), newest.takerSide, newest.time]).to.deep.equal(['87924.49', 'buy', 1767205820300]);
    expect(newest.id).to.equal(undefined); // the venue sends id: null
  });

  it('keeps_prints_of_one_millisecond_oldest_first_too', async () => {
    // The fixture answers newest first; at 1767205820298 it lists 0.00356736, 0.00607586, 0.00576229
    // (newest to oldest). Oldest first, the order within that millisecond flips.
    const trades = await fetcher.trades('BTCUSDT', 5);
    const sameMs = trades.filter((t) => t.time === 1767205820298).map((t) => t.quantity.toString());
    expect(sameMs).to.deep.equal(['0.00576229', '0.00607586', '0.00356736']);
  });

  it('maps_klines_tickers_and_average_price', async () => {
    const k = await fetcher.klines('BTCUSDT', '5m', 2);
    expect(k.map((x) => [x.openTime, x.closeTime, x.close.toString(), x.quoteVolume?.toString()])).to.deep.equal([
      [1767204000000, 1767204300000, '87667.2', '2339029.48'],
      [1767204300000, 1767204600000, '87868.15', '6339710.08'],
    ]);
    const t = (await fetcher.ticker24h('BTCUSDT'))!;
    expect([t.lastPrice.toString(), t.bidPrice?.toString(), t.exchangeTime]).to.deep.equal(['87904', '87903.99', 1767206031677]);
    const bt = (await fetcher.bookTicker('BTCUSDT'))!;
    expect([bt.bidPrice.toString(), bt.askQty.toString()]).to.deep.equal(['87893.56', '1.783024']);
    const avg = await fetcher.avgPrice('BTCUSDT');
    expect([avg.price.toString(), avg.windowMinutes]).to.deep.equal(['87920.64', 5]);
  });
});

describe('MexcContractMarketFetcher', () => {
  const calls: Call[] = [];
  const client = stubClient<ContractMarketClient>(
    contractCatalogue,
    {
      depth: contractFixtureData('contract_GET_api_v1_contract_depth_BTC_USDT.json'),
      ticker: contractFixtureData('contract_GET_api_v1_contract_ticker.json'),
      fundingRate: contractFixtureData('contract_GET_api_v1_contract_funding_rate_BTC_USDT.json'),
      fairPrice: contractFixtureData('contract_GET_api_v1_contract_fair_price_BTC_USDT.json'),
      indexPrice: contractFixtureData('contract_GET_api_v1_contract_index_price_BTC_USDT.json'),
      deals: contractFixtureData('contract_GET_api_v1_contract_deals_BTC_USDT.json'),
      kline: contractFixtureData('contract_GET_api_v1_contract_kline_BTC_USDT.json'),
    },
    calls,
  );
  // 2026-01-01T00:12:34Z
  const clock = new VirtualClock(1_767_226_354_000);
  const fetcher = new MexcContractMarketFetcher(client, clock);

  it('maps_depth_with_order_counts', async () => {
    const book = await fetcher.depth('BTC_USDT', 5);
    expect([book.bids[0]!.price.toString(), book.bids[0]!.quantity.toString(), book.bids[0]!.orders]).to.deep.equal([
      '87631.4',
      '11742',
      2,
    ]);
    expect(book.asks[0]!.price.toString()).to.equal('87631.5');
    expect(book.sequence).to.equal('30094456680');
    expect(book.exchangeTime).to.equal(1767209914046);
  });

  it('maps_the_ticker_with_fair_index_and_funding', async () => {
    const t = (await fetcher.ticker('BTC_USDT'))!;
    expect([t.lastPrice, t.bid1, t.ask1, t.fairPrice, t.indexPrice, t.fundingRate].map((d) => d!.toString())).to.deep.equal([
      '87718.1',
      '87718.1',
      '87718.2',
      '87722.5',
      '87751.69',
      '0.0001',
    ]);
    expect(t.exchangeTime).to.equal(1767209294795);
  });

  it('maps_funding_fair_and_index_with_their_venue_times', async () => {
    const f = await fetcher.fundingRate('BTC_USDT');
    expect([f.rate.toString(), f.collectCycleHours, f.nextSettleTime, f.exchangeTime]).to.deep.equal([
      '0.0001',
      8,
      1767225600000,
      1767211289574,
    ]);
    const fair = await fetcher.fairPrice('BTC_USDT');
    expect([fair.price.toString(), fair.exchangeTime]).to.deep.equal(['87790.2', 1767208306192]);
    const idx = await fetcher.indexPrice('BTC_USDT');
    expect([idx.price.toString(), idx.exchangeTime]).to.deep.equal(['87812.39', 1767206846103]);
  });

  it('maps_deals_oldest_first_with_taker_side_and_id', async () => {
    const d = await fetcher.deals('BTC_USDT', 5);
    expect(d.map((x) => [x.id, x.takerSide, x.quantity.toString()])).to.deep.equal([
      ['12767059509', 'buy', '150'],
      ['12767059632', 'sell', '7'],
      ['12767059725', 'buy', '2696'],
      ['12767059783', 'sell', '5'],
      ['12767059784', 'sell', '51'],
    ]);
  });

  it('asks_for_the_last_n_candles_by_start_time_and_adds_close_times', async () => {
    const k = await fetcher.klines('BTC_USDT', 'Min5', 2);
    // now = 1767226354 s; Min5 = 300 s; current candle opens at floor(1767226354/300)·300 = 1767226200;
    // 2 candles → start one interval earlier: 1767225900.
    const req = calls.filter((c) => c.method === 'kline').at(-1)!.req;
    expect(req).to.deep.equal({ symbol: 'BTC_USDT', interval: 'Min5', start: 1767225900 });
    // the fixture holds 3 candles; the last 2 are kept, close = open + 300 000 ms
    expect(k.map((x) => [x.openTime, x.closeTime, x.volume.toString(), x.quoteVolume?.toString()])).to.deep.equal([
      [1767204300000, 1767204600000, '3544088', '31106849.07131'],
      [1767204600000, 1767204900000, '3029607', '26622974.07804'],
    ]);
  });
});
