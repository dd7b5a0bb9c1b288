/**
 * The recorder's one-line progress: elapsed time, records written per stream, bytes on disk and the
 * problems worth a glance (failed polls, possible trade gaps, refused records).
 *
 *   record 00:12:05 | 725 snapshots | depth.snapshot 1450 trade 9312 kline 24 ticker 145 fair 725 index 725 funding 145 | 1.9 MB | poll failures 2
 */
import type { RecordStream } from '../record/record.js';
import type { RecorderStats } from './recorder.js';
import { RECORDED_STREAMS } from './snapshot-record-mapper.js';

export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export function progressLine(stats: RecorderStats, elapsedMs: number): string {
  const streams = [...RECORDED_STREAMS, ...(Object.keys(stats.byStream) as RecordStream[]).filter((s) => !RECORDED_STREAMS.includes(s))]
    .filter((s) => (stats.byStream[s] ?? 0) > 0)
    .map((s) => `${s} ${stats.byStream[s]}`);
  const problems: string[] = [];
  if (stats.pollFailures) problems.push(`poll failures ${stats.pollFailures}`);
  if (stats.tradeGaps) problems.push(`possible trade gaps ${stats.tradeGaps}`);
  if (stats.rejected) problems.push(`refused ${stats.rejected}`);
  return [
    `record ${formatElapsed(elapsedMs)}`,
    `${stats.snapshots} snapshots`,
    streams.length ? streams.join(' ') : 'no records yet',
    formatBytes(stats.bytes),
    ...problems,
  ].join(' | ');
}
