/**
 * The records a backtest replays, from where the config says: record store folders, JSON-lines record
 * files, or raw files put through the importers (klines, mark / index candles, funding history,
 * trades, Binance L2 recordings) — in memory, merged into one time-ordered list (exchange time; equal
 * times keep the order of the sources, then of the files).
 *
 * An instrument with a depth snapshot ignores bookTicker records in the replay (replay-market.ts), so
 * they are dropped here: on the Binance recordings they are three quarters of the lines.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { BinanceL2Importer } from '../marketdata/import/binance-l2-importer.js';
import { importFundingFile } from '../marketdata/import/funding-csv-importer.js';
import { ImportStats } from '../marketdata/import/import-stats.js';
import { importKlineBatches } from '../marketdata/import/kline-csv-importer.js';
import { importRecordLinesFile } from '../marketdata/import/record-lines-importer.js';
import { importTradeFile } from '../marketdata/import/trade-csv-importer.js';
import { instrumentKey, instrumentKeyMemo, isDataRecord, type DataRecord, type MarketRecord } from '../marketdata/record/record.js';
import { RecordStoreReader } from '../marketdata/store/record-store-reader.js';
import type { ScaledBar, ScaleSpec } from '../marketdata/store/chunk-codec.js';
import type { BacktestConfig, DataSource } from './backtest-config.js';
import { FIXED_INTERVAL_MS } from '../domain/kline-interval.js';
import { replayScale, type ReplayEvent } from './replay-market.js';
import { CONTEXT_LOOKBACK_MS, CONTEXT_STREAMS, ContextInForce, MARKET_STREAMS, marketSpanStream, trimToMarketSpan } from './market-span.js';

export interface LoadDataOptions {
  /** Relative paths resolve against this folder. Default: the working directory. */
  readonly cwd?: string;
  readonly from?: number;
  readonly to?: number;
  /** Record instrument keys (`spot:BTCUSDT`) to keep; default all. */
  readonly instruments?: readonly string[];
}

export interface LoadedData<R extends LoadedRecord = DataRecord> {
  readonly records: R[];
  /** Files (or store folders) read. */
  readonly inputs: readonly string[];
  readonly stats: ImportStats;
}

/** What to do when a data file is not there: the shipped configs read the sample in data/sample. */
export const DATA_PATH_HINT =
  'relative paths resolve against the working directory (run from the project folder: the shipped configs read data/sample/); point backtest.data at your own files or record store otherwise';

export function resolveDataPath(p: string, cwd = process.cwd()): string {
  return resolve(cwd, p);
}

function requireExisting(path: string, what: 'file' | 'folder', configPath: string, shown: string): void {
  if (!existsSync(path)) throw new ConfigError(configPath, `${shown} does not exist (${path}); ${DATA_PATH_HINT}`);
  const st = statSync(path);
  if (what === 'file' ? !st.isFile() : !st.isDirectory()) throw new ConfigError(configPath, `${shown} is not a ${what}`);
}

/**
 * Where a store query for a run ending at `to` must stop: a bar is stamped with its close time, so the
 * last bar inside the run (opening before `to`) may be stamped up to a bar later; the longest bar with
 * a fixed length is a week.
 */
const storeQueryEnd = (to: number): number => to + FIXED_INTERVAL_MS['1W'];

/** Checks that every input exists before anything is read (a clear message instead of an I/O error midway). */
export function checkDataSources(sources: readonly DataSource[], cwd = process.cwd()): string[] {
  const inputs: string[] = [];
  sources.forEach((d, i) => {
    if (d.kind === 'store') {
      const p = resolveDataPath(d.path!, cwd);
      requireExisting(p, 'folder', `backtest.data[${i}].path`, d.path!);
      inputs.push(p);
      return;
    }
    const files = d.files ?? [d.path!];
    files.forEach((f, k) => {
      const p = resolveDataPath(f, cwd);
      requireExisting(p, 'file', d.files ? `backtest.data[${i}].files[${k}]` : `backtest.data[${i}].path`, f);
      inputs.push(p);
    });
  });
  return inputs;
}

/** A record as loaded, or a bar a record store decoded straight into ticks and lots (loadReplayData). */
export type LoadedRecord = DataRecord | ScaledBar;

export function loadBacktestData(sources: readonly DataSource[], opts: LoadDataOptions = {}): Promise<LoadedData> {
  // Without bar scales every record comes as read.
  return readData(sources, opts, undefined) as Promise<LoadedData>;
}

/**
 * loadBacktestData for a replay: the bars of the instruments in `bars` (record instrument key → scale,
 * ScaleSpec.bars) come from record stores as ScaledBar, decoded straight into ticks and lots with no
 * decimal string made; from other sources, and everything else, as records. The same records, cut
 * and ordered alike.
 */
export function loadReplayData(
  sources: readonly DataSource[],
  opts: LoadDataOptions & { readonly bars: ReadonlyMap<string, ScaleSpec> },
): Promise<LoadedData<LoadedRecord>> {
  return readData(sources, opts, opts.bars.size > 0 ? opts.bars : undefined);
}

