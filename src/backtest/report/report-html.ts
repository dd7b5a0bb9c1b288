/**
 * report.html: one self-contained page (inline CSS, inline SVG, a few lines of inline script for the
 * crosshair; nothing fetched) that a user opens offline. Every string that comes from a config or the
 * data (strategy names, symbols, params, reasons) goes through escapeHtml; embedded JSON through
 * jsonForScript.
 */
import type { Decimal } from '../../core/decimal.js';
import type { BacktestRun, RunFill, RunSample } from './backtest-run.js';
import { canonicalJson } from './backtest-run.js';
import { escapeHtml, formatAmount, formatDuration, formatPercent, formatTime } from './format.js';
import { METRIC_DEFS, formatMetric } from './metric-defs.js';
import { type MetricKey, type Metrics, buyAndHold, calendarReturns, drawdownSeries, equityPoints, withheldMetrics } from './metrics.js';
import { HTML_TABLE_LIMIT, type ReportModel } from './report-json.js';
import { TAPE_DIR } from './run-tape.js';
import { type ChartMarker, type ChartSeries, renderChart } from './svg-chart.js';

export { HTML_TABLE_LIMIT };

const MODEL_COLORS: Readonly<Record<string, string>> = { neutral: '#2563eb', optimistic: '#16a34a', pessimistic: '#dc6a0b' };
const CUSTOM_COLORS = ['#7c3aed', '#0891b2', '#be185d', '#4d7c0f'];
const BAND_FILL = 'rgba(37,99,235,0.14)';

export interface ReportHtmlOptions {
  /** Heading above the strategy name (a sweep page says which rank it shows). */
  readonly heading?: string;
  /** Link back (relative) shown in the header, e.g. to a sweep index. */
  readonly backLink?: { readonly href: string; readonly label: string };
}

function modelColor(model: string, customIndex: number): string {
  return MODEL_COLORS[model] ?? CUSTOM_COLORS[customIndex % CUSTOM_COLORS.length]!;
}

/** Value of a run's equity at `t`: the last sample at or before t (step function). */
function equityAt(samples: readonly RunSample[], times: readonly number[]): number[] {
  const out: number[] = [];
  let j = 0;
  for (const t of times) {
    while (j + 1 < samples.length && samples[j + 1]!.time <= t) j++;
    out.push(samples.length ? samples[j]!.equity.toNumber() : 0);
  }
  return out;
}

/** Net signed position per symbol as a step function rebuilt from fills (exact between samples). */
function positionSteps(fills: readonly RunFill[], symbol: string, t0: number, t1: number): { times: number[]; values: number[] } {
  const times = [t0];
  const values = [0];
  let pos: Decimal | undefined;
  for (const f of fills) {
    if (f.symbol !== symbol) continue;
    const q = f.side === 'buy' ? f.quantity : f.quantity.neg();
    pos = pos ? pos.plus(q) : q;
    const t = Math.max(f.time, t0);
    if (times[times.length - 1] === t) values[values.length - 1] = pos.toNumber();
    else {
      times.push(t);
      values.push(pos.toNumber());
    }
  }
  if (times[times.length - 1]! < t1) {
    times.push(t1);
    values.push(values[values.length - 1]!);
  }
  return { times, values };
}

/** Past this many fills the price chart draws the first buy and the first sell of each of MARKER_COLUMNS time columns. */
const MARKER_LIMIT = 3000;
const MARKER_COLUMNS = 1000;

