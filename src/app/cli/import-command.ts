/**
 * `perpetua import`: reads recorded data people already have into a record store (store/), with a
 * progress bar on stderr. The lead wires this function into the CLI; everything it needs arrives in
 * the options, and it returns a summary instead of printing one.
 *
 *   kind      input                                                 records
 *   klines    candle CSVs (Binance 12-col, freqtrade 6-col, MEXC)   kline
 *   mark      mark-price candle CSVs                                fair
 *   index     index-price candle CSVs                               index
 *   funding   funding-rate history CSVs                             funding
 *   trades    trade CSVs (Binance trades / aggTrades, headers)      trade
 *   l2        Binance websocket recordings (hftbacktest format)     depth.snapshot, depth.diff,
 *                                                                   trade, bookTicker, fair, index, funding
 *   records   JSON-lines recordings of the record model             as recorded
 *
 * Inputs are read in the order given and appended to the store (created, or resumed after a crash).
 * An import is idempotent: records of an instrument and stream inside the time span the store already
 * holds for them are not appended again (counted in `alreadyStored`, with a warning naming the span).
 * A bad row stops the import with an error naming file, line and field (`onBadRow: 'skip'` counts
 * and warns instead); records already appended stay in the store, which is closed cleanly.
 */
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import cliProgress from 'cli-progress';
import { SystemClock, type Clock } from '../../core/clock.js';
import { ValidationError } from '../../core/errors.js';
import type { KlineInterval } from '../../domain/kline-interval.js';
import { instrumentKey, isDataRecord, metaRecord, type MarketRecord, type RecordMarket } from '../../marketdata/record/record.js';
import { RecordStoreReader } from '../../marketdata/store/record-store-reader.js';
import { RecordStoreWriter, type RecoveryAction, type RecordStoreWriterOptions } from '../../marketdata/store/record-store-writer.js';
import { BinanceL2Importer } from '../../marketdata/import/binance-l2-importer.js';
import { importFundingFile } from '../../marketdata/import/funding-csv-importer.js';
import { ImportStats, type BadRowPolicy, type DepthStats, type FileStats } from '../../marketdata/import/import-stats.js';
import { importKlineFile } from '../../marketdata/import/kline-csv-importer.js';
import { importRecordLinesFile } from '../../marketdata/import/record-lines-importer.js';
import type { SymbolStyle } from '../../marketdata/import/symbol-map.js';
import { importTradeFile } from '../../marketdata/import/trade-csv-importer.js';

import { IMPORT_KINDS, type ImportKind } from '../../marketdata/import/import-kinds.js';

export interface ImportCommandOptions {
  readonly kind: ImportKind;
  /** Files, read in this order. */
  readonly input: readonly string[];
  /** Store folder (created when missing, appended to when present). */
  readonly out: string;
  readonly market: RecordMarket;
  /** Instrument written into every record, verbatim. Default: from the data or the file name. */
  readonly symbol?: string;
  /** How symbols found in the data / file names are spelled. Default 'venue' (BTCUSDT / BTC_USDT). */
  readonly symbolStyle?: SymbolStyle;
  /** Candle interval (klines, mark, index). Default: inferred. */
  readonly interval?: KlineInterval;
  /** mark / index: which price of a candle, at which time. Default 'open'. */
  readonly pricePoint?: 'open' | 'close';
  /** funding: cycle when the file does not give it. */
  readonly cycleHours?: number;
  /** l2: keep insurance-fund / ADL trades. Default false. */
  readonly includeNonMarketTrades?: boolean;
  /** l2: reorder window in ms. Default 10 000. */
  readonly windowMs?: number;
  readonly onBadRow?: BadRowPolicy;
  /** Written as the store's meta `source`. Default: "<kind> import of <file names>". */
  readonly source?: string;
  /** Draw the progress bar. Default: when the progress stream is a TTY. */
  readonly progress?: boolean;
  readonly progressStream?: NodeJS.WritableStream;
  /**
   * Store options. Default for imports: one segment per 256 MiB (not per day: years of 8-hourly
   * funding would make a thousand tiny files) and no time-based chunk flushing (history is not at
   * risk in a crash; full chunks compress best).
   */
  readonly store?: RecordStoreWriterOptions;
  /** Times the import for the summary and the bar's rate. Default SystemClock. */
  readonly clock?: Clock;
}

