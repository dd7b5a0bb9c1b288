/**
 * Spot STP strategy groups (spot-api.md §4.5), the per-account commission rates (tradeFee) and the
 * offline-symbol list derived from the configured pairs' status.
 *
 * Refusals (codes the document leaves open, chosen from the venue's table):
 *   sub-account operating, or a UID outside the caller's master account   700007 (no permission)
 *   duplicate name, more than 10 groups, unknown group id                  730002 (input invalid)
 * Deletions answer `data: true` with msg "delete success" (the document: "a msg field holds the
 * delete status"). tradeGroupId goes out as a number, as in the samples.
 */
import type { EndpointDef } from '../../api/endpoint.js';
import { spotStpGroupEndpoints } from '../../api/spot/stp-groups.js';
import type { StpGroupRecord, StpGroupRefusal } from '../../venue/spot/stp-groups.js';
import type { SpotEngine } from '../engine/spot-engine.js';
import { spotInstrumentOf, type EmulatorContext } from '../emulator-context.js';
import { WireError } from '../http/wire-error.js';
import type { AccountExtServices } from './account-ext-services.js';
import { SpotWrapped, type ApiCall, type EndpointHandler } from './handler.js';

const CODE_OF: Readonly<Record<StpGroupRefusal, number>> = {
  not_master: 700007,
  foreign_uid: 700007,
  name_taken: 730002,
  too_many_groups: 730002,
  group_not_found: 730002,
};

const refused = (r: { refusal: StpGroupRefusal; message: string }): WireError => new WireError('spot', CODE_OF[r.refusal], r.message, 400);

const idOf = (id: string): number | string => (Number.isSafeInteger(Number(id)) ? Number(id) : id);

function groupWire(g: StpGroupRecord, uids?: readonly string[]): Record<string, unknown> {
  return {
    tradeGroupName: g.tradeGroupName,
    tradeGroupId: idOf(g.tradeGroupId),
    ...(uids !== undefined ? { tradeGroupUid: uids.join(',') } : {}),
    createTime: g.createTime,
    updateTime: g.updateTime,
  };
}

const uidsOf = (list: string): string[] =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export function spotAccountExtHandlers(ctx: EmulatorContext, engine: SpotEngine, ext: AccountExtServices): Record<string, EndpointHandler> {
  const groups = () => ext.stpGroups;
  return {
    'spot.createStpGroup': (c: ApiCall<{ tradeGroupName: string }>) => {
      const r = groups().create(c.account!.id, c.params.tradeGroupName);
      if (!r.ok) throw refused(r);
      return groupWire(r.value);
    },
    'spot.queryStpGroups': (c: ApiCall<{ tradeGroupName: string }>) =>
      groups()
        .byName(c.account!.id, c.params.tradeGroupName)
        .map((g) => groupWire(g, g.uids)),
    'spot.deleteStpGroup': (c: ApiCall<{ tradeGroupId: string }>) => {
      const r = groups().delete(c.account!.id, c.params.tradeGroupId);
      if (!r.ok) throw refused(r);
      return new SpotWrapped(true, 0, 'delete success');
    },
    'spot.addStpGroupUid': (c: ApiCall<{ uid: string; tradeGroupId: string }>) => {
      const r = groups().addUids(c.account!.id, c.params.tradeGroupId, uidsOf(c.params.uid));
      if (!r.ok) throw refused(r);
      return groupWire(r.value.group, r.value.added);
    },
    'spot.deleteStpGroupUid': (c: ApiCall<{ uid: string; tradeGroupId: string }>) => {
      const r = groups().removeUids(c.account!.id, c.params.tradeGroupId, uidsOf(c.params.uid));
      if (!r.ok) throw refused(r);
      return new SpotWrapped(true, 0, 'delete success');
    },
    // Paused (status 2) and offline (status 3) pairs of the config, with whatever the context lists.
    'spot.offlineSymbols': () => {
      const listed = new Map(ctx.offlineSymbols.map((o) => [o.symbol, { ...o }]));
      for (const i of ctx.spotInstruments.values())
        if ((i.status === '2' || i.status === '3') && !listed.has(i.symbol))
          listed.set(i.symbol, { symbol: i.symbol, state: i.status === '2' ? 2 : 3 });
      return { data: [...listed.values()] };
    },
    // The account's own rates (per-account overrides included); the venue answers numbers here.
    'spot.tradeFee': (c: ApiCall<{ symbol: string }>) => {
      const i = spotInstrumentOf(ctx, c.params.symbol);
      const r = engine.reader.feeRates(c.account!.id, i.symbol) ?? { maker: i.makerCommission, taker: i.takerCommission };
      return { makerCommission: r.maker.toNumber(), takerCommission: r.taker.toNumber() };
    },
  };
}

/**
 * Extra routes: add-UID is listed as GET in the document's path line and as POST in its example, so
 * the emulator answers both (the catalogue, and so our client, uses POST).
 */
export const SPOT_ACCOUNT_EXT_ROUTES: readonly EndpointDef[] = [{ ...spotStpGroupEndpoints.addStpGroupUid, method: 'GET' }];
