/**
 * What one point of a sweep came to, wherever it ran (worker thread, queue worker, the checkpoint):
 * a run (whole, or stopped at a rung by pruning), or infeasible — its config is invalid, so it never ran.
 */
import type { BacktestRun } from './report/backtest-run.js';
import { type BacktestRunJson, runFromJson, runToJson } from './report/run-codec.js';
import { valuesFromJson, valuesToJson } from './research/asha.js';

export type SweepOutcome =
  | {
      readonly kind: 'run';
      readonly run: BacktestRun;
      /** With pruning: the oriented objective at each rung the run reached (asha.ts). */
      readonly rungValues: readonly number[];
      /** The rung at which pruning stopped the run. */
      readonly prunedAt?: number;
      /**
       * `JSON.stringify(runToJson(run))` when the run arrived as that text (a sweep worker thread): the
       * checkpoint writes it as is rather than encoding the run again on the main thread.
       */
      readonly runText?: string;
    }
  | { readonly kind: 'infeasible'; readonly reason: string };

export type SweepOutcomeJson = { run: BacktestRunJson; rungValues?: (number | null)[]; prunedAt?: number } | { infeasible: string };

export function outcomeToJson(o: SweepOutcome): SweepOutcomeJson {
  if (o.kind === 'infeasible') return { infeasible: o.reason };
  return { run: runToJson(o.run), ...runOutcomeExtras(o) };
}

/** What a run's outcome holds besides the run: the rungs it reached and where pruning stopped it. */
export function runOutcomeExtras(o: Extract<SweepOutcome, { kind: 'run' }>): { rungValues?: (number | null)[]; prunedAt?: number } {
  return {
    ...(o.rungValues.length > 0 ? { rungValues: valuesToJson(o.rungValues) } : {}),
    ...(o.prunedAt !== undefined ? { prunedAt: o.prunedAt } : {}),
  };
}

export function outcomeFromJson(j: SweepOutcomeJson): SweepOutcome {
  if ('infeasible' in j) return { kind: 'infeasible', reason: j.infeasible };
  return {
    kind: 'run',
    run: runFromJson(j.run),
    rungValues: valuesFromJson(j.rungValues ?? []),
    ...(j.prunedAt !== undefined ? { prunedAt: j.prunedAt } : {}),
  };
}
