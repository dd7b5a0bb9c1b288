/**
 * Take-profit / stop-loss (stop) orders: the §4.5 rows (stoporder/change_price for TP/SL on a limit
 * order, change_plan_price, list/orders, open_orders) and the placement / cancel endpoints the
 * real exchange documents (stoporder/place, cancel, cancel_all).
 */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { CONTRACT_ENTRY, EXTRA_NOTE, TRIGGER_EXTRA_SOURCE } from './contract-defaults.js';
import { stopOrderSchema } from './order-schemas.js';
import {
  bodyList,
  checkSpan,
  code,
  flag01,
  jsonDec,
  jsonDecNonNeg,
  jsonDecNullable,
  longId,
  msTime,
  pageNum,
  pageSize,
  symbol,
} from './params.js';
import { PROFIT_LOSS_VOL_TYPES } from '../../domain/contract-enums.js';
import { common, list, opt, venueId } from './response-primitives.js';

const trend = code([1, 2, 3], '1 latest, 2 fair, 3 index price');
const reverseFlag = code([1, 2], '1 reverse after trigger, 2 do not');
const execType = code([0, 1], '0 market, 1 limit');

/** At least one of the two prices must be > 0 (issue on stopLossPrice, the first of the pair). */
function atLeastOnePrice(
  o: { stopLossPrice?: number | null | undefined; takeProfitPrice?: number | null | undefined },
  ctx: z.RefinementCtx,
): void {
  if (!((o.stopLossPrice ?? 0) > 0) && !((o.takeProfitPrice ?? 0) > 0)) {
    ctx.addIssue({
      code: 'custom',
      path: ['stopLossPrice'],
      message: 'a decimal number > 0 in stopLossPrice or takeProfitPrice (at least one)',
    });
  }
}

const changeStopPriceRequest = z.strictObject({
  orderId: longId,
  stopLossPrice: jsonDecNullable.optional(),
  takeProfitPrice: jsonDecNullable.optional(),
  lossTrend: trend.optional(),
  profitTrend: trend.optional(),
  takeProfitReverse: reverseFlag.optional(),
  stopLossReverse: reverseFlag.optional(),
});

const changePlanPriceRequest = z
  .strictObject({
    stopPlanOrderId: longId,
    stopLossPrice: jsonDecNonNeg.optional(),
    takeProfitPrice: jsonDecNonNeg.optional(),
    lossTrend: trend.optional(),
    profitTrend: trend.optional(),
    takeProfitReverse: reverseFlag.optional(),
    stopLossReverse: reverseFlag.optional(),
  })
  .superRefine(atLeastOnePrice);

const stopOrdersRequest = z
  .strictObject({
    symbol: symbol.optional(),
    is_finished: code([0, 1], '0 not final, 1 final').optional(),
    state: code([1, 2, 3, 4, 5], '1 untriggered, 2 cancelled, 3 executed, 4 invalid, 5 failed').optional(),
    type: code([1, 2], '1 long, 2 short').optional(),
    start_time: msTime.optional(),
    end_time: msTime.optional(),
    page_num: pageNum,
    page_size: pageSize(100),
  })
  .superRefine((o, ctx) => checkSpan(ctx, o.start_time, o.end_time, 'end_time'));

/**
 * stoporder/place (TP/SL on a position), fields as the real exchange documents them and the POSTMAN
 * body (fixture) sends. Rules: at least one trigger price > 0; a limit leg (type 1) needs its order
 * price > 0.
 */
export const placeStopOrderRequest = z
  .strictObject({
    symbol: symbol.optional(),
    positionId: longId,
    vol: jsonDec,
    lossTrend: trend.optional(),
    profitTrend: trend.optional(),
    stopLossPrice: jsonDecNonNeg.optional(),
    takeProfitPrice: jsonDecNonNeg.optional(),
    priceProtect: flag01.optional(),
    profitLossVolType: z.enum(PROFIT_LOSS_VOL_TYPES).optional(),
    takeProfitVol: jsonDec.optional(),
    stopLossVol: jsonDec.optional(),
    volType: code([1, 2], '1 partial TP/SL, 2 position-level').optional(),
    takeProfitReverse: reverseFlag.optional(),
    stopLossReverse: reverseFlag.optional(),
    takeProfitType: execType.optional(),
    takeProfitOrderPrice: jsonDec.optional(),
    stopLossType: execType.optional(),
    stopLossOrderPrice: jsonDec.optional(),
  })
  .superRefine((o, ctx) => {
    atLeastOnePrice(o, ctx);
    if (o.stopLossType === 1 && o.stopLossOrderPrice === undefined) {
      ctx.addIssue({ code: 'custom', path: ['stopLossOrderPrice'], message: 'a decimal number > 0 (required with stopLossType 1, limit)' });
    }
    if (o.takeProfitType === 1 && o.takeProfitOrderPrice === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['takeProfitOrderPrice'],
        message: 'a decimal number > 0 (required with takeProfitType 1, limit)',
      });
    }
  });

