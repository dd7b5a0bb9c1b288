/**
 * What a sweep optimises: a named objective (a loss function in hyperopt terms, here a score where
 * higher is better) or a plain metric, and the constraints a result must meet to be ranked at all.
 *
 * Only metrics that are results of the run can rank or constrain: settings echoed into the metrics
 * (return period, risk-free rate, initial equity) and times (start, drawdown peak …) are refused by
 * name, so `rankBy: startTime` is a config error, not a silent sort by date.
 */
import { ConfigError } from '../../core/errors.js';
import { METRIC_DEFS, type MetricFormat, metricDef } from '../report/metric-defs.js';
import type { MetricKey, Metrics } from '../report/metrics.js';

/** Metrics echoed from the settings, not results of the strategy. */
const SETTINGS: ReadonlySet<MetricKey> = new Set<MetricKey>(['initialEquity', 'returnPeriodMs', 'periodsPerYear', 'riskFreeRate']);

/** Metric keys a sweep may rank by or constrain: results, not settings or times. */
export const RANKABLE_METRICS: readonly MetricKey[] = METRIC_DEFS.filter((d) => d.format !== 'time' && !SETTINGS.has(d.key)).map(
  (d) => d.key,
);

export const OBJECTIVE_NAMES = ['sharpe', 'sortino', 'calmar', 'returnDrawdown', 'profitFactor'] as const;
export type ObjectiveName = (typeof OBJECTIVE_NAMES)[number];

export interface Objective {
  /** The config name: a named objective or a metric key. */
  readonly name: string;
  readonly label: string;
  /** What `score` computes, one line for the report. */
  readonly help: string;
  /** Higher is better after this; null when the run gives no value (ranked last). */
  score(m: Metrics): number | null;
  /** The metric the score is (for formatting), when it is one. */
  readonly metric?: MetricKey;
  readonly lowerIsBetter: boolean;
  /** How the score is shown. */
  readonly format: MetricFormat;
}

export interface ObjectiveOptions {
  /** returnDrawdown: score = total return − penalty · max drawdown. Default 2. */
  readonly drawdownPenalty?: number;
}

function metricObjective(key: MetricKey): Objective {
  const def = metricDef(key)!;
  return {
    name: key,
    label: def.label,
    help: def.help,
    metric: key,
    format: def.format,
    lowerIsBetter: def.lowerIsBetter === true,
    score: (m) => m[key],
  };
}

/**
 * The objective named `name` (one of OBJECTIVE_NAMES, or a rankable metric key). `field` is the config
 * path the name came from, for the error.
 */
export function resolveObjective(name: string, options: ObjectiveOptions = {}, field = 'sweep.objective'): Objective {
  if (name === 'returnDrawdown') {
    const k = options.drawdownPenalty ?? 2;
    return {
      name,
      label: `Return − ${k}·drawdown`,
      help: `total return − ${k} · max drawdown`,
      lowerIsBetter: false,
      format: 'percent',
      score: (m) => m.totalReturn - k * m.maxDrawdown,
    };
  }
  if ((RANKABLE_METRICS as readonly string[]).includes(name)) return metricObjective(name as MetricKey);
  const choices = field.endsWith('rankBy')
    ? RANKABLE_METRICS
    : [...OBJECTIVE_NAMES, ...RANKABLE_METRICS.filter((k) => !(OBJECTIVE_NAMES as readonly string[]).includes(k))];
  throw new ConfigError(field, `expected one of ${choices.join(', ')}, got ${JSON.stringify(name)}`);
}

/** A bound on one metric: the result must have min ≤ value ≤ max. */
export interface Constraint {
  readonly metric: MetricKey;
  readonly min?: number;
  readonly max?: number;
}

/** Checks `sweep.constraints` (metric → {min, max}) against the metric names. */
export function resolveConstraints(
  raw: Readonly<Record<string, { readonly min?: number | undefined; readonly max?: number | undefined }>> | undefined,
): Constraint[] {
  if (!raw) return [];
  return Object.keys(raw)
    .sort()
    .map((key) => {
      if (!(RANKABLE_METRICS as readonly string[]).includes(key))
        throw new ConfigError(`sweep.constraints.${key}`, `expected a metric name (${RANKABLE_METRICS.join(', ')})`);
      const { min, max } = raw[key]!;
      if (min === undefined && max === undefined) throw new ConfigError(`sweep.constraints.${key}`, 'expected min or max');
      if (min !== undefined && max !== undefined && max < min)
        throw new ConfigError(`sweep.constraints.${key}.max`, `expected at least min (${min})`);
      return { metric: key as MetricKey, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
    });
}

/**
 * The constraints `m` breaks, as short phrases ("trades 6 < 20"). A missing value (an undefined
 * ratio) breaks any bound on it: it cannot be shown to hold.
 */
export function violations(m: Metrics, constraints: readonly Constraint[]): string[] {
  const out: string[] = [];
  for (const c of constraints) {
    const v = m[c.metric];
    if (v === null || !Number.isFinite(v)) out.push(`${c.metric} undefined`);
    else if (c.min !== undefined && v < c.min) out.push(`${c.metric} ${round(v)} < ${c.min}`);
    else if (c.max !== undefined && v > c.max) out.push(`${c.metric} ${round(v)} > ${c.max}`);
  }
  return out;
}

const round = (v: number): string => String(Number(v.toPrecision(4)));

/**
 * Orders results best first: those meeting every constraint, by score (descending; a lower-is-better
 * metric is negated), then the rest; null scores last within each group; ties by `key`.
 */
export function compareByObjective<T>(
  objective: Objective,
  get: (t: T) => { metrics: Metrics; feasible: boolean; key: string },
): (a: T, b: T) => number {
  const sign = objective.lowerIsBetter ? -1 : 1;
  return (a, b) => {
    const x = get(a);
    const y = get(b);
    if (x.feasible !== y.feasible) return x.feasible ? -1 : 1;
    const xs = finite(objective.score(x.metrics));
    const ys = finite(objective.score(y.metrics));
    if (xs === null && ys !== null) return 1;
    if (ys === null && xs !== null) return -1;
    if (xs !== null && ys !== null && xs !== ys) return sign * (ys - xs);
    return x.key < y.key ? -1 : x.key > y.key ? 1 : 0;
  };
}

const finite = (v: number | null): number | null => (v === null || !Number.isFinite(v) ? null : v);
