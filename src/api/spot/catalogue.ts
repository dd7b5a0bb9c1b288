/**
 * Every spot endpoint of spot-api.md §4, keyed by client method name. The client builds one typed method
 * per key (`keyof typeof spotCatalogue`), the emulator serves one route per entry, and the tests check
 * the keys against the document's endpoint rows.
 */
import type { EndpointDef } from '../endpoint.js';
import { spotAccountEndpoints as account } from './account.js';
import { spotMarketEndpoints as market } from './market.js';
import { spotOrderEndpoints as orders } from './orders.js';
import { spotStpGroupEndpoints as stp } from './stp-groups.js';

export const spotCatalogue = {
  // 4.1 market data
  ping: market.ping,
  serverTime: market.serverTime,
  defaultSymbols: market.defaultSymbols,
  offlineSymbols: market.offlineSymbols,
  exchangeInfo: market.exchangeInfo,
  depth: market.depth,
  trades: market.trades,
  aggTrades: market.aggTrades,
  klines: market.klines,
  avgPrice: market.avgPrice,
  ticker24hr: market.ticker24hr,
  tickerPrice: market.tickerPrice,
  bookTicker: market.bookTicker,
  // beyond spot-api.md: called by ccxt and the official SDK (beyondDocuments says where it comes from)
  historicalTrades: market.historicalTrades,
  // 4.2 signed account
  kycStatus: account.kycStatus,
  uid: account.uid,
  selfSymbols: account.selfSymbols,
  account: account.account,
  myTrades: account.myTrades,
  tradeFee: account.tradeFee,
  // 4.3 platform-token fee deduction
  enablePlatformDeduct: account.enablePlatformDeduct,
  platformDeductStatus: account.platformDeductStatus,
  // 4.4 orders
  newOrder: orders.newOrder,
  testNewOrder: orders.testNewOrder,
  batchOrders: orders.batchOrders,
  cancelOrder: orders.cancelOrder,
  cancelOpenOrders: orders.cancelOpenOrders,
  queryOrder: orders.queryOrder,
  openOrders: orders.openOrders,
  allOrders: orders.allOrders,
  // 4.5 STP strategy groups
  createStpGroup: stp.createStpGroup,
  queryStpGroups: stp.queryStpGroups,
  deleteStpGroup: stp.deleteStpGroup,
  addStpGroupUid: stp.addStpGroupUid,
  deleteStpGroupUid: stp.deleteStpGroupUid,
} as const satisfies Record<string, EndpointDef>;

export type SpotCatalogue = typeof spotCatalogue;
export type SpotMethod = keyof SpotCatalogue;
/** What a caller passes to a spot method. */
export type SpotRequest<M extends SpotMethod> =
  SpotCatalogue[M] extends EndpointDef<infer Req, infer _Res> ? import('zod').input<Req> : never;
/** What goes on the wire (all strings) after validation. */
export type SpotWireParams<M extends SpotMethod> =
  SpotCatalogue[M] extends EndpointDef<infer Req, infer _Res> ? import('zod').output<Req> : never;
/** The parsed payload of a spot method (envelope removed). */
export type SpotResponse<M extends SpotMethod> =
  SpotCatalogue[M] extends EndpointDef<infer _Req, infer Res> ? import('zod').output<Res> : never;

export const SPOT_METHODS = Object.keys(spotCatalogue) as SpotMethod[];
