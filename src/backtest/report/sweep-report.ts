/**
 * Rendering of a parameter sweep: the ranked table (text / Markdown), sweep.json, and the HTML view
 * of the best runs, each a full report page written by the same renderer as a single backtest.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ValidationError } from '../../core/errors.js';
import { type BacktestRun, type JsonValue, canonicalJson } from './backtest-run.js';
import { escapeHtml } from './format.js';
import { METRIC_DEFS, formatMetric, metricDef } from './metric-defs.js';
import type { MetricKey, Metrics } from './metrics.js';
import { REPORT_CSS } from './report-html.js';
import { type MetricsJson, metricsToJson } from './report-json.js';
import { writeReport } from './write-report.js';

export const SWEEP_FORMAT = 'perpetua-sweep-report/1';

export interface SweepResult {
  readonly params: Readonly<Record<string, unknown>>;
  readonly metrics: Metrics;
  /** The runs behind the result (neutral first, then the band), when the caller kept them: needed
   * only for the results that get an HTML page (the best N). */
  readonly runs?: readonly BacktestRun[];
}

export interface RankedSweepResult extends SweepResult {
  /** 1-based; equal values keep distinct ranks, ordered by their params. */
  readonly rank: number;
}

export const DEFAULT_SWEEP_COLUMNS: readonly MetricKey[] = [
  'totalReturn',
  'annualisedReturn',
  'sharpe',
  'sortino',
  'calmar',
  'maxDrawdown',
  'winRate',
  'profitFactor',
  'trades',
  'fees',
];

const paramsKey = (p: Readonly<Record<string, unknown>>): string => JSON.stringify(canonicalJson(p));

/**
 * Best first by `rankBy` (descending, or ascending for metrics where lower is better: drawdown,
 * volatility, fees). Null values (undefined ratios) go last. Ties are broken by the params' canonical
 * JSON, so the order never depends on which worker finished first.
 */
export function rankSweepResults(results: readonly SweepResult[], rankBy: MetricKey = 'sharpe'): RankedSweepResult[] {
  const def = metricDef(rankBy);
  if (!def) throw new ValidationError('rankBy', `one of ${METRIC_DEFS.map((d) => d.key).join(', ')}`, String(rankBy));
  const dir = def.lowerIsBetter ? 1 : -1;
  return results
    .map((r) => ({ r, key: paramsKey(r.params), v: r.metrics[rankBy] }))
    .sort((a, b) => {
      const av = a.v === null || !Number.isFinite(a.v) ? null : a.v;
      const bv = b.v === null || !Number.isFinite(b.v) ? null : b.v;
      if (av === null && bv !== null) return 1;
      if (bv === null && av !== null) return -1;
      if (av !== null && bv !== null && av !== bv) return dir * (av - bv);
      return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    })
    .map((x, i) => ({ ...x.r, rank: i + 1 }));
}

/** Param value as a table cell: strings bare, everything else as canonical JSON. */
function paramCell(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return JSON.stringify(canonicalJson(v));
}

const paramNames = (results: readonly SweepResult[]): string[] => [...new Set(results.flatMap((r) => Object.keys(r.params)))].sort();

export interface SweepTableOptions {
  /** Metric columns after the params (rankBy is always shown). */
  readonly columns?: readonly MetricKey[];
  /** Rows to show (all when absent). */
  readonly limit?: number;
}

interface TableData {
  readonly header: string[];
  readonly numeric: boolean[];
  readonly rows: string[][];
  readonly ranked: RankedSweepResult[];
  readonly metricKeys: MetricKey[];
}

function tableData(results: readonly SweepResult[], rankBy: MetricKey, options: SweepTableOptions): TableData {
  const ranked = rankSweepResults(results, rankBy);
  const names = paramNames(results);
  const metricKeys = [rankBy, ...(options.columns ?? DEFAULT_SWEEP_COLUMNS).filter((k) => k !== rankBy)];
  const defs = metricKeys.map((k) => metricDef(k)!);
  const header = ['#', ...names, ...defs.map((d) => d.label)];
  const numeric = [true, ...names.map(() => false), ...defs.map(() => true)];
  const shown = options.limit !== undefined ? ranked.slice(0, options.limit) : ranked;
  const rows = shown.map((r) => [String(r.rank), ...names.map((n) => paramCell(r.params[n])), ...defs.map((d) => formatMetric(r.metrics[d.key], d.format))]);
  return { header, numeric, rows, ranked, metricKeys };
}

/**
 * The ranked table as aligned Markdown: readable as plain text in a terminal and rendered as a table
 * by any Markdown viewer. Pipes inside cells are escaped.
 */
export function renderSweepTable(results: readonly SweepResult[], rankBy: MetricKey = 'sharpe', options: SweepTableOptions = {}): string {
  const { header, numeric, rows } = tableData(results, rankBy, options);
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const all = [header, ...rows].map((r) => r.map(cell));
  const widths = header.map((_, c) => Math.max(3, ...all.map((r) => [...r[c]!].length)));
  const padCell = (s: string, c: number): string => {
    const fill = ' '.repeat(widths[c]! - [...s].length);
    return numeric[c] ? fill + s : s + fill;
  };
  const line = (r: string[]): string => `| ${r.map(padCell).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (numeric[c] ? `${'-'.repeat(w + 1)}:` : `:${'-'.repeat(w + 1)}`)).join('|')}|`;
  return [line(all[0]!), rule, ...all.slice(1).map(line)].join('\n') + '\n';
}

