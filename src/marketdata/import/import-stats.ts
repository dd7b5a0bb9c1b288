/**
 * What an import saw, for the command's summary and for tests: per-file line and record counts,
 * named counters (duplicates, gaps, filtered trades…), warnings (capped, with a total), bad rows
 * skipped, and the depth sequence checks per instrument.
 */
import type { ValidationError } from '../../core/errors.js';
import type { DataRecord, RecordStream } from '../record/record.js';

export const MAX_WARNINGS = 100;

export interface FileStats {
  readonly file: string;
  lines: number;
  records: number;
  badRows: number;
}

export interface DepthGap {
  readonly file: string;
  readonly line: number;
  /** pu (futures) or U (spot) the chain expected. */
  readonly expected: number;
  readonly got: number;
}

export interface DepthSync {
  readonly file: string;
  /** Line of the snapshot. */
  readonly snapshotLine: number;
  readonly lastUpdateId: number;
  /** First applicable diff (Binance's procedure): where, and its ids. */
  readonly diff?: { readonly file: string; readonly line: number; readonly U: number; readonly u: number };
  /** The diff brackets the snapshot (spot U ≤ id+1 ≤ u, futures U ≤ id ≤ u). */
  readonly bracketed?: boolean;
  /** The snapshot was moved before diffs that had been received before it (its buffered diffs). */
  readonly movedBefore: number;
}

export interface DepthStats {
  snapshots: number;
  diffs: number;
  /** Diffs before any snapshot: nothing to apply them to. */
  unsynced: number;
  /** Diffs already contained in the snapshot (dropped by the procedure). */
  stale: number;
  applied: number;
  gapCount: number;
  readonly gaps: DepthGap[];
  readonly syncs: DepthSync[];
}

export class ImportStats {
  readonly files: FileStats[] = [];
  readonly counters: Record<string, number> = {};
  readonly warnings: string[] = [];
  warningCount = 0;
  badRows = 0;
  records = 0;
  readonly byStream: Partial<Record<RecordStream, number>> = {};
  readonly depth: Record<string, DepthStats> = {};
  firstEt: number | undefined;
  lastEt: number | undefined;

  file(path: string): FileStats {
    const f: FileStats = { file: path, lines: 0, records: 0, badRows: 0 };
    this.files.push(f);
    return f;
  }

  count(name: string, n = 1): void {
    this.counters[name] = (this.counters[name] ?? 0) + n;
  }

  warn(message: string): void {
    this.warningCount++;
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(message);
  }

  /** A bad row that the 'skip' policy let through. */
  skipped(file: FileStats, e: ValidationError): void {
    this.badRows++;
    file.badRows++;
    this.warn(e.message);
  }

  record(r: DataRecord): void {
    this.records++;
    this.byStream[r.s] = (this.byStream[r.s] ?? 0) + 1;
    if (this.firstEt === undefined || r.et < this.firstEt) this.firstEt = r.et;
    if (this.lastEt === undefined || r.et > this.lastEt) this.lastEt = r.et;
  }

  depthOf(instrument: string): DepthStats {
    return (this.depth[instrument] ??= { snapshots: 0, diffs: 0, unsynced: 0, stale: 0, applied: 0, gapCount: 0, gaps: [], syncs: [] });
  }
}

/** 'fail' (default): the first bad row stops the import. 'skip': bad rows are counted and warned. */
export type BadRowPolicy = 'fail' | 'skip';

/** Shared by the importers: what to do with a bad row. */
export function handleBadRow(policy: BadRowPolicy, stats: ImportStats, file: FileStats, e: unknown): void {
  if (policy === 'skip' && e instanceof Error && e.name === 'ValidationError') {
    stats.skipped(file, e as ValidationError);
    return;
  }
  throw e;
}
