/**
 * Self-trade prevention membership (spot-api.md §2.8). STP acts only when the taker's stpMode is not
 * empty AND taker and maker share a strategy group; an account meets its own orders only when it is in
 * at least one group (no groups → self-trades happen and are flagged isSelfTrade).
 *
 * StpGroupRegistry (below) is the venue side of the strategy-group endpoints: named groups per master
 * account with their rules, mirrored into an StpGroups membership that the matching engine consults.
 */
import type { SpotStpMode } from '../../domain/spot-enums.js';
import { StpAction } from '../book/order-book.js';

export type SameStpGroup = (takerAccountId: string, makerAccountId: string) => boolean;

export class StpGroups {
  private readonly byAccount = new Map<string, Set<string>>();

  join(accountId: string, groupId: string): void {
    let s = this.byAccount.get(accountId);
    if (!s) this.byAccount.set(accountId, (s = new Set()));
    s.add(groupId);
  }

  leave(accountId: string, groupId: string): void {
    const s = this.byAccount.get(accountId);
    if (!s) return;
    s.delete(groupId);
    if (s.size === 0) this.byAccount.delete(accountId);
  }

  removeGroup(groupId: string): void {
    for (const accountId of [...this.byAccount.keys()]) this.leave(accountId, groupId);
  }

  groupsOf(accountId: string): string[] {
    return [...(this.byAccount.get(accountId) ?? [])].sort();
  }

  readonly sameGroup: SameStpGroup = (a, b) => {
    const ga = this.byAccount.get(a);
    if (ga === undefined) return false;
    if (a === b) return true;
    const gb = this.byAccount.get(b);
    if (gb === undefined) return false;
    const [small, large] = ga.size <= gb.size ? [ga, gb] : [gb, ga];
    for (const g of small) if (large.has(g)) return true;
    return false;
  };
}

/** The book action a non-empty stpMode asks for when taker and maker share a group. */
export function stpActionOf(mode: SpotStpMode): StpAction {
  switch (mode) {
    case 'cancel_maker':
      return StpAction.CancelMaker;
    case 'cancel_taker':
      return StpAction.CancelTaker;
    case 'cancel_both':
      return StpAction.CancelBoth;
    default:
      return StpAction.Trade;
  }
}

// ---------------------------------------------------------------- strategy groups (spot-api.md §4.5)

/** One strategy group as the venue keeps it; `uids` in the order they were added. */
export interface StpGroupRecord {
  readonly tradeGroupId: string;
  readonly tradeGroupName: string;
  /** Account id of the master account that owns the group. */
  readonly masterAccountId: string;
  readonly uids: readonly string[];
  readonly createTime: number;
  readonly updateTime: number;
}

/** Who a UID is: its account, and the master account it sits under (itself for a master). */
export interface StpMember {
  readonly accountId: string;
  readonly masterAccountId: string;
}

export type StpGroupRefusal =
  /** The caller is a sub-account (rule 1) or names a UID outside its master account (rule 4). */
  | 'not_master'
  | 'foreign_uid'
  /** Rule 2. */
  | 'name_taken'
  /** Rule 3. */
  | 'too_many_groups'
  | 'group_not_found';

export type StpGroupResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: StpGroupRefusal; readonly message: string };

export interface StpGroupRegistryOptions {
  /** Creation and update times. */
  readonly now: () => number;
  /** The membership the matching engine consults (SpotVenue.stpGroups). */
  readonly membership: StpGroups;
  /** undefined for a UID the venue does not know. */
  readonly memberOfUid: (uid: string) => StpMember | undefined;
  /** The master account an account sits under (itself for a master). */
  readonly masterOf: (accountId: string) => string;
  /** Rule 3 (default 10). */
  readonly maxGroupsPerMaster?: number;
  /** First group id handed out (default 1001). */
  readonly firstGroupId?: number;
}

/**
 * The strategy groups of every master account and the rules of spot-api.md §4.5: only a master
 * account operates, names are unique per master, at most 10 groups per master, only UIDs under the
 * caller's master account. Every change is mirrored into `membership`, so matching sees it at once
 * (STP acts between accounts that share a group; stpGroups.sameGroup above).
 */
export class StpGroupRegistry {
  private readonly groups = new Map<string, StpGroupRecord>();
  private readonly maxGroups: number;
  private nextId: number;

  constructor(private readonly opts: StpGroupRegistryOptions) {
    this.maxGroups = opts.maxGroupsPerMaster ?? 10;
    this.nextId = opts.firstGroupId ?? 1001;
  }

