/**
 * Runs one backtest: the recorded market replayed on a virtual clock the data drives, the same trading
 * runtime as `perpetua run` (app/runtime/trading-runtime.ts: strategy → risk → order manager, built by
 * the app's container modules with backtest-module.ts in place of the exchange module), the simulated
 * exchange under the gateway, and a BacktestRun for the report.
 *
 * The loop (docs/architecture.md rules 1 and 8): the next thing to happen is either the next record or
 * something due — a request reaching the venue or its answer reaching the bot (latency), a poll cycle
 * or its delivery, a clock timer (the runtime's reconciliation tick), an equity sample. Due things at
 * or before the next record's time go first; the clock moves to each time in turn and never back.
 * After anything that may wake the runtime, the loop lets the runtime's promise chains run until they
 * finish or wait for a later virtual time (a setImmediate turn: nothing in the chain does real I/O),
 * so one snapshot's work completes before the market moves on, as it would live.
 *
 * Shutdown at the end of the data: the runtime stops (strategy onStop, cancel on exit, last
 * reconciliation) with the clock held at the last record's time and requests answered at once.
 * The last equity sample is taken after that, at the last record's time.
 */
import 'reflect-metadata';
import { Container } from 'inversify';
import { SeededRandom } from '../core/random.js';
import { D, type Decimal, ZERO } from '../core/decimal.js';
import { ValidationError } from '../core/errors.js';
import type { InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { ClientLogger } from '../client/catalogue-client.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Fill } from '../domain/fill.js';
import { InstrumentRegistry } from '../domain/instrument-registry.js';
import { isTerminal, type Order } from '../domain/order.js';
import { instrumentKey, type DataRecord } from '../marketdata/record/record.js';
import { Portfolio } from '../portfolio/portfolio.js';
import type { StrategyClass, StrategyReport } from '../strategy/strategy.js';
import { toPollConfig } from '../runtime/config/runtime-settings.js';
import { RUNTIME_TOKENS } from '../runtime/runtime-tokens.js';
import { coreModule } from '../runtime/container/core-module.js';
import { riskModule } from '../runtime/container/risk-module.js';
import { runtimeModule } from '../runtime/container/runtime-module.js';
import { strategyModule } from '../runtime/container/strategy-module.js';
import { HTML_TABLE_LIMIT } from './report/report-html.js';
import { REPORT_SERIES_MAX } from './report/report-json.js';
import { RunTape, SampleThinner } from './report/run-tape.js';
import {
  canonicalJson,
  configHash,
  type RunTapeInfo,
  type BacktestRun,
  type RunFunding,
  type RunInstrument,
  type RunOrder,
  type RunSample,
} from './report/backtest-run.js';
import type { BacktestConfig } from './backtest-config.js';
import { streamsByInstrument, type LoadedRecord } from './backtest-data.js';
import { backtestModule } from './backtest-module.js';
import type { FillModel } from './fill-model.js';
import { ReplayClock } from './replay-clock.js';
import { replayCursor } from './replay-feed.js';
import { ReplayMarket, type ReplayEvent, type ReplayInstrumentSpec, type ReplayStats } from './replay-market.js';
import { NO_TAPE, ReplaySnapshotSource, tapeNeeds, type SnapshotSourceStats } from './replay-snapshot-source.js';
import { SimulatedExchange, type ExchangeStats } from './simulated-exchange.js';
import type { SimVenueOps } from './simulated-gateway.js';
import { SpotSimVenue } from './spot-sim-venue.js';
import { ContractSimVenue } from './contract-sim-venue.js';

export interface BacktestRunOptions {
  readonly config: BacktestConfig;
  /**
   * Records in time order (an array can be replayed again: one run per fill model), or the events
   * prepareReplay() compiled from them (then `streams` is required).
   */
  readonly records: Iterable<DataRecord | ReplayEvent>;
  readonly fillModel: FillModel;
  readonly strategyClasses?: readonly StrategyClass[];
  readonly logger?: ClientLogger;
  /** Called every `progressEvery` events (default 50 000) with the events applied and the virtual time. */
  readonly onProgress?: (events: number, time: number) => void;
  readonly progressEvery?: number;
  /** Streams per record instrument (`spot:BTCUSDT` → {trade, depth.diff, kline:1m …}); default: scanned from `records`. */
  readonly streams?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Stream samples and orders to CSV files in this folder (run-tape.ts) instead of keeping them: the
   * run then holds a thinned series, the first orders and the full equity curve as numbers, so its
   * memory does not grow with its length (the backtest command's path). Absent: everything in memory.
   */
  readonly tapeDir?: string;
  /** With `tapeDir`: booked fills each venue keeps as objects; older ones go to its compact archive (fill-log.ts). Default 1000. */
  readonly keepFills?: number;
  /**
   * Times at which the caller may stop the run early (a sweep's pruning). At each time, once everything
   * at or before it has happened and before anything later does, `check(k, soFar)` sees the run so far
   * (its samples and fills up to the time); true ends the run there as if the data ended: the runtime
   * stops as at the end of the data, at the last record's time. Not with `tapeDir`.
   */
  readonly checkpoints?: { readonly times: readonly number[]; check(index: number, soFar: BacktestRun): boolean };
}

export interface BacktestStats {
  /** Market events applied (records and intra-bar path points). */
  readonly events: number;
  /** Records among them (path points excluded). */
  readonly records: number;
  readonly replay: ReplayStats;
  readonly exchange: ExchangeStats;
  readonly source: SnapshotSourceStats;
  readonly runtime: {
    readonly snapshots: number;
    readonly staleSnapshots: number;
    readonly reconciles: number;
    readonly strategyErrors: number;
  };
  /** Runtime log lines at warn / error (rejections, failures), capped. */
  readonly warnings: readonly string[];
  /** What each strategy reports about itself at the end (Strategy.report), by strategy id. */
  readonly strategyReports: Readonly<Record<string, StrategyReport>>;
}

export interface BacktestResult {
  readonly run: BacktestRun;
  readonly stats: BacktestStats;
  /** The checkpoint (index into `checkpoints.times`) at which the caller stopped the run. */
  readonly stoppedAt?: number;
}

/** Booked fills a venue keeps as objects in a run with a tape (the rest are archived: fill-log.ts). */
const RECENT_FILLS = 1000;
const SILENT: ClientLogger = { debug() {}, info() {}, warn() {}, error() {} };
const MAX_WARNINGS = 200;

/** Lets the runtime's promise chains run until they finish or wait on a later virtual time. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Resumes the replay loop once the runtime's promise chains have run as far as they can, without an
 * event loop turn (about two a bar). Node runs a nextTick callback only once V8's microtask queue is
 * empty (it drains ticks and microtasks in turn until both are), so at that point the chains are done:
 * the state a setImmediate turn gives, since nothing on the run's path waits on a timer, I/O or a
 * nextTick of its own (pinned runs identical either way). A turn of the loop costs an epoll call and the
 * immediate queue each time (~151,600 turns in the 50.8-day perp-trend run). Every SETTLES_PER_TURN-th
 * settle is still a real turn, so signals, I/O (a queue worker's lock renewals) and thread messages are
 * served during a long run; which settles those are changes nothing in the run.
 *
 * The loop resumes as a microtask queued from there, where awaiting a promise resolved there resumed it
 * (the same place in the queue), but with no promise, executor, resolving functions and await closures
 * per settle.
 */
const SETTLES_PER_TURN = 64;
function quickSettler(resume: () => void): () => void {
  let settles = 0;
  const later = (): void => queueMicrotask(resume);
  return () => {
    if (++settles % SETTLES_PER_TURN === 0) setImmediate(later);
    else process.nextTick(later);
  };
}

export async function runBacktest(opts: BacktestRunOptions): Promise<BacktestResult> {
  const cfg = opts.config;
  const bt = cfg.backtest;
  const model = opts.fillModel;
  const valuationAsset = cfg.run.config.risk.valuationAsset;
  const streams =
    opts.streams ??
    (Array.isArray(opts.records)
      ? streamsByInstrument((opts.records as (DataRecord | ReplayEvent)[]).filter((r): r is DataRecord => 'm' in r))
      : new Map<string, Set<string>>());
  const pollConfig = toPollConfig(cfg.run.config);
  const specs = replayInstrumentSpecs(cfg, streams);
  const barInterval: Record<string, NonNullable<(typeof cfg.instruments)[number]['barInterval']>> = {};
  for (const bi of cfg.instruments) if (bi.barInterval) barInterval[instrumentKey(bi.source.market, bi.source.symbol)] = bi.barInterval;

  const unbooked = depthWithoutSnapshot(specs, streams);
  const market = new ReplayMarket(specs);
  const feedCount = { records: 0 };
  const cursor = replayCursor(opts.records, market, {
    ...(bt.from !== undefined ? { from: bt.from } : {}),
    ...(bt.to !== undefined ? { to: bt.to } : {}),
    barInterval,
    counter: feedCount,
  });
  let next = cursor.next();
  if (next === undefined)
    throw new ValidationError(
      'backtest.data',
      `records of ${cfg.instruments.map((i) => i.source.symbol).join(', ')}${bt.from !== undefined || bt.to !== undefined ? ' inside backtest.from / to' : ''}`,
      'none',
    );
  const firstTime = next.et;
  const clock = new ReplayClock(firstTime);
  const exchange = new SimulatedExchange(clock, market, model, new SeededRandom(`${bt.seed}:${model.name}`));
  const registry = new InstrumentRegistry(cfg.instruments.map((i) => i.instrument));
  const spotInstruments = cfg.instruments.filter((i) => i.instrument.kind === 'spot');
  const contractInstruments = cfg.instruments.filter((i) => i.instrument.kind === 'contract');
  const feesOf = (list: typeof cfg.instruments) => list.find((i) => i.fees)?.fees;
  // Spot and contract accounts are separate wallets: a run trading both splits its capital between
  // them (backtest.contractCapital, default half); a run trading one market puts it all there.
  const both = spotInstruments.length > 0 && contractInstruments.length > 0;
  const contractCapital = both ? D(bt.contractCapital ?? D(bt.initialCapital).div(2)) : D(bt.initialCapital);
  const spotCapital = both ? D(bt.initialCapital).minus(contractCapital) : D(bt.initialCapital);
  let spot: SpotSimVenue | undefined;
  let contract: ContractSimVenue | undefined;
  if (spotInstruments.length > 0) {
    const fees = feesOf(spotInstruments);
    spot = new SpotSimVenue({
      exchange,
      instruments: spotInstruments.map((i) => i.instrument as Extract<typeof i.instrument, { kind: 'spot' }>),
      deposits: { [valuationAsset]: spotCapital.toFixed() },
      ...(fees ? { fees } : {}),
    });
  }
  if (contractInstruments.length > 0) {
    const fees = feesOf(contractInstruments);
    contract = new ContractSimVenue({
      exchange,
      instruments: contractInstruments.map((i) => i.instrument as Extract<typeof i.instrument, { kind: 'contract' }>),
      deposits: { [valuationAsset]: contractCapital.toFixed() },
      venueTpsl: bt.venueTpsl,
      ...(fees ? { fees } : {}),
    });
  }
  const source = new ReplaySnapshotSource({ clock, market, config: pollConfig, latencyMs: bt.pollLatencyMs });

  const warnings: string[] = [];
  const base = opts.logger ?? SILENT;
  const logger: ClientLogger = {
    debug: (m, x) => base.debug(m, x),
    info: (m, x) => base.info(m, x),
    warn: (m, x) => {
      if (warnings.length < MAX_WARNINGS) warnings.push(`warn ${m}`);
      base.warn(m, x);
    },
    error: (m, x) => {
      if (warnings.length < MAX_WARNINGS) warnings.push(`error ${m}${x?.error ? `: ${String(x.error)}` : ''}`);
      base.error(m, x);
    },
  };

  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(RUNTIME_TOKENS.Container).toConstantValue(container);
  const runOptions = { env: {}, logger, clock, ...(opts.strategyClasses ? { strategyClasses: opts.strategyClasses } : {}) };
  container.load(
    coreModule(cfg.run, runOptions, clock),
    strategyModule(opts.strategyClasses),
    riskModule(cfg.run.config),
    backtestModule({
      market,
      exchange,
      source,
      instruments: registry,
      ...(spot ? { spot } : {}),
      ...(contract ? { contract, positionMode: 'one-way' as const } : {}),
    }),
    runtimeModule(),
  );
  const runtime = await container.getAsync(RUNTIME_TOKENS.Runtime);
  const venues = await container.getAsync(RUNTIME_TOKENS.Venues);
  const journal = await container.getAsync(RUNTIME_TOKENS.Journal);

  // Every order the run made, latest state, in creation order. With a tape, an order leaves memory for
  // the tape once it is final (numbered in creation order so the tape keeps that order).
  const symbols = cfg.instruments.map((i) => i.instrument.symbol);
  const tape = opts.tapeDir !== undefined ? new RunTape(opts.tapeDir, symbols, HTML_TABLE_LIMIT) : undefined;
  const orders = new Map<string, Order>();
  const created = new Map<string, number>();
  let finishedCount = 0;
  for (const v of venues) {
    // Orders of this venue already on the tape, while its order manager still knows them (it forgets a
    // closed order after retainClosedMs; then order() answers nothing and the event is dropped above
    // the check): pruned as it grows, so a long run does not hold every client id it ever used.
    const finished = new Set<string>();
    let pruneAt = 10_000;
    v.orders.events$.subscribe((e: ExecutionEvent) => {
      const cid =
        'clientOrderId' in e && e.clientOrderId !== undefined
          ? e.clientOrderId
          : e.type === 'OrderSubmitted' || e.type === 'OrderAdopted'
            ? e.order.clientOrderId
            : undefined;
      if (cid === undefined) return;
      const o = v.orders.order(cid);
      if (!o) return;
      if (!tape) {
        orders.set(cid, o);
        return;
      }
      if (finished.has(cid)) return;
      if (!created.has(cid)) created.set(cid, created.size + finishedCount);
      if (isTerminal(o.status)) {
        tape.orderDone(created.get(cid)!, o as RunOrder);
        created.delete(cid);
        orders.delete(cid);
        finished.add(cid);
        finishedCount++;
        if (finished.size >= pruneAt) {
          for (const c of finished) if (!v.orders.order(c)) finished.delete(c);
          pruneAt = Math.max(10_000, 2 * finished.size);
        }
      } else orders.set(cid, o);
    });
  }

  // Ground truth for the equity curve: every fill and funding payment the venue made, as it happened.
  const truth = new Portfolio(registry, valuationAsset);
  truth.setBalance(valuationAsset, D(bt.initialCapital));
  const ops: SimVenueOps[] = [spot, contract].filter((x): x is SpotSimVenue | ContractSimVenue => x !== undefined);
  const applied = ops.map(() => 0);
  const keepFills = Math.max(1, opts.keepFills ?? RECENT_FILLS);
  const funding: RunFunding[] = [];
  let fundingApplied = 0;
  const catchUp = (): void => {
    ops.forEach((o, k) => {
      // applied[k]: this venue's fills booked so far, archived ones included (fills[0] is number `archived`).
      const fills = o.fills;
      const archived = o.fillLog.archived;
      for (let i = applied[k]! - archived; i < fills.length; i++) truth.applyFill(fills[i]!);
      applied[k] = archived + fills.length;
      // With a tape, booked fills beyond the newest few leave the heap for the venue's compact archive.
      if (tape && fills.length >= 2 * keepFills) o.fillLog.archiveOldest(fills.length - keepFills);
    });
    if (contract) {
      const list = contract.funding;
      for (; fundingApplied < list.length; fundingApplied++) {
        const f = list[fundingApplied]!;
        truth.applyFunding(f.symbol as InstrumentSymbol, f.leg, f.amount, f.asset, f.time);
        funding.push({ time: f.time, symbol: f.symbol, amount: f.amount, asset: f.asset, ...(f.rate ? { rate: f.rate } : {}) });
      }
    }
  };
  const samples: RunSample[] = [];
  // With a tape: the newest sample waits (the final one may replace it), the rest go to the tape, the
  // thinned series and the full-resolution equity columns.
  const thinner = new SampleThinner(REPORT_SERIES_MAX);
  const equityTimes: number[] = [];
  const equityValues: number[] = [];
  let pending: RunSample | undefined;
  const keep = (x: RunSample): void => {
    if (!tape) {
      if (samples[samples.length - 1]?.time === x.time) samples.pop();
      samples.push(x);
      return;
    }
    if (pending && pending.time !== x.time) {
      const equity = tape.sample(pending);
      thinner.add(pending);
      equityTimes.push(pending.time);
      // The tape's text read back (toNumber would convert to text a second time); a zero asks the
      // Decimal, whose -0 the text does not show.
      const value = Number(equity);
      equityValues.push(value === 0 ? pending.equity.toNumber() : value);
    }
    pending = x;
  };
  let lastEquity: Decimal | undefined;
  const sampled = symbols.map((s) => ({ symbol: s, inst: market.instrument(s) }));
  /** Fills and funding applied to `truth` so far: positions only change with them. */
  const truthVersion = (): number => applied.reduce((a, b) => a + b, 0) + fundingApplied;
  let positionsAt = -1;
  let positions: Record<string, Decimal> = {};
  const sample = (time: number): void => {
    catchUp();
    const marks: Record<string, Decimal> = {};
    for (const { symbol, inst } of sampled) {
      const m = inst?.markPrice();
      if (m) marks[symbol] = m;
    }
    const lookup = (s: InstrumentSymbol): Decimal | undefined => marks[s];
    const equity = truth.equity(lookup) ?? lastEquity ?? D(bt.initialCapital);
    lastEquity = equity;
    // Samples are immutable records: one positions object serves every sample until a fill moves it.
    const version = truthVersion();
    if (version !== positionsAt) {
      positionsAt = version;
      positions = {};
      for (const p of truth.positions()) {
        if (p.quantity.isZero()) continue;
        positions[p.symbol] = (positions[p.symbol] ?? ZERO).plus(p.quantity);
      }
    }
    keep({ time, equity, cash: truth.balance(valuationAsset), positions, marks });
  };

  for (const key of unbooked) {
    logger.warn(
      `data: ${key} has depth diffs but no depth snapshot, and diffs make no book without one: the book comes from its bookTicker records (top of book only)`,
    );
  }

  // ---------------------------------------------------------------- the run, at the end or so far
  const document = canonicalJson(cfg.document) as Record<string, unknown>;
  const strategyInfo = cfg.run.strategies[0]!;
  const fills = (): Fill[] => ops.flatMap((o) => o.fillLog.all()).sort((a, b) => a.time - b.time);
  const instruments: RunInstrument[] = cfg.instruments.map((i) => ({
    symbol: i.instrument.symbol,
    kind: i.instrument.kind,
    multiplier: i.instrument.kind === 'contract' ? i.instrument.contractSize : D(1),
    settleAsset: i.instrument.kind === 'contract' ? i.instrument.settleCoin : i.instrument.quoteAsset,
  }));
  const streamNames = new Set<string>();
  for (const s of specs) for (const x of streams.get(instrumentKey(s.source.market, s.source.symbol)) ?? []) streamNames.add(x);
  const assemble = (runSamples: RunSample[], runOrders: RunOrder[], tapeInfo: RunTapeInfo | undefined, all = fills()): BacktestRun => {
    return {
      config: document,
      configHash: configHash(document),
      strategy: {
        id: strategyInfo.id as StrategyId,
        name: strategyInfo.name,
        params: canonicalJson(strategyInfo.params) as Record<string, unknown>,
      },
      seed: bt.seed,
      fillModel: model.name,
      dataRange: {
        firstTime,
        lastTime,
        instruments: symbols,
        streams: [...streamNames].sort(),
        recordCount: feedCount.records,
        klineOnlyIntraBar: specs.some((s) => s.klineOnly),
      },
      instruments,
      initialCapital: D(bt.initialCapital),
      valuationAsset,
      orders: runOrders,
      fills: all,
      funding,
      totalFees: totalFees(all, valuationAsset),
      samplePeriodMs: bt.samplePeriodMs,
      samples: runSamples,
      ...(bt.riskFreeRate !== undefined ? { riskFreeRate: bt.riskFreeRate } : {}),
      ...(tapeInfo ? { tape: tapeInfo } : {}),
    };
  };
  if (opts.checkpoints && tape)
    throw new ValidationError('checkpoints', 'a run without tapeDir (the run so far is read from memory)', 'a tapeDir');
  /** The run up to now (a checkpoint): the fills so far reach the samples' portfolio first. */
  const runSoFar = (): BacktestRun => {
    catchUp();
    return { ...assemble([...samples], [...orders.values()] as RunOrder[], undefined), funding: [...funding] };
  };

  // ---------------------------------------------------------------- the loop
  let failure: unknown;
  const fail = (e: unknown): void => {
    failure ??= e;
  };
  source.begin(firstTime);
  const started = runtime.start().catch(fail);
  let eventCount = 0;
  const every = opts.progressEvery ?? 50_000;
  let nextSample = firstTime;
  let lastTime = firstTime;
  const dueAt = (): number =>
    Math.min(exchange.nextDueAt() ?? Infinity, source.nextDueAt() ?? Infinity, clock.nextTimerAt() ?? Infinity, nextSample);
  await settle();
  let due = dueAt();
  let resumeReplay = (): void => {};
  const settleQuick = quickSettler(() => resumeReplay());
  const checkTimes = opts.checkpoints?.times ?? [];
  let checkAt = 0;
  let stoppedAt: number | undefined;
  // The loop is a function of its own: V8 compiles a hot loop by compiling its whole function (on-stack
  // replacement), and inside runBacktest every deopt anywhere in ~400 lines recompiled all of them —
  // 117 to 628 ms a compile, five compiles in a 12-run sweep worker (--trace-opt), on a core the other
  // worker needed.
  //
  // The loop runs until the runtime must run (step returns false: a settle resumes it) or the replay is
  // over (true). Callbacks, not an awaiting async function: a promise and its closures per settle were
  // ~700 B a bar of a 50.8-day kline run.
  let settling = false;
  const step = (): boolean => {
    if (settling) {
      settling = false;
      due = dueAt();
    }
    loop: while (failure === undefined) {
      const e: ReplayEvent | undefined = next;
      const tRec = e ? e.et : Infinity;
      // A checkpoint is passed when the next thing to happen is after it: everything up to it is done.
      while (checkAt < checkTimes.length && Math.min(due, tRec) > checkTimes[checkAt]!) {
        if (opts.checkpoints!.check(checkAt, runSoFar())) {
          stoppedAt = checkAt;
          break loop;
        }
        checkAt++;
      }
      const checkTime = checkTimes[checkAt] ?? Infinity;
      if (due <= tRec && due !== Infinity) {
        // After the last record, what is still due belongs to the shutdown (below).
        if (e === undefined && due > lastTime) break;
        const t = Math.max(due, clock.now());
        const timersDue = (clock.nextTimerAt() ?? Infinity) <= t;
        clock.advanceTo(t);
        const answered = exchange.runDue(t);
        const delivered = source.runDue(t);
        while (nextSample <= t) {
          sample(nextSample);
          nextSample += bt.samplePeriodMs;
        }
        // Only timers, venue answers and snapshot deliveries start promise work in the runtime; a poll
        // capture or an equity sample alone does not, and then there is nothing to let run.
        if (timersDue || answered > 0 || delivered > 0) {
          settling = true;
          settleQuick();
          return false;
        }
        due = dueAt();
        continue;
      }
      if (e === undefined) break;
      // Every event before the next due thing, in one go: nothing in between can make something due
      // earlier (only the runtime schedules, and it runs in the settle turns above).
      let x: ReplayEvent | undefined = e;
      let now = clock.now();
      const progress = opts.onProgress;
      do {
        const t = x.et;
        if (t > now) {
          clock.advanceTo(t);
          now = t;
        }
        market.apply(x);
        lastTime = t;
        eventCount++;
        if (progress && eventCount % every === 0) progress(eventCount, t);
        x = cursor.next();
        // Stop at a checkpoint too: the next turn of the loop takes it before anything later.
      } while (x !== undefined && x.et < due && x.et <= checkTime);
      next = x;
    }
    return true;
  };
  const replay = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      resumeReplay = () => {
        try {
          if (step()) resolve();
        } catch (e) {
          reject(e);
        }
      };
      resumeReplay();
    });
  await replay();
  // A start still waiting at the end of the data (data shorter than the first poll cycle: the first
  // snapshot, which the start waits for, would come after the last record) never finishes; the run
  // goes on to its shutdown instead of waiting for it forever.
  await Promise.race([started, settle()]);
  if (failure !== undefined) {
    container.unbindAll();
    throw failure;
  }
  opts.onProgress?.(eventCount, lastTime);

  // ---------------------------------------------------------------- shutdown at the last record's time
  if (clock.now() < lastTime) clock.advanceTo(lastTime);
  let stopped = false;
  const stopping = runtime
    .stop('end of data')
    .catch(fail)
    .finally(() => {
      stopped = true;
    });
  for (let guard = 0; !stopped && guard < 100_000; guard++) {
    await settle();
    exchange.flush();
  }
  await stopping;
  if (failure !== undefined) throw failure;
  sample(lastTime);
  for (const inst of market.instruments) {
    if (!inst.coarseMark) continue;
    const m =
      `data: the recorded mark of ${inst.key} is sampled as coarsely as every ${duration(inst.fairGapMs)}, coarser than the traded data ` +
      `(a mark may lag it by ${duration(inst.markMaxAgeMs)}): the traded price stood in for the mark whenever the mark was older than that`;
    logger.warn(m);
  }
  const status = runtime.stats;
  journal.close();

  let tapeInfo: RunTapeInfo | undefined;
  let runSamples = samples;
  let runFills: Fill[] | undefined;
  if (tape) {
    if (pending) keep({ ...pending, time: Infinity }); // flushes the newest real sample
    // Orders still open at the end, in creation order.
    for (const [cid, o] of [...orders].sort((a, b) => created.get(a[0])! - created.get(b[0])!))
      tape.orderDone(created.get(cid)!, o as RunOrder);
    runFills = fills();
    const t = tape.close(runFills, funding);
    const thinned = thinner.result();
    runSamples = thinned.samples;
    tapeInfo = {
      dir: t.dir,
      stride: thinned.stride,
      equity: { times: equityTimes, values: equityValues },
      orderCount: t.orders,
      ordersHash: t.ordersHash,
      sampleCount: t.samples,
    };
  }
  const run = assemble(runSamples, tape ? tape.firstOrders : ([...orders.values()] as RunOrder[]), tapeInfo, runFills);
  const result: BacktestResult = {
    run,
    stats: {
      events: eventCount,
      records: feedCount.records,
      replay: { ...market.stats },
      exchange: { ...exchange.stats },
      source: { ...source.stats },
      runtime: {
        snapshots: status.snapshots,
        staleSnapshots: status.staleSnapshots,
        reconciles: status.reconciles,
        strategyErrors: status.strategyErrors,
      },
      warnings,
      strategyReports: Object.fromEntries(
        runtime.strategyRunners.flatMap((r) => (r.strategy.report ? [[r.strategyId, r.strategy.report()]] : [])),
      ),
    },
    ...(stoppedAt !== undefined ? { stoppedAt } : {}),
  };
  market.dispose();
  return result;
}

