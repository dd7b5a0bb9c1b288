/**
 * Byte layout of segment files, chunk headers and index entries (all little-endian).
 *
 * Segment data file  `seg-NNNNNN.pmdr`:
 *   file header   "PMDR" · u16 version · u16 0 · u32 n · JSON (n bytes) · u32 crc32(all before)
 *   chunk*        header · payload
 * Chunk header (80 bytes + symbol):
 *   0 "PMDC" · 4 u16 headerLen · 6 u8 codec · 7 u8 stream · 8 u8 market · 9 u8 0 · 10 u16 symbolLen ·
 *   12 u32 count · 16 u32 payloadLen · 20 u32 rawLen · 24 u32 crc32(payload) · 28 i64 firstSeq ·
 *   36 i64 lastSeq · 44 i64 minEt · 52 i64 maxEt · 60 i64 minLt · 68 i64 maxLt · 76 symbol (UTF-8) ·
 *   u32 crc32(header bytes before it)
 * Segment index file `seg-NNNNNN.pmdi`: "PMDI" · u16 version · u16 0, then per chunk: i64 offset of
 *   the chunk in the data file · a byte copy of its header. The index is DERIVED: the data file alone
 *   rebuilds it by walking headers, which is how recovery and a lost index are handled.
 *
 * The header has its own crc so a scan can trust payloadLen before reading the payload, and both
 * crcs are checked before anything is decompressed.
 */
import { brotliCompressSync, brotliDecompressSync, constants as zc, deflateRawSync, inflateRawSync } from 'node:zlib';
import * as zlib from 'node:zlib';
import { RECORD_STREAMS, type RecordMarket, type RecordStream } from '../record/record.js';

export const STORE_FORMAT = 'perpetua.record-store';
export const STORE_VERSION = 1;
export const DATA_MAGIC = 0x52444d50; // "PMDR"
export const CHUNK_MAGIC = 0x43444d50; // "PMDC"
export const INDEX_MAGIC = 0x49444d50; // "PMDI"
export const INDEX_HEADER_BYTES = 8;
export const CHUNK_FIXED_BYTES = 76;

export type ChunkCodec = 'none' | 'deflate' | 'brotli';
const CODEC_IDS: Readonly<Record<ChunkCodec, number>> = { none: 0, deflate: 1, brotli: 2 };
const CODEC_NAMES: readonly ChunkCodec[] = ['none', 'deflate', 'brotli'];

export type ChunkStream = RecordStream | 'meta';
const META_CODE = 255;
const MARKET_CODES: Readonly<Record<RecordMarket, number>> = { spot: 0, contract: 1 };
const MARKETS: readonly RecordMarket[] = ['spot', 'contract'];
const NO_MARKET = 255;

/** Everything the index knows about a chunk, without reading its payload. */
export interface ChunkInfo {
  /** Segment number (file `seg-NNNNNN`). */
  readonly segment: number;
  /** Byte offset of the chunk header in the data file. */
  readonly offset: number;
  readonly headerLen: number;
  readonly payloadLen: number;
  readonly rawLen: number;
  readonly payloadCrc: number;
  readonly codec: ChunkCodec;
  readonly stream: ChunkStream;
  /** undefined for meta chunks. */
  readonly market: RecordMarket | undefined;
  readonly symbol: string;
  readonly count: number;
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly minEt: number;
  readonly maxEt: number;
  readonly minLt: number;
  readonly maxLt: number;
}

export type ChunkHeaderFields = Omit<ChunkInfo, 'segment' | 'offset' | 'headerLen'>;

