/**
 * Small contract entries for unit tests of the generic machinery (the real contract catalogue is
 * exercised entry by entry in contract-client.test.ts).
 */
import { z } from 'zod';
import { endpoint } from '../../../src/api/endpoint.js';
import { contractSymbolParam, decParam, idParam, int, obj, str } from '../../../src/api/wire.js';

const BASE = { api: 'contract', section: 'test', envelope: 'contract', weight: 1, buckets: ['contract-endpoint'] } as const;

export const depthDef = endpoint({
  ...BASE,
  id: 'contract.testDepth',
  clientMethod: 'testDepth',
  method: 'GET',
  path: '/api/v1/contract/depth/{symbol}',
  summary: 'depth',
  auth: 'public',
  pathParams: ['symbol'],
  encoding: 'query',
  request: z.object({ symbol: contractSymbolParam, limit: z.number().int().min(1).max(100).optional() }),
  response: obj({ asks: z.array(z.array(z.number())), bids: z.array(z.array(z.number())), version: int }),
  example: { symbol: 'BTC_USDT', limit: 5 },
});

export const historyDef = endpoint({
  ...BASE,
  id: 'contract.testHistory',
  clientMethod: 'testHistory',
  method: 'GET',
  path: '/api/v1/private/order/list/history_orders',
  summary: 'history',
  auth: 'signed',
  pathParams: [],
  encoding: 'query',
  request: z.object({
    symbol: contractSymbolParam,
    page_num: z.number().int(),
    page_size: z.number().int(),
    states: z.string().optional(),
  }),
  response: z.array(obj({ orderId: str })),
  example: { symbol: 'BTC_USDT', page_num: 1, page_size: 20 },
});

export const createDef = endpoint({
  ...BASE,
  id: 'contract.testCreate',
  clientMethod: 'testCreate',
  method: 'POST',
  path: '/api/v1/private/order/create',
  summary: 'create',
  auth: 'signed',
  pathParams: [],
  encoding: 'json',
  placement: true,
  request: z.object({
    symbol: contractSymbolParam,
    price: decParam,
    vol: z.number(),
    side: z.number().int(),
    type: z.number().int(),
    openType: z.number().int(),
    externalOid: z.string().optional(),
  }),
  response: obj({ orderId: str, ts: int }),
  example: { symbol: 'BTC_USDT', price: '30000', vol: 1, side: 1, type: 1, openType: 1, externalOid: 'pp-c1-i1' },
});

export const cancelDef = endpoint({
  ...BASE,
  id: 'contract.testCancel',
  clientMethod: 'testCancel',
  method: 'POST',
  path: '/api/v1/private/order/cancel',
  summary: 'cancel',
  auth: 'signed',
  pathParams: [],
  encoding: 'json-array',
  request: z.array(idParam).min(1).max(50),
  response: z.array(obj({ orderId: str, errorCode: int, errorMsg: z.string().optional() })),
  example: ['218699511659380224'],
});

export const cancelAllDef = endpoint({
  ...BASE,
  id: 'contract.testCancelAll',
  clientMethod: 'testCancelAll',
  method: 'POST',
  path: '/api/v1/private/order/cancel_all',
  summary: 'cancel all',
  auth: 'signed',
  pathParams: [],
  encoding: 'json',
  request: z.object({ symbol: z.string() }),
  response: z.unknown(),
  example: { symbol: '' },
});
