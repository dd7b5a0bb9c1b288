/**
 * Columnar payload of one chunk: records of ONE (market, instrument, stream), in receive order.
 *
 * Common columns: n · seq (uv deltas, the first from the header's firstSeq) · et · lt (delta signed
 * varints). Then, per stream, one column per field in the record model's field order; depth levels
 * are flattened (per record: bid count, ask count; per level: price, quantity, optional order count).
 * Decoding builds records with the JSON-lines codec's key order, so a decoded record re-encodes to
 * the same JSON line as the original.
 */
import { ValidationError } from '../../core/errors.js';
import { KLINE_INTERVALS, type KlineInterval } from '../../domain/kline-interval.js';
import type {
  BookTickerRecord,
  DataRecord,
  DepthDiffRecord,
  DepthSnapshotRecord,
  FundingRecord,
  KlineRecord,
  PriceRecord,
  RecordLevel,
  RecordMarket,
  RecordStream,
  TickerRecord,
  TradeRecord,
} from '../record/record.js';
import { ByteReader, ByteWriter } from './byte-buffer.js';
import {
  checkInt,
  readCountColumn,
  readDecimalNumbers,
  readDecimals,
  readIdColumn,
  readIntColumn,
  readOptBoolColumn,
  readOptDecimalColumn,
  readOptIntColumn,
  readOptNumberColumn,
  skipIdColumn,
  skipOptDecimalColumn,
  writeCountColumn,
  writeDecimals,
  writeIdColumn,
  writeIntColumn,
  writeOptBoolColumn,
  writeOptDecimalColumn,
  writeOptIntColumn,
  writeOptNumberColumn,
} from './columns.js';

/** Mutable view used while building decoded records (records are readonly to their users). */
type Out = Record<string, unknown>;

export interface DecodedChunk {
  readonly records: DataRecord[];
  readonly seqs: number[];
}

const IV_CODE = new Map<string, number>(KLINE_INTERVALS.map((iv, k) => [iv, k]));

