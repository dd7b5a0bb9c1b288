/**
 * The research sections of sweep.html (and their text for sweep.md and the terminal): the
 * overfitting statistics with a plain reading, the walk-forward folds, the in-sample vs out-of-sample
 * scatter and a parameter heat map. Static SVG and tables, no script: the page stays offline and
 * passes the report's Content-Security-Policy.
 */
import type { JsonValue } from './backtest-run.js';
import { canonicalJson, stableNumber } from './backtest-run.js';
import { escapeHtml, formatTime } from './format.js';
import { formatMetric } from './metric-defs.js';
import type { Constraint, Objective } from '../research/objective.js';
import type { Overfitting } from '../research/overfitting.js';
import type { WalkForwardResult } from '../research/walk-forward.js';

export interface SweepResearch {
  readonly search: {
    readonly method: string;
    readonly seed: number;
    readonly trials: number;
    readonly stoppedBy: string;
    readonly infeasible?: number;
    readonly pruned?: number;
  };
  readonly walkForward?: WalkForwardResult;
  readonly overfitting?: Overfitting;
  /** Points that are not ranked: an invalid config, or a run pruning stopped early. */
  readonly notRanked?: readonly NotRanked[];
}

/** A point of the search that is never ranked, with why. */
export interface NotRanked {
  readonly params: Readonly<Record<string, unknown>>;
  readonly status: 'infeasible' | 'pruned';
  readonly reason: string;
  /** Pruned: the rung it stopped at, and its oriented objective at each rung it reached (−∞: undefined). */
  readonly rung?: number;
  readonly rungValues?: readonly number[];
}

/** What the research sections need of a ranked result. */
interface ResearchRow {
  readonly rank: number;
  readonly params: Readonly<Record<string, unknown>>;
  readonly score: number | null;
  readonly violations: readonly string[];
  readonly walkForward?: { readonly inSample: number | null; readonly outOfSample: number | null };
}

export const constraintText = (c: Constraint): string =>
  [c.min !== undefined ? `${c.metric} ≥ ${c.min}` : '', c.max !== undefined ? `${c.metric} ≤ ${c.max}` : ''].filter(Boolean).join(', ');

const num = (x: number | null | undefined): number | null => (x === null || x === undefined ? null : stableNumber(x));
const prob = (x: number): string => `${(x * 100).toFixed(1)}%`;
const paramText = (p: Readonly<Record<string, unknown>>): string => JSON.stringify(canonicalJson(p));

export function researchJson(r: SweepResearch): JsonValue {
  const o = r.overfitting;
  const wf = r.walkForward;
  return canonicalJson({
    search: r.search,
    ...(r.notRanked && r.notRanked.length > 0
      ? {
          notRanked: r.notRanked.map((n) => ({
            params: n.params,
            status: n.status,
            reason: n.reason,
            ...(n.rung !== undefined ? { rung: n.rung, rungValues: n.rungValues!.map((v) => (v === -Infinity ? null : num(v))) } : {}),
          })),
        }
      : {}),
    ...(o
      ? {
          overfitting: {
            trials: o.trials,
            returnPeriodMs: o.returnPeriodMs,
            reading: o.reading,
            deflatedSharpe: o.dsr
              ? {
                  dsr: num(o.dsr.dsr),
                  sharpe: num(o.dsr.sharpe),
                  expectedMaxSharpe: num(o.dsr.expectedMaxSharpe),
                  observations: o.dsr.observations,
                }
              : null,
            pbo: o.pbo ? { pbo: num(o.pbo.pbo), splits: o.pbo.splits, blocks: o.pbo.blocks, rows: o.pbo.rows } : null,
          },
        }
      : {}),
    ...(wf
      ? {
          walkForward: {
            ...wf.settings,
            inSample: num(wf.inSampleScore),
            outOfSample: num(wf.outOfSampleScore),
            folds: wf.folds.map((f) => ({
              train: f.train,
              test: f.test,
              chosen: f.chosen ? f.chosen.params : null,
              inSample: num(f.inSampleScore),
              outOfSample: num(f.outOfSampleScore),
            })),
          },
        }
      : {}),
  }) as JsonValue;
}

