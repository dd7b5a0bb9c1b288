/** contract-api.md §4.4: positions, leverage, margin, position mode. */
import { z } from 'zod';
import { MARGIN_CHANGE_TYPES } from '../../domain/contract-enums.js';
import { endpoint } from '../endpoint.js';
import { CONTRACT_ENTRY, noParams } from './contract-defaults.js';
import { contractPositionSchema } from './order-schemas.js';
import { boolParam, checkSpan, code, intIn, jsonDec, longId, msTime, pageNum, pageSize, symbol } from './params.js';
import { bool, common, dec, int, list, obj, opt, page, venueId } from './response-primitives.js';

const positionTypeCode = code([1, 2], '1 long, 2 short');

export const fundingRecordSchema = obj({
  id: venueId,
  symbol: z.string(),
  positionId: opt(venueId),
  positionType: int,
  positionValue: opt(dec),
  funding: dec,
  rate: dec,
  settleTime: int,
});
export type FundingRecord = z.output<typeof fundingRecordSchema>;

export const leverageTierSchema = obj({
  level: int,
  maxVol: dec,
  mmr: dec,
  imr: dec,
  positionType: int,
  openType: opt(int),
  leverage: opt(int),
  limitBySys: opt(bool),
  currentMmr: opt(dec),
  maxLeverageView: opt(int),
});
export type LeverageTier = z.output<typeof leverageTierSchema>;

/** position_mode: the real venue answers the bare code (`"data": 2`); an object form is read too. */
export const positionModeResponse = z
  .union([int, obj({ positionMode: int })])
  .transform((v) => (typeof v === 'number' ? v : v.positionMode))
  .pipe(z.union([z.literal(1), z.literal(2)]));

const historyPositionsRequest = z
  .strictObject({
    symbol: symbol.optional(),
    type: positionTypeCode.optional(),
    start_time: msTime.optional(),
    end_time: msTime.optional(),
    position_type: positionTypeCode.optional(),
    page_num: pageNum,
    page_size: pageSize(100),
  })
  .superRefine((o, ctx) => checkSpan(ctx, o.start_time, o.end_time, 'end_time'));

const fundingRecordsRequest = z
  .strictObject({
    symbol: symbol.optional(),
    position_id: longId.optional(),
    page_num: pageNum,
    page_size: pageSize(100),
    // The document marks these three required; the exchange's own reference lists only symbol,
    // position_id, page_num and page_size, and ccxt's fetchFundingHistory sends only symbol (mexc.ts):
    // the real exchange accepts them as optional filters, so do we.
    position_type: positionTypeCode.optional(),
    start_time: msTime.optional(),
    end_time: msTime.optional(),
  })
  .superRefine((o, ctx) => checkSpan(ctx, o.start_time, o.end_time, 'end_time'));

/** With a positionId the venue knows the rest; without one it needs openType, symbol and positionType. */
const changeLeverageRequest = z
  .strictObject({
    leverage: intIn(1, Number.MAX_SAFE_INTEGER, 'an integer leverage >= 1'),
    positionId: longId.optional(),
    openType: code([1, 2], '1 isolated, 2 cross').optional(),
    symbol: symbol.optional(),
    positionType: positionTypeCode.optional(),
    leverageMode: code([1, 2], '1 advanced, 2 simple').optional(),
    marginSelected: boolParam.optional(),
    leverageSelected: boolParam.optional(),
  })
  .superRefine((o, ctx) => {
    if (o.positionId !== undefined) return;
    for (const key of ['openType', 'symbol', 'positionType'] as const) {
      if (o[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `${key} (required when no positionId is given)` });
    }
  });

