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
import { type BacktestRunJson, runFromJson } from '../../backtest/report/run-codec.js';
import type { BacktestRun } from '../../backtest/report/backtest-run.js';
import {
  rankSweepResults,
  renderSweepTable,
  researchLines,
  writeSweepReport,
  type SweepReportPaths,
  type SweepResearch,
  type SweepResult,
} from '../../backtest/report/sweep-report.js';
import type { NotRanked } from '../../backtest/report/sweep-research-html.js';
import { formatTime } from '../../backtest/report/format.js';
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
import { documentWithParams, type GridPoint } from '../../backtest/sweep-grid.js';
import { infeasibleReason } from '../../backtest/sweep-run.js';
import type { SweepOutcome } from '../../backtest/sweep-outcome.js';
import { type RunPruning, rungThresholds, rungTimes, rungValue, spanEnd, spanStart, valuesFromJson } from '../../backtest/research/asha.js';
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
  /** Runs each worker thread was given, in thread order (empty under `--queue`): how evenly the work spread. */
  readonly runsPerThread: readonly number[];
}

interface Pending {
  readonly resolve: (r: SweepOutcome) => void;
  readonly reject: (e: Error) => void;
}

/** Where the runs of a sweep execute: worker threads here, or a BullMQ queue served by `perpetua worker`s. */
interface RunExecutor {
  /** The point's run (stopped at a rung when `pruning` says so), or infeasible when its config is invalid. */
  run(point: GridPoint, fillModel: string, pruning?: RunPruning): Promise<SweepOutcome>;
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

  async run(point: GridPoint, fillModel: string, pruning?: RunPruning): Promise<SweepOutcome> {
    const key = checkpointKey(documentWithParams(this.document, point), fillModel, pruning);
    const kept = this.checkpoint.get(key);
    if (kept) {
      this.resumed++;
      return kept;
    }
    const outcome = await this.inner.run(point, fillModel, pruning);
    this.checkpoint.put(key, outcome);
    return outcome;
  }

