/**
 * The record model of market-data recordings: what the recorder appends, what replay reads, and what
 * the live mirror produces from each poll. One record = one message of one stream of one instrument.
 *
 * Principles
 *  - Append-only: a recording is the sequence of records in the order they were received; nothing
 *    is rewritten. The sequence itself is the tie-breaker between records with equal times.
 *  - Two clocks, kept apart: `et` is the exchange's own timestamp of the event (trade time, depth
 *    event time), `lt` the local receive time. They differ by latency and clock skew (the Binance
 *    sample recordings run 1.2–1.3 s apart); replay chooses which to order and pace by.
 *  - Values as the venue sent them: prices and quantities are decimal STRINGS, so a recording keeps
 *    full precision whatever the instrument's tick; replay converts to ticks/lots with the
 *    instrument's scale. Ids and times are JSON numbers (all below 2^53 on the venues we record).
 *  - Depth diffs carry ABSOLUTE quantities per level (0 removes the level) and the update-id range
 *    [U, u] (plus `pu`, the previous final id, where the venue sends it) so a reader can check the
 *    sequence exactly as the venue documents it.
 *  - Short keys: a 1 kHz depth stream over a day is ~10^8 records; keys are written every time.
 *
 * JSON-lines form (json-lines-codec.ts): one record per line, keys in a fixed order
 * (s, m, i, et, lt, then the stream's fields), so the same records always give the same bytes. An
 * optional first line `{"s":"meta",…}` names the format version and the source.
 *
 * Compressed binary chunked form (to be added by the backtest issue; designed here so the record
 * model does not have to change):
 *  - File = magic "PMDR" + u16 version, then a sequence of CHUNKS, then a FOOTER INDEX, then a fixed
 *    16-byte trailer (u64 index offset, u32 index length, magic "PMDX"). Appending means: read the
 *    trailer, truncate the old index, write new chunks, write a new index and trailer. A file whose
 *    trailer is missing (crash while writing) is recovered by scanning chunk headers from the start.
 *  - A chunk holds up to N (e.g. 4096) records of ONE (market, instrument, stream), in receive order.
 *    Chunk header: u32 byte length, u32 crc32 of the payload, u8 codec (0 raw, 1 gzip, 2 brotli,
 *    3 zstd when the runtime has it), u32 record count, varint-encoded (market, instrument, stream)
 *    via a string table, i64 min/max et, i64 min/max lt.
 *  - Payload is COLUMNAR: each field of the stream becomes one column; times and ids are
 *    delta + zigzag varints; prices and quantities become integers of a per-chunk scale (the max
 *    number of decimals seen in the chunk, stored in the header) and are then delta-varint coded;
 *    depth levels are flattened to (record index, side, price, qty[, orders]) columns. Strings that
 *    are not decimals (ids) go to a chunk-local string table. The column block is compressed with the
 *    chunk's codec. Decoding restores the exact decimal strings (scale is per chunk, trailing zeros
 *    re-padded to the recorded width, which the header also keeps per column).
 *  - Footer index: one entry per chunk: (offset, length, market, instrument, stream, record count,
 *    min/max et, min/max lt). A reader opens the index, selects the chunks of the wanted instruments
 *    and streams overlapping a time range, and merges them by time with a k-way heap (ties by chunk
 *    order, then position in the chunk: the receive sequence).
 *  - Converting JSON-lines → binary is lossless for every record type below (meta goes into the
 *    file header as a JSON blob).
 */
import type { KlineInterval } from '../../domain/kline-interval.js';

export const RECORD_FORMAT = 'perpetua.market-record';
export const RECORD_VERSION = 1;

export type RecordMarket = 'spot' | 'contract';

export const RECORD_STREAMS = [
  'depth.snapshot',
  'depth.diff',
  'trade',
  'bookTicker',
  'kline',
  'funding',
  'index',
  'fair',
  'ticker',
] as const;
export type RecordStream = (typeof RECORD_STREAMS)[number];

/** [price, quantity] or [price, quantity, number of orders] (contract depth carries the count). */
export type RecordLevel = readonly [price: string, qty: string] | readonly [price: string, qty: string, orders: number];

