/**
 * Accounts no price move liquidates although their margin is booked as any account's: a backtest's
 * crowd (venue/market/crowd-accounts.ts), which stands for the rest of the market and holds far more
 * than it can lose (CROWD_DEPOSIT). The liquidation engine, its index and the invariants skip them as
 * they skip the margin-exempt insurance fund; unlike the fund, their orders reserve margin and their
 * positions carry it, so a fill books exactly as before.
 *
 * Why: the crowd's accounts hold cross positions (the other side of every fill), and each fair-price
 * move (three a bar on klines) screened each of them for a breach its deposit rules out: 1,264,085
 * cross screens in the 50.8-day perp-trend run, none of them ever sent to the exact test.
 *
 * Under a symbol, not a field of AccountState, as account-changes.ts: the emulator's snapshot writes an
 * account's string keys, and its format stays as it is (the emulator marks no account so).
 */
import type { AccountState } from './contract-state.js';

const NEVER_LIQUIDATED = Symbol('never liquidated');

interface Marked {
  [NEVER_LIQUIDATED]?: true;
}

/** Marks `acct` as one no price move liquidates (set once, when the venue opens it). */
export function markNeverLiquidated(acct: AccountState): void {
  (acct as Marked)[NEVER_LIQUIDATED] = true;
}

/** Whether the liquidation engine watches `acct`: not the insurance fund, not a marked account. */
export function isLiquidatable(acct: AccountState): boolean {
  return !acct.exempt && (acct as Marked)[NEVER_LIQUIDATED] !== true;
}
