/**
 * `perpetua backtest <config>`: loads the config and its data, replays the data once per fill model
 * (neutral first, then the band) with a progress bar on stderr (events/s and ETA), and hands the runs
 * to the report writer (report.json + report.html in the output folder).
 *
 * Missing data fails before anything runs, naming the config path and the file (the shipped configs
 * read the sample in data/sample/).
 */
import { basename, extname, join } from 'node:path';
import cliProgress from 'cli-progress';
import { SystemClock, type Clock } from '../../core/clock.js';
import { D } from '../../core/decimal.js';
import { ConfigError } from '../../core/errors.js';
import type { ClientLogger } from '../../client/catalogue-client.js';
import type { DataRecord } from '../../marketdata/record/record.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import { strategyCatalog } from '../../runtime/container/strategy-module.js';
import { loadConfigFileStrategies } from '../../runtime/plugins/strategy-plugins.js';
import { writeReport } from '../../backtest/report/write-report.js';
import { TAPE_DIR } from '../../backtest/report/run-tape.js';
import type { BacktestRun } from '../../backtest/report/backtest-run.js';
import { loadBacktestConfig, type BacktestConfig } from '../../backtest/backtest-config.js';
import { checkDataSources, loadBacktestData, resolveDataPath, streamsByInstrument } from '../../backtest/backtest-data.js';
import { runOutcome } from '../../backtest/run-fingerprint.js';
import { RecordStoreReader } from '../../marketdata/store/record-store-reader.js';
import { describeStoreSpan, isoMinute } from '../../marketdata/store/store-listing.js';

import { prepareReplay, replayInstrumentSpecs, runBacktest, type BacktestStats } from '../../backtest/backtest-runner.js';
import { CompactRecords } from '../../backtest/compact-records.js';
import type { ReplayEvent } from '../../backtest/replay-market.js';
import type { FillModel } from '../../backtest/fill-model.js';

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

/** Events a replay of `records` applies: records, with each bar of a kline-only instrument as its path. */
export function expectedEvents(config: BacktestConfig, records: readonly DataRecord[]): number {
  const streams = streamsByInstrument(records);
  const pathKeys = new Set<string>();
  const steps = new Map<string, number>();
  for (const i of config.instruments) {
    const key = `${i.source.market}:${i.source.symbol}`;
    const s = streams.get(key);
    if (
      s &&
      [...s].some((x) => x.startsWith('kline:')) &&
      !s.has('trade') &&
      !s.has('depth.snapshot') &&
      !s.has('depth.diff') &&
      !s.has('bookTicker')
    ) {
      pathKeys.add(key);
      steps.set(key, 3 * (i.path?.stepsPerLeg ?? 1) + 1);
    }
  }
  if (pathKeys.size === 0) return records.length;
  let n = 0;
  for (const r of records) {
    const key = `${r.m}:${r.i}`;
    n += r.s === 'kline' && pathKeys.has(key) ? steps.get(key)! : 1;
  }
  return n;
}

/**
 * "No records" with what would help: the window asked for and, for each record store read, the span it
 * does hold (from its index), so a `from` / `to` outside the store is seen at once.
 */
export function noRecordsMessage(config: BacktestConfig, inputs: readonly string[], cwd: string): string {
  const bt = config.backtest;
  const keys = config.instruments.map((i) => `${i.source.market}:${i.source.symbol}`);
  const window =
    bt.from !== undefined || bt.to !== undefined
      ? ` between backtest.from ${bt.from !== undefined ? isoMinute(bt.from) : '(start)'} and backtest.to ${bt.to !== undefined ? isoMinute(bt.to) : '(end)'} UTC`
      : '';
  const spans: string[] = [];
  for (const d of bt.data) {
    if (d.kind !== 'store' || d.path === undefined) continue;
    const dir = resolveDataPath(d.path, cwd);
    const reader = RecordStoreReader.open(dir);
    try {
      spans.push(describeStoreSpan(d.path, reader.summary(), keys));
    } finally {
      reader.close();
    }
  }
  return `no records of ${config.instruments.map((i) => i.source.symbol).join(', ')}${window} in ${inputs.join(', ')}${spans.length > 0 ? `: ${spans.join('; ')}` : ''}`;
}

/**
 * The config's records, compiled for the replay (prepareReplay) and, for runs with kline-only
 * instruments, held compactly (compact-records.ts): the loaded record objects are dropped here, so
 * the bars do not weigh on the heap for the whole run. (Runs without kline-only instruments keep the
 * array: the replay walks it by index.)
 */
