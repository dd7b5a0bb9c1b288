/** What the pollers report besides snapshots: for logs, the status line and alerts. */
import type { InstrumentSymbol } from '../../core/ids.js';
import type { MarketSnapshot } from '../../domain/snapshot.js';
import type { StreamName } from './poll-config.js';
import type { AveragePrice } from './snapshot-records.js';

/** A snapshot as the pollers assemble it: the spot average price rides along (MarketSnapshot has no field for it). */
export interface PolledSnapshot extends MarketSnapshot {
  readonly avgPrice?: AveragePrice;
}

/** A cycle failed: no snapshot; the instrument retries after `retryInMs` (exponential, capped). */
export interface MarketDataPollFailed {
  readonly type: 'MarketDataPollFailed';
  readonly ts: number;
  readonly symbol: InstrumentSymbol;
  /** The streams whose fetch failed in that cycle. */
  readonly streams: readonly StreamName[];
  /** Error class name (taxonomy: RateLimited, RequestTimeout, ExchangeUnavailable, …). */
  readonly errorName: string;
  readonly message: string;
  readonly consecutiveFailures: number;
  readonly retryInMs: number;
}

/** The first successful cycle after failures. */
export interface MarketDataPollRecovered {
  readonly type: 'MarketDataPollRecovered';
  readonly ts: number;
  readonly symbol: InstrumentSymbol;
  readonly failures: number;
}

/**
 * A snapshot was held back from the strategy because it was older than allowed (`arrived-stale`), or
 * no snapshot newer than the allowed age arrived in time (`no-update`).
 */
export interface MarketDataStale {
  readonly type: 'MarketDataStale';
  readonly ts: number;
  readonly symbol: InstrumentSymbol;
  readonly reason: 'arrived-stale' | 'no-update';
  /** Poll time of the newest snapshot seen (undefined when none arrived yet). */
  readonly pollTime: number | undefined;
  readonly ageMs: number | undefined;
  readonly maxAgeMs: number;
}

export type MarketDataEvent = MarketDataPollFailed | MarketDataPollRecovered | MarketDataStale;

export interface InstrumentPollStats {
  readonly symbol: InstrumentSymbol;
  /** Cycles attempted (successful + failed). */
  readonly cycles: number;
  readonly snapshots: number;
  readonly failures: number;
  readonly consecutiveFailures: number;
  readonly lastPollTime?: number;
  readonly lastError?: string;
}
