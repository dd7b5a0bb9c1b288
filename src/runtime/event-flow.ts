/**
 * Cache first, then publish: every execution event (the order managers' and the runtime's own denials,
 * failures, drifts, adjustments) is applied to the caches, counters, risk engine and log before any
 * strategy hears of it; the strategies' answers come back as intents for the intent pipeline.
 */
import { type Observable, Subject } from 'rxjs';
import type { ClientLogger } from '../client/catalogue-client.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Intent } from '../domain/intent.js';
import type { MarketSnapshot } from '../domain/snapshot.js';
import type { RunJournal } from '../persistence/run-journal.js';
import type { RiskEngine } from '../risk/risk-engine.js';
import type { StrategyRunner } from '../strategy/strategy-runner.js';
import { describeEvent } from './event-describer.js';
import { messageOf } from '../core/message-of.js';
import type { ProtectionWatch } from './protection-watch.js';
import type { RunStats } from './run-stats.js';
import type { TradingState } from './trading-state.js';

/** An intent waiting for the pipeline, with the strategy that asked for it. */
export interface Pending {
  readonly runner: StrategyRunner;
  readonly intent: Intent;
  /** An operator's control action: carried out even while the strategy is paused (risk still judges it). */
  readonly operator?: true;
}

const NO_PENDING: readonly Pending[] = Object.freeze([]);

function pendingOf(r: StrategyRunner, intents: readonly Intent[]): readonly Pending[] {
  return intents.length === 0 ? NO_PENDING : intents.map((intent) => ({ runner: r, intent }));
}

export interface EventFlowDeps {
  readonly logger: ClientLogger;
  readonly journal: RunJournal;
  readonly risk: RiskEngine;
  readonly state: TradingState;
  readonly stats: RunStats;
  readonly protection: ProtectionWatch;
  /** The run's strategies (filled in at start-up). */
  readonly runners: readonly StrategyRunner[];
}

export class EventFlow {
  /** Events not yet applied to the caches. */
  private readonly pending: ExecutionEvent[] = [];
  /** Events applied but not yet told to the strategies. */
  private readonly applied: ExecutionEvent[] = [];
  private readonly observed = new Subject<ExecutionEvent>();
  /** Every event once it is applied to the caches and counters: the console's read model and metrics listen here. */
  readonly events$: Observable<ExecutionEvent> = this.observed.asObservable();

  constructor(private readonly d: EventFlowDeps) {}

  /** An order manager's event (already journaled by it): queued. */
  enqueue(e: ExecutionEvent): void {
    this.pending.push(e);
  }

  /** Events made by the runtime (risk denials, kill switch, failures): journaled, then queued like the order managers' events. */
  publishLocal(e: ExecutionEvent): void {
    this.d.journal.recordEvent(e);
    this.pending.push(e);
  }

  /** Events queued and not yet told to the strategies. */
  get backlog(): number {
    return this.pending.length + this.applied.length;
  }

  /** Applies queued events to the caches and counters (no strategy is told yet). */
  applyPending(): void {
    while (this.pending.length > 0) {
      const e = this.pending.shift()!;
      this.observe(e);
      this.applied.push(e);
    }
  }

  /** Applies what is not applied yet, then tells the strategies; returns the intents they answer with. */
  drain(): readonly Pending[] {
    this.applyPending();
    // Nothing to tell (most jobs): no list made.
    if (this.applied.length === 0) return NO_PENDING;
    const out: Pending[] = [];
    while (this.applied.length > 0) {
      const e = this.applied.shift()!;
      for (const r of this.d.runners) out.push(...this.ask(r, () => r.onExecution(e)));
    }
    return out;
  }

  /** Applies pending events without asking strategies for more (they are stopped). */
  drainQuietly(): void {
    this.applyPending();
    this.applied.length = 0;
  }

  /** Calls one strategy hook; its intents, or none when it throws. */
  ask(r: StrategyRunner, fn: () => readonly Intent[]): readonly Pending[] {
    let intents: readonly Intent[];
    try {
      intents = fn();
    } catch (e) {
      return this.threw(r, e);
    }
    return pendingOf(r, intents);
  }

  /** ask() for a snapshot, without a closure made per strategy and snapshot. */
  askSnapshot(r: StrategyRunner, s: MarketSnapshot): readonly Pending[] {
    let intents: readonly Intent[];
    try {
      intents = r.onSnapshot(s);
    } catch (e) {
      return this.threw(r, e);
    }
    return pendingOf(r, intents);
  }

  /** A throwing strategy loses this call, not the run. */
  private threw(r: StrategyRunner, e: unknown): readonly Pending[] {
    this.d.stats.strategyErrors++;
    this.d.logger.error(`strategy ${r.strategyId} threw`, { error: messageOf(e) });
    return NO_PENDING;
  }

  private observe(e: ExecutionEvent): void {
    this.d.protection.noteTpSl(e);
    this.d.state.apply(e);
    this.d.stats.onEvent(e);
    this.d.risk.observe(e);
    const line = describeEvent(e);
    if (line) this.d.logger[line.level](line.message, line.meta);
    this.observed.next(e);
  }
}