export interface ImportSummary {
  readonly kind: ImportKind;
  readonly out: string;
  /** Records appended to the store. */
  readonly records: number;
  /** Records read but not appended: the store already held their instrument and stream at their time. */
  readonly alreadyStored: number;
  readonly byStream: Readonly<Record<string, number>>;
  readonly files: readonly FileStats[];
  readonly firstEt: number | undefined;
  readonly lastEt: number | undefined;
  readonly counters: Readonly<Record<string, number>>;
  readonly badRows: number;
  readonly warnings: readonly string[];
  readonly warningCount: number;
  /** l2: per instrument. */
  readonly depth: Readonly<Record<string, DepthStats>>;
  /** What opening an existing store repaired. */
  readonly recovery: readonly RecoveryAction[];
  readonly elapsedMs: number;
}

export async function importCommand(opts: ImportCommandOptions): Promise<ImportSummary> {
  if (!(IMPORT_KINDS as readonly string[]).includes(opts.kind)) throw new ValidationError('kind', IMPORT_KINDS.join(' | '), opts.kind);
  if (opts.market !== 'spot' && opts.market !== 'contract') throw new ValidationError('market', "'spot' or 'contract'", opts.market);
  if (!opts.input.length) throw new ValidationError('input', 'at least one file', opts.input);
  for (const f of opts.input) if (!existsSync(f) || !statSync(f).isFile()) throw new ValidationError('input', 'an existing file', f);
  if (!opts.out) throw new ValidationError('out', 'a store folder', opts.out);
  const clock = opts.clock ?? new SystemClock();
  const started = clock.now();
  const stats = new ImportStats();
  const sizes = opts.input.map((f) => statSync(f).size);
  const total = sizes.reduce((a, b) => a + b, 0);
  const stream = opts.progressStream ?? process.stderr;
  const showBar = opts.progress ?? (stream as NodeJS.WriteStream).isTTY === true;
  const bar = showBar
    ? new cliProgress.SingleBar(
        {
          stream,
          format: `import ${opts.kind} |{bar}| {percentage}% | {mb}/{totalMb} MB | {records} records | {rate} rec/s | ETA {eta_formatted}`,
          noTTYOutput: opts.progress === true,
          hideCursor: true,
          etaBuffer: 50,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let done = 0;
  let lastDraw = 0;
  const mb = (n: number): string => (n / 1048576).toFixed(1);
  const draw = (bytes: number, force = false): void => {
    if (!bar) return;
    if (!force && stats.records - lastDraw < 5000) return;
    lastDraw = stats.records;
    const secs = Math.max(1e-3, (clock.now() - started) / 1000);
    bar.update(Math.min(total, bytes), {
      records: stats.records,
      mb: mb(bytes),
      totalMb: mb(total),
      rate: Math.round(stats.records / secs),
    });
  };
  bar?.start(Math.max(1, total), 0, { records: 0, mb: '0.0', totalMb: mb(total), rate: 0 });

  // Importing is idempotent: what the store already holds for an instrument and stream (its time span)
  // is not appended again — the same file imported twice would otherwise replay every record twice.
  let held = new Map<string, { minEt: number; maxEt: number }>();
  const overlap = new Map<string, { records: number; first: number; last: number }>();
  const isNew = (rec: MarketRecord): boolean => {
    if (!isDataRecord(rec)) return true;
    const key = `${instrumentKey(rec.m, rec.i)} ${rec.s}`;
    const span = held.get(key);
    if (span === undefined || rec.et < span.minEt || rec.et > span.maxEt) return true;
    const o = overlap.get(key);
    if (o === undefined) overlap.set(key, { records: 1, first: rec.et, last: rec.et });
    else {
      o.records++;
      o.first = Math.min(o.first, rec.et);
      o.last = Math.max(o.last, rec.et);
    }
    return false;
  };
  const writer = RecordStoreWriter.open(opts.out, { segmentPeriod: 'none', maxBufferedMs: Infinity, ...opts.store });
  try {
    // Read after the writer opened: it repaired what a crashed import left.
    held = storedSpans(opts.out);
    writer.append(
      metaRecord(
        opts.source ?? `${opts.kind} import of ${opts.input.map((f) => basename(f)).join(', ')}`,
        `perpetua import --kind ${opts.kind} --market ${opts.market}`,
      ),
    );
    const l2 = opts.kind === 'l2' ? new BinanceL2Importer(opts, stats) : undefined;
    for (let k = 0; k < opts.input.length; k++) {
      const file = opts.input[k]!;
      let fileBytes = 0;
      const onBytes = (n: number): void => {
        fileBytes = n;
      };
      for await (const rec of recordsOf(opts, file, stats, onBytes, l2)) {
        if (isNew(rec)) writer.append(rec);
        draw(done + fileBytes);
      }
      done += sizes[k]!;
      draw(done, true);
    }
    if (l2) for (const rec of l2.finish()) if (isNew(rec)) writer.append(rec);
  } finally {
    writer.close();
    draw(total, true);
    bar?.stop();
  }
  let alreadyStored = 0;
  for (const [key, o] of overlap) {
    alreadyStored += o.records;
    stats.warn(
      `${o.records} ${key} records from ${new Date(o.first).toISOString()} to ${new Date(o.last).toISOString()} were already in ${opts.out} (the same data imported before?): not appended again`,
    );
  }
  return {
    kind: opts.kind,
    out: opts.out,
    records: stats.records - alreadyStored,
    alreadyStored,
    byStream: stats.byStream,
    files: stats.files,
    firstEt: stats.firstEt,
    lastEt: stats.lastEt,
    counters: stats.counters,
    badRows: stats.badRows,
    warnings: stats.warnings,
    warningCount: stats.warningCount,
    depth: stats.depth,
    recovery: writer.recovery,
    elapsedMs: clock.now() - started,
  };
}

/** Time span (exchange time) held per `<instrument key> <stream>` by the store at `dir`, if there is one. */
function storedSpans(dir: string): Map<string, { minEt: number; maxEt: number }> {
  const out = new Map<string, { minEt: number; maxEt: number }>();
  const reader = RecordStoreReader.open(dir);
  try {
    for (const inst of reader.summary().instruments) {
      for (const st of inst.streams)
        out.set(`${instrumentKey(inst.market, inst.symbol)} ${st.stream}`, { minEt: st.minEt, maxEt: st.maxEt });
    }
  } finally {
    reader.close();
  }
  return out;
}

function recordsOf(
  opts: ImportCommandOptions,
  file: string,
  stats: ImportStats,
  onBytes: (n: number) => void,
  l2: BinanceL2Importer | undefined,
): AsyncGenerator<MarketRecord> {
  const common = { market: opts.market, symbol: opts.symbol, symbolStyle: opts.symbolStyle, onBadRow: opts.onBadRow };
  switch (opts.kind) {
    case 'klines':
      return importKlineFile(file, { ...common, interval: opts.interval, stream: 'kline' }, stats, onBytes);
    case 'mark':
    case 'index':
      return importKlineFile(
        file,
        { ...common, interval: opts.interval, stream: opts.kind === 'mark' ? 'fair' : 'index', pricePoint: opts.pricePoint },
        stats,
        onBytes,
      );
    case 'funding':
      return importFundingFile(file, { ...common, cycleHours: opts.cycleHours }, stats, onBytes);
    case 'trades':
      return importTradeFile(file, common, stats, onBytes);
    case 'l2':
      return l2!.importFile(file, onBytes);
    case 'records':
      return importRecordLinesFile(file, { onBadRow: opts.onBadRow }, stats, onBytes);
  }
}
