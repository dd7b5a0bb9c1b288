/**
 * The parts one TradingRuntime is made of, shared by its start-up and shutdown sequences: the caches
 * and counters, the event flow, the intent pipeline, the venue reconciler and the TP/SL watch.
 */
import type { Subscription } from 'rxjs';
import type { StrategyRunner } from '../strategy/strategy-runner.js';
import type { EventFlow } from './event-flow.js';
import type { IntentPipeline } from './intent-pipeline.js';
import type { OwnerView } from './position-owners.js';
import type { ProtectionWatch } from './protection-watch.js';
import type { RunStats } from './run-stats.js';
import type { TradingRuntimeOptions } from './runtime-options.js';
import type { TradingState } from './trading-state.js';
import type { ValuationPoller } from './valuation-poller.js';
import type { VenueReconciler } from './venue-reconciler.js';

export interface RuntimeParts {
  readonly o: TradingRuntimeOptions;
  readonly state: TradingState;
  readonly stats: RunStats;
  readonly events: EventFlow;
  readonly pipeline: IntentPipeline;
  readonly reconciler: VenueReconciler;
  readonly protection: ProtectionWatch;
  /** Prices of held assets no market-data stream covers. */
  readonly valuation: ValuationPoller;
  readonly owners: OwnerView;
  /** The run's strategies: created by the start-up sequence, stopped by the shutdown sequence. */
  readonly runners: StrategyRunner[];
  /** The order managers' event and warning streams, ended by the shutdown sequence. */
  readonly subscriptions: Subscription[];
}
