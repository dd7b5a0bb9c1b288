/**
 * Every read endpoint of both documents, called over HTTP for a list of accounts, answers collected by
 * endpoint id: what a trader (or any client) could see of the venue at one instant. Restart tests take
 * this before `stop()` and after `startEmulator()` on the same journal and compare the two.
 *
 * READ_IDS is checked against the catalogue (every GET endpoint plus the read-only POSTs), so an
 * endpoint added later cannot be left out of the comparison silently.
 */
import { allEndpoints } from '../../../src/api/catalogue.js';
import { contractSigned, raw, spotSigned, type RawResponse, type TestKey } from './emulator-kit.js';

/** Contract endpoints that read but are POSTs in the document. */
export const POST_READS = [
  'contract.yesterdayPnl',
  'contract.assetAnalysisV3',
  'contract.calendarDailyPnl',
  'contract.calendarMonthlyPnl',
  'contract.recentPnl',
  'contract.batchQueryWithExternal',
  'contract.openOrderTotalCount',
] as const;

/** Ids of the venue's objects the reads refer to (orders, groups, …). */
export interface ReadRefs {
  readonly spotSymbols: readonly string[];
  readonly contractSymbols: readonly string[];
  /** Spot client order ids to query, per account name. */
  readonly spotClientIds?: Readonly<Record<string, readonly string[]>>;
  /** Contract order ids to query, per account name. */
  readonly contractOrderIds?: Readonly<Record<string, readonly string[]>>;
  /** Contract external ids to query (symbol, externalOid), per account name. */
  readonly externalOids?: Readonly<Record<string, readonly { symbol: string; externalOid: string }[]>>;
  readonly stpGroupNames?: readonly string[];
  readonly blacklistNames?: readonly string[];
  /** Analysis windows start here. */
  readonly since: number;
}

type Reader = (now: number) => Promise<RawResponse>;

function answer(r: RawResponse): unknown {
  return { status: r.status, body: r.json ?? r.text };
}