/** Keeps the page small on long runs: at 1000 px nobody can tell 50 000 triangles from 2 000. */
function thinMarkers(markers: readonly ChartMarker[], t0: number, t1: number): readonly ChartMarker[] {
  if (markers.length <= MARKER_LIMIT || !(t1 > t0)) return markers;
  const seen = new Set<string>();
  return markers.filter((m) => {
    const col = Math.min(MARKER_COLUMNS - 1, Math.floor(((m.time - t0) / (t1 - t0)) * MARKER_COLUMNS));
    const key = `${col}${m.side}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Columns the position chart resolves; more steps than this many per column read as a solid block. */
const POSITION_COLUMNS = 480;

/**
 * The position over time. A step line while it has few enough changes to read; past that (a market
 * maker over weeks changes position thousands of times) each time column shows the range the
 * position took (a light band) and its value at the column's end (a line), so the eye sees inventory
 * drift instead of a block of ink.
 */
function positionChart(id: string, title: string, pos: { times: number[]; values: number[] }, t0: number, t1: number): string {
  const common = { id, title, height: 140, valueFormat: 'qty' as const, includeZero: true, xRange: [t0, t1] as const };
  if (pos.times.length <= POSITION_COLUMNS * 2 || !(t1 > t0)) {
    return renderChart({
      ...common,
      times: pos.times,
      series: [{ name: 'position', color: '#7c3aed', values: pos.values, kind: 'step', width: 1.5 }],
    });
  }
  const times: number[] = [];
  const lower: number[] = [];
  const upper: number[] = [];
  const close: number[] = [];
  let j = 0;
  let current = pos.values[0]!;
  for (let c = 0; c < POSITION_COLUMNS; c++) {
    const end = t0 + ((c + 1) * (t1 - t0)) / POSITION_COLUMNS;
    let lo = current;
    let hi = current;
    while (j < pos.times.length && pos.times[j]! <= end) {
      current = pos.values[j]!;
      if (current < lo) lo = current;
      if (current > hi) hi = current;
      j++;
    }
    times.push(end);
    lower.push(lo);
    upper.push(hi);
    close.push(current);
  }
  return renderChart({
    ...common,
    title: `${title} (range and end value per ${formatDuration((t1 - t0) / POSITION_COLUMNS)})`,
    times,
    series: [{ name: 'position at end of column', color: '#7c3aed', values: close, width: 1.2 }],
    band: { name: 'range within the column', color: 'rgba(124,58,237,0.22)', lower, upper },
  });
}

function symbolsOf(run: BacktestRun): string[] {
  const seen = new Set<string>(run.dataRange.instruments);
  for (const i of run.instruments) seen.add(i.symbol);
  for (const f of run.fills) seen.add(f.symbol);
  return [...seen];
}

/** A metric's cell: its value, or "—" and why when the run is too short for it to mean anything. */
function metricCell(key: MetricKey, text: string, withheld: ReadonlyMap<MetricKey, string>): string {
  const why = withheld.get(key);
  return why === undefined ? escapeHtml(text) : `<span class="withheld" title="${escapeHtml(`withheld: ${why}`)}">—</span>`;
}

function metricsTable(m: Metrics): string {
  const notRecovered = m.maxDrawdown > 0 && m.maxDrawdownRecoveryTime === null;
  const withheld = withheldMetrics(m);
  const rows = METRIC_DEFS.map(
    (d) =>
      `<tr data-metric="${d.key}"><th scope="row" title="${escapeHtml(d.help)}">${escapeHtml(d.label)}</th><td>${metricCell(d.key, formatMetric(m[d.key], d.format), withheld)}${d.key === 'maxDrawdownDurationMs' && notRecovered ? ' <small>(not recovered)</small>' : ''}${withheld.has(d.key) ? ` <small class="why">${escapeHtml(withheld.get(d.key)!)}</small>` : ''}</td></tr>`,
  );
  const half = Math.ceil(rows.length / 2);
  return `<div class="two-col"><table class="kv metrics">${rows.slice(0, half).join('')}</table><table class="kv metrics">${rows.slice(half).join('')}</table></div>`;
}

function bandTable(model: ReportModel): string {
  const cols: { key: keyof Metrics; label: string; fmt: (v: number | null) => string }[] = [
    { key: 'finalEquity', label: 'Final equity', fmt: (v) => (v === null ? '—' : formatAmount(v)) },
    { key: 'totalReturn', label: 'Total return', fmt: (v) => formatMetric(v, 'percent') },
    { key: 'annualisedReturn', label: 'Annualised', fmt: (v) => formatMetric(v, 'percent') },
    { key: 'sharpe', label: 'Sharpe', fmt: (v) => formatMetric(v, 'ratio') },
    { key: 'sortino', label: 'Sortino', fmt: (v) => formatMetric(v, 'ratio') },
    { key: 'maxDrawdown', label: 'Max DD', fmt: (v) => formatMetric(v, 'percent') },
    { key: 'winRate', label: 'Win rate', fmt: (v) => formatMetric(v, 'percent') },
    { key: 'profitFactor', label: 'Profit factor', fmt: (v) => formatMetric(v, 'ratio') },
    { key: 'trades', label: 'Fills', fmt: (v) => formatMetric(v, 'count') },
    { key: 'fees', label: 'Fees', fmt: (v) => formatMetric(v, 'amount') },
  ];
  let custom = 0;
  const rows = model.band.map(({ run, metrics }) => {
    const color = modelColor(run.fillModel, MODEL_COLORS[run.fillModel] ? 0 : custom++);
    const primary = run === model.primary;
    return (
      `<tr data-model="${escapeHtml(run.fillModel)}"${primary ? ' class="primary"' : ''}><th scope="row"><i class="swatch" style="background:${color}"></i>${escapeHtml(run.fillModel)}${primary ? ' <small>(this report)</small>' : ''}</th>` +
      cols
        .map((c) => `<td>${metricCell(c.key as MetricKey, c.fmt(metrics[c.key] as number | null), withheldMetrics(metrics))}</td>`)
        .join('') +
      '</tr>'
    );
  });
  const returns = model.band.map((b) => b.metrics.totalReturn);
  const spread =
    model.band.length > 1
      ? `<p class="note">Total return ranges from <b>${escapeHtml(formatPercent(Math.min(...returns)))}</b> to <b>${escapeHtml(formatPercent(Math.max(...returns)))}</b> across ${model.band.length} fill models (spread ${escapeHtml(formatPercent(Math.max(...returns) - Math.min(...returns)))}). A wide spread means the result depends on fill assumptions more than on the signal.</p>`
      : '<p class="note">Only one fill model was run: no band of outcomes.</p>';
  return `<table class="grid band"><thead><tr><th>Fill model</th>${cols.map((c) => `<th>${c.label}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>${spread}`;
}

function equityCharts(model: ReportModel): string {
  const { primary } = model;
  const times = primary.samples.map((s) => s.time);
  // Charts draw the samples the run kept (thinned on long runs); the metrics use the full curve.
  const drawn = primary.samples.map((x) => ({ time: x.time, equity: x.equity.toNumber() }));
  const equity = drawn.map((p) => p.equity);
  const series: ChartSeries[] = [
    { name: `equity (${primary.fillModel})`, color: modelColor(primary.fillModel, 0), values: equity, width: 2 },
  ];
  let band: { name: string; color: string; lower: number[]; upper: number[] } | undefined;
  if (model.band.length > 1) {
    const curves = model.band.map((b) => (b.run === primary ? equity : equityAt(b.run.samples, times)));
    band = {
      name: 'band across fill models',
      color: BAND_FILL,
      lower: times.map((_, i) => Math.min(...curves.map((cv) => cv[i]!))),
      upper: times.map((_, i) => Math.max(...curves.map((cv) => cv[i]!))),
    };
    let custom = 0;
    model.band.forEach((b, k) => {
      if (b.run === primary) return;
      series.push({
        name: b.run.fillModel,
        color: modelColor(b.run.fillModel, MODEL_COLORS[b.run.fillModel] ? 0 : custom++),
        values: curves[k]!,
        width: 1,
        dash: '5 3',
      });
    });
  }
  const initial = primary.initialCapital.toNumber();
  const held = primary.dataRange.instruments;
  const bh = buyAndHold(primary.samples, held, initial);
  let bhNote = '';
  if (bh) {
    series.push({ name: `buy & hold ${held.join(' + ')}`, color: '#64748b', values: bh, width: 1.2, dash: '2 3' });
    const last = [...bh].reverse().find((v) => v !== null);
    if (last != null) {
      bhNote = `<p class="note" id="buy-and-hold">Buy and hold (${escapeHtml(held.join(', '))}, capital split equally, bought at the first mark, no fees): <b>${escapeHtml(formatPercent(last / initial - 1))}</b> over the run, against <b>${escapeHtml(formatPercent(model.primaryMetrics.totalReturn))}</b> for the strategy.</p>`;
    }
  }
  const equityChart = renderChart({
    id: 'chart-equity',
    title: `Equity (${primary.valuationAsset})`,
    times,
    series,
    ...(band ? { band } : {}),
    height: 300,
    valueFormat: 'amount',
    references: [{ value: initial, label: `initial capital ${formatAmount(initial)}` }],
  });
  const ddChart = renderChart({
    id: 'chart-drawdown',
    title: 'Drawdown from peak',
    times,
    series: [{ name: 'drawdown', color: '#dc2626', values: drawdownSeries(drawn), kind: 'area', width: 1.2 }],
    height: 160,
    valueFormat: 'percent',
    percentAxis: true,
    includeZero: true,
  });
  return equityChart + bhNote + ddChart;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Runs up to this long get a daily table; longer ones a monthly one. */
const DAILY_TABLE_MAX_MS = 62 * 86_400_000;

const retCell = (r: number | undefined): string =>
  r === undefined ? '<td></td>' : `<td class="num ${r < 0 ? 'neg' : r > 0 ? 'pos' : ''}">${escapeHtml(formatPercent(r))}</td>`;

/** Monthly returns (a row per year, with the year's compounded return), or daily ones (a row per ISO week) for short runs. */
function returnsTable(model: ReportModel): string {
  const { primary } = model;
  const points = equityPoints(primary);
  if (points.length < 2) return '<p class="note">Too few equity samples for a returns table.</p>';
  const span = points[points.length - 1]!.time - points[0]!.time;
  const initial = primary.initialCapital.toNumber();
  const note =
    '<p class="note">E(end of period) / E(start of period) − 1, UTC periods; the first starts from the initial capital and partial periods cover only the run.</p>';
  if (span <= DAILY_TABLE_MAX_MS) {
    const days = calendarReturns(points, 'day', initial);
    const weeks = new Map<number, (number | undefined)[]>();
    for (const d of days) {
      const dow = (new Date(d.period).getUTCDay() + 6) % 7; // Monday = 0
      const monday = d.period - dow * 86_400_000;
      const row = weeks.get(monday) ?? Array.from({ length: 7 }, () => undefined);
      row[dow] = d.ret;
      weeks.set(monday, row);
    }
    const head = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => `<th class="num">${d}</th>`).join('');
    const rows = [...weeks].map(
      ([monday, row]) => `<tr><th scope="row">${escapeHtml(formatTime(monday).slice(0, 10))}</th>${row.map(retCell).join('')}</tr>`,
    );
    return `<table class="grid returns" id="returns-daily"><caption>Daily returns (week of)</caption><thead><tr><th>Week of</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>${note}`;
  }
  const months = calendarReturns(points, 'month', initial);
  const years = new Map<number, (number | undefined)[]>();
  for (const m of months) {
    const d = new Date(m.period);
    const row = years.get(d.getUTCFullYear()) ?? Array.from({ length: 12 }, () => undefined);
    row[d.getUTCMonth()] = m.ret;
    years.set(d.getUTCFullYear(), row);
  }
  const rows = [...years].map(([year, row]) => {
    const total = row.reduce<number>((a, r) => (r === undefined ? a : a * (1 + r)), 1) - 1;
    return `<tr><th scope="row">${year}</th>${row.map(retCell).join('')}${retCell(total)}</tr>`;
  });
  return `<table class="grid returns" id="returns-monthly"><caption>Monthly returns</caption><thead><tr><th>Year</th>${MONTHS.map((m) => `<th class="num">${m}</th>`).join('')}<th class="num">Year</th></tr></thead><tbody>${rows.join('')}</tbody></table>${note}`;
}

function instrumentCharts(run: BacktestRun): string {
  const t0 = run.samples.length ? run.samples[0]!.time : run.dataRange.firstTime;
  const t1 = run.samples.length ? run.samples[run.samples.length - 1]!.time : run.dataRange.lastTime;
  const times = run.samples.map((s) => s.time);
  return symbolsOf(run)
    .map((symbol, k) => {
      const marks = run.samples.map((s) => s.marks[symbol]?.toNumber() ?? null);
      const fills = run.fills.filter((f) => f.symbol === symbol);
      const markers: ChartMarker[] = fills.map((f) => ({
        time: f.time,
        value: f.price.toNumber(),
        side: f.side,
        title: `${f.side.toUpperCase()} ${f.quantity.toFixed()} @ ${f.price.toFixed()} · ${formatTime(f.time)} · ${f.liquidity} · fee ${f.fee.toFixed()} ${f.feeAsset}`,
      }));
      const shown = thinMarkers(markers, t0, t1);
      const price = renderChart({
        id: `chart-price-${k}`,
        title: `${symbol} price with fills${shown.length < markers.length ? ` (${shown.length} of ${markers.length} fills drawn: the first buy and sell of each ${formatDuration((t1 - t0) / MARKER_COLUMNS)})` : ''}`,
        times,
        series: [{ name: 'mark', color: '#334155', values: marks, width: 1.2 }],
        markers: shown,
        height: 260,
        valueFormat: 'price',
        xRange: [t0, t1],
      });
      const pos = positionSteps(run.fills, symbol, t0, t1);
      const position = positionChart(`chart-position-${k}`, `${symbol} position`, pos, t0, t1);
      return `<section class="instrument"><h3>${escapeHtml(symbol)}</h3>${price}${position}</section>`;
    })
    .join('');
}

function limitNote(shown: number, total: number, what: string, run?: BacktestRun): string {
  const where = run?.tape
    ? `${TAPE_DIR}/${escapeHtml(run.fillModel)}/${what === 'orders' ? 'orders' : what === 'fills' ? 'fills' : 'fills'}.csv has ${what === 'round trips' ? 'the fills they come from' : 'all of them'}`
    : 'report.json has all of them';
  return total > shown ? `<p class="note">Showing the first ${shown} of ${total} ${what}; ${where}.</p>` : '';
}

function fillsTable(run: BacktestRun): string {
  const rows = run.fills
    .slice(0, HTML_TABLE_LIMIT)
    .map(
      (f) =>
        `<tr><td>${escapeHtml(formatTime(f.time))}</td><td>${escapeHtml(f.symbol)}</td><td class="${escapeHtml(f.side)}">${escapeHtml(f.side)}</td><td class="num">${escapeHtml(f.price.toFixed())}</td><td class="num">${escapeHtml(f.quantity.toFixed())}</td><td class="num">${escapeHtml(f.fee.toFixed())} ${escapeHtml(f.feeAsset)}</td><td>${escapeHtml(f.liquidity)}</td><td class="mono">${escapeHtml(f.clientOrderId ?? '')}</td><td class="mono">${escapeHtml(f.tradeId)}</td></tr>`,
    );
  if (rows.length === 0) return '<p class="note">No fills.</p>';
  return `<div class="scroll"><table class="grid"><thead><tr><th>Time (UTC)</th><th>Symbol</th><th>Side</th><th class="num">Price</th><th class="num">Qty</th><th class="num">Fee</th><th>Liquidity</th><th>Client id</th><th>Trade id</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${limitNote(rows.length, run.fills.length, 'fills', run)}`;
}

function ordersTable(run: BacktestRun): string {
  const total = run.tape?.orderCount ?? run.orders.length;
  const rows = run.orders
    .slice(0, HTML_TABLE_LIMIT)
    .map(
      (o) =>
        `<tr><td>${escapeHtml(formatTime(o.createdAt))}</td><td class="mono">${escapeHtml(o.clientOrderId)}</td><td>${escapeHtml(o.symbol)}</td><td class="${escapeHtml(o.side)}">${escapeHtml(o.side)}</td><td>${escapeHtml(o.type)} ${escapeHtml(o.timeInForce)}</td><td class="num">${escapeHtml(o.price?.toFixed() ?? '')}</td><td class="num">${escapeHtml(o.quantity?.toFixed() ?? o.quoteQuantity?.toFixed() ?? '')}</td><td class="num">${escapeHtml(o.filledQty.toFixed())}</td><td>${escapeHtml(o.status)}${o.rejectReason ? ` <small>${escapeHtml(o.rejectReason)}</small>` : ''}</td><td>${o.closedAt !== undefined ? escapeHtml(formatTime(o.closedAt)) : ''}</td></tr>`,
    );
  if (rows.length === 0) return '<p class="note">No orders.</p>';
  return `<div class="scroll"><table class="grid"><thead><tr><th>Created (UTC)</th><th>Client id</th><th>Symbol</th><th>Side</th><th>Type</th><th class="num">Price</th><th class="num">Qty</th><th class="num">Filled</th><th>Status</th><th>Closed (UTC)</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${limitNote(rows.length, total, 'orders', run)}`;
}

function roundTripsTable(model: ReportModel): string {
  const trips = model.roundTrips;
  if (model.roundTripCount === 0) return '<p class="note">No round trips (no position was reduced).</p>';
  const rows = trips
    .slice(0, HTML_TABLE_LIMIT)
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.symbol)}${t.leg !== 'net' ? ` <small>${escapeHtml(t.leg)}</small>` : ''}</td><td>${escapeHtml(t.direction)}</td><td>${escapeHtml(formatTime(t.entryTime))}</td><td>${escapeHtml(formatTime(t.exitTime))}</td><td>${escapeHtml(formatDuration(t.exitTime - t.entryTime))}</td><td class="num">${escapeHtml(t.quantity.toFixed())}</td><td class="num">${escapeHtml(t.entryPrice.toFixed())}</td><td class="num">${escapeHtml(t.exitPrice.toFixed())}</td><td class="num">${escapeHtml(formatAmount(t.fees.toNumber(), 4))}</td><td class="num ${t.netPnl.isNegative() ? 'neg' : 'pos'}">${escapeHtml(formatAmount(t.netPnl.toNumber(), 4))}</td></tr>`,
    );
  return `<div class="scroll"><table class="grid"><thead><tr><th>Symbol</th><th>Dir.</th><th>Entry (UTC)</th><th>Exit (UTC)</th><th>Held</th><th class="num">Qty</th><th class="num">Entry</th><th class="num">Exit</th><th class="num">Fees</th><th class="num">Net PnL</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${limitNote(rows.length, model.roundTripCount, 'round trips', model.primary)}`;
}

function fundingTable(run: BacktestRun): string {
  if (run.funding.length === 0) return '';
  const rows = run.funding
    .slice(0, HTML_TABLE_LIMIT)
    .map(
      (f) =>
        `<tr><td>${escapeHtml(formatTime(f.time))}</td><td>${escapeHtml(f.symbol)}</td><td class="num">${escapeHtml(f.rate?.toFixed() ?? '')}</td><td class="num ${f.amount.isNegative() ? 'neg' : 'pos'}">${escapeHtml(f.amount.toFixed())} ${escapeHtml(f.asset)}</td></tr>`,
    );
  return `<details><summary>Funding payments (${run.funding.length})</summary><div class="scroll"><table class="grid"><thead><tr><th>Time (UTC)</th><th>Symbol</th><th class="num">Rate</th><th class="num">Amount</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${limitNote(rows.length, run.funding.length, 'funding payments')}</details>`;
}

function runTable(run: BacktestRun): string {
  const r = run.dataRange;
  const kv: [string, string][] = [
    ['Strategy', `${run.strategy.name} (${run.strategy.id})`],
    ['Fill model', run.fillModel],
    ['Data range (UTC)', `${formatTime(r.firstTime)} → ${formatTime(r.lastTime)} (${formatDuration(r.lastTime - r.firstTime)})`],
    ['Instruments', r.instruments.join(', ')],
    ['Streams', r.streams.join(', ')],
    ['Records replayed', formatAmount(r.recordCount, 0)],
    ['Intra-bar path', r.klineOnlyIntraBar ? 'yes (kline-only data)' : 'no'],
    ['Initial capital', `${run.initialCapital.toFixed()} ${run.valuationAsset}`],
    ['Seed', String(run.seed)],
    ['Sample period', formatDuration(run.samplePeriodMs)],
    ['Config sha256', run.configHash],
  ];
  const params = Object.keys(run.strategy.params)
    .sort()
    .map(
      (k) =>
        `<tr><th scope="row">${escapeHtml(k)}</th><td class="mono">${escapeHtml(JSON.stringify(canonicalJson(run.strategy.params[k])))}</td></tr>`,
    )
    .join('');
  const instruments = run.instruments
    .map(
      (i) =>
        `<tr><th scope="row">${escapeHtml(i.symbol)}</th><td>${escapeHtml(i.kind)} · multiplier ${escapeHtml(i.multiplier.toFixed())} · settles in ${escapeHtml(i.settleAsset)}</td></tr>`,
    )
    .join('');
  return (
    `<div class="two-col"><table class="kv run">${kv.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td${k === 'Config sha256' ? ' class="mono"' : ''}>${escapeHtml(v)}</td></tr>`).join('')}</table>` +
    `<div><table class="kv params"><caption>Strategy parameters</caption>${params || '<tr><td>none</td></tr>'}</table><table class="kv"><caption>Instruments</caption>${instruments}</table></div></div>` +
    `<details><summary>Full config</summary><pre>${escapeHtml(JSON.stringify(canonicalJson(run.config), null, 2))}</pre></details>`
  );
}

function summaryCards(model: ReportModel): string {
  const m = model.primaryMetrics;
  const cards: [string, string, string, boolean?][] = [
    ['Total return', formatMetric(m.totalReturn, 'percent'), 'totalReturn', m.totalReturn < 0],
    ['Annualised', formatMetric(m.annualisedReturn, 'percent'), 'annualisedReturn', (m.annualisedReturn ?? 0) < 0],
    ['Sharpe', formatMetric(m.sharpe, 'ratio'), 'sharpe', (m.sharpe ?? 0) < 0],
    ['Max drawdown', formatMetric(m.maxDrawdown, 'percent'), 'maxDrawdown'],
    ['Final equity', `${formatAmount(m.finalEquity)} ${model.primary.valuationAsset}`, 'finalEquity'],
    ['Fills', formatMetric(m.trades, 'count'), 'trades'],
  ];
  const withheld = withheldMetrics(m);
  const card = ([label, value, key, neg]: [string, string, string, boolean?]): string => {
    const why = withheld.get(key as MetricKey);
    const shown =
      why === undefined
        ? `<div class="cvalue${neg ? ' neg' : ''}">${escapeHtml(value)}</div>`
        : `<div class="cvalue withheld">—</div><div class="why">${escapeHtml(why)}</div>`;
    return `<div class="card" data-card="${key}"><div class="clabel">${escapeHtml(label)}</div>${shown}</div>`;
  };
  return `<div class="cards">${cards.map(card).join('')}</div>`;
}

/** One line above the cards when the run is too short for some figures: which, and why. */
function shortRunNotice(m: Metrics): string {
  const withheld = withheldMetrics(m);
  if (withheld.size === 0) return '';
  const groups = new Map<string, string[]>();
  for (const [key, why] of withheld) groups.set(why, [...(groups.get(why) ?? []), METRIC_DEFS.find((d) => d.key === key)?.label ?? key]);
  const parts = [...groups].map(([why, labels]) => `${labels.join(', ')} withheld (${why})`);
  return `<div class="notice short" id="short-run-notice"><b>Short run.</b> ${escapeHtml(parts.join('; '))}: such figures from so few returns are noise. report.json keeps the numbers.</div>`;
}

/** The page. Deterministic: no generation time, nothing random. */
export function renderReportHtml(model: ReportModel, options: ReportHtmlOptions = {}): string {
  const run = model.primary;
  const title = `${run.strategy.name} — backtest report`;
  const notice = run.dataRange.klineOnlyIntraBar
    ? `<div class="notice" role="alert" id="kline-notice"><b>Kline-only data.</b> Fills for some instruments were simulated on a synthetic intra-bar path (open → nearer extreme → other extreme → close): the order of events inside each bar is assumed, not observed. Treat fills, queue position and intra-bar stops with caution.</div>`
    : '';
  const back = options.backLink
    ? `<a class="back" href="${escapeHtml(options.backLink.href)}">${escapeHtml(options.backLink.label)}</a>`
    : '';
  const range = `${formatTime(run.dataRange.firstTime)} → ${formatTime(run.dataRange.lastTime)} UTC`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
${back}<div class="kicker">${escapeHtml(options.heading ?? 'Backtest report')}</div>
<h1>${escapeHtml(run.strategy.name)} <small>${escapeHtml(run.strategy.id)}</small></h1>
<p class="sub">${escapeHtml(range)} · ${escapeHtml(run.dataRange.instruments.join(', '))} · fill model <b>${escapeHtml(run.fillModel)}</b> · seed ${run.seed} · config <span class="mono">${escapeHtml(run.configHash.slice(0, 12))}</span></p>
</header>
<main>
${notice}
${shortRunNotice(model.primaryMetrics)}
${summaryCards(model)}
<section id="equity"><h2>Equity and drawdown</h2>${equityCharts(model)}</section>
<section id="returns"><h2>Returns by period</h2><div class="scroll-x">${returnsTable(model)}</div></section>
<section id="band"><h2>Fill-model band</h2>${bandTable(model)}</section>
<section id="metrics"><h2>Metrics <small>(${escapeHtml(run.fillModel)} fills; returns every ${escapeHtml(formatDuration(model.primaryMetrics.returnPeriodMs))}, 365-day year, risk-free ${escapeHtml(formatPercent(model.primaryMetrics.riskFreeRate))})</small></h2>${metricsTable(model.primaryMetrics)}</section>
<section id="instruments"><h2>Prices, fills and positions</h2>${instrumentCharts(run)}</section>
<section id="round-trips"><h2>Round trips <small>(FIFO, fill to fill)</small></h2>${roundTripsTable(model)}</section>
<section id="fills"><h2>Fills</h2>${fillsTable(run)}${fundingTable(run)}</section>
<section id="orders"><h2>Orders</h2>${ordersTable(run)}</section>
<section id="run"><h2>Run</h2>${runTable(run)}</section>
</main>
<footer>Perpetua backtest report · all times UTC · Sharpe / Sortino from ${escapeHtml(formatAmount(model.primaryMetrics.periodsPerYear, 0))} return periods per year · every order and fill is in <a href="report.json">report.json</a></footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const CSS = `
:root{--fg:#0f172a;--muted:#64748b;--line:#e2e8f0;--bg:#f8fafc;--card:#fff;--pos:#15803d;--neg:#b91c1c;--accent:#2563eb}
*{box-sizing:border-box}
html,body{max-width:100%}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:20px 28px 12px;background:#0f172a;color:#e2e8f0}
header h1{margin:2px 0 4px;font-size:22px;color:#fff}
header h1 small{font-size:13px;color:#94a3b8;font-weight:400;margin-left:6px}
.kicker{text-transform:uppercase;letter-spacing:.08em;font-size:11px;color:#94a3b8}
.sub{margin:0;color:#cbd5e1;font-size:13px}
.back{float:right;color:#93c5fd;font-size:13px}
main{padding:16px 28px 28px;max-width:1360px;min-width:0}
section{min-width:0;overflow-wrap:anywhere}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:16px 0}
h2{font-size:16px;margin:0 0 10px}
h2 small,h3 small{color:var(--muted);font-weight:400;font-size:12px}
h3{font-size:14px;margin:6px 0}
.notice{background:#fffbeb;border:1px solid #f59e0b;color:#78350f;border-radius:8px;padding:10px 14px;margin:14px 0}
.cards{display:grid;grid-template-columns:repeat(6,minmax(0,1fr));gap:10px;margin:14px 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.clabel{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.cvalue{font-size:20px;font-weight:600;font-variant-numeric:tabular-nums;margin-top:2px}
.neg{color:var(--neg)}.pos{color:var(--pos)}
.buy{color:var(--pos)}.sell{color:var(--neg)}
figure.chart{margin:4px 0 12px;position:relative;overflow:hidden}
figcaption{display:flex;justify-content:space-between;align-items:baseline;font-size:12px;margin-bottom:2px}
.ctitle{font-weight:600}
.legend .key{margin-left:12px;color:var(--muted)}
.legend i{display:inline-block;width:14px;height:3px;vertical-align:middle;margin-right:4px;border-radius:2px}
.legend i.bandkey{height:10px;border:1px solid rgba(37,99,235,.35)}
.legend b{font-size:10px;margin-right:3px}
svg{display:block;width:100%;height:auto;background:#fff}
svg text{font:11px system-ui,sans-serif;fill:#64748b}
svg .ylab{text-anchor:end}svg .xlab{text-anchor:middle}svg .xlab.end{text-anchor:end}svg .xlab.start{text-anchor:start}
svg .grid{stroke:#eef2f7;stroke-width:1}
svg .frame{fill:none;stroke:#cbd5e1}
svg .ref{stroke:#94a3b8;stroke-dasharray:4 4}
svg .series{fill:none;stroke-linejoin:round}
svg .area{opacity:.18;stroke:none}
svg .band{stroke:none}
svg .mk.buy{fill:#16a34a}svg .mk.sell{fill:#dc2626}
svg .mk{stroke:#fff;stroke-width:.6}svg .dense .mk{stroke:none;opacity:.55}
svg .xhair{stroke:#0f172a;stroke-opacity:.35}
.tip{position:absolute;top:22px;pointer-events:none;background:rgba(15,23,42,.92);color:#f8fafc;font-size:12px;padding:6px 8px;border-radius:6px;white-space:nowrap;max-width:60%;overflow:hidden;font-variant-numeric:tabular-nums}
.tip i{display:inline-block;width:8px;height:8px;border-radius:50%;margin-right:5px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
table.kv th{text-align:left;font-weight:400;color:var(--muted);padding:3px 14px 3px 0;white-space:nowrap}
table.kv td{padding:3px 0;text-align:right}
table.kv.run td,table.kv.params td{text-align:left}
table.metrics{width:100%}
table.metrics tr{border-bottom:1px solid #f1f5f9}
table caption{white-space:nowrap;text-align:left;font-weight:600;font-size:12px;padding:8px 0 4px}
.two-col{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:32px}
.two-col>*{min-width:0}
table.kv td{overflow-wrap:anywhere}
.scroll-x{overflow-x:auto}
table.returns{width:auto;min-width:60%}
.withheld{color:var(--muted)}.why{color:var(--muted);font-size:11px}
table.grid{width:100%;font-size:12.5px}
table.grid thead th{text-align:left;background:#f1f5f9;padding:5px 8px;font-weight:600;position:sticky;top:0}
table.grid td{padding:4px 8px;border-top:1px solid #f1f5f9}
table.grid td.num,table.grid thead th.num{text-align:right}
table.grid tbody tr:nth-child(even){background:#fafcff}
table.band tr.primary{background:#eff6ff !important;font-weight:600}
table.band td,table.band th,table.band thead th{text-align:right}
table.band th:first-child,table.band td:first-child,table.band thead th:first-child{text-align:left}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}
.scroll{max-height:420px;overflow:auto;border:1px solid var(--line);border-radius:6px}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
.note{color:var(--muted);font-size:12.5px}
details{margin-top:10px}summary{cursor:pointer;color:var(--accent)}
pre{background:#f8fafc;border:1px solid var(--line);padding:10px;border-radius:6px;overflow:auto;max-height:400px;font-size:12px}
footer{color:var(--muted);font-size:12px;padding:0 28px 24px}
@media (max-width:900px){.cards{grid-template-columns:repeat(2,1fr)}.two-col{grid-template-columns:1fr}}
`;

/** Crosshair read-out: plain ES2017, no globals left behind, nothing fetched. */
const SCRIPT = `
(function(){
'use strict';
function grp(s){return s.replace(/\\B(?=(\\d{3})+(?!\\d))/g,',');}
function fmt(v,kind){
  if(v===null||v===undefined||!isFinite(v))return '—';
  if(kind==='percent'){var p=v*100,a=Math.abs(p),d=(a>0&&a<1)?Math.min(6,Math.max(2,1-Math.floor(Math.log10(a)))):2;return p.toFixed(d)+'%';}
  if(kind==='amount'){var a=Math.abs(v).toFixed(2).split('.');return (v<0?'−':'')+grp(a[0])+'.'+a[1];}
  if(kind==='price'){var d=Math.abs(v)>=1000?2:Math.abs(v)>=1?4:8;return v.toFixed(d);}
  return String(Number(v.toPrecision(10)));
}
function pad(n){return n<10?'0'+n:''+n;}
function time(t){var d=new Date(t);return d.getUTCFullYear()+'-'+pad(d.getUTCMonth()+1)+'-'+pad(d.getUTCDate())+' '+pad(d.getUTCHours())+':'+pad(d.getUTCMinutes())+':'+pad(d.getUTCSeconds());}
function esc(s){return String(s).replace(/[&<>"']/g,function(c){return '&#'+c.charCodeAt(0)+';';});}
var figs=document.querySelectorAll('figure.chart');
Array.prototype.forEach.call(figs,function(fig){
  var node=fig.querySelector('script.chart-data');var svg=fig.querySelector('svg');var tip=fig.querySelector('.tip');var line=fig.querySelector('.xhair');
  if(!node||!svg||!tip||!line)return;
  var d=JSON.parse(node.textContent);if(!d.t.length)return;
  svg.addEventListener('mousemove',function(ev){
    var r=svg.getBoundingClientRect();var x=(ev.clientX-r.left)/r.width*1000;
    var t=d.x0+(x-d.left)/d.width*(d.x1-d.x0);
    var lo=0,hi=d.t.length-1;while(lo<hi){var mid=(lo+hi)>>1;if(d.t[mid]<t)lo=mid+1;else hi=mid;}
    if(lo>0&&Math.abs(d.t[lo-1]-t)<Math.abs(d.t[lo]-t))lo--;
    var px=d.left+(d.t[lo]-d.x0)/((d.x1-d.x0)||1)*d.width;
    line.setAttribute('x1',px);line.setAttribute('x2',px);line.setAttribute('visibility','visible');
    var html='<div>'+esc(time(d.t[lo]))+' UTC</div>';
    d.s.forEach(function(s){html+='<div><i style="background:'+esc(s.c)+'"></i>'+esc(s.n)+': <b>'+esc(fmt(s.v[lo],d.fmt))+'</b></div>';});
    tip.innerHTML=html;tip.hidden=false;
    var left=px/1000*r.width+12;if(left>r.width-tip.offsetWidth-4)left=px/1000*r.width-tip.offsetWidth-12;tip.style.left=left+'px';
  });
  svg.addEventListener('mouseleave',function(){tip.hidden=true;line.setAttribute('visibility','hidden');});
});
})();
`;

/** Exposed for the sweep index page, which shares the look. */
export const REPORT_CSS = CSS;
