/**
 * A valid answer for every contract catalogue entry: the captured fixture (a whole `{success, code,
 * data}` body) where one exists, else a minimal hand-written `data` that satisfies the entry's response
 * schema, or no data at all for the "common" answers (`{success: true, code: 0}`).
 */
import { fixtureText } from './fixtures.js';

export type ContractPayloadSource = { readonly fixture: string } | { readonly data: unknown } | { readonly common: true };

const f = (name: string): ContractPayloadSource => ({ fixture: name });
const d = (data: unknown): ContractPayloadSource => ({ data });
const common: ContractPayloadSource = { common: true };

const T = 1767204000000;
const page = (resultList: unknown[]) => ({ pageSize: 20, totalCount: resultList.length, totalPage: 1, currentPage: 1, resultList });
const stopOrder = {
  id: 265557643326564352n,
  symbol: 'DOGE_USDT',
  orderId: '0',
  positionId: 1110417836,
  stopLossPrice: 0.19,
  state: 1,
  vol: 1,
  createTime: T,
  updateTime: T,
};
const trackOrder = {
  id: '739218627261666816',
  symbol: 'DOGE_USDT',
  leverage: 2,
  side: 1,
  vol: 100,
  openType: 1,
  trend: 1,
  backType: 1,
  backValue: 0.02,
  state: 1,
  createTime: T,
  updateTime: T,
};
const asset = {
  currency: 'USDT',
  positionMargin: 0,
  frozenBalance: 0,
  availableBalance: 100.5,
  cashBalance: 100.5,
  equity: 100.5,
  unrealized: 0,
};
const deal = {
  id: 299444585,
  symbol: 'STEPN_USDT',
  side: 1,
  vol: 1,
  price: 2.45455,
  feeCurrency: 'USDT',
  fee: 0.00147273,
  timestamp: 1648924557000,
  profit: 0,
  category: 1,
  orderId: 265307163526610432n,
  positionMode: 1,
  taker: true,
};
const position = JSON.parse(fixtureText('contract_GET_api_v1_private_position_open_positions.json')).data as unknown[];

