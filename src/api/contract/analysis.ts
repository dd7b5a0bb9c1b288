/** contract-api.md §4.2: profit-and-loss analysis endpoints (permission: read account information). */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import {
  assetAnalysisSchema,
  assetAnalysisV3Schema,
  calendarDailySchema,
  calendarMonthlySchema,
  recentPnlSchema,
  todayPnlSchema,
} from './account-schemas.js';
import { CONTRACT_ENTRY, noParams } from './contract-defaults.js';
import { checkSpan, code, currency, msTime, symbol, text } from './params.js';
import { common, dec } from './response-primitives.js';

/** 0 all, 1 USDT-margined, 2 coin-margined, 3 USDC-margined. */
const reverse = code([0, 1, 2, 3], '0 all, 1 USDT-margined, 2 coin-margined, 3 USDC-margined');
/** 0 no, 1 yes. */
const includeUnrealisedPnl = code([0, 1], '0 no, 1 yes');

const optionalFilters = { reverse: reverse.optional(), includeUnrealisedPnl: includeUnrealisedPnl.optional() };

const assetAnalysisRequest = z
  .strictObject({
    type: code([1, 2, 3, 4], '1 this week, 2 this month, 3 all, 4 custom range'),
    currency,
    startTime: msTime.optional(),
    endTime: msTime.optional(),
  })
  .superRefine((o, ctx) => {
    if (o.type === 4) {
      if (o.startTime === undefined)
        ctx.addIssue({ code: 'custom', path: ['startTime'], message: 'a time in ms (required with type 4, custom range)' });
      if (o.endTime === undefined)
        ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'a time in ms (required with type 4, custom range)' });
    }
    checkSpan(ctx, o.startTime, o.endTime, 'endTime');
  });

const analysisV3Request = z
  .strictObject({ startTime: msTime, endTime: msTime, ...optionalFilters, symbol: symbol.optional() })
  .superRefine((o, ctx) => checkSpan(ctx, o.startTime, o.endTime, 'endTime'));

const calendarDailyRequest = z
  .strictObject({ startTime: msTime, endTime: msTime, ...optionalFilters })
  .superRefine((o, ctx) => checkSpan(ctx, o.startTime, o.endTime, 'endTime'));

const exportRequest = z
  .strictObject({
    startTime: msTime.optional(),
    endTime: msTime.optional(),
    ...optionalFilters,
    symbol: symbol.optional(),
    fileType: code([1, 2], '1 Excel, 2 PDF').optional(),
    language: text(1, 16).optional(),
  })
  .superRefine((o, ctx) => checkSpan(ctx, o.startTime, o.endTime, 'endTime'));