/** The research in a few lines of text (terminal and sweep.md). */
export function researchLines(r: SweepResearch): string[] {
  const out: string[] = [];
  const wf = r.walkForward;
  if (wf) {
    const f = (x: number | null): string => (x === null ? '—' : x.toPrecision(3));
    out.push(
      `walk-forward (${wf.settings.mode}, ${wf.settings.folds} folds): chosen in sample ${f(wf.inSampleScore)}, out of sample ${f(wf.outOfSampleScore)} (mean objective)`,
    );
  }
  const o = r.overfitting;
  if (o) {
    const parts = [
      o.dsr ? `deflated Sharpe ratio ${prob(o.dsr.dsr)}` : 'deflated Sharpe ratio —',
      o.pbo ? `probability of backtest overfitting ${prob(o.pbo.pbo)}` : 'probability of backtest overfitting —',
    ];
    out.push(`overfitting (${o.trials} trials): ${parts.join(', ')}`);
    out.push(o.reading);
  }
  const s = r.search;
  if (s.infeasible || s.pruned)
    out.push(
      `not ranked: ${s.infeasible ?? 0} infeasible point(s) (invalid config), ${s.pruned ?? 0} run(s) pruned early (the reasons are in the report)`,
    );
  return out;
}

export const SWEEP_CSS = [
  'td.num,th.num{text-align:right}',
  'tr.infeasible td{color:#8a8f98}',
  '.reading{font-size:15px;margin:6px 0 14px}',
  'table.heat td{min-width:64px;text-align:right;font-variant-numeric:tabular-nums}',
  'figure.scatter svg{width:100%;max-width:640px;height:auto}',
  'svg .pt{fill:#2563eb;fill-opacity:.75}',
  'svg .pt.chosen{fill:#dc2626}',
].join(' ');

function overfittingSection(o: Overfitting): string {
  const cards = [
    ['Trials', String(o.trials)],
    ['Deflated Sharpe ratio', o.dsr ? prob(o.dsr.dsr) : '—'],
    ['Winner Sharpe (per period)', o.dsr ? o.dsr.sharpe.toFixed(4) : '—'],
    ['Expected best of luck (SR₀)', o.dsr ? o.dsr.expectedMaxSharpe.toFixed(4) : '—'],
    ['Probability of overfitting', o.pbo ? prob(o.pbo.pbo) : '—'],
    ['CSCV splits', o.pbo ? `${o.pbo.splits} (${o.pbo.blocks} blocks)` : '—'],
  ];
  return `<section id="overfitting"><h2>Overfitting <small>deflated Sharpe ratio (Bailey &amp; López de Prado 2014) · PBO by CSCV (Bailey et al. 2015)</small></h2>
<p class="reading" id="reading">${escapeHtml(o.reading)}</p>
<div class="cards">${cards.map(([l, v]) => `<div class="card"><div class="clabel">${escapeHtml(l!)}</div><div class="cvalue">${escapeHtml(v!)}</div></div>`).join('')}</div></section>`;
}

