/** contract-api.md §4.6: trailing orders. */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { CONTRACT_ENTRY } from './contract-defaults.js';
import { trackOrderSchema } from './order-schemas.js';
import { boolParam, checkSpan, code, codeCsv, intIn, jsonDec, longId, msTime, symbol } from './params.js';
import { common, list, venueId } from './response-primitives.js';

const side = code([1, 2, 3, 4], '1 open long, 2 close short, 3 open short, 4 close long');
const trend = code([1, 2, 3], '1 latest, 2 fair, 3 index price');
const backType = code([1, 2], '1 callback percent, 2 callback amount');

export const placeTrackOrderRequest = z.strictObject({
  symbol,
  leverage: intIn(1, Number.MAX_SAFE_INTEGER, 'an integer leverage >= 1'),
  side,
  vol: jsonDec,
  openType: code([1, 2], '1 isolated, 2 cross'),
  trend,
  backType,
  backValue: jsonDec,
  positionMode: code([1, 2], '1 hedged, 2 one-way'),
  activePrice: jsonDec.optional(),
  reduceOnly: boolParam.optional(),
  /** Present in the POSTMAN body (fixture), not in §4.6: accepted and passed through. */
  price: jsonDec.optional(),
});

const trackOrdersRequest = z
  .strictObject({
    states: codeCsv([0, 1, 2, 3, 4], '0 inactive, 1 active, 2 triggered, 3 trigger failed, 4 cancelled'),
    symbol: symbol.optional(),
    side: side.optional(),
    start_time: msTime.optional(),
    end_time: msTime.optional(),
    pageIndex: intIn(1, Number.MAX_SAFE_INTEGER, 'an integer >= 1').optional(),
    pageSize: intIn(1, 100, 'an integer from 1 to 100').optional(),
  })
  .superRefine((o, ctx) => checkSpan(ctx, o.start_time, o.end_time, 'end_time'));

export const contractTrackOrderEndpoints = {
  placeTrackOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.placeTrackOrder',
    clientMethod: 'placeTrackOrder',
    method: 'POST',
    path: '/api/v1/private/trackorder/place',
    section: '4.6',
    summary: 'Place a trailing order',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: placeTrackOrderRequest,
    response: venueId,
    example: { symbol: 'DOGE_USDT', vol: 100, leverage: 2, side: 1, openType: 1, backType: 1, backValue: 0.02, positionMode: 1, trend: 1 },
    placement: true,
    notes: 'price is not a §4.6 parameter but the POSTMAN body sends it: accepted and passed through.',
  }),
  cancelTrackOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.cancelTrackOrder',
    clientMethod: 'cancelTrackOrder',
    method: 'POST',
    path: '/api/v1/private/trackorder/cancel',
    section: '4.6',
    summary: 'Cancel trailing orders',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z
      .strictObject({ symbol: symbol.optional(), trackOrderId: longId.optional() })
      .optional()
      .transform((v) => v ?? {}),
    response: common,
    example: { symbol: 'DOGE_USDT', trackOrderId: '739218627261666816' },
    notes: 'Both fields optional in the document; what an empty body cancels is not shown.',
  }),
  changeTrackOrder: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changeTrackOrder',
    clientMethod: 'changeTrackOrder',
    method: 'POST',
    path: '/api/v1/private/trackorder/change_order',
    section: '4.6',
    summary: 'Change a trailing order',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({
      symbol,
      trackOrderId: longId,
      trend,
      backType,
      backValue: jsonDec,
      vol: jsonDec,
      activePrice: jsonDec.optional(),
    }),
    response: common,
    example: { symbol: 'DOGE_USDT', trackOrderId: '739218627261666816', trend: 1, backType: 1, backValue: 0.03, vol: 100 },
  }),
  trackOrders: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.trackOrders',
    clientMethod: 'trackOrders',
    method: 'GET',
    path: '/api/v1/private/trackorder/list/orders',
    section: '4.6',
    summary: 'Trailing orders',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: trackOrdersRequest,
    response: list(trackOrderSchema),
    example: { states: [0, 1], symbol: 'DOGE_USDT', pageIndex: 1, pageSize: 20 },
    notes:
      'states is a list sent comma-separated; paging names are camelCase (pageIndex, pageSize) as the document shows; pageSize bounded 1..100 like page_size.',
  }),
} as const;
