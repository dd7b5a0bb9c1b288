/**
 * Trigger (plan) orders. planorder/change_stop_order is a §4.5 row; place, place/v2, cancel,
 * cancel_all and list/orders come from the real exchange's documentation and the fixtures.
 */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { CONTRACT_ENTRY, EXTRA_NOTE, TRIGGER_EXTRA_SOURCE } from './contract-defaults.js';
import { planOrderSchema } from './order-schemas.js';
import {
  bodyList,
  boolParam,
  checkSpan,
  code,
  codeCsv,
  flag01,
  intIn,
  jsonDec,
  jsonDecNullable,
  longId,
  msTime,
  pageNum,
  pageSize,
  symbol,
} from './params.js';
import { MAX_QUERY_SPAN_DAYS } from './order-queries.js';
import { common, list, venueId } from './response-primitives.js';

const trend = code([1, 2, 3], '1 latest, 2 fair, 3 index price');

const planFields = {
  symbol,
  /** Execution price; may be left out for market (orderType 5). */
  price: jsonDec.optional(),
  vol: jsonDec,
  leverage: intIn(1, Number.MAX_SAFE_INTEGER, 'an integer leverage >= 1').optional(),
  side: code([1, 2, 3, 4], '1 open long, 2 close short, 3 open short, 4 close long'),
  openType: code([1, 2], '1 isolated, 2 cross'),
  triggerPrice: jsonDec,
  triggerType: code([1, 2], '1 price >= trigger, 2 price <= trigger'),
  executeCycle: code([1, 2], '1 24 hours, 2 7 days'),
  orderType: code([1, 2, 3, 4, 5], '1 limit, 2 post only, 3 IOC, 4 FOK, 5 market'),
  trend,
};

interface PlanRuleInput {
  price?: number | undefined;
  orderType: number;
  side: number;
  openType: number;
  leverage?: number | undefined;
  positionMode?: number | undefined;
  reduceOnly?: boolean | undefined;
}

/**
 * A non-market trigger needs its execution price; an isolated opening trigger needs leverage (the
 * real exchange: "leverage is necessary on isolated margin"; the ccxt body opens a cross short
 * without it).
 */
function planRules(o: PlanRuleInput, ctx: z.RefinementCtx): void {
  if (o.orderType !== 5 && o.price === undefined) {
    ctx.addIssue({ code: 'custom', path: ['price'], message: 'a decimal number > 0 (required unless orderType is 5, market)' });
  }
  if ((o.side === 1 || o.side === 3) && o.openType === 1 && o.leverage === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['leverage'],
      message: 'an integer leverage >= 1 (required when opening isolated: side 1 or 3 with openType 1)',
    });
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

export const placePlanOrderRequest = z
  .strictObject({
    ...planFields,
    /** Sent by ccxt (CCXT-REQ body); not in the exchange's parameter list, passed through. */
    type: code([1, 2, 3, 4, 5, 6], 'order type code, as ccxt sends it').optional(),
  })
  .superRefine(planRules);

export const placePlanOrderV2Request = z
  .strictObject({
    ...planFields,
    priceProtect: flag01.optional(),
    positionMode: code([1, 2], '1 hedged, 2 one-way').optional(),
    lossTrend: trend.optional(),
    profitTrend: trend.optional(),
    stopLossPrice: jsonDec.optional(),
    takeProfitPrice: jsonDec.optional(),
    reduceOnly: boolParam.optional(),
  })
  .superRefine(planRules);

/**
 * change_stop_order rules (§4.5): a stopLossPrice > 0 sets a stop loss and then lossTrend, when
 * given, must be 1, 2 or 3 (the venue answers 3001 otherwise); null or 0 cancels; an omitted trend
 * counts as 1. The same holds for takeProfitPrice / profitTrend.
 */
export const changeStopOrderRequest = z
  .strictObject({
    symbol,
    orderId: longId,
    lossTrend: intIn(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'an integer price type').optional(),
    profitTrend: intIn(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'an integer price type').optional(),
    stopLossPrice: jsonDecNullable.optional(),
    takeProfitPrice: jsonDecNullable.optional(),
  })
  .superRefine((o, ctx) => {
    const legs = [
      ['stopLossPrice', o.stopLossPrice, 'lossTrend', o.lossTrend],
      ['takeProfitPrice', o.takeProfitPrice, 'profitTrend', o.profitTrend],
    ] as const;
    for (const [priceKey, price, trendKey, t] of legs) {
      if ((price ?? 0) > 0 && t !== undefined && ![1, 2, 3].includes(t)) {
        ctx.addIssue({
          code: 'custom',
          path: [trendKey],
          message: `1, 2 or 3 (latest, fair, index price) when ${priceKey} > 0; the venue answers 3001 otherwise`,
          input: t,
        });
      }
    }
  });