export const contractAnalysisEndpoints = {
  assetAnalysis: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.assetAnalysis',
    clientMethod: 'assetAnalysis',
    method: 'GET',
    path: '/api/v1/private/account/asset/analysis/{type}',
    section: '4.2',
    summary: 'Profit and loss analysis of a period',
    auth: 'signed',
    permission: 'ACCOUNT_READ',
    pathParams: ['type'],
    encoding: 'query',
    request: assetAnalysisRequest,
    response: assetAnalysisSchema,
    example: { type: 4, currency: 'USDT', startTime: 1766599200000, endTime: 1767204000000 },
    notes:
      'Parameter names camelCase (startTime/endTime) as the document shows for this GET; both required with type 4 (custom range). Routers must match analysis/today_pnl and analysis/export before {type}.',
  }),
  yesterdayPnl: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.yesterdayPnl',
    clientMethod: 'yesterdayPnl',
    method: 'POST',
    path: '/api/v1/private/account/asset/analysis/yesterday_pnl',
    section: '4.2',
    summary: "Yesterday's profit and loss in USDT",
    auth: 'signed',
    permission: 'ACCOUNT_READ',
    pathParams: [],
    encoding: 'none',
    request: noParams,
    response: dec,
    example: {},
  }),
  assetAnalysisV3: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.assetAnalysisV3',
    clientMethod: 'assetAnalysisV3',
    method: 'POST',
    path: '/api/v1/private/account/asset/analysis/v3',
    section: '4.2',
    summary: 'Profit and loss analysis (v3)',
    auth: 'signed',
    permission: 'ACCOUNT_READ',
    pathParams: [],
    encoding: 'json',
    request: analysisV3Request,
    response: assetAnalysisV3Schema,
    example: { startTime: 1766599200000, endTime: 1767204000000, reverse: 1, includeUnrealisedPnl: 1 },
  }),
  calendarDailyPnl: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.calendarDailyPnl',
    clientMethod: 'calendarDailyPnl',
    method: 'POST',
    path: '/api/v1/private/account/asset/analysis/calendar/daily/v3',
    section: '4.2',
    summary: 'Daily profit and loss calendar',
    auth: 'signed',
    permission: 'ACCOUNT_READ',
    pathParams: [],
    encoding: 'json',
    request: calendarDailyRequest,
    response: calendarDailySchema,
    example: { startTime: 1766599200000, endTime: 1767204000000, reverse: 0 },
  }),
  calendarMonthlyPnl: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.calendarMonthlyPnl',
    clientMethod: 'calendarMonthlyPnl',
    method: 'POST',
    path: '/api/v1/private/account/asset/analysis/calendar/monthly/v3',
    section: '4.2',
    summary: 'Monthly profit and loss calendar',
    auth: 'signed',
    permission: 'ACCOUNT_READ',
    pathParams: [],
    encoding: 'json',
    request: z
      .strictObject(optionalFilters)
      .optional()
      .transform((v) => v ?? {}),
    response: calendarMonthlySchema,
    example: { reverse: 1, includeUnrealisedPnl: 0 },
    notes: 'All parameters optional; an empty JSON object is sent when none are given.',
  }),
  recentPnl: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.recentPnl',
    clientMethod: 'recentPnl',
    method: 'POST',
    path: '/api/v1/private/account/asset/analysis/recent/v3',
    section: '4.2',
    summary: 'Profit and loss of the last 60–360 days',
    auth: 'signed',
    permission: 'ACCOUNT_READ',
    pathParams: [],
    encoding: 'json',
    request: z
      .strictObject({ ...optionalFilters, symbol: symbol.optional() })
      .optional()
      .transform((v) => v ?? {}),
    response: recentPnlSchema,
    example: { reverse: 1, includeUnrealisedPnl: 1, symbol: 'BTC_USDT' },
    notes: 'All parameters optional; an empty JSON object is sent when none are given.',
  }),
  todayPnl: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.todayPnl',
    clientMethod: 'todayPnl',
    method: 'GET',
    path: '/api/v1/private/account/asset/analysis/today_pnl',
    section: '4.2',
    summary: "Today's profit and loss",
    auth: 'signed',
    permission: 'ACCOUNT_READ',
    pathParams: [],
    encoding: 'query',
    request: z
      .strictObject(optionalFilters)
      .optional()
      .transform((v) => v ?? {}),
    response: todayPnlSchema,
    example: { reverse: 1, includeUnrealisedPnl: 1 },
    notes: 'Parameter names camelCase as the document shows for this GET.',
  }),
  exportAnalysis: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.exportAnalysis',
    clientMethod: 'exportAnalysis',
    method: 'GET',
    path: '/api/v1/private/account/asset/analysis/export',
    section: '4.2',
    summary: 'Export the analysis as Excel or PDF',
    auth: 'signed',
    permission: 'ACCOUNT_READ',
    pathParams: [],
    encoding: 'query',
    request: exportRequest,
    response: common,
    example: {
      startTime: 1766599200000,
      endTime: 1767204000000,
      reverse: 1,
      includeUnrealisedPnl: 0,
      symbol: 'BTC_USDT',
      fileType: 1,
      language: 'en',
    },
    requiredHeaders: ['timezone-login'],
    notes:
      'Header timezone-login is required (a UTC offset such as "UTC+8"; the client must supply it). The document gives no response data: whatever comes is passed through. Parameter names camelCase as the document shows.',
  }),
} as const;
