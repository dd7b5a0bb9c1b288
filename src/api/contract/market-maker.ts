/** contract-api.md §4.7: self-trade-prevention groups, market-maker accounts only. */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { CONTRACT_ENTRY, noParams } from './contract-defaults.js';
import { text, uidList } from './params.js';
import { common, int, list, num, obj, opt, strList } from './response-primitives.js';

export const stpGroupSchema = obj({
  groupName: z.string(),
  /** Sub-account UIDs as strings. */
  blackList: strList,
  createTime: opt(int),
  updateTime: opt(int),
});
export type StpGroup = z.output<typeof stpGroupSchema>;

const configName = text(1, 64);

export const contractMarketMakerEndpoints = {
  stpBlacklist: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.stpBlacklist',
    clientMethod: 'stpBlacklist',
    method: 'GET',
    path: '/api/v1/private/market_maker/self_trade/blacklist',
    section: '4.7',
    summary: 'STP groups',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'query',
    request: z
      .strictObject({ configName: configName.optional() })
      .optional()
      .transform((v) => v ?? {}),
    response: list(stpGroupSchema),
    example: { configName: 'mm-group-1' },
    marketMakerOnly: true,
    notes: 'configName is camelCase as the document shows; no length limit documented, we allow 1-64 characters.',
  }),
  searchStpBlacklist: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.searchStpBlacklist',
    clientMethod: 'searchStpBlacklist',
    method: 'GET',
    path: '/api/v1/private/market_maker/self_trade/blacklist/search',
    section: '4.7',
    summary: 'STP group search (the document shows no parameters and a common response)',
    auth: 'signed',
    permission: 'ORDER_READ',
    pathParams: [],
    encoding: 'none',
    request: noParams,
    response: common,
    example: {},
    marketMakerOnly: true,
    notes: 'The document gives neither parameters nor data; any payload is passed through.',
  }),
  createStpBlacklist: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.createStpBlacklist',
    clientMethod: 'createStpBlacklist',
    method: 'POST',
    path: '/api/v1/private/market_maker/self_trade/blacklist/create',
    section: '4.7',
    summary: 'Create an STP group',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({ configName, blacklist: uidList }),
    response: num,
    example: { configName: 'mm-group-1', blacklist: [12345678, 23456789] },
    marketMakerOnly: true,
    notes: 'blacklist is a list of numbers (UIDs) on the wire; digit strings are accepted and sent as numbers.',
  }),
  updateStpBlacklist: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.updateStpBlacklist',
    clientMethod: 'updateStpBlacklist',
    method: 'POST',
    path: '/api/v1/private/market_maker/self_trade/blacklist/update',
    section: '4.7',
    summary: 'Replace the members of an STP group',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({ configName, blacklist: uidList }),
    response: common,
    example: { configName: 'mm-group-1', blacklist: [12345678] },
    marketMakerOnly: true,
  }),
  deleteStpBlacklist: endpoint({
    ...CONTRACT_ENTRY,
    id: 'contract.deleteStpBlacklist',
    clientMethod: 'deleteStpBlacklist',
    method: 'POST',
    path: '/api/v1/private/market_maker/self_trade/blacklist/delete',
    section: '4.7',
    summary: 'Delete an STP group',
    auth: 'signed',
    permission: 'ORDER_PLACE',
    pathParams: [],
    encoding: 'json',
    request: z.strictObject({ configName }),
    response: common,
    example: { configName: 'mm-group-1' },
    marketMakerOnly: true,
  }),
} as const;