export interface SweepJsonRow {
  rank: number;
  params: JsonValue;
  metrics: MetricsJson;
  /** Relative path of the run's HTML page, when one was written. */
  report: string | null;
}

export interface SweepJson {
  format: string;
  rankBy: string;
  order: 'descending' | 'ascending';
  count: number;
  results: SweepJsonRow[];
}

export interface WriteSweepOptions extends SweepTableOptions {
  readonly rankBy?: MetricKey;
  /** How many of the best results get an HTML report page (default 5). */
  readonly bestN?: number;
  readonly title?: string;
}

export interface SweepReportPaths {
  readonly json: string;
  readonly markdown: string;
  readonly html: string;
  /** report.html of each best run, best first. */
  readonly best: readonly string[];
}

const bestDir = (rank: number): string => join('best', String(rank).padStart(2, '0'));

/**
 * Writes sweep.json (every result, ranked), sweep.md (the table), sweep.html (the table with links)
 * and best/NN/report.{json,html} for the best `bestN` results that carry their runs.
 */
export async function writeSweepReport(results: readonly SweepResult[], outDir: string, options: WriteSweepOptions = {}): Promise<SweepReportPaths> {
  const rankBy = options.rankBy ?? 'sharpe';
  const bestN = options.bestN ?? 5;
  const data = tableData(results, rankBy, options);
  const def = metricDef(rankBy)!;
  await mkdir(outDir, { recursive: true });

  const best: string[] = [];
  const reportOf = new Map<number, string>();
  for (const r of data.ranked.slice(0, bestN)) {
    if (!r.runs || r.runs.length === 0) continue;
    const dir = bestDir(r.rank);
    const paths = await writeReport(r.runs, join(outDir, dir), {
      heading: `Sweep rank #${r.rank} of ${data.ranked.length} by ${def.label}`,
      backLink: { href: '../../sweep.html', label: '← sweep results' },
    });
    best.push(paths.html);
    reportOf.set(r.rank, `${dir.split('\\').join('/')}/report.html`);
  }

  const json: SweepJson = {
    format: SWEEP_FORMAT,
    rankBy,
    order: def.lowerIsBetter ? 'ascending' : 'descending',
    count: data.ranked.length,
    results: data.ranked.map((r) => ({ rank: r.rank, params: canonicalJson(r.params), metrics: metricsToJson(r.metrics), report: reportOf.get(r.rank) ?? null })),
  };
  const title = options.title ?? 'Parameter sweep';
  const md = `# ${title}\n\nRanked by ${def.label} (${def.lowerIsBetter ? 'lower' : 'higher'} is better), ${data.ranked.length} runs.\n\n${renderSweepTable(results, rankBy, options)}`;
  const jsonPath = join(outDir, 'sweep.json');
  const mdPath = join(outDir, 'sweep.md');
  const htmlPath = join(outDir, 'sweep.html');
  await writeFile(jsonPath, `${JSON.stringify(json, null, 2)}\n`, 'utf8');
  await writeFile(mdPath, md, 'utf8');
  await writeFile(htmlPath, renderSweepHtml(title, def.label, def.lowerIsBetter === true, data, reportOf), 'utf8');
  return { json: jsonPath, markdown: mdPath, html: htmlPath, best };
}

function renderSweepHtml(title: string, rankLabel: string, lowerIsBetter: boolean, data: TableData, reportOf: ReadonlyMap<number, string>): string {
  const head = data.header.map((h, c) => `<th${data.numeric[c] ? ' class="num"' : ''}>${escapeHtml(h)}</th>`).join('');
  const body = data.rows
    .map((row, i) => {
      const rank = data.ranked[i]!.rank;
      const link = reportOf.get(rank);
      const cells = row.map((v, c) => `<td${data.numeric[c] ? ' class="num"' : ''}>${escapeHtml(v)}</td>`).join('');
      return `<tr data-rank="${rank}">${cells}<td>${link ? `<a href="${escapeHtml(link)}">report</a>` : ''}</td></tr>`;
    })
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS} td.num,th.num{text-align:right}</style>
</head>
<body>
<header><div class="kicker">Sweep</div><h1>${escapeHtml(title)}</h1><p class="sub">${data.ranked.length} runs ranked by ${escapeHtml(rankLabel)} (${lowerIsBetter ? 'lower' : 'higher'} is better) · the best have a full report page</p></header>
<main><section><div class="scroll"><table class="grid sweep"><thead><tr>${head}<th></th></tr></thead><tbody>${body}</tbody></table></div></section></main>
<footer>Every result with all its metrics is in <a href="sweep.json">sweep.json</a>.</footer>
</body>
</html>
`;
}
