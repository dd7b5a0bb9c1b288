/**
 * Signed spot account endpoints (spot-api.md §4.2) and platform-token fee deduction (§4.3).
 */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { bool, dec, int, obj, opt, str } from '../wire.js';
import { KycStatus } from '../../domain/spot-enums.js';
import { checkTimeOrder, boolP, issue, limitP, orderIdP, paramsObject, recvWindowP, symbolP, timeP } from './params.js';
import { symbolListSchema } from './market.js';
import { wireEnum } from './common.js';

// ---------- requests ----------

/** Signed endpoint without business parameters: only the optional recvWindow. */
export const signedNoParamsRequest = paramsObject({ recvWindow: recvWindowP.optional() });

export const myTradesRequest = paramsObject(
  {
    symbol: symbolP,
    orderId: orderIdP.optional(),
    startTime: timeP.optional(),
    endTime: timeP.optional(),
    limit: limitP(1, 100).optional(),
    recvWindow: recvWindowP.optional(),
  },
  (p, ctx) => {
    // symbol is required anyway; stated again so the rule "orderId only with symbol" has its own message.
    if (p.orderId !== undefined && p.symbol === undefined)
      issue(ctx, 'symbol', 'a spot symbol (orderId is only accepted with symbol)', 'missing');
    checkTimeOrder(p, ctx);
  },
);

export const tradeFeeRequest = paramsObject({ symbol: symbolP, recvWindow: recvWindowP.optional() });

export const enablePlatformDeductRequest = paramsObject({ platformDeductEnable: boolP, recvWindow: recvWindowP.optional() });

// ---------- responses ----------

export const kycStatusSchema = obj({
  status: wireEnum([KycStatus.UNVERIFIED, KycStatus.PRIMARY, KycStatus.ADVANCED, KycStatus.INSTITUTIONAL]),
});
export type SpotKycStatus = z.output<typeof kycStatusSchema>;

export const uidSchema = obj({ uid: str });
export type SpotUid = z.output<typeof uidSchema>;

export const spotBalanceSchema = obj({
  asset: z.string().min(1),
  free: dec,
  locked: dec,
  /** Withdrawable amount; the doc lists it, real samples omit it. */
  available: opt(dec),
});
export type SpotBalance = z.output<typeof spotBalanceSchema>;

export const accountSchema = obj({
  makerCommission: opt(dec),
  takerCommission: opt(dec),
  buyerCommission: opt(dec),
  sellerCommission: opt(dec),
  canTrade: bool,
  canWithdraw: bool,
  canDeposit: bool,
  updateTime: opt(int),
  accountType: opt(z.string()),
  permissions: opt(z.array(z.string())),
  balances: z.array(spotBalanceSchema),
});
export type SpotAccount = z.output<typeof accountSchema>;

export const spotOwnTradeSchema = obj({
  symbol: z.string(),
  id: str,
  orderId: str,
  orderListId: opt(int),
  price: dec,
  qty: dec,
  quoteQty: opt(dec),
  commission: opt(dec),
  commissionAsset: opt(z.string()),
  time: int,
  isBuyer: bool,
  isMaker: bool,
  isBestMatch: opt(bool),
  isSelfTrade: opt(bool),
  isBuyerMaker: opt(bool),
  clientOrderId: opt(str),
});
export type SpotOwnTrade = z.output<typeof spotOwnTradeSchema>;
export const myTradesSchema = z.array(spotOwnTradeSchema);

/** Commission rates as fractions; the doc types them long, samples show decimals. */
export const tradeFeeSchema = obj({ makerCommission: dec, takerCommission: dec });
export type SpotTradeFee = z.output<typeof tradeFeeSchema>;

export const platformDeductSchema = obj({ platformDeductEnable: bool });
export type SpotPlatformDeduct = z.output<typeof platformDeductSchema>;

// ---------- entries ----------

const SIGNED = {
  api: 'spot',
  section: '4.2',
  auth: 'signed',
  buckets: ['ip-weight'],
  pathParams: [],
  encoding: 'query',
  envelope: 'bare',
} as const;

