/**
 * Rendering of a parameter sweep: the ranked table (text / Markdown), sweep.json, and the HTML view
 * of the best runs, each a full report page written by the same renderer as a single backtest.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ValidationError } from '../../core/errors.js';
import { type BacktestRun, type JsonValue, canonicalJson, stableNumber } from './backtest-run.js';
import { escapeHtml } from './format.js';
import { METRIC_DEFS, formatMetric, metricDef } from './metric-defs.js';
import type { MetricKey, Metrics } from './metrics.js';
import { type Constraint, type Objective, compareByObjective, violations } from '../research/objective.js';
import { REPORT_CSS } from './report-html.js';
import { type MetricsJson, metricsToJson } from './report-json.js';
import { writeReport } from './write-report.js';
import { SWEEP_CSS, constraintText, researchJson, researchLines, researchSections, type SweepResearch } from './sweep-research-html.js';

export { researchLines, type SweepResearch } from './sweep-research-html.js';

export const SWEEP_FORMAT = 'perpetua-sweep-report/1';

export interface SweepResult {
  readonly params: Readonly<Record<string, unknown>>;
  readonly metrics: Metrics;
  /** The runs behind the result (neutral first, then the band), when the caller kept them: needed
   * only for the results that get an HTML page (the best N). */
  readonly runs?: readonly BacktestRun[];
  /** Walk-forward: the objective's mean over the train windows and over the test windows. */
  readonly walkForward?: { readonly inSample: number | null; readonly outOfSample: number | null };
}

export interface RankedSweepResult extends SweepResult {
  /** 1-based; equal values keep distinct ranks, ordered by their params. */
  readonly rank: number;
  /** The objective's value (null when undefined for this run). */
  readonly score: number | null;
  /** Constraints the result breaks ("trades 6 < 20"); empty when it meets them all. */
  readonly violations: readonly string[];
}

/** A metric as an objective (what `rankBy` names); an unknown key is refused. */
export function metricObjective(rankBy: MetricKey): Objective {
  const def = metricDef(rankBy);
  if (!def) throw new ValidationError('rankBy', `one of ${METRIC_DEFS.map((d) => d.key).join(', ')}`, String(rankBy));
  return {
    name: def.key,
    label: def.label,
    help: def.help,
    metric: def.key,
    format: def.format,
    lowerIsBetter: def.lowerIsBetter === true,
    score: (m) => m[def.key],
  };
}

const asObjective = (by: MetricKey | Objective): Objective => (typeof by === 'string' ? metricObjective(by) : by);

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
 * Best first: results meeting every constraint before those breaking one, then by the objective
 * (descending, or ascending for metrics where lower is better: drawdown, volatility, fees). Null
 * values (undefined ratios) go last. Ties are broken by the params' canonical JSON, so the order
 * never depends on which worker finished first.
 */
export function rankSweepResults(
  results: readonly SweepResult[],
  rankBy: MetricKey | Objective = 'sharpe',
  constraints: readonly Constraint[] = [],
): RankedSweepResult[] {
  const objective = asObjective(rankBy);
  const rows = results.map((r) => {
    const broken = violations(r.metrics, constraints);
    return { r, key: paramsKey(r.params), metrics: r.metrics, feasible: broken.length === 0, broken };
  });
  return rows
    .sort(compareByObjective(objective, (x) => x))
    .map((x, i) => ({ ...x.r, rank: i + 1, score: objective.score(x.metrics), violations: x.broken }));
}

/** Param value as a table cell: strings bare, everything else as canonical JSON. */
function paramCell(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return JSON.stringify(canonicalJson(v));
}

const paramNames = (results: readonly SweepResult[]): string[] => [...new Set(results.flatMap((r) => Object.keys(r.params)))].sort();

