/**
 * A backtest config's data, loaded and compiled for the replay once per process: the backtest command
 * runs it in process (one fill model after another) and each fill-model worker thread loads its own
 * (fill-model-worker.ts), as the sweep's workers do.
 */
import { ConfigError } from '../core/errors.js';
import { instrumentKey, instrumentKeyMemo, type KlineRecord } from '../marketdata/record/record.js';
import type { ScaleSpec } from '../marketdata/store/chunk-codec.js';
import { RecordStoreReader } from '../marketdata/store/record-store-reader.js';
import { describeStoreSpan, isoMinute } from '../marketdata/store/store-listing.js';
import type { BacktestConfig } from './backtest-config.js';
import { checkDataSources, loadReplayData, resolveDataPath, streamsByInstrument, type LoadedRecord } from './backtest-data.js';
import { prepareReplay, replayInstrumentSpecs } from './backtest-runner.js';
import { ReplayEventList } from './replay-event-list.js';
import { compileBar, replayScale, type ReplayEvent } from './replay-market.js';

export interface LoadedReplay {
  readonly events: Iterable<ReplayEvent>;
  readonly streams: Map<string, Set<string>>;
  /** Records loaded (the summary line's count). */
  readonly records: number;
  /** Events one run applies (expectedEvents): the progress bar's length per fill model. */
  readonly perModel: number;
}

/**
 * Events a replay of `records` applies: records, with each bar of a kline-only instrument as its path.
 * `streams`: streamsByInstrument(records), when the caller has it already.
 */
export function expectedEvents(
  config: BacktestConfig,
  records: readonly LoadedRecord[],
  streams: ReadonlyMap<string, ReadonlySet<string>> = streamsByInstrument(records),
): number {
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
  const keyOf = instrumentKeyMemo();
  let n = 0;
  for (const r of records) {
    if (r.s !== 'kline' && r.s !== 'bar') {
      n++;
      continue;
    }
    const key = r.s === 'bar' ? r.key : keyOf(r.m, r.i);
    n += pathKeys.has(key) ? steps.get(key)! : 1;
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
 * instruments, their bars in ticks and lots held in columns (replay-event-list.ts): the loaded record
 * objects are dropped here, so the bars do not weigh on the heap for the whole run. (Runs without
 * kline-only instruments keep the array: the replay walks it by index.) Read from record stores, such
 * bars are decoded straight into ticks and lots (storeBarScales); from other sources they are loaded as
 * kline records and converted here (compileBar), to the same numbers.
 */
export async function loadReplay(config: BacktestConfig, cwd: string): Promise<LoadedReplay> {
  checkDataSources(config.backtest.data, cwd);
  const data = await loadReplayData(config.backtest.data, {
    cwd,
    ...(config.backtest.from !== undefined ? { from: config.backtest.from } : {}),
    ...(config.backtest.to !== undefined ? { to: config.backtest.to } : {}),
    instruments: config.instruments.map((i) => `${i.source.market}:${i.source.symbol}`),
    bars: storeBarScales(config, cwd),
  });
  if (data.records.length === 0) throw new ConfigError('backtest.data', noRecordsMessage(config, data.inputs, cwd));
  const prepared = prepareReplay(config, data.records);
  const pathScales = replayInstrumentSpecs(config, prepared.streams).flatMap((s) => (s.klineOnly ? [replayScale(s)] : []));
  const barScale = new Map(pathScales.map((s) => [s.key, s]));
  const keyOf = instrumentKeyMemo();
  return {
    events:
      barScale.size > 0
        ? ReplayEventList.of(prepared.events, (e) => {
            if (e.s === 'bar') return e;
            const scale = e.s === 'kline' ? barScale.get(keyOf(e.m, e.i)) : undefined;
            return scale === undefined ? undefined : compileBar(e as KlineRecord, scale);
          })
        : prepared.events,
    streams: prepared.streams,
    records: data.records.length,
    perModel: expectedEvents(config, data.records, prepared.streams),
  };
}

/**
 * The instruments whose bars the record stores can hand over in ticks and lots: every source is a store
 * and the instrument is kline-only in all of them together (their indexes: bars, and no book or trades),
 * so it is kline-only in whatever window the run reads — the rule of replayInstrumentSpecs.
 */
function storeBarScales(config: BacktestConfig, cwd: string): Map<string, ScaleSpec> {
  const out = new Map<string, ScaleSpec>();
  if (!config.backtest.data.every((d) => d.kind === 'store' && d.path !== undefined)) return out;
  const streams = new Map<string, Set<string>>();
  for (const d of config.backtest.data) {
    const reader = RecordStoreReader.open(resolveDataPath(d.path!, cwd));
    try {
      for (const inst of reader.summary().instruments) {
        const key = instrumentKey(inst.market, inst.symbol);
        let set = streams.get(key);
        if (!set) streams.set(key, (set = new Set()));
        // The index knows streams, not intervals: any bar interval counts as bars here.
        for (const s of inst.streams) set.add(s.stream === 'kline' ? 'kline:*' : s.stream);
      }
    } finally {
      reader.close();
    }
  }
  for (const spec of replayInstrumentSpecs(config, streams))
    if (spec.klineOnly) out.set(replayScale(spec).key, { ...replayScale(spec), bars: true });
  return out;
}
