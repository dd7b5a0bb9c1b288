/** contract-api.md §4.3: fees and order queries (permission: read order information). */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { CONTRACT_ENTRY, EXTRA_NOTE } from './contract-defaults.js';
import { contractOrderSchema } from './order-schemas.js';
import { bodyList, checkSpan, code, codeCsv, idCsv, jsonDec, longId, msTime, pageNum, pageSize, symbol, text } from './params.js';
import { bool, dec, int, list, obj, opt, venueId } from './response-primitives.js';

/** The venue answers ranges of at most 90 days (fee_details; history orders on the real exchange). */
export const MAX_QUERY_SPAN_DAYS = 90;

export const feeDetailSchema = obj({
  id: venueId,
  symbol: z.string(),
  orderId: opt(venueId),
  feeCurrency: opt(z.string()),
  fee: dec,
  /** 0 none, 1 points, 2 bonus. */
  deductType: opt(int),
  deductFeeCurrency: opt(z.string()),
  deductFee: opt(dec),
  timestamp: int,
});
export type FeeDetail = z.output<typeof feeDetailSchema>;

export const openOrderCountSchema = obj({
  sumCount: int,
  limitOrderCount: opt(int),
  stopOrderCount: opt(int),
  planOrderCount: opt(int),
  trackOrderCount: opt(int),
});
export type OpenOrderCount = z.output<typeof openOrderCountSchema>;

const feeDetailsRequest = z
  .strictObject({
    symbol,
    ids: idCsv(20, 'fill ids').optional(),
    start_time: msTime.optional(),
    end_time: msTime.optional(),
    page_num: pageNum,
    page_size: pageSize(100),
  })
  .superRefine((o, ctx) => checkSpan(ctx, o.start_time, o.end_time, 'end_time', MAX_QUERY_SPAN_DAYS));

const historyOrdersRequest = z
  .strictObject({
    symbol: symbol.optional(),
    states: codeCsv([1, 2, 3, 4, 5], '1 pending, 2 uncompleted, 3 completed, 4 cancelled, 5 invalid').optional(),
    category: code([1, 2, 3, 4], '1 limit, 2 liquidation custody, 3 custody close, 4 ADL').optional(),
    start_time: msTime.optional(),
    end_time: msTime.optional(),
    side: code([1, 2, 3, 4], '1 open long, 2 close short, 3 open short, 4 close long').optional(),
    page_num: pageNum,
    page_size: pageSize(100),
  })
  .superRefine((o, ctx) => checkSpan(ctx, o.start_time, o.end_time, 'end_time', MAX_QUERY_SPAN_DAYS));

const externalRef = z.strictObject({ symbol, externalOid: text(1, 255) });

/**
 * One fill of the account (order/list/order_deals, order/deal_details/{order_id}). Beyond both
 * documents; fields as ccxt's mexc.ts parses them and as its comments show a live answer
 * (fetchMyTrades / fetchOrderTrades, swap): id, symbol, side, vol, price, feeCurrency, fee, timestamp,
 * profit, category, orderId, positionMode, taker. ccxt tells a swap fill from a spot one by the
 * presence of positionMode, so it is always sent.
 */
export const contractAccountDealSchema = obj({
  id: venueId,
  symbol: z.string(),
  side: int,
  vol: dec,
  price: dec,
  feeCurrency: opt(z.string()),
  fee: dec,
  timestamp: int,
  profit: opt(dec),
  category: opt(int),
  orderId: venueId,
  positionMode: opt(int),
  taker: opt(bool),
});
export type ContractAccountDeal = z.output<typeof contractAccountDealSchema>;

/** Where the two fill endpoints come from (docs/endpoints.md marks them beyond the documents). */
const DEALS_SOURCE =
  "the exchange's futures reference (official Node SDK OrderDeals(symbol) / DealDetails(order_id)) and ccxt's mexc.ts " +
  '(fetchMyTrades, fetchOrderTrades for swap: request parameters and the live answers in its comments)';

const orderDealsRequest = z
  .strictObject({
    symbol,
    start_time: msTime.optional(),
    end_time: msTime.optional(),
    page_num: pageNum,
    page_size: pageSize(1000),
  })
  .superRefine((o, ctx) => checkSpan(ctx, o.start_time, o.end_time, 'end_time', MAX_QUERY_SPAN_DAYS));