export function encodeChunkPayload(
  stream: RecordStream,
  records: readonly DataRecord[],
  seqs: readonly number[],
  firstSeq: number,
): Uint8Array {
  const n = records.length;
  const w = new ByteWriter(64 + n * 24);
  w.uv(n);
  let prevSeq = firstSeq;
  for (let k = 0; k < n; k++) {
    const d = seqs[k]! - prevSeq;
    if (!(d >= 0)) throw new RangeError(`chunk seqs must increase (${seqs[k]} after ${prevSeq})`);
    w.uv(d);
    prevSeq = seqs[k]!;
  }
  writeIntColumn(
    w,
    records.map((r) => r.et),
    'record.et',
  );
  writeIntColumn(
    w,
    records.map((r) => r.lt),
    'record.lt',
  );
  switch (stream) {
    case 'depth.snapshot': {
      const rs = records as readonly DepthSnapshotRecord[];
      writeIntColumn(
        w,
        rs.map((r) => r.u),
        'record.u',
      );
      writeLevels(w, rs);
      break;
    }
    case 'depth.diff': {
      const rs = records as readonly DepthDiffRecord[];
      writeIntColumn(
        w,
        rs.map((r) => r.U),
        'record.U',
      );
      writeIntColumn(
        w,
        rs.map((r) => r.u),
        'record.u',
      );
      writeOptIntColumn(
        w,
        rs.map((r) => r.pu),
        'record.pu',
      );
      writeLevels(w, rs);
      break;
    }
    case 'trade': {
      const rs = records as readonly TradeRecord[];
      writeIdColumn(
        w,
        rs.map((r) => r.id),
        'record.id',
      );
      writeDecimals(
        w,
        rs.map((r) => r.p),
        'record.p',
      );
      writeDecimals(
        w,
        rs.map((r) => r.q),
        'record.q',
      );
      w.bits(
        rs.map((r) => {
          if (r.ts !== 'buy' && r.ts !== 'sell') throw new ValidationError('record.ts', "'buy' or 'sell'", r.ts);
          return r.ts === 'buy';
        }),
      );
      break;
    }
    case 'bookTicker': {
      const rs = records as readonly BookTickerRecord[];
      writeOptIntColumn(
        w,
        rs.map((r) => r.u),
        'record.u',
      );
      writeDecimals(
        w,
        rs.map((r) => r.bp),
        'record.bp',
      );
      writeDecimals(
        w,
        rs.map((r) => r.bq),
        'record.bq',
      );
      writeDecimals(
        w,
        rs.map((r) => r.ap),
        'record.ap',
      );
      writeDecimals(
        w,
        rs.map((r) => r.aq),
        'record.aq',
      );
      break;
    }
    case 'kline': {
      const rs = records as readonly KlineRecord[];
      for (const r of rs) {
        const code = IV_CODE.get(r.iv);
        if (code === undefined) throw new ValidationError('record.iv', `one of ${KLINE_INTERVALS.join(', ')}`, r.iv);
        w.u8(code);
      }
      writeIntColumn(
        w,
        rs.map((r) => r.ot),
        'record.ot',
      );
      for (const f of ['o', 'h', 'l', 'c', 'v'] as const)
        writeDecimals(
          w,
          rs.map((r) => r[f]),
          `record.${f}`,
        );
      writeOptDecimalColumn(
        w,
        rs.map((r) => r.qv),
        'record.qv',
      );
      writeOptIntColumn(
        w,
        rs.map((r) => r.n),
        'record.n',
      );
      writeOptBoolColumn(
        w,
        rs.map((r) => r.x),
        'record.x',
      );
      break;
    }
    case 'funding': {
      const rs = records as readonly FundingRecord[];
      writeDecimals(
        w,
        rs.map((r) => r.r),
        'record.r',
      );
      writeOptIntColumn(
        w,
        rs.map((r) => r.nt),
        'record.nt',
      );
      writeOptDecimalColumn(
        w,
        rs.map((r) => r.min),
        'record.min',
      );
      writeOptDecimalColumn(
        w,
        rs.map((r) => r.max),
        'record.max',
      );
      writeOptNumberColumn(
        w,
        rs.map((r) => r.cy),
        'record.cy',
      );
      break;
    }
    case 'index':
    case 'fair': {
      const rs = records as readonly PriceRecord[];
      writeDecimals(
        w,
        rs.map((r) => r.p),
        'record.p',
      );
      break;
    }
    case 'ticker': {
      const rs = records as readonly TickerRecord[];
      writeDecimals(
        w,
        rs.map((r) => r.last),
        'record.last',
      );
      for (const f of ['open', 'high', 'low', 'v', 'qv'] as const)
        writeOptDecimalColumn(
          w,
          rs.map((r) => r[f]),
          `record.${f}`,
        );
      writeOptIntColumn(
        w,
        rs.map((r) => r.n),
        'record.n',
      );
      break;
    }
    default:
      throw new ValidationError('record.s', 'a record stream', stream);
  }
  return w.finish();
}

function writeLevels(w: ByteWriter, rs: readonly (DepthSnapshotRecord | DepthDiffRecord)[]): void {
  const nb: number[] = [];
  const na: number[] = [];
  const prices: string[] = [];
  const qtys: string[] = [];
  const orders: (number | undefined)[] = [];
  const add = (side: readonly RecordLevel[], field: string): void => {
    if (!Array.isArray(side)) throw new ValidationError(field, 'an array of levels', side);
    for (const l of side) {
      if (!Array.isArray(l) || (l.length !== 2 && l.length !== 3))
        throw new ValidationError(field, '[price, qty] or [price, qty, orders]', l);
      prices.push(l[0]);
      qtys.push(l[1]);
      orders.push(l.length === 3 ? checkInt(l[2], `${field}.orders`) : undefined);
    }
  };
  for (const r of rs) {
    nb.push(r.b.length);
    na.push(r.a.length);
    add(r.b, 'record.b');
    add(r.a, 'record.a');
  }
  writeCountColumn(w, nb);
  writeCountColumn(w, na);
  writeDecimals(w, prices, 'record.level.price');
  writeDecimals(w, qtys, 'record.level.qty');
  writeOptIntColumn(w, orders, 'record.level.orders');
}

/** Flattened levels of a chunk; sides of record k are built on demand. */
interface Levels {
  side(k: number, bids: boolean): RecordLevel[];
}

