/**
 * A valid answer body for every spot catalogue entry: the captured fixture where one exists, else a
 * minimal hand-written payload that satisfies the entry's response schema (wrapped in the entry's
 * envelope by the test).
 */
import { fixtureText } from './fixtures.js';

export type PayloadSource = { readonly fixture: string } | { readonly payload: unknown };

const f = (name: string): PayloadSource => ({ fixture: name });
const p = (payload: unknown): PayloadSource => ({ payload });

const group = {
  tradeGroupName: 'desk-a',
  tradeGroupId: 1001,
  tradeGroupUid: '10000001,10000002',
  createTime: 1767204000000,
  updateTime: 1767204000000,
};

export const SPOT_PAYLOADS: Readonly<Record<string, PayloadSource>> = {
  ping: p({}),
  serverTime: f('spot_GET_api_v3_time.json'),
  defaultSymbols: f('spot_GET_api_v3_defaultSymbols.json'),
  offlineSymbols: p({ data: [{ symbol: 'OLDUSDT', state: 3, offlineTime: 1767204000000 }] }),
  exchangeInfo: f('spot_GET_api_v3_exchangeInfo.json'),
  depth: f('spot_GET_api_v3_depth.json'),
  trades: f('spot_GET_api_v3_trades.json'),
  // Same answer shape as /api/v3/trades (the exchange reference's "Old Trade Lookup").
  historicalTrades: f('spot_GET_api_v3_trades.json'),
  aggTrades: f('spot_GET_api_v3_aggTrades.json'),
  klines: f('spot_GET_api_v3_klines.json'),
  avgPrice: f('spot_GET_api_v3_avgPrice.json'),
  ticker24hr: f('spot_GET_api_v3_ticker_24hr.json'),
  tickerPrice: f('spot_GET_api_v3_ticker_price.json'),
  bookTicker: f('spot_GET_api_v3_ticker_bookTicker.json'),
  kycStatus: p({ status: '2' }),
  uid: p({ uid: '49910594' }),
  selfSymbols: p(['BTCUSDT', 'ETHUSDT']),
  account: f('spot_GET_api_v3_account.json'),
  myTrades: f('spot_GET_api_v3_myTrades.json'),
  tradeFee: p({ makerCommission: 0.0, takerCommission: 0.0005 }),
  enablePlatformDeduct: p({ platformDeductEnable: true }),
  platformDeductStatus: p({ platformDeductEnable: false }),
  newOrder: f('spot_POST_api_v3_order.json'),
  testNewOrder: p({}),
  batchOrders: f('spot_POST_api_v3_batchOrders.json'),
  cancelOrder: f('spot_DELETE_api_v3_order.json'),
  cancelOpenOrders: f('spot_DELETE_api_v3_openOrders.json'),
  queryOrder: f('spot_GET_api_v3_order.json'),
  openOrders: f('spot_GET_api_v3_openOrders.json'),
  allOrders: f('spot_GET_api_v3_allOrders.json'),
  createStpGroup: p({ tradeGroupName: 'desk-a', tradeGroupId: 1001, createTime: 1767204000000, updateTime: 1767204000000 }),
  queryStpGroups: p([group]),
  deleteStpGroup: p(true),
  addStpGroupUid: p(group),
  deleteStpGroupUid: p(true),
};

/** The body the fake venue sends for `method` of an entry with `envelope`. */
export function spotBody(method: string, envelope: string, now: number): { body: string; payload: unknown } {
  const src = SPOT_PAYLOADS[method];
  if (!src) throw new Error(`no spot payload for ${method}: add one to SPOT_PAYLOADS`);
  if ('fixture' in src) {
    const text = fixtureText(src.fixture);
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return { body: text, payload: envelope === 'spot-wrapped' ? parsed['data'] : parsed };
  }
  const body = envelope === 'spot-wrapped' ? { code: 0, msg: 'success', data: src.payload, timestamp: now } : src.payload;
  return { body: JSON.stringify(body), payload: src.payload };
}
