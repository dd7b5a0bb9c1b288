/**
 * Memory of a long backtest (issue 13: "Spot market maker on 90 days of 1-minute bars: peak RSS ≤ 400 MB,
 * report.json ≤ 10 MB"): the whole `perpetua backtest` command in a fresh process, the reference spot
 * market maker's settings polling once a minute on 90 days of Binance BTCUSDT spot 1-minute bars
 * (../shared/data), neutral fill model.
 *
 *  - peak RSS with the batch commands' heap growth (app/cli/heap-growth.ts: 1.5× live) beside the same
 *    command with V8's own (PERPETUA_HEAP_GROWTH=default), one run each; the two reports must be the same;
 *  - the size of report.json (the full record streams to tape/ beside it).
 *
 * Without ../shared/data the sample week of data/sample is used (and the rows say so).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify as toYaml } from 'yaml';
import type { BenchRow, BenchSuite } from './bench-row.js';

const LONG = {
  klines: '../shared/data/binance_spot_1m/binance_spot_BTCUSDT_1m_2025-05-20_2025-08-18.csv',
  label: '90 days, 130,708 bars',
};
const SAMPLE = {
  klines: 'data/sample/binance_spot_BTCUSDT_1m_2025-05-20_2025-05-27.csv.gz',
  label: 'the sample week (../shared/data absent)',
};

/** config/backtest-spot-mm.yaml's market maker on 1-minute bars, polled once a minute (the 90-day run of issue 13). */
function mmDoc(klines: string): Record<string, unknown> {
  return {
    instruments: ['BTCUSDT'],
    marketData: { maxSnapshotAgeMs: 120_000, spot: { cycleMs: 60_000, streams: { depth: { limit: 20 }, trades: { limit: 20 } } } },
    strategies: [
      {
        id: 'mm1',
        name: 'spot-market-maker',
        instruments: ['BTCUSDT'],
        params: { spreadBps: 5.0, orderSize: '0.002', maxInventory: '0.02', skewBps: 1.5, requoteBps: 2 },
      },
    ],
    risk: { strategies: { mm1: { maxPositionQty: '0.03' } } },
    execution: { reconcileIntervalMs: 60_000 },
    backtest: {
      initialCapital: '100000',
      seed: 42,
      samplePeriodMs: 60_000,
      pollLatencyMs: 50,
      fillModels: ['neutral'],
      instruments: { BTCUSDT: { preset: 'BTCUSDT', fees: { maker: '0', taker: '0.0005' } } },
      data: [{ kind: 'klines', market: 'spot', symbol: 'BTCUSDT', interval: '1m', files: [resolve(klines)] }],
    },
  };
}

export const suite: BenchSuite = {
  title: 'backtest-memory',
  async run(): Promise<BenchRow[]> {
    const src = existsSync(LONG.klines) ? LONG : SAMPLE;
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-bt-memory-'));
    try {
      const cfg = join(dir, 'mm.yaml');
      writeFileSync(cfg, toYaml(mmDoc(src.klines)));
      const preload = pathToFileURL(resolve('dist/bench/support/max-rss.js')).href;
      const command = (label: string, growth?: string): { peakKb: number; report: string; bytes: number; line: string } => {
        const out = join(dir, label);
        const rssFile = join(dir, `${label}.maxrss`);
        const env: NodeJS.ProcessEnv = { ...process.env, BENCH_MAX_RSS_FILE: rssFile };
        delete env.PERPETUA_HEAP_GROWTH;
        if (growth !== undefined) env.PERPETUA_HEAP_GROWTH = growth;
        const r = spawnSync(process.execPath, ['--import', preload, 'dist/src/app/cli.js', 'backtest', cfg, '--out', out], {
          encoding: 'utf8',
          env,
        });
        if (r.status !== 0) throw new Error(`perpetua backtest (${label}) failed: ${r.stderr}`);
        const reportFile = join(out, 'report.json');
        return {
          peakKb: Number(readFileSync(rssFile, 'utf8')),
          report: readFileSync(reportFile, 'utf8').split(out).join('<out>'),
          bytes: statSync(reportFile).size,
          line: r.stdout.split('\n')[1]?.trim() ?? '',
        };
      };
      const ours = command('batch');
      const v8 = command('v8-default', 'default');
      if (ours.report !== v8.report) throw new Error('backtest-memory: the report differs between the two heap growths');
      return [
        {
          name: `spot market maker, 1-minute bars polled once a minute: peak RSS of the whole \`perpetua backtest\` command (${src.label})`,
          ours: ours.peakKb / 1024,
          baseline: v8.peakKb / 1024,
          baselineName: "the same command with V8's own heap growth (PERPETUA_HEAP_GROWTH=default)",
          unit: 'MB',
          budget: 400,
          higherIsBetter: false,
          note: `one run each, same report.json (checked); ${ours.line}`,
        },
        {
          name: `spot market maker, 1-minute bars polled once a minute: report.json size (${src.label})`,
          ours: ours.bytes / 1e6,
          unit: 'MB',
          budget: 10,
          higherIsBetter: false,
          note: 'summaries and thinned series; the full record is in tape/ beside it',
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
