/**
 * One worker thread of `perpetua backtest`: runs ONE fill model of the config, streaming its record to
 * the tape folder it is given, and posts the run back as plain JSON (Decimals do not survive
 * structured cloning; the main thread rebuilds them with runFromJson). The fill models of a config
 * replay the same data independently (each its own venue, seed and clock), so running them on several
 * cores gives the same runs as one after another (issue 13: fill models sharing the machine's cores).
 *
 *   workerData: FillModelWorkerData
 *   posts:      { kind: 'progress', events }*, then { kind: 'done', run, stats } | { kind: 'error', message, configPath? }
 */
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { ConfigError } from '../core/errors.js';
import { messageOf } from '../core/message-of.js';
import { strategyCatalog } from '../runtime/container/strategy-module.js';
import { loadConfigFileStrategies } from '../runtime/plugins/strategy-plugins.js';
import { loadBacktestConfig } from './backtest-config.js';
import { runBacktest, type BacktestStats } from './backtest-runner.js';
import { loadReplay } from './load-replay.js';
import { runToJson, type BacktestRunJson } from './report/run-codec.js';

export interface FillModelWorkerData {
  readonly configPath: string;
  readonly cwd: string;
  readonly fillModel: string;
  /** Where the run streams its record (run-tape.ts); absent: the whole record comes back in `run`. */
  readonly tapeDir?: string;
  readonly progressEvery: number;
}

export type FillModelWorkerMessage =
  | { readonly kind: 'progress'; readonly events: number }
  | { readonly kind: 'done'; readonly run: BacktestRunJson; readonly stats: BacktestStats }
  /** `configPath`: the error was a ConfigError at that config path (the main thread throws it again as one). */
  | { readonly kind: 'error'; readonly message: string; readonly configPath?: string };

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('fill-model-worker.js runs as a worker thread');
  const job = workerData as FillModelWorkerData;
  const post = (m: FillModelWorkerMessage): void => port.postMessage(m);
  try {
    await loadConfigFileStrategies(job.configPath, job.cwd);
    const config = await loadBacktestConfig(job.configPath, strategyCatalog());
    const model = config.fillModels.find((m) => m.name === job.fillModel);
    if (!model) throw new Error(`fill model ${job.fillModel} is not in backtest.fillModels`);
    const replay = await loadReplay(config, job.cwd);
    const result = await runBacktest({
      config,
      records: replay.events,
      fillModel: model,
      streams: replay.streams,
      progressEvery: job.progressEvery,
      ...(job.tapeDir !== undefined ? { tapeDir: job.tapeDir } : {}),
      onProgress: (events) => post({ kind: 'progress', events }),
    });
    post({ kind: 'done', run: runToJson(result.run), stats: result.stats });
  } catch (e) {
    // The message only: a config error names its path, and nothing here holds a secret (backtests sign nothing).
    post({
      kind: 'error',
      message: e instanceof ConfigError ? messageAfterPath(e) : messageOf(e),
      ...(e instanceof ConfigError ? { configPath: e.path } : {}),
    });
  } finally {
    port.close();
  }
}

/** ConfigError's own message (its constructor prefixes the path: the main thread's ConfigError adds it again). */
function messageAfterPath(e: ConfigError): string {
  const prefix = e.path ? `${e.path}: ` : '';
  return e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
}

void main();