export interface SweepTableOptions {
  /** Constraints a result must meet to rank above those that do not. */
  readonly constraints?: readonly Constraint[];
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

function tableData(results: readonly SweepResult[], rankBy: MetricKey | Objective, options: SweepTableOptions): TableData {
  const objective = asObjective(rankBy);
  const constraints = options.constraints ?? [];
  const ranked = rankSweepResults(results, objective, constraints);
  const names = paramNames(results);
  // A metric objective is its own column; a composite one gets a score column before the metrics.
  const metricKeys = [
    ...(objective.metric ? [objective.metric] : []),
    ...(options.columns ?? DEFAULT_SWEEP_COLUMNS).filter((k) => k !== objective.metric),
  ];
  const defs = metricKeys.map((k) => metricDef(k)!);
  const scoreCol = objective.metric ? [] : [objective.label];
  const checkCol = constraints.length > 0 ? ['Constraints'] : [];
  // Walk-forward: the objective in and out of sample side by side, right after the ranking column.
  const wfCols = results.some((r) => r.walkForward) ? [`In-sample ${objective.label}`, `Out-of-sample ${objective.label}`] : [];
  const header = ['#', ...names, ...scoreCol, ...wfCols, ...defs.map((d) => d.label), ...checkCol];
  const numeric = [
    true,
    ...names.map(() => false),
    ...scoreCol.map(() => true),
    ...wfCols.map(() => true),
    ...defs.map(() => true),
    ...checkCol.map(() => false),
  ];
  const shown = options.limit !== undefined ? ranked.slice(0, options.limit) : ranked;
  const rows = shown.map((r) => [
    String(r.rank),
    ...names.map((n) => paramCell(r.params[n])),
    ...scoreCol.map(() => formatMetric(r.score, objective.format)),
    ...(wfCols.length > 0
      ? [
          formatMetric(r.walkForward?.inSample ?? null, objective.format),
          formatMetric(r.walkForward?.outOfSample ?? null, objective.format),
        ]
      : []),
    ...defs.map((d) => formatMetric(r.metrics[d.key], d.format)),
    ...checkCol.map(() => (r.violations.length === 0 ? 'ok' : r.violations.join('; '))),
  ]);
  return { header, numeric, rows, ranked, metricKeys };
}

/**
 * The ranked table as aligned Markdown: readable as plain text in a terminal and rendered as a table
 * by any Markdown viewer. Pipes inside cells are escaped.
 */
export function renderSweepTable(
  results: readonly SweepResult[],
  rankBy: MetricKey | Objective = 'sharpe',
  options: SweepTableOptions = {},
): string {
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
  score: number | null;
  violations: string[];
  walkForward?: { inSample: number | null; outOfSample: number | null };
  metrics: MetricsJson;
  /** Relative path of the run's HTML page, when one was written. */
  report: string | null;
}

export interface SweepJson {
  format: string;
  rankBy: string;
  order: 'descending' | 'ascending';
  count: number;
  objective: { name: string; label: string; help: string };
  constraints: JsonValue[];
  research?: JsonValue;
  results: SweepJsonRow[];
}

export interface WriteSweepOptions extends SweepTableOptions {
  readonly rankBy?: MetricKey | Objective;
  /** Search, walk-forward and overfitting results: sections of sweep.html, lines of sweep.md. */
  readonly research?: SweepResearch;
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
 * Writes sweep.json (every result, ranked), sweep.md (the table), sweep.html (the table with links,
 * and the research sections when given) and best/NN/report.{json,html} for the best `bestN` results
 * that carry their runs.
 */
export async function writeSweepReport(
  results: readonly SweepResult[],
  outDir: string,
  options: WriteSweepOptions = {},
): Promise<SweepReportPaths> {
  const objective = asObjective(options.rankBy ?? 'sharpe');
  const bestN = options.bestN ?? 5;
  const data = tableData(results, objective, options);
  await mkdir(outDir, { recursive: true });

  const best: string[] = [];
  const reportOf = new Map<number, string>();
  for (const r of data.ranked.slice(0, bestN)) {
    if (!r.runs || r.runs.length === 0) continue;
    const dir = bestDir(r.rank);
    const paths = await writeReport(r.runs, join(outDir, dir), {
      heading: `Sweep rank #${r.rank} of ${data.ranked.length} by ${objective.label}`,
      backLink: { href: '../../sweep.html', label: '← sweep results' },
    });
    best.push(paths.html);
    reportOf.set(r.rank, `${dir.split('\\').join('/')}/report.html`);
  }

  const research = options.research;
  const json: SweepJson = {
    format: SWEEP_FORMAT,
    rankBy: objective.name,
    order: objective.lowerIsBetter ? 'ascending' : 'descending',
    count: data.ranked.length,
    objective: { name: objective.name, label: objective.label, help: objective.help },
    constraints: (options.constraints ?? []).map((c) => canonicalJson({ ...c })),
    ...(research ? { research: researchJson(research) } : {}),
    results: data.ranked.map((r) => ({
      rank: r.rank,
      params: canonicalJson(r.params),
      score: r.score === null ? null : stableNumber(r.score),
      violations: [...r.violations],
      ...(r.walkForward
        ? { walkForward: { inSample: nullableNumber(r.walkForward.inSample), outOfSample: nullableNumber(r.walkForward.outOfSample) } }
        : {}),
      metrics: metricsToJson(r.metrics),
      report: reportOf.get(r.rank) ?? null,
    })),
  };
  const title = options.title ?? 'Parameter sweep';
  const rankedBy = `Ranked by ${objective.label} (${objective.lowerIsBetter ? 'lower' : 'higher'} is better)`;
  const extra = research ? `\n${researchLines(research).join('\n')}\n` : '';
  const md = `# ${title}\n\n${rankedBy}, ${data.ranked.length} runs.\n${extra}\n${renderSweepTable(results, objective, options)}`;
  const jsonPath = join(outDir, 'sweep.json');
  const mdPath = join(outDir, 'sweep.md');
  const htmlPath = join(outDir, 'sweep.html');
  await writeFile(jsonPath, `${JSON.stringify(json, null, 2)}\n`, 'utf8');
  await writeFile(mdPath, md, 'utf8');
  await writeFile(htmlPath, renderSweepHtml(title, objective, options.constraints ?? [], data, reportOf, research), 'utf8');
  return { json: jsonPath, markdown: mdPath, html: htmlPath, best };
}

const nullableNumber = (x: number | null): number | null => (x === null ? null : stableNumber(x));

function renderSweepHtml(
  title: string,
  objective: Objective,
  constraints: readonly Constraint[],
  data: TableData,
  reportOf: ReadonlyMap<number, string>,
  research: SweepResearch | undefined,
): string {
  const head = data.header.map((h, c) => `<th${data.numeric[c] ? ' class="num"' : ''}>${escapeHtml(h)}</th>`).join('');
  const body = data.rows
    .map((row, i) => {
      const r = data.ranked[i]!;
      const link = reportOf.get(r.rank);
      const cells = row.map((v, c) => `<td${data.numeric[c] ? ' class="num"' : ''}>${escapeHtml(v)}</td>`).join('');
      return `<tr data-rank="${r.rank}"${r.violations.length > 0 ? ' class="infeasible"' : ''}>${cells}<td>${link ? `<a href="${escapeHtml(link)}">report</a>` : ''}</td></tr>`;
    })
    .join('');
  const rule = constraints.length > 0 ? ` · constraints: ${escapeHtml(constraints.map(constraintText).join(', '))}` : '';
  const sections = research ? researchSections(research, objective, data.ranked) : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS} ${SWEEP_CSS}</style>
</head>
<body>
<header><div class="kicker">Sweep</div><h1>${escapeHtml(title)}</h1><p class="sub">${data.ranked.length} runs ranked by ${escapeHtml(objective.label)} (${objective.lowerIsBetter ? 'lower' : 'higher'} is better)${rule} · the best have a full report page</p></header>
<main>${sections}<section id="ranking"><h2>Ranking</h2><div class="scroll"><table class="grid sweep"><thead><tr>${head}<th></th></tr></thead><tbody>${body}</tbody></table></div></section></main>
<footer>Every result with all its metrics is in <a href="sweep.json">sweep.json</a>.</footer>
</body>
</html>
`;
}
