/**
 * What a record store holds, for people: `perpetua data list <store>` prints it, and a backtest whose
 * `from` / `to` finds nothing quotes the store's span instead of a bare "no records". Everything comes
 * from the chunk index (RecordStoreReader.summary()): listing a store decodes no record.
 */
import type { StoreSummary } from './record-store-reader.js';

export interface StoreSpan {
  /** `spot:BTCUSDT` */
  readonly instrument: string;
  readonly first: number;
  readonly last: number;
  readonly records: number;
}

/** "2025-05-20 00:00:00" (UTC, no zone suffix: every time listed is UTC). */
export function isoMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Exchange-time span and record count per instrument (all streams together). */
export function storeSpans(summary: StoreSummary): StoreSpan[] {
  return summary.instruments.map((inst) => ({
    instrument: `${inst.market}:${inst.symbol}`,
    first: Math.min(...inst.streams.map((s) => s.minEt)),
    last: Math.max(...inst.streams.map((s) => s.maxEt)),
    records: inst.streams.reduce((a, s) => a + s.records, 0),
  }));
}

/** One sentence naming the store's span per instrument, for an error about a window it does not cover. */
export function describeStoreSpan(dir: string, summary: StoreSummary, instruments?: readonly string[]): string {
  const spans = storeSpans(summary).filter((s) => !instruments || instruments.includes(s.instrument));
  if (summary.records === 0) return `${dir} holds no records`;
  if (spans.length === 0)
    return `${dir} holds no records of ${instruments!.join(', ')} (it has ${storeSpans(summary)
      .map((s) => s.instrument)
      .join(', ')})`;
  return `${dir} holds ${spans.map((s) => `${s.instrument} from ${isoMinute(s.first)} to ${isoMinute(s.last)} UTC`).join('; ')}`;
}

/** The table `perpetua data list` prints: one row per instrument and stream, then the totals. */
export function storeListingLines(dir: string, summary: StoreSummary): string[] {
  const rows = summary.instruments.flatMap((inst) =>
    inst.streams.map((s) => [`${inst.market}:${inst.symbol}`, s.stream, String(s.records), isoMinute(s.minEt), isoMinute(s.maxEt)]),
  );
  const head = ['instrument', 'stream', 'records', 'first (UTC)', 'last (UTC)'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const mib = (summary.bytes / 1024 / 1024).toFixed(1);
  return [
    `${dir}: ${summary.records} records, ${summary.instruments.length} instrument${summary.instruments.length === 1 ? '' : 's'}, ${summary.segments} segment${summary.segments === 1 ? '' : 's'}, ${mib} MiB`,
    ...(rows.length > 0 ? [line(head), ...rows.map(line)] : []),
  ];
}
