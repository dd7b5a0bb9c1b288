/**
 * Reads a record store (record-store-writer.ts): opens every segment's index, selects chunks by
 * instrument, stream and time range, and yields records in time order.
 *
 * Order: by the chosen time base (exchange `et` by default, or local `lt`), ties by the store-wide
 * receive sequence, i.e. exactly as they were received. A chunk is sorted on decode when its records
 * are not already in that order, and chunks are merged with a k-way heap that opens a chunk only when
 * the merge reaches its minimum time (from the index), so memory holds just the chunks that overlap
 * in time, whatever the disorder between streams or files. `order: 'receive'` yields the append order.
 *
 * Synchronous on purpose: a backtest is driven by the data on one thread, and sync reads of whole
 * chunks keep the per-record cost to decoding (no promise per record).
 *
 * A live or crashed store is readable: chunks written after the last complete index entry are found
 * by walking headers; a torn tail is skipped and reported in `warnings`, never returned.
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BinaryHeap } from '../../core/binary-heap.js';
import { ValidationError } from '../../core/errors.js';
import { parseRecordLines } from '../record/json-lines-codec.js';
import { RECORD_STREAMS, instrumentKey, type DataRecord, type MetaRecord, type RecordMarket, type RecordStream } from '../record/record.js';
import {
  decodeChunkPayload,
  decodeChunkView,
  decodeScaledChunkView,
  type ChunkView,
  type DecodedChunk,
  type ScaledRecord,
  type ScaleSpec,
} from './chunk-codec.js';
import { SEGMENT_FILE_RE, crc32, decompress, parseSegmentHeader, segmentBaseName, type ChunkInfo } from './chunk-format.js';
import { readAt, readSegmentIndex, scanSegmentData } from './segment-file.js';
import { StoreCorrupted } from './store-error.js';

export type TimeBase = 'exchange' | 'local';

export interface InstrumentRef {
  readonly market: RecordMarket;
  readonly symbol: string;
}

export interface RecordQuery {
  /** `spot:BTCUSDT` keys, {market, symbol}, or a bare symbol (any market). Default: all. */
  readonly instruments?: readonly (string | InstrumentRef)[];
  /** Default: all streams. */
  readonly streams?: readonly RecordStream[];
  /** Inclusive lower bound, ms, on the time base. */
  readonly from?: number;
  /** Exclusive upper bound, ms, on the time base. */
  readonly to?: number;
  /** Which time orders and filters. Default 'exchange'. */
  readonly timeBase?: TimeBase;
  /** 'time' (default): by time, ties by receive sequence. 'receive': append order. */
  readonly order?: 'time' | 'receive';
}

export interface StreamSummary {
  readonly stream: RecordStream;
  readonly records: number;
  readonly chunks: number;
  readonly minEt: number;
  readonly maxEt: number;
  readonly minLt: number;
  readonly maxLt: number;
}

export interface InstrumentSummary {
  readonly market: RecordMarket;
  readonly symbol: string;
  readonly streams: readonly StreamSummary[];
}

export interface StoreSummary {
  readonly segments: number;
  readonly chunks: number;
  readonly records: number;
  readonly bytes: number;
  readonly instruments: readonly InstrumentSummary[];
}

interface Segment {
  readonly n: number;
  readonly path: string;
  readonly fd: number;
  readonly size: number;
}

interface Cursor<T> {
  readonly keys: number[];
  readonly seqs: number[];
  /** Record indices in the view, in merge order. */
  readonly idx: number[];
  readonly view: ChunkView<T>;
  pos: number;
}

export class RecordStoreReader {
  /** Data chunks of every segment, in file order. */
  readonly chunks: readonly ChunkInfo[];
  /** Torn tails and index problems seen while opening (the data before them is served). */
  readonly warnings: readonly string[];
  private readonly metaChunks: readonly ChunkInfo[];
  private readonly segments = new Map<number, Segment>();
  private closed = false;

  static open(dir: string): RecordStoreReader {
    return new RecordStoreReader(dir);
  }

