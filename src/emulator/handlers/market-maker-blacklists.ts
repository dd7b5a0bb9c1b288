/**
 * Contract self-trade blacklists of market-maker accounts (contract-api.md §4.7): named groups of
 * sub-account UIDs per market maker. Orders between two accounts listed in one group are self-trades
 * for the contract venue's STP (stpMode on the order decides what happens), as orders of one account
 * always are.
 *
 * Rules chosen where the document is silent: a configName is unique per market maker; the listed UIDs
 * must be the market maker itself or its sub-accounts; update replaces the whole list.
 */
export interface BlacklistGroup {
  readonly id: number;
  readonly groupName: string;
  readonly uids: readonly string[];
  readonly createTime: number;
  readonly updateTime: number;
}

export type BlacklistResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

export interface MarketMakerBlacklistsOptions {
  readonly now: () => number;
  /** Account id of a UID, undefined when unknown. */
  readonly accountOfUid: (uid: string) => string | undefined;
  /** Master account of an account (itself for a master). */
  readonly masterOf: (accountId: string) => string;
}

export class MarketMakerBlacklists {
  private readonly byOwner = new Map<string, Map<string, BlacklistGroup>>();
  private readonly membership = new Map<string, Set<string>>();
  private nextId = 1;

  constructor(private readonly opts: MarketMakerBlacklistsOptions) {}

  list(owner: string, configName?: string): BlacklistGroup[] {
    const groups = [...(this.byOwner.get(owner)?.values() ?? [])];
    return configName === undefined ? groups : groups.filter((g) => g.groupName === configName);
  }

  create(owner: string, configName: string, uids: readonly string[]): BlacklistResult<BlacklistGroup> {
    const groups = this.groupsOf(owner);
    if (groups.has(configName)) return { ok: false, message: `configName ${configName} already exists` };
    const bad = this.foreign(owner, uids);
    if (bad) return { ok: false, message: `uid ${bad} is not a sub-account of this market maker` };
    const now = this.opts.now();
    const g: BlacklistGroup = { id: this.nextId++, groupName: configName, uids: [...new Set(uids)], createTime: now, updateTime: now };
    groups.set(configName, g);
    this.reindex();
    return { ok: true, value: g };
  }

  update(owner: string, configName: string, uids: readonly string[]): BlacklistResult<BlacklistGroup> {
    const groups = this.groupsOf(owner);
    const g = groups.get(configName);
    if (!g) return { ok: false, message: `configName ${configName} does not exist` };
    const bad = this.foreign(owner, uids);
    if (bad) return { ok: false, message: `uid ${bad} is not a sub-account of this market maker` };
    const next = { ...g, uids: [...new Set(uids)], updateTime: this.opts.now() };
    groups.set(configName, next);
    this.reindex();
    return { ok: true, value: next };
  }

  delete(owner: string, configName: string): BlacklistResult<BlacklistGroup> {
    const groups = this.groupsOf(owner);
    const g = groups.get(configName);
    if (!g) return { ok: false, message: `configName ${configName} does not exist` };
    groups.delete(configName);
    this.reindex();
    return { ok: true, value: g };
  }

  /** Both accounts listed in one group (of any market maker). Called on every match: an index lookup. */
  readonly sameGroup = (a: string, b: string): boolean => {
    const ga = this.membership.get(a);
    if (ga === undefined) return false;
    const gb = this.membership.get(b);
    if (gb === undefined) return false;
    for (const g of ga) if (gb.has(g)) return true;
    return false;
  };

  /** account → keys of the groups listing it; rebuilt on every change (changes are rare). */
  private reindex(): void {
    this.membership.clear();
    for (const [owner, groups] of this.byOwner) {
      for (const g of groups.values()) {
        for (const uid of g.uids) {
          const acct = this.opts.accountOfUid(uid);
          if (acct === undefined) continue;
          let set = this.membership.get(acct);
          if (!set) this.membership.set(acct, (set = new Set()));
          set.add(`${owner}\u0000${g.groupName}`);
        }
      }
    }
  }

  private groupsOf(owner: string): Map<string, BlacklistGroup> {
    let m = this.byOwner.get(owner);
    if (!m) this.byOwner.set(owner, (m = new Map()));
    return m;
  }

  private foreign(owner: string, uids: readonly string[]): string | undefined {
    for (const uid of uids) {
      const acct = this.opts.accountOfUid(uid);
      if (acct === undefined || this.opts.masterOf(acct) !== owner) return uid;
    }
    return undefined;
  }
}
