/**
 * One run of a sweep, wherever it runs (a worker thread, or a queue worker on another machine): the
 * data is loaded and compiled once per process, then each point's config is parsed and replayed.
 */
import type { StrategyCatalog } from '../runtime/config/load-run-config.js';
import { type BacktestConfig, parseBacktestConfig } from './backtest-config.js';
import { loadBacktestData } from './backtest-data.js';
import { type BacktestResult, type PreparedReplay, prepareReplay, runBacktest } from './backtest-runner.js';

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

/** Runs the config document of one point (strategy params already applied) with the named fill model. */
export async function runSweepDocument(data: SweepData, document: Record<string, unknown>, fillModel: string, catalog: StrategyCatalog, source: string): Promise<BacktestResult> {
  const config = parseBacktestConfig(document, catalog, source);
  const model = config.fillModels.find((m) => m.name === fillModel);
  if (!model) throw new Error(`fill model ${fillModel} is not in backtest.fillModels`);
  return runBacktest({ config, records: data.prepared.events, fillModel: model, streams: data.prepared.streams });
}
