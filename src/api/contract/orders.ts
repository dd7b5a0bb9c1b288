/** contract-api.md §4.5: placing, changing and cancelling orders (permission: place orders). */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { CONTRACT_ENTRY } from './contract-defaults.js';
import { batchOrderResultSchema, cancelResultSchema } from './order-schemas.js';
import { bodyList, boolParam, code, intIn, jsonDec, jsonDecNonNeg, longId, param, symbol, text } from './params.js';
import { common, int, list, obj, opt, venueId } from './response-primitives.js';

const SIDE_MEANING = '1 open long, 2 close short, 3 open short, 4 close long';
const TYPE_MEANING = '1 limit, 2 post only, 3 IOC, 4 FOK, 5 market, 6 market converted to current price';
/** Types whose price the venue ignores (market). */
const MARKET_TYPES: readonly number[] = [5, 6];

/** Fields create and submit_batch share. */
const orderFields = {
  symbol,
  /**
   * ≥ 0 here; required and > 0 for types 1–4 below. Market types 5 and 6 may leave it out: ccxt has
   * sent no price for them since 2022 (mexc.ts createSwapOrder, its request tests) and the real
   * exchange answers such an order with an id.
   */
  price: jsonDecNonNeg.optional(),
  vol: jsonDec,
  leverage: intIn(1, Number.MAX_SAFE_INTEGER, 'an integer leverage >= 1').optional(),
  side: code([1, 2, 3, 4], SIDE_MEANING),
  type: code([1, 2, 3, 4, 5, 6], TYPE_MEANING),
  openType: code([1, 2], '1 isolated, 2 cross'),
  /** Empty string allowed (the POSTMAN body sends ""); no maximum is documented, we allow 64. */
  externalOid: text(0, 64).optional(),
  positionId: longId.optional(),
  positionMode: code([1, 2], '1 hedged, 2 one-way').optional(),
  reduceOnly: boolParam.optional(),
  marketCeiling: boolParam.optional(),
  flashClose: boolParam.optional(),
};

const trend = code([1, 2, 3], '1 latest, 2 fair, 3 index price');

interface OrderRuleInput {
  price?: number | undefined;
  side: number;
  type: number;
  leverage?: number | undefined;
  positionMode?: number | undefined;
  reduceOnly?: boolean | undefined;
}

/** Checks of create / submit_batch orders that span fields. */
function orderRules(o: OrderRuleInput, ctx: z.RefinementCtx): void {
  if (!MARKET_TYPES.includes(o.type) && !(o.price !== undefined && o.price > 0)) {
    ctx.addIssue({
      code: 'custom',
      path: ['price'],
      message: 'a decimal number > 0 (required for types 1-4; only market types 5 and 6 may leave it out or send 0)',
      input: o.price,
    });
  }
  if ((o.side === 1 || o.side === 3) && o.leverage === undefined) {
    ctx.addIssue({ code: 'custom', path: ['leverage'], message: 'an integer leverage >= 1 (required when opening: side 1 or 3)' });
  }
  if (o.reduceOnly === true && o.positionMode !== 2) {
    ctx.addIssue({
      code: 'custom',
      path: ['reduceOnly'],
      message: 'false or absent unless positionMode is 2 (one-way)',
      input: o.reduceOnly,
    });
  }
}

/** reduceOnly false in hedged mode says nothing and the venue accepts the field only one-way: drop it. */
function dropIdleReduceOnly<T extends { reduceOnly?: boolean | undefined; positionMode?: number | undefined }>(o: T): T {
  if (o.reduceOnly === false && o.positionMode !== 2) {
    const { reduceOnly: _dropped, ...rest } = o;
    return rest as T;
  }
  return o;
}

export const createOrderRequest = z
  .strictObject({
    ...orderFields,
    stopLossPrice: jsonDecNonNeg.optional(),
    takeProfitPrice: jsonDecNonNeg.optional(),
    lossTrend: trend.optional(),
    profitTrend: trend.optional(),
    priceProtect: code([0, 1], '1 on, 0 off').optional(),
    bboTypeNum: code([0, 1, 2, 3, 4], '0 none, 1 opposite best, 2 opposite 5th, 3 same-side best, 4 same-side 5th').optional(),
    stpMode: code([0, 1, 2, 3], '0 none, 1 cancel both, 2 cancel maker, 3 cancel taker').optional(),
  })
  .superRefine(orderRules)
  .transform(dropIdleReduceOnly);

/** submit_batch order: create's fields without TP/SL, priceProtect and bboTypeNum; stpMode required. */
export const batchOrderRequest = z
  .strictObject({
    ...orderFields,
    stpMode: code([0, 1, 2, 3], '0 none, 1 cancel both, 2 cancel maker, 3 cancel taker (required in submit_batch)'),
  })
  .superRefine(orderRules)
  .transform(dropIdleReduceOnly);

export interface CreatedOrder {
  readonly orderId: string;
  readonly ts?: number;
}

/**
 * order/create answers `{orderId: "<string>", ts}`; older answers carried the id alone (a number in
 * DOC-CONTRACT order/submit, a hex string in a ccxt comment). All become {orderId, ts?}.
 */
export const createOrderResponse = z
  .union([obj({ orderId: venueId, ts: opt(int) }), venueId])
  .transform((v): CreatedOrder =>
    typeof v === 'string' ? { orderId: v } : v.ts === undefined ? { orderId: v.orderId } : { orderId: v.orderId, ts: v.ts },
  );

const externalRef = z.strictObject({ symbol, externalOid: text(1, 255) });

