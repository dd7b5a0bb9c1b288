/**
 * Appends market records to a record store: a folder of segment files, each a sequence of
 * compressed columnar chunks plus a sidecar index, and a small manifest.
 *
 * Store layout (decided here; it refines the design sketched at the top of record/record.ts):
 *
 *   <dir>/manifest.json       summary cache (segments, ranges, sealed flags), atomically replaced
 *   <dir>/seg-000001.pmdr     data: file header, then chunks (chunk-format.ts)
 *   <dir>/seg-000001.pmdi     index: one entry per chunk (offset + a copy of the chunk header)
 *   <dir>/writer.lock         pid of the live writer
 *
 * Why a sidecar index instead of the footer index + trailer of the original sketch: with a footer,
 * every append session must truncate the old index before writing chunks, and a live recording has
 * no index until it is closed. Here BOTH files only ever grow: a chunk is written to the data file
 * first, then its index entry, so a reader of a live store sees every chunk whose entry is complete,
 * and nothing written is ever rewritten. Only crash recovery truncates, and only a torn tail.
 *
 * Segments: a new one starts at a new UTC day of the receive time `lt` (segmentPeriod 'day', so old
 * days can be archived or deleted as files) and when a segment passes `segmentBytes`.
 *
 * Chunks hold up to `chunkRecords` records (or `chunkLevels` depth levels) of ONE (market,
 * instrument, stream). Every record gets a store-wide receive sequence number (`seq`, append order),
 * which the reader uses to break time ties exactly as received. A chunk also leaves the buffer when
 * its oldest record is `maxBufferedMs` older (in record time) than the newest appended, so a slow
 * stream (funding every 8 h) is not held in memory (and lost by a crash) for hours. The writer owns
 * no timer: call flush() from the recorder's clock if wall-time bounds are wanted.
 *
 * Compression: deflate (raw RFC 1951, the algorithm inside gzip) by default: on these columnar
 * payloads brotli at a write-speed-comparable quality saves only a few more percent while reading
 * (the budget that matters: ≥300k events/s from disk) is slower; gzip's own header and crc would
 * duplicate the chunk crc. Both are selectable per store (bench/store-bench.ts measures them).
 *
 * Crash safety: on open, every segment not sealed by a clean close (or whose size disagrees with
 * the manifest) is walked chunk by chunk with crcs verified; the data file is truncated to the end of
 * the last good chunk and its index rebuilt. A bad chunk followed by good ones is corruption, not a
 * torn write, and is refused (StoreCorrupted) rather than silently cut away. fsync: per chunk with
 * `fsync: 'chunk'` (survives power loss), else at roll and close (survives a killed process).
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { ValidationError } from '../../core/errors.js';
import { encodeRecordLine, type RecordSink } from '../record/json-lines-codec.js';
import { isDataRecord, type DataRecord, type MarketRecord, type RecordMarket, type RecordStream } from '../record/record.js';
import { encodeChunkPayload } from './chunk-codec.js';
import {
  SEGMENT_FILE_RE,
  STORE_FORMAT,
  STORE_VERSION,
  compress,
  crc32,
  encodeChunkHeader,
  encodeIndexEntry,
  encodeIndexHeader,
  encodeSegmentHeader,
  segmentBaseName,
  type ChunkCodec,
  type ChunkInfo,
  type ChunkStream,
} from './chunk-format.js';
import { checkRecord } from './record-check.js';
import { readAt, readSegmentIndex, scanSegmentData } from './segment-file.js';
import { StoreCorrupted, StoreLocked } from './store-error.js';
import { readManifest, writeManifest, type SegmentSummary } from './store-manifest.js';

const DAY_MS = 86_400_000;
export const LOCK_FILE = 'writer.lock';
/** Stores with a live writer in THIS process (the pid in the lock file cannot tell them apart). */
const LIVE_DIRS = new Set<string>();

export interface RecordStoreWriterOptions {
  /** Records per chunk. Default 4096. */
  readonly chunkRecords?: number;
  /**
   * Depth levels per chunk (snapshots are large). Default 16384: a decoded chunk then stays small
   * enough to die in the young generation while it is read (bench/store-bench.ts).
   */
  readonly chunkLevels?: number;
  /** Default 'deflate'. */
  readonly codec?: ChunkCodec;
  /** zlib level (deflate 1–9, default 6) or brotli quality (0–11, default 5). */
  readonly level?: number;
  /** Start a new segment once the current one reaches this size. Default 256 MiB. */
  readonly segmentBytes?: number;
  /** 'day': a new segment per UTC day of `lt`. Default 'day'. */
  readonly segmentPeriod?: 'day' | 'none';
  /**
   * Flush a chunk whose oldest record is this much older (lt) than the newest appended. Default
   * 60 000 (live recording); Infinity for bulk loads of history, where it would only make chunks small.
   */
  readonly maxBufferedMs?: number;
  /**
   * 'chunk': fsync data and index after every chunk (survives power loss). 'close' (default): at
   * roll, sync() and close (survives a killed process). 'never': leave it to the OS (scratch stores,
   * tests).
   */
  readonly fsync?: 'chunk' | 'close' | 'never';
  /** Take `writer.lock` (refuse a second live writer). Default true. */
  readonly lock?: boolean;
}