export const spotAccountEndpoints = {
  kycStatus: endpoint({
    ...SIGNED,
    id: 'spot.kycStatus',
    clientMethod: 'kycStatus',
    method: 'GET',
    path: '/api/v3/kyc/status',
    summary: 'KYC level: 1 unverified, 2 primary, 3 advanced, 4 institutional.',
    permission: 'SPOT_ACCOUNT_READ',
    weight: 1,
    request: signedNoParamsRequest,
    response: kycStatusSchema,
    example: {},
  }),
  uid: endpoint({
    ...SIGNED,
    id: 'spot.uid',
    clientMethod: 'uid',
    method: 'GET',
    path: '/api/v3/uid',
    summary: 'Account UID.',
    permission: 'SPOT_ACCOUNT_READ',
    weight: 1,
    request: signedNoParamsRequest,
    response: uidSchema,
    example: {},
  }),
  selfSymbols: endpoint({
    ...SIGNED,
    id: 'spot.selfSymbols',
    clientMethod: 'selfSymbols',
    method: 'GET',
    path: '/api/v3/selfSymbols',
    summary: 'Symbols this account may trade through the API.',
    permission: 'SPOT_ACCOUNT_READ',
    weight: 1,
    envelope: 'spot-wrapped',
    request: signedNoParamsRequest,
    response: symbolListSchema,
    example: { recvWindow: 5000 },
  }),
  account: endpoint({
    ...SIGNED,
    id: 'spot.account',
    clientMethod: 'account',
    method: 'GET',
    path: '/api/v3/account',
    summary: 'Account information and balances.',
    permission: 'SPOT_ACCOUNT_READ',
    weight: 10,
    buckets: ['ip-weight', 'spot-account'],
    request: signedNoParamsRequest,
    response: accountSchema,
    example: {},
  }),
  myTrades: endpoint({
    ...SIGNED,
    id: 'spot.myTrades',
    clientMethod: 'myTrades',
    method: 'GET',
    path: '/api/v3/myTrades',
    summary: 'Own trades of one symbol (past month only).',
    permission: 'SPOT_ACCOUNT_READ',
    weight: 10,
    request: myTradesRequest,
    response: myTradesSchema,
    example: { symbol: 'BTCUSDT', limit: 100 },
    notes: 'Ids are opaque strings (hex trade ids, C02__ order ids); startTime > endTime is refused.',
  }),
  tradeFee: endpoint({
    ...SIGNED,
    id: 'spot.tradeFee',
    clientMethod: 'tradeFee',
    method: 'GET',
    path: '/api/v3/tradeFee',
    summary: 'Maker and taker commission rates of a symbol.',
    permission: 'SPOT_ACCOUNT_READ',
    weight: 20,
    envelope: 'spot-wrapped',
    request: tradeFeeRequest,
    response: tradeFeeSchema,
    example: { symbol: 'BTCUSDT' },
    notes: 'Rates parsed as decimals: the field list says long, samples show fractions.',
  }),
  enablePlatformDeduct: endpoint({
    ...SIGNED,
    id: 'spot.enablePlatformDeduct',
    clientMethod: 'enablePlatformDeduct',
    method: 'POST',
    path: '/api/v3/platformDeduct/enable',
    section: '4.3',
    summary: 'Turns platform-token fee deduction on or off.',
    permission: 'SPOT_DEAL_WRITE',
    weight: 1,
    envelope: 'spot-wrapped',
    request: enablePlatformDeductRequest,
    response: platformDeductSchema,
    example: { platformDeductEnable: true },
  }),
  platformDeductStatus: endpoint({
    ...SIGNED,
    id: 'spot.platformDeductStatus',
    clientMethod: 'platformDeductStatus',
    method: 'GET',
    path: '/api/v3/platformDeduct/enable',
    section: '4.3',
    summary: 'Whether platform-token fee deduction is on.',
    permission: 'SPOT_DEAL_READ',
    weight: 1,
    envelope: 'spot-wrapped',
    request: signedNoParamsRequest,
    response: platformDeductSchema,
    example: {},
  }),
};