function readLevels(r: ByteReader, n: number): Levels {
  const nb = readCountColumn(r, n);
  const na = readCountColumn(r, n);
  const start = new Array<number>(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    start[k] = total;
    total += nb[k]! + na[k]!;
  }
  const prices = readDecimals(r, total);
  const qtys = readDecimals(r, total);
  const orders = readOptIntColumn(r, total);
  return {
    side(k: number, bids: boolean): RecordLevel[] {
      const from = bids ? start[k]! : start[k]! + nb[k]!;
      const count = bids ? nb[k]! : na[k]!;
      const out: RecordLevel[] = new Array(count);
      for (let j = 0; j < count; j++) {
        const o = orders === null ? undefined : orders[from + j];
        out[j] = o === undefined ? [prices[from + j]!, qtys[from + j]!] : [prices[from + j]!, qtys[from + j]!, o];
      }
      return out;
    },
  };
}

/**
 * A decoded chunk whose record objects are built on demand: the reader's merge materialises a
 * record only when it yields it, so the objects die young (cheap for the GC) and records outside a
 * time range are never built.
 */
export interface ChunkView<T = DataRecord> {
  readonly n: number;
  readonly seqs: readonly number[];
  readonly et: readonly number[];
  readonly lt: readonly number[];
  /** Record k as a new object. */
  record(k: number): T;
}

/**
 * How one instrument's prices and sizes become integers for a replay: ticks = round(price / tick),
 * lots = round(size × lotFactor), on Number(decimal string) — the same arithmetic as the replay's
 * own conversion of a record (ReplayInstrument.ticks / lots), so both give the same integers.
 */
export interface ScaleSpec {
  /** Names the instrument in the scaled records (the replay's instrument key). */
  readonly key: string;
  readonly tick: number;
  readonly lotFactor: number;
  /** Kline chunks too, as ScaledBar (a kline-only instrument: its bars become intra-bar paths). */
  readonly bars?: boolean;
}

/** A bar in ticks and lots: its open, high, low and close ÷ tick, its volume × lotFactor, each rounded. */
export interface ScaledBar {
  readonly s: 'bar';
  readonly key: string;
  /** The bar's record time (its close). */
  readonly et: number;
  readonly ot: number;
  readonly iv: KlineInterval;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volumeLots: number;
}

/** A depth snapshot or diff with its levels as [priceTicks, lots, priceTicks, lots, …]. */
export interface ScaledDepth {
  readonly s: 'depth';
  readonly key: string;
  readonly et: number;
  readonly snapshot: boolean;
  readonly U: number;
  readonly u: number;
  readonly pu: number | undefined;
  readonly bids: readonly number[];
  readonly asks: readonly number[];
}

/** A trade in ticks and lots. */
export interface ScaledTrade {
  readonly s: 'print';
  readonly key: string;
  readonly et: number;
  readonly priceTicks: number;
  readonly lots: number;
  readonly takerSide: 'buy' | 'sell';
}

export type ScaledRecord = ScaledDepth | ScaledTrade | ScaledBar;

/**
 * decodeChunkView for a replay: depth and trade chunks come out as ScaledDepth / ScaledTrade, and
 * kline chunks as ScaledBar when `scale.bars` says so, their decimal columns read straight into numbers
 * (readDecimalNumbers, each the Number() of the decimal's string) — no string is made. Other streams
 * decode as usual.
 */