function walkForwardSection(wf: WalkForwardResult, objective: Objective): string {
  const f = (x: number | null): string => formatMetric(x, objective.format);
  const day = (ms: number): string => formatTime(ms).replace(' UTC', '');
  const rows = wf.folds
    .map(
      (fold) =>
        `<tr data-fold="${fold.index + 1}"><td class="num">${fold.index + 1}</td><td>${escapeHtml(day(fold.train.from))} → ${escapeHtml(day(fold.train.to))}</td><td>${escapeHtml(day(fold.test.from))} → ${escapeHtml(day(fold.test.to))}</td><td>${escapeHtml(fold.chosen ? paramText(fold.chosen.params) : 'none met the constraints')}</td><td class="num">${escapeHtml(f(fold.inSampleScore))}</td><td class="num">${escapeHtml(f(fold.outOfSampleScore))}</td></tr>`,
    )
    .join('');
  return `<section id="walk-forward"><h2>Walk-forward <small>${escapeHtml(wf.settings.mode)}, ${wf.folds.length} folds: the best in the train window, judged on the next test window</small></h2>
<div class="scroll"><table class="grid folds"><thead><tr><th class="num">Fold</th><th>Train</th><th>Test</th><th>Chosen</th><th class="num">In sample</th><th class="num">Out of sample</th></tr></thead><tbody>${rows}</tbody>
<tfoot><tr><td></td><td colspan="3">Mean of the chosen</td><td class="num">${escapeHtml(f(wf.inSampleScore))}</td><td class="num">${escapeHtml(f(wf.outOfSampleScore))}</td></tr></tfoot></table></div></section>`;
}

/** In-sample vs out-of-sample objective of every candidate (mean over folds); the diagonal is "held up". */
function scatterSection(rows: readonly ResearchRow[], objective: Objective, wf: WalkForwardResult): string {
  const pts = rows.filter(
    (r) =>
      r.walkForward &&
      r.walkForward.inSample !== null &&
      r.walkForward.outOfSample !== null &&
      Number.isFinite(r.walkForward.inSample) &&
      Number.isFinite(r.walkForward.outOfSample),
  );
  if (pts.length === 0) return '';
  const chosen = new Set(wf.folds.filter((f) => f.chosen).map((f) => paramText(f.chosen!.params)));
  const xs = pts.map((p) => p.walkForward!.inSample!);
  const ys = pts.map((p) => p.walkForward!.outOfSample!);
  const lo = Math.min(...xs, ...ys);
  const hi = Math.max(...xs, ...ys);
  const span = hi - lo || 1;
  const W = 640;
  const H = 400;
  const pad = 48;
  const sx = (v: number): number => pad + ((v - lo) / span) * (W - 2 * pad);
  const sy = (v: number): number => H - pad - ((v - lo) / span) * (H - 2 * pad);
  const dots = pts
    .map((p) => {
      const cls = chosen.has(paramText(p.params)) ? 'pt chosen' : 'pt';
      const tip = `${paramText(p.params)}: in ${formatMetric(p.walkForward!.inSample, objective.format)}, out ${formatMetric(p.walkForward!.outOfSample, objective.format)}`;
      return `<circle class="${cls}" cx="${sx(p.walkForward!.inSample!).toFixed(1)}" cy="${sy(p.walkForward!.outOfSample!).toFixed(1)}" r="5"><title>${escapeHtml(tip)}</title></circle>`;
    })
    .join('');
  const label = (v: number): string => escapeHtml(formatMetric(v, objective.format));
  return `<section id="is-oos"><h2>In sample vs out of sample <small>${escapeHtml(objective.label)}, mean over the folds; red: chosen in some fold</small></h2>
<figure class="scatter"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="in-sample versus out-of-sample scatter">
<rect class="frame" x="${pad}" y="${pad}" width="${W - 2 * pad}" height="${H - 2 * pad}" fill="none"/>
<line class="ref" x1="${sx(lo)}" y1="${sy(lo)}" x2="${sx(hi)}" y2="${sy(hi)}"/>
<text x="${pad}" y="${H - pad + 18}">${label(lo)}</text><text x="${W - pad}" y="${H - pad + 18}" text-anchor="end">${label(hi)}</text>
<text x="${W / 2}" y="${H - 8}" text-anchor="middle">in sample</text><text x="14" y="${H / 2}" transform="rotate(-90 14 ${H / 2})" text-anchor="middle">out of sample</text>
${dots}</svg></figure></section>`;
}

/**
 * Best objective per pair of values of the first two parameters (one row when there is one): where
 * in the space the good results are. Colours run from the worst shown (light) to the best (dark).
 */