async function loadReplay(
  config: BacktestConfig,
  cwd: string,
): Promise<{ events: Iterable<ReplayEvent>; streams: Map<string, Set<string>>; records: number; perModel: number }> {
  checkDataSources(config.backtest.data, cwd);
  const data = await loadBacktestData(config.backtest.data, {
    cwd,
    ...(config.backtest.from !== undefined ? { from: config.backtest.from } : {}),
    ...(config.backtest.to !== undefined ? { to: config.backtest.to } : {}),
    instruments: config.instruments.map((i) => `${i.source.market}:${i.source.symbol}`),
  });
  if (data.records.length === 0) throw new ConfigError('backtest.data', noRecordsMessage(config, data.inputs, cwd));
  const prepared = prepareReplay(config, data.records);
  const paths = replayInstrumentSpecs(config, prepared.streams).some((s) => s.klineOnly);
  return {
    events: paths ? CompactRecords.of(prepared.events) : prepared.events,
    streams: prepared.streams,
    records: data.records.length,
    perModel: expectedEvents(config, data.records),
  };
}

export async function backtestCommand(opts: BacktestCommandOptions): Promise<BacktestCommandSummary> {
  const clock = opts.clock ?? new SystemClock();
  const started = clock.now();
  const cwd = opts.cwd ?? process.cwd();
  if (!opts.strategyClasses) await loadConfigFileStrategies(opts.config, cwd);
  const config = await loadBacktestConfig(opts.config, strategyCatalog(opts.strategyClasses));
  const prepared = await loadReplay(config, cwd);
  const perModel = prepared.perModel;
  const models = reportOrder(config.fillModels);
  const stream = opts.progressStream ?? process.stderr;
  const show = opts.progress ?? (stream as NodeJS.WriteStream).isTTY === true;
  const bar = show
    ? new cliProgress.SingleBar(
        {
          stream,
          format: 'backtest {model} |{bar}| {percentage}% | {value}/{total} events | {rate} ev/s | ETA {eta_formatted}',
          noTTYOutput: opts.progress === true,
          hideCursor: true,
          etaBuffer: 20,
          fps: 10,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const total = perModel * models.length;
  bar?.start(Math.max(1, total), 0, { model: models[0]!.name, rate: 0 });
  const out = opts.out ?? defaultReportDir(opts.config);
  const runs: BacktestRun[] = [];
  const summaries: BacktestModelSummary[] = [];
  let done = 0;
  try {
    for (const model of models) {
      const base = done;
      const result = await runBacktest({
        config,
        records: prepared.events,
        fillModel: model,
        streams: prepared.streams,
        ...(opts.strategyClasses ? { strategyClasses: opts.strategyClasses } : {}),
        ...(opts.logger ? { logger: opts.logger } : {}),
        progressEvery: 20_000,
        // The full record streams to <out>/tape/<model>/ (CSV): memory stays flat however long the run.
        ...(opts.tape === false ? {} : { tapeDir: join(out, TAPE_DIR, model.name) }),
        onProgress: (events) => {
          const secs = Math.max(1e-3, (clock.now() - started) / 1000);
          bar?.update(Math.min(total, base + events), { model: model.name, rate: Math.round((base + events) / secs) });
        },
      });
      done = base + result.stats.events;
      runs.push(result.run);
      const last = result.run.samples[result.run.samples.length - 1];
      summaries.push({
        fillModel: model.name,
        orders: result.run.tape?.orderCount ?? result.run.orders.length,
        fills: result.run.fills.length,
        finalEquity: last ? last.equity.toFixed() : result.run.initialCapital.toFixed(),
        stats: result.stats,
      });
    }
  } finally {
    bar?.update(Math.min(total, done), { rate: Math.round(done / Math.max(1e-3, (clock.now() - started) / 1000)) });
    bar?.stop();
  }
  const paths = await writeReport(runs, out);
  const elapsedMs = clock.now() - started;
  const w = opts.output ?? process.stdout;
  w.write(
    `backtest ${config.run.strategies[0]!.name} on ${config.instruments.map((i) => i.instrument.symbol).join(', ')}: ${prepared.records} records, ${models.length} fill models, ${(elapsedMs / 1000).toFixed(1)} s\n`,
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
  return { out, json: paths.json, html: paths.html, records: prepared.records, models: summaries, runs, elapsedMs, identical: same };
}

/**
 * Fill models whose runs came out alike (the same fills at the same prices, sizes and fees, the same
 * funding and equity series: runOutcome), in report order. On a taker-only run over kline data
 * optimistic and neutral cannot differ (only their latency does, and no bar moves within 25 ms), and
 * the user should know the band is narrower than three models suggest (issue 13).
 */
export function identicalModels(runs: readonly BacktestRun[]): string[][] {
  const byRecord = new Map<string, string[]>();
  for (const r of runs) {
    const key = runOutcome(r);
    const group = byRecord.get(key);
    if (group) group.push(r.fillModel);
    else byRecord.set(key, [r.fillModel]);
  }
  return [...byRecord.values()].filter((g) => g.length > 1);
}
