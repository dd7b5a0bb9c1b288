/**
 * The trading loop of `perpetua run`: snapshots → strategies → risk → order managers. This class owns
 * the job loop and what each job does; its parts are modules of their own:
 *   - startup-sequence.ts: restore, reconcile, protective stops, strategies, market data;
 *   - intent-pipeline.ts: strategy intents → policy → risk → order manager (denials, kill switch);
 *   - event-flow.ts: events applied to the caches before any strategy hears of them;
 *   - venue-reconciler.ts, protection-watch.ts: the reconciliation pass and the TP/SL check;
 *   - shutdown-sequence.ts: onStop, cancel own orders in rounds, last reconcile, close the journal run;
 *   - runtime-status.ts: the status the console, the status line and the report show.
 *
 * Truth about positions while running: a reduce-only close is checked against the venue's position
 * before it is sent (a position the venue already closed is not closed again: the fills that closed it
 * are booked instead); each reconciliation tick books venue fills, adjusts confirmed drifts like
 * start-up does, and tells a strategy whose position has no TP/SL left at the venue (ProtectionMissing).
 *
 * The loop: one stream of jobs — every snapshot, and a reconciliation tick — run one at a time in
 * arrival order (what `concatMap` would do, through a plain queue: a backtest runs a job per polled
 * second, and the operator's per-job subscriptions were a tenth of its allocations), so one job runs
 * to completion (strategy → risk → order calls → reactions to the resulting events) before the next
 * starts (docs/architecture.md rule 8). The stale guard sits after the queue: a snapshot that
 * waited too long is dropped, never acted on.
 *
 * A process killed without shutdown leaves the journal run open; the next start says so and resumes
 * from the journal.
 */
