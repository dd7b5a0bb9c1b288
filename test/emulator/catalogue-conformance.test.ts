import { expect } from 'chai';
import { allEndpoints } from '../../src/api/catalogue.js';
import type { EndpointDef } from '../../src/api/endpoint.js';
import { VirtualClock } from '../../src/core/clock.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { parseEmulatorConfig } from '../../src/emulator/emulator-config.js';
import { EmulatorServer } from '../../src/emulator/emulator-server.js';
import { RouteTable } from '../../src/emulator/http/route-table.js';
import { AccountRegistry } from '../../src/emulator/auth/account-registry.js';
import { RateLimits } from '../../src/emulator/limits/rate-limits.js';
import { FaultInjector } from '../../src/emulator/faults/fault-injector.js';
import { SeededRandom } from '../../src/core/random.js';
import type { EmulatorContext } from '../../src/emulator/emulator-context.js';
import { emulatorHandlers } from '../../src/emulator/handlers/emulator-handlers.js';
import { ALICE, T0, contractSigned, raw, spotSigned, testConfig, type RawResponse } from './support/emulator-kit.js';

const DAVE = { apiKey: 'mx0vglDaveKey001', secret: 'dave-secret-0123456789abcdefgh' } as const;

type Call = (emu: RunningEmulator, now: number, state: Record<string, string>) => Promise<RawResponse>;

const sym = 'BTCUSDT';
const csym = 'BTC_USDT';
const spotGet =
  (path: string, params: Record<string, string> = {}): Call =>
  (emu) =>
    raw(emu.url, 'GET', `${path}${Object.keys(params).length ? `?${new URLSearchParams(params).toString()}` : ''}`);
const spotAuth =
  (method: string, path: string, params: (s: Record<string, string>) => Record<string, string> = () => ({})): Call =>
  (emu, now, s) =>
    spotSigned(emu.url, method, path, params(s), { timestamp: now });
const cGet =
  (path: string): Call =>
  (emu) =>
    raw(emu.url, 'GET', path);
const cAuth =
  (
    method: 'GET' | 'POST',
    path: (s: Record<string, string>) => string,
    params?: (s: Record<string, string>) => Record<string, unknown> | unknown[],
    key: { apiKey: string; secret: string } = ALICE,
  ): Call =>
  (emu, now, s) =>
    contractSigned(emu.url, method, path(s), params ? params(s) : undefined, { requestTime: now, key });
/** Runs `call` and keeps its answer's data (an id) in the state under `key`. */
const keep =
  (key: string, call: Call): Call =>
  async (emu, now, s) => {
    const r = await call(emu, now, s);
    s[key] = String((r.json as { data?: unknown } | undefined)?.data);
    return r;
  };

/**
 * Every served endpoint called over HTTP in a state where it has something to say, its answer parsed
 * with the catalogue entry's response schema. The order matters: later calls use ids from earlier ones.
 */