interface RecordHead<S extends RecordStream> {
  readonly s: S;
  readonly m: RecordMarket;
  /** Instrument symbol as the venue spells it (BTCUSDT, BTC_USDT). */
  readonly i: string;
  /** Exchange event time, ms. */
  readonly et: number;
  /** Local receive time, ms. */
  readonly lt: number;
}

/** A full book: spot lastUpdateId / contract version in `u`. */
export interface DepthSnapshotRecord extends RecordHead<'depth.snapshot'> {
  readonly u: number;
  readonly b: readonly RecordLevel[];
  readonly a: readonly RecordLevel[];
}

/** Changed levels with absolute quantities ("0" removes); ids [U, u], `pu` = previous u when sent. */
export interface DepthDiffRecord extends RecordHead<'depth.diff'> {
  readonly U: number;
  readonly u: number;
  readonly pu?: number;
  readonly b: readonly RecordLevel[];
  readonly a: readonly RecordLevel[];
}

export interface TradeRecord extends RecordHead<'trade'> {
  /** Venue trade id, when it has one (MEXC spot sends null). */
  readonly id?: string;
  readonly p: string;
  readonly q: string;
  /** Taker side. */
  readonly ts: 'buy' | 'sell';
}

export interface BookTickerRecord extends RecordHead<'bookTicker'> {
  readonly u?: number;
  readonly bp: string;
  readonly bq: string;
  readonly ap: string;
  readonly aq: string;
}

export interface KlineRecord extends RecordHead<'kline'> {
  readonly iv: KlineInterval;
  /** Open time, ms. */
  readonly ot: number;
  readonly o: string;
  readonly h: string;
  readonly l: string;
  readonly c: string;
  /** Base volume (spot) or contracts. */
  readonly v: string;
  readonly qv?: string;
  readonly n?: number;
  /** The bar is final. */
  readonly x?: boolean;
}

export interface FundingRecord extends RecordHead<'funding'> {
  readonly r: string;
  /** Next settlement time, ms. */
  readonly nt?: number;
  readonly min?: string;
  readonly max?: string;
  /** Collect cycle, hours. */
  readonly cy?: number;
}

/** Index price (`s: index`) or fair / mark price (`s: fair`). */
export interface PriceRecord extends RecordHead<'index' | 'fair'> {
  readonly p: string;
}

/** A 24h ticker snapshot, as polled. */
export interface TickerRecord extends RecordHead<'ticker'> {
  readonly last: string;
  readonly open?: string;
  readonly high?: string;
  readonly low?: string;
  readonly v?: string;
  readonly qv?: string;
  readonly n?: number;
}

export type DataRecord =
  DepthSnapshotRecord | DepthDiffRecord | TradeRecord | BookTickerRecord | KlineRecord | FundingRecord | PriceRecord | TickerRecord;

/** Optional first line of a recording. */
export interface MetaRecord {
  readonly s: 'meta';
  readonly format: typeof RECORD_FORMAT;
  readonly v: number;
  /** Where the data came from, e.g. "binance spot websocket via hftbacktest sample". */
  readonly source?: string;
  readonly note?: string;
}

export type MarketRecord = DataRecord | MetaRecord;

export const isDataRecord = (r: MarketRecord): r is DataRecord => r.s !== 'meta';

/** Instrument key used to route records: `spot:BTCUSDT`, `contract:BTC_USDT`. */
export const instrumentKey = (m: RecordMarket, symbol: string): string => `${m}:${symbol}`;

/**
 * instrumentKey that keeps its last answer: records come in long runs of one instrument (a store's
 * chunks, a file), so a pass over a run's records builds each key string once instead of per record.
 */
export function instrumentKeyMemo(): (m: RecordMarket, symbol: string) => string {
  let lastM: RecordMarket | undefined;
  let lastSymbol: string | undefined;
  let key = '';
  return (m, symbol) => {
    if (m !== lastM || symbol !== lastSymbol) {
      lastM = m;
      lastSymbol = symbol;
      key = instrumentKey(m, symbol);
    }
    return key;
  };
}

export const metaRecord = (source?: string, note?: string): MetaRecord => ({
  s: 'meta',
  format: RECORD_FORMAT,
  v: RECORD_VERSION,
  ...(source === undefined ? {} : { source }),
  ...(note === undefined ? {} : { note }),
});