/** Calls every read endpoint (public ones once, signed ones per account) at virtual time `now`. */
export async function readEverything(
  url: string,
  accounts: Readonly<Record<string, TestKey>>,
  refs: ReadRefs,
  now: number,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const put = async (id: string, label: string, read: Reader) => {
    out[`${id} ${label}`] = answer(await read(now));
  };
  const get = (path: string) => () => raw(url, 'GET', path);
  const q = (p: Record<string, string | number>) =>
    `?${new URLSearchParams(Object.entries(p).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;

  // ---------------------------------------------------------------- spot, public
  await put('spot.ping', '', get('/api/v3/ping'));
  await put('spot.serverTime', '', get('/api/v3/time'));
  await put('spot.defaultSymbols', '', get('/api/v3/defaultSymbols'));
  await put('spot.offlineSymbols', '', get('/api/v3/symbol/offline'));
  await put('spot.exchangeInfo', '', get('/api/v3/exchangeInfo'));
  await put('spot.ticker24hr', '', get('/api/v3/ticker/24hr'));
  await put('spot.tickerPrice', '', get('/api/v3/ticker/price'));
  await put('spot.bookTicker', '', get('/api/v3/ticker/bookTicker'));
  for (const s of refs.spotSymbols) {
    await put('spot.depth', s, get(`/api/v3/depth${q({ symbol: s, limit: 50 })}`));
    await put('spot.trades', s, get(`/api/v3/trades${q({ symbol: s, limit: 1000 })}`));
    await put('spot.historicalTrades', s, get(`/api/v3/historicalTrades${q({ symbol: s, limit: 1000 })}`));
    await put('spot.aggTrades', s, get(`/api/v3/aggTrades${q({ symbol: s, limit: 1000 })}`));
    await put('spot.klines', s, get(`/api/v3/klines${q({ symbol: s, interval: '1m', limit: 100 })}`));
    await put('spot.avgPrice', s, get(`/api/v3/avgPrice${q({ symbol: s })}`));
  }

  // ---------------------------------------------------------------- contract, public
  await put('contract.ping', '', get('/api/v1/contract/ping'));
  await put('contract.contractDetail', '', get('/api/v1/contract/detail'));
  await put('contract.supportCurrencies', '', get('/api/v1/contract/support_currencies'));
  await put('contract.ticker', '', get('/api/v1/contract/ticker'));
  for (const s of refs.contractSymbols) {
    await put('contract.depth', s, get(`/api/v1/contract/depth/${s}?limit=50`));
    await put('contract.depthCommits', s, get(`/api/v1/contract/depth_commits/${s}/20`));
    await put('contract.indexPrice', s, get(`/api/v1/contract/index_price/${s}`));
    await put('contract.fairPrice', s, get(`/api/v1/contract/fair_price/${s}`));
    await put('contract.fundingRate', s, get(`/api/v1/contract/funding_rate/${s}`));
    await put('contract.kline', s, get(`/api/v1/contract/kline/${s}?interval=Min1`));
    await put('contract.indexPriceKline', s, get(`/api/v1/contract/kline/index_price/${s}?interval=Min1`));
    await put('contract.fairPriceKline', s, get(`/api/v1/contract/kline/fair_price/${s}?interval=Min1`));
    await put('contract.deals', s, get(`/api/v1/contract/deals/${s}?limit=100`));
    await put('contract.riskReverse', s, get(`/api/v1/contract/risk_reverse/${s}`));
    await put(
      'contract.riskReverseHistory',
      s,
      get(`/api/v1/contract/risk_reverse/history${q({ symbol: s, page_num: 1, page_size: 100 })}`),
    );
    await put(
      'contract.fundingRateHistory',
      s,
      get(`/api/v1/contract/funding_rate/history${q({ symbol: s, page_num: 1, page_size: 100 })}`),
    );
  }

  // ---------------------------------------------------------------- signed, per account
  for (const [name, key] of Object.entries(accounts)) {
    const s =
      (method: string, path: string, params: Record<string, string> = {}) =>
      () =>
        spotSigned(url, method, path, params, { timestamp: now, key });
    const c =
      (method: 'GET' | 'POST', path: string, params?: Record<string, unknown> | unknown[], headers?: Record<string, string>) => () =>
        contractSigned(url, method, path, params, { requestTime: now, key, ...(headers ? { headers } : {}) });
    const at = (what: string) => `${name} ${what}`;

    await put('spot.kycStatus', at(''), s('GET', '/api/v3/kyc/status'));
    await put('spot.uid', at(''), s('GET', '/api/v3/uid'));
    await put('spot.selfSymbols', at(''), s('GET', '/api/v3/selfSymbols'));
    await put('spot.account', at(''), s('GET', '/api/v3/account'));
    await put('spot.platformDeductStatus', at(''), s('GET', '/api/v3/platformDeduct/enable'));
    await put('spot.openOrders', at(''), s('GET', '/api/v3/openOrders'));
    for (const sym of refs.spotSymbols) {
      await put('spot.myTrades', at(sym), s('GET', '/api/v3/myTrades', { symbol: sym, limit: '1000' }));
      await put('spot.allOrders', at(sym), s('GET', '/api/v3/allOrders', { symbol: sym, limit: '1000' }));
      await put('spot.tradeFee', at(sym), s('GET', '/api/v3/tradeFee', { symbol: sym }));
      for (const id of refs.spotClientIds?.[name] ?? [])
        await put('spot.queryOrder', at(`${sym} ${id}`), s('GET', '/api/v3/order', { symbol: sym, origClientOrderId: id }));
    }
    for (const g of refs.stpGroupNames ?? [])
      await put('spot.queryStpGroups', at(g), s('GET', '/api/v3/strategy/group', { tradeGroupName: g }));

    await put('contract.assets', at(''), c('GET', '/api/v1/private/account/assets'));
    await put('contract.asset', at(''), c('GET', '/api/v1/private/account/asset/USDT'));
    await put('contract.transferRecord', at(''), c('GET', '/api/v1/private/account/transfer_record', { page_num: 1, page_size: 100 }));
    await put('contract.profitRate', at('1'), c('GET', '/api/v1/private/account/profit_rate/1'));
    await put('contract.profitRate', at('2'), c('GET', '/api/v1/private/account/profit_rate/2'));
    await put('contract.feeDeductConfigs', at(''), c('GET', '/api/v1/private/account/feeDeductConfigs'));
    await put('contract.contractFeeDiscountConfig', at(''), c('GET', '/api/v1/private/account/config/contractFeeDiscountConfig'));
    await put('contract.discountType', at(''), c('GET', '/api/v1/private/account/discountType'));
    await put('contract.orderDealFeeTotal', at(''), c('GET', '/api/v1/private/account/asset_book/order_deal_fee/total'));
    await put('contract.contractFeeRate', at(''), c('GET', '/api/v1/private/account/contract/fee_rate'));
    await put('contract.zeroFeeRate', at(''), c('GET', '/api/v1/private/account/contract/zero_fee_rate'));
    await put('contract.riskLimit', at(''), c('GET', '/api/v1/private/account/risk_limit'));
    for (const type of [1, 2, 3])
      await put(
        'contract.assetAnalysis',
        at(String(type)),
        c('GET', `/api/v1/private/account/asset/analysis/${type}`, { currency: 'USDT' }),
      );
    await put(
      'contract.assetAnalysis',
      at('4'),
      c('GET', '/api/v1/private/account/asset/analysis/4', { currency: 'USDT', startTime: refs.since, endTime: now }),
    );
    await put('contract.yesterdayPnl', at(''), c('POST', '/api/v1/private/account/asset/analysis/yesterday_pnl'));
    await put(
      'contract.assetAnalysisV3',
      at(''),
      c('POST', '/api/v1/private/account/asset/analysis/v3', { startTime: refs.since, endTime: now, includeUnrealisedPnl: 1 }),
    );
    await put(
      'contract.calendarDailyPnl',
      at(''),
      c('POST', '/api/v1/private/account/asset/analysis/calendar/daily/v3', { startTime: refs.since, endTime: now }),
    );
    await put('contract.calendarMonthlyPnl', at(''), c('POST', '/api/v1/private/account/asset/analysis/calendar/monthly/v3', {}));
    await put('contract.recentPnl', at(''), c('POST', '/api/v1/private/account/asset/analysis/recent/v3', {}));
    await put('contract.todayPnl', at(''), c('GET', '/api/v1/private/account/asset/analysis/today_pnl'));
    await put(
      'contract.exportAnalysis',
      at(''),
      c(
        'GET',
        '/api/v1/private/account/asset/analysis/export',
        { startTime: refs.since, endTime: now, fileType: 1 },
        { 'timezone-login': 'UTC+0' },
      ),
    );
    await put('contract.openOrders', at(''), c('GET', '/api/v1/private/order/list/open_orders', { page_num: 1, page_size: 100 }));
    await put('contract.openOrderTotalCount', at(''), c('POST', '/api/v1/private/order/open_order_total_count', {}));
    await put('contract.historyOrders', at(''), c('GET', '/api/v1/private/order/list/history_orders', { page_num: 1, page_size: 100 }));
    await put(
      'contract.historyPositions',
      at(''),
      c('GET', '/api/v1/private/position/list/history_positions', { page_num: 1, page_size: 100 }),
    );
    await put('contract.openPositions', at(''), c('GET', '/api/v1/private/position/open_positions'));
    await put(
      'contract.fundingRecords',
      at(''),
      c('GET', '/api/v1/private/position/funding_records', {
        position_type: 1,
        start_time: refs.since,
        end_time: now,
        page_num: 1,
        page_size: 100,
      }),
    );
    await put('contract.positionMode', at(''), c('GET', '/api/v1/private/position/position_mode'));
    await put('contract.stopOrders', at(''), c('GET', '/api/v1/private/stoporder/list/orders', { page_num: 1, page_size: 100 }));
    await put('contract.openStopOrders', at(''), c('GET', '/api/v1/private/stoporder/open_orders'));
    await put('contract.planOrders', at(''), c('GET', '/api/v1/private/planorder/list/orders', { page_num: 1, page_size: 100 }));
    await put('contract.trackOrders', at(''), c('GET', '/api/v1/private/trackorder/list/orders', { states: '0,1,2,3,4' }));
    await put('contract.searchStpBlacklist', at(''), c('GET', '/api/v1/private/market_maker/self_trade/blacklist/search'));
    for (const n of refs.blacklistNames ?? [])
      await put('contract.stpBlacklist', at(n), c('GET', '/api/v1/private/market_maker/self_trade/blacklist', { configName: n }));
    for (const sym of refs.contractSymbols) {
      await put('contract.tieredFeeRate', at(sym), c('GET', '/api/v1/private/account/tiered_fee_rate/v2', { symbol: sym }));
      await put(
        'contract.feeDetails',
        at(sym),
        c('GET', '/api/v1/private/order/fee_details', { symbol: sym, start_time: refs.since, page_num: 1, page_size: 100 }),
      );
      await put('contract.positionLeverage', at(sym), c('GET', '/api/v1/private/position/leverage', { symbol: sym }));
      await put(
        'contract.orderDeals',
        at(sym),
        c('GET', '/api/v1/private/order/list/order_deals', { symbol: sym, page_num: 1, page_size: 1000 }),
      );
    }
    const orderIds = refs.contractOrderIds?.[name] ?? [];
    for (const id of orderIds) await put('contract.getOrder', at(id), c('GET', `/api/v1/private/order/get/${id}`));
    for (const id of orderIds) await put('contract.orderDealDetails', at(id), c('GET', `/api/v1/private/order/deal_details/${id}`));
    if (orderIds.length)
      await put('contract.batchQuery', at(''), c('GET', '/api/v1/private/order/batch_query', { order_ids: orderIds.join(',') }));
    const ext = refs.externalOids?.[name] ?? [];
    for (const e of ext)
      await put('contract.orderByExternalOid', at(e.externalOid), c('GET', `/api/v1/private/order/external/${e.symbol}/${e.externalOid}`));
    if (ext.length)
      await put('contract.batchQueryWithExternal', at(''), c('POST', '/api/v1/private/order/batch_query_with_external', [...ext]));
  }
  return out;
}

/** Ids the reads above cover (from the keys of an answer). */
export function readIdsOf(answers: Readonly<Record<string, unknown>>): Set<string> {
  return new Set(Object.keys(answers).map((k) => k.split(' ')[0]!));
}

/** Every endpoint that only reads: the GETs of both documents and the read-only POSTs. */
export function allReadIds(): Set<string> {
  return new Set([...allEndpoints.filter((e) => e.method === 'GET').map((e) => e.id), ...POST_READS]);
}
