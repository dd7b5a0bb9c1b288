/**
 * report.json: every metric, every order and fill, the config and its hash, the data range, and the
 * band of outcomes across fill models. Keys are written in a fixed order and numbers through
 * `stableNumber`, so identical runs give identical bytes.
 */
import { createHash } from 'node:crypto';
import { type Decimal, ZERO } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import {
  type BacktestRun,
  type RunFillJson,
  type RunFundingJson,
  type RunHeaderJson,
  type RunOrderJson,
  type RunSampleJson,
  STANDARD_FILL_MODELS,
  fillToJson,
  fundingToJson,
  multiplierOf,
  orderToJson,
  runHeaderToJson,
  sampleToJson,
  stableNumber,
  validateRun,
} from './backtest-run.js';
import { METRIC_DEFS } from './metric-defs.js';
import { type Metrics, type MetricsOptions, type RoundTrip, computeMetrics, forEachRoundTrip } from './metrics.js';

export const REPORT_FORMAT = 'perpetua-backtest-report/1';
/** report.json keeps at most this many equity samples (every k-th, plus the last). */
export const REPORT_SERIES_MAX = 5000;
/** Rows of each list the page shows; report.json has them all (a run with a tape: its CSV files). */
export const HTML_TABLE_LIMIT = 1000;

export type MetricsJson = Record<string, number | null>;

export interface BandEntryJson {
  fillModel: string;
  seed: number;
  configHash: string;
  /** sha256 of the run's order list as written (golden-master anchor). */
  ordersHash: string;
  fillsHash: string;
  metrics: MetricsJson;
}

export interface RoundTripJson {
  symbol: string;
  leg: string;
  direction: string;
  quantity: string;
  entryTime: number;
  exitTime: number;
  entryPrice: string;
  exitPrice: string;
  grossPnl: string;
  fees: string;
  netPnl: string;
}

export interface ReportJson {
  format: string;
  run: RunHeaderJson;
  metrics: MetricsJson;
  band: BandEntryJson[];
  feesByAsset: Record<string, string>;
  roundTrips: RoundTripJson[];
  /** Runs with a tape (run-tape.ts) leave these lists empty: the tape's CSV files hold them. */
  orders: RunOrderJson[];
  fills: RunFillJson[];
  funding: RunFundingJson[];
  series: { stride: number; count: number; samples: RunSampleJson[] };
  /** Where the full record is, per fill model, and how many rows each file has. */
  tape?: { dir: string; fillModel: string; orders: number; fills: number; funding: number; samples: number }[];
}

/** Metrics in METRIC_DEFS order, numbers through stableNumber. */
export function metricsToJson(m: Metrics): MetricsJson {
  const out: MetricsJson = {};
  for (const d of METRIC_DEFS) {
    const v = m[d.key];
    out[d.key] = v === null ? null : stableNumber(v);
  }
  return out;
}

export function roundTripToJson(t: RoundTrip): RoundTripJson {
  return {
    symbol: t.symbol,
    leg: t.leg,
    direction: t.direction,
    quantity: t.quantity.toFixed(),
    entryTime: t.entryTime,
    exitTime: t.exitTime,
    entryPrice: t.entryPrice.toFixed(),
    exitPrice: t.exitPrice.toFixed(),
    grossPnl: t.grossPnl.toFixed(),
    fees: t.fees.toFixed(),
    netPnl: t.netPnl.toFixed(),
  };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** sha256 of the order list as report.json writes it. */
export const ordersHash = (run: BacktestRun): string => run.tape?.ordersHash ?? sha256(JSON.stringify(run.orders.map(orderToJson)));
/**
 * sha256 of the fill list as JSON (`JSON.stringify(run.fills.map(fillToJson))`), fed to the hash one
 * fill at a time: the same bytes without the whole list's text in memory at once (60k fills: 15 MB).
 */
export const fillsHash = (run: BacktestRun): string => {
  const h = createHash('sha256');
  run.fills.forEach((f, i) => h.update((i === 0 ? '[' : ',') + JSON.stringify(fillToJson(f))));
  return h.update(run.fills.length === 0 ? '[]' : ']').digest('hex');
};

/** Standard models in their natural order, custom ones after, in the order given. */
export function bandOrder<T extends { fillModel: string }>(entries: readonly T[]): T[] {
  const rank = (m: string): number => {
    const i = (STANDARD_FILL_MODELS as readonly string[]).indexOf(m);
    return i < 0 ? STANDARD_FILL_MODELS.length : i;
  };
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e.fillModel) - rank(b.e.fillModel) || a.i - b.i)
    .map((x) => x.e);
}

