/**
 * One worker thread of a sweep: loads the config's data once, then runs the grid points it is sent
 * and posts each run back as JSON text (Decimals do not survive structured cloning; the main thread
 * rebuilds them with runFromJson). Text, not the JSON object: a string crosses threads as one copy
 * where an object graph is serialised field by field, and the main thread appends that very text to
 * the sweep's checkpoint instead of encoding the run a second time (runText in sweep-outcome.ts).
 *
 *   in:  { id, point, fillModel, pruning? }   out: { id, runText, rungValues, stoppedAt? } | { id, error, infeasible? }
 */
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { strategyCatalog } from '../runtime/container/strategy-module.js';
import { loadConfigFileStrategies } from '../runtime/plugins/strategy-plugins.js';
import { loadBacktestConfig } from './backtest-config.js';
import { runToJson } from './report/run-codec.js';
import { infeasibleReason, loadSweepData, runSweepDocument } from './sweep-run.js';
import { type RunPruning, valuesToJson } from './research/asha.js';
import { documentWithParams, type GridPoint } from './sweep-grid.js';
import { messageOf } from '../core/message-of.js';

export interface SweepWorkerData {
  readonly configPath: string;
  readonly cwd: string;
}

export interface SweepJob {
  readonly id: number;
  readonly point: GridPoint;
  readonly fillModel: string;
  readonly pruning?: RunPruning;
}

export type SweepAnswer =
  | {
      readonly id: number;
      /** `JSON.stringify(runToJson(run))`. */
      readonly runText: string;
      readonly events: number;
      readonly rungValues: (number | null)[];
      readonly stoppedAt?: number;
    }
  /** `infeasible`: the point's config is invalid (the reason); the sweep records it and goes on. */
  | { readonly id: number; readonly error: string; readonly infeasible?: string };

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
        const r = await runSweepDocument(
          data,
          documentWithParams(base.document, job.point),
          job.fillModel,
          catalog,
          `${configPath} (${JSON.stringify(job.point)})`,
          job.pruning,
        );
        const stopped = r.stoppedAt !== undefined ? { stoppedAt: r.stoppedAt } : {};
        port.postMessage({
          id: job.id,
          runText: JSON.stringify(runToJson(r.run)),
          events: r.stats.events,
          rungValues: valuesToJson(r.rungValues),
          ...stopped,
        } satisfies SweepAnswer);
      } catch (e) {
        const infeasible = infeasibleReason(e);
        const error = messageOf(e);
        port.postMessage({ id: job.id, error, ...(infeasible !== undefined ? { infeasible } : {}) } satisfies SweepAnswer);
      }
    });
  });
  port.postMessage('ready');
}

void main().catch((e: unknown) => {
  parentPort?.postMessage({ id: -1, error: messageOf(e) });
});
