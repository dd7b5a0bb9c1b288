/**
 * The trading loop of `perpetua run`: snapshots → strategies → risk → order managers.
 *
 * Start-up (nothing trades before it succeeds):
 *   1. open a journal run (config hash, mode) and say when the previous run ended uncleanly;
 *   2. restore every order manager from the journal (orders, counted trade ids) and every strategy's
 *      book from its journaled fills and position adjustments;
 *   3. RECONCILE with the exchange (open orders, fills since the journal's watermark, positions) and
 *      read balances — a venue that cannot be read aborts the start. Fills of orders the bot did not
 *      place (TP/SL, liquidation, close-all, by hand) become journaled VenueFills of the position's
 *      owner; a position the fills still do not explain, of any sign and size, is set to the venue's
 *      with a journaled PositionAdjusted and a warning (position-owners.ts);
 *   4. start the strategies (their onStart intents go through risk like any other), then market data.
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
 * waited too long is dropped, never acted on. Events are applied to the caches before any strategy
 * hears of them (cache first, then publish).
 *
 * Shutdown (Ctrl-C, SIGTERM, --duration): market data stops, strategies' onStop intents run, then each
 * strategy's own orders are cancelled (unless cancelOnExit is off), a last reconciliation picks up
 * late fills, and the run is closed in the journal with its reason. A process killed without shutdown
 * leaves the run open; the next start says so and resumes from the journal.
 */
import { filter, map, merge, type Observable, Subject, type Subscription } from 'rxjs';
import type { Clock, TimerHandle } from '../core/clock.js';
import { D, type Decimal, ZERO } from '../core/decimal.js';
import { totalOf } from '../domain/balance.js';
import { IllegalTransition, PerpetuaError, ValidationError } from '../core/errors.js';
import { type InstrumentSymbol, isContractSymbol, type StrategyId } from '../core/ids.js';
import type { ClientLogger } from '../client/catalogue-client.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { InstrumentRegistry } from '../domain/instrument-registry.js';
import { type Intent, intentSymbol, type PositionModeName } from '../domain/intent.js';
import type { InstrumentKind, Order } from '../domain/order.js';
import { type Position, positionKey } from '../domain/position.js';
import { midPrice, type MarketSnapshot } from '../domain/snapshot.js';
import type { ClientIdCodec } from '../execution/client-id-codec.js';
import type { ExchangeGateway, ProtectiveStop } from '../execution/exchange-gateway.js';
import type { OrderManager } from '../execution/order-manager.js';
import type { MarketDataSource } from '../marketdata/market-data-source.js';
import type { RunInfo, RunJournal } from '../persistence/run-journal.js';
import type { RiskEngine } from '../risk/risk-engine.js';
import type { RiskLimits } from '../risk/risk-rule.js';
import type { Strategy } from '../strategy/strategy.js';
import { StrategyRunner } from '../strategy/strategy-runner.js';
import { controlIntents, type ControlAction, type ControlOutcome } from './run-control.js';
import { RunStats, type StrategyCounters } from './run-stats.js';
import { DriftWatch } from './drift-watch.js';
import { FundingWatch } from './funding-watch.js';
import { describeEvent } from './event-describer.js';
import { JobLoop } from './job-loop.js';
import { type OwnerView, ownerAdjustments, positionOwner } from './position-owners.js';
import { TradingState } from './trading-state.js';

export interface ExecutionVenue {
  readonly kind: InstrumentKind;
  readonly gateway: ExchangeGateway;
  readonly orders: OrderManager;
}

export interface RuntimeStrategy {
  readonly id: StrategyId;
  readonly name: string;
  readonly instruments: readonly InstrumentSymbol[];
  readonly strategy: Strategy;
}

export interface ExecutionPolicy {
  readonly cancelOnExit: boolean;
  readonly reconcileIntervalMs: number;
  readonly maxSnapshotAgeMs: number;
  /** Upper bound on a chase's reprices. */
  readonly chaseMaxReprices: number;
  /** Default cap of a chase that names none, basis points beyond the order's price. */
  readonly chasePriceCapBps?: Decimal;
  /** How long start-up waits for the first snapshot of every symbol before starting the strategies. */
  readonly firstSnapshotTimeoutMs: number;
}

export interface TradingRuntimeOptions {
  readonly clock: Clock;
  readonly logger: ClientLogger;
  readonly mode: string;
  readonly configHash: string;
  readonly instruments: InstrumentRegistry;
  readonly market: MarketDataSource;
  readonly venues: readonly ExecutionVenue[];
  readonly journal: RunJournal;
  readonly risk: RiskEngine;
  readonly limits: RiskLimits;
  readonly codec: ClientIdCodec;
  readonly strategies: readonly RuntimeStrategy[];
  readonly policy: ExecutionPolicy;
  readonly valuationAsset: string;
  /**
   * Reads one symbol's price for valuation (spot last price, contract fair price). Assets the account
   * holds but no strategy trades are priced with it after each reconciliation, so equity (and the kill
   * switches that need it) values every held asset. Absent: only streamed instruments price the account.
   */
  readonly valuationPrice?: (symbol: InstrumentSymbol) => Promise<Decimal>;
  /** False when the venue is new (an embedded emulator without persistence): nothing to resume. */
  readonly resume: boolean;
  /** The contract account's position mode, when read at start-up. */
  readonly positionMode?: PositionModeName;
}