/**
 * The replay's instruments for a config: kline-only ones (their bars become intra-bar paths) told
 * apart by their streams, and each tape keeping only what the config's polls read (tapeNeeds()).
 * `streams` as in BacktestRunOptions.
 */
export function replayInstrumentSpecs(cfg: BacktestConfig, streams: ReadonlyMap<string, ReadonlySet<string>>): ReplayInstrumentSpec[] {
  const needs = tapeNeeds(toPollConfig(cfg.run.config));
  return cfg.instruments.map((bi) => {
    const key = instrumentKey(bi.source.market, bi.source.symbol);
    const s = streams.get(key);
    const klineOnly =
      s !== undefined &&
      [...s].some((x) => x.startsWith('kline:')) &&
      !s.has('trade') &&
      !s.has('depth.snapshot') &&
      !s.has('depth.diff') &&
      !s.has('bookTicker');
    return {
      instrument: bi.instrument,
      source: bi.source,
      quantityFactor: bi.quantityFactor,
      klineOnly,
      tape: needs.get(bi.instrument.symbol) ?? NO_TAPE,
      ...(bi.path ? { path: bi.path } : {}),
    };
  });
}

/**
 * Instruments whose depth diffs can make no book (no snapshot among the streams) and the bookTicker
 * records that stand in (issue 13, defect 4: such a store used to give an empty run and no word).
 * Without bookTicker either the run is refused: nothing could ever trade.
 */
