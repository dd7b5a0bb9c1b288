/**
 * One worker thread of a sweep: loads the config's data once, then runs the grid points it is sent
 * and posts each run back as plain JSON (Decimals do not survive structured cloning; the main thread
 * rebuilds them with runFromJson).
 *
 *   in:  { id, point, fillModel }          out: { id, run } | { id, error }
 */
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { strategyCatalog } from '../runtime/container/strategy-module.js';
import { loadConfigFileStrategies } from '../runtime/plugins/strategy-plugins.js';
import { loadBacktestConfig } from './backtest-config.js';
import { runToJson } from './report/run-codec.js';
import { loadSweepData, runSweepDocument } from './sweep-run.js';
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
  await loadConfigFileStrategies(configPath, cwd);
  const catalog = strategyCatalog();
  const base = await loadBacktestConfig(configPath, catalog);
  const data = await loadSweepData(base, cwd);
  // Jobs run one at a time: a worker is one core.
  let queue = Promise.resolve();
  port.on('message', (job: SweepJob | 'stop') => {
    if (job === 'stop') {
      void queue.then(() => port.close());
      return;
    }
    queue = queue.then(async () => {
      try {
        const r = await runSweepDocument(data, documentWithParams(base.document, job.point), job.fillModel, catalog, `${configPath} (${JSON.stringify(job.point)})`);
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
