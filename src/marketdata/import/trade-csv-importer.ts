/**
 * Trade files → `trade` records.
 *
 * With a header, columns are found by name: time (time | timestamp | transact_time | trade_time | T |
 * date), price (price | p | px), quantity (qty | quantity | amount | size | q | volume), and the
 * taker side from either a side column (buy/sell, b/s, bid/ask, 1 = buy / 2 = sell as MEXC contract
 * deals write it) or is_buyer_maker (true → the taker sold), plus optional id (id | trade_id |
 * agg_trade_id | a | tid), local_timestamp (Tardis) and symbol.
 * Without a header, Binance's data.binance.vision layouts are told apart by where the time and the
 * booleans sit:
 *   trades     id, price, qty, quote_qty, time, is_buyer_maker[, is_best_match]
 *   aggTrades  agg_id, price, qty, first_id, last_id, time, is_buyer_maker[, is_best_match]
 * Times in s / ms / µs / ns or dates. et = the trade time; lt = local_timestamp when present, else et.
 */
import { ValidationError } from '../../core/errors.js';
import type { DataRecord, RecordMarket, TradeRecord } from '../record/record.js';
import { handleBadRow, type BadRowPolicy, type ImportStats } from './import-stats.js';
import { readLines } from './line-reader.js';
import { mapSymbol, symbolFromFileName, type SymbolStyle } from './symbol-map.js';
import { detectDelimiter, fieldError, looksLikeData, mapHeader, parseEpochMs, splitCells, toDecimal } from './text-fields.js';

export interface TradeImportOptions {
  readonly market: RecordMarket;
  /** Verbatim instrument for every row. Default: a symbol column, else the file name (mapped by symbolStyle). */
  readonly symbol?: string;
  readonly symbolStyle?: SymbolStyle;
  readonly onBadRow?: BadRowPolicy;
}

const ALIASES = {
  id: ['id', 'trade_id', 'tradeid', 'agg_trade_id', 'aggtradeid', 'a', 'tid'],
  t: ['time', 'timestamp', 'transact_time', 'trade_time', 'tradetime', 'T', 'date', 'datetime', 'ts'],
  lt: ['local_timestamp', 'localtimestamp', 'local_time', 'receive_time'],
  p: ['price', 'p', 'px'],
  q: ['qty', 'quantity', 'amount', 'size', 'q', 'base_qty', 'volume', 'vol', 'v'],
  side: ['side', 'taker_side', 'takerside', 'direction', 'S'],
  ibm: ['is_buyer_maker', 'isbuyermaker', 'buyer_maker', 'm', 'is_buyer_market_maker'],
  sym: ['symbol', 'instrument', 'pair', 'market'],
} as const;
type Col = keyof typeof ALIASES;

const BOOL = /^(true|false|True|False|TRUE|FALSE|t|f|0|1)$/;
const isTrue = (s: string): boolean => /^(true|t|1)$/i.test(s);
const TIME_CELL = /^\d{10,19}(\.\d+)?$/;

/** Positions of the headerless Binance layouts, chosen from the first row. */
function positionalColumns(cells: readonly string[]): Partial<Record<Col, number>> | undefined {
  const isTime = (k: number): boolean => cells[k] !== undefined && TIME_CELL.test(cells[k]!);
  const isBool = (k: number): boolean => cells[k] !== undefined && BOOL.test(cells[k]!);
  if (cells.length >= 6 && isTime(4) && isBool(5) && !isTime(5)) return { id: 0, p: 1, q: 2, t: 4, ibm: 5 };
  if (cells.length >= 7 && isTime(5) && isBool(6)) return { id: 0, p: 1, q: 2, t: 5, ibm: 6 };
  return undefined;
}

function takerSide(raw: string): 'buy' | 'sell' | undefined {
  switch (raw.toLowerCase()) {
    case 'buy':
    case 'b':
    case 'bid':
    case '1':
      return 'buy';
    case 'sell':
    case 's':
    case 'ask':
    case '2':
      return 'sell';
    default:
      return undefined;
  }
}

