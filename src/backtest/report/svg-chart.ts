/**
 * Time-series charts drawn as static inline SVG at report time: the page needs no script to show
 * them, works offline and renders the same bytes for the same run. A small script on the page adds
 * a crosshair read-out from the data each chart embeds (`data-chart` JSON).
 *
 * Long series are reduced per pixel column (first, min, max, last of the primary series), so a
 * million samples still draw as ~2 000 points without losing spikes.
 */
import { escapeHtml, formatAxis, jsonForScript } from './format.js';

export const CHART_WIDTH = 1000;
const PAD = { left: 64, right: 16, top: 12, bottom: 26 };

export interface ChartSeries {
  readonly name: string;
  readonly color: string;
  readonly values: readonly (number | null)[];
  /** 'step': holds each value until the next time (positions); 'area': filled down to zero. */
  readonly kind?: 'line' | 'step' | 'area';
  readonly width?: number;
  readonly dash?: string;
}

export interface ChartBand {
  readonly name: string;
  readonly color: string;
  readonly lower: readonly number[];
  readonly upper: readonly number[];
}

export interface ChartMarker {
  readonly time: number;
  readonly value: number;
  readonly side: 'buy' | 'sell';
  /** Native tooltip text (escaped here). */
  readonly title: string;
}

/** How the crosshair script prints values: the same names as MetricFormat where they overlap. */
export type ChartValueFormat = 'amount' | 'percent' | 'price' | 'qty';

export interface ChartSpec {
  readonly id: string;
  readonly title: string;
  readonly times: readonly number[];
  readonly series: readonly ChartSeries[];
  readonly band?: ChartBand;
  readonly markers?: readonly ChartMarker[];
  readonly height: number;
  readonly valueFormat: ChartValueFormat;
  /** Horizontal reference lines (initial capital, zero). */
  readonly references?: readonly { readonly value: number; readonly label: string }[];
  /** Always show zero on the y axis (positions, drawdown). */
  readonly includeZero?: boolean;
  /** Fixed x range (so stacked charts line up); defaults to the times' range. */
  readonly xRange?: readonly [number, number];
  /** y values are fractions: axis labels in percent. */
  readonly percentAxis?: boolean;
}

/** Indices to keep: per bucket the first, the min, the max and the last of `primary`. */
export function reduceIndices(primary: readonly (number | null)[], buckets: number): number[] {
  const n = primary.length;
  if (n <= buckets * 4) return Array.from({ length: n }, (_, i) => i);
  const keep: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const lo = Math.floor((b * n) / buckets);
    const hi = Math.floor(((b + 1) * n) / buckets) - 1;
    if (hi < lo) continue;
    let iMin = lo;
    let iMax = lo;
    for (let i = lo; i <= hi; i++) {
      const v = primary[i] ?? null;
      if (v === null) continue;
      if ((primary[iMin] ?? Infinity) > v) iMin = i;
      if ((primary[iMax] ?? -Infinity) < v) iMax = i;
    }
    for (const i of [lo, Math.min(iMin, iMax), Math.max(iMin, iMax), hi]) if (keep[keep.length - 1] !== i) keep.push(i);
  }
  return keep;
}

/** 1-2-5 steps giving about `target` ticks over [lo, hi]. */
export function niceTicks(lo: number, hi: number, target = 5): { step: number; ticks: number[] } {
  if (!(hi > lo)) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.01;
    return niceTicks(lo - pad, lo + pad, target);
  }
  const raw = (hi - lo) / target;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return { step, ticks };
}

const TIME_STEPS = [
  1, 5, 15, 30, 60, 300, 900, 1800, 3600, 7200, 14_400, 21_600, 43_200, 86_400, 172_800, 604_800, 1_209_600, 2_592_000, 7_776_000,
  15_552_000, 31_536_000,
].map((s) => s * 1000);

export function timeTicks(t0: number, t1: number, target = 7): { step: number; ticks: number[] } {
  const span = Math.max(1, t1 - t0);
  const step = TIME_STEPS.find((s) => span / s <= target) ?? TIME_STEPS[TIME_STEPS.length - 1]!;
  const ticks: number[] = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) ticks.push(t);
  return { step, ticks };
}

