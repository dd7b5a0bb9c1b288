import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContractClient } from '../../../src/client/contract-client.js';
import { SpotClient } from '../../../src/client/spot-client.js';
import type { Transport, TransportResponse } from '../../../src/client/transport.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import {
  contractMirrorFeed,
  spotMirrorFeed,
  type ContractMarketReader,
  type SpotMarketReader,
} from '../../../src/marketdata/record/client-mirror-feed.js';
import { MirrorMarketSource } from '../../../src/marketdata/record/mirror-market-source.js';
import { OrderBookLiquidityPort } from '../../../src/venue/market/order-book-liquidity-port.js';

const d = (s: string) => new Decimal(s);

describe('client-mirror-feed', () => {
  it('maps_spot_depth_and_trades_from_the_client_shapes', async () => {
    const seen: unknown[] = [];
    const client = {
      depth: async (req: unknown) => {
        seen.push(req);
        return {
          lastUpdateId: 56217769552,
          timestamp: 1767205854814,
          bids: [{ price: d('87900.00'), qty: d('0.05661525') }],
          asks: [{ price: d('87903.98'), qty: d('5.121816') }],
        };
      },
      trades: async (req: unknown) => {
        seen.push(req);
        return [
          { id: undefined, price: d('87924.49'), qty: d('0.00722558'), time: 1767205820300, isBuyerMaker: false },
          { id: undefined, price: d('87924.48'), qty: d('0.00273119'), time: 1767205820299, isBuyerMaker: true },
        ];
      },
    } as unknown as SpotMarketReader;
    const feed = spotMirrorFeed(client);
    const book = await feed.depth('BTCUSDT', 100);
    expect(book).to.deep.equal({
      version: 56217769552,
      time: 1767205854814,
      bids: [['87900', '0.05661525']],
      asks: [['87903.98', '5.121816']],
    });
    const trades = await feed.trades('BTCUSDT', 500);
    expect(trades).to.deep.equal([
      { price: '87924.49', qty: '0.00722558', time: 1767205820300, takerSide: 'buy' },
      { price: '87924.48', qty: '0.00273119', time: 1767205820299, takerSide: 'sell' },
    ]);
    expect(seen).to.deep.equal([
      { symbol: 'BTCUSDT', limit: 100 },
      { symbol: 'BTCUSDT', limit: 500 },
    ]);
  });

  it('maps_contract_depth_deals_and_prices', async () => {
    const client = {
      depth: async () => ({
        version: 30094456680,
        timestamp: 1767209914046,
        bids: [{ price: d('87631.4'), vol: d('11742'), count: 2 }],
        asks: [],
      }),
      deals: async (req: { limit: number }) => [
        { p: d('87511.3'), v: d('51'), T: 2, O: 3, M: 2, t: 1767211407368, i: '12767059784', limit: req.limit },
      ],
      indexPrice: async () => ({ symbol: 'BTC_USDT', indexPrice: d('87812.39'), timestamp: 1767206846103 }),
      fairPrice: async () => ({ symbol: 'BTC_USDT', fairPrice: d('87790.2'), timestamp: 1767208306192 }),
      fundingRate: async () => ({
        symbol: 'BTC_USDT',
        fundingRate: d('0.0001'),
        maxFundingRate: d('0.0018'),
        minFundingRate: d('-0.0018'),
        collectCycle: 8,
        nextSettleTime: 1767225600000,
        timestamp: 1767211289574,
      }),
    } as unknown as ContractMarketReader;
    const feed = contractMirrorFeed(client);
    expect(await feed.depth('BTC_USDT', 20)).to.deep.equal({
      version: 30094456680,
      time: 1767209914046,
      bids: [['87631.4', '11742']],
      asks: [],
    });
    expect(await feed.trades('BTC_USDT', 500)).to.deep.equal([
      { id: '12767059784', price: '87511.3', qty: '51', time: 1767211407368, takerSide: 'sell' },
    ]);
    expect(await feed.prices!('BTC_USDT')).to.deep.equal({
      index: { price: '87812.39', time: 1767206846103 },
      fair: { price: '87790.2', time: 1767208306192 },
      funding: { rate: '0.0001', min: '-0.0018', max: '0.0018', nextSettleTime: 1767225600000, collectCycleHours: 8, time: 1767211289574 },
    });
  });
});