async function readData(
  sources: readonly DataSource[],
  opts: LoadDataOptions,
  bars: ReadonlyMap<string, ScaleSpec> | undefined,
): Promise<LoadedData<LoadedRecord>> {
  const cwd = opts.cwd ?? process.cwd();
  const inputs = checkDataSources(sources, cwd);
  const stats = new ImportStats();
  const wanted = opts.instruments ? new Set(opts.instruments) : undefined;
  const from = opts.from ?? -Infinity;
  const to = opts.to ?? Infinity;
  const all: LoadedRecord[] = [];
  // The funding rate or mark in force at `from` (the span's start) is in a record before it.
  const before = new ContextInForce(opts.from);
  const keep = (r: MarketRecord | ScaledBar): void => {
    if (r.s === 'bar') {
      // A bar, as a kline record below: market data, in the run by its open.
      if ((wanted && !wanted.has(r.key)) || r.et < from || r.ot >= to) return;
      all.push(r);
      return;
    }
    if (!isDataRecord(r)) return;
    if (wanted && !wanted.has(instrumentKey(r.m, r.i))) return;
    if (r.et < from) {
      if (!MARKET_STREAMS.has(r.s)) before.add(r);
      return;
    }
    // A bar is stamped with its close time but belongs to [from, to) by its open: the bar that opens
    // at to − 1 min closes at `to`, and its whole path lies inside (issue 13, defect 2).
    if ((r.s === 'kline' ? r.ot : r.et) >= to) return;
    all.push(r);
  };
  for (const d of sources) {
    if (d.kind === 'store') {
      const reader = RecordStoreReader.open(resolveDataPath(d.path!, cwd));
      try {
        if (opts.from !== undefined) for (const r of contextBefore(reader, opts.from, opts.instruments)) keep(r);
        const query = {
          ...(opts.from !== undefined ? { from: opts.from } : {}),
          ...(opts.to !== undefined ? { to: storeQueryEnd(opts.to) } : {}),
          ...(opts.instruments ? { instruments: opts.instruments } : {}),
        };
        for (const r of bars ? reader.scaledRecords(query, bars) : reader.records(query)) keep(r as DataRecord | ScaledBar);
      } finally {
        reader.close();
      }
      continue;
    }
    const files = (d.files ?? [d.path!]).map((f) => resolveDataPath(f, cwd));
    const common = { market: d.market ?? 'spot', ...(d.symbol !== undefined ? { symbol: d.symbol } : {}) } as const;
    const l2 = d.kind === 'l2' ? new BinanceL2Importer(common, stats) : undefined;
    for (const file of files) {
      if (d.kind === 'klines' || d.kind === 'mark' || d.kind === 'index') {
        // A batch of records per chunk of the file (no promise per bar).
        const opts = {
          ...common,
          ...(d.interval ? { interval: d.interval } : {}),
          stream: d.kind === 'klines' ? 'kline' : d.kind === 'mark' ? 'fair' : 'index',
          ...(d.kind !== 'klines' && d.pricePoint ? { pricePoint: d.pricePoint } : {}),
        } as const;
        for await (const batch of importKlineBatches(file, opts, stats)) for (const r of batch) keep(r as MarketRecord);
        continue;
      }
      let it: AsyncGenerator<MarketRecord>;
      switch (d.kind) {
        case 'funding':
          it = importFundingFile(file, { ...common, ...(d.cycleHours !== undefined ? { cycleHours: d.cycleHours } : {}) }, stats);
          break;
        case 'trades':
          it = importTradeFile(file, common, stats);
          break;
        case 'l2':
          it = l2!.importFile(file);
          break;
        case 'records':
          it = importRecordLinesFile(file, {}, stats);
          break;
      }
      for await (const r of it) keep(r);
    }
    if (l2) for (const r of l2.finish()) keep(r);
  }
  return { records: sortAndTrim(all, before), inputs, stats };
}

/**
 * Time order (stable), no bookTicker for instruments that have depth, and the run cut to the span of
 * the market streams (market-span.ts), with the context in force before it (`before`: what came
 * before an explicit `from`) carried to its start.
 */
export function sortAndTrim<R extends LoadedRecord>(records: R[], before?: ContextInForce): (R | DataRecord)[] {
  // Only a snapshot makes a book of the diffs (Binance's procedure): without one the replay builds
  // the book from bookTicker (issue 13, defect 4), so those are kept.
  const withDepth = new Set<string>();
  for (const r of records) if (r.s === 'depth.snapshot') withDepth.add(instrumentKey(r.m, r.i));
  let out = withDepth.size === 0 ? records : records.filter((r) => r.s !== 'bookTicker' || !withDepth.has(instrumentKey(r.m, r.i)));
  let sorted = true;
  for (let i = 1; i < out.length && sorted; i++) if (out[i]!.et < out[i - 1]!.et) sorted = false;
  if (!sorted) out = out.slice().sort((a, b) => a.et - b.et);
  return trimToMarketSpan(out, before);
}

