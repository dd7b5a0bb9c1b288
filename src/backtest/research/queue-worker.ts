/**
 * `perpetua worker --queue redis://…`: takes sweep runs from the BullMQ queue, one at a time (a
 * worker is one core; start one per core), and returns each run as its job's result. Before its
 * first run of a data set it hashes the data it reads and refuses jobs whose data hash differs, so a
 * machine with other files never answers for a sweep.
 */
import 'reflect-metadata';
import { UnrecoverableError, Worker } from 'bullmq';
import { strategyCatalog } from '../../runtime/container/strategy-module.js';
import { canonicalJson } from '../report/backtest-run.js';
import { parseBacktestConfig } from '../backtest-config.js';
import { infeasibleReason, loadSweepData, runSweepDocument, type SweepData } from '../sweep-run.js';
import { outcomeToJson } from '../sweep-outcome.js';
import { dataContentHash } from './data-hash.js';
import { type QueueJobData, type QueueJobResult, SWEEP_QUEUE, queueConnection } from './queue-executor.js';

export interface WorkerCommandOptions {
  readonly queue: string;
  readonly cwd?: string;
  /** Runs at once in this process (default 1). */
  readonly concurrency?: number;
  /**
   * How long a run's lock lasts without renewal: when a worker dies, its run goes back to the queue
   * this long after (default 30 s; the lock is renewed while the worker lives).
   */
  readonly lockMs?: number;
  readonly output?: NodeJS.WritableStream;
  /** Stop when this fires (default: SIGINT / SIGTERM). */
  readonly signal?: AbortSignal;
}

export interface WorkerSummary {
  readonly runs: number;
  readonly failed: number;
}

export async function workerCommand(opts: WorkerCommandOptions): Promise<WorkerSummary> {
  const connection = queueConnection(opts.queue);
  const cwd = opts.cwd ?? process.cwd();
  const out = opts.output ?? process.stdout;
  const catalog = strategyCatalog();
  // Loaded data per (data hash, what the config reads of it).
  const loaded = new Map<string, Promise<SweepData>>();
  let runs = 0;
  let failed = 0;
  const lockMs = opts.lockMs ?? 30_000;
  const worker = new Worker<QueueJobData, QueueJobResult>(
    SWEEP_QUEUE,
    async (job) => {
      const { document, fillModel, dataHash, source, pruning } = job.data;
      let config;
      try {
        config = parseBacktestConfig(document, catalog, source);
      } catch (e) {
        // An invalid point is an answer (the sweep records it infeasible), not a failure to retry.
        const reason = infeasibleReason(e);
        if (reason === undefined) throw e;
        return { infeasible: reason };
      }
      const key = JSON.stringify(
        canonicalJson({
          dataHash,
          data: config.backtest.data,
          from: config.backtest.from ?? null,
          to: config.backtest.to ?? null,
          instruments: config.run.config.instruments,
        }),
      );
      let data = loaded.get(key);
      if (!data) {
        data = (async () => {
          const local = await dataContentHash(config.backtest.data, cwd);
          if (local !== dataHash)
            throw new UnrecoverableError(
              `the data this worker reads in ${cwd} has content hash ${local.slice(0, 16)}…, the sweep's is ${dataHash.slice(0, 16)}…: give it the same files`,
            );
          return loadSweepData(config, cwd);
        })();
        loaded.set(key, data);
        // A refused or unreadable data set is checked again on the next job, not cached as an error.
        data.catch(() => loaded.delete(key));
      }
      try {
        const r = await runSweepDocument(await data, document, fillModel, catalog, source, pruning);
        return outcomeToJson({
          kind: 'run',
          run: r.run,
          rungValues: r.rungValues,
          ...(r.stoppedAt !== undefined ? { prunedAt: r.stoppedAt } : {}),
        });
      } catch (e) {
        const reason = infeasibleReason(e);
        if (reason === undefined) throw e;
        return { infeasible: reason };
      }
    },
    { connection, concurrency: opts.concurrency ?? 1, lockDuration: lockMs, stalledInterval: lockMs, maxStalledCount: 5 },
  );
  worker.on('completed', () => void runs++);
  worker.on('failed', (job, err) => {
    failed++;
    out.write(`worker: run ${job?.id?.slice(0, 12) ?? '?'} failed: ${err.message}\n`);
  });
  await worker.waitUntilReady();
  out.write(`worker: waiting for sweep runs on ${redactUrl(opts.queue)} (${opts.concurrency ?? 1} at a time)\n`);
  await new Promise<void>((resolve) => {
    if (opts.signal) {
      if (opts.signal.aborted) resolve();
      opts.signal.addEventListener('abort', () => resolve(), { once: true });
    } else {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }
  });
  await worker.close();
  out.write(`worker: stopped after ${runs} runs (${failed} failed)\n`);
  return { runs, failed };
}

/** The URL without its password: secrets never reach logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}
