/**
 * `perpetua sweep <config>`: searches the config's parameter space (`sweep.parameters`: a grid, random
 * draws or TPE, within a budget of runs or time) in parallel worker threads, one point per run with
 * `sweep.fillModel`; ranks the results by the objective with the constraints applied; validates them
 * walk-forward when asked; computes the deflated Sharpe ratio and the probability of backtest
 * overfitting; runs the rest of the fill-model band for the best `sweep.bestN`, and writes the ranked
 * table (sweep.md, sweep.json, sweep.html) with a full report page for each of the best.
 *
 * Results never depend on which worker finished first or how many there are: each run is
 * deterministic, proposals come in batches that depend only on earlier batches, and the ranking breaks
 * ties by the parameters.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import { SystemClock, type Clock } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import { strategyCatalog } from '../../runtime/container/strategy-module.js';
import { loadConfigFileStrategies } from '../../runtime/plugins/strategy-plugins.js';
import { computeMetrics, type Metrics } from '../../backtest/report/metrics.js';
import { runFromJson } from '../../backtest/report/run-codec.js';
import type { BacktestRun } from '../../backtest/report/backtest-run.js';
import { rankSweepResults, renderSweepTable, researchLines, writeSweepReport, type SweepReportPaths, type SweepResearch, type SweepResult } from '../../backtest/report/sweep-report.js';
import { type Constraint, type Objective, violations } from '../../backtest/research/objective.js';
import { overfittingOfRuns } from '../../backtest/research/overfitting.js';
import { Sampler, pointKey } from '../../backtest/research/search-space.js';
import { sweepSettings } from '../../backtest/research/sweep-settings.js';
import { walkForward } from '../../backtest/research/walk-forward.js';
import { QueueExecutor } from '../../backtest/research/queue-executor.js';
import { redactUrl } from '../../backtest/research/queue-worker.js';
import { loadBacktestConfig, parseBacktestConfig } from '../../backtest/backtest-config.js';
import { checkDataSources } from '../../backtest/backtest-data.js';
import { dataContentHash } from '../../backtest/research/data-hash.js';
import { SweepCheckpoint, checkpointKey } from '../../backtest/sweep-checkpoint.js';
import { defaultReportDir, reportOrder } from './backtest-command.js';
import { documentWithParams, sweepGrid, type GridPoint } from '../../backtest/sweep-grid.js';
import type { SweepAnswer, SweepJob, SweepWorkerData } from '../../backtest/sweep-worker.js';

export interface SweepCommandOptions {
  readonly config: string;
  /** Output folder. Default `var/sweep/<config name>`. */
  readonly out?: string;
  /** Worker threads. Default: sweep.workers, else the cores less one (at least 1). */
  readonly workers?: number;
  /** A Redis URL: put the runs on the BullMQ queue there for `perpetua worker`s instead of worker threads. */
  readonly queue?: string;
  /** Keep the finished runs of `<out>/checkpoint.jsonl` (an interrupted sweep) and run only the rest. */
  readonly resume?: boolean;
  /** On SIGINT / SIGTERM, say how to resume and exit 130 (the CLI; finished runs are already on disk). */
  readonly handleSignals?: boolean;
  readonly progress?: boolean;
  readonly progressStream?: NodeJS.WritableStream;
  readonly output?: NodeJS.WritableStream;
  readonly clock?: Clock;
  readonly cwd?: string;
}

export interface SweepCommandSummary {
  readonly out: string;
  readonly paths: SweepReportPaths;
  readonly results: readonly SweepResult[];
  readonly table: string;
  readonly runs: number;
  readonly elapsedMs: number;
  readonly research: SweepResearch;
  /** Runs taken from the checkpoint (`resume`) rather than run again. */
  readonly resumed: number;
}

interface Pending {
  readonly resolve: (r: BacktestRun) => void;
  readonly reject: (e: Error) => void;
}

