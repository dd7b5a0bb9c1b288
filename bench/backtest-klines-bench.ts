/**
 * Kline backtest speed (issue 13): the reference perpetual trend strategy (config/backtest-perp.yaml,
 * neutral fill model) on the 50.8-day Binance BTCUSDT perpetual recording of ../shared/data (73,139
 * one-minute bars + funding), read from a record store as the replay goes.
 *
 *  - bars/s through the whole pipeline (intra-bar path, snapshots, strategy, risk, order manager,
 *    simulated venue, equity samples), beside the bare replay of the same store (the bars read,
 *    expanded into their paths and applied to the market, nothing listening): budget ≥ 100,000 bars/s;
 *  - the whole `perpetua backtest` command on the same config, a fresh process from start to the
 *    report written: from the record store as `npx perpetua` runs it (bin/perpetua.js, which starts the
 *    bundled CLI: issue 13's "the whole command for it"), and with the CSV files imported by the command
 *    (dist/src/app/cli.js, as this row has always been measured): budget < 1.5 s;
 *  - the same command with the three fill models all at once (`--workers 3`: this process and two worker
 *    threads; the default for a run this long) beside one after another in one process (`--workers 1`);
 *    the two reports must be the same.
 *
 * Without ../shared/data the sample week of data/sample is used (and the row says so).
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { strategyCatalog } from '../src/runtime/container/strategy-module.js';
import { parseBacktestConfig } from '../src/backtest/backtest-config.js';
import { openRecordStore } from '../src/backtest/backtest-data.js';
import { replayInstrumentSpecs, runBacktest } from '../src/backtest/backtest-runner.js';
import { replayCursor } from '../src/backtest/replay-feed.js';
import { ReplayMarket } from '../src/backtest/replay-market.js';
import { importCommand } from '../src/app/cli/import-command.js';
import type { BenchRow, BenchSuite } from './bench-row.js';

const SHARED = '../shared/data';
const LONG = {
  klines: `${SHARED}/binance_perp_1m/binance_usdm_BTCUSDT_perp_1m_2025-05-04_2025-06-24.csv`,
  funding: `${SHARED}/binance_perp_funding_mark/binance_usdm_BTCUSDT_funding_rate_8h_2022-01-01_2025-10-27.csv`,
  label: '50.8 days, 73,139 bars',
};
const SAMPLE = {
  klines: 'data/sample/binance_usdm_BTCUSDT_perp_1m_2025-05-04_2025-05-12.csv.gz',
  funding: 'data/sample/binance_usdm_BTCUSDT_funding_rate_8h_2025-05-04_2025-05-12.csv.gz',
  label: 'the sample week (../shared/data absent), 10,587 bars',
};

const msSince = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

/** The reference config on `files`, whole span, neutral model only. */
function perpDoc(klines: string, funding: string): Record<string, unknown> {
  const doc = parseYaml(readFileSync('config/backtest-perp.yaml', 'utf8')) as Record<string, Record<string, unknown>>;
  const { from: _f, to: _t, ...bt } = doc.backtest!;
  const data = (bt.data as Record<string, unknown>[]).map((d) => ({ ...d, files: [resolve(d.kind === 'funding' ? funding : klines)] }));
  return { ...doc, backtest: { ...bt, fillModels: ['neutral'], data } };
}

/** `perpetua backtest <config> --out <out>` through `entry`, twice, each a fresh process: wall ms of each, and the last output. */
function timeCommand(entry: string, config: string, out: string): { times: number[]; out: string } {
  const times: number[] = [];
  let stdout = '';
  for (let i = 0; i < 2; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [entry, 'backtest', config, '--out', out], { encoding: 'utf8' });
    times.push(msSince(t0));
    if (r.status !== 0) throw new Error(`perpetua backtest (${entry} ${config}) failed: ${r.stderr}`);
    stdout = r.stdout;
  }
  return { times, out: stdout };
}

/** Which CLI bin/perpetua.js starts (bin/cli-entry.js: the launcher's own rule, plain JavaScript outside the build). */
async function launcherStartsBundle(): Promise<boolean> {
  const m = (await import(pathToFileURL(resolve('bin/cli-entry.js')).href)) as { cliEntry(root: string): { bundled: boolean } };
  return m.cliEntry(process.cwd()).bundled;
}