const CALLS: [id: string, call: Call, expectError?: number][] = [
  ['spot.ping', spotGet('/api/v3/ping')],
  ['spot.serverTime', spotGet('/api/v3/time')],
  ['spot.defaultSymbols', spotGet('/api/v3/defaultSymbols')],
  ['spot.offlineSymbols', spotGet('/api/v3/symbol/offline')],
  ['spot.exchangeInfo', spotGet('/api/v3/exchangeInfo', { symbol: sym })],
  ['spot.depth', spotGet('/api/v3/depth', { symbol: sym, limit: '5' })],
  ['spot.trades', spotGet('/api/v3/trades', { symbol: sym, limit: '5' })],
  ['spot.historicalTrades', spotGet('/api/v3/historicalTrades', { symbol: sym, limit: '5' })],
  ['spot.aggTrades', spotGet('/api/v3/aggTrades', { symbol: sym })],
  ['spot.klines', spotGet('/api/v3/klines', { symbol: sym, interval: '1m', limit: '5' })],
  ['spot.avgPrice', spotGet('/api/v3/avgPrice', { symbol: sym })],
  ['spot.ticker24hr', spotGet('/api/v3/ticker/24hr')],
  ['spot.tickerPrice', spotGet('/api/v3/ticker/price', { symbol: sym })],
  ['spot.bookTicker', spotGet('/api/v3/ticker/bookTicker')],
  ['spot.kycStatus', spotAuth('GET', '/api/v3/kyc/status')],
  ['spot.uid', spotAuth('GET', '/api/v3/uid')],
  ['spot.selfSymbols', spotAuth('GET', '/api/v3/selfSymbols')],
  [
    'spot.newOrder',
    spotAuth('POST', '/api/v3/order', () => ({
      symbol: sym,
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.001',
      price: '80000',
      newClientOrderId: 'conf-1',
    })),
  ],
  ['spot.testNewOrder', spotAuth('POST', '/api/v3/order/test', () => ({ symbol: sym, side: 'BUY', type: 'MARKET', quoteOrderQty: '10' }))],
  [
    'spot.batchOrders',
    spotAuth('POST', '/api/v3/batchOrders', () => ({
      batchOrders: JSON.stringify([
        { symbol: sym, side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '80001', newClientOrderId: 'conf-2' },
        { symbol: sym, side: 'BUY', type: 'MARKET', quoteOrderQty: '50' },
      ]),
    })),
  ],
  ['spot.queryOrder', spotAuth('GET', '/api/v3/order', () => ({ symbol: sym, origClientOrderId: 'conf-1' }))],
  ['spot.openOrders', spotAuth('GET', '/api/v3/openOrders')],
  ['spot.allOrders', spotAuth('GET', '/api/v3/allOrders', () => ({ symbol: sym }))],
  ['spot.myTrades', spotAuth('GET', '/api/v3/myTrades', () => ({ symbol: sym }))],
  ['spot.account', spotAuth('GET', '/api/v3/account')],
  ['spot.tradeFee', spotAuth('GET', '/api/v3/tradeFee', () => ({ symbol: sym }))],
  ['spot.enablePlatformDeduct', spotAuth('POST', '/api/v3/platformDeduct/enable', () => ({ platformDeductEnable: 'true' }))],
  ['spot.platformDeductStatus', spotAuth('GET', '/api/v3/platformDeduct/enable')],
  ['spot.cancelOrder', spotAuth('DELETE', '/api/v3/order', () => ({ symbol: sym, origClientOrderId: 'conf-1' }))],
  ['spot.cancelOpenOrders', spotAuth('DELETE', '/api/v3/openOrders', () => ({ symbol: sym }))],
  // STP strategy groups: the first group of a fresh emulator gets id 1001; alice (uid 10000001) is a master account.
  ['spot.createStpGroup', spotAuth('POST', '/api/v3/strategy/group', () => ({ tradeGroupName: 'conf-group' }))],
  ['spot.addStpGroupUid', spotAuth('POST', '/api/v3/strategy/group/uid', () => ({ uid: '10000001', tradeGroupId: '1001' }))],
  ['spot.queryStpGroups', spotAuth('GET', '/api/v3/strategy/group', () => ({ tradeGroupName: 'conf-group' }))],
  ['spot.deleteStpGroupUid', spotAuth('DELETE', '/api/v3/strategy/group/uid', () => ({ uid: '10000001', tradeGroupId: '1001' }))],
  ['spot.deleteStpGroup', spotAuth('DELETE', '/api/v3/strategy/group', () => ({ tradeGroupId: '1001' }))],

  ['contract.ping', cGet('/api/v1/contract/ping')],
  ['contract.contractDetail', cGet(`/api/v1/contract/detail?symbol=${csym}`)],
  ['contract.supportCurrencies', cGet('/api/v1/contract/support_currencies')],
  ['contract.depth', cGet(`/api/v1/contract/depth/${csym}?limit=5`)],
  ['contract.depthCommits', cGet(`/api/v1/contract/depth_commits/${csym}/5`)],
  ['contract.indexPrice', cGet(`/api/v1/contract/index_price/${csym}`)],
  ['contract.fairPrice', cGet(`/api/v1/contract/fair_price/${csym}`)],
  ['contract.fundingRate', cGet(`/api/v1/contract/funding_rate/${csym}`)],
  ['contract.kline', cGet(`/api/v1/contract/kline/${csym}?interval=Min1`)],
  ['contract.indexPriceKline', cGet(`/api/v1/contract/kline/index_price/${csym}?interval=Min1`)],
  ['contract.fairPriceKline', cGet(`/api/v1/contract/kline/fair_price/${csym}?interval=Min1`)],
  ['contract.deals', cGet(`/api/v1/contract/deals/${csym}?limit=5`)],
  ['contract.ticker', cGet('/api/v1/contract/ticker')],
  ['contract.riskReverse', cGet(`/api/v1/contract/risk_reverse/${csym}`)],
  ['contract.riskReverseHistory', cGet(`/api/v1/contract/risk_reverse/history?symbol=${csym}&page_num=1&page_size=10`)],
  ['contract.fundingRateHistory', cGet(`/api/v1/contract/funding_rate/history?symbol=${csym}&page_num=1&page_size=10`)],
  [
    'contract.createOrder',
    cAuth(
      'POST',
      () => '/api/v1/private/order/create',
      () => ({ symbol: csym, price: 80000, vol: 2, leverage: 10, side: 1, type: 1, openType: 1, externalOid: 'conf-ext' }),
    ),
  ],
  [
    'contract.submitBatch',
    cAuth(
      'POST',
      () => '/api/v1/private/order/submit_batch',
      () => [{ symbol: csym, price: 0, vol: 3, leverage: 10, side: 1, type: 5, openType: 1, stpMode: 0 }],
    ),
  ],
  ['contract.assets', cAuth('GET', () => '/api/v1/private/account/assets')],
  ['contract.asset', cAuth('GET', () => '/api/v1/private/account/asset/USDT')],
  [
    'contract.transferRecord',
    cAuth(
      'GET',
      () => '/api/v1/private/account/transfer_record',
      () => ({ page_num: 1, page_size: 10 }),
    ),
  ],
  ['contract.feeDeductConfigs', cAuth('GET', () => '/api/v1/private/account/feeDeductConfigs')],
  ['contract.contractFeeDiscountConfig', cAuth('GET', () => '/api/v1/private/account/config/contractFeeDiscountConfig')],
  ['contract.discountType', cAuth('GET', () => '/api/v1/private/account/discountType')],
  ['contract.orderDealFeeTotal', cAuth('GET', () => '/api/v1/private/account/asset_book/order_deal_fee/total')],
  ['contract.contractFeeRate', cAuth('GET', () => '/api/v1/private/account/contract/fee_rate')],
  ['contract.zeroFeeRate', cAuth('GET', () => '/api/v1/private/account/contract/zero_fee_rate')],
  ['contract.riskLimit', cAuth('GET', () => '/api/v1/private/account/risk_limit')],
  [
    'contract.feeDetails',
    cAuth(
      'GET',
      () => '/api/v1/private/order/fee_details',
      () => ({ symbol: csym }),
    ),
  ],
  ['contract.orderByExternalOid', cAuth('GET', () => `/api/v1/private/order/external/${csym}/conf-ext`)],
  ['contract.getOrder', cAuth('GET', (s) => `/api/v1/private/order/get/${s.orderId!}`)],
  [
    'contract.orderDeals',
    cAuth(
      'GET',
      () => '/api/v1/private/order/list/order_deals',
      () => ({ symbol: csym }),
    ),
  ],
  ['contract.orderDealDetails', cAuth('GET', (s) => `/api/v1/private/order/deal_details/${s.orderId!}`)],
  [
    'contract.batchQuery',
    cAuth(
      'GET',
      () => '/api/v1/private/order/batch_query',
      (s) => ({ order_ids: s.orderId! }),
    ),
  ],
  [
    'contract.batchQueryWithExternal',
    cAuth(
      'POST',
      () => '/api/v1/private/order/batch_query_with_external',
      () => [{ symbol: csym, externalOid: 'conf-ext' }],
    ),
  ],
  [
    'contract.openOrders',
    cAuth(
      'GET',
      () => '/api/v1/private/order/list/open_orders',
      () => ({ page_num: 1, page_size: 20 }),
    ),
  ],
  [
    'contract.openOrderTotalCount',
    cAuth(
      'POST',
      () => '/api/v1/private/order/open_order_total_count',
      () => ({}),
    ),
  ],
  [
    'contract.historyOrders',
    cAuth(
      'GET',
      () => '/api/v1/private/order/list/history_orders',
      () => ({ symbol: csym, page_num: 1, page_size: 20 }),
    ),
  ],
  ['contract.openPositions', cAuth('GET', () => '/api/v1/private/position/open_positions')],
  [
    'contract.fundingRecords',
    cAuth(
      'GET',
      () => '/api/v1/private/position/funding_records',
      () => ({ position_type: 1, start_time: T0 - 86_400_000, end_time: T0 + 86_400_000 }),
    ),
  ],
  [
    'contract.positionLeverage',
    cAuth(
      'GET',
      () => '/api/v1/private/position/leverage',
      () => ({ symbol: csym }),
    ),
  ],
  ['contract.positionMode', cAuth('GET', () => '/api/v1/private/position/position_mode')],
  [
    'contract.changeMargin',
    cAuth(
      'POST',
      () => '/api/v1/private/position/change_margin',
      (s) => ({ positionId: s.positionId!, amount: 1, type: 'ADD' }),
    ),
  ],
  [
    'contract.changeAutoAddIm',
    cAuth(
      'POST',
      () => '/api/v1/private/position/change_auto_add_im',
      (s) => ({ positionId: s.positionId!, isEnabled: false }),
    ),
  ],
  [
    'contract.changeLeverage',
    cAuth(
      'POST',
      () => '/api/v1/private/position/change_leverage',
      () => ({ leverage: 20, symbol: 'ETH_USDT', openType: 1, positionType: 1 }),
    ),
  ],
  [
    'contract.changePositionMode',
    cAuth(
      'POST',
      () => '/api/v1/private/position/change_position_mode',
      () => ({ positionMode: 2 }),
      DAVE,
    ),
  ],
  [
    'contract.changeLimitOrder',
    cAuth(
      'POST',
      () => '/api/v1/private/order/change_limit_order',
      (s) => ({ orderId: s.restingId!, price: 80100, vol: 2 }),
    ),
  ],
  [
    'contract.chaseLimitOrder',
    cAuth(
      'POST',
      () => '/api/v1/private/order/chase_limit_order',
      (s) => ({ orderId: s.restingId! }),
    ),
  ],
  [
    'contract.cancelOrders',
    cAuth(
      'POST',
      () => '/api/v1/private/order/cancel',
      (s) => [s.restingId!],
    ),
  ],
  [
    'contract.cancelWithExternal',
    cAuth(
      'POST',
      () => '/api/v1/private/order/cancel_with_external',
      () => [{ symbol: csym, externalOid: 'conf-ext' }],
    ),
  ],
  [
    'contract.batchCancelWithExternal',
    cAuth(
      'POST',
      () => '/api/v1/private/order/batch_cancel_with_external',
      () => [{ symbol: csym, externalOid: 'conf-ext' }],
    ),
  ],
  [
    'contract.cancelAll',
    cAuth(
      'POST',
      () => '/api/v1/private/order/cancel_all',
      () => ({ symbol: csym }),
    ),
  ],
  [
    'contract.stopOrders',
    cAuth(
      'GET',
      () => '/api/v1/private/stoporder/list/orders',
      () => ({ page_num: 1, page_size: 20 }),
    ),
  ],
  ['contract.openStopOrders', cAuth('GET', () => '/api/v1/private/stoporder/open_orders')],
  [
    'contract.cancelAllStopOrders',
    cAuth(
      'POST',
      () => '/api/v1/private/stoporder/cancel_all',
      () => ({ symbol: csym }),
    ),
  ],
  [
    'contract.planOrders',
    cAuth(
      'GET',
      () => '/api/v1/private/planorder/list/orders',
      () => ({ page_num: 1, page_size: 20 }),
    ),
  ],
  [
    'contract.cancelAllPlanOrders',
    cAuth(
      'POST',
      () => '/api/v1/private/planorder/cancel_all',
      () => ({ symbol: csym }),
    ),
  ],
  [
    'contract.trackOrders',
    cAuth(
      'GET',
      () => '/api/v1/private/trackorder/list/orders',
      () => ({ states: '0,1' }),
    ),
  ],
  // Trigger orders (triggers engineer): far from the market, so none fires during the run.
  [
    'contract.placeStopOrder',
    keep(
      'stopId',
      cAuth(
        'POST',
        () => '/api/v1/private/stoporder/place',
        (s) => ({ symbol: csym, positionId: s.positionId!, vol: 1, stopLossPrice: 1000, lossTrend: 2 }),
      ),
    ),
  ],
  [
    'contract.changePlanPrice',
    cAuth(
      'POST',
      () => '/api/v1/private/stoporder/change_plan_price',
      (s) => ({ stopPlanOrderId: s.stopId!, stopLossPrice: 1100 }),
    ),
  ],
  [
    'contract.cancelStopOrders',
    cAuth(
      'POST',
      () => '/api/v1/private/stoporder/cancel',
      (s) => [{ stopPlanOrderId: s.stopId! }],
    ),
  ],
  [
    'contract.changeStopPrice',
    async (emu, now, s) => {
      const r = await contractSigned(
        emu.url,
        'POST',
        '/api/v1/private/order/create',
        { symbol: csym, price: 80000, vol: 1, leverage: 10, side: 1, type: 1, openType: 1 },
        { requestTime: now },
      );
      s.tpslOrderId = String((r.json as { data: { orderId: string } }).data.orderId);
      return contractSigned(
        emu.url,
        'POST',
        '/api/v1/private/stoporder/change_price',
        { orderId: s.tpslOrderId, stopLossPrice: 70000, takeProfitPrice: 90000 },
        { requestTime: now },
      );
    },
  ],
  [
    'contract.placePlanOrder',
    keep(
      'planId',
      cAuth(
        'POST',
        () => '/api/v1/private/planorder/place',
        () => ({
          symbol: csym,
          price: 1000,
          vol: 1,
          leverage: 10,
          side: 1,
          openType: 1,
          triggerPrice: 1000,
          triggerType: 2,
          executeCycle: 1,
          trend: 1,
          orderType: 1,
        }),
      ),
    ),
  ],
  [
    'contract.placePlanOrderV2',
    cAuth(
      'POST',
      () => '/api/v1/private/planorder/place/v2',
      () => ({
        symbol: csym,
        vol: 1,
        leverage: 10,
        side: 1,
        openType: 1,
        triggerPrice: 1000,
        triggerType: 2,
        executeCycle: 2,
        trend: 2,
        orderType: 5,
        stopLossPrice: 900,
      }),
    ),
  ],
  [
    'contract.changeStopOrder',
    cAuth(
      'POST',
      () => '/api/v1/private/planorder/change_stop_order',
      (s) => ({ symbol: csym, orderId: s.planId!, stopLossPrice: 900, lossTrend: 1 }),
    ),
  ],
  [
    'contract.cancelPlanOrders',
    cAuth(
      'POST',
      () => '/api/v1/private/planorder/cancel',
      (s) => [{ symbol: csym, orderId: s.planId! }],
    ),
  ],
  [
    'contract.placeTrackOrder',
    keep(
      'trackId',
      cAuth(
        'POST',
        () => '/api/v1/private/trackorder/place',
        () => ({
          symbol: csym,
          leverage: 10,
          side: 4,
          vol: 1,
          openType: 1,
          trend: 1,
          backType: 1,
          backValue: 0.01,
          positionMode: 1,
          activePrice: 200000,
        }),
      ),
    ),
  ],
  [
    'contract.changeTrackOrder',
    cAuth(
      'POST',
      () => '/api/v1/private/trackorder/change_order',
      (s) => ({ symbol: csym, trackOrderId: s.trackId!, trend: 1, backType: 1, backValue: 0.02, vol: 1 }),
    ),
  ],
  [
    'contract.cancelTrackOrder',
    cAuth(
      'POST',
      () => '/api/v1/private/trackorder/cancel',
      (s) => ({ symbol: csym, trackOrderId: s.trackId! }),
    ),
  ],
  [
    'contract.reversePosition',
    cAuth(
      'POST',
      () => '/api/v1/private/position/reverse',
      (s) => ({ symbol: csym, positionId: s.positionId!, vol: 1 }),
    ),
  ],
  [
    'contract.historyPositions',
    cAuth(
      'GET',
      () => '/api/v1/private/position/list/history_positions',
      () => ({ symbol: csym, page_num: 1, page_size: 20 }),
    ),
  ],
  ['contract.closeAll', cAuth('POST', () => '/api/v1/private/position/close_all')],
  ['contract.changeRiskLevel', cAuth('POST', () => '/api/v1/private/account/change_risk_level'), 8817],
  ['contract.profitRate', cAuth('GET', () => '/api/v1/private/account/profit_rate/1')],
  [
    'contract.tieredFeeRate',
    cAuth(
      'GET',
      () => '/api/v1/private/account/tiered_fee_rate/v2',
      () => ({ symbol: csym }),
    ),
  ],
  [
    'contract.assetAnalysis',
    cAuth(
      'GET',
      () => '/api/v1/private/account/asset/analysis/3',
      () => ({ currency: 'USDT' }),
    ),
  ],
  ['contract.yesterdayPnl', cAuth('POST', () => '/api/v1/private/account/asset/analysis/yesterday_pnl')],
  [
    'contract.assetAnalysisV3',
    cAuth(
      'POST',
      () => '/api/v1/private/account/asset/analysis/v3',
      () => ({ startTime: T0 - 86_400_000, endTime: T0 + 86_400_000 }),
    ),
  ],
  [
    'contract.calendarDailyPnl',
    cAuth(
      'POST',
      () => '/api/v1/private/account/asset/analysis/calendar/daily/v3',
      () => ({ startTime: T0 - 86_400_000, endTime: T0 + 86_400_000 }),
    ),
  ],
  [
    'contract.calendarMonthlyPnl',
    cAuth(
      'POST',
      () => '/api/v1/private/account/asset/analysis/calendar/monthly/v3',
      () => ({}),
    ),
  ],
  [
    'contract.recentPnl',
    cAuth(
      'POST',
      () => '/api/v1/private/account/asset/analysis/recent/v3',
      () => ({}),
    ),
  ],
  ['contract.todayPnl', cAuth('GET', () => '/api/v1/private/account/asset/analysis/today_pnl')],
  // without the timezone-login header the export is refused with 600 (the file itself: test/integration/accounts)
  [
    'contract.exportAnalysis',
    cAuth(
      'GET',
      () => '/api/v1/private/account/asset/analysis/export',
      () => ({ fileType: 1 }),
    ),
    600,
  ],
  [
    'contract.createStpBlacklist',
    cAuth(
      'POST',
      () => '/api/v1/private/market_maker/self_trade/blacklist/create',
      () => ({ configName: 'conf-bl', blacklist: [10000001] }),
    ),
  ],
  [
    'contract.stpBlacklist',
    cAuth(
      'GET',
      () => '/api/v1/private/market_maker/self_trade/blacklist',
      () => ({ configName: 'conf-bl' }),
    ),
  ],
  ['contract.searchStpBlacklist', cAuth('GET', () => '/api/v1/private/market_maker/self_trade/blacklist/search')],
  [
    'contract.updateStpBlacklist',
    cAuth(
      'POST',
      () => '/api/v1/private/market_maker/self_trade/blacklist/update',
      () => ({ configName: 'conf-bl', blacklist: [10000001] }),
    ),
  ],
  [
    'contract.deleteStpBlacklist',
    cAuth(
      'POST',
      () => '/api/v1/private/market_maker/self_trade/blacklist/delete',
      () => ({ configName: 'conf-bl' }),
    ),
  ],
];

