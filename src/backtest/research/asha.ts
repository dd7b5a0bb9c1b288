/**
 * Pruning of sweep runs that cannot win: asynchronous successive halving (ASHA, Li et al., "A System
 * for Massively Parallel Hyperparameter Tuning", MLSys 2020), in its stopping form (Optuna's
 * SuccessiveHalvingPruner): a run reports its objective at each rung and stops there when it is not
 * among the best 1/η of the runs that reached that rung.
 *
 * Rungs are time checkpoints of one run: the walk-forward fold boundaries (where each test window
 * starts) when the sweep validates walk-forward, otherwise `rungs` equal cuts of the data span. At
 * rung k the run reports the objective over [start, rung time] — everything it has seen so far.
 *
 * Deterministic variant. True ASHA compares a run with whatever runs happened to report at the rung
 * before it, so which runs are stopped depends on which worker was faster. Here a run competes only
 * with the runs of EARLIER batches (the sweep proposes in batches; every run of a batch starts after
 * the batch before has finished): the thresholds are fixed when a batch is sent, travel with each job
 * (worker thread or queue worker alike), and the runner stops the run at the first rung whose
 * threshold it misses. Completion order and worker count then change nothing. The price: the first
 * batch is never pruned, and runs of one batch do not prune each other (ASHA's rung population grows
 * batch by batch instead of run by run).
 *
 * Rule at rung k (values oriented so that higher is better, an undefined score is −∞): with m earlier
 * values at the rung, nothing is pruned while m < minRuns; otherwise the run (n = m + 1 competitors,
 * itself included) continues when it ranks among the best max(1, ⌊n/η⌋), ties in its favour — that is
 * when its value ≥ the ⌊n/η⌋-th best earlier value (or the best, when ⌊n/η⌋ = 0).
 */
import type { BacktestRun } from '../report/backtest-run.js';
import { computeMetrics } from '../report/metrics.js';
import type { Objective } from './objective.js';
import { walkForwardFolds, type WalkForwardSettings } from './walk-forward.js';

export interface PruningSettings {
  readonly method: 'asha';
  /** Reduction factor η: the best 1/η of a rung go on. */
  readonly eta: number;
  /** No pruning at a rung until this many earlier runs reached it. */
  readonly minRuns: number;
  /** Rungs when the sweep has no walk-forward (its folds are the rungs otherwise). */
  readonly rungs: number;
}

/** What a run needs to stop itself early: the rung times and the value each rung asks for. */
export interface RunPruning {
  /** Rung times (ms), ascending, all before the end of the data. */
  readonly times: readonly number[];
  /** Per rung, the least oriented value that continues (null: nothing is pruned there). */
  readonly thresholds: readonly (number | null)[];
  /** The objective, rebuilt where the run executes (worker threads, queue workers). */
  readonly objective: { readonly name: string; readonly drawdownPenalty?: number };
}

/** The objective oriented so that higher is better; an undefined or non-finite score is −∞. */
export function orientedScore(objective: Objective, score: number | null): number {
  if (score === null || !Number.isFinite(score)) return -Infinity;
  return objective.lowerIsBetter ? -score : score;
}

/** The rung times over the data span [start, end]: the walk-forward test starts, or `rungs` equal cuts. */
export function rungTimes(start: number, end: number, pruning: PruningSettings, walkForward: WalkForwardSettings | undefined): number[] {
  const cuts = walkForward ?? { mode: 'anchored' as const, folds: pruning.rungs, trainSegments: 1 };
  return walkForwardFolds(start, end, cuts).map((f) => f.test.from);
}

/** Threshold per rung from the oriented values the earlier runs reported there (see the rule above). */
export function rungThresholds(
  earlier: readonly (readonly number[])[],
  pruning: Pick<PruningSettings, 'eta' | 'minRuns'>,
): (number | null)[] {
  return earlier.map((values) => {
    const m = values.length;
    if (m < Math.max(1, pruning.minRuns)) return null;
    const k = Math.max(1, Math.floor((m + 1) / pruning.eta));
    const t = [...values].sort((a, b) => b - a)[k - 1]!;
    // −∞ keeps everything (an undefined score ties with it): no threshold at all.
    return t === -Infinity ? null : t;
  });
}

/** The first rung whose threshold the oriented values miss, or undefined when the run goes on to the end. */
export function prunedRung(values: readonly number[], thresholds: readonly (number | null)[]): number | undefined {
  for (let k = 0; k < values.length && k < thresholds.length; k++) {
    const t = thresholds[k];
    if (t !== null && t !== undefined && values[k]! < t) return k;
  }
  return undefined;
}

/** The start of a run's span: its first sample (as walk-forward cuts it), else its first record. */
export const spanStart = (run: BacktestRun): number => run.samples[0]?.time ?? run.dataRange.firstTime;
/** The end of a run's span: its last sample, else its last record. */
export const spanEnd = (run: BacktestRun): number => run.samples[run.samples.length - 1]?.time ?? run.dataRange.lastTime;

/** The oriented objective of `run` over [start, time]: what the run reports at a rung at `time`. */
export function rungValue(objective: Objective, run: BacktestRun, time: number): number {
  return orientedScore(objective, objective.score(computeMetrics(run, { window: { from: spanStart(run), to: time } })));
}

/** Rung values cross JSON (worker threads, Redis, the checkpoint) with −∞ as null. */
export const valuesToJson = (values: readonly number[]): (number | null)[] => values.map((v) => (v === -Infinity ? null : v));
export const valuesFromJson = (values: readonly (number | null)[]): number[] => values.map((v) => (v === null ? -Infinity : v));