const planOrdersRequest = z
  .strictObject({
    symbol: symbol.optional(),
    states: codeCsv([1, 2, 3, 4, 5], '1 untriggered, 2 cancelled, 3 executed, 4 invalid, 5 failed').optional(),
    start_time: msTime.optional(),
    end_time: msTime.optional(),
    page_num: pageNum,
    page_size: pageSize(100),
  })
  .superRefine((o, ctx) => checkSpan(ctx, o.start_time, o.end_time, 'end_time', MAX_QUERY_SPAN_DAYS));

export const contractPlanOrderEndpoints = {
  changeStopOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changeStopOrder',
    clientMethod: 'changeStopOrder',
    method: 'POST',
    path: '/api/v1/private/planorder/change_stop_order',
    section: '4.5',
    summary: 'Set, change or cancel TP/SL of a trigger order',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: changeStopOrderRequest,
    response: common,
    example: { symbol: 'STEPN_USDT', orderId: '265557643326564352', stopLossPrice: 2.5, lossTrend: 1, takeProfitPrice: 0 },
    notes:
      'Trend values other than 1-3 with a price > 0 are refused before sending (the venue answers 3001); prices null or 0 cancel, null is sent as JSON null.',
  }),
  placePlanOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.placePlanOrder',
    clientMethod: 'placePlanOrder',
    method: 'POST',
    path: '/api/v1/private/planorder/place',
    section: '4.5',
    summary: 'Place a trigger (plan) order',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: placePlanOrderRequest,
    response: venueId,
    example: {
      symbol: 'ADA_USDT',
      vol: 1,
      side: 3,
      openType: 2,
      triggerPrice: '0.7',
      triggerType: 1,
      executeCycle: 1,
      trend: 1,
      orderType: 1,
      price: 0.6,
    },
    placement: true,
    beyondDocuments: TRIGGER_EXTRA_SOURCE,
    notes: `${EXTRA_NOTE}. The answer id is a JSON number above 2^53 in the fixture: parse with parseJsonKeepingLongInts (core/json-codec.ts, as the client does). executeCycle is 1 (24 h) or 2 (7 days) in requests but hours in responses.`,
  }),
  placePlanOrderV2: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.placePlanOrderV2',
    clientMethod: 'placePlanOrderV2',
    method: 'POST',
    path: '/api/v1/private/planorder/place/v2',
    section: '4.5',
    summary: 'Place a trigger order with TP/SL, position mode and reduce-only',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: placePlanOrderV2Request,
    response: venueId,
    example: {
      symbol: 'DOGE_USDT',
      price: '0.06',
      vol: 1,
      leverage: 20,
      side: 1,
      openType: 1,
      triggerPrice: 0.06,
      triggerType: 2,
      executeCycle: 1,
      orderType: 5,
      trend: 1,
    },
    placement: true,
    beyondDocuments: TRIGGER_EXTRA_SOURCE,
    notes: `${EXTRA_NOTE}. priceProtect accepts true/false and is sent as 1/0.`,
  }),
  cancelPlanOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.cancelPlanOrders',
    clientMethod: 'cancelPlanOrders',
    method: 'POST',
    path: '/api/v1/private/planorder/cancel',
    section: '4.5',
    summary: 'Cancel trigger orders (up to 50)',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json-array',
    request: bodyList(z.strictObject({ symbol, orderId: longId }), 50, 'orders', '{symbol, orderId} references'),
    response: common,
    example: [{ symbol: 'STEPN_USDT', orderId: '265557643326564352' }],
    beyondDocuments: TRIGGER_EXTRA_SOURCE,
    notes: `${EXTRA_NOTE}. Bare JSON array of {symbol, orderId}, at most 50.`,
  }),
  cancelAllPlanOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.cancelAllPlanOrders',
    clientMethod: 'cancelAllPlanOrders',
    method: 'POST',
    path: '/api/v1/private/planorder/cancel_all',
    section: '4.5',
    summary: 'Cancel all trigger orders of a contract or of the account',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z
      .strictObject({ symbol: symbol.optional() })
      .optional()
      .transform((v) => v ?? {}),
    response: common,
    example: { symbol: 'STEPN_USDT' },
    beyondDocuments: TRIGGER_EXTRA_SOURCE,
    notes: `${EXTRA_NOTE}. Without symbol: every contract.`,
  }),
  planOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.planOrders',
    clientMethod: 'planOrders',
    method: 'GET',
    path: '/api/v1/private/planorder/list/orders',
    section: '4.5',
    summary: 'Trigger orders',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: planOrdersRequest,
    response: list(planOrderSchema),
    example: { symbol: 'STEPN_USDT', states: [1], page_num: 1, page_size: 20 },
    beyondDocuments: TRIGGER_EXTRA_SOURCE,
    notes: `${EXTRA_NOTE}. states comma-separated; start_time/end_time at most 90 days apart.`,
  }),
} as const;
