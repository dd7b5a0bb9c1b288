/**
 * `perpetua sweep <config>`: runs the config's parameter grid (`sweep.parameters`) in parallel worker
 * threads, one grid point per run with `sweep.fillModel`, ranks the results by `sweep.rankBy`, runs
 * the rest of the fill-model band for the best `sweep.bestN`, and writes the ranked table (sweep.md,
 * sweep.json, sweep.html) with a full report page for each of the best.
 *
 * Results never depend on which worker finished first: each run is deterministic and the ranking
 * breaks ties by the parameters.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import { SystemClock, type Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import { strategyCatalog } from '../app/container/strategy-module.js';
import { computeMetrics, type MetricKey } from './report/metrics.js';
import { METRIC_DEFS } from './report/metric-defs.js';
import { runFromJson } from './report/run-codec.js';
import type { BacktestRun } from './report/backtest-run.js';
import { rankSweepResults, renderSweepTable, writeSweepReport, type SweepReportPaths, type SweepResult } from './report/sweep-report.js';
import { loadBacktestConfig, parseBacktestConfig } from './backtest-config.js';
import { checkDataSources } from './backtest-data.js';
import { defaultReportDir, reportOrder } from './backtest-command.js';
import { documentWithParams, sweepGrid, type GridPoint } from './sweep-grid.js';
import type { SweepAnswer, SweepJob, SweepWorkerData } from './sweep-worker.js';

export interface SweepCommandOptions {
  readonly config: string;
  /** Output folder. Default `var/sweep/<config name>`. */
  readonly out?: string;
  /** Worker threads. Default: sweep.workers, else the cores less one (at least 1). */
  readonly workers?: number;
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
}

interface Pending {
  readonly resolve: (r: BacktestRun) => void;
  readonly reject: (e: Error) => void;
}

/** A fixed pool of sweep workers; jobs go to the least busy one. */
class WorkerPool {
  private readonly workers: { w: Worker; busy: number; ready: Promise<void> }[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(size: number, data: SweepWorkerData) {
    for (let i = 0; i < size; i++) {
      const w = new Worker(new URL('./sweep-worker.js', import.meta.url), { workerData: data });
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

  async close(): Promise<void> {
    await Promise.all(this.workers.map((x) => x.w.terminate()));
  }
}

export async function sweepCommand(opts: SweepCommandOptions): Promise<SweepCommandSummary> {
  const clock = opts.clock ?? new SystemClock();
  const started = clock.now();
  const cwd = opts.cwd ?? process.cwd();
  const catalog = strategyCatalog();
  const config = await loadBacktestConfig(opts.config, catalog);
  const sweep = config.sweep;
  if (!sweep) throw new ConfigError('sweep', `expected a sweep section (parameters, rankBy …) in ${opts.config}`);
  if (!METRIC_DEFS.some((d) => d.key === sweep.rankBy)) throw new ConfigError('sweep.rankBy', `expected one of ${METRIC_DEFS.map((d) => d.key).join(', ')}, got ${JSON.stringify(sweep.rankBy)}`);
  const rankBy = sweep.rankBy as MetricKey;
  if (!config.fillModels.some((m) => m.name === sweep.fillModel)) throw new ConfigError('sweep.fillModel', `expected one of backtest.fillModels (${config.fillModels.map((m) => m.name).join(', ')}), got ${sweep.fillModel}`);
  checkDataSources(config.backtest.data, cwd);
  const grid = sweepGrid(sweep.parameters, sweep.maxRuns);
  // Every point must make a valid config before anything runs.
  grid.forEach((p) => parseBacktestConfig(documentWithParams(config.document, p), catalog, `${opts.config} with ${JSON.stringify(p)}`));
  const others = reportOrder(config.fillModels)
    .map((m) => m.name)
    .filter((n) => n !== sweep.fillModel);
  const bestN = Math.min(sweep.bestN, grid.length);
  const size = Math.max(1, Math.min(opts.workers ?? sweep.workers ?? Math.max(1, availableParallelism() - 1), grid.length));
  const totalRuns = grid.length + bestN * others.length;

  const stream = opts.progressStream ?? process.stderr;
  const show = opts.progress ?? (stream as NodeJS.WriteStream).isTTY === true;
  const bar = show
    ? new cliProgress.SingleBar({ stream, format: 'sweep |{bar}| {value}/{total} runs | {workers} workers | ETA {eta_formatted}', noTTYOutput: opts.progress === true, hideCursor: true }, cliProgress.Presets.shades_classic)
    : undefined;
  bar?.start(totalRuns, 0, { workers: size });
  let done = 0;
  const tick = (): void => {
    done++;
    bar?.update(done, { workers: size });
  };
  const pool = new WorkerPool(size, { configPath: opts.config, cwd });
  let results: SweepResult[];
  try {
    const first = await Promise.all(
      grid.map(async (point) => {
        const run = await pool.run(point, sweep.fillModel);
        tick();
        return { point, run };
      }),
    );
    const scored = first.map(({ point, run }) => ({ params: point, metrics: computeMetrics(run), run }));
    const ranked = rankSweepResults(scored, rankBy);
    const best = new Set(ranked.slice(0, bestN).map((r) => scored.findIndex((s) => s.params === r.params)));
    results = await Promise.all(
      scored.map(async (s, i) => {
        if (!best.has(i)) return { params: s.params, metrics: s.metrics };
        const band = await Promise.all(
          others.map(async (m) => {
            const r = await pool.run(s.params, m);
            tick();
            return r;
          }),
        );
        return { params: s.params, metrics: s.metrics, runs: [s.run, ...band] };
      }),
    );
  } finally {
    bar?.stop();
    await pool.close();
  }
  const out = opts.out ?? defaultReportDir(opts.config, 'sweep');
  const paths = await writeSweepReport(results, out, { rankBy, bestN, title: `Sweep of ${config.run.strategies[0]!.name} (${grid.length} points)` });
  const table = renderSweepTable(results, rankBy);
  const w = opts.output ?? process.stdout;
  w.write(table);
  w.write(`sweep: ${grid.length} points, ${totalRuns} runs on ${size} worker${size === 1 ? '' : 's'}, ${((clock.now() - started) / 1000).toFixed(1)} s\nreport: ${paths.html}\n`);
  return { out, paths, results, table, runs: totalRuns, elapsedMs: clock.now() - started };
}