/** symbol, or "" for every contract; absent means "" (the body always carries it). */
const cancelAllSymbol = param<string, string>('a contract symbol like BTC_USDT, or "" for all contracts', (v) => {
  if (v === '') return '';
  const r = symbol.safeParse(v);
  return r.success ? r.data : undefined;
});

export const contractOrderEndpoints = {
  createOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.createOrder',
    clientMethod: 'createOrder',
    method: 'POST',
    path: '/api/v1/private/order/create',
    section: '4.5',
    summary: 'Place an order',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: createOrderRequest,
    response: createOrderResponse,
    example: {
      symbol: 'BCH_USDT',
      price: '461',
      vol: 10,
      side: 1,
      type: 2,
      openType: 2,
      leverage: 10,
      positionMode: 2,
      externalOid: 'perpetua-1',
    },
    placement: true,
    notes:
      'price is required and > 0 for types 1-4; market types 5 and 6 may leave it out (as ccxt does and the real exchange accepts; the document marks it required) or send 0. price/vol/TP/SL go as JSON numbers (at most 15 significant digits, so the number is exact); ids as digit strings. leverage required when opening (side 1 or 3). reduceOnly true only with positionMode 2; reduceOnly false outside one-way mode is left out of the body.',
  }),
  submitBatch: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.submitBatch',
    clientMethod: 'submitBatch',
    method: 'POST',
    path: '/api/v1/private/order/submit_batch',
    section: '4.5',
    summary: 'Place up to 50 orders (market makers only)',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json-array',
    request: bodyList(batchOrderRequest, 50, 'orders', 'orders'),
    response: list(batchOrderResultSchema),
    example: [
      { symbol: 'BTC_USDT', price: 87000, vol: 1, side: 1, type: 1, openType: 1, leverage: 20, externalOid: 'mm-1', stpMode: 1 },
      { symbol: 'BTC_USDT', price: 88000, vol: 1, side: 3, type: 1, openType: 1, leverage: 20, externalOid: 'mm-2', stpMode: 1 },
    ],
    placement: true,
    marketMakerOnly: true,
    notes:
      'Bare JSON array body; at most 50 orders as on the real exchange (the document gives no number). Same per-order rules as createOrder; stpMode required on every order.',
  }),
  chaseLimitOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.chaseLimitOrder',
    clientMethod: 'chaseLimitOrder',
    method: 'POST',
    path: '/api/v1/private/order/chase_limit_order',
    section: '4.5',
    summary: 'Move a limit order to the best price of its side',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({ orderId: longId }),
    response: common,
    example: { orderId: '739204819784386560' },
  }),
  changeLimitOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changeLimitOrder',
    clientMethod: 'changeLimitOrder',
    method: 'POST',
    path: '/api/v1/private/order/change_limit_order',
    section: '4.5',
    summary: 'Change price and quantity of a limit order',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({ orderId: longId, price: jsonDec, vol: jsonDec }),
    response: venueId,
    example: { orderId: '739204819784386560', price: 87000.5, vol: 2 },
  }),
  cancelOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.cancelOrders',
    clientMethod: 'cancelOrders',
    method: 'POST',
    path: '/api/v1/private/order/cancel',
    section: '4.5',
    summary: 'Cancel up to 50 orders by id; per-order errorCode 0 / 2040 / 2041',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json-array',
    request: bodyList(longId, 50, 'orderIds', 'order ids'),
    response: list(cancelResultSchema),
    example: ['218699511659380224', '739204819784386560'],
    notes:
      'Bare JSON array of ids, sent as digit strings (exact above 2^53; the POSTMAN body uses numbers, which the venue reads the same). Answer ids above 2^53 arrive as JSON numbers: parse with parseJsonKeepingLongInts (core/json-codec.ts, as the client does).',
  }),
  cancelWithExternal: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.cancelWithExternal',
    clientMethod: 'cancelWithExternal',
    method: 'POST',
    path: '/api/v1/private/order/cancel_with_external',
    section: '4.5',
    summary: 'Cancel by external order id',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json-array',
    request: bodyList(externalRef, 50, 'orders', '{symbol, externalOid} references'),
    response: list(cancelResultSchema),
    example: [{ symbol: 'BTC_USDT', externalOid: 'perpetua-1' }],
    notes:
      'The document takes a list as the whole request (the real exchange documents one object per call); we follow the document, at most 50 like order/cancel.',
  }),
  batchCancelWithExternal: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.batchCancelWithExternal',
    clientMethod: 'batchCancelWithExternal',
    method: 'POST',
    path: '/api/v1/private/order/batch_cancel_with_external',
    section: '4.5',
    summary: 'Cancel several orders by external order id',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json-array',
    request: bodyList(externalRef, 50, 'orders', '{symbol, externalOid} references'),
    response: list(cancelResultSchema),
    example: [
      { symbol: 'BTC_USDT', externalOid: 'perpetua-1' },
      { symbol: 'ETH_USDT', externalOid: 'perpetua-2' },
    ],
    notes: 'Bare JSON array body; no maximum documented, we cap at 50 like order/cancel.',
  }),
  cancelAll: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.cancelAll',
    clientMethod: 'cancelAll',
    method: 'POST',
    path: '/api/v1/private/order/cancel_all',
    section: '4.5',
    summary: 'Cancel all orders of a contract, or of all contracts with ""',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z
      .strictObject({ symbol: cancelAllSymbol.optional().default('') })
      .optional()
      .transform((v) => v ?? { symbol: '' }),
    response: common,
    example: { symbol: 'BTC_USDT' },
    notes: 'symbol is required on the wire; an omitted symbol is sent as "" (every contract), as the POSTMAN body does.',
  }),
} as const;