export const contractStopOrderEndpoints = {
  changeStopPrice: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changeStopPrice',
    clientMethod: 'changeStopPrice',
    method: 'POST',
    path: '/api/v1/private/stoporder/change_price',
    section: '4.5',
    summary: 'Set or cancel take-profit / stop-loss on an existing limit order',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: changeStopPriceRequest,
    response: common,
    example: { orderId: '739204819784386560', stopLossPrice: 80000, takeProfitPrice: 95000, lossTrend: 1, profitTrend: 2 },
    notes:
      "Method and path 'not shown' in the document: the real exchange's POST /api/v1/private/stoporder/change_price. Both prices null/0 (or absent) cancel the TP/SL; null is sent as JSON null.",
  }),
  changePlanPrice: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changePlanPrice',
    clientMethod: 'changePlanPrice',
    method: 'POST',
    path: '/api/v1/private/stoporder/change_plan_price',
    section: '4.5',
    summary: 'Change the prices of a TP/SL (stop) order',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: changePlanPriceRequest,
    response: common,
    example: { stopPlanOrderId: '265557643326564352', stopLossPrice: 0.19, lossTrend: 1 },
  }),
  stopOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.stopOrders',
    clientMethod: 'stopOrders',
    method: 'GET',
    path: '/api/v1/private/stoporder/list/orders',
    section: '4.5',
    summary: 'TP/SL orders (history and open)',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: stopOrdersRequest,
    response: list(stopOrderSchema),
    example: { symbol: 'DOGE_USDT', is_finished: 0, page_num: 1, page_size: 20 },
  }),
  openStopOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.openStopOrders',
    clientMethod: 'openStopOrders',
    method: 'GET',
    path: '/api/v1/private/stoporder/open_orders',
    section: '4.5',
    summary: 'Open TP/SL orders',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: z
      .strictObject({ symbol: symbol.optional() })
      .optional()
      .transform((v) => v ?? {}),
    response: list(stopOrderSchema),
    example: { symbol: 'DOGE_USDT' },
  }),
  placeStopOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.placeStopOrder',
    clientMethod: 'placeStopOrder',
    method: 'POST',
    path: '/api/v1/private/stoporder/place',
    section: '4.5',
    summary: 'Place take-profit / stop-loss on a position',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: placeStopOrderRequest,
    response: opt(venueId),
    example: {
      symbol: 'DOGE_USDT',
      positionId: '1110417836',
      vol: 1,
      lossTrend: 1,
      profitTrend: 1,
      stopLossPrice: 0.19,
      stopLossType: 1,
      stopLossOrderPrice: 0.19,
    },
    placement: true,
    beyondDocuments: TRIGGER_EXTRA_SOURCE,
    notes: `${EXTRA_NOTE}. No response sample exists; the stop-order id is read when present.`,
  }),
  cancelStopOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.cancelStopOrders',
    clientMethod: 'cancelStopOrders',
    method: 'POST',
    path: '/api/v1/private/stoporder/cancel',
    section: '4.5',
    summary: 'Cancel TP/SL orders (up to 50)',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json-array',
    request: bodyList(z.strictObject({ stopPlanOrderId: longId }), 50, 'orders', '{stopPlanOrderId} references'),
    response: common,
    example: [{ stopPlanOrderId: '265557643326564352' }],
    beyondDocuments: TRIGGER_EXTRA_SOURCE,
    notes: `${EXTRA_NOTE}. Bare JSON array of {stopPlanOrderId}, at most 50, as the real exchange documents.`,
  }),
  cancelAllStopOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.cancelAllStopOrders',
    clientMethod: 'cancelAllStopOrders',
    method: 'POST',
    path: '/api/v1/private/stoporder/cancel_all',
    section: '4.5',
    summary: 'Cancel all TP/SL orders of a position, a contract or the account',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z
      .strictObject({ positionId: longId.optional(), symbol: symbol.optional() })
      .optional()
      .transform((v) => v ?? {}),
    response: common,
    example: { symbol: 'DOGE_USDT' },
    beyondDocuments: TRIGGER_EXTRA_SOURCE,
    notes: `${EXTRA_NOTE}. Neither field: every TP/SL order of the account.`,
  }),
} as const;