  private constructor(readonly dir: string) {
    const warnings: string[] = [];
    const chunks: ChunkInfo[] = [];
    const meta: ChunkInfo[] = [];
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ValidationError('store', 'an existing record store folder', dir);
    const numbers = readdirSync(dir)
      .map((f) => SEGMENT_FILE_RE.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    try {
      for (const n of numbers) {
        const base = join(dir, segmentBaseName(n));
        const path = `${base}.pmdr`;
        const fd = openSync(path, 'r');
        const size = fstatSync(fd).size;
        this.segments.set(n, { n, path, fd, size });
        const head = parseSegmentHeader(readAt(fd, 0, Math.min(size, 64 * 1024)));
        if (!head.ok) {
          warnings.push(`${path}: ${head.reason}; segment skipped`);
          continue;
        }
        const idx = readSegmentIndex(`${base}.pmdi`, n, head.length, size);
        const last = idx.chunks[idx.chunks.length - 1];
        const indexedEnd = last ? last.offset + last.headerLen + last.payloadLen : head.length;
        let found = idx.chunks;
        if (indexedEnd < size) {
          const tail = scanSegmentData(path, n, { verify: true, start: indexedEnd, known: idx.chunks });
          found = tail.chunks;
          if (tail.stopReason !== undefined)
            warnings.push(`${path}: ignoring ${size - tail.validEnd} bytes from byte ${tail.validEnd} (${tail.stopReason})`);
        }
        for (const c of found) (c.stream === 'meta' ? meta : chunks).push(c);
      }
    } catch (e) {
      this.close();
      throw e;
    }
    this.chunks = chunks;
    this.metaChunks = meta;
    this.warnings = warnings;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.segments.values()) closeSync(s.fd);
  }

  /** Meta records (format, source notes), in the order they were appended. */
  meta(): MetaRecord[] {
    const out: MetaRecord[] = [];
    for (const c of [...this.metaChunks].sort((a, b) => a.firstSeq - b.firstSeq)) {
      const text = new TextDecoder().decode(this.payload(c));
      for (const r of parseRecordLines(text)) if (r.s === 'meta') out.push(r);
    }
    return out;
  }

  summary(): StoreSummary {
    const byInst = new Map<
      string,
      { market: RecordMarket; symbol: string; streams: Map<RecordStream, { -readonly [K in keyof StreamSummary]: StreamSummary[K] }> }
    >();
    let records = 0;
    for (const c of this.chunks) {
      const market = c.market!;
      const key = instrumentKey(market, c.symbol);
      let inst = byInst.get(key);
      if (!inst) byInst.set(key, (inst = { market, symbol: c.symbol, streams: new Map() }));
      const stream = c.stream as RecordStream;
      const s = inst.streams.get(stream);
      records += c.count;
      if (!s)
        inst.streams.set(stream, { stream, records: c.count, chunks: 1, minEt: c.minEt, maxEt: c.maxEt, minLt: c.minLt, maxLt: c.maxLt });
      else {
        s.records += c.count;
        s.chunks++;
        s.minEt = Math.min(s.minEt, c.minEt);
        s.maxEt = Math.max(s.maxEt, c.maxEt);
        s.minLt = Math.min(s.minLt, c.minLt);
        s.maxLt = Math.max(s.maxLt, c.maxLt);
      }
    }
    let bytes = 0;
    for (const s of this.segments.values()) bytes += s.size;
    const order = (s: RecordStream): number => RECORD_STREAMS.indexOf(s);
    return {
      segments: this.segments.size,
      chunks: this.chunks.length,
      records,
      bytes,
      instruments: [...byInst.values()]
        .sort((a, b) => (a.market === b.market ? (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0) : a.market < b.market ? -1 : 1))
        .map((i) => ({
          market: i.market,
          symbol: i.symbol,
          streams: [...i.streams.values()].sort((a, b) => order(a.stream) - order(b.stream)),
        })),
    };
  }

