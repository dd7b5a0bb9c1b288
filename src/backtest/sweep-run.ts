/**
 * One run of a sweep, wherever it runs (a worker thread, or a queue worker on another machine): the
 * data is loaded and compiled once per process, then each point's config is parsed and replayed.
 */
import { ConfigError } from '../core/errors.js';
import { ConfigInvalid } from '../core/config/config-issues.js';
import type { StrategyCatalog } from '../runtime/config/load-run-config.js';
import { type BacktestConfig, parseBacktestConfig } from './backtest-config.js';
import { loadBacktestData } from './backtest-data.js';
import { type BacktestResult, type PreparedReplay, prepareReplay, runBacktest } from './backtest-runner.js';
import { type RunPruning, prunedRung, rungValue } from './research/asha.js';
import { resolveObjective } from './research/objective.js';

export interface SweepData {
  readonly prepared: PreparedReplay;
}

/** Loads and compiles the data of `base` (its range and instruments), as every run of the sweep replays it. */
export async function loadSweepData(base: BacktestConfig, cwd: string): Promise<SweepData> {
  const data = await loadBacktestData(base.backtest.data, {
    cwd,
    ...(base.backtest.from !== undefined ? { from: base.backtest.from } : {}),
    ...(base.backtest.to !== undefined ? { to: base.backtest.to } : {}),
    instruments: base.instruments.map((i) => `${i.source.market}:${i.source.symbol}`),
  });
  return { prepared: prepareReplay(base, data.records) };
}

export interface SweepRunResult extends BacktestResult {
  /** With pruning: the oriented objective at each rung the run passed (asha.ts), −∞ when undefined. */
  readonly rungValues: readonly number[];
}

/**
 * Runs the config document of one point (strategy params applied) with the named fill model. With
 * `pruning`, the run reports its objective at each rung and stops at the first whose threshold it
 * misses (`stoppedAt`).
 */
export async function runSweepDocument(
  data: SweepData,
  document: Record<string, unknown>,
  fillModel: string,
  catalog: StrategyCatalog,
  source: string,
  pruning?: RunPruning,
): Promise<SweepRunResult> {
  const config = parseBacktestConfig(document, catalog, source);
  const model = config.fillModels.find((m) => m.name === fillModel);
  if (!model) throw new Error(`fill model ${fillModel} is not in backtest.fillModels`);
  const rungValues: number[] = [];
  const objective = pruning ? resolveObjective(pruning.objective.name, pruning.objective) : undefined;
  const checkpoints = pruning && {
    times: pruning.times,
    check: (k: number, soFar: BacktestResult['run']): boolean => {
      rungValues.push(rungValue(objective!, soFar, pruning.times[k]!));
      return prunedRung(rungValues, pruning.thresholds) === k;
    },
  };
  const result = await runBacktest({
    config,
    records: data.prepared.events,
    fillModel: model,
    streams: data.prepared.streams,
    ...(checkpoints ? { checkpoints } : {}),
  });
  return { ...result, rungValues };
}

/**
 * Why a point cannot run, when the error says the point's config is invalid (a strategy refusing
 * fastPeriod ≥ slowPeriod): the sweep counts it infeasible and goes on. Undefined for anything else
 * (a defect, unreadable data), which still stops the sweep.
 */
export function infeasibleReason(e: unknown): string | undefined {
  if (e instanceof ConfigInvalid) return e.lines().join('; ');
  if (e instanceof ConfigError) return e.message;
  return undefined;
}
