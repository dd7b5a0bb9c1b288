/**
 * One worker thread of a sweep: loads the config's data once, then runs the grid points it is sent
 * and posts each run back as plain JSON (Decimals do not survive structured cloning; the main thread
 * rebuilds them with runFromJson).
 *
 *   in:  { id, point, fillModel }          out: { id, run } | { id, error }
 */
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { strategyCatalog } from '../app/container/strategy-module.js';
import { parseBacktestConfig } from './backtest-config.js';
import { loadBacktestConfig } from './backtest-config.js';
import { loadBacktestData } from './backtest-data.js';
import { prepareReplay, runBacktest } from './backtest-runner.js';
import { runToJson } from './report/run-codec.js';
import { documentWithParams, type GridPoint } from './sweep-grid.js';

export interface SweepWorkerData {
  readonly configPath: string;
  readonly cwd: string;
}

export interface SweepJob {
  readonly id: number;
  readonly point: GridPoint;
  readonly fillModel: string;
}

export type SweepAnswer = { readonly id: number; readonly run: ReturnType<typeof runToJson>; readonly events: number } | { readonly id: number; readonly error: string };

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('sweep-worker.js runs as a worker thread');
  const { configPath, cwd } = workerData as SweepWorkerData;
  const catalog = strategyCatalog();
  const base = await loadBacktestConfig(configPath, catalog);
  const data = await loadBacktestData(base.backtest.data, {
    cwd,
    ...(base.backtest.from !== undefined ? { from: base.backtest.from } : {}),
    ...(base.backtest.to !== undefined ? { to: base.backtest.to } : {}),
    instruments: base.instruments.map((i) => `${i.source.market}:${i.source.symbol}`),
  });
  const prepared = prepareReplay(base, data.records);
  // Jobs run one at a time: a worker is one core.
  let queue = Promise.resolve();
  port.on('message', (job: SweepJob | 'stop') => {
    if (job === 'stop') {
      void queue.then(() => port.close());
      return;
    }
    queue = queue.then(async () => {
      try {
        const config = parseBacktestConfig(documentWithParams(base.document, job.point), catalog, `${configPath} (${JSON.stringify(job.point)})`);
        const model = config.fillModels.find((m) => m.name === job.fillModel);
        if (!model) throw new Error(`fill model ${job.fillModel} is not in backtest.fillModels`);
        const r = await runBacktest({ config, records: prepared.events, fillModel: model, streams: prepared.streams });
        port.postMessage({ id: job.id, run: runToJson(r.run), events: r.stats.events } satisfies SweepAnswer);
      } catch (e) {
        port.postMessage({ id: job.id, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) } satisfies SweepAnswer);
      }
    });
  });
  port.postMessage('ready');
}

void main().catch((e: unknown) => {
  parentPort?.postMessage({ id: -1, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
});
