/**
 * `manifest.json` of a record store: a small, human-readable summary (segments, their time and
 * sequence ranges, whether each was sealed by a clean close). It is a CACHE written atomically
 * (temp file + rename); the segment files are the truth, so a missing or stale manifest is rebuilt
 * from them and never causes data loss.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { STORE_FORMAT, STORE_VERSION } from './chunk-format.js';

export const MANIFEST_FILE = 'manifest.json';

export interface SegmentSummary {
  readonly n: number;
  readonly file: string;
  /** Closed cleanly: its data file is exactly `dataBytes` long and its index is complete. */
  readonly sealed: boolean;
  readonly dataBytes: number;
  readonly chunks: number;
  readonly records: number;
  /** Ranges over the segment's data chunks; absent while it holds none. */
  readonly firstSeq?: number;
  readonly lastSeq?: number;
  readonly minEt?: number;
  readonly maxEt?: number;
  readonly minLt?: number;
  readonly maxLt?: number;
}

export interface StoreManifest {
  readonly format: typeof STORE_FORMAT;
  readonly v: number;
  readonly segments: readonly SegmentSummary[];
}

export function readManifest(dir: string): StoreManifest | undefined {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const m = JSON.parse(readFileSync(path, 'utf8')) as StoreManifest;
    return m.format === STORE_FORMAT && Array.isArray(m.segments) ? m : undefined;
  } catch {
    return undefined;
  }
}

export function writeManifest(dir: string, segments: readonly SegmentSummary[], durable: boolean): void {
  const m: StoreManifest = { format: STORE_FORMAT, v: STORE_VERSION, segments };
  const tmp = join(dir, `${MANIFEST_FILE}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, `${JSON.stringify(m, null, 1)}\n`);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, MANIFEST_FILE));
}