  /** Chunks that may hold records of the query (instrument, stream, time overlap). */
  select(q: RecordQuery = {}): ChunkInfo[] {
    const local = q.timeBase === 'local';
    const streams = q.streams ? new Set<string>(q.streams) : undefined;
    const match = instrumentMatcher(q.instruments);
    const from = q.from ?? -Infinity;
    const to = q.to ?? Infinity;
    return this.chunks.filter((c) => {
      if (streams && !streams.has(c.stream)) return false;
      if (!match(c.market!, c.symbol)) return false;
      const min = local ? c.minLt : c.minEt;
      const max = local ? c.maxLt : c.maxEt;
      return max >= from && min < to;
    });
  }

  /** Exact number of records the query yields (decodes only the chunks the range cuts through). */
  count(q: RecordQuery = {}): number {
    const local = q.timeBase === 'local';
    const from = q.from ?? -Infinity;
    const to = q.to ?? Infinity;
    let n = 0;
    for (const c of this.select(q)) {
      const min = local ? c.minLt : c.minEt;
      const max = local ? c.maxLt : c.maxEt;
      if (min >= from && max < to) n += c.count;
      else
        for (const r of this.readChunk(c).records) {
          const t = local ? r.lt : r.et;
          if (t >= from && t < to) n++;
        }
    }
    return n;
  }

  /** A re-iterable view of the query (each iteration reads the store again): replay with `loop`. */
  query(q: RecordQuery = {}): Iterable<DataRecord> {
    return { [Symbol.iterator]: () => this.records(q) };
  }

  /** The records of the query, in order (see the file comment). One pass. */
  records(q: RecordQuery = {}): IterableIterator<DataRecord> {
    if (q.from !== undefined && q.to !== undefined && q.to < q.from) throw new ValidationError('to', `a time ≥ from (${q.from})`, q.to);
    return new MergeIterator(this.select(q), q, (c) => this.readChunkView(c));
  }

  /**
   * records() for a replay: the depth and trade records of the instruments in `scale` (keyed by
   * `spot:BTCUSDT`-style instrument key) come as ScaledDepth / ScaledTrade, and their bars as ScaledBar
   * where the spec asks (ScaleSpec.bars), decoded straight into integer ticks and lots; everything else
   * as records. Same order as records().
   */
  scaledRecords(q: RecordQuery, scale: ReadonlyMap<string, ScaleSpec>): IterableIterator<DataRecord | ScaledRecord> {
    if (q.from !== undefined && q.to !== undefined && q.to < q.from) throw new ValidationError('to', `a time ≥ from (${q.from})`, q.to);
    return new MergeIterator<DataRecord | ScaledRecord>(this.select(q), q, (c) => {
      const spec = scale.get(instrumentKey(c.market!, c.symbol));
      if (spec === undefined) return this.readChunkView(c);
      if (c.stream === 'meta') throw new RangeError('meta chunks hold no data records (use meta())');
      return decodeScaledChunkView(c.stream, c.market!, c.symbol, c.firstSeq, this.payload(c), spec);
    });
  }

  /** Reads, checks and decodes one chunk. */
  readChunk(c: ChunkInfo): DecodedChunk {
    if (c.stream === 'meta') throw new RangeError('meta chunks hold no data records (use meta())');
    return decodeChunkPayload(c.stream, c.market!, c.symbol, c.firstSeq, this.payload(c));
  }

  /** Like readChunk, with records built on demand. */
  readChunkView(c: ChunkInfo): ChunkView {
    if (c.stream === 'meta') throw new RangeError('meta chunks hold no data records (use meta())');
    return decodeChunkView(c.stream, c.market!, c.symbol, c.firstSeq, this.payload(c));
  }

  private payload(c: ChunkInfo): Uint8Array {
    if (this.closed) throw new Error('record store reader is closed');
    const seg = this.segments.get(c.segment)!;
    const b = readAt(seg.fd, c.offset + c.headerLen, c.payloadLen);
    if (b.length !== c.payloadLen) throw new StoreCorrupted(seg.path, c.offset, 'chunk payload cut short');
    if (crc32(b) !== c.payloadCrc) throw new StoreCorrupted(seg.path, c.offset, 'chunk payload crc mismatch');
    try {
      return decompress(c.codec, b, c.rawLen);
    } catch (e) {
      throw new StoreCorrupted(seg.path, c.offset, `chunk payload does not decompress: ${(e as Error).message}`);
    }
  }
}

