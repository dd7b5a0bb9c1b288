/**
 * Candle files → `kline` records (or `fair` / `index` price records from mark / index candles).
 *
 * Layouts recognised per file, from its first line:
 *  - a header row: columns found by name (open_time|timestamp|date…, open, high, low, close, volume,
 *    close_time, quote_volume|amount, count|trades), any order, any extra columns;
 *  - no header: Binance / MEXC REST order `open_time, open, high, low, close, volume[, close_time,
 *    quote_volume, count, taker_buy_volume, taker_buy_quote_volume, ignore]` (the 12-column
 *    data.binance.vision files, the 8-column MEXC REST dump, the 6-column freqtrade CSVs);
 *  - MEXC text `YYYYMMDD HHMMSS;open;high;low;close;volume` (any of , ; tab | separates cells).
 * Times in s, ms, µs (Binance spot files since 2025) or ns, or as dates (parseEpochMs).
 * Repeated header rows (concatenated monthly files) are skipped; a row with the open time of the
 * previous one is a duplicate and skipped; gaps and out-of-order rows are counted, not fatal.
 *
 * Time stamps: a bar is known only once it has closed, so et = lt = its CLOSE time (open + interval)
 * — a replay never shows a bar before it ended (no look-ahead). Historical bars are final (x: true).
 * Price candles: `pricePoint: 'open'` (default) gives the price at the open time (a point-in-time
 * value: the mark price AT the open), 'close' the close at the close time.
 */
import { ValidationError } from '../../core/errors.js';
import { FIXED_INTERVAL_MS, KLINE_INTERVALS, fromContractInterval, type KlineInterval } from '../../domain/kline-interval.js';
import type { ContractKlineInterval } from '../../domain/contract-enums.js';
import type { DataRecord, RecordMarket } from '../record/record.js';
import { handleBadRow, type BadRowPolicy, type FileStats, type ImportStats } from './import-stats.js';
import { readLineBatches } from './line-reader.js';
import { mapSymbol, symbolFromFileName, type SymbolStyle } from './symbol-map.js';
import { detectDelimiter, fieldError, looksLikeData, mapHeader, parseEpochMs, splitCells, toDecimal } from './text-fields.js';

export interface KlineImportOptions {
  readonly market: RecordMarket;
  /** Instrument as written into the records, verbatim. Default: from the file name, mapped by symbolStyle. */
  readonly symbol?: string;
  readonly symbolStyle?: SymbolStyle;
  /** Default: from the file name (…_1m_…), else the close_time column, else the first two rows. */
  readonly interval?: KlineInterval;
  /** Default 'kline'. 'fair' for mark-price candles, 'index' for index-price candles. */
  readonly stream?: 'kline' | 'fair' | 'index';
  /** Price candles only. Default 'open'. */
  readonly pricePoint?: 'open' | 'close';
  readonly onBadRow?: BadRowPolicy;
}

const ALIASES = {
  ot: ['open_time', 'opentime', 'kline_open_time', 'timestamp', 'time', 'date', 'datetime', 'start_time', 'start', 'ts', 't'],
  o: ['open', 'open_price', 'o'],
  h: ['high', 'high_price', 'h'],
  l: ['low', 'low_price', 'l'],
  c: ['close', 'close_price', 'c'],
  v: ['volume', 'base_volume', 'volume_base', 'vol', 'v'],
  ct: ['close_time', 'closetime', 'kline_close_time'],
  qv: ['quote_volume', 'quote_asset_volume', 'quote_av', 'volume_quote', 'amount', 'turnover', 'qv'],
  n: ['count', 'trades', 'number_of_trades', 'num_trades', 'trade_count', 'n'],
} as const;
type Col = keyof typeof ALIASES;
const POSITIONAL: Readonly<Record<Col, number>> = { ot: 0, o: 1, h: 2, l: 3, c: 4, v: 5, ct: 6, qv: 7, n: 8 };