export function decodeScaledChunkView(
  stream: RecordStream,
  m: RecordMarket,
  i: string,
  firstSeq: number,
  payload: Uint8Array,
  scale: ScaleSpec,
): ChunkView<DataRecord | ScaledRecord> {
  if (stream !== 'depth.snapshot' && stream !== 'depth.diff' && stream !== 'trade' && !(stream === 'kline' && scale.bars === true))
    return decodeChunkView(stream, m, i, firstSeq, payload);
  const r = new ByteReader(payload);
  const n = r.uv();
  const seqs = new Array<number>(n);
  let seq = firstSeq;
  for (let k = 0; k < n; k++) {
    seq += r.uv();
    seqs[k] = seq;
  }
  const et = readIntColumn(r, n);
  const lt = readIntColumn(r, n);
  const { key, tick, lotFactor } = scale;
  let record: (k: number) => ScaledRecord;
  if (stream === 'kline') {
    const { iv, ot, o, h, l, c, v } = readBarColumns(r, n, readDecimalNumbers);
    skipOptDecimalColumn(r, n); // quote volume, trade count, final flag: a path does not use them
    readOptIntColumn(r, n);
    readOptBoolColumn(r, n);
    record = (k) => ({
      s: 'bar',
      key,
      et: et[k]!,
      ot: ot[k]!,
      iv: iv[k]!,
      open: Math.round(o[k]! / tick),
      high: Math.round(h[k]! / tick),
      low: Math.round(l[k]! / tick),
      close: Math.round(c[k]! / tick),
      volumeLots: Math.round(v[k]! * lotFactor),
    });
  } else if (stream === 'trade') {
    skipIdColumn(r, n);
    const p = readDecimalNumbers(r, n);
    const q = readDecimalNumbers(r, n);
    const buy = r.bits(n);
    record = (k) => ({
      s: 'print',
      key,
      et: et[k]!,
      priceTicks: Math.round(p[k]! / tick),
      lots: Math.round(q[k]! * lotFactor),
      takerSide: buy[k] ? 'buy' : 'sell',
    });
  } else {
    const snapshot = stream === 'depth.snapshot';
    const U = snapshot ? null : readIntColumn(r, n);
    const u = readIntColumn(r, n);
    const pu = snapshot ? null : readOptIntColumn(r, n);
    const nb = readCountColumn(r, n);
    const na = readCountColumn(r, n);
    const start = new Array<number>(n);
    let total = 0;
    for (let k = 0; k < n; k++) {
      start[k] = total;
      total += nb[k]! + na[k]!;
    }
    const prices = readDecimalNumbers(r, total);
    const qtys = readDecimalNumbers(r, total);
    readOptIntColumn(r, total); // order counts: a replay does not use them
    const flat = (from: number, count: number): number[] => {
      const out = new Array<number>(2 * count);
      for (let j = 0; j < count; j++) {
        out[2 * j] = Math.round(prices[from + j]! / tick);
        out[2 * j + 1] = Math.round(qtys[from + j]! * lotFactor);
      }
      return out;
    };
    record = (k) => ({
      s: 'depth',
      key,
      et: et[k]!,
      snapshot,
      U: U === null ? u[k]! : U[k]!,
      u: u[k]!,
      pu: pu === null ? undefined : pu[k],
      bids: flat(start[k]!, nb[k]!),
      asks: flat(start[k]! + nb[k]!, na[k]!),
    });
  }
  if (!r.done) throw new RangeError(`chunk payload has ${payload.length - r.pos} bytes after its columns`);
  return { n, seqs, et, lt, record };
}

/** A kline chunk's interval, open time and OHLCV columns, the decimals read by `decimals` (as strings or as numbers). */
function readBarColumns<T>(
  r: ByteReader,
  n: number,
  decimals: (r: ByteReader, n: number) => T,
): { iv: KlineInterval[]; ot: number[]; o: T; h: T; l: T; c: T; v: T } {
  const iv = new Array<KlineInterval>(n);
  for (let k = 0; k < n; k++) {
    const code = r.u8();
    const name = KLINE_INTERVALS[code];
    if (name === undefined) throw new RangeError(`bad kline interval code ${code}`);
    iv[k] = name;
  }
  const ot = readIntColumn(r, n);
  return { iv, ot, o: decimals(r, n), h: decimals(r, n), l: decimals(r, n), c: decimals(r, n), v: decimals(r, n) };
}

export function decodeChunkPayload(stream: RecordStream, m: RecordMarket, i: string, firstSeq: number, payload: Uint8Array): DecodedChunk {
  const v = decodeChunkView(stream, m, i, firstSeq, payload);
  const records = new Array<DataRecord>(v.n);
  for (let k = 0; k < v.n; k++) records[k] = v.record(k);
  return { records, seqs: v.seqs as number[] };
}

