/**
 * The shape of a risk rule (docs/architecture.md rule 4): a small pure function that returns a reason to deny
 * or nothing. Rules see one intent, the instrument's rules and a read-only state; they fail closed
 * when something they need (a price, the account) is missing.
 */
import type { Decimal } from '../core/decimal.js';
import type { AccountSnapshot } from '../domain/balance.js';
import type { Instrument } from '../domain/instrument.js';
import type { InstrumentLookup } from '../domain/instrument-registry.js';
import type { Intent, PositionModeName } from '../domain/intent.js';
import type { Order } from '../domain/order.js';
import type { Position } from '../domain/position.js';
import type { MarketSnapshot } from '../domain/snapshot.js';

export interface Denial {
  /** The rule's name, e.g. `price-tick`. */
  readonly rule: string;
  /** A human reason with the numbers. */
  readonly reason: string;
  /** For a DesiredQuotes intent: the one quote denied (the rest may go ahead). */
  readonly slot?: string;
}

export type RiskRule = (intent: Intent, instrument: Instrument | undefined, state: RiskState) => Denial | undefined;

export interface StrategyRiskLimits {
  /** Largest absolute position the strategy may reach on one symbol, counting its open orders as filled. */
  readonly maxPositionQty?: Decimal;
  /** Same, valued at the mark (quote / settle units). */
  readonly maxNotional?: Decimal;
}

export interface KillSwitchLimits {
  /** Fraction of peak equity, e.g. 0.2 for 20 %. */
  readonly maxDrawdown?: Decimal;
  /** Equity lost since the start of the (UTC) day, in the valuation asset. */
  readonly maxDailyLoss?: Decimal;
  /** Venue rejections within `rejectWindowMs` that trip the switch. */
  readonly maxRejects?: number;
  readonly rejectWindowMs: number;
}

export interface RiskLimits {
  /** A snapshot older than this (by our clock) is no basis for a new order. */
  readonly maxSnapshotAgeMs: number;
  /** Spot open orders per account (wire-protocol.md: 500). */
  readonly spotOpenOrderCap: number;
  /** Keyed by strategy id; a strategy without an entry has no per-strategy limits. */
  readonly strategies: Readonly<Record<string, StrategyRiskLimits>>;
  readonly killSwitch: KillSwitchLimits;
}

export const DEFAULT_RISK_LIMITS: RiskLimits = {
  maxSnapshotAgeMs: 10_000,
  spotOpenOrderCap: 500,
  strategies: {},
  killSwitch: { rejectWindowMs: 60_000 },
};

export interface RiskMetrics {
  /** Current account equity in the valuation asset. */
  readonly equity?: Decimal;
  readonly peakEquity?: Decimal;
  readonly dayStartEquity?: Decimal;
  /** Times (ms) of venue rejections. */
  readonly rejectTimes: readonly number[];
  /** While equity is unknown: which assets have no price, and the fix (named in the kill switch's denial). */
  readonly unknownReason?: string;
}

export interface RiskState {
  readonly now: number;
  /** Latest snapshot of the intent's symbol. */
  readonly snapshot?: MarketSnapshot;
  /** Balances of the venue the intent goes to. */
  readonly account?: AccountSnapshot;
  /** Account positions (all strategies): what the venue enforces reduce-only and tiers against. */
  readonly positions: readonly Position[];
  /** Positions of the intent's strategy alone (per-strategy limits). */
  readonly strategyPositions: readonly Position[];
  /** Our live orders, every strategy (submitted, working, pending amend or cancel). */
  readonly openOrders: readonly Order[];
  /** Open orders the venue counts for the account (ours and others'), when known. */
  readonly venueOpenOrderCount?: number;
  /** Contract position mode, when known. */
  readonly positionMode?: PositionModeName;
  /** Current leverage by positionKey(symbol, leg). */
  readonly leverage: Readonly<Record<string, number>>;
  readonly limits: RiskLimits;
  readonly metrics: RiskMetrics;
  /** Rules of other instruments (valuing our orders on other symbols). */
  readonly instruments?: InstrumentLookup;
}
