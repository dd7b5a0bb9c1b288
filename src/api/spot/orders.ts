/**
 * Spot orders (spot-api.md §4.4): place, test, batch, cancel, cancel all, query, open, all.
 */
import { z } from 'zod';
import type { Decimal } from '../../core/decimal.js';
import { endpoint } from '../endpoint.js';
import { bool, dec, int, obj, opt, str } from '../wire.js';
import { SPOT_ORDER_STATUSES, SPOT_ORDER_TYPES, SPOT_SIDES, type SpotOrderType } from '../../domain/spot-enums.js';
import { forwardIssues, forwardParse } from './common.js';
import {
  checkTimeOrder,
  clientOrderIdP,
  decimalP,
  issue,
  limitP,
  orderIdP,
  orderTypeP,
  paramsObject,
  recvWindowP,
  sideP,
  stpModeP,
  symbolListP,
  symbolP,
  timeP,
  withExpected,
} from './params.js';
import { emptyObjectSchema } from './market.js';

// ---------- requests ----------

/** Types that rest at a price: they need price and quantity (time in force is carried by the type). */
export const PRICED_SPOT_ORDER_TYPES: ReadonlySet<SpotOrderType> = new Set(['LIMIT', 'LIMIT_MAKER', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL']);

/** Batch size limit (spot-api.md §8). */
export const SPOT_BATCH_MAX = 20;
/** Symbols per open-orders query (spot-api.md §4.4). */
export const SPOT_OPEN_ORDERS_MAX_SYMBOLS = 5;

const orderShape = {
  symbol: symbolP,
  side: sideP,
  type: orderTypeP,
  quantity: decimalP.optional(),
  quoteOrderQty: decimalP.optional(),
  price: decimalP.optional(),
  newClientOrderId: clientOrderIdP.optional(),
  stpMode: stpModeP.optional(),
};

interface OrderRuleInput {
  type: SpotOrderType;
  quantity?: string;
  quoteOrderQty?: string;
  price?: string;
}

/**
 * The conditional rules of POST /api/v3/order, checked before sending. The venue answers a wrong
 * combination with -1128; refusing it here keeps a bad intent from costing a request.
 */
export function checkOrderRules(o: OrderRuleInput, ctx: z.RefinementCtx): void {
  if (PRICED_SPOT_ORDER_TYPES.has(o.type)) {
    if (o.price === undefined) issue(ctx, 'price', `a decimal number > 0 (required for type ${o.type})`, 'missing');
    if (o.quantity === undefined) issue(ctx, 'quantity', `a decimal number > 0 (required for type ${o.type})`, 'missing');
    if (o.quoteOrderQty !== undefined)
      issue(ctx, 'quoteOrderQty', `absent for type ${o.type} (quoteOrderQty is for MARKET orders)`, 'combination');
    return;
  }
  // MARKET
  if (o.quantity === undefined && o.quoteOrderQty === undefined) {
    issue(ctx, 'quantity', 'quantity or quoteOrderQty for type MARKET (invalid combination of optional parameters, -1128)', 'combination');
  } else if (o.quantity !== undefined && o.quoteOrderQty !== undefined) {
    issue(
      ctx,
      'quoteOrderQty',
      'only one of quantity or quoteOrderQty for type MARKET (invalid combination of optional parameters, -1128)',
      'combination',
    );
  }
}

export const newOrderRequest = paramsObject({ ...orderShape, recvWindow: recvWindowP.optional() }, checkOrderRules);
export type SpotNewOrderParams = z.input<typeof newOrderRequest>;

/** One element of `batchOrders`: the order fields without recvWindow (given once per request). */
export const batchOrderItemRequest = paramsObject(orderShape, checkOrderRules, { transport: false });
export type SpotBatchOrderParams = z.input<typeof batchOrderItemRequest>;
export type SpotBatchOrderWire = z.output<typeof batchOrderItemRequest>;

const batchItems = z.array(batchOrderItemRequest);

/**
 * `batchOrders`: an array of orders from a caller, or the JSON string that arrives on the wire; sent as
 * the JSON string of the validated orders.
 */
export const batchOrdersParam = withExpected(
  z
    .custom<readonly SpotBatchOrderParams[] | string>(() => true)
    .transform((v, ctx): string => {
      if (v === undefined) {
        issue(ctx, [], `a list of 1..${SPOT_BATCH_MAX} orders`, 'missing');
        return z.NEVER;
      }
      let list: unknown = v;
      if (typeof v === 'string') {
        try {
          list = JSON.parse(v);
        } catch {
          issue(ctx, [], `a JSON array of 1..${SPOT_BATCH_MAX} orders`);
          return z.NEVER;
        }
      }
      if (!Array.isArray(list)) {
        issue(ctx, [], `a list of 1..${SPOT_BATCH_MAX} orders`);
        return z.NEVER;
      }
      if (list.length === 0 || list.length > SPOT_BATCH_MAX) {
        issue(ctx, [], `1..${SPOT_BATCH_MAX} orders of one symbol (got ${list.length})`);
        return z.NEVER;
      }
      const r = batchItems.safeParse(list);
      if (!r.success) {
        forwardIssues(r.error, ctx);
        return z.NEVER;
      }
      const items = r.data;
      const symbol = items[0]!.symbol;
      const seen = new Map<string, number>();
      items.forEach((o, i) => {
        if (o.symbol !== symbol) issue(ctx, [i, 'symbol'], `${symbol} (all orders of a batch have one symbol)`);
        if (o.newClientOrderId !== undefined) {
          const first = seen.get(o.newClientOrderId);
          if (first !== undefined) issue(ctx, [i, 'newClientOrderId'], `a client order id not already used in this batch (order ${first})`);
          else seen.set(o.newClientOrderId, i);
        }
      });
      return JSON.stringify(items);
    }),
  `a list (or its JSON string) of 1..${SPOT_BATCH_MAX} orders of one symbol`,
);

export const batchOrdersRequest = paramsObject({ batchOrders: batchOrdersParam, recvWindow: recvWindowP.optional() });
export type SpotBatchOrdersParams = z.input<typeof batchOrdersRequest>;

/** The orders inside a validated `batchOrders` wire value (the emulator reads them back with this). */
export function parseBatchOrders(wire: string): SpotBatchOrderWire[] {
  return JSON.parse(wire) as SpotBatchOrderWire[];
}

function oneOfOrderIds(p: { orderId?: string; origClientOrderId?: string }, ctx: z.RefinementCtx): void {
  if (p.orderId === undefined && p.origClientOrderId === undefined)
    issue(ctx, 'orderId', 'orderId or origClientOrderId (one is required)', 'missing');
}

export const cancelOrderRequest = paramsObject(
  {
    symbol: symbolP,
    orderId: orderIdP.optional(),
    origClientOrderId: clientOrderIdP.optional(),
    newClientOrderId: clientOrderIdP.optional(),
    recvWindow: recvWindowP.optional(),
  },
  oneOfOrderIds,
);

export const cancelOpenOrdersRequest = paramsObject({ symbol: symbolP, recvWindow: recvWindowP.optional() });

export const queryOrderRequest = paramsObject(
  { symbol: symbolP, orderId: orderIdP.optional(), origClientOrderId: clientOrderIdP.optional(), recvWindow: recvWindowP.optional() },
  oneOfOrderIds,
);

export const openOrdersRequest = paramsObject({
  symbol: symbolListP(SPOT_OPEN_ORDERS_MAX_SYMBOLS).optional(),
  recvWindow: recvWindowP.optional(),
});

export const allOrdersRequest = paramsObject(
  {
    symbol: symbolP,
    startTime: timeP.optional(),
    endTime: timeP.optional(),
    limit: limitP(1, 1000).optional(),
    recvWindow: recvWindowP.optional(),
  },
  checkTimeOrder,
);

// ---------- responses ----------

const status = z.enum(SPOT_ORDER_STATUSES);
const type = z.enum(SPOT_ORDER_TYPES);
const side = z.enum(SPOT_SIDES);

/** Placement answer; a live answer may carry only symbol, orderId and orderListId. */
export const spotPlacedOrderSchema = obj({
  symbol: z.string(),
  orderId: str,
  orderListId: opt(int),
  clientOrderId: opt(str),
  price: opt(dec),
  origQty: opt(dec),
  type: opt(type),
  side: opt(side),
  stpMode: opt(z.string()),
  transactTime: opt(int),
});
export type SpotPlacedOrder = z.output<typeof spotPlacedOrderSchema>;

/** Cancel answer (DELETE order, and each element of DELETE openOrders); live answers omit most fields. */
export const spotCancelledOrderSchema = obj({
  symbol: z.string(),
  orderId: str,
  orderListId: opt(int),
  origClientOrderId: opt(str),
  clientOrderId: opt(str),
  price: opt(dec),
  origQty: opt(dec),
  executedQty: opt(dec),
  cummulativeQuoteQty: opt(dec),
  status: opt(status),
  type: opt(type),
  side: opt(side),
  stpMode: opt(z.string()),
});
export type SpotCancelledOrder = z.output<typeof spotCancelledOrderSchema>;
export const cancelOpenOrdersSchema = z.array(spotCancelledOrderSchema);

const spotOrderWireSchema = obj({
  symbol: z.string(),
  orderId: str,
  orderListId: opt(int),
  clientOrderId: opt(str),
  price: opt(dec),
  origQty: opt(dec),
  /** The single-order query names the original quantity `Qty`. */
  Qty: opt(dec),
  executedQty: dec,
  cummulativeQuoteQty: dec,
  status,
  timeInForce: opt(z.string()),
  type,
  side,
  stopPrice: opt(dec),
  icebergQty: opt(dec),
  time: int,
  updateTime: opt(int),
  isWorking: opt(bool),
  origQuoteOrderQty: opt(dec),
  /** "", cancel_maker, cancel_taker, cancel_both; kept as a string so a new mode does not reject a whole list. */
  stpMode: opt(z.string()),
  /** `stp_cancel` when cancelled by an STP rule. */
  cancelReason: opt(z.string()),
});

/** A spot order as GET order / openOrders / allOrders report it; `origQty` is filled from `Qty` when needed. */
export const spotOrderSchema = spotOrderWireSchema
  .superRefine((o, ctx) => {
    if (o.origQty === undefined && o.Qty === undefined)
      issue(ctx, 'origQty', 'a decimal quantity (origQty, or Qty in the single-order query)');
  })
  .transform(({ Qty, ...o }) => ({ ...o, origQty: (o.origQty ?? Qty) as Decimal }));
export type SpotOrder = z.output<typeof spotOrderSchema>;
export const spotOrderListSchema = z.array(spotOrderSchema);

const batchSuccessSchema = obj({
  symbol: z.string(),
  orderId: str,
  orderListId: opt(int),
  newClientOrderId: opt(str),
  clientOrderId: opt(str),
}).transform((o) => ({ ...o, ok: true as const }));

const batchFailureSchema = obj({
  newClientOrderId: opt(str),
  code: int,
  msg: z.string(),
}).transform((o) => ({ ...o, ok: false as const }));

/**
 * One element of the batch answer: `ok: true` with orderId, or `ok: false` with the venue's code and msg
 * (e.g. 30002 below the minimum amount). An element with neither orderId nor code is malformed and is
 * reported as a missing orderId.
 */
export const spotBatchOrderResultSchema = z
  .custom<z.input<typeof batchSuccessSchema> | z.input<typeof batchFailureSchema>>(() => true)
  .transform((v, ctx) => {
    const rec = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
    const failed = (rec.orderId === undefined || rec.orderId === null) && rec.code !== undefined && rec.code !== null;
    return failed ? forwardParse(batchFailureSchema, v, ctx) : forwardParse(batchSuccessSchema, v, ctx);
  });
export type SpotBatchOrderResult = z.output<typeof spotBatchOrderResultSchema>;
export const batchOrdersSchema = z.array(spotBatchOrderResultSchema);

// ---------- entries ----------

const SIGNED = { api: 'spot', section: '4.4', auth: 'signed', pathParams: [], encoding: 'query', envelope: 'bare' } as const;
const ORDER_BUCKETS = ['ip-weight', 'spot-orders'] as const;

export const spotOrderEndpoints = {
  newOrder: endpoint({
    ...SIGNED,
    id: 'spot.newOrder',
    clientMethod: 'newOrder',
    method: 'POST',
    path: '/api/v3/order',
    summary: 'Places an order.',
    permission: 'SPOT_DEAL_WRITE',
    weight: 1,
    buckets: ORDER_BUCKETS,
    placement: true,
    request: newOrderRequest,
    response: spotPlacedOrderSchema,
    example: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.0002', price: '30000', newClientOrderId: 'pp-s1-i1' },
    notes:
      'Weight not given (12/s shared with cancel): 1. MARKET with both quantity and quoteOrderQty, and quoteOrderQty on a priced type, are refused before sending (-1128 style).',
  }),
  testNewOrder: endpoint({
    ...SIGNED,
    id: 'spot.testNewOrder',
    clientMethod: 'testNewOrder',
    method: 'POST',
    path: '/api/v3/order/test',
    summary: 'Validates an order without sending it to matching.',
    permission: 'SPOT_DEAL_WRITE',
    weight: 1,
    buckets: ['ip-weight'],
    request: newOrderRequest,
    response: emptyObjectSchema,
    example: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '10' },
    notes: 'Not metered in spot-orders: the order never reaches matching.',
  }),
  batchOrders: endpoint({
    ...SIGNED,
    id: 'spot.batchOrders',
    clientMethod: 'batchOrders',
    method: 'POST',
    path: '/api/v3/batchOrders',
    summary: 'Places up to 20 orders of one symbol.',
    permission: 'SPOT_DEAL_WRITE',
    weight: 1,
    buckets: ['ip-weight', 'spot-orders', 'spot-batch'],
    placement: true,
    request: batchOrdersRequest,
    response: batchOrdersSchema,
    example: {
      batchOrders: [
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.0002', price: '30000', newClientOrderId: 'pp-s1-i2' },
        { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT_MAKER', quantity: '0.0002', price: '90000', newClientOrderId: 'pp-s1-i3' },
      ],
    },
    notes:
      'Weight not given: 1. Metered in spot-orders (12/s shared) and spot-batch (the 2/s statement). batchOrders travels as a JSON string; duplicate newClientOrderId in one batch is refused.',
  }),
  cancelOrder: endpoint({
    ...SIGNED,
    id: 'spot.cancelOrder',
    clientMethod: 'cancelOrder',
    method: 'DELETE',
    path: '/api/v3/order',
    summary: 'Cancels one order by orderId or origClientOrderId.',
    permission: 'SPOT_DEAL_WRITE',
    weight: 1,
    buckets: ORDER_BUCKETS,
    request: cancelOrderRequest,
    response: spotCancelledOrderSchema,
    example: { symbol: 'BTCUSDT', orderId: '133734823834447872' },
    notes: 'Weight not given (12/s shared with placement): 1.',
  }),
  cancelOpenOrders: endpoint({
    ...SIGNED,
    id: 'spot.cancelOpenOrders',
    clientMethod: 'cancelOpenOrders',
    method: 'DELETE',
    path: '/api/v3/openOrders',
    summary: 'Cancels every pending order of a symbol (OCO included).',
    permission: 'SPOT_DEAL_WRITE',
    weight: 1,
    buckets: ORDER_BUCKETS,
    request: cancelOpenOrdersRequest,
    response: cancelOpenOrdersSchema,
    example: { symbol: 'BTCUSDT' },
    notes: 'One symbol (the doc names a single required symbol).',
  }),
  queryOrder: endpoint({
    ...SIGNED,
    id: 'spot.queryOrder',
    clientMethod: 'queryOrder',
    method: 'GET',
    path: '/api/v3/order',
    summary: 'One order of the last 7 days by orderId or origClientOrderId.',
    permission: 'SPOT_DEAL_READ',
    weight: 2,
    buckets: ['ip-weight'],
    request: queryOrderRequest,
    response: spotOrderSchema,
    example: { symbol: 'BTCUSDT', origClientOrderId: 'pp-s1-i1' },
    notes: 'Neither orderId nor origClientOrderId is refused before sending (the venue answers 700004).',
  }),
  openOrders: endpoint({
    ...SIGNED,
    id: 'spot.openOrders',
    clientMethod: 'openOrders',
    method: 'GET',
    path: '/api/v3/openOrders',
    summary: 'Open orders of up to 5 symbols (or all), at most 1000 returned.',
    permission: 'SPOT_DEAL_READ',
    weight: 3,
    buckets: ['ip-weight'],
    request: openOrdersRequest,
    response: spotOrderListSchema,
    example: { symbol: ['BTCUSDT', 'ETHUSDT'] },
  }),
  allOrders: endpoint({
    ...SIGNED,
    id: 'spot.allOrders',
    clientMethod: 'allOrders',
    method: 'GET',
    path: '/api/v3/allOrders',
    summary: 'Active, cancelled and completed orders of a symbol (default last 24 h, at most 7 days back).',
    permission: 'SPOT_DEAL_READ',
    weight: 10,
    buckets: ['ip-weight'],
    request: allOrdersRequest,
    response: spotOrderListSchema,
    example: { symbol: 'BTCUSDT', startTime: 1767200000000, endTime: 1767204000000, limit: 500 },
    notes: 'The 7-day history bound is relative to now and left to the venue; startTime > endTime is refused.',
  }),
};