export const suite: BenchSuite = {
  title: 'backtest-klines',
  async run(): Promise<BenchRow[]> {
    const src = existsSync(LONG.klines) && existsSync(LONG.funding) ? LONG : SAMPLE;
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-bt-klines-'));
    try {
      const store = join(dir, 'store');
      await importCommand({
        kind: 'klines',
        input: [src.klines],
        out: store,
        market: 'contract',
        symbol: 'BTCUSDT',
        interval: '1m',
        progress: false,
      });
      await importCommand({ kind: 'funding', input: [src.funding], out: store, market: 'contract', symbol: 'BTCUSDT', progress: false });
      const fileDoc = perpDoc(src.klines, src.funding);
      const doc = { ...fileDoc, backtest: { ...(fileDoc.backtest as Record<string, unknown>), data: [{ kind: 'store', path: store }] } };
      const config = parseBacktestConfig(doc, strategyCatalog(), 'bench perp-trend');

      let bars = 0;
      const full = async (): Promise<{ ms: number; orders: number; fills: number; events: number }> => {
        const s = openRecordStore(store, { compileFor: config });
        const t0 = process.hrtime.bigint();
        try {
          const r = await runBacktest({ config, records: s.records, streams: s.streams, fillModel: config.fillModels[0]! });
          bars = r.stats.records;
          return { ms: msSince(t0), orders: r.run.orders.length, fills: r.run.fills.length, events: r.stats.events };
        } finally {
          s.close();
        }
      };
      const bare = (): number => {
        const s = openRecordStore(store, { compileFor: config });
        const t0 = process.hrtime.bigint();
        try {
          const market = new ReplayMarket(replayInstrumentSpecs(config, s.streams));
          const cursor = replayCursor(s.records, market);
          for (let e = cursor.next(); e !== undefined; e = cursor.next()) market.apply(e);
          market.dispose();
          return msSince(t0);
        } finally {
          s.close();
        }
      };
      await full(); // warm-up: one whole run
      const runs = [await full(), await full()].sort((a, b) => a.ms - b.ms);
      bare();
      const bareMs = Math.min(bare(), bare());
      const best = runs[0]!;

      // The command as a user runs it: a fresh process, CSV files imported, report written.
      const cfg = join(dir, 'perp.yaml');
      writeFileSync(cfg, toYaml(fileDoc));
      const csv = timeCommand('dist/src/app/cli.js', cfg, join(dir, 'report'));
      const commandMs = Math.min(...csv.times);

      // The command the budget names: the same run from the record store, as installed (`npx perpetua`:
      // bin/perpetua.js, which starts the bundled CLI when it was built from this dist/).
      const cfgStore = join(dir, 'perp-store.yaml');
      writeFileSync(cfgStore, toYaml(doc));
      const fromStore = timeCommand('bin/perpetua.js', cfgStore, join(dir, 'report-store'));
      const storeCommandMs = Math.min(...fromStore.times);
      const bundled = await launcherStartsBundle();

      // Three fill models at once vs one after another, one command each (each thread pays its own start).
      const cfg3 = join(dir, 'perp3.yaml');
      writeFileSync(
        cfg3,
        toYaml({
          ...fileDoc,
          backtest: { ...(fileDoc.backtest as Record<string, unknown>), fillModels: ['neutral', 'optimistic', 'pessimistic'] },
        }),
      );
      const command3 = (label: string, extra: string[]): { ms: number; report: string } => {
        const outDir = join(dir, `report3-${label}`);
        const t0 = process.hrtime.bigint();
        const r = spawnSync(process.execPath, ['dist/src/app/cli.js', 'backtest', cfg3, '--out', outDir, ...extra], { encoding: 'utf8' });
        const ms = msSince(t0);
        if (r.status !== 0) throw new Error(`perpetua backtest (${label}) failed: ${r.stderr}`);
        return { ms, report: readFileSync(join(outDir, 'report.json'), 'utf8').split(outDir).join('<out>') };
      };
      const sequential = command3('sequential', ['--workers', '1']);
      const threaded = command3('threads', ['--workers', '3']);
      if (threaded.report !== sequential.report) throw new Error('three fill models: the threaded report differs from the sequential one');
      return [
        {
          name: `perp-trend, neutral: bars/s from the record store (${src.label})`,
          ours: (bars * 1000) / best.ms,
          baseline: (bars * 1000) / bareMs,
          baselineName: 'bare replay of the store (bars → paths → market)',
          unit: 'bars/s',
          budget: 100_000,
          higherIsBetter: true,
          note: `${bars} records, ${best.events} events, ${best.orders} orders, ${best.fills} fills; best of 2 runs after one warm-up (${runs.map((r) => r.ms.toFixed(0)).join(', ')} ms)`,
        },
        {
          name: `perp-trend, neutral: whole \`perpetua backtest\` command, fresh process, CSV in, report out (${src.label})`,
          ours: commandMs,
          unit: 'ms',
          budget: 1500,
          higherIsBetter: false,
          note: `best of ${csv.times.length} (${csv.times.map((t) => t.toFixed(0)).join(', ')} ms); ${csv.out.split('\n')[0]}`,
        },
        {
          name: `perp-trend, neutral: whole \`perpetua backtest\` command, fresh process, record store in, report out, as installed (bin/perpetua.js) (${src.label})`,
          ours: storeCommandMs,
          unit: 'ms',
          budget: 1500,
          higherIsBetter: false,
          note: `best of ${fromStore.times.length} (${fromStore.times.map((t) => t.toFixed(0)).join(', ')} ms); ${bundled ? 'bundled CLI (dist/cli-bundle)' : 'unbundled CLI (no dist/cli-bundle)'}; ${fromStore.out.split('\n')[0]}`,
        },
        {
          name: `perp-trend, three fill models: whole \`perpetua backtest\` command, all at once (--workers 3) vs one after another (${src.label})`,
          ours: threaded.ms,
          baseline: sequential.ms,
          baselineName: 'the same command with --workers 1',
          unit: 'ms',
          higherIsBetter: false,
          note: 'one run each; the two report.json files are the same (checked)',
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