export interface StartInfo {
  readonly run: RunInfo;
  /** The previous run, when it did not end cleanly (crash, kill). */
  readonly uncleanRun?: RunInfo;
  /** Orders restored from the journal that were still live. */
  readonly restoredLive: number;
  /** Events the start-up reconciliation produced (fills learned, orders closed or adopted). */
  readonly reconciled: number;
}

export interface PositionLine {
  readonly symbol: InstrumentSymbol;
  readonly leg: string;
  readonly quantity: Decimal;
  readonly entryPrice: Decimal;
}

export interface StrategyStatus {
  readonly id: StrategyId;
  readonly name: string;
  readonly positions: readonly PositionLine[];
  readonly realizedPnl: Decimal;
  /** Undefined when a position has no mark yet. */
  readonly unrealizedPnl?: Decimal;
  readonly fees: Decimal;
  readonly openOrders: number;
  /** The live orders themselves (side, quantity, price), for the status line. */
  readonly orders: readonly { readonly symbol: InstrumentSymbol; readonly side: string; readonly price?: Decimal; readonly quantity?: Decimal }[];
  readonly counters: StrategyCounters;
}

export interface RuntimeStatus {
  readonly now: number;
  readonly elapsedMs: number;
  readonly marks: readonly { symbol: InstrumentSymbol; mid?: Decimal }[];
  readonly strategies: readonly StrategyStatus[];
  readonly totals: StrategyCounters;
  readonly equity?: Decimal;
  readonly killSwitch?: string;
  /** Non-zero account balances (asset, total), as the venue last reported them. */
  readonly balances: readonly { readonly asset: string; readonly total: Decimal }[];
  /** The newest denial, `rule: reason`. */
  readonly lastDenial?: string;
  readonly staleSnapshots: number;
  readonly snapshots: number;
}

export interface RunSummary extends RuntimeStatus {
  readonly reason: string;
  readonly runId: number;
  /** Orders cancelled by the exit cancel. */
  readonly cancelledOnExit: number;
  /** Our orders still open at the venue after shutdown (cancelOnExit off, or a cancel failed). */
  readonly openOrdersLeft: readonly Order[];
}

type Job =
  | { readonly kind: 'snapshot'; readonly symbol: InstrumentSymbol }
  | { readonly kind: 'reconcile' }
  | { readonly kind: 'start'; readonly done: (error?: unknown) => void }
  | { readonly kind: 'control'; readonly action: ControlAction; readonly done: (outcome: ControlOutcome | Error) => void };
interface Pending {
  readonly runner: StrategyRunner;
  readonly intent: Intent;
  /** An operator's control action: carried out even while the strategy is paused (risk still judges it). */
  readonly operator?: true;
}

/** Intents one job may carry out (reactions to reactions included) before the rest is dropped. */
const MAX_INTENTS_PER_JOB = 200;

export class TradingRuntime {
  readonly state: TradingState;
  readonly stats: RunStats;
  private readonly drifts = new DriftWatch();
  private readonly runners: StrategyRunner[] = [];
  /** Events not yet applied to the caches. */
  private readonly pending: ExecutionEvent[] = [];
  /** Events applied but not yet told to the strategies. */
  private readonly applied: ExecutionEvent[] = [];
  private readonly subscriptions: Subscription[] = [];
  private loop: Subscription | undefined;
  /** Jobs that are not snapshots: strategy start, reconciliation ticks. */
  private readonly control = new Subject<Job>();
  private readonly snapshotWaiters: (() => boolean)[] = [];
  /** Newest snapshot per symbol not yet handled (see the conflation in start()). */
  private readonly latest = new Map<string, MarketSnapshot>();
  private reconcileQueued = false;
  private reconcileTimer: TimerHandle | undefined;
  /** runJob never throws: a failed job is logged there and the loop goes on. */
  private readonly jobs = new JobLoop<Job>((job) => this.runJob(job));
  private startedAt = 0;
  private run: RunInfo | undefined;
  private stopping: Promise<RunSummary> | undefined;
  private readonly instrumentsOf = new Map<string, readonly InstrumentSymbol[]>();
  /** Unprotected positions already told (strategy|symbol|leg|quantity), so each is told once. */
  private readonly toldUnprotected = new Set<string>();
  /** Funding payments booked (contract venues that list them). */
  private funding: FundingWatch | undefined;
  /** Valuation symbols whose price read failed, warned about once. */
  private readonly unpriced = new Set<string>();
  /** strategy|symbol pairs that have put TP/SL on (journal or this run): only they are told it is gone. */
  private readonly tpslUsers = new Set<string>();
  private readonly owners: OwnerView;
  /** Strategies paused by the operator: no snapshots reach them, and what they still ask is denied (cancels excepted). */
  private readonly paused = new Set<string>();
  private readonly observed = new Subject<ExecutionEvent>();
  /** Every event once it is applied to the caches and counters: the console's read model and metrics listen here. */
  readonly events$: Observable<ExecutionEvent> = this.observed.asObservable();

