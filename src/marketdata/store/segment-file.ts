/**
 * Reading a segment's chunk list: from its index file (fast, trusted only as far as it is contiguous
 * and inside the data file) and by walking chunk headers in the data file (recovery, lost index,
 * chunks written after the last index entry).
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import {
  CHUNK_FIXED_BYTES,
  INDEX_HEADER_BYTES,
  INDEX_MAGIC,
  crc32,
  parseChunkHeader,
  parseSegmentHeader,
  type ChunkInfo,
} from './chunk-format.js';

export interface SegmentScan {
  readonly chunks: ChunkInfo[];
  /** Length of the valid prefix: file header plus whole, verified chunks. */
  readonly validEnd: number;
  readonly fileSize: number;
  /** Length of the segment file header, or 0 when it is unreadable. */
  readonly headerLength: number;
  /** Why the walk stopped before the end of the file. */
  readonly stopReason?: string;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const b = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, b, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? b : b.subarray(0, got);
}

/**
 * Walks chunk headers from `start` (default: right after the file header). With `verify`, each
 * payload is read and its crc checked, so the result is a prefix of chunks that decode.
 */
export function scanSegmentData(
  path: string,
  segment: number,
  opts: { verify: boolean; start?: number; known?: ChunkInfo[] },
): SegmentScan {
  const fd = openSync(path, 'r');
  try {
    const fileSize = fstatSync(fd).size;
    const head = parseSegmentHeader(readAt(fd, 0, Math.min(fileSize, 64 * 1024)));
    if (!head.ok) return { chunks: [], validEnd: 0, fileSize, headerLength: 0, stopReason: head.reason };
    const chunks = opts.known ? [...opts.known] : [];
    let pos = opts.start ?? head.length;
    let stopReason: string | undefined;
    while (pos < fileSize) {
      const fixed = readAt(fd, pos, CHUNK_FIXED_BYTES + 4);
      if (fixed.length < CHUNK_FIXED_BYTES + 4) {
        stopReason = `chunk header cut short at byte ${pos}`;
        break;
      }
      const symLen = fixed.readUInt16LE(10);
      const hb = symLen ? readAt(fd, pos, CHUNK_FIXED_BYTES + symLen + 4) : fixed;
      const parsed = parseChunkHeader(hb, segment, pos);
      if (!parsed.ok) {
        stopReason = `${parsed.reason} at byte ${pos}`;
        break;
      }
      const info = parsed.info;
      const end = pos + info.headerLen + info.payloadLen;
      if (end > fileSize) {
        stopReason = `chunk payload cut short at byte ${pos} (needs ${end - fileSize} more bytes)`;
        break;
      }
      if (opts.verify && crc32(readAt(fd, pos + info.headerLen, info.payloadLen)) !== info.payloadCrc) {
        stopReason = `chunk payload crc mismatch at byte ${pos}`;
        break;
      }
      chunks.push(info);
      pos = end;
    }
    return { chunks, validEnd: pos, fileSize, headerLength: head.length, ...(stopReason === undefined ? {} : { stopReason }) };
  } finally {
    closeSync(fd);
  }
}

export interface IndexRead {
  /** Entries that are well formed, contiguous from the first chunk and inside the data file. */
  readonly chunks: ChunkInfo[];
  /** Bytes of the index file those entries cover. */
  readonly validBytes: number;
  /** Why reading stopped early (torn entry, entry pointing past the data), if it did. */
  readonly stopReason?: string;
}

export function readSegmentIndex(path: string, segment: number, dataHeaderLength: number, dataSize: number): IndexRead {
  if (!existsSync(path)) return { chunks: [], validBytes: 0, stopReason: 'index file missing' };
  const b = readFileSync(path);
  if (b.length < INDEX_HEADER_BYTES || b.readUInt32LE(0) !== INDEX_MAGIC)
    return { chunks: [], validBytes: 0, stopReason: 'index header unreadable' };
  const chunks: ChunkInfo[] = [];
  let pos = INDEX_HEADER_BYTES;
  let expected = dataHeaderLength;
  let stopReason: string | undefined;
  while (pos < b.length) {
    if (b.length - pos < 8 + CHUNK_FIXED_BYTES + 4) {
      stopReason = 'index entry cut short';
      break;
    }
    const offset = Number(b.readBigInt64LE(pos));
    const parsed = parseChunkHeader(b.subarray(pos + 8), segment, offset);
    if (!parsed.ok) {
      stopReason = `index entry ${chunks.length}: ${parsed.reason}`;
      break;
    }
    const info = parsed.info;
    if (offset !== expected) {
      stopReason = `index entry ${chunks.length} points at byte ${offset}, expected ${expected}`;
      break;
    }
    const end = offset + info.headerLen + info.payloadLen;
    if (end > dataSize) {
      stopReason = `index entry ${chunks.length} ends past the data file`;
      break;
    }
    chunks.push(info);
    expected = end;
    pos += 8 + info.headerLen;
  }
  return { chunks, validBytes: pos, ...(stopReason === undefined ? {} : { stopReason }) };
}

export { readAt };
