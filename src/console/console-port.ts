/**
 * What the console needs from a running bot: a read model (status, the trading state, the event
 * stream) and a control port. TradingRuntime provides both; the console never reaches further in.
 */
import type { Observable } from 'rxjs';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { ControlAction, ControlOutcome } from '../runtime/run-control.js';
import type { RuntimeStatus } from '../runtime/runtime-status.js';
import type { TradingState } from '../runtime/trading-state.js';

export interface ConsoleRun {
  readonly state: TradingState;
  readonly events$: Observable<ExecutionEvent>;
  status(): RuntimeStatus;
  isPaused(strategyId: string): boolean;
  applyControl(action: ControlAction): Promise<ControlOutcome>;
}

/** Static facts of the run the console shows beside the live state. */
export interface ConsoleRunInfo {
  readonly mode: string;
  readonly venue: string;
  readonly valuationAsset: string;
  readonly instruments: readonly string[];
  readonly strategies: readonly ConsoleStrategyInfo[];
}

export interface ConsoleStrategyInfo {
  readonly id: string;
  readonly name: string;
  readonly instruments: readonly string[];
  readonly params: unknown;
}