  constructor(private readonly o: TradingRuntimeOptions) {
    const books = {
      liveOrders: (): readonly Order[] => o.venues.flatMap((v) => v.orders.liveOrders()),
      order: (cid: string): Order | undefined => {
        for (const v of o.venues) {
          const x = v.orders.order(cid);
          if (x) return x;
        }
        return undefined;
      },
    };
    this.state = new TradingState(o.instruments, books, o.limits, o.valuationAsset);
    this.stats = new RunStats((symbol) => {
      const i = o.instruments.instrument(symbol);
      return i?.kind === 'contract' ? i.contractSize : undefined;
    });
    this.state.setPositionMode(o.positionMode);
    this.owners = { strategies: o.strategies, position: (sid, symbol, leg) => this.state.strategyBook(sid).position(symbol, leg) };
  }

  get strategyRunners(): readonly StrategyRunner[] {
    return this.runners;
  }

  /** Restore, reconcile, start strategies and market data. Throws when the exchange cannot be read. */
  async start(): Promise<StartInfo> {
    const o = this.o;
    this.startedAt = o.clock.now();
    const uncleanBefore = o.journal.runs().at(-1);
    this.run = o.journal.startRun(o.configHash, o.mode, this.startedAt);
    const uncleanRun = uncleanBefore && uncleanBefore.endedAt === undefined ? uncleanBefore : undefined;
    for (const v of o.venues) {
      this.subscriptions.push(v.orders.events$.subscribe((e) => this.pending.push(e)));
      this.subscriptions.push(v.orders.warnings$.subscribe((w) => o.logger.warn(w.message, { error: w.error })));
      // Fills from before the journal's first run are not the bot's: the start-up adjustment covers them.
      const since = o.journal.runs()[0]?.startedAt ?? this.startedAt;
      if (v.kind === 'contract') v.orders.attributeVenueFills((symbol, leg) => positionOwner(this.owners, symbol, leg), since);
      if (v.kind === 'contract' && v.gateway.fundingSince) this.funding = new FundingWatch(o.clock, since);
      // Spot trades of orders not placed by the bot (by hand, another program): journaled and reported on
      // the account, never silently ignored. No strategy's inventory takes them: it did not trade them.
      else v.orders.attributeVenueFills(() => undefined, since);
    }

    let restoredLive = 0;
    if (o.resume) {
      for (const v of o.venues) await v.orders.restore();
      restoredLive = o.venues.reduce((n, v) => n + v.orders.liveOrders().length, 0);
      // Each strategy's book is rebuilt from its own journaled fills (deduped by trade id), the venue's
      // fills attributed to it and its position adjustments, in journal order.
      for (const e of o.journal.events()) {
        if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled' || e.type === 'VenueFill') {
          const sid = e.strategyId ?? e.fill.strategyId;
          if (sid) this.state.applyStrategyFill(sid, e.fill);
        } else if (e.type === 'PositionAdjusted') this.state.apply(e);
        else if (e.type === 'FundingSettled') {
          // The strategy's book only: the account's balances come from the venue, which paid it already.
          if (e.strategyId !== undefined) this.state.strategyBook(e.strategyId).applyFunding(e.symbol, e.leg, e.amount, e.asset, e.settledAt ?? e.ts);
          this.funding?.note(e);
        }
        this.noteTpSl(e);
      }
    }
    await this.reconcileVenues(true);
    const reconciled = this.pending.length + this.applied.length;
    this.drain();
    await this.pollValuationPrices();
    await this.readProtectionAtStart();

    for (const s of o.strategies) {
      this.instrumentsOf.set(s.id, s.instruments);
      this.runners.push(new StrategyRunner(s.id, s.strategy, this.state, o.clock));
    }