const p2 = (n: number): string => String(n).padStart(2, '0');
function timeLabel(t: number, step: number): string {
  const d = new Date(t);
  const date = `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
  if (step >= 86_400_000) return date;
  const hm = `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}`;
  if (step < 60_000) return `${hm}:${p2(d.getUTCSeconds())}`;
  return d.getUTCHours() === 0 && d.getUTCMinutes() === 0 ? `${date.slice(5)} 00:00` : hm;
}

/** Two decimals are enough for SVG coordinates at 1000 px. */
const c = (x: number): string => (Math.round(x * 100) / 100).toString();

function linePath(xs: readonly number[], ys: readonly (number | null)[], step: boolean): string {
  let d = '';
  let pen = false;
  for (let i = 0; i < xs.length; i++) {
    const y = ys[i];
    if (y === null || y === undefined) {
      pen = false;
      continue;
    }
    if (!pen) d += `M${c(xs[i]!)} ${c(y)}`;
    else if (step) d += `H${c(xs[i]!)}V${c(y)}`;
    else d += `L${c(xs[i]!)} ${c(y)}`;
    pen = true;
  }
  return d;
}

/** The `<figure>` holding one chart. */
export function renderChart(spec: ChartSpec): string {
  const W = CHART_WIDTH;
  const H = spec.height;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const primary = spec.series[0]?.values ?? [];
  const keep = reduceIndices(primary, plotW);
  const times = keep.map((i) => spec.times[i]!);
  const t0 = spec.xRange?.[0] ?? (spec.times.length ? spec.times[0]! : 0);
  const t1 = spec.xRange?.[1] ?? (spec.times.length ? spec.times[spec.times.length - 1]! : 1);
  const tSpan = t1 > t0 ? t1 - t0 : 1;

  let lo = Infinity;
  let hi = -Infinity;
  const see = (v: number | null | undefined): void => {
    if (v === null || v === undefined || !Number.isFinite(v)) return;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  };
  for (const s of spec.series) for (const i of keep) see(s.values[i]);
  if (spec.band)
    for (const i of keep) {
      see(spec.band.lower[i]);
      see(spec.band.upper[i]);
    }
  for (const m of spec.markers ?? []) see(m.value);
  for (const r of spec.references ?? []) see(r.value);
  if (spec.includeZero) see(0);
  if (!Number.isFinite(lo)) {
    lo = 0;
    hi = 1;
  }
  const pad = hi > lo ? (hi - lo) * 0.06 : Math.max(Math.abs(hi) * 0.01, 1e-9);
  const yTicks = niceTicks(lo - (spec.includeZero && lo === 0 ? 0 : pad), hi + (spec.includeZero && hi === 0 ? 0 : pad));
  const yLo = Math.min(yTicks.ticks[0] ?? lo, lo - (spec.includeZero && lo === 0 ? 0 : pad));
  const yHi = Math.max(yTicks.ticks[yTicks.ticks.length - 1] ?? hi, hi + (spec.includeZero && hi === 0 ? 0 : pad));
  const ySpan = yHi > yLo ? yHi - yLo : 1;

  const X = (t: number): number => PAD.left + ((t - t0) / tSpan) * plotW;
  const Y = (v: number): number => PAD.top + (1 - (v - yLo) / ySpan) * plotH;
  const xs = times.map(X);

  const parts: string[] = [];
  // Grid and axes.
  const scale = Math.max(...yTicks.ticks.map(Math.abs));
  for (const v of yTicks.ticks) {
    if (v < yLo || v > yHi) continue;
    const y = c(Y(v));
    const label = spec.percentAxis ? `${formatAxis(v * 100, yTicks.step * 100, scale * 100)}%` : formatAxis(v, yTicks.step, scale);
    parts.push(
      `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}"/><text class="ylab" x="${PAD.left - 6}" y="${y}" dy="0.32em">${escapeHtml(label)}</text>`,
    );
  }
  const xt = timeTicks(t0, t1);
  for (const t of xt.ticks) {
    const x = c(X(t));
    // Labels at the edges are anchored inwards so they are not cut off.
    const anchor = X(t) > W - PAD.right - 30 ? ' end' : X(t) < PAD.left + 30 ? ' start' : '';
    parts.push(
      `<line class="grid" x1="${x}" x2="${x}" y1="${PAD.top}" y2="${H - PAD.bottom}"/><text class="xlab${anchor}" x="${x}" y="${H - PAD.bottom + 16}">${escapeHtml(timeLabel(t, xt.step))}</text>`,
    );
  }
  parts.push(`<rect class="frame" x="${PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}"/>`);
  for (const r of spec.references ?? []) {
    const y = c(Y(r.value));
    parts.push(`<line class="ref" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}"><title>${escapeHtml(r.label)}</title></line>`);
  }
  // Band: upper edge forward, lower edge back.
  if (spec.band) {
    const up = keep.map((i) => Y(spec.band!.upper[i]!));
    const low = keep.map((i) => Y(spec.band!.lower[i]!));
    if (xs.length > 0) {
      let d = `M${c(xs[0]!)} ${c(up[0]!)}`;
      for (let k = 1; k < xs.length; k++) d += `L${c(xs[k]!)} ${c(up[k]!)}`;
      for (let k = xs.length - 1; k >= 0; k--) d += `L${c(xs[k]!)} ${c(low[k]!)}`;
      parts.push(`<path class="band" d="${d}Z" fill="${escapeHtml(spec.band.color)}"><title>${escapeHtml(spec.band.name)}</title></path>`);
    }
  }
  // Dense markers go under the lines (the price stays readable); sparse ones on top.
  const dense = (spec.markers?.length ?? 0) > MARKER_DETAIL_LIMIT;
  if (dense) parts.push(renderMarkers(spec.markers ?? [], X, Y));
  for (const s of spec.series) {
    const ys = keep.map((i) => {
      const v = s.values[i];
      return v === null || v === undefined ? null : Y(v);
    });
    const d = linePath(xs, ys, s.kind === 'step');
    if (!d) continue;
    const stroke = escapeHtml(s.color);
    if (s.kind === 'area') {
      const y0 = c(Y(Math.min(Math.max(0, yLo), yHi)));
      const first = xs.find((_, k) => ys[k] !== null);
      const last = [...xs].reverse().find((_, k) => ys[xs.length - 1 - k] !== null);
      parts.push(`<path class="area" d="${d}L${c(last ?? 0)} ${y0}L${c(first ?? 0)} ${y0}Z" fill="${stroke}"/>`);
    }
    parts.push(
      `<path class="series" d="${d}" stroke="${stroke}" stroke-width="${s.width ?? 1.5}"${s.dash ? ` stroke-dasharray="${escapeHtml(s.dash)}"` : ''}/>`,
    );
  }
  if (!dense) parts.push(renderMarkers(spec.markers ?? [], X, Y));

  // Crosshair data: the reduced points, so the script never has more to search than is drawn.
  const data = {
    x0: t0,
    x1: t1,
    left: PAD.left,
    width: plotW,
    top: PAD.top,
    height: plotH,
    fmt: spec.valueFormat,
    pct: spec.percentAxis === true,
    t: times,
    s: spec.series.map((s) => ({ n: s.name, c: s.color, v: keep.map((i) => s.values[i] ?? null) })),
  };
  const legend = spec.series
    .map((s) => `<span class="key"><i style="background:${escapeHtml(s.color)}"></i>${escapeHtml(s.name)}</span>`)
    .concat(
      spec.band
        ? [
            `<span class="key"><i class="bandkey" style="background:${escapeHtml(spec.band.color)}"></i>${escapeHtml(spec.band.name)}</span>`,
          ]
        : [],
    )
    .concat(
      spec.markers?.length
        ? ['<span class="key"><b class="buy">▲</b>buy</span>', '<span class="key"><b class="sell">▼</b>sell</span>']
        : [],
    )
    .join('');
  return (
    `<figure class="chart" id="${escapeHtml(spec.id)}">` +
    `<figcaption><span class="ctitle">${escapeHtml(spec.title)}</span><span class="legend">${legend}</span></figcaption>` +
    `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(spec.title)}" style="aspect-ratio:${W}/${H}">${parts.join('')}` +
    `<line class="xhair" x1="0" x2="0" y1="${PAD.top}" y2="${H - PAD.bottom}" visibility="hidden"/></svg>` +
    `<div class="tip" hidden></div>` +
    `<script type="application/json" class="chart-data">${jsonForScript(data)}</script>` +
    `</figure>`
  );
}