import { filter, map, merge, type Observable, Subject, type Subscription } from 'rxjs';
import type { TimerHandle } from '../core/clock.js';
import { IllegalTransition, ValidationError } from '../core/errors.js';
import type { InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { MarketSnapshot } from '../domain/snapshot.js';
import type { RunInfo } from '../persistence/run-journal.js';
import type { StrategyRunner } from '../strategy/strategy-runner.js';
import { EventFlow, type Pending } from './event-flow.js';
import { IntentPipeline } from './intent-pipeline.js';
import { JobLoop } from './job-loop.js';
import { messageOf } from '../core/message-of.js';
import type { OwnerView } from './position-owners.js';
import { ProtectionWatch } from './protection-watch.js';
import { controlIntents, type ControlAction, type ControlOutcome } from './run-control.js';
import { RunStats } from './run-stats.js';
import { type TradingRuntimeOptions, venueOfKind } from './runtime-options.js';
import type { RuntimeParts } from './runtime-parts.js';
import { type RunSummary, type RuntimeStatus, runtimeStatus } from './runtime-status.js';
import { shutdownSequence } from './shutdown-sequence.js';
import { type StartInfo, startupSequence } from './startup-sequence.js';
import { TradingState } from './trading-state.js';
import { ValuationPoller } from './valuation-poller.js';
import { VenueReconciler } from './venue-reconciler.js';

type Job =
  | { readonly kind: 'snapshot'; readonly symbol: InstrumentSymbol }
  | { readonly kind: 'reconcile' }
  | { readonly kind: 'start'; readonly done: (error?: unknown) => void }
  | { readonly kind: 'control'; readonly action: ControlAction; readonly done: (outcome: ControlOutcome | Error) => void };

/** A job with nothing to do (a snapshot job whose snapshot a newer job took, a job after the stop). */
const NO_WORK: Promise<void> = Promise.resolve();

/** The reconciliation tick's job (it carries nothing: one object for every tick). */
const RECONCILE_JOB: Job = Object.freeze({ kind: 'reconcile' });

export class TradingRuntime {
  readonly state: TradingState;
  readonly stats: RunStats;
  private readonly parts: RuntimeParts;
  private readonly events: EventFlow;
  private readonly pipeline: IntentPipeline;
  private readonly runners: StrategyRunner[] = [];
  private loop: Subscription | undefined;
  /** Jobs that are not snapshots: strategy start, reconciliation ticks, operator controls. */
  private readonly control = new Subject<Job>();
  private readonly snapshotWaiters: (() => boolean)[] = [];
  /**
   * Newest snapshot per symbol not yet handled (see the conflation in openMarketData()); undefined once
   * handled. The entry stays: a delete per snapshot made the map shrink and grow its table again each time.
   */
  private readonly latest = new Map<string, MarketSnapshot | undefined>();
  private reconcileQueued = false;
  private reconcileTimer: TimerHandle | undefined;
  /** runJob never throws: a failed job is logged there and the loop goes on. */
  private readonly jobs = new JobLoop<Job>((job) => this.runJob(job));
  private startedAt = 0;
  private run: RunInfo | undefined;
  private stopping: Promise<RunSummary> | undefined;
  private readonly instrumentsOf = new Map<string, readonly InstrumentSymbol[]>();
  /** Strategies paused by the operator: no snapshots reach them, and what they still ask is denied (cancels excepted). */
  private readonly paused = new Set<string>();
  /** Every event once it is applied to the caches and counters: the console's read model and metrics listen here. */
  readonly events$: Observable<ExecutionEvent>;

  constructor(private readonly o: TradingRuntimeOptions) {
    const books = {
      // One venue (most runs, every single-market backtest): its list is already a fresh array; flatMap
      // built a second one per call, and the risk state and the strategies' views ask on every intent.
      liveOrders: () => (o.venues.length === 1 ? o.venues[0]!.orders.liveOrders() : o.venues.flatMap((v) => v.orders.liveOrders())),
      algoOrders: (strategyId: StrategyId) => o.venues.flatMap((v) => v.orders.algoOrders({ strategyId })),
      order: (cid: string) => {
        for (const v of o.venues) {
          const x = v.orders.order(cid);
          if (x) return x;
        }
        return undefined;
      },
    };
    const state = new TradingState(o.instruments, books, o.limits, o.valuationAsset);
    const stats = new RunStats((symbol) => {
      const i = o.instruments.instrument(symbol);
      return i?.kind === 'contract' ? i.contractSize : undefined;
    });
    state.setPositionMode(o.positionMode);
    const owners: OwnerView = { strategies: o.strategies, position: (sid, symbol, leg) => state.strategyBook(sid).position(symbol, leg) };
    const protection = new ProtectionWatch(o, state);
    const events = new EventFlow({ logger: o.logger, journal: o.journal, risk: o.risk, state, stats, protection, runners: this.runners });
    const pipeline = new IntentPipeline(o, state, events, this.runners, this.paused);
    const reconciler = new VenueReconciler(o, state, events, owners);
    const valuation = new ValuationPoller(o, state);
    this.parts = { o, state, stats, events, pipeline, reconciler, protection, valuation, owners, runners: this.runners, subscriptions: [] };
    this.state = state;
    this.stats = stats;
    this.events = events;
    this.pipeline = pipeline;
    this.events$ = events.events$;
    for (const s of o.strategies) this.instrumentsOf.set(s.id, s.instruments);
  }

  get strategyRunners(): readonly StrategyRunner[] {
    return this.runners;
  }

  /** Opens the journal run, then the start-up sequence. Throws when the exchange cannot be read. */
  async start(): Promise<StartInfo> {
    const o = this.o;
    this.startedAt = o.clock.now();
    const uncleanBefore = o.journal.runs().at(-1);
    this.run = o.journal.startRun(o.configHash, o.mode, this.startedAt);
    const uncleanRun = uncleanBefore && uncleanBefore.endedAt === undefined ? uncleanBefore : undefined;
    const firstRunStartedAt = o.journal.runs()[0]?.startedAt ?? this.startedAt;
    const { restoredLive, reconciled } = await startupSequence(this.parts, firstRunStartedAt, {
      openMarketData: () => this.openMarketData(),
      firstSnapshots: (timeoutMs) => this.firstSnapshots(timeoutMs),
      startStrategies: () =>
        new Promise<void>((resolve, reject) => this.control.next({ kind: 'start', done: (e) => (e ? reject(e) : resolve()) })),
      startReconcileTimer: () => {
        this.reconcileTimer = o.clock.setInterval(o.policy.reconcileIntervalMs, () => {
          // A slow venue must not pile up reconciliations: one queued at a time.
          if (this.reconcileQueued) return;
          this.reconcileQueued = true;
          this.control.next(RECONCILE_JOB);
        });
      },
    });
    return { run: this.run, ...(uncleanRun ? { uncleanRun } : {}), restoredLive, reconciled };
  }

  /** Stops trading; cancels this run's orders unless told not to; closes the journal run. */
  stop(reason: string): Promise<RunSummary> {
    this.stopping ??= this.shutdown(reason);
    return this.stopping;
  }

  /**
   * What a killed process leaves behind, for crash tests in one process: the job in flight finishes,
   * then no job, timer or market data runs again — no onStop, no cancel, no last reconciliation, and
   * the journal run stays open. A later stop() does nothing more.
   */
  async halt(): Promise<void> {
    this.o.clock.clearTimer(this.reconcileTimer);
    const halted: RunSummary = { ...this.status(), reason: 'halted', runId: this.run?.id ?? 0, cancelledOnExit: 0, openOrdersLeft: [] };
    this.stopping ??= Promise.resolve(halted);
    await this.jobs.idle();
    this.loop?.unsubscribe();
    this.control.complete();
    for (const s of this.parts.subscriptions.splice(0)) s.unsubscribe();
    await this.o.market.stop();
  }

  status(): RuntimeStatus {
    return runtimeStatus(this.o, this.state, this.stats, this.startedAt);
  }

  isPaused(strategyId: string): boolean {
    return this.paused.has(strategyId);
  }

  /**
   * The control port (the console's pause / resume / cancel / flatten): runs as a job of the loop, after
   * the job in flight, so it never interleaves with a strategy's own intents; its orders go through risk
   * and the order managers like any strategy's. Journaled; answers with the intents sent and the events
   * they produced. Refused once the run is stopping.
   */
  applyControl(action: ControlAction): Promise<ControlOutcome> {
    if (!this.runners.some((r) => r.strategyId === action.strategyId)) {
      return Promise.reject(new ValidationError('strategyId', 'a strategy of this run', action.strategyId));
    }
    if (this.stopping) return Promise.reject(new IllegalTransition('run', 'stopping', action.action, 'the run is stopping'));
    return new Promise((resolve, reject) => {
      this.control.next({ kind: 'control', action, done: (o) => (o instanceof Error ? reject(o) : resolve(o)) });
    });
  }

  // ---------------------------------------------------------------- jobs

  /**
   * Market data feeds the loop. Conflation: a job carries only the symbol; it acts on the newest snapshot
   * of that symbol when it runs. Snapshots that arrive while a job is busy replace each other instead of
   * queueing up. Snapshots reach strategies only once they have started.
   */
  private async openMarketData(): Promise<void> {
    const o = this.o;
    const snapshots$: Observable<Job> = o.market.snapshots().pipe(
      filter((snapshot) => {
        const queued = this.latest.get(snapshot.symbol) !== undefined;
        this.latest.set(snapshot.symbol, snapshot);
        return !queued;
      }),
      map((snapshot) => this.snapshotJob(snapshot.symbol)),
    );
    this.loop = merge(snapshots$, this.control).subscribe({
      next: (job) => this.jobs.enqueue(job),
      error: (e: unknown) => o.logger.error('trading loop stopped', { error: messageOf(e) }),
    });
    await o.market.start();
  }

  /** A symbol's snapshot job: it carries only the symbol, so one object per symbol serves every snapshot. */
  private snapshotJob(symbol: InstrumentSymbol): Job {
    let job = this.snapshotJobs.get(symbol);
    if (!job) this.snapshotJobs.set(symbol, (job = Object.freeze({ kind: 'snapshot' as const, symbol })));
    return job;
  }

  private readonly snapshotJobs = new Map<string, Job>();

  /**
   * A job's run. Snapshots and reconcile ticks (the jobs of every bar, in a backtest) hand back their
   * handler's promise with the failure logged on it: an async frame around them cost its generator,
   * registers, promise and await closures per job, and settles in as many turns as this does.
   */
  private runJob(job: Job): Promise<void> {
    if (this.stopping) {
      if (job.kind === 'start') job.done(new Error('stopped before the strategies started'));
      if (job.kind === 'control') job.done(new IllegalTransition('run', 'stopped', job.action.action, 'stopped before it ran'));
      return NO_WORK;
    }
    if (job.kind === 'snapshot') {
      const snapshot = this.latest.get(job.symbol);
      this.latest.set(job.symbol, undefined);
      return snapshot ? this.onSnapshot(snapshot).then(undefined, this.snapshotFailed) : NO_WORK;
    }
    if (job.kind === 'reconcile') {
      this.reconcileQueued = false;
      return this.onReconcileTick().then(undefined, this.reconcileFailed);
    }
    return this.runCommand(job);
  }

  // One failed job must not end the loop; the next snapshot or tick starts from fresh state.
  private readonly snapshotFailed = (e: unknown): void => this.o.logger.error('snapshot job failed', { error: messageOf(e) });
  private readonly reconcileFailed = (e: unknown): void => this.o.logger.error('reconcile job failed', { error: messageOf(e) });

  /** An operator control or the strategies' start. */
  private async runCommand(job: Extract<Job, { kind: 'control' | 'start' }>): Promise<void> {
    try {
      if (job.kind === 'control') {
        try {
          job.done(await this.runControl(job.action));
        } catch (e) {
          job.done(e instanceof Error ? e : new Error(String(e)));
        }
      } else {
        try {
          await this.startStrategies();
          job.done();
        } catch (e) {
          job.done(e);
        }
      }
    } catch (e) {
      this.o.logger.error(`${job.kind} job failed`, { error: messageOf(e) });
    }
  }

  private async runControl(action: ControlAction): Promise<ControlOutcome> {
    const runner = this.runners.find((r) => r.strategyId === action.strategyId)!;
    const seen: ExecutionEvent[] = [];
    const sub = this.events$.subscribe((e) => seen.push(e));
    try {
      if (action.action === 'pause') this.paused.add(action.strategyId);
      if (action.action === 'resume') this.paused.delete(action.strategyId);
      const intents = controlIntents(action, runner, this.state, this.o.venues);
      this.o.journal.recordControl({ ...action, ts: this.o.clock.now() });
      await this.pipeline.process(intents.map((intent) => ({ runner, intent, operator: true })));
      return { ...action, paused: this.paused.has(action.strategyId), intents, events: seen };
    } finally {
      sub.unsubscribe();
    }
  }

  private async startStrategies(): Promise<void> {
    this.state.updateEquity(this.o.clock.now());
    const items: Pending[] = [];
    for (const r of this.runners) {
      for (const intent of await r.start()) items.push({ runner: r, intent });
    }
    await this.pipeline.process(items);
  }

  /** Resolves when every polled symbol has a snapshot, or at the timeout; returns the symbols still missing. */
  private async firstSnapshots(timeoutMs: number): Promise<InstrumentSymbol[]> {
    const missing = (): InstrumentSymbol[] => this.o.market.symbols.filter((s) => !this.state.lastSnapshot(s));
    if (missing().length > 0) {
      await new Promise<void>((resolve) => {
        const timer = this.o.clock.setTimer(this.o.clock.now() + timeoutMs, resolve);
        this.snapshotWaiters.push(() => {
          if (missing().length > 0) return false;
          this.o.clock.clearTimer(timer);
          resolve();
          return true;
        });
      });
    }
    this.snapshotWaiters.length = 0;
    return missing();
  }

  private async onSnapshot(s: MarketSnapshot): Promise<void> {
    const o = this.o;
    this.stats.snapshots++;
    const now = o.clock.now();
    // Stale guard at the point of use: age is judged after any wait in the queue.
    if (now - s.pollTime > o.policy.maxSnapshotAgeMs) {
      this.stats.staleSnapshots++;
      o.logger.debug('stale snapshot skipped', { symbol: s.symbol, ageMs: now - s.pollTime });
      return;
    }
    this.state.setSnapshot(s);
    if (this.snapshotWaiters.length > 0)
      for (const w of [...this.snapshotWaiters]) if (w()) this.snapshotWaiters.splice(this.snapshotWaiters.indexOf(w), 1);
    const venue = venueOfKind(o, s.kind);
    if (venue) {
      const chased = venue.orders.onSnapshot(s);
      if (chased) await chased;
      const pulling = this.pipeline.afterChildren();
      if (pulling) await pulling;
    }
    // Most snapshots bring no events and no intents: no trip through the pipeline for nothing. The
    // checks are awaited only when they return work in progress (a job runs alone: see the header).
    const reactions = this.events.drain();
    if (reactions.length > 0) await this.pipeline.process(reactions);
    const tripped = this.pipeline.checkKillSwitch(now);
    if (tripped) await tripped;
    let items: Pending[] | undefined;
    for (const r of this.runners) {
      if (!this.instrumentsOf.get(r.strategyId)?.includes(s.symbol) || this.paused.has(r.strategyId)) continue;
      const got = this.events.askSnapshot(r, s);
      if (got.length > 0) (items ??= []).push(...got);
    }
    if (items) await this.pipeline.process(items);
  }

  private async onReconcileTick(): Promise<void> {
    try {
      await this.parts.reconciler.reconcile(false);
      this.stats.reconciles++;
      // Awaited only when the check reads the venue (a held position); the same for the poll and the
      // pipeline below: a job runs alone (see the header), and awaiting a value cost a promise and a turn.
      const checked = this.parts.protection.check();
      for (const e of Array.isArray(checked) ? checked : await checked) this.events.publishLocal(e);
      const polled = this.parts.valuation.poll();
      if (polled) await polled;
    } catch (e) {
      this.stats.reconcileFailures++;
      this.o.logger.warn('reconciliation failed; trying again at the next tick', { error: messageOf(e) });
    }
    const reactions = this.events.drain();
    if (reactions.length > 0) await this.pipeline.process(reactions);
  }

  /** The loop stops (the job in flight finishes; no new one starts: runJob checks `stopping`), then the shutdown sequence. */
  private async shutdown(reason: string): Promise<RunSummary> {
    this.o.clock.clearTimer(this.reconcileTimer);
    await this.jobs.idle();
    this.loop?.unsubscribe();
    this.control.complete();
    return shutdownSequence(this.parts, reason, this.run?.id ?? 0, () => this.status());
  }
}