    // Market data first, strategies second: equity (and so the kill switches) and the first prices
    // are known before any strategy acts. Snapshots reach strategies only once they have started.
    // Conflation: a job carries only the symbol; it acts on the newest snapshot of that symbol when it
    // runs. Snapshots that arrive while a job is busy replace each other instead of queueing up.
    const snapshots$: Observable<Job> = o.market.snapshots().pipe(
      filter((snapshot) => {
        const queued = this.latest.has(snapshot.symbol);
        this.latest.set(snapshot.symbol, snapshot);
        return !queued;
      }),
      map((snapshot) => ({ kind: 'snapshot' as const, symbol: snapshot.symbol })),
    );
    this.loop = merge(snapshots$, this.control).subscribe({ next: (job) => this.jobs.enqueue(job), error: (e: unknown) => o.logger.error('trading loop stopped', { error: messageOf(e) }) });
    await o.market.start();
    const missing = await this.firstSnapshots(o.policy.firstSnapshotTimeoutMs);
    if (missing.length > 0) o.logger.warn(`no market data yet for ${missing.join(', ')}; starting the strategies anyway (orders on them are denied until it arrives)`);
    await new Promise<void>((resolve, reject) => this.control.next({ kind: 'start', done: (e) => (e ? reject(e) : resolve()) }));
    this.reconcileTimer = o.clock.setInterval(o.policy.reconcileIntervalMs, () => {
      // A slow venue must not pile up reconciliations: one queued at a time.
      if (this.reconcileQueued) return;
      this.reconcileQueued = true;
      this.control.next({ kind: 'reconcile' });
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
    for (const s of this.subscriptions.splice(0)) s.unsubscribe();
    await this.o.market.stop();
  }

  status(): RuntimeStatus {
    const now = this.o.clock.now();
    const strategies: StrategyStatus[] = this.o.strategies.map((s) => {
      const book = this.state.strategyBook(s.id);
      const u = book.unrealized(this.state.mark);
      return {
        id: s.id,
        name: s.name,
        positions: book
          .positions()
          .filter((p) => !p.quantity.isZero())
          .map((p) => ({ symbol: p.symbol, leg: p.leg, quantity: p.quantity, entryPrice: p.entryPrice })),
        realizedPnl: book.realizedPnl(),
        ...(u.missing.length === 0 ? { unrealizedPnl: u.value } : {}),
        fees: book.fees().get(this.o.valuationAsset) ?? ZERO,
        openOrders: this.state.openOrders(s.id).length,
        orders: this.state.openOrders(s.id).map((o) => ({ symbol: o.symbol, side: o.side, ...(o.price ? { price: o.price } : {}), ...(o.quantity ? { quantity: o.quantity } : {}) })),
        counters: this.stats.of(s.id),
      };
    });
    const last = this.state.equity.points().at(-1);
    return {
      now,
      elapsedMs: now - this.startedAt,
      marks: this.o.market.symbols.map((symbol) => {
        const mid = midPrice(this.state.lastSnapshot(symbol));
        return { symbol, ...(mid ? { mid } : {}) };
      }),
      strategies,
      totals: this.stats.total(),
      ...(last ? { equity: last.equity } : {}),
      ...(this.stats.killSwitch ? { killSwitch: this.stats.killSwitch } : {}),
      balances: this.state
        .balances()
        .map((b) => ({ asset: b.asset, total: totalOf(b) }))
        .filter((b) => !b.total.isZero()),
      ...(this.stats.lastDenial ? { lastDenial: this.stats.lastDenial } : {}),
      staleSnapshots: this.stats.staleSnapshots,
      snapshots: this.stats.snapshots,
    };
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

  private async runJob(job: Job): Promise<void> {
    if (this.stopping) {
      if (job.kind === 'start') job.done(new Error('stopped before the strategies started'));
      if (job.kind === 'control') job.done(new IllegalTransition('run', 'stopped', job.action.action, 'stopped before it ran'));
      return;
    }
    try {
      if (job.kind === 'snapshot') {
        const snapshot = this.latest.get(job.symbol);
        this.latest.delete(job.symbol);
        if (snapshot) await this.onSnapshot(snapshot);
      } else if (job.kind === 'reconcile') {
        this.reconcileQueued = false;
        await this.onReconcileTick();
      } else if (job.kind === 'control') {
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
      // One failed job must not end the loop; the next snapshot or tick starts from fresh state.
      this.o.logger.error(`${job.kind} job failed`, { error: messageOf(e) });
    }
  }

  private async runControl(action: ControlAction): Promise<ControlOutcome> {
    const runner = this.runners.find((r) => r.strategyId === action.strategyId)!;
    const seen: ExecutionEvent[] = [];
    const sub = this.observed.subscribe((e) => seen.push(e));
    try {
      if (action.action === 'pause') this.paused.add(action.strategyId);
      if (action.action === 'resume') this.paused.delete(action.strategyId);
      const intents = controlIntents(action, runner, this.state, this.o.venues);
      this.o.journal.recordControl({ ...action, ts: this.o.clock.now() });
      await this.process(intents.map((intent) => ({ runner, intent, operator: true })));
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
    await this.process(items);
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
    if (this.snapshotWaiters.length > 0) for (const w of [...this.snapshotWaiters]) if (w()) this.snapshotWaiters.splice(this.snapshotWaiters.indexOf(w), 1);
    const venue = this.venueOfKind(s.kind);
    if (venue) await venue.orders.onSnapshot(s);
    // Most snapshots bring no events and no intents: no trip through process() for nothing.
    const reactions = this.drain();
    if (reactions.length > 0) await this.process(reactions);
    await this.checkKillSwitch(now);
    let items: Pending[] | undefined;
    for (const r of this.runners) {
      if (!this.instrumentsOf.get(r.strategyId)?.includes(s.symbol) || this.paused.has(r.strategyId)) continue;
      const got = this.call(r, () => r.onSnapshot(s));
      if (got.length > 0) (items ??= []).push(...got);
    }
    if (items) await this.process(items);
  }

  private async onReconcileTick(): Promise<void> {
    try {
      await this.reconcileVenues(false);
      this.stats.reconciles++;
      await this.checkProtection();
      await this.pollValuationPrices();
    } catch (e) {
      this.stats.reconcileFailures++;
      this.o.logger.warn('reconciliation failed; trying again at the next tick', { error: messageOf(e) });
    }
    await this.process(this.drain());
  }

  /** Orders and fills, then balances and positions, per venue. Throws when the venue cannot be read. */
  private async reconcileVenues(startup: boolean): Promise<void> {
    for (const v of this.o.venues) {
      const symbols = this.symbolsOfKind(v.kind);
      const contract = v.kind === 'contract';
      // Positions are compared below, after this pass's fills are applied (the order manager would
      // compare them before, and call every fill it learns here a drift).
      await v.orders.reconcile(symbols);
      if (!startup) await v.orders.resolvePending();
      if (contract) await this.bookFunding(v, symbols);
      // Fills (and funding) are applied to the books before the venue's balances replace them (no double count).
      this.applyPending();
      this.state.setAccount(await v.gateway.balances());
      if (contract) {
        let venuePositions = await v.gateway.positions();
        if (startup && this.differs(venuePositions, symbols)) {
          // A fill landing between the fill query and the position query shows as a difference once:
          // fills are read again before a difference is taken as unexplained.
          await v.orders.reconcile(symbols);
          this.applyPending();
          venuePositions = await v.gateway.positions();
        }
        if (startup) {
          this.state.setVenuePositions('contract', venuePositions, 'all');
          this.alignOwners(venuePositions, symbols, UNEXPLAINED_AT_START);
        } else {
          const drifts = this.drifts.check(this.state.accountBook('contract').positions(), venuePositions, this.o.clock.now());
          for (const d of drifts) this.publishLocal(d);
          const keys = new Set(drifts.map((d) => positionKey(d.symbol, d.leg)));
          this.state.setVenuePositions('contract', venuePositions, keys);
          if (keys.size > 0) this.alignOwners(venuePositions, symbols, UNEXPLAINED_DRIFT, keys);
        }
      }
    }
  }

  /** Funding payments the venue settled since the last read, journaled for each leg's owner. A failed read is retried next pass. */
  private async bookFunding(v: ExecutionVenue, symbols: readonly InstrumentSymbol[]): Promise<void> {
    const read = v.gateway.fundingSince?.bind(v.gateway);
    if (!this.funding || !read) return;
    try {
      for (const e of await this.funding.poll(read, symbols, (symbol, leg) => positionOwner(this.owners, symbol, leg))) this.publishLocal(e);
    } catch (e) {
      this.o.logger.warn('funding records could not be read; asked again at the next reconciliation', { error: messageOf(e) });
    }
  }

  /**
   * Prices of what the account holds that no market-data stream covers (ETH in the spot account while
   * the config trades BTCUSDT only): read once per reconciliation. A symbol the venue cannot price stays
   * unvalued, and the kill switch's denial names the asset and the fix.
   */
  private async pollValuationPrices(): Promise<void> {
    const price = this.o.valuationPrice;
    if (!price) return;
    const streamed = new Set<string>(this.o.instruments.all().map((i) => i.symbol));
    let polled = 0;
    for (const symbol of this.state.valuationSymbols()) {
      if (streamed.has(symbol)) continue;
      try {
        this.state.setPolledMark(symbol, await price(symbol));
        polled++;
      } catch (e) {
        if (this.unpriced.has(symbol)) continue;
        this.unpriced.add(symbol);
        this.o.logger.warn(`no valuation price for ${symbol}: the asset it prices stays unvalued (asked again at each reconciliation)`, { error: messageOf(e) });
      }
    }
    if (polled > 0) this.state.updateEquity(this.o.clock.now());
  }

  /** Whether the strategies' books do not add up to the venue's positions somewhere. */
  private differs(venue: readonly Position[], symbols: readonly InstrumentSymbol[]): boolean {
    const found = ownerAdjustments(this.owners, venue, symbols, this.o.clock.now(), '');
    return found.adjustments.length + found.unattributed.length > 0;
  }

  /** Journals the owners' adjustments where the strategies' books do not add up to the venue. */
  private alignOwners(venue: readonly Position[], symbols: readonly InstrumentSymbol[], reason: string, keys?: ReadonlySet<string>): void {
    const found = ownerAdjustments(this.owners, venue, symbols, this.o.clock.now(), reason, keys);
    for (const a of found.adjustments) this.publishLocal(a);
    for (const u of found.unattributed) this.o.logger.warn(`position difference not attributed: ${u}`);
    this.applyPending();
  }

  private noteTpSl(e: ExecutionEvent): void {
    if (e.strategyId === undefined) return;
    if (e.type === 'TpSlAttached') this.tpslUsers.add(`${e.strategyId}|${e.symbol}`);
    else if (e.type === 'OrderSubmitted' && (e.order.takeProfitPrice || e.order.stopLossPrice)) {
      this.tpslUsers.add(`${e.strategyId}|${e.order.symbol}`);
    }
  }

  /**
   * Before the strategies start: the venue's TP/SL orders on every contract symbol a strategy holds a
   * position in, for ctx.protectiveStops(). A strategy restarted on a protected position reads them and
   * keeps them; it used to arm a second stop order on its first snapshot.
   */
  private async readProtectionAtStart(): Promise<void> {
    const v = this.venueOfKind('contract');
    const stops = v?.gateway.protectiveStops?.bind(v.gateway);
    if (!stops) return;
    for (const symbol of this.symbolsOfKind('contract')) {
      const held = this.o.strategies.some((s) => this.state.positions(s.id).some((p) => p.symbol === symbol && !p.quantity.isZero()));
      if (held) await this.readStops(stops, symbol);
    }
  }

  private async readStops(stops: NonNullable<ExchangeGateway['protectiveStops']>, symbol: InstrumentSymbol): Promise<readonly ProtectiveStop[]> {
    const list = await stops(symbol);
    this.state.setProtectiveStops(symbol, list);
    return list;
  }

  /**
   * Tells each strategy holding a contract position that no open TP/SL at the venue protects (once per
   * position size; told again after it was protected and lost it again). Only strategies that have put
   * TP/SL on that symbol are asked about: a strategy that never uses them has nothing to re-arm.
   */
  private async checkProtection(): Promise<void> {
    const v = this.venueOfKind('contract');
    const stops = v?.gateway.protectiveStops?.bind(v.gateway);
    if (!v || !stops) return;
    const venue = this.state.venuePositionsOf('contract');
    for (const symbol of this.symbolsOfKind('contract')) {
      const held: { sid: StrategyId; p: Position }[] = [];
      for (const s of this.o.strategies) {
        if (!this.tpslUsers.has(`${s.id}|${symbol}`)) continue;
        for (const p of this.state.positions(s.id)) {
          if (p.symbol !== symbol || p.quantity.isZero()) continue;
          // Only a position the venue holds the same way can carry a stop order.
          const theirs = venue.find((q) => q.symbol === symbol && q.leg === p.leg);
          if (theirs && theirs.quantity.s === p.quantity.s && !theirs.quantity.isZero()) held.push({ sid: s.id, p });
        }
      }
      if (held.length === 0) continue;
      const protectedSides = new Set((await this.readStops(stops, symbol)).map((x) => x.positionSide));
      const sideOf = (p: Position): 'long' | 'short' => (p.leg === 'net' ? (p.quantity.gt(0) ? 'long' : 'short') : p.leg);
      let heldNow: readonly Position[] | undefined;
      if (held.some(({ p }) => !protectedSides.has(sideOf(p)))) {
        // The positions were read before the stops: a stop that fired in between is gone from the stop
        // list while its position still looks held. Read the position again, so a strategy is not told to
        // re-arm protection on a position the venue has just closed (the next pass books the close).
        heldNow = await v.gateway.positions(symbol);
      }
      for (const { sid, p } of held) {
        const side = sideOf(p);
        const key = `${sid}|${symbol}|${p.leg}`;
        const told = `${key}|${p.quantity.toFixed()}`;
        if (protectedSides.has(side)) {
          for (const k of [...this.toldUnprotected]) if (k.startsWith(`${key}|`)) this.toldUnprotected.delete(k);
          continue;
        }
        if (heldNow && !heldNow.some((q) => q.symbol === symbol && q.leg === p.leg && q.quantity.s === p.quantity.s && !q.quantity.isZero())) continue;
        if (this.toldUnprotected.has(told)) continue;
        this.toldUnprotected.add(told);
        this.publishLocal({ type: 'ProtectionMissing', ts: this.o.clock.now(), strategyId: sid, symbol, leg: p.leg, quantity: p.quantity });
      }
    }
  }

  /**
   * A reduce-only (or hedged closing) contract order is checked against the venue's position first:
   * when the venue no longer holds what it would close (a TP/SL, liquidation or manual close got there
   * first), it is not sent; the fills that closed the position are learned and booked instead.
   * Undefined: send it.
   */
  private async venueRefusesClose(venue: ExecutionVenue, intent: Intent): Promise<string | undefined> {
    if (intent.kind !== 'place' || venue.kind !== 'contract') return undefined;
    const spec = intent.order;
    const hedgedClose = (spec.positionSide === 'long' && spec.side === 'sell') || (spec.positionSide === 'short' && spec.side === 'buy');
    const closing = spec.reduceOnly === true || hedgedClose;
    if (!closing || !spec.quantity) return undefined;
    const leg = spec.positionSide ?? 'net';
    let held: Decimal;
    try {
      held = (await venue.gateway.positions(spec.symbol)).find((p) => p.symbol === spec.symbol && p.leg === leg)?.quantity ?? ZERO;
    } catch (e) {
      // The venue cannot be read: it still judges the order itself (a reduce-only close of nothing is refused).
      this.o.logger.debug('position check before a close failed; sending', { error: messageOf(e) });
      return undefined;
    }
    const closable = spec.side === 'sell' ? held : held.neg();
    if (closable.gte(spec.quantity)) return undefined;
    try {
      await venue.orders.reconcile([spec.symbol]);
      this.applyPending();
    } catch (e) {
      this.o.logger.warn('reconciliation after a position check failed', { error: messageOf(e) });
    }
    const closes = closable.lte(0) ? 'nothing' : `more than ${closable.toFixed()}`;
    const order = `a ${spec.side} of ${spec.quantity.toFixed()}`;
    return `the venue holds ${held.toFixed()} on ${spec.symbol} ${leg}: ${order} would close ${closes}; not sent`;
  }

  // ---------------------------------------------------------------- intents

  private async process(items: readonly Pending[]): Promise<void> {
    const queue = [...items];
    let n = 0;
    while (queue.length > 0) {
      if (++n > MAX_INTENTS_PER_JOB) {
        this.o.logger.warn('too many intents in one job; the rest are dropped', { dropped: queue.length });
        return;
      }
      const { runner, intent, operator } = queue.shift()!;
      if (!operator && this.paused.has(runner.strategyId) && intent.kind !== 'cancel' && intent.kind !== 'cancel-all') {
        this.deny(intent, 'paused', `strategy ${runner.strategyId} is paused from the console`);
      } else await this.carryOut(runner, intent);
      queue.push(...this.drain());
    }
  }

  private async carryOut(runner: StrategyRunner, raw: Intent): Promise<void> {
    const o = this.o;
    const intent = this.applyPolicy(raw);
    const symbol = intentSymbol(intent);
    if (intent.kind === 'cancel-all' && symbol === undefined) {
      // Every account this strategy trades on.
      for (const v of o.venues) await this.execute(v, intent);
      return;
    }
    const kind: InstrumentKind = intent.kind === 'set-position-mode' || (symbol !== undefined && isContractSymbol(symbol)) ? 'contract' : 'spot';
    const venue = this.venueOfKind(kind);
    if (!venue) {
      this.deny(intent, 'venue', `no ${kind} account in this run (the config trades no ${kind} instrument)`);
      return;
    }
    const inst = symbol ? o.instruments.instrument(symbol) : undefined;
    const decision = o.risk.evaluate(intent, inst, this.state.riskState(o.clock.now(), kind, runner.strategyId, symbol));
    for (const e of decision.events) this.publishLocal(e);
    if (decision.approved) {
      // Our book believes in the position the close reduces (risk passed it): the venue must too.
      const refused = await this.venueRefusesClose(venue, decision.approved);
      if (refused) this.deny(decision.approved, 'venue-position', refused);
      else await this.execute(venue, decision.approved);
    }
    if (decision.events.some((e) => e.type === 'KillSwitchTripped')) await this.pullEverything();
  }

  /** Cancels every strategy's orders on every venue (kill switch). */
  private async pullEverything(): Promise<void> {
    for (const r of this.runners) {
      for (const v of this.o.venues) if (v.orders.liveOrders({ strategyId: r.strategyId }).length > 0) await this.execute(v, r.context.intents.cancelAll(undefined, 'strategy'));
    }
  }

  private async execute(venue: ExecutionVenue, intent: Intent): Promise<void> {
    try {
      await venue.orders.execute(intent);
    } catch (e) {
      this.publishLocal({ type: 'IntentFailed', ts: this.o.clock.now(), strategyId: intent.strategyId, intent, reason: messageOf(e) });
    }
  }

  /** Config limits on what strategies ask: chase reprices bounded, a default cap for uncapped chases. */
  private applyPolicy(intent: Intent): Intent {
    if (intent.kind !== 'chase') return intent;
    const p = this.o.policy;
    let out: Intent = intent.maxReprices > p.chaseMaxReprices ? { ...intent, maxReprices: p.chaseMaxReprices } : intent;
    if (out.kind === 'chase' && !out.priceCap && p.chasePriceCapBps) {
      const order = this.state.order(out.clientOrderId);
      if (order?.price) {
        const f = p.chasePriceCapBps.div(10_000);
        out = { ...out, priceCap: order.price.mul(order.side === 'buy' ? D(1).plus(f) : D(1).minus(f)) };
      }
    }
    return out;
  }

  private deny(intent: Intent, rule: string, reason: string): void {
    this.publishLocal({ type: 'IntentDenied', ts: this.o.clock.now(), strategyId: intent.strategyId, intent, rule, reason });
  }

  /** Events made here (risk denials, kill switch, failures): journaled, then queued like the order managers' events. */
  private publishLocal(e: ExecutionEvent): void {
    this.o.journal.recordEvent(e);
    this.pending.push(e);
  }

  private async checkKillSwitch(now: number): Promise<void> {
    // Unknown equity is judged (fail closed) when an intent is checked; it does not trip the latch here.
    if (this.state.updateEquity(now) === undefined) return;
    const tripped = this.o.risk.checkKillSwitch(this.state.killSwitchState(now));
    if (!tripped) return;
    this.publishLocal(tripped);
    // Pull every strategy's resting orders at once; new intents are denied by the latched switch.
    await this.pullEverything();
  }

  // ---------------------------------------------------------------- events

  /** Applies queued events to the caches and counters (no strategy is told yet). */
  private applyPending(): void {
    while (this.pending.length > 0) {
      const e = this.pending.shift()!;
      this.observe(e);
      this.applied.push(e);
    }
  }

  /** Applies what is not applied yet, then tells the strategies; returns the intents they answer with. */
  private drain(): Pending[] {
    this.applyPending();
    const out: Pending[] = [];
    while (this.applied.length > 0) {
      const e = this.applied.shift()!;
      for (const r of this.runners) out.push(...this.call(r, () => r.onExecution(e)));
    }
    return out;
  }

  private observe(e: ExecutionEvent): void {
    this.noteTpSl(e);
    this.state.apply(e);
    this.stats.onEvent(e);
    this.o.risk.observe(e);
    this.log(e);
    this.observed.next(e);
  }

  private call(r: StrategyRunner, fn: () => Intent[]): Pending[] {
    try {
      return fn().map((intent) => ({ runner: r, intent }));
    } catch (e) {
      // A throwing strategy loses this call, not the run.
      this.stats.strategyErrors++;
      this.o.logger.error(`strategy ${r.strategyId} threw`, { error: messageOf(e) });
      return [];
    }
  }

  private log(e: ExecutionEvent): void {
    const line = describeEvent(e);
    if (line) this.o.logger[line.level](line.message, line.meta);
  }

  // ---------------------------------------------------------------- shutdown

  private async shutdown(reason: string): Promise<RunSummary> {
    const o = this.o;
    o.clock.clearTimer(this.reconcileTimer);
    // The job in flight finishes; no new one starts (runJob checks `stopping`).
    await this.jobs.idle();
    this.loop?.unsubscribe();
    this.control.complete();
    try {
      await o.market.stop();
    } catch (e) {
      o.logger.warn('market data did not stop cleanly', { error: messageOf(e) });
    }
    const items: Pending[] = [];
    for (const r of this.runners) {
      try {
        for (const intent of await r.stop()) items.push({ runner: r, intent });
      } catch (e) {
        o.logger.error(`strategy ${r.strategyId} failed to stop`, { error: messageOf(e) });
      }
    }
    await this.process(items);

    let cancelledOnExit = 0;
    if (o.policy.cancelOnExit) {
      const before = this.stats.total().cancels;
      await this.cancelOwnOrders();
      cancelledOnExit = this.stats.total().cancels - before;
    }
    // Late fills and the venue's final word on what was cancelled.
    try {
      await this.reconcileVenues(false);
    } catch (e) {
      o.logger.warn('final reconciliation failed', { error: messageOf(e) });
    }
    this.drainQuietly();
    for (const s of this.subscriptions.splice(0)) s.unsubscribe();
    this.state.updateEquity(o.clock.now());
    const status = this.status();
    const openOrdersLeft = this.ourLiveOrders();
    o.journal.endRun(o.clock.now(), reason);
    return { ...status, reason, runId: this.run?.id ?? 0, cancelledOnExit, openOrdersLeft };
  }

  /**
   * Cancel on exit: every live order of our strategies is cancelled; while some are still live (a cancel
   * met a 5xx, a reset or a lost answer), the venue is asked what became of them (unknown outcomes
   * resolved, closed ones closed, resting ones listed) and the rest cancelled again, at most
   * EXIT_CANCEL_ROUNDS times. One failed cancel used to leave the order resting after a "clean" stop
   * (the chaos suite's orphan market-maker quote).
   */
  private async cancelOwnOrders(): Promise<void> {
    const o = this.o;
    for (let round = 1; ; round++) {
      for (const r of this.runners) {
        for (const v of o.venues) {
          if (v.orders.liveOrders({ strategyId: r.strategyId }).length === 0) continue;
          await this.execute(v, r.context.intents.cancelAll(undefined, 'strategy'));
        }
      }
      this.drainQuietly();
      const left = this.ourLiveOrders();
      if (left.length === 0) return;
      if (round === EXIT_CANCEL_ROUNDS) {
        o.logger.warn(`${left.length} order(s) still live after ${round} rounds of cancel on exit`, { orders: left.map((x) => x.clientOrderId) });
        return;
      }
      try {
        await this.reconcileVenues(false);
      } catch (e) {
        o.logger.warn('reconciliation between exit cancels failed', { error: messageOf(e) });
      }
      this.drainQuietly();
    }
  }

  /** Live orders of this run's strategies, on every venue. */
  private ourLiveOrders(): Order[] {
    return this.o.venues.flatMap((v) => v.orders.liveOrders({}).filter((ord) => this.runners.some((r) => r.strategyId === ord.strategyId)));
  }

  /** Applies pending events without asking strategies for more (they are stopped). */
  private drainQuietly(): void {
    this.applyPending();
    this.applied.length = 0;
  }

  // ---------------------------------------------------------------- lookups

  private venueOfKind(kind: InstrumentKind): ExecutionVenue | undefined {
    return this.o.venues.find((v) => v.kind === kind);
  }

  private symbolsOfKind(kind: InstrumentKind): InstrumentSymbol[] {
    return this.o.instruments
      .all()
      .filter((i) => i.kind === kind)
      .map((i) => i.symbol);
  }
}

/** Cancel → ask the venue → cancel rounds on exit (a venue refusing every cancel must not hang the stop). */
const EXIT_CANCEL_ROUNDS = 5;
const UNEXPLAINED_AT_START = 'start-up: the venue position differs from the journal and no venue fill since explains it';
const UNEXPLAINED_DRIFT = 'drift confirmed by two reconciliations and no venue fill explains it';

function messageOf(e: unknown): string {
  if (e instanceof PerpetuaError) return `${e.name}: ${e.message}`;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