/** Which streams each record instrument has (to tell kline-only instruments apart). */
export function streamsByInstrument(records: Iterable<LoadedRecord>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const keyOf = instrumentKeyMemo();
  // A run of records of one instrument and stream adds its stream name once (no string per bar).
  let set: Set<string> | undefined;
  let lastKey = '';
  let lastStream = '';
  let lastIv = '';
  for (const r of records) {
    const k = r.s === 'bar' ? r.key : keyOf(r.m, r.i);
    const stream = r.s === 'bar' ? 'kline' : r.s;
    const iv = r.s === 'kline' || r.s === 'bar' ? r.iv : '';
    if (set !== undefined && k === lastKey && stream === lastStream && iv === lastIv) continue;
    set = out.get(k);
    if (!set) out.set(k, (set = new Set()));
    set.add(stream === 'kline' ? `kline:${iv}` : stream);
    lastKey = k;
    lastStream = stream;
    lastIv = iv;
  }
  return out;
}

export interface StoreRecords {
  /**
   * Time-ordered records, read chunk by chunk as the replay goes (not loaded whole); with `compileFor`,
   * the depth and trade records of the run's instruments come as compiled replay events.
   */
  readonly records: IterableIterator<DataRecord | ReplayEvent>;
  /** Streams per record instrument, from the store's index. */
  readonly streams: Map<string, Set<string>>;
  /** The latest record time per stream of each instrument, from the store's index (runBacktest's `streamEnds`). */
  readonly streamEnds: Map<string, Map<string, number>>;
  close(): void;
}

/**
 * A record store read as the replay goes (the from-disk path of a backtest): the store's own k-way
 * merge in exchange-time order, bookTicker left out for instruments that have depth.
 */
export function openRecordStore(
  dir: string,
  opts: Omit<LoadDataOptions, 'cwd'> & { readonly compileFor?: BacktestConfig } = {},
): StoreRecords {
  const reader = RecordStoreReader.open(dir);
  const streams = new Map<string, Set<string>>();
  const streamEnds = new Map<string, Map<string, number>>();
  for (const inst of reader.summary().instruments) {
    const key = instrumentKey(inst.market, inst.symbol);
    if (opts.instruments && !opts.instruments.includes(key)) continue;
    streams.set(key, new Set(inst.streams.map((s) => s.stream)));
    streamEnds.set(key, new Map(inst.streams.map((s) => [s.stream, s.maxEt])));
  }
  const wanted = new Set<string>();
  for (const s of streams.values()) for (const x of s) if (x !== 'bookTicker' || !s.has('depth.snapshot')) wanted.add(x);
  // Kline intervals are only known per record: `kline:*` until the replay meets the first bar.
  for (const s of streams.values()) {
    if (s.delete('kline')) s.add('kline:*');
  }
  const query = {
    ...(opts.from !== undefined ? { from: opts.from } : {}),
    // The replay cuts at `to` itself (a bar by its open time, everything else by its time).
    ...(opts.to !== undefined ? { to: storeQueryEnd(opts.to) } : {}),
    ...(opts.instruments ? { instruments: opts.instruments } : {}),
    streams: [...wanted] as DataRecord['s'][],
  };
  // The replay of a config: its instruments' book and trades decoded straight into ticks and lots
  // (what prepareReplay() does for records in memory), without the decimal strings in between.
  const scale = opts.compileFor
    ? new Map(
        opts.compileFor.instruments.map((bi) => [
          instrumentKey(bi.source.market, bi.source.symbol),
          replayScale({ instrument: bi.instrument, source: bi.source, quantityFactor: bi.quantityFactor }),
        ]),
      )
    : undefined;
  const read: IterableIterator<DataRecord | ReplayEvent> = scale ? reader.scaledRecords(query, scale) : reader.records(query);
  // The run spans the market data, as a loaded list is cut (sortAndTrim): the store's index says where it ends.
  const before = new ContextInForce(opts.from);
  if (opts.from !== undefined) for (const r of contextBefore(reader, opts.from, opts.instruments)) before.add(r);
  let end: number | undefined;
  for (const ends of streamEnds.values()) for (const [stream, t] of ends) if (MARKET_STREAMS.has(stream)) end = Math.max(end ?? t, t);
  const records = marketSpanStream(read, end, before, (r) => {
    if (r.s !== 'kline') return;
    const s = streams.get(instrumentKey(r.m, r.i));
    if (s && !s.has(`kline:${r.iv}`)) {
      s.delete('kline:*');
      s.add(`kline:${r.iv}`);
    }
  });
  return { records, streams, streamEnds, close: () => reader.close() };
}

/** The context records of the CONTEXT_LOOKBACK_MS before `from`, in time order (the last of each series is the one in force). */
function contextBefore(reader: RecordStoreReader, from: number, instruments: readonly string[] | undefined): Iterable<DataRecord> {
  return reader.records({
    from: from - CONTEXT_LOOKBACK_MS,
    to: from,
    streams: [...CONTEXT_STREAMS],
    ...(instruments ? { instruments } : {}),
  });
}