export const contractOrderQueryEndpoints = {
  orderDeals: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.orderDeals',
    clientMethod: 'orderDeals',
    method: 'GET',
    path: '/api/v1/private/order/list/order_deals',
    section: '4.3',
    summary: "The account's fills of one contract, newest first",
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: orderDealsRequest,
    response: list(contractAccountDealSchema),
    example: { symbol: 'BTC_USDT', start_time: 1766599200000, end_time: 1767204000000, page_num: 1, page_size: 20 },
    beyondDocuments: DEALS_SOURCE,
    notes:
      `${EXTRA_NOTE}. symbol is required (the official SDK checks it); start_time/end_time at most 90 days apart (ccxt sends ` +
      'since + 90 days - 1 ms); page_size up to 1000. data is a bare list, as ccxt reads it.',
  }),
  orderDealDetails: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.orderDealDetails',
    clientMethod: 'orderDealDetails',
    method: 'GET',
    path: '/api/v1/private/order/deal_details/{order_id}',
    section: '4.3',
    summary: 'The fills of one order, newest first',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: ['order_id'],
    encoding: 'query',
    request: z.strictObject({ order_id: longId }),
    response: list(contractAccountDealSchema),
    example: { order_id: '265307163526610432' },
    beyondDocuments: DEALS_SOURCE,
    notes: `${EXTRA_NOTE}. An order without fills (or not the account's) answers an empty list.`,
  }),
  feeDetails: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.feeDetails',
    clientMethod: 'feeDetails',
    method: 'GET',
    path: '/api/v1/private/order/fee_details',
    section: '4.3',
    summary: 'Fee details of fills',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: feeDetailsRequest,
    response: list(feeDetailSchema),
    example: {
      symbol: 'BTC_USDT',
      ids: ['12767059784', '12767059783'],
      start_time: 1766599200000,
      end_time: 1767204000000,
      page_num: 1,
      page_size: 20,
    },
    notes:
      'ids go comma-separated (at most 20); start_time/end_time span at most 90 days, checked when both are given (the venue defaults start to 7 days back). A page object answer is accepted and its resultList returned.',
  }),
  orderByExternalOid: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.orderByExternalOid',
    clientMethod: 'orderByExternalOid',
    method: 'GET',
    path: '/api/v1/private/order/external/{symbol}/{external_oid}',
    section: '4.3',
    summary: 'Order by external (client) order id',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: ['symbol', 'external_oid'],
    encoding: 'query',
    request: z.strictObject({ symbol, external_oid: text(1, 255) }),
    response: contractOrderSchema,
    example: { symbol: 'ETH_USDT', external_oid: '_m_f95eb99b061d4eef8f64a04e9ac4dad3' },
  }),
  getOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.getOrder',
    clientMethod: 'getOrder',
    method: 'GET',
    path: '/api/v1/private/order/get/{orderId}',
    section: '4.3',
    summary: 'Order by order id',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: ['orderId'],
    encoding: 'query',
    request: z.strictObject({ orderId: longId }),
    response: contractOrderSchema,
    example: { orderId: '102015012431820288' },
  }),
  batchQuery: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.batchQuery',
    clientMethod: 'batchQuery',
    method: 'GET',
    path: '/api/v1/private/order/batch_query',
    section: '4.3',
    summary: 'Orders by id (at most 50)',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: z.strictObject({ order_ids: idCsv(50, 'order ids') }),
    response: list(contractOrderSchema),
    example: { order_ids: ['102015012431820288', '739204819784386560'] },
    notes: 'order_ids accepts an array or a comma-separated string and is sent comma-separated.',
  }),
  batchQueryWithExternal: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.batchQueryWithExternal',
    clientMethod: 'batchQueryWithExternal',
    method: 'POST',
    path: '/api/v1/private/order/batch_query_with_external',
    section: '4.3',
    summary: 'Orders by external order id',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'json-array',
    request: bodyList(externalRef, 50, 'orders', '{symbol, externalOid} references'),
    response: list(contractOrderSchema),
    example: [{ symbol: 'ETH_USDT', externalOid: '_m_f95eb99b061d4eef8f64a04e9ac4dad3' }],
    notes: 'Bare JSON array body. No maximum is documented; we cap it at 50 like batch_query.',
  }),
  openOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.openOrders',
    clientMethod: 'openOrders',
    method: 'GET',
    path: '/api/v1/private/order/list/open_orders',
    section: '4.3',
    summary: 'Open orders',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: z
      .strictObject({ page_num: pageNum, page_size: pageSize(100) })
      .optional()
      .transform((v) => v ?? { page_num: 1, page_size: 20 }),
    response: list(contractOrderSchema),
    example: { page_num: 1, page_size: 20 },
    notes: 'The real exchange also serves /open_orders/{symbol}; the document lists only the paging parameters, which is what we declare.',
  }),
  openOrderTotalCount: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.openOrderTotalCount',
    clientMethod: 'openOrderTotalCount',
    method: 'POST',
    path: '/api/v1/private/order/open_order_total_count',
    section: '4.3',
    summary: 'Counts of open limit, stop, plan and trailing orders',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'json',
    request: z
      .strictObject({ orderId: longId.optional(), price: jsonDec.optional(), vol: jsonDec.optional() })
      .optional()
      .transform((v) => v ?? {}),
    response: openOrderCountSchema,
    example: {},
    notes:
      'The document lists orderId, price, vol as required, which a count does not need (clients call it without parameters): we accept them optionally.',
  }),
  historyOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.historyOrders',
    clientMethod: 'historyOrders',
    method: 'GET',
    path: '/api/v1/private/order/list/history_orders',
    section: '4.3',
    summary: 'Order history',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: historyOrdersRequest,
    response: list(contractOrderSchema),
    example: {
      symbol: 'STEPN_USDT',
      states: [2, 3],
      category: 1,
      side: 1,
      start_time: 1648300000000,
      end_time: 1648906342000,
      page_num: 1,
      page_size: 20,
    },
    notes:
      "Path 'not shown' in the document: the real exchange's GET /api/v1/private/order/list/history_orders (symbol, states comma-separated, category, start_time, end_time ≤ 90 days apart, side, page_num, page_size).",
  }),
} as const;
