/**
 * `perpetua orders | fills | positions --journal <file> [--format table|csv|json]`: what a run did,
 * read from its SQLite journal (the same file a restart restores from; opening it while a bot runs is
 * safe, the journal is in WAL mode). Times are ISO UTC; amounts are printed as the journal holds them
 * (exact decimals, no float rounding).
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';
import type { Decimal } from '../../core/decimal.js';
import { SqliteJournal } from '../../persistence/sqlite-journal.js';

export const JOURNAL_VIEWS = ['orders', 'fills', 'positions'] as const;
export type JournalView = (typeof JOURNAL_VIEWS)[number];
export const OUTPUT_FORMATS = ['table', 'csv', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

type Row = Record<string, string>;

const iso = (t: number | undefined): string => (t === undefined || !Number.isFinite(t) ? '' : new Date(t).toISOString());
const dec = (d: Decimal | undefined): string => (d === undefined ? '' : d.toFixed());
const feesText = (fees: Readonly<Record<string, Decimal>>): string =>
  Object.entries(fees)
    .filter(([, v]) => !v.isZero())
    .map(([a, v]) => `${v.toFixed()} ${a}`)
    .join(' + ');

/** The rows of one view, oldest first; `strategy` / `symbol` keep only theirs. */
export function journalRows(path: string, view: JournalView, filter: { strategy?: string; symbol?: string } = {}): Row[] {
  if (!existsSync(path))
    throw new ConfigError('--journal', `${path} does not exist (a run writes its journal at journal.path, or at --journal)`);
  const journal = new SqliteJournal({ path });
  try {
    const keep = (r: { strategyId?: string; symbol: string }): boolean =>
      (filter.strategy === undefined || r.strategyId === filter.strategy) && (filter.symbol === undefined || r.symbol === filter.symbol);
    switch (view) {
      case 'orders':
        return journal
          .orders()
          .filter(keep)
          .map((o) => ({
            created: iso(o.createdAt),
            strategy: o.strategyId,
            symbol: o.symbol,
            side: o.side,
            type: o.type,
            price: dec(o.price),
            quantity: dec(o.quantity ?? o.quoteQuantity),
            filled: dec(o.filledQty),
            avgPrice: dec(o.avgFillPrice),
            status: o.status,
            fees: feesText(o.fees),
            clientOrderId: o.clientOrderId,
          }));
      case 'fills':
        return journal
          .fills()
          .filter(keep)
          .map((f) => ({
            time: iso(f.time),
            strategy: f.strategyId ?? '',
            symbol: f.symbol,
            side: f.side,
            price: dec(f.price),
            quantity: dec(f.quantity),
            fee: dec(f.fee),
            feeAsset: f.feeAsset,
            liquidity: f.liquidity,
            tradeId: f.tradeId,
            clientOrderId: f.clientOrderId ?? '',
          }));
      case 'positions':
        return journal
          .positions()
          .filter((p) => filter.symbol === undefined || p.symbol === filter.symbol)
          .map((p) => ({
            updated: iso(p.updatedAt),
            symbol: p.symbol,
            leg: p.leg,
            quantity: dec(p.quantity),
            entryPrice: dec(p.entryPrice),
            realizedPnl: dec(p.realizedPnl),
            fees: dec(p.fees),
            funding: dec(p.funding),
            settleAsset: p.settleAsset,
          }));
    }
  } finally {
    journal.close();
  }
}

const csvCell = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function renderRows(rows: readonly Row[], format: OutputFormat, emptyNote: string): string {
  if (format === 'json') return `${JSON.stringify(rows, null, 2)}\n`;
  if (rows.length === 0) return format === 'csv' ? '' : `${emptyNote}\n`;
  const cols = Object.keys(rows[0]!);
  if (format === 'csv') return `${[cols.join(','), ...rows.map((r) => cols.map((c) => csvCell(r[c] ?? '')).join(','))].join('\n')}\n`;
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((v, i) => v.padEnd(width[i]!))
      .join('  ')
      .trimEnd();
  return `${[line(cols), line(width.map((w) => '-'.repeat(w))), ...rows.map((r) => line(cols.map((c) => r[c] ?? '')))].join('\n')}\n`;
}
