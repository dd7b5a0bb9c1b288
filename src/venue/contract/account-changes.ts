/**
 * A change counter per account: bumped wherever the venue changes an account's open orders, positions
 * or balances, whether or not anyone listens to the venue's events. A reader that keeps an account's
 * answers between polls (the backtest's simulated venue) compares the counter instead of emptying its
 * caches on every event of every account: the crowd's placements then neither empty our caches nor
 * make the venue build events just to say so (issue 12).
 *
 * Kept in a module WeakMap, not on AccountState: the emulator's snapshot writes an account's fields,
 * and an older snapshot restored onto a field it lacks would delete it. After a restore the counters
 * carry on from where they were (no reader of them is restored, so none compares across a restore).
 */
import type { AccountState } from './contract-state.js';

/** One counter per account, changed in place: a bump is one WeakMap lookup, not a lookup and a store (about eight per fill). */
interface Counter {
  n: number;
}

const counts = new WeakMap<AccountState, Counter>();

/** Notes that `acct`'s orders, positions or balances just changed. */
export function accountChanged(acct: AccountState): void {
  const c = counts.get(acct);
  if (c === undefined) counts.set(acct, { n: 1 });
  else c.n++;
}

/** How many changes `acct` has seen (equal values: nothing changed in between). */
export function accountChangeCount(acct: AccountState): number {
  return counts.get(acct)?.n ?? 0;
}