  /** A point refused before it ran (its config is invalid): in the checkpoint with the reason. */
  infeasible(point: GridPoint, fillModel: string, reason: string): SweepOutcome {
    const outcome: SweepOutcome = { kind: 'infeasible', reason };
    this.checkpoint.put(checkpointKey(documentWithParams(this.document, point), fillModel), outcome);
    return outcome;
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
  private readonly workers: { w: Worker; busy: number; jobs: number; ready: Promise<void> }[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(size: number, data: SweepWorkerData) {
    for (let i = 0; i < size; i++) {
      const w = new Worker(new URL('../../backtest/sweep-worker.js', import.meta.url), { workerData: data });
      let ready!: () => void;
      let failed!: (e: Error) => void;
      const entry = { w, busy: 0, jobs: 0, ready: new Promise<void>((res, rej) => ((ready = res), (failed = rej))) };
      w.on('message', (m: SweepAnswer | 'ready') => {
        if (m === 'ready') return ready();
        if (m.id === -1 && 'error' in m) return failed(new Error(m.error));
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        entry.busy--;
        if ('error' in m) {
          if (m.infeasible !== undefined) p.resolve({ kind: 'infeasible', reason: m.infeasible });
          else p.reject(new Error(m.error));
        } else
          p.resolve({
            kind: 'run',
            run: runFromJson(JSON.parse(m.runText) as BacktestRunJson),
            runText: m.runText,
            rungValues: valuesFromJson(m.rungValues),
            ...(m.stoppedAt !== undefined ? { prunedAt: m.stoppedAt } : {}),
          });
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

  async run(point: GridPoint, fillModel: string, pruning?: RunPruning): Promise<SweepOutcome> {
    // Claimed before waiting for the thread to be ready: a batch's runs are dispatched in one go, and
    // a count raised only after the await left every worker at 0, so the whole batch went to the first.
    const entry = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    entry.busy++;
    entry.jobs++;
    await entry.ready;
    const id = this.nextId++;
    return new Promise<SweepOutcome>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      entry.w.postMessage({ id, point, fillModel, ...(pruning ? { pruning } : {}) } satisfies SweepJob);
    });
  }

  async where(): Promise<string> {
    return `${this.workers.length} thread${this.workers.length === 1 ? '' : 's'}`;
  }

  /** Runs given to each thread so far. */
  runsPerThread(): number[] {
    return this.workers.map((x) => x.jobs);
  }

  async finish(): Promise<void> {}

  async close(): Promise<void> {
    await Promise.all(this.workers.map((x) => x.w.terminate()));
  }
}

/**
 * A point of the search: a finished run (ranked), a run pruning stopped at a rung, or a point whose
 * config is invalid. The last two are never ranked; TPE sees them as its worst observations.
 */
type SearchTrial = { readonly point: GridPoint; readonly key: string } & (
  | { readonly status: 'done'; readonly run: BacktestRun; readonly metrics: Metrics }
  | { readonly status: 'pruned'; readonly run: BacktestRun; readonly rung: number; readonly rungValues: readonly number[] }
  | { readonly status: 'infeasible'; readonly reason: string }
);
type DoneTrial = Extract<SearchTrial, { status: 'done' }>;

export interface SweepSearchSummary {
  readonly method: string;
  readonly seed: number;
  readonly trials: number;
  /** What ended the search: the run budget, the time budget, or the space ran out. */
  readonly stoppedBy: 'runs' | 'time' | 'space';
  /** Points whose config is invalid (when any). */
  readonly infeasible?: number;
  /** Runs stopped early by pruning (when any). */
  readonly pruned?: number;
}

/** TPE's loss: −score (score negated for lower-is-better metrics); a failed constraint or no score is worst. */
export function trialLoss(objective: Objective, constraints: readonly Constraint[], m: Metrics): number {
  const v = objective.score(m);
  if (v === null || !Number.isFinite(v) || violations(m, constraints).length > 0) return Number.MAX_VALUE;
  return objective.lowerIsBetter ? v : -v;
}

function searchTrial(point: GridPoint, o: SweepOutcome): SearchTrial {
  const key = pointKey(point);
  if (o.kind === 'infeasible') return { point, key, status: 'infeasible', reason: o.reason };
  if (o.prunedAt !== undefined) return { point, key, status: 'pruned', run: o.run, rung: o.prunedAt, rungValues: o.rungValues };
  return { point, key, status: 'done', run: o.run, metrics: computeMetrics(o.run) };
}

/** "pruned at rung 1 (2025-05-06 00:00 UTC): Sharpe ratio so far 0.12, below the best 1/η of the earlier runs there". */
function prunedReason(t: Extract<SearchTrial, { status: 'pruned' }>, rungs: readonly number[] | undefined, objective: Objective): string {
  const at = rungs?.[t.rung];
  const v = t.rungValues[t.rung];
  const value = v === undefined || v === -Infinity ? 'undefined' : String(Number((objective.lowerIsBetter ? -v : v).toPrecision(4)));
  const when = at !== undefined ? ` (${formatTime(at)} UTC)` : '';
  return `pruned at rung ${t.rung}${when}: ${objective.label} so far ${value}, below the best 1/η of the earlier runs there`;
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
  if (!config.fillModels.some((m) => m.name === sweep.fillModel))
    throw new ConfigError(
      'sweep.fillModel',
      `expected one of backtest.fillModels (${config.fillModels.map((m) => m.name).join(', ')}), got ${sweep.fillModel}`,
    );
  checkDataSources(config.backtest.data, cwd);
  const sampler = new Sampler(settings.dims, search, sweep.maxRuns);
  // Every point must make a valid config before it runs; one that does not is infeasible (the reason).
  const invalid = (p: GridPoint): string | undefined => {
    try {
      parseBacktestConfig(documentWithParams(config.document, p), catalog, `${opts.config} with ${JSON.stringify(p)}`);
      return undefined;
    } catch (e) {
      const reason = infeasibleReason(e);
      if (reason === undefined) throw e;
      return reason;
    }
  };
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
    if (opts.queue && bar)
      void pool.where().then(
        (w) => (whereNow = w),
        () => undefined,
      );
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
    // the number of workers or on which run finished first; so do the pruning thresholds (asha.ts).
    const pruning = settings.pruning;
    let rungs: number[] | undefined;
    const doneValues = new Map<string, number[]>();
    /** Oriented objective per rung: a finished run's from its whole run, a pruned one's as it reported. */
    const valuesOf = (t: SearchTrial, times: readonly number[]): readonly number[] => {
      if (t.status === 'pruned') return t.rungValues;
      if (t.status !== 'done') return [];
      let v = doneValues.get(t.key);
      if (!v) doneValues.set(t.key, (v = times.map((time) => rungValue(objective, t.run, time))));
      return v;
    };
    const runPruning = (): RunPruning | undefined => {
      if (!pruning) return undefined;
      // Every run replays the same data: the first finished one gives the span the rungs cut.
      const first = trials.find((t): t is DoneTrial => t.status === 'done');
      if (!first) return undefined;
      const times = (rungs ??= rungTimes(spanStart(first.run), spanEnd(first.run), pruning, settings.walkForward));
      const thresholds = rungThresholds(
        times.map((_, k) =>
          trials
            .map((t) => valuesOf(t, times))
            .filter((v) => v.length > k)
            .map((v) => v[k]!),
        ),
        pruning,
      );
      return thresholds.some((x) => x !== null) ? { times, thresholds, objective: settings.objectiveSpec } : undefined;
    };
    const lossOf = (t: SearchTrial): number => (t.status === 'done' ? trialLoss(objective, constraints, t.metrics) : Number.MAX_VALUE);
    while (trials.length < search.runs) {
      if (sampler.exhausted) {
        stoppedBy = 'space';
        break;
      }
      if (search.maxMs !== undefined && clock.now() - started >= search.maxMs) {
        stoppedBy = 'time';
        break;
      }
      const history = trials.map((t) => ({ point: t.point, loss: lossOf(t) }));
      const batch = sampler.next(Math.min(search.batch, search.runs - trials.length), history);
      if (batch.length === 0) {
        stoppedBy = 'space';
        break;
      }
      const prune = runPruning();
      const outcomes = await Promise.all(
        batch.map(async (point) => {
          const reason = invalid(point);
          const outcome =
            reason !== undefined ? pool.infeasible(point, sweep.fillModel, reason) : await pool.run(point, sweep.fillModel, prune);
          tick();
          return outcome;
        }),
      );
      batch.forEach((point, i) => trials.push(searchTrial(point, outcomes[i]!)));
    }
    const done = trials.filter((t): t is DoneTrial => t.status === 'done');
    if (trials.length > 0 && done.length === 0 && !trials.some((t) => t.status === 'pruned')) {
      const first = trials.find((t) => t.status === 'infeasible');
      throw new ConfigError(
        'sweep.parameters',
        `expected some valid point; all ${trials.length} were refused, e.g. ${JSON.stringify(trials[0]!.point)}: ${first && 'reason' in first ? first.reason : ''}`,
      );
    }
    const ranked = rankSweepResults(
      done.map((t) => ({ params: t.point, metrics: t.metrics })),
      objective,
      constraints,
    );
    const byKey = new Map(done.map((t) => [t.key, t]));
    const wf =
      settings.walkForward && done.length > 0
        ? walkForward(
            done.map((t) => ({ key: t.key, params: t.point, run: t.run })),
            settings.walkForward,
            objective,
            constraints,
          )
        : undefined;
    const wfOf = new Map(wf?.candidates.map((c) => [c.key, { inSample: c.inSampleScore, outOfSample: c.outOfSampleScore }]));
    const winner = ranked[0] ? done.indexOf(byKey.get(pointKey(ranked[0].params))!) : -1;
    // The deflated Sharpe ratio counts the pruned runs as trials too: the search tried them.
    const tried = trials.filter((t) => t.status !== 'infeasible').length;
    const overfitting =
      done.length >= 2 && winner >= 0
        ? overfittingOfRuns(
            done.map((t) => t.run),
            winner,
            done[winner]!.metrics.returnPeriodMs,
            tried,
          )
        : undefined;
    const notRanked = trials.flatMap((t): NotRanked[] =>
      t.status === 'infeasible'
        ? [{ params: t.point, status: 'infeasible', reason: t.reason }]
        : t.status === 'pruned'
          ? [{ params: t.point, status: 'pruned', rung: t.rung, reason: prunedReason(t, rungs, objective), rungValues: t.rungValues }]
          : [],
    );
    const infeasible = notRanked.filter((n) => n.status === 'infeasible').length;
    const pruned = notRanked.length - infeasible;
    research = {
      search: {
        method: search.method,
        seed: search.seed,
        trials: trials.length,
        stoppedBy,
        ...(infeasible > 0 ? { infeasible } : {}),
        ...(pruned > 0 ? { pruned } : {}),
      },
      ...(wf ? { walkForward: wf } : {}),
      ...(overfitting ? { overfitting } : {}),
      ...(notRanked.length > 0 ? { notRanked } : {}),
    };
    const best = new Set(ranked.slice(0, bestN).map((r) => pointKey(r.params)));
    results = await Promise.all(
      done.map(async (t) => {
        const w = wfOf.get(t.key);
        const base = { params: t.point, metrics: t.metrics, ...(w ? { walkForward: w } : {}) };
        if (!best.has(t.key)) return base;
        const band = await Promise.all(
          others.map(async (m) => {
            const r = await pool.run(t.point, m);
            tick();
            if (r.kind !== 'run')
              throw new Error(
                `the ${m} run of ${JSON.stringify(t.point)} was refused after its ${sweep.fillModel} run was not: ${r.reason}`,
              );
            return r.run;
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
  const ranRuns = trials.filter((t) => t.status !== 'infeasible').length;
  const totalRuns = ranRuns + Math.min(bestN, results.length) * others.length;
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
  w.write(
    `sweep: ${trials.length} points (${search.method}, stopped by ${stoppedBy}), ${totalRuns} runs on ${where}, ${((clock.now() - started) / 1000).toFixed(1)} s\nreport: ${paths.html}\n`,
  );
  const runsPerThread = inner instanceof WorkerPool ? inner.runsPerThread() : [];
  return { out, paths, results, table, runs: totalRuns, elapsedMs: clock.now() - started, research, resumed: pool.resumed, runsPerThread };
}
