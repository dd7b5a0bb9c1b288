/**
 * The analysis export (GET …/asset/analysis/export): the daily figures of a period as a real file,
 * Excel (fileType 1, .xlsx) or PDF (fileType 2). Days are UTC days; the timezone-login header only
 * labels the generation time (the venue's day boundary stays 00:00 UTC, like its snapshots).
 */
import type { Decimal } from '../../core/decimal.js';
import type { PeriodFigures } from './pnl-analysis.js';
import { pdfDocument, PDF_CONTENT_TYPE } from './pdf-writer.js';
import { isoDay } from './utc-calendar.js';
import { xlsxWorkbook, XLSX_CONTENT_TYPE, type Cell } from './xlsx-writer.js';

export type ExportFileType = 1 | 2;

export interface ExportFile {
  readonly fileName: string;
  readonly fileType: ExportFileType;
  readonly contentType: string;
  readonly bytes: Buffer;
}

export interface ExportMeta {
  readonly uid: string;
  readonly generatedAt: number;
  /** Minutes east of UTC (from timezone-login). */
  readonly utcOffsetMinutes: number;
  readonly timezoneLabel: string;
  readonly symbol?: string | undefined;
  /** Human name of the currency filter (All, USDT-margined…). */
  readonly scope: string;
  readonly includeUnrealised: boolean;
  readonly totalEquity: Decimal;
}

/**
 * `UTC+8`, `GMT+08:00`, `+8`, `UTC-5:30`, `UTC` → minutes east of UTC; undefined when unreadable or
 * outside −12:00…+14:00.
 */
export function parseUtcOffset(text: string): number | undefined {
  const m = /^\s*(?:UTC|GMT)?\s*(?:([+-])\s*(\d{1,2})(?::?(\d{2}))?)?\s*$/i.exec(text);
  if (!m || text.trim() === '') return undefined;
  if (m[1] === undefined) return /^(utc|gmt)$/i.test(text.trim()) ? 0 : undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  const signed = m[1] === '-' ? -minutes : minutes;
  return signed < -12 * 60 || signed > 14 * 60 || Number(m[3] ?? 0) >= 60 ? undefined : signed;
}

function localTime(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

const HEADER = ['Date (UTC)', 'Daily PnL', 'Daily PnL rate', 'Cumulative PnL', 'Cumulative PnL rate', 'Equity', 'Index change'];

function summaryRows(p: PeriodFigures, meta: ExportMeta): Cell[][] {
  return [
    ['Profit and loss analysis', null],
    ['UID', meta.uid],
    ['Period (UTC days)', `${isoDay(p.from)} to ${isoDay(p.to)}`],
    ['Contracts', meta.symbol ?? 'all'],
    ['Margin', meta.scope],
    ['Unrealised PnL included', meta.includeUnrealised ? 'yes' : 'no'],
    ['Total PnL', p.totalPnl],
    ['Win rate', p.winRate],
    ['Total equity', meta.totalEquity],
    ['Generated at', `${localTime(meta.generatedAt, meta.utcOffsetMinutes)} (${meta.timezoneLabel})`],
  ];
}

function dailyRows(p: PeriodFigures): Cell[][] {
  return p.days.map((d, i) => [isoDay(d.day), d.pnl, d.rate, p.accumPnl[i]!, p.accumRate[i]!, d.equity, d.indexChange]);
}

export function exportFile(p: PeriodFigures, meta: ExportMeta, fileType: ExportFileType): ExportFile {
  const stem = `pnl-analysis-${meta.uid}-${isoDay(p.from)}-${isoDay(p.to)}`;
  if (fileType === 1) {
    const bytes = xlsxWorkbook(
      [
        { name: 'Summary', rows: summaryRows(p, meta), headerRows: 1 },
        { name: 'Daily', rows: [HEADER, ...dailyRows(p)], headerRows: 1 },
      ],
      meta.generatedAt,
    );
    return { fileName: `${stem}.xlsx`, fileType, contentType: XLSX_CONTENT_TYPE, bytes };
  }
  const text = (c: Cell): string => (c === null ? '' : typeof c === 'string' ? c : typeof c === 'number' ? String(c) : c.toFixed());
  const lines: string[] = [];
  for (const [k, v] of summaryRows(p, meta)) lines.push(v === null ? text(k ?? null) : `${text(k ?? null).padEnd(26)}${text(v ?? null)}`);
  lines.push('', HEADER.map((h, i) => (i === 0 ? h.padEnd(12) : h.padStart(16))).join(''));
  for (const row of dailyRows(p)) lines.push(row.map((c, i) => (i === 0 ? text(c).padEnd(12) : text(c).padStart(16))).join(''));
  const bytes = pdfDocument(lines, { title: `Profit and loss analysis ${meta.uid}`, createdAt: meta.generatedAt, fontSize: 8 });
  return { fileName: `${stem}.pdf`, fileType, contentType: PDF_CONTENT_TYPE, bytes };
}