/** Reads test/fixtures/mexc wherever the compiled test runs from. */
function fixture(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'test', 'fixtures', 'mexc', name);
    if (existsSync(candidate)) return readFileSync(candidate, 'utf8');
    dir = dirname(dir);
  }
  throw new Error(`fixture ${name} not found`);
}

/** Serves the captured venue answers by path, as the real exchange sent them. */
function fixtureTransport(clock: VirtualClock, routes: Record<string, string>): Transport {
  return {
    async send(req): Promise<TransportResponse> {
      const path = req.path.split('?')[0]!;
      const name = routes[path];
      if (!name) return { status: 404, headers: {}, body: '{}', sentAt: clock.now(), receivedAt: clock.now() };
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: fixture(name),
        sentAt: clock.now(),
        receivedAt: clock.now(),
      };
    },
    async close() {},
  };
}

describe('client-mirror-feed with the real clients', () => {
  it('mirrors_the_captured_spot_and_contract_answers_into_our_books', async () => {
    const clock = new VirtualClock(1767205854814);
    const spotClient = new SpotClient({
      baseUrl: 'http://venue.invalid',
      clock,
      timeSync: false,
      rateLimits: false,
      transport: fixtureTransport(clock, {
        '/api/v3/depth': 'spot_GET_api_v3_depth.json',
        '/api/v3/trades': 'spot_GET_api_v3_trades.json',
      }),
    });
    const contractClient = new ContractClient({
      baseUrl: 'http://venue.invalid',
      clock,
      timeSync: false,
      rateLimits: false,
      transport: fixtureTransport(clock, {
        '/api/v1/contract/depth/BTC_USDT': 'contract_GET_api_v1_contract_depth_BTC_USDT.json',
        '/api/v1/contract/deals/BTC_USDT': 'contract_GET_api_v1_contract_deals_BTC_USDT.json',
        '/api/v1/contract/index_price/BTC_USDT': 'contract_GET_api_v1_contract_index_price_BTC_USDT.json',
        '/api/v1/contract/fair_price/BTC_USDT': 'contract_GET_api_v1_contract_fair_price_BTC_USDT.json',
        '/api/v1/contract/funding_rate/BTC_USDT': 'contract_GET_api_v1_contract_funding_rate_BTC_USDT.json',
      }),
    });
    const port = new OrderBookLiquidityPort(clock, ['BTCUSDT', 'BTC_USDT'], () => {});
    const source = new MirrorMarketSource({
      feeds: { spot: spotMirrorFeed(spotClient), contract: contractMirrorFeed(contractClient) },
      instruments: [
        { market: 'spot', symbol: 'BTCUSDT', tick: '0.01', step: '0.00000001' },
        { market: 'contract', symbol: 'BTC_USDT', tick: '0.1', step: '1', indexTick: '0.01' },
      ],
      clock,
      port,
    });
    await source.pollOnce();
    expect(source.mirrorStats.errors, String(source.mirrorStats.lastError)).to.equal(0);
    // Spot capture: best bid 87900.00 × 0.05661525, best ask 87903.98 × 5.12181600.
    expect(port.book('BTCUSDT').depth('BUY', 1)).to.deep.equal([[8790000, 5661525, 1]]);
    expect(port.book('BTCUSDT').depth('SELL', 1)).to.deep.equal([[8790398, 512181600, 1]]);
    // Contract capture: 87631.4 × 11742 / 87631.5 × 11008, five levels a side.
    expect(port.book('BTC_USDT').depth('BUY', 1)).to.deep.equal([[876314, 11742, 1]]);
    expect(port.book('BTC_USDT').depth('SELL', 5).length).to.equal(5);
    const board = source.contractPrices('BTC_USDT')!;
    expect([
      board.index()!.price.toString(),
      board.fair()!.price.toString(),
      board.funding()!.rate.toString(),
      board.funding()!.maxRate.toString(),
    ]).to.deep.equal(['87812.39', '87790.2', '0.0001', '0.0018']);
    await spotClient.close();
    await contractClient.close();
  });
});