export function decodeChunkView(stream: RecordStream, m: RecordMarket, i: string, firstSeq: number, payload: Uint8Array): ChunkView {
  const r = new ByteReader(payload);
  const n = r.uv();
  const seqs = new Array<number>(n);
  let seq = firstSeq;
  for (let k = 0; k < n; k++) {
    seq += r.uv();
    seqs[k] = seq;
  }
  const et = readIntColumn(r, n);
  const lt = readIntColumn(r, n);
  let record: (k: number) => DataRecord;
  switch (stream) {
    case 'depth.snapshot': {
      const u = readIntColumn(r, n);
      const lv = readLevels(r, n);
      record = (k) => ({ s: stream, m, i, et: et[k]!, lt: lt[k]!, u: u[k]!, b: lv.side(k, true), a: lv.side(k, false) });
      break;
    }
    case 'depth.diff': {
      const U = readIntColumn(r, n);
      const u = readIntColumn(r, n);
      const pu = readOptIntColumn(r, n);
      const lv = readLevels(r, n);
      record = (k) => {
        const p = pu === null ? undefined : pu[k];
        return p === undefined
          ? { s: stream, m, i, et: et[k]!, lt: lt[k]!, U: U[k]!, u: u[k]!, b: lv.side(k, true), a: lv.side(k, false) }
          : { s: stream, m, i, et: et[k]!, lt: lt[k]!, U: U[k]!, u: u[k]!, pu: p, b: lv.side(k, true), a: lv.side(k, false) };
      };
      break;
    }
    case 'trade': {
      const id = readIdColumn(r, n);
      const p = readDecimals(r, n);
      const q = readDecimals(r, n);
      const buy = r.bits(n);
      record = (k) => {
        const x = id === null ? undefined : id[k];
        return x === undefined
          ? { s: stream, m, i, et: et[k]!, lt: lt[k]!, p: p[k]!, q: q[k]!, ts: buy[k] ? 'buy' : 'sell' }
          : { s: stream, m, i, et: et[k]!, lt: lt[k]!, id: x, p: p[k]!, q: q[k]!, ts: buy[k] ? 'buy' : 'sell' };
      };
      break;
    }
    case 'bookTicker': {
      const u = readOptIntColumn(r, n);
      const bp = readDecimals(r, n);
      const bq = readDecimals(r, n);
      const ap = readDecimals(r, n);
      const aq = readDecimals(r, n);
      record = (k) => {
        const x = u === null ? undefined : u[k];
        return x === undefined
          ? { s: stream, m, i, et: et[k]!, lt: lt[k]!, bp: bp[k]!, bq: bq[k]!, ap: ap[k]!, aq: aq[k]! }
          : { s: stream, m, i, et: et[k]!, lt: lt[k]!, u: x, bp: bp[k]!, bq: bq[k]!, ap: ap[k]!, aq: aq[k]! };
      };
      break;
    }
    case 'kline': {
      const { iv, ot, o, h, l, c, v } = readBarColumns(r, n, readDecimals);
      const qv = readOptDecimalColumn(r, n);
      const cnt = readOptIntColumn(r, n);
      const x = readOptBoolColumn(r, n);
      record = (k) => {
        const rec: Out = { s: stream, m, i, et: et[k], lt: lt[k], iv: iv[k], ot: ot[k], o: o[k], h: h[k], l: l[k], c: c[k], v: v[k] };
        if (qv !== null && qv[k] !== undefined) rec.qv = qv[k];
        if (cnt !== null && cnt[k] !== undefined) rec.n = cnt[k];
        if (x[k] !== undefined) rec.x = x[k];
        return rec as unknown as KlineRecord;
      };
      break;
    }
    case 'funding': {
      const rate = readDecimals(r, n);
      const nt = readOptIntColumn(r, n);
      const min = readOptDecimalColumn(r, n);
      const max = readOptDecimalColumn(r, n);
      const cy = readOptNumberColumn(r, n);
      record = (k) => {
        const rec: Out = { s: stream, m, i, et: et[k], lt: lt[k], r: rate[k] };
        if (nt !== null && nt[k] !== undefined) rec.nt = nt[k];
        if (min !== null && min[k] !== undefined) rec.min = min[k];
        if (max !== null && max[k] !== undefined) rec.max = max[k];
        if (cy !== null && cy[k] !== undefined) rec.cy = cy[k];
        return rec as unknown as FundingRecord;
      };
      break;
    }
    case 'index':
    case 'fair': {
      const p = readDecimals(r, n);
      record = (k) => ({ s: stream, m, i, et: et[k]!, lt: lt[k]!, p: p[k]! });
      break;
    }
    case 'ticker': {
      const last = readDecimals(r, n);
      const opt = (['open', 'high', 'low', 'v', 'qv'] as const).map((f) => [f, readOptDecimalColumn(r, n)] as const);
      const cnt = readOptIntColumn(r, n);
      record = (k) => {
        const rec: Out = { s: stream, m, i, et: et[k], lt: lt[k], last: last[k] };
        for (const [f, col] of opt) if (col !== null && col[k] !== undefined) rec[f] = col[k];
        if (cnt !== null && cnt[k] !== undefined) rec.n = cnt[k];
        return rec as unknown as TickerRecord;
      };
      break;
    }
    default:
      throw new RangeError(`unknown stream ${String(stream)}`);
  }
  if (!r.done) throw new RangeError(`chunk payload has ${payload.length - r.pos} bytes after its columns`);
  return { n, seqs, et, lt, record };
}