  create(callerAccountId: string, tradeGroupName: string): StpGroupResult<StpGroupRecord> {
    const master = this.requireMaster(callerAccountId);
    if (!master.ok) return master;
    const owned = this.ownedBy(callerAccountId);
    if (owned.some((g) => g.tradeGroupName === tradeGroupName))
      return refuse('name_taken', `tradeGroupName ${tradeGroupName} already exists`);
    if (owned.length >= this.maxGroups) return refuse('too_many_groups', `a master account has at most ${this.maxGroups} strategy groups`);
    const now = this.opts.now();
    const g: StpGroupRecord = {
      tradeGroupId: String(this.nextId++),
      tradeGroupName,
      masterAccountId: callerAccountId,
      uids: [],
      createTime: now,
      updateTime: now,
    };
    this.groups.set(g.tradeGroupId, g);
    return { ok: true, value: g };
  }

  /** The caller's groups with this name (a list, as the endpoint answers); empty when none. */
  byName(callerAccountId: string, tradeGroupName: string): StpGroupRecord[] {
    const master = this.opts.masterOf(callerAccountId);
    return this.ownedBy(master).filter((g) => g.tradeGroupName === tradeGroupName);
  }

  delete(callerAccountId: string, tradeGroupId: string): StpGroupResult<StpGroupRecord> {
    const g = this.ownGroup(callerAccountId, tradeGroupId);
    if (!g.ok) return g;
    this.groups.delete(tradeGroupId);
    this.opts.membership.removeGroup(tradeGroupId);
    return g;
  }

  /** Adds UIDs (already present ones are kept once); answers the group with the UIDs just added. */
  addUids(
    callerAccountId: string,
    tradeGroupId: string,
    uids: readonly string[],
  ): StpGroupResult<{ group: StpGroupRecord; added: string[] }> {
    const g = this.ownGroup(callerAccountId, tradeGroupId);
    if (!g.ok) return g;
    const members = this.resolve(callerAccountId, uids);
    if (!members.ok) return members;
    const added = unique(uids).filter((u) => !g.value.uids.includes(u));
    for (const [uid, m] of members.value) if (added.includes(uid)) this.opts.membership.join(m.accountId, tradeGroupId);
    const next = { ...g.value, uids: [...g.value.uids, ...added], updateTime: this.opts.now() };
    this.groups.set(tradeGroupId, next);
    return { ok: true, value: { group: next, added } };
  }

  removeUids(callerAccountId: string, tradeGroupId: string, uids: readonly string[]): StpGroupResult<StpGroupRecord> {
    const g = this.ownGroup(callerAccountId, tradeGroupId);
    if (!g.ok) return g;
    const members = this.resolve(callerAccountId, uids);
    if (!members.ok) return members;
    const gone = new Set(uids);
    for (const [uid, m] of members.value) if (g.value.uids.includes(uid)) this.opts.membership.leave(m.accountId, tradeGroupId);
    const next = { ...g.value, uids: g.value.uids.filter((u) => !gone.has(u)), updateTime: this.opts.now() };
    this.groups.set(tradeGroupId, next);
    return { ok: true, value: next };
  }

  /** Every group, in creation order (diagnostics, tests). */
  all(): StpGroupRecord[] {
    return [...this.groups.values()];
  }

  private ownedBy(masterAccountId: string): StpGroupRecord[] {
    return [...this.groups.values()].filter((g) => g.masterAccountId === masterAccountId);
  }

  private requireMaster(callerAccountId: string): StpGroupResult<string> {
    if (this.opts.masterOf(callerAccountId) !== callerAccountId)
      return refuse('not_master', 'only a master account may operate strategy groups; sub-accounts cannot');
    return { ok: true, value: callerAccountId };
  }

  private ownGroup(callerAccountId: string, tradeGroupId: string): StpGroupResult<StpGroupRecord> {
    const master = this.requireMaster(callerAccountId);
    if (!master.ok) return master;
    const g = this.groups.get(tradeGroupId);
    // Another master's group is reported as missing: its existence is not the caller's business.
    if (!g || g.masterAccountId !== callerAccountId) return refuse('group_not_found', `strategy group ${tradeGroupId} does not exist`);
    return { ok: true, value: g };
  }

  private resolve(callerAccountId: string, uids: readonly string[]): StpGroupResult<Map<string, StpMember>> {
    const out = new Map<string, StpMember>();
    for (const uid of uids) {
      const m = this.opts.memberOfUid(uid);
      if (!m || m.masterAccountId !== callerAccountId) return refuse('foreign_uid', `uid ${uid} is not under this master account`);
      out.set(uid, m);
    }
    return { ok: true, value: out };
  }
}

function refuse(refusal: StpGroupRefusal, message: string): { ok: false; refusal: StpGroupRefusal; message: string } {
  return { ok: false, refusal, message };
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}