/** '1h' and friends → the record model's names; undefined for intervals it does not have. */
export function normalizeInterval(name: string): KlineInterval | undefined {
  if ((KLINE_INTERVALS as readonly string[]).includes(name)) return name as KlineInterval;
  const alias: Record<string, KlineInterval> = { '1h': '60m', '1H': '60m', '4H': '4h', '8H': '8h', '1D': '1d', '1w': '1W', '1mo': '1M' };
  if (alias[name]) return alias[name];
  try {
    return fromContractInterval(name as ContractKlineInterval);
  } catch {
    return undefined;
  }
}

export function intervalFromFileName(path: string): KlineInterval | undefined {
  const name = path.split(/[\\/]/).pop() ?? path;
  const m = /(?:^|[^A-Za-z0-9])(\d{1,2}(?:m|h|H|d|D|w|W|M)|Min\d+|Hour\d+|Day1|Week1|Month1)(?=[^A-Za-z0-9]|$)/.exec(name);
  return m ? normalizeInterval(m[1]!) : undefined;
}

export function intervalFromMs(ms: number): KlineInterval | undefined {
  for (const iv of Object.keys(FIXED_INTERVAL_MS) as Exclude<KlineInterval, '1M'>[]) if (FIXED_INTERVAL_MS[iv] === ms) return iv;
  return undefined;
}

