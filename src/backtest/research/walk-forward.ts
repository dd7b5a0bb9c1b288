/**
 * Walk-forward validation over the runs of a sweep. Every candidate ran once over the whole data
 * range; its equity curve and fills are then read window by window (computeMetrics' `window`), so a
 * candidate's state (indicators, open position) carries across windows as it would live.
 *
 * The span [t₀, t_end] is cut into `trainSegments + folds` equal segments. Fold k tests on segment
 * trainSegments + k and trains on
 *   rolling:  the `trainSegments` segments just before it;
 *   anchored: everything from t₀ up to it.
 * In each fold the candidate with the best in-sample objective (constraints applied in-sample) is
 * chosen and its out-of-sample figures are what the fold reports: the walk-forward result is what
 * choosing by the past would have earned.
 */
import { ConfigError } from '../../core/errors.js';
import type { BacktestRun } from '../report/backtest-run.js';
import { computeMetrics, type Metrics } from '../report/metrics.js';
import { type Constraint, type Objective, compareByObjective, violations } from './objective.js';

export type WalkForwardMode = 'rolling' | 'anchored';

export interface WalkForwardSettings {
  readonly mode: WalkForwardMode;
  readonly folds: number;
  readonly trainSegments: number;
}

export interface Window {
  readonly from: number;
  readonly to: number;
}

export interface Fold {
  readonly index: number;
  readonly train: Window;
  readonly test: Window;
}

/** The folds over [start, end]; throws when the span is too short to cut. */
export function walkForwardFolds(start: number, end: number, s: WalkForwardSettings): Fold[] {
  const segments = s.trainSegments + s.folds;
  const len = Math.floor((end - start) / segments);
  if (!(len > 0)) throw new ConfigError('sweep.walkForward', `the data span (${end - start} ms) is too short for ${segments} segments`);
  return Array.from({ length: s.folds }, (_, k) => {
    const testFrom = start + (s.trainSegments + k) * len;
    // The last fold runs to the end so no data is left out by the rounding of len.
    const testTo = k === s.folds - 1 ? end : testFrom + len;
    const trainFrom = s.mode === 'anchored' ? start : testFrom - s.trainSegments * len;
    return { index: k, train: { from: trainFrom, to: testFrom }, test: { from: testFrom, to: testTo } };
  });
}

export interface CandidateWindows {
  readonly key: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** Per fold, the in-sample and out-of-sample metrics. */
  readonly folds: readonly { readonly inSample: Metrics; readonly outOfSample: Metrics }[];
  /** Mean objective over the folds' train and test windows (null when undefined in every fold). */
  readonly inSampleScore: number | null;
  readonly outOfSampleScore: number | null;
}

export interface FoldResult extends Fold {
  /** The in-sample winner (null when no candidate met the constraints in sample). */
  readonly chosen: {
    readonly key: string;
    readonly params: Readonly<Record<string, unknown>>;
    readonly inSample: Metrics;
    readonly outOfSample: Metrics;
  } | null;
  readonly inSampleScore: number | null;
  readonly outOfSampleScore: number | null;
}

export interface WalkForwardResult {
  readonly settings: WalkForwardSettings;
  readonly folds: readonly FoldResult[];
  readonly candidates: readonly CandidateWindows[];
  /** Mean of the fold winners' in-sample and out-of-sample objective. */
  readonly inSampleScore: number | null;
  readonly outOfSampleScore: number | null;
}

const meanOf = (xs: readonly (number | null)[]): number | null => {
  const ok = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return ok.length === 0 ? null : ok.reduce((a, b) => a + b, 0) / ok.length;
};

export interface WalkForwardCandidate {
  readonly key: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly run: BacktestRun;
}

export function walkForward(
  candidates: readonly WalkForwardCandidate[],
  settings: WalkForwardSettings,
  objective: Objective,
  constraints: readonly Constraint[],
): WalkForwardResult {
  if (candidates.length === 0) throw new ConfigError('sweep', 'walk-forward needs at least one run');
  const first = candidates[0]!.run;
  const start = first.samples[0]?.time ?? first.dataRange.firstTime;
  const end = first.samples[first.samples.length - 1]?.time ?? first.dataRange.lastTime;
  const folds = walkForwardFolds(start, end, settings);
  const windows: CandidateWindows[] = candidates.map((c) => {
    const perFold = folds.map((f) => ({
      inSample: computeMetrics(c.run, { window: f.train }),
      outOfSample: computeMetrics(c.run, { window: f.test }),
    }));
    return {
      key: c.key,
      params: c.params,
      folds: perFold,
      inSampleScore: meanOf(perFold.map((x) => objective.score(x.inSample))),
      outOfSampleScore: meanOf(perFold.map((x) => objective.score(x.outOfSample))),
    };
  });
  const results: FoldResult[] = folds.map((f, k) => {
    const rows = windows.map((w) => ({
      w,
      key: w.key,
      metrics: w.folds[k]!.inSample,
      feasible: violations(w.folds[k]!.inSample, constraints).length === 0,
    }));
    const best = [...rows].sort(compareByObjective(objective, (x) => x))[0];
    if (!best || !best.feasible) return { ...f, chosen: null, inSampleScore: null, outOfSampleScore: null };
    const m = best.w.folds[k]!;
    return {
      ...f,
      chosen: { key: best.key, params: best.w.params, inSample: m.inSample, outOfSample: m.outOfSample },
      inSampleScore: objective.score(m.inSample),
      outOfSampleScore: objective.score(m.outOfSample),
    };
  });
  return {
    settings,
    folds: results,
    candidates: windows,
    inSampleScore: meanOf(results.map((r) => r.inSampleScore)),
    outOfSampleScore: meanOf(results.map((r) => r.outOfSampleScore)),
  };
}
