/**
 * Self-trade prevention membership (spot-api.md §2.8). STP acts only when the taker's stpMode is not
 * empty AND taker and maker share a strategy group; an account meets its own orders only when it is in
 * at least one group (no groups → self-trades happen and are flagged isSelfTrade).
 *
 * The STP-group endpoints (a later issue) can manage an StpGroups instance, or hand the venue any
 * other `SameStpGroup` predicate.
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
