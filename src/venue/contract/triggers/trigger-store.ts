/**
 * Storage shared by the three trigger kinds: records by id and per account in creation order, with
 * final records capped per account (the oldest final record goes first; live ones are never dropped),
 * and the page object of the paged lists.
 */
import type { AccountId, ContractSymbol } from '../../../core/ids.js';
import type { ContractSpec } from '../contract-spec.js';
import type { PageQuery } from '../contract-requests.js';
import type { Page } from '../contract-views.js';
import type { TriggerHost } from './trigger-port.js';

export type TriggerKind = 'stop' | 'plan' | 'track';

export interface TriggerRecord {
  readonly kind: TriggerKind;
  /** Creation order across all kinds (records are activated in this order, and evaluated in it). */
  readonly seq: number;
  readonly id: string;
  readonly account: AccountId;
  readonly symbol: ContractSymbol;
  readonly spec: ContractSpec;
}

/** What each kind gets from the trigger book. */
export interface TriggerRegistry {
  readonly host: TriggerHost;
  next(): { seq: number; id: string };
  /** Starts evaluating the record on price updates of its contract. */
  activate(rec: TriggerRecord): void;
  /** Stops evaluating it (it reached a final state). */
  deactivate(rec: TriggerRecord): void;
  /** The price(s) or trend a live record acts on changed: re-keys it in the book's price index. */
  reindex(rec: TriggerRecord): void;
  spec(symbol: string): ContractSpec | undefined;
}

export class RecordStore<R extends TriggerRecord> {
  private readonly byId = new Map<string, R>();
  private readonly byAccount = new Map<string, R[]>();
  private readonly finals = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly isFinal: (r: R) => boolean,
  ) {}

  add(r: R): void {
    this.byId.set(r.id, r);
    let list = this.byAccount.get(r.account);
    if (list === undefined) this.byAccount.set(r.account, (list = []));
    list.push(r);
  }

  /** The account's record with this id (another account's id is "not found"). */
  get(account: string, id: string | number): R | undefined {
    const r = this.byId.get(String(id));
    return r !== undefined && r.account === account ? r : undefined;
  }

  /** The account's records, oldest first. */
  list(account: string): readonly R[] {
    return this.byAccount.get(account) ?? [];
  }

  all(): IterableIterator<R> {
    return this.byId.values();
  }

  /**
   * Call once when a record becomes final; drops the account's oldest final records beyond the limit
   * and answers the one it dropped, if any (so indexes kept beside the store can forget it).
   */
  finished(r: R): R | undefined {
    const n = (this.finals.get(r.account) ?? 0) + 1;
    if (n <= this.limit) {
      this.finals.set(r.account, n);
      return undefined;
    }
    const list = this.byAccount.get(r.account)!;
    const i = list.findIndex((x) => this.isFinal(x));
    const [dropped] = list.splice(i, 1);
    this.byId.delete(dropped!.id);
    this.finals.set(r.account, n - 1);
    return dropped;
  }
}

/** Newest first, one page (page size 1–1000, default 20). */
export function pageOf<S, T>(newestFirst: readonly S[], q: PageQuery, map: (s: S) => T): Page<T> {
  const pageSize = Math.max(1, Math.min(1000, Math.floor(q.pageSize ?? 20)));
  const currentPage = Math.max(1, Math.floor(q.pageNum ?? 1));
  const start = (currentPage - 1) * pageSize;
  return {
    pageSize,
    totalCount: newestFirst.length,
    totalPage: Math.ceil(newestFirst.length / pageSize),
    currentPage,
    resultList: newestFirst.slice(start, start + pageSize).map(map),
  };
}

export const inTimeRange = (t: number, start: number | undefined, end: number | undefined): boolean =>
  (start === undefined || t >= start) && (end === undefined || t <= end);
