/**
 * A change counter per account: bumped wherever the venue changes an account's open orders, positions
 * or balances, whether or not anyone listens to the venue's events. A reader that keeps an account's
 * answers between polls (the backtest's simulated venue) compares the counter instead of emptying its
 * caches on every event of every account: the crowd's placements then neither empty our caches nor
 * make the venue build events just to say so (issue 12).
 *
 * Not a field of AccountState: the emulator's snapshot writes an account's fields, and an older
 * snapshot restored onto a field it lacks would delete it. After a restore the counters carry on from
 * where they were (no reader of them is restored, so none compares across a restore).
 */
import type { AccountState } from './contract-state.js';

/**
 * The counter sits on the account under a symbol: the snapshot writes and restores an object's string
 * keys only (Object.keys), so it is neither written nor deleted by a restore, as with the WeakMap this
 * replaced — whose lookup on each of the eight or so bumps of a maker+taker cycle was 2 % of it.
 */
const CHANGES = Symbol('account changes');

interface Counted {
  [CHANGES]?: number;
}

/** Notes that `acct`'s orders, positions or balances just changed. */
export function accountChanged(acct: AccountState): void {
  const a = acct as Counted;
  a[CHANGES] = (a[CHANGES] ?? 0) + 1;
}

/** How many changes `acct` has seen (equal values: nothing changed in between). */
export function accountChangeCount(acct: AccountState): number {
  return (acct as Counted)[CHANGES] ?? 0;
}
