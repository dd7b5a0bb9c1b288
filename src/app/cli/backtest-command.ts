/**
 * `perpetua backtest <config>`: loads the config and its data, replays the data once per fill model
 * (neutral first, then the band) with a progress bar on stderr (events/s and ETA), and hands the runs
 * to the report writer (report.json + report.html in the output folder). Several fill models of a
 * long run go side by side, this process running one and a worker thread each other (`--workers`,
 * fillModelLanes); a short run, one model or `--workers 1` runs them one after another in this process.
 *
 * Missing data fails before anything runs, naming the config path and the file (the shipped configs
 * read the sample in data/sample/).
 */
import { availableParallelism } from 'node:os';
import { basename, extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import { SystemClock, type Clock } from '../../core/clock.js';
import { D } from '../../core/decimal.js';
import { ConfigError } from '../../core/errors.js';
import type { ClientLogger } from '../../client/catalogue-client.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import { strategyCatalog } from '../../runtime/container/strategy-module.js';
import { loadConfigFileStrategies } from '../../runtime/plugins/strategy-plugins.js';
import { writeReport } from '../../backtest/report/write-report.js';
import { TAPE_DIR } from '../../backtest/report/run-tape.js';
import type { BacktestRun } from '../../backtest/report/backtest-run.js';
import { runFromJson } from '../../backtest/report/run-codec.js';
import { loadBacktestConfig } from '../../backtest/backtest-config.js';
import { loadReplay } from '../../backtest/load-replay.js';
import { runOutcome } from '../../backtest/run-fingerprint.js';
import { runBacktest, type BacktestStats } from '../../backtest/backtest-runner.js';
import type { FillModel } from '../../backtest/fill-model.js';
import type { FillModelWorkerData, FillModelWorkerMessage } from '../../backtest/fill-model-worker.js';

export interface BacktestCommandOptions {
  /** The backtest config (YAML). */
  readonly config: string;
  /** Report folder. Default `var/backtest/<config name>`. */
  readonly out?: string;
  /** Draw the progress bar. Default: when stderr is a terminal. */
  readonly progress?: boolean;
  readonly progressStream?: NodeJS.WritableStream;
  /** Where the summary lines go. Default stdout. */
  readonly output?: NodeJS.WritableStream;
  readonly strategyClasses?: readonly StrategyClass[];
  readonly logger?: ClientLogger;
  /** Times the run for the bar's rate and the summary. Default SystemClock. */
  readonly clock?: Clock;
  /** Folder relative data paths resolve against. Default: the working directory. */
  readonly cwd?: string;
  /**
   * Stream each run's full record to the CSV tape (default). False keeps the whole record in memory
   * instead, as before the tape: the pinned-runs test hashes every order of it.
   */
  readonly tape?: boolean;
  /**
   * Fill models run at once: this process runs one, a worker thread each other (it loads the data itself
   * and streams its own tape; the runs are the same as one after another). Default: all of them when the
   * machine has a core for each and one more and a run is long (fillModelLanes), else 1: one after another
   * in this process, as always for runs given `strategyClasses` or a `logger` (neither crosses to a thread).
   */
  readonly workers?: number;
}

export interface BacktestModelSummary {
  readonly fillModel: string;
  readonly orders: number;
  readonly fills: number;
  readonly finalEquity: string;
  readonly stats: BacktestStats;
}

export interface BacktestCommandSummary {
  readonly out: string;
  readonly json: string;
  readonly html: string;
  readonly records: number;
  readonly models: readonly BacktestModelSummary[];
  readonly runs: readonly BacktestRun[];
  readonly elapsedMs: number;
  /** Groups of fill models whose runs traded exactly alike (identicalModels). */
  readonly identical: readonly (readonly string[])[];
}

export const defaultReportDir = (configFile: string, kind: 'backtest' | 'sweep' = 'backtest'): string =>
  join('var', kind, basename(configFile, extname(configFile)));

/** Neutral first (the report is about it), then the rest in config order. */
export function reportOrder(models: readonly FillModel[]): FillModel[] {
  const neutral = models.find((m) => m.name === 'neutral') ?? models[0]!;
  return [neutral, ...models.filter((m) => m !== neutral)];
}

export async function backtestCommand(opts: BacktestCommandOptions): Promise<BacktestCommandSummary> {
  const clock = opts.clock ?? new SystemClock();
  const started = clock.now();
  const cwd = opts.cwd ?? process.cwd();
  if (!opts.strategyClasses) await loadConfigFileStrategies(opts.config, cwd);
  const config = await loadBacktestConfig(opts.config, strategyCatalog(opts.strategyClasses));
  const models = reportOrder(config.fillModels);
  const out = opts.out ?? defaultReportDir(opts.config);
  const stream = opts.progressStream ?? process.stderr;
  const progress = new ModelProgress(
    (opts.progress ?? (stream as NodeJS.WriteStream).isTTY === true) ? stream : undefined,
    opts.progress === true,
    models,
    clock,
    started,
  );
  const tapeDir = (m: FillModel): string | undefined => (opts.tape === false ? undefined : join(out, TAPE_DIR, m.name));
  let done: { readonly records: number; readonly results: readonly ModelResult[] };
  try {
    const prepared = await loadReplay(config, cwd);
    progress.begin(prepared.perModel);
    const inProcess = async (k: number): Promise<ModelResult> => {
      const model = models[k]!;
      const result = await runBacktest({
        config,
        records: prepared.events,
        fillModel: model,
        streams: prepared.streams,
        ...(opts.strategyClasses ? { strategyClasses: opts.strategyClasses } : {}),
        ...(opts.logger ? { logger: opts.logger } : {}),
        progressEvery: PROGRESS_EVERY,
        // The full record streams to <out>/tape/<model>/ (CSV): memory stays flat however long the run.
        ...(opts.tape === false ? {} : { tapeDir: tapeDir(model)! }),
        onProgress: (events) => progress.update(k, events),
      });
      progress.update(k, result.stats.events);
      return result;
    };
    const lanes = fillModelLanes(opts, models.length, prepared.perModel);
    const results = await runModels(models.length, lanes, inProcess, (k) => onWorker(opts.config, cwd, models[k]!, tapeDir, progress, k));
    done = { records: prepared.records, results };
  } finally {
    progress.stop();
  }
  const runs: BacktestRun[] = done.results.map((r) => r.run);
  const summaries: BacktestModelSummary[] = done.results.map((r, k) => {
    const last = r.run.samples[r.run.samples.length - 1];
    return {
      fillModel: models[k]!.name,
      orders: r.run.tape?.orderCount ?? r.run.orders.length,
      fills: r.run.fills.length,
      finalEquity: last ? last.equity.toFixed() : r.run.initialCapital.toFixed(),
      stats: r.stats,
    };
  });
  const paths = await writeReport(runs, out);
  const elapsedMs = clock.now() - started;
  const w = opts.output ?? process.stdout;
  w.write(
    `backtest ${config.run.strategies[0]!.name} on ${config.instruments.map((i) => i.instrument.symbol).join(', ')}: ${done.records} records, ${models.length} fill models, ${(elapsedMs / 1000).toFixed(1)} s\n`,
  );
  // Money as a person reads it (2 decimals of the valuation asset, like the run summary); the summary keeps it exact.
  const asset = config.run.config.risk.valuationAsset;
  for (const s of summaries) {
    w.write(
      `  ${s.fillModel.padEnd(12)} orders ${String(s.orders).padStart(6)}  fills ${String(s.fills).padStart(6)}  final equity ${D(s.finalEquity).toFixed(2)} ${asset}\n`,
    );
    // The strategies' own figures (e.g. a grid's realised profit apart from its inventory PnL).
    for (const [id, report] of Object.entries(s.stats.strategyReports)) {
      const figures = Object.entries(report).map(([k, v]) => `${k} ${v}`);
      if (figures.length > 0) w.write(`  ${''.padEnd(12)} ${id}: ${figures.join('  ')}\n`);
    }
  }
  const same = identicalModels(runs);
  for (const group of same) {
    const why = runs[0]!.dataRange.klineOnlyIntraBar
      ? ' (kline-only data: fills come from the synthetic intra-bar path, where the models differ only for resting orders)'
      : '';
    w.write(`note: ${group.join(' and ')} gave the same fills (prices, sizes, fees), funding and equity${why}\n`);
  }
  // What the data itself was short of (a coarse mark series…): once, from the report's run.
  for (const x of summaries[0]?.stats.warnings ?? [])
    if (x.startsWith('warn data:')) w.write(`warning: ${x.slice('warn data: '.length)}\n`);
  w.write(`report: ${paths.html}\n`);
  return { out, json: paths.json, html: paths.html, records: done.records, models: summaries, runs, elapsedMs, identical: same };
}

/** Progress callbacks every this many events (a worker posts one message each). */
const PROGRESS_EVERY = 20_000;

export interface ModelResult {
  readonly run: BacktestRun;
  readonly stats: BacktestStats;
}

/**
 * Below this many events per model a run stays in one process by default: a thread pays its own start
 * (loading the code and the data, compiling the pipeline afresh), while a model run after another in the
 * same process reuses the compiled code. Measured on 2 cores with three models: the sample week (42k
 * events a model) took 15.7 s of CPU and 16.4 s one after another, 23.8 s of CPU and 25.1 s on three
 * threads, at load 2–3.
 */
export const THREADS_FROM_EVENTS = 150_000;

/**
 * How many fill models run at once (BacktestCommandOptions.workers): this process is one lane, each
 * other lane a worker thread. `--workers n` asks for n. By default every model at once only when the
 * machine has a core for each model and one more, and a run is long enough to pay a thread's start
 * (THREADS_FROM_EVENTS); else 1. Why not on fewer cores: threads sharing them cost 20–37 % more CPU than
 * the same runs one after another (85.9 vs 71.5 s and 89.1 vs 65.2 s of CPU; the cause not profiled), which a busy
 * machine does not give back — measured on 2 cores, the 50.8-day perp-trend run with three models:
 * 47 s with three at once vs 64 s one after another at load 0.2–2, but 95 s vs 68 s at load 5.
 * Strategy classes and loggers given in process cannot cross to a thread: 1.
 */
export function fillModelLanes(
  opts: Pick<BacktestCommandOptions, 'workers' | 'strategyClasses' | 'logger'>,
  models: number,
  eventsPerModel: number,
  cores: number = availableParallelism(),
): number {
  if (opts.workers !== undefined && (!Number.isInteger(opts.workers) || opts.workers < 1))
    throw new ConfigError('--workers', `a whole number ≥ 1 (got ${String(opts.workers)})`);
  if (opts.strategyClasses !== undefined || opts.logger !== undefined) return 1;
  const wanted = opts.workers ?? (cores > models && eventsPerModel >= THREADS_FROM_EVENTS ? models : 1);
  return Math.max(1, Math.min(models, wanted));
}

/**
 * Runs models 0…n−1 on `lanes` lanes at once: this process takes model 0 and then whatever is left (its
 * code compiled by then), each worker lane one model per thread. Results in model order. The first error
 * ends the run (the threads still running are stopped: see onWorker).
 */
export async function runModels(
  n: number,
  lanes: number,
  inProcess: (k: number) => Promise<ModelResult>,
  onThread: (k: number) => { result: Promise<ModelResult>; stop: () => Promise<void> },
): Promise<ModelResult[]> {
  const results: ModelResult[] = new Array<ModelResult>(n);
  const running = new Set<() => Promise<void>>();
  let next = 0;
  let failed = false;
  const mainLane = async (): Promise<void> => {
    while (!failed && next < n) {
      const k = next++;
      results[k] = await inProcess(k);
    }
  };
  const threadLane = async (): Promise<void> => {
    while (!failed && next < n) {
      const k = next++;
      const t = onThread(k);
      running.add(t.stop);
      try {
        results[k] = await t.result;
      } finally {
        running.delete(t.stop);
      }
    }
  };
  try {
    await Promise.all([mainLane(), ...Array.from({ length: Math.min(lanes, n) - 1 }, threadLane)]);
  } catch (e) {
    failed = true;
    await Promise.all([...running].map((stop) => stop()));
    throw e;
  }
  return results;
}

/** One fill model on a worker thread (fill-model-worker.ts): its result, and a stop for when another lane failed. */
function onWorker(
  configPath: string,
  cwd: string,
  model: FillModel,
  tapeDir: (m: FillModel) => string | undefined,
  progress: ModelProgress,
  k: number,
): { result: Promise<ModelResult>; stop: () => Promise<void> } {
  const dir = tapeDir(model);
  const data: FillModelWorkerData = {
    configPath,
    cwd,
    fillModel: model.name,
    progressEvery: PROGRESS_EVERY,
    ...(dir !== undefined ? { tapeDir: dir } : {}),
  };
  const w = new Worker(new URL('../../backtest/fill-model-worker.js', import.meta.url), { workerData: data });
  const result = new Promise<ModelResult>((resolve, reject) => {
    let settled = false;
    const settle = (r: ModelResult | Error): void => {
      if (settled) return;
      settled = true;
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    w.on('message', (m: FillModelWorkerMessage) => {
      if (m.kind === 'progress') progress.update(k, m.events);
      else if (m.kind === 'done') {
        progress.update(k, m.stats.events);
        settle({ run: runFromJson(m.run), stats: m.stats });
      } else if (m.kind === 'error')
        settle(m.configPath !== undefined ? new ConfigError(m.configPath, m.message) : new Error(`fill model ${model.name}: ${m.message}`));
    });
    w.on('error', (e) => settle(e));
    w.on('exit', (code) =>
      settle(new Error(`fill model ${model.name}: its worker thread stopped (exit code ${code}) before its run ended`)),
    );
  });
  return { result, stop: () => w.terminate().then(() => undefined) };
}

/** The progress bar over every fill model's events (shown only on a terminal, or when asked). */
class ModelProgress {
  private readonly bar: cliProgress.SingleBar | undefined;
  private readonly events: number[];
  private total = 0;

  constructor(
    stream: NodeJS.WritableStream | undefined,
    forced: boolean,
    private readonly models: readonly FillModel[],
    private readonly clock: Clock,
    private readonly started: number,
  ) {
    this.events = models.map(() => 0);
    this.bar =
      stream === undefined
        ? undefined
        : new cliProgress.SingleBar(
            {
              stream,
              format: 'backtest {model} |{bar}| {percentage}% | {value}/{total} events | {rate} ev/s | ETA {eta_formatted}',
              noTTYOutput: forced,
              hideCursor: true,
              etaBuffer: 20,
              fps: 10,
            },
            cliProgress.Presets.shades_classic,
          );
  }

  /** Starts the bar once the events per run are known (the first load). */
  begin(perModel: number): void {
    if (this.total > 0) return;
    this.total = Math.max(1, perModel * this.models.length);
    this.bar?.start(this.total, 0, { model: this.models[0]!.name, rate: 0 });
  }

  update(k: number, events: number): void {
    this.events[k] = events;
    if (this.total === 0) return;
    const done = this.done();
    const secs = Math.max(1e-3, (this.clock.now() - this.started) / 1000);
    this.bar?.update(Math.min(this.total, done), { model: this.models[k]!.name, rate: Math.round(done / secs) });
  }

  stop(): void {
    if (this.total === 0) return;
    const done = this.done();
    this.bar?.update(Math.min(this.total, done), { rate: Math.round(done / Math.max(1e-3, (this.clock.now() - this.started) / 1000)) });
    this.bar?.stop();
  }

  private done(): number {
    let n = 0;
    for (const e of this.events) n += e;
    return n;
  }
}

/**
 * Fill models whose runs came out alike (the same fills at the same prices, sizes and fees, the same
 * funding and equity series: runOutcome), in report order. On a taker-only run over kline data
 * optimistic and neutral cannot differ (only their latency does, and no bar moves within 25 ms), and
 * the user should know the band is narrower than three models suggest (issue 13).
 */
export function identicalModels(runs: readonly BacktestRun[]): string[][] {
  // One run has nothing to be alike with: its outcome hash (every fill, the funding and the equity
  // series as JSON) was 40–60 ms of main-thread CPU of the 50.8-day perp-trend command, for no group.
  if (runs.length < 2) return [];
  const byRecord = new Map<string, string[]>();
  for (const r of runs) {
    const key = runOutcome(r);
    const group = byRecord.get(key);
    if (group) group.push(r.fillModel);
    else byRecord.set(key, [r.fillModel]);
  }
  return [...byRecord.values()].filter((g) => g.length > 1);
}