/** Where the runs of a sweep execute: worker threads here, or a BullMQ queue served by `perpetua worker`s. */
interface RunExecutor {
  run(point: GridPoint, fillModel: string): Promise<BacktestRun>;
  /** Where runs go, for the progress line (`2 threads`, `3 queue workers`). */
  where(): Promise<string>;
  /** The sweep's report is written: let go of what only a resume would need. */
  finish(): Promise<void>;
  close(): Promise<void>;
}

/** Runs already in the sweep's checkpoint come from it; every other run is put there as it finishes. */
class CheckpointedExecutor implements RunExecutor {
  resumed = 0;

  constructor(
    private readonly inner: RunExecutor,
    private readonly checkpoint: SweepCheckpoint,
    private readonly document: Readonly<Record<string, unknown>>,
  ) {}

  async run(point: GridPoint, fillModel: string): Promise<BacktestRun> {
    const key = checkpointKey(documentWithParams(this.document, point), fillModel);
    const kept = this.checkpoint.get(key);
    if (kept) {
      this.resumed++;
      return kept;
    }
    const run = await this.inner.run(point, fillModel);
    this.checkpoint.put(key, run);
    return run;
  }

  where(): Promise<string> {
    return this.inner.where();
  }

  finish(): Promise<void> {
    return this.inner.finish();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A fixed pool of sweep workers; jobs go to the least busy one. */
class WorkerPool implements RunExecutor {
  private readonly workers: { w: Worker; busy: number; ready: Promise<void> }[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(size: number, data: SweepWorkerData) {
    for (let i = 0; i < size; i++) {
      const w = new Worker(new URL('../../backtest/sweep-worker.js', import.meta.url), { workerData: data });
      let ready!: () => void;
      let failed!: (e: Error) => void;
      const entry = { w, busy: 0, ready: new Promise<void>((res, rej) => ((ready = res), (failed = rej))) };
      w.on('message', (m: SweepAnswer | 'ready') => {
        if (m === 'ready') return ready();
        if (m.id === -1 && 'error' in m) return failed(new Error(m.error));
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        entry.busy--;
        if ('error' in m) p.reject(new Error(m.error));
        else p.resolve(runFromJson(m.run));
      });
      w.on('error', (e) => {
        failed(e);
        for (const [id, p] of this.pending) {
          this.pending.delete(id);
          p.reject(e);
        }
      });
      this.workers.push(entry);
    }
  }

  async run(point: GridPoint, fillModel: string): Promise<BacktestRun> {
    const entry = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    await entry.ready;
    entry.busy++;
    const id = this.nextId++;
    return new Promise<BacktestRun>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      entry.w.postMessage({ id, point, fillModel } satisfies SweepJob);
    });
  }

  async where(): Promise<string> {
    return `${this.workers.length} thread${this.workers.length === 1 ? '' : 's'}`;
  }

  async finish(): Promise<void> {}

  async close(): Promise<void> {
    await Promise.all(this.workers.map((x) => x.w.terminate()));
  }
}

/** A finished run of the search. */
interface SearchTrial {
  readonly point: GridPoint;
  readonly key: string;
  readonly run: BacktestRun;
  readonly metrics: Metrics;
}

export interface SweepSearchSummary {
  readonly method: string;
  readonly seed: number;
  readonly trials: number;
  /** What ended the search: the run budget, the time budget, or the space ran out. */
  readonly stoppedBy: 'runs' | 'time' | 'space';
}

/** TPE's loss: −score (score negated for lower-is-better metrics); a failed constraint or no score is worst. */
export function trialLoss(objective: Objective, constraints: readonly Constraint[], m: Metrics): number {
  const v = objective.score(m);
  if (v === null || !Number.isFinite(v) || violations(m, constraints).length > 0) return Number.MAX_VALUE;
  return objective.lowerIsBetter ? v : -v;
}

export async function sweepCommand(opts: SweepCommandOptions): Promise<SweepCommandSummary> {
  const clock = opts.clock ?? new SystemClock();
  const started = clock.now();
  const cwd = opts.cwd ?? process.cwd();
  await loadConfigFileStrategies(opts.config, cwd);
  const catalog = strategyCatalog();
  const config = await loadBacktestConfig(opts.config, catalog);
  const sweep = config.sweep;
  if (!sweep) throw new ConfigError('sweep', `expected a sweep section (parameters, objective …) in ${opts.config}`);
  const settings = sweepSettings(sweep);
  const { objective, constraints, search } = settings;
  if (!config.fillModels.some((m) => m.name === sweep.fillModel)) throw new ConfigError('sweep.fillModel', `expected one of backtest.fillModels (${config.fillModels.map((m) => m.name).join(', ')}), got ${sweep.fillModel}`);
  checkDataSources(config.backtest.data, cwd);
  const sampler = new Sampler(settings.dims, search, sweep.maxRuns);
  // Every point must make a valid config before it runs (a grid is checked whole, up front).
  const check = (p: GridPoint): void => void parseBacktestConfig(documentWithParams(config.document, p), catalog, `${opts.config} with ${JSON.stringify(p)}`);
  if (search.method === 'grid') sweepGrid(sweep.parameters, sweep.maxRuns).slice(0, search.runs).forEach(check);
  const others = reportOrder(config.fillModels)
    .map((m) => m.name)
    .filter((n) => n !== sweep.fillModel);
  const bestN = Math.min(sweep.bestN, search.runs);
  const size = Math.max(1, Math.min(opts.workers ?? sweep.workers ?? Math.max(1, availableParallelism() - 1), search.runs));
  const totalPlanned = search.runs + bestN * others.length;

  const out = opts.out ?? defaultReportDir(opts.config, 'sweep');
  const dataHash = await dataContentHash(config.backtest.data, cwd);
  const checkpoint = SweepCheckpoint.open(out, dataHash, opts.resume === true);
  const inner: RunExecutor = opts.queue
    ? await QueueExecutor.open(opts.queue, config, dataHash, opts.config)
    : new WorkerPool(size, { configPath: opts.config, cwd });
  const pool = new CheckpointedExecutor(inner, checkpoint, config.document);
  const where = opts.queue ? `the queue at ${redactUrl(opts.queue)}` : `${size} worker${size === 1 ? '' : 's'}`;

  const stream = opts.progressStream ?? process.stderr;
  const show = opts.progress ?? (stream as NodeJS.WriteStream).isTTY === true;
  const format = 'sweep |{bar}| {value}/{total} runs | {where} | ETA {eta_formatted}';
  const barOptions = { stream, format, noTTYOutput: opts.progress === true, hideCursor: true };
  const bar = show ? new cliProgress.SingleBar(barOptions, cliProgress.Presets.shades_classic) : undefined;
  // Under --queue the workers are other processes: the line shows how many are connected now.
  let whereNow = await pool.where();
  bar?.start(totalPlanned, 0, { where: whereNow });
  let done = 0;
  const tick = (): void => {
    done++;
    bar?.update(done, { where: whereNow });
    if (opts.queue && bar) void pool.where().then((w) => (whereNow = w), () => undefined);
  };
  const onSignal = (): void => {
    bar?.stop();
    const kept = `${checkpoint.size} finished run(s) are kept in ${checkpoint.path}`;
    process.stderr.write(`\nsweep interrupted: ${kept}; \`perpetua sweep ${opts.config} --resume\` continues it\n`);
    process.exit(130);
  };
  if (opts.handleSignals) for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, onSignal);
  const trials: SearchTrial[] = [];
  let stoppedBy: SweepSearchSummary['stoppedBy'] = 'runs';
  let results: SweepResult[];
  let research: SweepResearch;
  try {
    // Batches: each proposal depends only on the batches before it, so the trials never depend on
    // the number of workers or on which run finished first.
    while (trials.length < search.runs) {
      if (sampler.exhausted) {
        stoppedBy = 'space';
        break;
      }
      if (search.maxMs !== undefined && clock.now() - started >= search.maxMs) {
        stoppedBy = 'time';
        break;
      }
      const history = trials.map((t) => ({ point: t.point, loss: trialLoss(objective, constraints, t.metrics) }));
      const batch = sampler.next(Math.min(search.batch, search.runs - trials.length), history);
      if (batch.length === 0) {
        stoppedBy = 'space';
        break;
      }
      if (search.method !== 'grid') batch.forEach(check);
      const runs = await Promise.all(
        batch.map(async (point) => {
          const run = await pool.run(point, sweep.fillModel);
          tick();
          return run;
        }),
      );
      batch.forEach((point, i) => trials.push({ point, key: pointKey(point), run: runs[i]!, metrics: computeMetrics(runs[i]!) }));
    }
    const ranked = rankSweepResults(
      trials.map((t) => ({ params: t.point, metrics: t.metrics })),
      objective,
      constraints,
    );
    const byKey = new Map(trials.map((t) => [t.key, t]));
    const wf = settings.walkForward && trials.length > 0 ? walkForward(trials.map((t) => ({ key: t.key, params: t.point, run: t.run })), settings.walkForward, objective, constraints) : undefined;
    const wfOf = new Map(wf?.candidates.map((c) => [c.key, { inSample: c.inSampleScore, outOfSample: c.outOfSampleScore }]));
    const winner = ranked[0] ? trials.indexOf(byKey.get(pointKey(ranked[0].params))!) : -1;
    const overfitting = trials.length >= 2 && winner >= 0 ? overfittingOfRuns(trials.map((t) => t.run), winner, trials[winner]!.metrics.returnPeriodMs) : undefined;
    research = {
      search: { method: search.method, seed: search.seed, trials: trials.length, stoppedBy },
      ...(wf ? { walkForward: wf } : {}),
      ...(overfitting ? { overfitting } : {}),
    };
    const best = new Set(ranked.slice(0, bestN).map((r) => pointKey(r.params)));
    results = await Promise.all(
      trials.map(async (t) => {
        const w = wfOf.get(t.key);
        const base = { params: t.point, metrics: t.metrics, ...(w ? { walkForward: w } : {}) };
        if (!best.has(t.key)) return base;
        const band = await Promise.all(
          others.map(async (m) => {
            const r = await pool.run(t.point, m);
            tick();
            return r;
          }),
        );
        return { ...base, runs: [t.run, ...band] };
      }),
    );
  } catch (e) {
    await pool.close();
    throw e;
  } finally {
    bar?.stop();
    if (opts.handleSignals) for (const sig of ['SIGINT', 'SIGTERM'] as const) process.off(sig, onSignal);
  }
  const totalRuns = trials.length + Math.min(bestN, trials.length) * others.length;
  const title = `Sweep of ${config.run.strategies[0]!.name} (${trials.length} ${search.method === 'grid' ? 'grid points' : `${search.method} trials`})`;
  const paths = await writeSweepReport(results, out, { rankBy: objective, constraints, bestN, title, research });
  // Only now that the report holds every run: the queue's copies of them can go.
  try {
    await pool.finish();
  } finally {
    await pool.close();
  }
  const table = renderSweepTable(results, objective, { constraints });
  const w = opts.output ?? process.stdout;
  w.write(table);
  for (const line of researchLines(research)) w.write(`${line}\n`);
  if (pool.resumed > 0) w.write(`resumed: ${pool.resumed} finished runs from ${checkpoint.path}\n`);
  w.write(`sweep: ${trials.length} points (${search.method}, stopped by ${stoppedBy}), ${totalRuns} runs on ${where}, ${((clock.now() - started) / 1000).toFixed(1)} s\nreport: ${paths.html}\n`);
  return { out, paths, results, table, runs: totalRuns, elapsedMs: clock.now() - started, research, resumed: pool.resumed };
}
