/**
 * Sweep (issue 17): what the distributed path costs per run. The same grid of the perpetual trend
 * strategy runs once on one worker thread (the local default) and once through BullMQ + Redis with one
 * `perpetua worker` process (the real CLI, spawned), each run's result crossing Redis as JSON; the row
 * is the time per run of each, and the overhead of the queue as a share of a local run (budget 5 %).
 * Both include loading the data once (in the thread, in the worker process).
 *
 * Scaling with cores (issue 13): the same 12-run sweep on two worker threads against one, in the same
 * run; the row is the speed-up (budget 1.7×). Each thread loads and compiles the data itself, so the
 * note gives that load time beside the time per run, and the load average (the machine is shared).
 *
 * Data: the shipped sample week (data/sample) when it is there, else the same week from ../shared/data,
 * else the 600 bars of test/fixtures. Needs redis-server for the queue row (skipped with a note otherwise).
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { sweepCommand } from '../src/app/cli/sweep-command.js';
import { loadSweepData } from '../src/backtest/sweep-run.js';
import { loadBacktestConfig } from '../src/backtest/backtest-config.js';
import { strategyCatalog } from '../src/runtime/container/strategy-module.js';
import { perpTrendDoc, PERP_FUNDING_FILE, PERP_KLINES_FILE } from '../test/backtest/support/backtest-fixtures.js';
import { startTestRedis } from '../test/backtest/research/support/redis-server.js';
import type { BenchRow, BenchSuite } from './bench-row.js';

const RUNS = 12;

function perpData(): { klines: string; funding: string; label: string; from?: string; to?: string } {
  const sample = {
    klines: 'data/sample/binance_usdm_BTCUSDT_perp_1m_2025-05-04_2025-05-12.csv.gz',
    funding: 'data/sample/binance_usdm_BTCUSDT_funding_rate_8h_2025-05-04_2025-05-12.csv.gz',
  };
  if (existsSync(sample.klines) && existsSync(sample.funding)) return { ...sample, label: 'sample week of BTCUSDT perp 1m bars' };
  const shared = {
    klines: '../shared/data/binance_perp_1m/binance_usdm_BTCUSDT_perp_1m_2025-05-04_2025-06-24.csv',
    funding: '../shared/data/binance_perp_funding_mark/binance_usdm_BTCUSDT_funding_rate_8h_2022-01-01_2025-10-27.csv',
  };
  if (existsSync(shared.klines) && existsSync(shared.funding))
    return { ...shared, from: '2025-05-04T00:00:00Z', to: '2025-05-12T00:00:00Z', label: 'a week of BTCUSDT perp 1m bars (../shared)' };
  return { klines: PERP_KLINES_FILE, funding: PERP_FUNDING_FILE, label: '600 BTCUSDT perp 1m bars (test fixture)' };
}

const quiet = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });

export const suite: BenchSuite = {
  title: 'sweep',
  async run(): Promise<BenchRow[]> {
    const data = perpData();
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-sweep-bench-'));
    const base = perpTrendDoc();
    const bt = base.backtest as Record<string, unknown>;
    const doc = {
      ...base,
      backtest: {
        ...bt,
        ...(data.from ? { from: data.from, to: data.to } : {}),
        data: [
          { kind: 'klines', files: [join(process.cwd(), data.klines)], market: 'contract', symbol: 'BTCUSDT', interval: '1m' },
          { kind: 'funding', files: [join(process.cwd(), data.funding)], market: 'contract', symbol: 'BTCUSDT' },
        ],
      },
      sweep: { parameters: { fastPeriod: [3, 4, 5, 6, 7, 8], slowPeriod: [20, 40] }, bestN: 0 },
    };
    const config = join(dir, 'bench.yaml');
    writeFileSync(config, stringify(doc));
    const rows: BenchRow[] = [];
    try {
      const t0 = process.hrtime.bigint();
      await sweepCommand({ config, out: join(dir, 'threads'), workers: 1, progress: false, output: quiet() });
      const local = Number(process.hrtime.bigint() - t0) / 1e6 / RUNS;
      const t2 = process.hrtime.bigint();
      await sweepCommand({ config, out: join(dir, 'two-threads'), workers: 2, progress: false, output: quiet() });
      const two = Number(process.hrtime.bigint() - t2) / 1e6 / RUNS;
      const tl = process.hrtime.bigint();
      await loadSweepData(await loadBacktestConfig(config, strategyCatalog()), process.cwd());
      const loadMs = Number(process.hrtime.bigint() - tl) / 1e6;
      rows.push({
        name: `sweep: ${RUNS} runs, 2 worker threads vs 1 (${data.label})`,
        ours: local / two,
        unit: '× one thread',
        budget: 1.7,
        higherIsBetter: true,
        note:
          `${two.toFixed(0)} vs ${local.toFixed(0)} ms per run; loading the data ${loadMs.toFixed(0)} ms per thread; ` +
          `load average ${loadavg()[0]!.toFixed(1)}`,
      });
      const redis = await startTestRedis();
      if (typeof redis === 'string') {
        rows.push({
          name: `sweep: ms per run, one worker thread (${data.label})`,
          ours: local,
          unit: 'ms/run',
          note: `queue row skipped: ${redis}`,
        });
        return rows;
      }
      const worker = spawn(process.execPath, [join('dist', 'src', 'app', 'cli.js'), 'worker', '--queue', redis.url], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        // Time the runs, not the process start: wait for the worker to say it is listening.
        await new Promise<void>((resolve, reject) => {
          worker.stdout!.on('data', (d: Buffer) => String(d).includes('waiting for sweep runs') && resolve());
          worker.once('exit', (code) => reject(new Error(`perpetua worker exited (${code})`)));
        });
        const t1 = process.hrtime.bigint();
        await sweepCommand({ config, out: join(dir, 'queue'), queue: redis.url, progress: false, output: quiet() });
        const queued = Number(process.hrtime.bigint() - t1) / 1e6 / RUNS;
        rows.push({
          name: `sweep: ms per run, queue + 1 worker process vs 1 worker thread (${data.label})`,
          ours: queued,
          baseline: local,
          baselineName: 'worker thread',
          unit: 'ms/run',
          higherIsBetter: false,
        });
        rows.push({
          name: 'sweep: distributed overhead per run',
          ours: ((queued - local) / local) * 100,
          unit: '% of a local run',
          budget: 5,
          higherIsBetter: false,
          note: `${RUNS} runs each; a run's result crosses Redis as JSON`,
        });
      } finally {
        worker.kill('SIGTERM');
        await redis.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