function depthWithoutSnapshot(specs: readonly ReplayInstrumentSpec[], streams: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const out: string[] = [];
  for (const spec of specs) {
    const key = instrumentKey(spec.source.market, spec.source.symbol);
    const s = streams.get(key);
    if (!s || !s.has('depth.diff') || s.has('depth.snapshot')) continue;
    if (!s.has('bookTicker')) {
      throw new ValidationError(
        'backtest.data',
        `a depth snapshot (or bookTicker records) for ${key}: its depth diffs make no book without one (import the recording's file with the REST snapshot line first)`,
        'depth diffs only',
      );
    }
    out.push(key);
  }
  return out;
}

export interface PreparedReplay {
  /** Depth and trade records compiled to ticks and lots; the rest as read. */
  readonly events: readonly ReplayEvent[];
  readonly streams: Map<string, Set<string>>;
}

/**
 * Converts the records' prices and sizes once for every run of the same config (the fill-model band,
 * a sweep): replaying compiled events parses no decimal strings.
 */
export function prepareReplay(config: BacktestConfig, records: readonly LoadedRecord[]): PreparedReplay {
  const market = new ReplayMarket(
    config.instruments.map((bi) => ({ instrument: bi.instrument, source: bi.source, quantityFactor: bi.quantityFactor })),
  );
  return { events: market.compile(records), streams: streamsByInstrument(records) };
}