/** What opening an existing store had to repair. */
export interface RecoveryAction {
  readonly segment: number;
  readonly file: string;
  /** Why the segment was checked: not sealed, size mismatch, index incomplete. */
  readonly cause: string;
  /** Why the walk stopped (the torn tail), when it did. */
  readonly reason?: string;
  readonly truncatedBytes: number;
  readonly keptChunks: number;
  readonly keptRecords: number;
  readonly indexRebuilt: boolean;
}

interface Pending {
  readonly market: RecordMarket;
  readonly symbol: string;
  readonly stream: RecordStream;
  records: DataRecord[];
  seqs: number[];
  levels: number;
  firstLt: number;
}

interface SegmentState {
  summary: MutableSummary;
  dataFd: number;
  indexFd: number;
  indexSize: number;
  day: number | undefined;
}

type MutableSummary = { -readonly [K in keyof SegmentSummary]: SegmentSummary[K] };

const summaryOf = (n: number, chunks: readonly ChunkInfo[], dataBytes: number, sealed: boolean): MutableSummary => {
  const s: MutableSummary = { n, file: `${segmentBaseName(n)}.pmdr`, sealed, dataBytes, chunks: 0, records: 0 };
  for (const c of chunks) addChunk(s, c);
  return s;
};

function addChunk(
  s: MutableSummary,
  c: Pick<ChunkInfo, 'stream' | 'count' | 'firstSeq' | 'lastSeq' | 'minEt' | 'maxEt' | 'minLt' | 'maxLt'>,
): void {
  s.chunks++;
  s.firstSeq = s.firstSeq === undefined ? c.firstSeq : Math.min(s.firstSeq, c.firstSeq);
  s.lastSeq = s.lastSeq === undefined ? c.lastSeq : Math.max(s.lastSeq, c.lastSeq);
  if (c.stream === 'meta') return;
  s.records += c.count;
  s.minEt = s.minEt === undefined ? c.minEt : Math.min(s.minEt, c.minEt);
  s.maxEt = s.maxEt === undefined ? c.maxEt : Math.max(s.maxEt, c.maxEt);
  s.minLt = s.minLt === undefined ? c.minLt : Math.min(s.minLt, c.minLt);
  s.maxLt = s.maxLt === undefined ? c.maxLt : Math.max(s.maxLt, c.maxLt);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class RecordStoreWriter implements RecordSink {
  readonly recovery: readonly RecoveryAction[];
  private readonly chunkRecords: number;
  private readonly chunkLevels: number;
  private readonly codec: ChunkCodec;
  private readonly level: number | undefined;
  private readonly segmentBytes: number;
  private readonly byDay: boolean;
  private readonly maxBufferedMs: number;
  private readonly fsyncEachChunk: boolean;
  private readonly durable: boolean;
  private readonly segments: MutableSummary[];
  private seg: SegmentState;
  private readonly pending = new Map<string, Pending>();
  private nextSeq: number;
  private nextBufferCheck = -Infinity;
  private closed = false;
  private readonly locked: boolean;
  /** Records appended by this writer (meta included). */
  appended = 0;
  chunksWritten = 0;
  bytesWritten = 0;

  /** Opens (creating or resuming, with crash recovery) the store in `dir`. */
  static open(dir: string, opts: RecordStoreWriterOptions = {}): RecordStoreWriter {
    return new RecordStoreWriter(dir, opts);
  }

  private constructor(
    readonly dir: string,
    opts: RecordStoreWriterOptions,
  ) {
    this.chunkRecords = positive(opts.chunkRecords ?? 4096, 'chunkRecords');
    this.chunkLevels = positive(opts.chunkLevels ?? 16384, 'chunkLevels');
    this.codec = opts.codec ?? 'deflate';
    this.level = opts.level;
    this.segmentBytes = positive(opts.segmentBytes ?? 256 * 1024 * 1024, 'segmentBytes');
    this.byDay = (opts.segmentPeriod ?? 'day') === 'day';
    this.maxBufferedMs = opts.maxBufferedMs === Infinity ? Infinity : positive(opts.maxBufferedMs ?? 60_000, 'maxBufferedMs');
    this.fsyncEachChunk = opts.fsync === 'chunk';
    this.durable = opts.fsync !== 'never';
    mkdirSync(dir, { recursive: true });
    this.locked = opts.lock ?? true;
    if (this.locked) this.takeLock();
    try {
      const recovery: RecoveryAction[] = [];
      this.segments = this.loadSegments(recovery);
      this.recovery = recovery;
      let maxSeq = -1;
      for (const s of this.segments) if (s.lastSeq !== undefined) maxSeq = Math.max(maxSeq, s.lastSeq);
      this.nextSeq = maxSeq + 1;
      const last = this.segments[this.segments.length - 1];
      this.seg = last ? this.reopen(last) : this.create(1);
      writeManifest(dir, this.segments, this.durable);
    } catch (e) {
      if (this.locked) this.releaseLock();
      throw e;
    }
  }

  /** The seq the next record will get (records in the store = seqs below it). */
  get sequence(): number {
    return this.nextSeq;
  }

  /** RecordSink: same as append. */
  write(record: MarketRecord): void {
    this.append(record);
  }

  append(record: MarketRecord): void {
    if (this.closed) throw new Error('record store writer is closed');
    if (!isDataRecord(record)) {
      this.writeMeta(record);
      return;
    }
    checkRecord(record);
    const lt = record.lt;
    if (this.byDay) {
      const day = Math.floor(lt / DAY_MS);
      if (this.seg.day === undefined) this.seg.day = day;
      else if (day > this.seg.day) {
        this.flush();
        if (this.seg.summary.chunks > 0) this.roll();
        this.seg.day = day;
      }
    }
    const key = `${record.m}\u0000${record.i}\u0000${record.s}`;
    let p = this.pending.get(key);
    if (!p) {
      p = { market: record.m, symbol: record.i, stream: record.s, records: [], seqs: [], levels: 0, firstLt: lt };
      this.pending.set(key, p);
    }
    if (p.records.length === 0) p.firstLt = lt;
    p.records.push(record);
    p.seqs.push(this.nextSeq++);
    this.appended++;
    if (record.s === 'depth.snapshot' || record.s === 'depth.diff') p.levels += record.b.length + record.a.length;
    if (p.records.length >= this.chunkRecords || p.levels >= this.chunkLevels) this.flushPending(p);
    if (lt >= this.nextBufferCheck) {
      this.nextBufferCheck = lt + this.maxBufferedMs / 4;
      for (const q of this.pending.values()) if (q.records.length && lt - q.firstLt >= this.maxBufferedMs) this.flushPending(q);
    }
  }

  appendAll(records: Iterable<MarketRecord>): void {
    for (const r of records) this.append(r);
  }

  /** Writes every buffered record as chunks (to the OS; see sync for the disk). */
  flush(): void {
    for (const p of this.pending.values()) if (p.records.length) this.flushPending(p);
  }

  /** flush(), then fsync the open segment's data and index. */
  sync(): void {
    this.flush();
    if (!this.durable) return;
    fsyncSync(this.seg.dataFd);
    fsyncSync(this.seg.indexFd);
  }

  /** Flushes, fsyncs, seals the open segment in the manifest and releases the lock. */
  close(): void {
    if (this.closed) return;
    this.sync();
    this.closed = true;
    this.seg.summary.sealed = true;
    closeSync(this.seg.dataFd);
    closeSync(this.seg.indexFd);
    writeManifest(this.dir, this.segments, this.durable);
    if (this.locked) this.releaseLock();
  }

  private writeMeta(meta: MarketRecord): void {
    this.flushWrite(
      'meta',
      undefined,
      '',
      new TextEncoder().encode(`${encodeRecordLine(meta)}\n`),
      1,
      this.nextSeq,
      this.nextSeq,
      0,
      0,
      0,
      0,
    );
    this.nextSeq++;
    this.appended++;
  }

  private flushPending(p: Pending): void {
    const { records, seqs } = p;
    let minEt = Infinity;
    let maxEt = -Infinity;
    let minLt = Infinity;
    let maxLt = -Infinity;
    for (const r of records) {
      if (r.et < minEt) minEt = r.et;
      if (r.et > maxEt) maxEt = r.et;
      if (r.lt < minLt) minLt = r.lt;
      if (r.lt > maxLt) maxLt = r.lt;
    }
    const firstSeq = seqs[0]!;
    const raw = encodeChunkPayload(p.stream, records, seqs, firstSeq);
    this.flushWrite(p.stream, p.market, p.symbol, raw, records.length, firstSeq, seqs[seqs.length - 1]!, minEt, maxEt, minLt, maxLt);
    p.records = [];
    p.seqs = [];
    p.levels = 0;
  }

  private flushWrite(
    stream: ChunkStream,
    market: RecordMarket | undefined,
    symbol: string,
    raw: Uint8Array,
    count: number,
    firstSeq: number,
    lastSeq: number,
    minEt: number,
    maxEt: number,
    minLt: number,
    maxLt: number,
  ): void {
    if (this.seg.summary.dataBytes >= this.segmentBytes && this.seg.summary.chunks > 0) this.roll();
    const payload = compress(this.codec, raw, this.level);
    const fields = {
      codec: this.codec,
      stream,
      market,
      symbol,
      count,
      payloadLen: payload.length,
      rawLen: raw.length,
      payloadCrc: crc32(payload),
      firstSeq,
      lastSeq,
      minEt,
      maxEt,
      minLt,
      maxLt,
    };
    const header = encodeChunkHeader(fields);
    const seg = this.seg;
    const offset = seg.summary.dataBytes;
    // One write per chunk: a kill can tear it only at the end of the file, which recovery cuts off.
    const bytes = Buffer.concat([header, payload]);
    writeAll(seg.dataFd, bytes, offset);
    if (this.fsyncEachChunk) fsyncSync(seg.dataFd);
    const entry = encodeIndexEntry(offset, header);
    writeAll(seg.indexFd, entry, seg.indexSize);
    if (this.fsyncEachChunk) fsyncSync(seg.indexFd);
    seg.summary.dataBytes += bytes.length;
    seg.indexSize += entry.length;
    addChunk(seg.summary, fields);
    this.chunksWritten++;
    this.bytesWritten += bytes.length;
  }

  private roll(): void {
    const old = this.seg;
    if (this.durable) {
      fsyncSync(old.dataFd);
      fsyncSync(old.indexFd);
    }
    closeSync(old.dataFd);
    closeSync(old.indexFd);
    old.summary.sealed = true;
    this.seg = this.create(old.summary.n + 1);
    writeManifest(this.dir, this.segments, this.durable);
  }

  private paths(n: number): { data: string; index: string } {
    const base = join(this.dir, segmentBaseName(n));
    return { data: `${base}.pmdr`, index: `${base}.pmdi` };
  }

  private create(n: number): SegmentState {
    const { data, index } = this.paths(n);
    const header = encodeSegmentHeader({ format: STORE_FORMAT, v: STORE_VERSION, segment: n });
    const dataFd = openSync(data, 'wx');
    writeAll(dataFd, header, 0);
    const indexFd = openSync(index, 'w');
    const ih = encodeIndexHeader();
    writeAll(indexFd, ih, 0);
    const summary = summaryOf(n, [], header.length, false);
    this.segments.push(summary);
    return { summary, dataFd, indexFd, indexSize: ih.length, day: undefined };
  }

  private reopen(summary: MutableSummary): SegmentState {
    const { data, index } = this.paths(summary.n);
    summary.sealed = false;
    const dataFd = openSync(data, 'r+');
    const indexFd = openSync(index, 'r+');
    return {
      summary,
      dataFd,
      indexFd,
      indexSize: fstatSync(indexFd).size,
      day: summary.maxLt === undefined ? undefined : Math.floor(summary.maxLt / DAY_MS),
    };
  }

  /** Lists segment files, trusts sealed ones that check out, recovers the others. */
  private loadSegments(recovery: RecoveryAction[]): MutableSummary[] {
    const manifest = readManifest(this.dir);
    const known = new Map((manifest?.segments ?? []).map((s) => [s.n, s]));
    const numbers = readdirSync(this.dir)
      .map((f) => SEGMENT_FILE_RE.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const out: MutableSummary[] = [];
    numbers.forEach((n, k) => {
      const isLast = k === numbers.length - 1;
      const { data, index } = this.paths(n);
      const size = fstatSize(data);
      const m = known.get(n);
      let cause: string;
      if (!m) cause = 'segment not in manifest';
      else if (!m.sealed) cause = 'segment not sealed (writer did not close)';
      else if (m.dataBytes !== size) cause = `size ${size} differs from manifest ${m.dataBytes}`;
      else {
        const scan = scanSegmentData(data, n, { verify: false, start: size });
        const idx = readSegmentIndex(index, n, scan.headerLength, size);
        const end = idx.chunks.length ? idx.chunks[idx.chunks.length - 1]! : undefined;
        const covered = end ? end.offset + end.headerLen + end.payloadLen : scan.headerLength;
        if (scan.headerLength > 0 && covered === size && idx.stopReason === undefined) {
          out.push(summaryOf(n, idx.chunks, size, true));
          return;
        }
        cause = idx.stopReason ?? 'index does not cover the data file';
      }
      out.push(this.recover(n, cause, isLast, recovery));
    });
    return out;
  }

  private recover(n: number, cause: string, isLast: boolean, recovery: RecoveryAction[]): MutableSummary {
    const { data, index } = this.paths(n);
    const scan = scanSegmentData(data, n, { verify: true });
    if (scan.headerLength === 0) {
      // The file header itself is torn: only possible for a segment created just before a crash.
      if (!isLast || scan.fileSize > 4096) throw new StoreCorrupted(data, 0, scan.stopReason ?? 'unreadable segment header');
      unlinkSync(data);
      if (existsSync(index)) unlinkSync(index);
      const header = encodeSegmentHeader({ format: STORE_FORMAT, v: STORE_VERSION, segment: n });
      writeFileSync(data, header);
      writeFileSync(index, encodeIndexHeader());
      recovery.push({
        segment: n,
        file: data,
        cause,
        reason: scan.stopReason,
        truncatedBytes: scan.fileSize,
        keptChunks: 0,
        keptRecords: 0,
        indexRebuilt: true,
      });
      return summaryOf(n, [], header.length, false);
    }
    if (scan.stopReason !== undefined) {
      // A torn write leaves garbage only at the end. An index entry that points beyond the bad spot
      // at a chunk that still verifies means the damage is in the middle: refuse to cut it away.
      const idx = readSegmentIndex(index, n, scan.headerLength, scan.fileSize);
      const later = idx.chunks.find((c) => c.offset > scan.validEnd);
      if (later && scanSegmentData(data, n, { verify: true, start: later.offset }).chunks.length > 0)
        throw new StoreCorrupted(data, scan.validEnd, `${scan.stopReason}; later chunks are intact, so this is not a torn write`);
    }
    const fd = openSync(data, 'r+');
    try {
      if (scan.validEnd < scan.fileSize) {
        ftruncateSync(fd, scan.validEnd);
        if (this.durable) fsyncSync(fd);
      }
    } finally {
      closeSync(fd);
    }
    // The index is derived data: rebuild it whole from the verified chunk headers.
    const parts: Buffer[] = [encodeIndexHeader()];
    const hdrSrc = openSync(data, 'r');
    try {
      for (const c of scan.chunks) {
        parts.push(encodeIndexEntry(c.offset, readAt(hdrSrc, c.offset, c.headerLen)));
      }
    } finally {
      closeSync(hdrSrc);
    }
    const tmp = `${index}.tmp`;
    writeFileSync(tmp, Buffer.concat(parts));
    if (this.durable) {
      const tfd = openSync(tmp, 'r+');
      fsyncSync(tfd);
      closeSync(tfd);
    }
    renameSync(tmp, index);
    let records = 0;
    for (const c of scan.chunks) if (c.stream !== 'meta') records += c.count;
    recovery.push({
      segment: n,
      file: data,
      cause,
      ...(scan.stopReason === undefined ? {} : { reason: scan.stopReason }),
      truncatedBytes: scan.fileSize - scan.validEnd,
      keptChunks: scan.chunks.length,
      keptRecords: records,
      indexRebuilt: true,
    });
    return summaryOf(n, scan.chunks, scan.validEnd, false);
  }

  private takeLock(): void {
    const key = resolve(this.dir);
    if (LIVE_DIRS.has(key)) throw new StoreLocked(this.dir, process.pid);
    const path = join(this.dir, LOCK_FILE);
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      LIVE_DIRS.add(key);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = Number(readFileSync(path, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid)) throw new StoreLocked(this.dir, pid);
    // A stale lock: its writer died (the crash recovery below is exactly for that case).
    writeFileSync(path, String(process.pid));
    LIVE_DIRS.add(key);
  }

  private releaseLock(): void {
    LIVE_DIRS.delete(resolve(this.dir));
    const path = join(this.dir, LOCK_FILE);
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function positive(v: number, field: string): number {
  if (!(v > 0) || !Number.isFinite(v)) throw new ValidationError(field, 'a positive number', v);
  return v;
}

function fstatSize(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, b: Uint8Array, position: number): void {
  let done = 0;
  while (done < b.length) done += writeSync(fd, b, done, b.length - done, position + done);
}
