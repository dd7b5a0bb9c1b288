/**
 * Self-trade-prevention strategy groups (spot-api.md §4.5). All (E)-wrapped, weight 20, master account only.
 */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { bool, int, obj, opt, str, idParam } from '../wire.js';
import { commaList } from './common.js';
import { paramsObject, recvWindowP, wireParam } from './params.js';

// ---------- requests ----------

export const tradeGroupNameP = wireParam(z.string().trim().min(1).max(64), 'a group name (1..64 characters)');
export const tradeGroupIdP = wireParam(idParam, 'a numeric group id');

/** UIDs as a list or a comma-separated string; sent comma-separated. */
const UID = /^[A-Za-z0-9_-]{1,64}$/;
export const uidListP = wireParam(
  z
    .union([z.string(), z.number().int().nonnegative(), z.array(z.union([z.string(), z.number().int().nonnegative()])).readonly()])
    .transform((v) => (Array.isArray(v) ? v.map(String) : String(v).split(',')).map((s) => s.trim()))
    .pipe(z.array(z.string().regex(UID)).min(1))
    .transform((list) => list.join(',')),
  'one or more UIDs (comma-separated)',
);

export const createStpGroupRequest = paramsObject({ tradeGroupName: tradeGroupNameP, recvWindow: recvWindowP.optional() });
export const queryStpGroupsRequest = paramsObject({ tradeGroupName: tradeGroupNameP, recvWindow: recvWindowP.optional() });
export const deleteStpGroupRequest = paramsObject({ tradeGroupId: tradeGroupIdP, recvWindow: recvWindowP.optional() });
export const stpGroupUidRequest = paramsObject({ uid: uidListP, tradeGroupId: tradeGroupIdP, recvWindow: recvWindowP.optional() });

// ---------- responses (the `data` part) ----------

/** tradeGroupId is a string in the field list and a number in samples: always a string here. */
export const spotStpGroupSchema = obj({
  tradeGroupName: z.string(),
  tradeGroupId: str,
  /** Comma-separated UIDs on the wire; a list here. */
  tradeGroupUid: opt(commaList),
  createTime: opt(int),
  updateTime: opt(int),
});
export type SpotStpGroup = z.output<typeof spotStpGroupSchema>;
export const stpGroupListSchema = z.array(spotStpGroupSchema);

/** Deletions answer `data: true` (the envelope's msg holds the status text). */
export const stpDeletedSchema = bool;

// ---------- entries ----------

const STP = {
  api: 'spot',
  section: '4.5',
  auth: 'signed',
  weight: 20,
  buckets: ['ip-weight'],
  pathParams: [],
  encoding: 'query',
  envelope: 'spot-wrapped',
} as const;

export const spotStpGroupEndpoints = {
  createStpGroup: endpoint({
    ...STP,
    id: 'spot.createStpGroup',
    clientMethod: 'createStpGroup',
    method: 'POST',
    path: '/api/v3/strategy/group',
    summary: 'Creates an STP strategy group (at most 10 per master account).',
    permission: 'SPOT_ACCOUNT_WRITE',
    request: createStpGroupRequest,
    response: spotStpGroupSchema,
    example: { tradeGroupName: 'desk-a' },
  }),
  queryStpGroups: endpoint({
    ...STP,
    id: 'spot.queryStpGroups',
    clientMethod: 'queryStpGroups',
    method: 'GET',
    path: '/api/v3/strategy/group',
    summary: 'STP strategy groups with their UIDs.',
    permission: 'SPOT_ACCOUNT_READ',
    request: queryStpGroupsRequest,
    response: stpGroupListSchema,
    example: { tradeGroupName: 'desk-a' },
    notes: 'tradeGroupName is required, as the doc says.',
  }),
  deleteStpGroup: endpoint({
    ...STP,
    id: 'spot.deleteStpGroup',
    clientMethod: 'deleteStpGroup',
    method: 'DELETE',
    path: '/api/v3/strategy/group',
    summary: 'Deletes an STP strategy group.',
    permission: 'SPOT_ACCOUNT_WRITE',
    request: deleteStpGroupRequest,
    response: stpDeletedSchema,
    example: { tradeGroupId: '1001' },
  }),
  addStpGroupUid: endpoint({
    ...STP,
    id: 'spot.addStpGroupUid',
    clientMethod: 'addStpGroupUid',
    method: 'POST',
    path: '/api/v3/strategy/group/uid',
    summary: 'Adds UIDs to an STP strategy group.',
    permission: 'SPOT_ACCOUNT_WRITE',
    request: stpGroupUidRequest,
    response: spotStpGroupSchema,
    example: { uid: ['10000001', '10000002'], tradeGroupId: '1001' },
    notes:
      'The doc gives GET in the path line and POST in the request example: POST chosen (as in the example); the emulator accepts both.',
  }),
  deleteStpGroupUid: endpoint({
    ...STP,
    id: 'spot.deleteStpGroupUid',
    clientMethod: 'deleteStpGroupUid',
    method: 'DELETE',
    path: '/api/v3/strategy/group/uid',
    summary: 'Removes UIDs from an STP strategy group.',
    permission: 'SPOT_ACCOUNT_WRITE',
    request: stpGroupUidRequest,
    response: stpDeletedSchema,
    example: { uid: '10000001', tradeGroupId: '1001' },
  }),
};