/** 28800000 → '8 h', 60000 → '1 min', 1500 → '1.5 s'. */
function duration(ms: number): string {
  if (ms >= 3_600_000 && ms % 60_000 === 0) return `${+(ms / 3_600_000).toFixed(2)} h`;
  if (ms >= 60_000) return `${+(ms / 60_000).toFixed(2)} min`;
  return `${+(ms / 1000).toFixed(3)} s`;
}

/** Fees in the valuation asset: a fee in another asset (spot buys pay in the base) at the fill's price. */
export function totalFees(fills: readonly Fill[], valuationAsset: string): Decimal {
  let t = ZERO;
  for (const f of fills) {
    if (f.fee.isZero()) continue;
    t = t.plus(f.feeAsset === valuationAsset || f.feeAsset === '' ? f.fee : f.fee.mul(f.price));
  }
  return t;
}

/**
 * The config's whole fill-model band over the same records (compiled once): neutral first — the run
 * a report is about — then the others in config order; writeReport(results.map((r) => r.run), dir).
 */
export async function runFillModelBand(
  opts: Omit<BacktestRunOptions, 'fillModel' | 'records' | 'streams'> & { readonly records: readonly DataRecord[] },
): Promise<BacktestResult[]> {
  const prepared = prepareReplay(opts.config, opts.records);
  const models = opts.config.fillModels;
  const neutral = models.find((m) => m.name === 'neutral') ?? models[0]!;
  const out: BacktestResult[] = [];
  for (const fillModel of [neutral, ...models.filter((m) => m !== neutral)])
    out.push(await runBacktest({ ...opts, records: prepared.events, streams: prepared.streams, fillModel }));
  return out;
}