/** Close time (= next open) of the bar of `iv` opening at `ot`. */
export function klineCloseTime(iv: KlineInterval, ot: number): number {
  if (iv !== '1M') return ot + FIXED_INTERVAL_MS[iv];
  const d = new Date(ot);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

interface Row {
  readonly lineNo: number;
  readonly ot: number;
  readonly o: string;
  readonly h: string;
  readonly l: string;
  readonly c: string;
  readonly v?: string;
  readonly qv?: string;
  readonly n?: number;
  readonly ct?: number;
}

/** The rows of one file as they are read: header, interval and the previous row carried from line to line. */
class KlineLines {
  private readonly fs: FileStats;
  private readonly stream: 'kline' | 'fair' | 'index';
  private readonly policy: BadRowPolicy;
  private readonly symbol: string;
  private interval: KlineInterval | undefined;
  private delim: string | undefined;
  private cols: Partial<Record<Col, number>> | undefined;
  private headerLine: string | undefined;
  private readonly buffered: Row[] = [];
  private prevOt: number | undefined;
  private prevRow: Row | undefined;

  constructor(
    private readonly file: string,
    private readonly opts: KlineImportOptions,
    private readonly stats: ImportStats,
  ) {
    this.fs = stats.file(file);
    this.stream = opts.stream ?? 'kline';
    this.policy = opts.onBadRow ?? 'fail';
    const fromName = symbolFromFileName(file);
    const symbol = opts.symbol ?? (fromName === undefined ? undefined : mapSymbol(fromName, opts.market, opts.symbolStyle));
    if (symbol === undefined) throw new ValidationError('symbol', `an instrument symbol (none in the file name ${file})`, undefined);
    this.symbol = symbol;
    this.interval = opts.interval ?? intervalFromFileName(file);
  }

  private cell(cells: readonly string[], c: Col): string | undefined {
    const k = this.cols![c];
    return k === undefined ? undefined : cells[k];
  }

  private req(cells: readonly string[], lineNo: number, c: Col, name: string): string {
    const raw = this.cell(cells, c);
    if (raw === undefined || raw === '') throw fieldError(this.file, lineNo, name, 'a decimal number', raw);
    const d = toDecimal(raw);
    if (d === undefined) throw fieldError(this.file, lineNo, name, 'a decimal number', raw);
    return d;
  }

  private parseRow(cells: readonly string[], lineNo: number): Row {
    const file = this.file;
    const otRaw = this.cell(cells, 'ot');
    const ot = otRaw === undefined ? undefined : parseEpochMs(otRaw);
    if (ot === undefined) throw fieldError(file, lineNo, 'open_time', 'an epoch time (s, ms, µs, ns) or a UTC date', otRaw);
    const row: { -readonly [K in keyof Row]: Row[K] } = {
      lineNo,
      ot,
      o: this.req(cells, lineNo, 'o', 'open'),
      h: this.req(cells, lineNo, 'h', 'high'),
      l: this.req(cells, lineNo, 'l', 'low'),
      c: this.req(cells, lineNo, 'c', 'close'),
    };
    const vRaw = this.cell(cells, 'v');
    if (this.stream === 'kline' || (vRaw !== undefined && vRaw !== '')) row.v = this.req(cells, lineNo, 'v', 'volume');
    const qvRaw = this.cell(cells, 'qv');
    if (qvRaw !== undefined && qvRaw !== '') row.qv = this.req(cells, lineNo, 'qv', 'quote_volume');
    const nRaw = this.cell(cells, 'n');
    if (nRaw !== undefined && nRaw !== '') {
      const n = Number(nRaw);
      if (!Number.isSafeInteger(n) || n < 0) throw fieldError(file, lineNo, 'count', 'a trade count', nRaw);
      row.n = n;
    }
    const ctRaw = this.cell(cells, 'ct');
    if (ctRaw !== undefined && ctRaw !== '') {
      const ct = parseEpochMs(ctRaw);
      if (ct === undefined) throw fieldError(file, lineNo, 'close_time', 'an epoch time', ctRaw);
      row.ct = ct;
    }
    const o = Number(row.o);
    const h = Number(row.h);
    const l = Number(row.l);
    const c = Number(row.c);
    if (h < l || h < Math.max(o, c) || l > Math.min(o, c)) {
      this.stats.count('inconsistentBars');
      this.stats.warn(`${file} line ${lineNo}: high/low do not bracket open/close (o ${row.o} h ${row.h} l ${row.l} c ${row.c})`);
    }
    return row;
  }

  private emit(row: Row, iv: KlineInterval, out: DataRecord[]): void {
    const { stats, file } = this;
    const prevOt = this.prevOt;
    if (prevOt !== undefined) {
      if (row.ot === prevOt) {
        stats.count('duplicates');
        const p = this.prevRow!;
        if (p.o !== row.o || p.h !== row.h || p.l !== row.l || p.c !== row.c || p.v !== row.v)
          stats.warn(`${file} line ${row.lineNo}: duplicate open time ${row.ot} with different values (line ${p.lineNo} kept)`);
        return;
      }
      if (row.ot < prevOt) {
        stats.count('outOfOrder');
        stats.warn(`${file} line ${row.lineNo}: open time ${row.ot} before the previous row's ${prevOt}`);
      } else {
        const expected = klineCloseTime(iv, prevOt);
        if (row.ot > expected) {
          stats.count('gaps');
          if (iv !== '1M') stats.count('missingBars', Math.round((row.ot - expected) / FIXED_INTERVAL_MS[iv]));
        }
      }
    }
    this.prevOt = row.ot;
    this.prevRow = row;
    const close = klineCloseTime(iv, row.ot);
    const opts = this.opts;
    let rec: DataRecord;
    if (this.stream === 'kline') {
      const k: Record<string, unknown> = {
        s: 'kline',
        m: opts.market,
        i: this.symbol,
        et: close,
        lt: close,
        iv,
        ot: row.ot,
        o: row.o,
        h: row.h,
        l: row.l,
        c: row.c,
        v: row.v,
      };
      if (row.qv !== undefined) k.qv = row.qv;
      if (row.n !== undefined) k.n = row.n;
      k.x = true;
      rec = k as unknown as DataRecord;
    } else {
      const atClose = opts.pricePoint === 'close';
      const t = atClose ? close : row.ot;
      rec = { s: this.stream, m: opts.market, i: this.symbol, et: t, lt: t, p: atClose ? row.c : row.o };
    }
    this.fs.records++;
    stats.record(rec);
    out.push(rec);
  }

  /** One line of the file: its records (none, one, or the rows held back to infer the interval) go to `out`. */
  line(text: string, lineNo: number, out: DataRecord[]): void {
    const { file, stream } = this;
    this.fs.lines = lineNo;
    const line = text.trim();
    if (!line || line.startsWith('#')) return;
    // Header problems are fatal whatever the bad-row policy: every row after would be misread.
    if (this.delim === undefined) {
      const delim = (this.delim = detectDelimiter(line));
      const cells = splitCells(line, delim);
      if (!looksLikeData(cells[0]!)) {
        const cols = (this.cols = mapHeader(cells, ALIASES));
        this.headerLine = line;
        for (const need of ['ot', 'o', 'h', 'l', 'c'] as const)
          if (cols[need] === undefined)
            throw fieldError(file, lineNo, 'header', `a column named ${ALIASES[need].slice(0, 3).join(' | ')}`, line);
        if (stream === 'kline' && cols.v === undefined)
          throw fieldError(file, lineNo, 'header', `a column named ${ALIASES.v.slice(0, 3).join(' | ')}`, line);
        return;
      }
      const min = stream === 'kline' ? 6 : 5;
      if (cells.length < min)
        throw fieldError(
          file,
          lineNo,
          'row',
          `at least ${min} cells (time, open, high, low, close${stream === 'kline' ? ', volume' : ''})`,
          line,
        );
      const cols: Partial<Record<Col, number>> = (this.cols = {});
      for (const c of Object.keys(POSITIONAL) as Col[]) if (POSITIONAL[c] < cells.length) cols[c] = POSITIONAL[c];
    }
    if (line === this.headerLine) {
      this.stats.count('repeatedHeaders');
      return;
    }
    try {
      const row = this.parseRow(splitCells(line, this.delim), lineNo);
      let interval = this.interval;
      if (interval === undefined) {
        if (row.ct !== undefined) interval = this.interval = intervalFromMs(row.ct - row.ot + 1) ?? intervalFromMs(row.ct - row.ot);
        if (interval === undefined) {
          const buffered = this.buffered;
          buffered.push(row);
          if (buffered.length < 2) return;
          const delta = buffered[1]!.ot - buffered[0]!.ot;
          interval = this.interval = intervalFromMs(delta);
          if (interval === undefined)
            throw fieldError(
              file,
              lineNo,
              'open_time',
              `rows one supported interval apart (${KLINE_INTERVALS.join(', ')}); pass interval`,
              `${delta} ms after line ${buffered[0]!.lineNo}`,
            );
          for (const b of buffered.splice(0)) this.emit(b, interval, out);
          return;
        }
      }
      this.emit(row, interval, out);
    } catch (e) {
      handleBadRow(this.policy, this.stats, this.fs, e);
    }
  }

  /** The end of the file: rows still held back to infer the interval. */
  finish(out: DataRecord[]): void {
    const buffered = this.buffered;
    if (buffered.length === 0) return;
    const interval = this.interval;
    if (interval === undefined)
      throw new ValidationError('interval', `a kline interval (cannot infer it from one row of ${this.file})`, undefined);
    for (const b of buffered.splice(0)) this.emit(b, interval, out);
  }
}

/**
 * A file's records in batches, one per chunk of lines read (readLineBatches): no promise per record.
 * A bad row under the 'fail' policy ends the import after the records of the lines before it.
 */
export async function* importKlineBatches(
  file: string,
  opts: KlineImportOptions,
  stats: ImportStats,
  onBytes?: (n: number) => void,
): AsyncGenerator<DataRecord[]> {
  const rows = new KlineLines(file, opts, stats);
  for await (const batch of readLineBatches(file, onBytes)) {
    const out: DataRecord[] = [];
    let lineNo = batch.firstLineNo;
    try {
      for (const text of batch.lines) rows.line(text, lineNo++, out);
    } catch (e) {
      if (out.length > 0) yield out;
      throw e;
    }
    if (out.length > 0) yield out;
  }
  const out: DataRecord[] = [];
  rows.finish(out);
  if (out.length > 0) yield out;
}

/** A file's records one by one (importKlineBatches). */
export async function* importKlineFile(
  file: string,
  opts: KlineImportOptions,
  stats: ImportStats,
  onBytes?: (n: number) => void,
): AsyncGenerator<DataRecord> {
  for await (const batch of importKlineBatches(file, opts, stats, onBytes)) for (const r of batch) yield r;
}