/** Individual triangles with a tooltip up to a limit; beyond it one path per side keeps the DOM small. */
const MARKER_DETAIL_LIMIT = 1500;

function renderMarkers(markers: readonly ChartMarker[], X: (t: number) => number, Y: (v: number) => number): string {
  if (markers.length === 0) return '';
  const dense = markers.length > MARKER_DETAIL_LIMIT;
  const h = dense ? 5 : 9;
  const w = dense ? 3 : 5;
  const tri = (m: ChartMarker): string => {
    const x = X(m.time);
    const y = Y(m.value);
    return m.side === 'buy' ? `M${c(x)} ${c(y + 2)}l${w} ${h}h${-2 * w}z` : `M${c(x)} ${c(y - 2)}l${w} ${-h}h${-2 * w}z`;
  };
  if (dense) {
    const buys = markers
      .filter((m) => m.side === 'buy')
      .map(tri)
      .join('');
    const sells = markers
      .filter((m) => m.side === 'sell')
      .map(tri)
      .join('');
    return `<g class="markers dense">${buys ? `<path class="mk buy" d="${buys}"/>` : ''}${sells ? `<path class="mk sell" d="${sells}"/>` : ''}</g>`;
  }
  return `<g class="markers">${markers.map((m) => `<path class="mk ${m.side === 'buy' ? 'buy' : 'sell'}" d="${tri(m)}"><title>${escapeHtml(m.title)}</title></path>`).join('')}</g>`;
}