function payloadOf(def: EndpointDef, json: unknown): unknown {
  if (def.envelope === 'contract') return (json as { data?: unknown }).data;
  if (def.envelope === 'spot-wrapped') return (json as { data?: unknown }).data;
  return json;
}

describe('emulator answers parse with the catalogue response schemas', () => {
  let clock: VirtualClock;
  let emu: RunningEmulator;
  const state: Record<string, string> = {};

  before(async () => {
    clock = new VirtualClock(T0);
    const base = testConfig({
      market: {
        source: 'synthetic',
        books: { BTCUSDT: { levels: 3 }, ETHUSDT: { levels: 3 }, BTC_USDT: { levels: 3 }, ETH_USDT: { levels: 3 } },
      },
    });
    const accounts = (base.accounts ?? []).map((a) => (a.name === 'alice' ? { ...a, marketMaker: true } : a));
    emu = await startEmulator(
      {
        ...base,
        accounts: [...accounts, { name: 'dave', apiKey: DAVE.apiKey, secretKey: DAVE.secret, contract: { balances: { USDT: '1000' } } }],
      },
      { clock },
    );
    clock.advanceBy(5000);
  });

  after(async () => {
    await emu.stop();
  });

  it('serves_every_catalogue_endpoint_and_calls_each_one', () => {
    // The handler tables only close over their arguments, so ids can be listed without an emulator.
    const ctx = { clock: { now: () => 0 } } as unknown as EmulatorContext;
    const fake = {} as never;
    const handled = emulatorHandlers({ context: ctx, spot: fake, contract: fake, prices: fake, accountExt: fake }).ids();
    const catalogue = allEndpoints.map((e) => e.id);
    // Every catalogue endpoint has a handler (docs/endpoints.md says "served" for each on this ground) …
    expect([...handled].sort()).to.deep.equal([...catalogue].sort());
    // … and the conformance loop above calls every one of them.
    const covered = new Set(CALLS.map(([id]) => id));
    expect(catalogue.filter((id) => !covered.has(id))).to.deep.equal([]);
  });

  it('parses_each_answer_with_its_entry_schema', async () => {
    const byId = new Map(allEndpoints.map((d) => [d.id, d]));
    const failures: string[] = [];
    for (const [id, call, expectError] of CALLS) {
      const def = byId.get(id)!;
      const res = await call(emu, clock.now(), state);
      const json = res.json as Record<string, unknown> | undefined;
      if (expectError !== undefined) {
        if (json?.code !== expectError) failures.push(`${id}: expected error ${expectError}, got ${res.text.slice(0, 200)}`);
        continue;
      }
      const ok =
        def.api === 'contract'
          ? json?.success === true
          : res.status === 200 &&
            !(def.envelope === 'bare' && json && typeof json.code === 'number' && typeof json.msg === 'string' && !('symbol' in json));
      if (!ok) {
        failures.push(`${id}: ${res.status} ${res.text.slice(0, 300)}`);
        continue;
      }
      const parsed = def.response.safeParse(payloadOf(def, res.json));
      if (!parsed.success) failures.push(`${id}: schema: ${JSON.stringify(parsed.error.issues.slice(0, 3))} in ${res.text.slice(0, 300)}`);
      if (id === 'contract.createOrder') state.orderId = String((json!.data as { orderId: string }).orderId);
      if (id === 'contract.submitBatch') {
        // A resting order for the amend / chase / cancel calls, and the position the market order opened.
        const r = await contractSigned(
          emu.url,
          'POST',
          '/api/v1/private/order/create',
          { symbol: csym, price: 80000, vol: 2, leverage: 10, side: 1, type: 1, openType: 1 },
          { requestTime: clock.now() },
        );
        state.restingId = String((r.json as { data: { orderId: string } }).data.orderId);
        const pos = await contractSigned(emu.url, 'GET', '/api/v1/private/position/open_positions', undefined, {
          requestTime: clock.now(),
        });
        state.positionId = String(((pos.json as { data: { positionId: number }[] }).data[0] ?? { positionId: 0 }).positionId);
      }
    }
    expect(failures).to.deep.equal([]);
    expect(emu.checkInvariants()).to.deep.equal([]);
  });

  it('answers_an_endpoint_without_a_handler_with_the_venues_not_supported_error_in_the_api_shape', async () => {
    // Every catalogue endpoint has its handler (served-endpoints.ts), so the fallback is exercised on a
    // real server whose handler table is empty: the route is known, the handler is not.
    const config = parseEmulatorConfig(testConfig());
    const vclock = new VirtualClock(T0);
    const server = new EmulatorServer({
      clock: vclock,
      latencyClock: vclock,
      routes: new RouteTable(allEndpoints),
      handlers: new Map(),
      accounts: new AccountRegistry(config.accounts),
      limits: new RateLimits(vclock, config.rateLimits),
      faults: new FaultInjector(new SeededRandom(1)),
      maxBodyBytes: config.limits.maxBodyBytes,
      transport: config.limits,
    });
    const port = await server.listen('127.0.0.1', 0);
    try {
      const url = `http://127.0.0.1:${port}`;
      const spot = await raw(url, 'GET', '/api/v3/ping');
      const contract = await raw(url, 'GET', '/api/v1/contract/ping');
      const spotJson = spot.json as Record<string, unknown>;
      const contractJson = contract.json as Record<string, unknown>;
      // Spot errors are { code, msg } (730003 "Unsupported operation"); contract errors { success: false, code,
      // message } (9999): the shapes of spot-api.md and contract-api.md, the codes of http/wire-error.ts.
      expect(spotJson.code, spot.text).to.equal(730003);
      expect(spotJson.msg, spot.text).to.equal('Unsupported operation: /api/v3/ping is not supported by the emulator yet');
      expect(contractJson.success, contract.text).to.equal(false);
      expect(contractJson.code, contract.text).to.equal(9999);
      expect(contractJson.message, contract.text).to.equal('/api/v1/contract/ping is not supported by the emulator yet');
    } finally {
      await server.close();
    }
  });
});