const crcTable = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** node:zlib's crc32 (Node ≥ 20.15); a table fallback keeps older 20.x working. */
const nativeCrc = (zlib as unknown as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

export function crc32(data: Uint8Array): number {
  if (nativeCrc) return nativeCrc(data) >>> 0;
  let c = -1;
  for (let i = 0; i < data.length; i++) c = crcTable[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

export function compress(codec: ChunkCodec, raw: Uint8Array, level: number | undefined): Uint8Array {
  switch (codec) {
    case 'none':
      return raw;
    case 'deflate':
      return deflateRawSync(raw, { level: level ?? 6 });
    case 'brotli':
      return brotliCompressSync(raw, {
        params: {
          [zc.BROTLI_PARAM_QUALITY]: level ?? 5,
          [zc.BROTLI_PARAM_SIZE_HINT]: raw.length,
          [zc.BROTLI_PARAM_MODE]: zc.BROTLI_MODE_GENERIC,
        },
      });
  }
}

export function decompress(codec: ChunkCodec, payload: Uint8Array, rawLen: number): Uint8Array {
  switch (codec) {
    case 'none':
      return payload;
    case 'deflate':
      return inflateRawSync(payload, { chunkSize: Math.max(1024, rawLen) });
    case 'brotli':
      return brotliDecompressSync(payload, { chunkSize: Math.max(1024, rawLen) });
  }
}

const TEXT = new TextEncoder();
const UTF8 = new TextDecoder();

export function streamCode(s: ChunkStream): number {
  if (s === 'meta') return META_CODE;
  const k = RECORD_STREAMS.indexOf(s);
  if (k < 0) throw new RangeError(`unknown stream ${s}`);
  return k;
}

/** Header bytes of a chunk (crc included). */
export function encodeChunkHeader(h: ChunkHeaderFields): Buffer {
  const sym = TEXT.encode(h.symbol);
  if (sym.length > 0xffff) throw new RangeError('instrument symbol longer than 65535 bytes');
  const len = CHUNK_FIXED_BYTES + sym.length + 4;
  const b = Buffer.alloc(len);
  b.writeUInt32LE(CHUNK_MAGIC, 0);
  b.writeUInt16LE(len, 4);
  b.writeUInt8(CODEC_IDS[h.codec], 6);
  b.writeUInt8(streamCode(h.stream), 7);
  b.writeUInt8(h.market === undefined ? NO_MARKET : MARKET_CODES[h.market], 8);
  b.writeUInt16LE(sym.length, 10);
  b.writeUInt32LE(h.count, 12);
  b.writeUInt32LE(h.payloadLen, 16);
  b.writeUInt32LE(h.rawLen, 20);
  b.writeUInt32LE(h.payloadCrc, 24);
  b.writeBigInt64LE(BigInt(h.firstSeq), 28);
  b.writeBigInt64LE(BigInt(h.lastSeq), 36);
  b.writeBigInt64LE(BigInt(h.minEt), 44);
  b.writeBigInt64LE(BigInt(h.maxEt), 52);
  b.writeBigInt64LE(BigInt(h.minLt), 60);
  b.writeBigInt64LE(BigInt(h.maxLt), 68);
  b.set(sym, CHUNK_FIXED_BYTES);
  b.writeUInt32LE(crc32(b.subarray(0, len - 4)), len - 4);
  return b;
}

/** Why bytes at an offset are not a chunk header; a string reason rather than a throw (scans expect it). */
export type HeaderResult = { readonly ok: true; readonly info: ChunkInfo } | { readonly ok: false; readonly reason: string };

/** Parses a chunk header from `b` (which must start at the header); `available` = bytes in b. */
export function parseChunkHeader(b: Buffer, segment: number, offset: number): HeaderResult {
  if (b.length < CHUNK_FIXED_BYTES + 4) return { ok: false, reason: 'header cut short' };
  if (b.readUInt32LE(0) !== CHUNK_MAGIC) return { ok: false, reason: 'no chunk magic' };
  const len = b.readUInt16LE(4);
  const symLen = b.readUInt16LE(10);
  if (len !== CHUNK_FIXED_BYTES + symLen + 4) return { ok: false, reason: 'header length mismatch' };
  if (b.length < len) return { ok: false, reason: 'header cut short' };
  if (crc32(b.subarray(0, len - 4)) !== b.readUInt32LE(len - 4)) return { ok: false, reason: 'header crc mismatch' };
  const codec = CODEC_NAMES[b.readUInt8(6)];
  const sc = b.readUInt8(7);
  const stream: ChunkStream | undefined = sc === META_CODE ? 'meta' : RECORD_STREAMS[sc];
  const mc = b.readUInt8(8);
  const market = mc === NO_MARKET ? undefined : MARKETS[mc];
  if (!codec || !stream || (mc !== NO_MARKET && !market)) return { ok: false, reason: 'unknown codec, stream or market code' };
  return {
    ok: true,
    info: {
      segment,
      offset,
      headerLen: len,
      codec,
      stream,
      market,
      symbol: UTF8.decode(b.subarray(CHUNK_FIXED_BYTES, CHUNK_FIXED_BYTES + symLen)),
      count: b.readUInt32LE(12),
      payloadLen: b.readUInt32LE(16),
      rawLen: b.readUInt32LE(20),
      payloadCrc: b.readUInt32LE(24),
      firstSeq: Number(b.readBigInt64LE(28)),
      lastSeq: Number(b.readBigInt64LE(36)),
      minEt: Number(b.readBigInt64LE(44)),
      maxEt: Number(b.readBigInt64LE(52)),
      minLt: Number(b.readBigInt64LE(60)),
      maxLt: Number(b.readBigInt64LE(68)),
    },
  };
}

export interface SegmentHeader {
  readonly format: typeof STORE_FORMAT;
  readonly v: number;
  readonly segment: number;
}

export function encodeSegmentHeader(h: SegmentHeader): Buffer {
  const json = TEXT.encode(JSON.stringify(h));
  const b = Buffer.alloc(12 + json.length + 4);
  b.writeUInt32LE(DATA_MAGIC, 0);
  b.writeUInt16LE(STORE_VERSION, 4);
  b.writeUInt32LE(json.length, 8);
  b.set(json, 12);
  b.writeUInt32LE(crc32(b.subarray(0, 12 + json.length)), 12 + json.length);
  return b;
}

/** Returns the header and its byte length, or a reason. */
export function parseSegmentHeader(b: Buffer): { ok: true; header: SegmentHeader; length: number } | { ok: false; reason: string } {
  if (b.length < 16) return { ok: false, reason: 'file header cut short' };
  if (b.readUInt32LE(0) !== DATA_MAGIC) return { ok: false, reason: 'not a perpetua record segment (bad magic)' };
  const version = b.readUInt16LE(4);
  if (version > STORE_VERSION) return { ok: false, reason: `segment version ${version} is newer than this reader (${STORE_VERSION})` };
  const n = b.readUInt32LE(8);
  if (b.length < 12 + n + 4) return { ok: false, reason: 'file header cut short' };
  if (crc32(b.subarray(0, 12 + n)) !== b.readUInt32LE(12 + n)) return { ok: false, reason: 'file header crc mismatch' };
  let header: SegmentHeader;
  try {
    header = JSON.parse(UTF8.decode(b.subarray(12, 12 + n))) as SegmentHeader;
  } catch {
    return { ok: false, reason: 'file header JSON unreadable' };
  }
  return { ok: true, header, length: 12 + n + 4 };
}

export function encodeIndexHeader(): Buffer {
  const b = Buffer.alloc(INDEX_HEADER_BYTES);
  b.writeUInt32LE(INDEX_MAGIC, 0);
  b.writeUInt16LE(STORE_VERSION, 4);
  return b;
}

export function encodeIndexEntry(offset: number, header: Buffer): Buffer {
  const b = Buffer.alloc(8 + header.length);
  b.writeBigInt64LE(BigInt(offset), 0);
  header.copy(b, 8);
  return b;
}

export const segmentBaseName = (n: number): string => `seg-${String(n).padStart(6, '0')}`;
export const SEGMENT_FILE_RE = /^seg-(\d{6,})\.pmdr$/;