function instrumentMatcher(list: RecordQuery['instruments']): (m: RecordMarket, symbol: string) => boolean {
  if (!list) return () => true;
  const keys = new Set<string>();
  const bare = new Set<string>();
  for (const x of list) {
    if (typeof x === 'string') {
      if (x.startsWith('spot:') || x.startsWith('contract:')) keys.add(x);
      else bare.add(x);
    } else keys.add(instrumentKey(x.market, x.symbol));
  }
  return (m, symbol) => bare.has(symbol) || keys.has(instrumentKey(m, symbol));
}

/** k-way merge over chunks, opening each only when the merge reaches its minimum key. */
class MergeIterator<T> implements IterableIterator<T> {
  private readonly pending: ChunkInfo[];
  private pi = 0;
  private readonly heap = new BinaryHeap<Cursor<T>>(less);
  private readonly mode: 0 | 1 | 2; // 0 et, 1 lt, 2 seq
  private readonly from: number;
  private readonly to: number;

  constructor(
    chunks: ChunkInfo[],
    q: RecordQuery,
    private readonly open: (c: ChunkInfo) => ChunkView<T>,
  ) {
    this.mode = q.order === 'receive' ? 2 : q.timeBase === 'local' ? 1 : 0;
    this.from = q.from ?? -Infinity;
    this.to = q.to ?? Infinity;
    const min = (c: ChunkInfo): number => (this.mode === 2 ? c.firstSeq : this.mode === 1 ? c.minLt : c.minEt);
    this.pending = chunks.slice().sort((a, b) => min(a) - min(b) || a.firstSeq - b.firstSeq);
    this.minOf = min;
  }

  private readonly minOf: (c: ChunkInfo) => number;

  [Symbol.iterator](): IterableIterator<T> {
    return this;
  }

  next(): IteratorResult<T> {
    const heap = this.heap;
    const pending = this.pending;
    while (this.pi < pending.length) {
      const top = heap.peek();
      const c = pending[this.pi]!;
      // A chunk whose minimum equals the top key may still hold an earlier seq: open it too.
      if (top !== undefined && this.minOf(c) > top.keys[top.pos]!) break;
      this.pi++;
      this.activate(c);
    }
    const top = heap.peek();
    if (top === undefined) return { value: undefined, done: true };
    const rec = top.view.record(top.idx[top.pos]!);
    top.pos++;
    if (top.pos === top.idx.length) heap.pop();
    else heap.topChanged();
    return { value: rec, done: false };
  }

  private activate(c: ChunkInfo): void {
    const view = this.open(c);
    const { seqs } = view;
    const times = this.mode === 1 ? view.lt : view.et;
    const mode = this.mode;
    const from = this.from;
    const to = this.to;
    const keys: number[] = [];
    const ss: number[] = [];
    const idx: number[] = [];
    let sorted = true;
    let pk = -Infinity;
    let ps = -Infinity;
    for (let k = 0; k < view.n; k++) {
      const t = times[k]!;
      if (t < from || t >= to) continue;
      const s = seqs[k]!;
      const key = mode === 2 ? s : t;
      if (key < pk || (key === pk && s < ps)) sorted = false;
      pk = key;
      ps = s;
      keys.push(key);
      ss.push(s);
      idx.push(k);
    }
    if (idx.length === 0) return;
    let cursor: Cursor<T>;
    if (sorted) cursor = { keys, seqs: ss, idx, view, pos: 0 };
    else {
      const order = keys.map((_, k) => k).sort((a, b) => keys[a]! - keys[b]! || ss[a]! - ss[b]!);
      cursor = { keys: order.map((k) => keys[k]!), seqs: order.map((k) => ss[k]!), idx: order.map((k) => idx[k]!), view, pos: 0 };
    }
    this.heap.push(cursor);
  }
}

function less<T>(a: Cursor<T>, b: Cursor<T>): boolean {
  const ka = a.keys[a.pos]!;
  const kb = b.keys[b.pos]!;
  return ka < kb || (ka === kb && a.seqs[a.pos]! < b.seqs[b.pos]!);
}