export const contractPositionEndpoints = {
  historyPositions: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.historyPositions',
    clientMethod: 'historyPositions',
    method: 'GET',
    path: '/api/v1/private/position/list/history_positions',
    section: '4.4',
    summary: 'Closed positions (paged)',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: historyPositionsRequest,
    response: page(contractPositionSchema),
    example: { symbol: 'ETH_USDT', type: 1, page_num: 1, page_size: 20 },
    notes:
      'The document shows a page object; the real exchange answers a bare list (its own example, ccxt fetchPositionsHistory, Mexc.Net): ' +
      'the emulator serves the list, the client accepts both and wraps a list as a page without counters.',
  }),
  openPositions: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.openPositions',
    clientMethod: 'openPositions',
    method: 'GET',
    path: '/api/v1/private/position/open_positions',
    section: '4.4',
    summary: 'Open positions',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: z
      .strictObject({ symbol: symbol.optional(), positionId: longId.optional() })
      .optional()
      .transform((v) => v ?? {}),
    response: list(contractPositionSchema),
    example: { symbol: 'ETH_USDT' },
    notes: 'positionId is camelCase as the document shows.',
  }),
  fundingRecords: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.fundingRecords',
    clientMethod: 'fundingRecords',
    method: 'GET',
    path: '/api/v1/private/position/funding_records',
    section: '4.4',
    summary: 'Funding fee records (paged)',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: fundingRecordsRequest,
    response: page(fundingRecordSchema),
    example: { symbol: 'BTC_USDT', position_type: 1, start_time: 1766599200000, end_time: 1767204000000, page_num: 1, page_size: 20 },
    notes:
      'position_type, start_time and end_time are optional as on the real exchange (the document marks them required; ' +
      'the exchange reference and ccxt send only symbol and paging).',
  }),
  positionLeverage: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.positionLeverage',
    clientMethod: 'positionLeverage',
    method: 'GET',
    path: '/api/v1/private/position/leverage',
    section: '4.4',
    summary: 'Leverage and risk tier per side',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: z.strictObject({ symbol }),
    response: list(leverageTierSchema),
    example: { symbol: 'BTC_USDT' },
  }),
  positionMode: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.positionMode',
    clientMethod: 'positionMode',
    method: 'GET',
    path: '/api/v1/private/position/position_mode',
    section: '4.4',
    summary: 'Position mode: 1 hedged, 2 one-way',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'none',
    request: noParams,
    response: positionModeResponse,
    example: {},
  }),
  changeMargin: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changeMargin',
    clientMethod: 'changeMargin',
    method: 'POST',
    path: '/api/v1/private/position/change_margin',
    section: '4.4',
    summary: 'Add or remove isolated margin',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({ positionId: longId, amount: jsonDec, type: z.enum(MARGIN_CHANGE_TYPES) }),
    response: common,
    example: { positionId: '1394650', amount: '0.5', type: 'ADD' },
  }),
  changeAutoAddIm: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changeAutoAddIm',
    clientMethod: 'changeAutoAddIm',
    method: 'POST',
    path: '/api/v1/private/position/change_auto_add_im',
    section: '4.4',
    summary: 'Automatic margin top-up on or off',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({ positionId: longId, isEnabled: boolParam }),
    response: common,
    example: { positionId: '1394650', isEnabled: true },
  }),
  changeLeverage: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changeLeverage',
    clientMethod: 'changeLeverage',
    method: 'POST',
    path: '/api/v1/private/position/change_leverage',
    section: '4.4',
    summary: 'Change leverage of a position, or of a side before a position exists',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: changeLeverageRequest,
    response: common,
    example: { leverage: 20, openType: 1, symbol: 'BTC_USDT', positionType: 1 },
  }),
  changePositionMode: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changePositionMode',
    clientMethod: 'changePositionMode',
    method: 'POST',
    path: '/api/v1/private/position/change_position_mode',
    section: '4.4',
    summary: 'Switch hedged / one-way (only with no orders, plan orders or positions)',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({ positionMode: code([1, 2], '1 hedged, 2 one-way') }),
    response: common,
    example: { positionMode: 2 },
  }),
  reversePosition: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.reversePosition',
    clientMethod: 'reversePosition',
    method: 'POST',
    path: '/api/v1/private/position/reverse',
    section: '4.4',
    summary: 'Reverse a position',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({ symbol, positionId: longId, vol: jsonDec }),
    response: common,
    example: { symbol: 'ETH_USDT', positionId: '1394650', vol: 1 },
    placement: true,
  }),
  closeAll: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.closeAll',
    clientMethod: 'closeAll',
    method: 'POST',
    path: '/api/v1/private/position/close_all',
    section: '4.4',
    summary: 'Close every position at market',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'none',
    request: noParams,
    response: common,
    example: {},
    placement: true,
    notes: 'The document says data is a list without describing it: passed through untouched.',
  }),
  changeRiskLevel: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.changeRiskLevel',
    clientMethod: 'changeRiskLevel',
    method: 'POST',
    path: '/api/v1/private/account/change_risk_level',
    section: '4.4',
    summary: 'Disabled: always fails with code 8817',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'none',
    request: noParams,
    response: common,
    example: {},
    notes:
      'Disabled on the venue (code 8817, risk limit feature upgraded); parameters are not documented, so none are sent. The client should map 8817 to FeatureDisabled.',
  }),
} as const;
