/**
 * Funding-rate history → `funding` records that settle at the right time when replayed.
 *
 * Accepted layouts: a header naming the settlement time (funding_time | fundingTime | calc_time |
 * settle_time | time | timestamp) and the rate (funding_rate | fundingRate | last_funding_rate |
 * rate), optionally the cycle (funding_interval_hours | collect_cycle); or no header and
 * `time, rate[, …]`. Binance's data.binance.vision files, freqtrade / ccxt exports and the
 * `funding_time,funding_rate` CSVs in ../shared/data all fit.
 *
 * A history row says "rate r settled at time T". The record model (like the venue's funding_rate
 * endpoint) says "rate r is the one that settles at nt", and the replay settles the previous rate
 * when a record announces a later nt. So row k (Tk, rk) becomes a record stamped at the previous
 * settlement T(k-1) (the first row: Tk − cycle) with r = rk, nt = Tk; a final record at the last
 * settlement time carries the last rate forward (nt = T + cycle) so that the last settlement is
 * applied too. The cycle is the column when present, else the gap to the previous row in hours
 * (the next row's for the first), else `cycleHours`, else 8. Times keep the venue's jitter (…200006).
 */
import { ValidationError } from '../../core/errors.js';
import type { DataRecord, FundingRecord, RecordMarket } from '../record/record.js';
import { handleBadRow, type BadRowPolicy, type ImportStats } from './import-stats.js';
import { readLines } from './line-reader.js';
import { mapSymbol, symbolFromFileName, type SymbolStyle } from './symbol-map.js';
import { detectDelimiter, fieldError, looksLikeData, mapHeader, parseEpochMs, splitCells, toDecimal } from './text-fields.js';

export interface FundingImportOptions {
  readonly market: RecordMarket;
  readonly symbol?: string;
  readonly symbolStyle?: SymbolStyle;
  /** Used when neither a column nor the row spacing gives the cycle. Default 8. */
  readonly cycleHours?: number;
  readonly onBadRow?: BadRowPolicy;
}

const ALIASES = {
  t: ['funding_time', 'fundingtime', 'calc_time', 'calctime', 'settle_time', 'settletime', 'time', 'timestamp', 'date'],
  r: ['funding_rate', 'fundingrate', 'last_funding_rate', 'lastfundingrate', 'rate', 'r'],
  cy: ['funding_interval_hours', 'fundinginterval', 'collect_cycle', 'collectcycle', 'interval_hours'],
} as const;

const HOUR = 3_600_000;

interface Row {
  readonly lineNo: number;
  readonly t: number;
  readonly r: string;
  readonly cy?: number;
}

export async function* importFundingFile(
  file: string,
  opts: FundingImportOptions,
  stats: ImportStats,
  onBytes?: (n: number) => void,
): AsyncGenerator<DataRecord> {
  const fs = stats.file(file);
  const policy = opts.onBadRow ?? 'fail';
  const fromName = symbolFromFileName(file);
  const symbol = opts.symbol ?? (fromName === undefined ? undefined : mapSymbol(fromName, opts.market, opts.symbolStyle));
  if (symbol === undefined) throw new ValidationError('symbol', `an instrument symbol (none in the file name ${file})`, undefined);
  let delim: string | undefined;
  let cols: Partial<Record<keyof typeof ALIASES, number>> = { t: 0, r: 1 };
  let headerLine: string | undefined;
  let prev: Row | undefined;
  let pending: Row | undefined;
  let prevCycle: number | undefined;

  const make = (et: number, r: string, nt: number, cy: number): FundingRecord => {
    const rec: FundingRecord = { s: 'funding', m: opts.market, i: symbol, et, lt: et, r, nt, cy };
    fs.records++;
    stats.record(rec);
    return rec;
  };
  const cycleOf = (row: Row, neighbour: Row | undefined): number => {
    if (row.cy !== undefined) return row.cy;
    if (neighbour) {
      const h = Math.round(Math.abs(row.t - neighbour.t) / HOUR);
      if (h > 0) return h;
    }
    return opts.cycleHours ?? prevCycle ?? 8;
  };

  for await (const { text, lineNo } of readLines(file, onBytes)) {
    fs.lines = lineNo;
    const line = text.trim();
    if (!line || line.startsWith('#')) continue;
    if (delim === undefined) {
      delim = detectDelimiter(line);
      const cells = splitCells(line, delim);
      if (!looksLikeData(cells[0]!)) {
        cols = mapHeader(cells, ALIASES);
        headerLine = line;
        if (cols.t === undefined) throw fieldError(file, lineNo, 'header', `a column named ${ALIASES.t.slice(0, 4).join(' | ')}`, line);
        if (cols.r === undefined) throw fieldError(file, lineNo, 'header', `a column named ${ALIASES.r.slice(0, 4).join(' | ')}`, line);
        continue;
      }
    }
    if (line === headerLine) {
      stats.count('repeatedHeaders');
      continue;
    }
    try {
      const cells = splitCells(line, delim);
      const tRaw = cells[cols.t!];
      const t = tRaw === undefined ? undefined : parseEpochMs(tRaw);
      if (t === undefined) throw fieldError(file, lineNo, 'funding_time', 'an epoch time or a UTC date', tRaw);
      const rRaw = cells[cols.r!];
      const r = rRaw === undefined ? undefined : toDecimal(rRaw);
      if (r === undefined) throw fieldError(file, lineNo, 'funding_rate', 'a decimal rate', rRaw);
      let cy: number | undefined;
      if (cols.cy !== undefined && cells[cols.cy] !== undefined && cells[cols.cy] !== '') {
        cy = Number(cells[cols.cy]);
        if (!(cy > 0)) throw fieldError(file, lineNo, 'funding_interval_hours', 'a positive number of hours', cells[cols.cy]);
      }
      const row: Row = cy === undefined ? { lineNo, t, r } : { lineNo, t, r, cy };
      if (prev && row.t <= prev.t) {
        stats.count(row.t === prev.t ? 'duplicates' : 'outOfOrder');
        stats.warn(`${file} line ${lineNo}: funding time ${row.t} not after line ${prev.lineNo}'s ${prev.t}; row skipped`);
        continue;
      }
      if (pending) {
        // The first row waited for the second to learn the cycle.
        const c = cycleOf(pending, row);
        prevCycle = c;
        yield make(pending.t - c * HOUR, pending.r, pending.t, c);
        pending = undefined;
      }
      if (!prev) {
        if (row.cy === undefined && opts.cycleHours === undefined) pending = row;
        else {
          const c = cycleOf(row, undefined);
          prevCycle = c;
          yield make(row.t - c * HOUR, row.r, row.t, c);
        }
      } else {
        const c = cycleOf(row, prev);
        prevCycle = c;
        yield make(prev.t, row.r, row.t, c);
      }
      prev = row;
    } catch (e) {
      handleBadRow(policy, stats, fs, e);
    }
  }
  if (pending) {
    const c = cycleOf(pending, undefined);
    prevCycle = c;
    yield make(pending.t - c * HOUR, pending.r, pending.t, c);
  }
  if (prev) {
    const c = prevCycle ?? 8;
    stats.count('carriedForward');
    yield make(prev.t, prev.r, prev.t + c * HOUR, c);
  }
}