export async function* importTradeFile(
  file: string,
  opts: TradeImportOptions,
  stats: ImportStats,
  onBytes?: (n: number) => void,
): AsyncGenerator<DataRecord> {
  const fs = stats.file(file);
  const policy = opts.onBadRow ?? 'fail';
  const fromName = symbolFromFileName(file);
  const fileSymbol = opts.symbol ?? (fromName === undefined ? undefined : mapSymbol(fromName, opts.market, opts.symbolStyle));
  let delim: string | undefined;
  let cols: Partial<Record<Col, number>> | undefined;
  let headerLine: string | undefined;

  for await (const { text, lineNo } of readLines(file, onBytes)) {
    fs.lines = lineNo;
    const line = text.trim();
    if (!line || line.startsWith('#')) continue;
    if (delim === undefined) {
      delim = detectDelimiter(line);
      const cells = splitCells(line, delim);
      if (!looksLikeData(cells[0]!)) {
        // Case matters for one-letter Binance names (T time vs t id): try exact names first.
        cols = exactHeader(cells);
        headerLine = line;
        for (const need of ['t', 'p', 'q'] as const)
          if (cols[need] === undefined)
            throw fieldError(file, lineNo, 'header', `a column named ${ALIASES[need].slice(0, 4).join(' | ')}`, line);
        if (cols.side === undefined && cols.ibm === undefined)
          throw fieldError(file, lineNo, 'header', 'a side or is_buyer_maker column', line);
        if (cols.sym === undefined && fileSymbol === undefined)
          throw new ValidationError('symbol', `an instrument symbol (no symbol column, none in the file name ${file})`, undefined);
        continue;
      }
      cols = positionalColumns(cells);
      if (!cols) throw fieldError(file, lineNo, 'row', 'a header row, or the Binance trades / aggTrades column order', line);
      if (fileSymbol === undefined) throw new ValidationError('symbol', `an instrument symbol (none in the file name ${file})`, undefined);
    }
    if (line === headerLine) {
      stats.count('repeatedHeaders');
      continue;
    }
    try {
      const c = cols!;
      const cells = splitCells(line, delim);
      const get = (k: Col): string | undefined => (c[k] === undefined ? undefined : cells[c[k]!]);
      const tRaw = get('t');
      const et = tRaw === undefined ? undefined : parseEpochMs(tRaw);
      if (et === undefined) throw fieldError(file, lineNo, 'time', 'an epoch time or a UTC date', tRaw);
      const pRaw = get('p');
      const p = pRaw === undefined ? undefined : toDecimal(pRaw);
      if (p === undefined) throw fieldError(file, lineNo, 'price', 'a decimal number', pRaw);
      const qRaw = get('q');
      const q = qRaw === undefined ? undefined : toDecimal(qRaw);
      if (q === undefined) throw fieldError(file, lineNo, 'qty', 'a decimal number', qRaw);
      let ts: 'buy' | 'sell' | undefined;
      const sideRaw = get('side');
      if (sideRaw !== undefined) {
        ts = takerSide(sideRaw);
        if (ts === undefined) throw fieldError(file, lineNo, 'side', 'buy | sell (b/s, bid/ask, 1/2)', sideRaw);
      } else {
        const m = get('ibm');
        if (m === undefined || !BOOL.test(m)) throw fieldError(file, lineNo, 'is_buyer_maker', 'true | false', m);
        ts = isTrue(m) ? 'sell' : 'buy';
      }
      let lt = et;
      const ltRaw = get('lt');
      if (ltRaw !== undefined && ltRaw !== '') {
        const l = parseEpochMs(ltRaw);
        if (l === undefined) throw fieldError(file, lineNo, 'local_timestamp', 'an epoch time', ltRaw);
        lt = l;
      }
      const symRaw = get('sym');
      const i = opts.symbol ?? (symRaw ? mapSymbol(symRaw, opts.market, opts.symbolStyle) : fileSymbol);
      if (!i) throw fieldError(file, lineNo, 'symbol', 'an instrument symbol', symRaw);
      const id = get('id');
      const rec: TradeRecord =
        id !== undefined && id !== ''
          ? { s: 'trade', m: opts.market, i, et, lt, id, p, q, ts }
          : { s: 'trade', m: opts.market, i, et, lt, p, q, ts };
      fs.records++;
      stats.record(rec);
      yield rec;
    } catch (e) {
      handleBadRow(policy, stats, fs, e);
    }
  }
}

/** Header mapping where exact (case-sensitive) names win over the loose match (T time vs t id). */
function exactHeader(cells: readonly string[]): Partial<Record<Col, number>> {
  const loose = mapHeader(cells, ALIASES);
  const out: Partial<Record<Col, number>> = { ...loose };
  for (const col of Object.keys(ALIASES) as Col[]) {
    for (const name of ALIASES[col]) {
      const k = cells.indexOf(name);
      if (k >= 0) {
        out[col] = k;
        break;
      }
    }
  }
  return out;
}