export const CONTRACT_PAYLOADS: Readonly<Record<string, ContractPayloadSource>> = {
  ping: d(T),
  contractDetail: f('contract_GET_api_v1_contract_detail.json'),
  supportCurrencies: f('contract_GET_api_v1_contract_support_currencies.json'),
  depth: f('contract_GET_api_v1_contract_depth_BTC_USDT.json'),
  depthCommits: f('contract_GET_api_v1_contract_depth_commits_BTC_USDT_10.json'),
  indexPrice: f('contract_GET_api_v1_contract_index_price_BTC_USDT.json'),
  fairPrice: f('contract_GET_api_v1_contract_fair_price_BTC_USDT.json'),
  fundingRate: f('contract_GET_api_v1_contract_funding_rate_BTC_USDT.json'),
  kline: f('contract_GET_api_v1_contract_kline_BTC_USDT.json'),
  indexPriceKline: f('contract_GET_api_v1_contract_kline_BTC_USDT_empty.json'),
  fairPriceKline: f('contract_GET_api_v1_contract_kline_BTC_USDT.json'),
  deals: f('contract_GET_api_v1_contract_deals_BTC_USDT.json'),
  ticker: f('contract_GET_api_v1_contract_ticker.json'),
  riskReverse: d([{ symbol: 'BTC_USDT', currency: 'USDT', available: 123456.78, timestamp: T }]),
  riskReverseHistory: d(page([{ symbol: 'BTC_USDT', currency: 'USDT', available: 123000.5, snapshotTime: T }])),
  fundingRateHistory: f('contract_GET_api_v1_contract_funding_rate_history.json'),
  assets: f('contract_GET_api_v1_private_account_assets.json'),
  asset: d(asset),
  transferRecord: d(
    page([{ id: 1, txid: 'tx1', currency: 'USDT', amount: 10, type: 'IN', state: 'SUCCESS', createTime: T, updateTime: T }]),
  ),
  profitRate: d({ ranking: 12, profitRate: 0.05, statisticTime: T }),
  feeDeductConfigs: d([{ deductCoin: 'MX', settleCoin: 'USDT', discountRatio: 0.2 }]),
  contractFeeDiscountConfig: d([]),
  discountType: d({ useFeeDiscount: true, useFeeDeduct: false }),
  orderDealFeeTotal: d({ totalFee: 1.2345, saveFee: 0 }),
  contractFeeRate: d([]),
  zeroFeeRate: d({ contracts: [], hotRecs: [] }),
  tieredFeeRate: d({}),
  riskLimit: d({ BTC_USDT: [] }),
  assetAnalysis: d({ todayPnl: 1.5, totalPnl: 10 }),
  yesterdayPnl: d(1.25),
  assetAnalysisV3: d({ todayPnl: 1.5, totalPnl: 10, timestamp: T }),
  calendarDailyPnl: d({ dailyTimeList: [T], dailyPnlList: [1.5], todayPnlFinished: true }),
  calendarMonthlyPnl: d({ monthlyTimeList: [T], monthlyPnlList: [3], todayPnlFinished: false }),
  recentPnl: d({ recentPnl60: 5, recentPnlRate60: 0.01 }),
  todayPnl: d({ todayPnl: 0.5, todayPnlRate: 0.001, todayPnlFinished: true }),
  exportAnalysis: common,
  feeDetails: d([]),
  // ccxt mexc.ts fetchMyTrades / fetchOrderTrades (swap) comment, with the numbers as numbers.
  orderDeals: d([deal]),
  orderDealDetails: d([deal]),
  orderByExternalOid: f('contract_GET_api_v1_private_order_get.json'),
  getOrder: f('contract_GET_api_v1_private_order_get.json'),
  batchQuery: d([]),
  batchQueryWithExternal: d([]),
  openOrders: d([]),
  openOrderTotalCount: d({ sumCount: 3, limitOrderCount: 1, stopOrderCount: 1, planOrderCount: 1, trackOrderCount: 0 }),
  historyOrders: f('contract_GET_api_v1_private_order_list_history_orders.json'),
  // The real answer is a bare list (issue 14); the client also takes a page (response-decoder tests).
  historyPositions: d(position),
  openPositions: f('contract_GET_api_v1_private_position_open_positions.json'),
  fundingRecords: d(page([])),
  positionLeverage: d([]),
  positionMode: d(1),
  changeMargin: common,
  changeAutoAddIm: common,
  changeLeverage: common,
  changePositionMode: common,
  reversePosition: common,
  closeAll: d([]),
  changeRiskLevel: common,
  createOrder: f('contract_POST_api_v1_private_order_create.json'),
  submitBatch: d([
    { orderId: '814218083416790528', externalOid: 'mm-1', errorCode: 0 },
    { orderId: null, externalOid: 'mm-2', errorCode: 2, errorMsg: 'insufficient balance' },
  ]),
  chaseLimitOrder: f('contract_POST_api_v1_private_order_chase_limit_order.json'),
  changeLimitOrder: f('contract_POST_api_v1_private_order_change_limit_order.json'),
  cancelOrders: f('contract_POST_api_v1_private_order_cancel.json'),
  cancelWithExternal: d([{ symbol: 'BTC_USDT', externalOid: 'perpetua-1', errorCode: 0, errorMsg: 'success' }]),
  batchCancelWithExternal: d([
    { symbol: 'BTC_USDT', externalOid: 'perpetua-1', errorCode: 0, errorMsg: 'success' },
    { symbol: 'ETH_USDT', externalOid: 'perpetua-2', errorCode: 2040, errorMsg: 'order not exist' },
  ]),
  cancelAll: f('contract_POST_api_v1_private_order_cancel_all.json'),
  changeStopPrice: common,
  changePlanPrice: common,
  stopOrders: d([stopOrder]),
  openStopOrders: d([stopOrder]),
  placeStopOrder: d(265557643326564352n),
  cancelStopOrders: common,
  cancelAllStopOrders: common,
  changeStopOrder: common,
  placePlanOrder: f('contract_POST_api_v1_private_planorder_place.json'),
  placePlanOrderV2: f('contract_POST_api_v1_private_planorder_place_v2.json'),
  cancelPlanOrders: common,
  cancelAllPlanOrders: common,
  planOrders: f('contract_GET_api_v1_private_planorder_list_orders.json'),
  placeTrackOrder: f('contract_POST_api_v1_private_trackorder_place.json'),
  cancelTrackOrder: common,
  changeTrackOrder: common,
  trackOrders: d([trackOrder]),
  stpBlacklist: d([{ groupName: 'mm-group-1', blackList: ['12345678'], createTime: T, updateTime: T }]),
  searchStpBlacklist: common,
  createStpBlacklist: d(42),
  updateStpBlacklist: common,
  deleteStpBlacklist: common,
};

/** JSON with bigint values written as bare integer literals (long ids the venue sends as numbers). */
function json(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `@@${x.toString()}@@` : x)).replace(/"@@(-?\d+)@@"/g, '$1');
}

/** The body the fake venue sends for an entry. */
export function contractBody(method: string): string {
  const src = CONTRACT_PAYLOADS[method];
  if (!src) throw new Error(`no contract payload for ${method}: add one to CONTRACT_PAYLOADS`);
  if ('fixture' in src) return fixtureText(src.fixture);
  if ('common' in src) return json({ success: true, code: 0 });
  return json({ success: true, code: 0, data: src.data });
}