function heatMapSection(rows: readonly ResearchRow[], objective: Objective): string {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.params)))].sort();
  if (names.length === 0) return '';
  const [xName, yName] = names as [string, string | undefined];
  const key = (v: unknown): string => JSON.stringify(canonicalJson(v));
  const sortValues = (vs: unknown[]): unknown[] =>
    [...new Map(vs.map((v) => [key(v), v])).values()].sort((a, b) =>
      typeof a === 'number' && typeof b === 'number' ? a - b : key(a) < key(b) ? -1 : 1,
    );
  const xv = sortValues(rows.map((r) => r.params[xName]));
  const yv = yName ? sortValues(rows.map((r) => r.params[yName])) : [undefined];
  const sign = objective.lowerIsBetter ? -1 : 1;
  const cell = new Map<string, number>();
  for (const r of rows) {
    if (r.score === null || !Number.isFinite(r.score) || r.violations.length > 0) continue;
    const k = `${key(r.params[xName])}|${yName ? key(r.params[yName]) : ''}`;
    const prev = cell.get(k);
    if (prev === undefined || sign * r.score > sign * prev) cell.set(k, r.score);
  }
  const vals = [...cell.values()];
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  // Goodness in [0, 1]: 1 for the best cell shown, whichever direction is better.
  const good = (v: number): number => (hi === lo ? 1 : objective.lowerIsBetter ? (hi - v) / (hi - lo) : (v - lo) / (hi - lo));
  const cellText = (v: unknown): string => (typeof v === 'string' ? v : key(v));
  const head = `<tr><th>${escapeHtml(yName ?? '')}${yName ? ' \\ ' : ''}${escapeHtml(xName)}</th>${xv.map((x) => `<th class="num">${escapeHtml(cellText(x))}</th>`).join('')}</tr>`;
  const body = yv
    .map((y) => {
      const tds = xv
        .map((x) => {
          const v = cell.get(`${key(x)}|${yName ? key(y) : ''}`);
          if (v === undefined) return '<td>—</td>';
          const t = good(v);
          return `<td data-good="${t.toFixed(3)}" style="background:hsl(210,70%,${(92 - 50 * t).toFixed(0)}%)${t > 0.6 ? ';color:#fff' : ''}">${escapeHtml(formatMetric(v, objective.format))}</td>`;
        })
        .join('');
      return `<tr><th>${escapeHtml(yName ? cellText(y) : objective.label)}</th>${tds}</tr>`;
    })
    .join('');
  const more = names.length > 2 ? `; best over ${names.slice(2).map(escapeHtml).join(', ')}` : '';
  return `<section id="heat-map"><h2>Parameter heat map <small>best ${escapeHtml(objective.label)} per cell among results meeting the constraints${more}</small></h2>
<div class="scroll"><table class="grid heat">${head}${body}</table></div></section>`;
}

export function researchSections(r: SweepResearch, objective: Objective, ranked: readonly ResearchRow[]): string {
  return [
    r.overfitting ? overfittingSection(r.overfitting) : '',
    r.walkForward ? walkForwardSection(r.walkForward, objective) : '',
    r.walkForward ? scatterSection(ranked, objective, r.walkForward) : '',
    heatMapSection(ranked, objective),
    r.notRanked && r.notRanked.length > 0 ? notRankedSection(r.notRanked) : '',
  ].join('\n');
}

/** The points that are not ranked: invalid configs and pruned runs, with why. */
function notRankedSection(list: readonly NotRanked[]): string {
  const rows = list
    .map(
      (n) =>
        `<tr class="${n.status}" data-status="${n.status}"><td>${escapeHtml(paramText(n.params))}</td><td>${n.status === 'pruned' ? `pruned at rung ${n.rung}` : 'infeasible'}</td><td>${escapeHtml(n.reason)}</td></tr>`,
    )
    .join('');
  return `<section id="not-ranked"><h2>Not ranked <small>invalid points and runs stopped early by pruning: never winners</small></h2>
<div class="scroll"><table class="grid"><thead><tr><th>Parameters</th><th>Status</th><th>Why</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}