export interface ReportModel {
  /** runs[0]: the run the report is about (neutral); all runs, in band order, make the band. */
  readonly primary: BacktestRun;
  readonly primaryMetrics: Metrics;
  readonly band: readonly { readonly run: BacktestRun; readonly metrics: Metrics }[];
  /** The primary's round trips: all of them, or for a run with a tape the first HTML_TABLE_LIMIT (the page's table). */
  readonly roundTrips: readonly RoundTrip[];
  readonly roundTripCount: number;
}

/** Validates the runs and computes everything both files need, once. */
export function buildReportModel(runs: readonly BacktestRun[], options: MetricsOptions = {}): ReportModel {
  if (runs.length === 0) throw new ValidationError('runs', 'at least one run (the neutral fill model first)');
  runs.forEach(validateRun);
  const primary = runs[0]!;
  for (const r of runs.slice(1)) {
    if (r.configHash !== primary.configHash)
      throw new ValidationError('runs[].configHash', `the band's runs to share config ${primary.configHash}`, r.configHash);
  }
  const primaryPeriod = options.returnPeriodMs;
  const settle = new Map(primary.instruments.map((i) => [i.symbol, i.settleAsset]));
  // A run with a tape writes no round trips to report.json; the page shows the first ones.
  const keep = primary.tape === undefined ? Infinity : HTML_TABLE_LIMIT;
  const roundTrips: RoundTrip[] = [];
  let roundTripCount = 0;
  const take = (t: RoundTrip): void => {
    if (roundTripCount++ < keep) roundTrips.push(t);
  };
  // Without a window the metrics' pass matches every fill: its trips are the table's (the second FIFO
  // match over all fills, in Decimal, was 20–40 ms of the 50.8-day perp-trend command's report).
  const primaryMetrics = options.window === undefined ? computeMetrics(primary, options, take) : computeMetrics(primary, options);
  if (options.window !== undefined) forEachRoundTrip(primary.fills, multiplierOf(primary), (s) => settle.get(s), take);
  // Every model uses the primary's return period, or the band's Sharpe ratios would not compare.
  const shared: MetricsOptions = { ...options, returnPeriodMs: primaryPeriod ?? primaryMetrics.returnPeriodMs };
  const band = bandOrder(
    runs.map((run, i) => ({ fillModel: run.fillModel, run, metrics: i === 0 ? primaryMetrics : computeMetrics(run, shared) })),
  );
  return { primary, primaryMetrics, band, roundTrips, roundTripCount };
}

export function buildReportJson(model: ReportModel): ReportJson {
  const { primary } = model;
  const feesByAsset = new Map<string, Decimal>();
  for (const f of primary.fills) feesByAsset.set(f.feeAsset, (feesByAsset.get(f.feeAsset) ?? ZERO).plus(f.fee));
  const fees: Record<string, string> = {};
  for (const k of [...feesByAsset.keys()].sort()) fees[k] = feesByAsset.get(k)!.toFixed();
  const n = primary.samples.length;
  const stride = Math.max(1, Math.ceil(n / REPORT_SERIES_MAX));
  const picked = primary.samples.filter((_, i) => i % stride === 0 || i === n - 1);
  const taped = primary.tape !== undefined;
  return {
    format: REPORT_FORMAT,
    run: runHeaderToJson(primary),
    metrics: metricsToJson(model.primaryMetrics),
    band: model.band.map(({ run, metrics }) => ({
      fillModel: run.fillModel,
      seed: run.seed,
      configHash: run.configHash,
      ordersHash: ordersHash(run),
      fillsHash: fillsHash(run),
      metrics: metricsToJson(metrics),
    })),
    feesByAsset: fees,
    roundTrips: taped ? [] : model.roundTrips.map(roundTripToJson),
    orders: taped ? [] : primary.orders.map(orderToJson),
    fills: taped ? [] : primary.fills.map(fillToJson),
    funding: taped ? [] : primary.funding.map(fundingToJson),
    series: { stride: stride * (primary.tape?.stride ?? 1), count: primary.tape?.sampleCount ?? n, samples: picked.map(sampleToJson) },
    ...(taped
      ? {
          tape: model.band.map(({ run }) => ({
            dir: run.tape?.dir ?? '',
            fillModel: run.fillModel,
            orders: run.tape?.orderCount ?? run.orders.length,
            fills: run.fills.length,
            funding: run.funding.length,
            samples: run.tape?.sampleCount ?? run.samples.length,
          })),
        }
      : {}),
  };
}

/** Two-space indented, trailing newline: diff-friendly and byte-stable. */
export const serialiseReportJson = (report: ReportJson): string => `${JSON.stringify(report, null, 2)}\n`;
