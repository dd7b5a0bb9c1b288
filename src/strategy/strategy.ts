/**
 * The Strategy contract. A strategy sees snapshots and execution events and answers with intents;
 * it never calls the venue. Hooks are synchronous (except start / stop) so a replay runs the same
 * way every time: one snapshot runs to completion before the next (docs/architecture.md rule 8).
 *
 * A strategy returns intents from a hook, or emits them through ctx.emit(), or both; the runner
 * collects both, in that order: emitted first, then returned.
 */
import type { z } from 'zod';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Intent } from '../domain/intent.js';
import type { MarketSnapshot } from '../domain/snapshot.js';
import type { StrategyContext } from './strategy-context.js';

export type IntentResult = readonly Intent[] | void | undefined;

/** Figures a strategy reports about itself (name → value as text), e.g. a grid's realised profit. */
export type StrategyReport = Readonly<Record<string, string>>;

export interface Strategy {
  /** Once, after startup reconciliation and before the first snapshot. */
  onStart?(ctx: StrategyContext): IntentResult | Promise<IntentResult>;
  /** Once, on shutdown; intents returned (e.g. cancel-all) are still carried out. */
  onStop?(ctx: StrategyContext): IntentResult | Promise<IntentResult>;
  onSnapshot(snapshot: MarketSnapshot, ctx: StrategyContext): IntentResult;
  /** Acks, fills, cancels and denials of this strategy's intents. */
  onExecution?(event: ExecutionEvent, ctx: StrategyContext): IntentResult;
  /**
   * Its own figures for the backtest output (what the account cannot tell apart, such as a grid's
   * realised profit against its inventory PnL). Read-only, any time.
   */
  report?(): StrategyReport;
}

/**
 * What a strategy class exposes statically so it can be chosen by name from config. Classes are
 * `@injectable()` and take their parameters with `@inject(TOKENS.StrategyParams)` so tests can
 * simply `new` them.
 */
export interface StrategyClass<P = unknown> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- constructor arguments are resolved by the container
  new (...args: any[]): Strategy;
  /** Name used in YAML (`strategy: spot-market-maker`). */
  readonly strategyName: string;
  /** zod schema of the parameters; unknown keys should be rejected (z.strictObject). */
  readonly paramsSchema: z.ZodType<P>;
  /** One line for `perpetua strategies` / docs. */
  readonly description?: string;
}
