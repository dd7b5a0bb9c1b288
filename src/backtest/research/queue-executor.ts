/**
 * The coordinator's side of a distributed sweep on BullMQ + Redis (`perpetua sweep --queue redis://…`):
 * each run is a job whose id is the hash of what determines its result (the config with the point's
 * params, the fill model, the data's content hash). So
 * - a run is never queued twice: adding an id that exists is a no-op, and the coordinator then waits
 *   for that job;
 * - a killed worker's run is not lost: its lock expires and BullMQ hands the job to another worker
 *   (stalled-job recovery), and a finished job keeps its result in Redis;
 * - a killed coordinator loses nothing: run the same sweep again and it finds the finished runs by
 *   their ids and waits only for the rest (a failed run is retried).
 */
import { createHash } from 'node:crypto';
import { type Job, Queue, QueueEvents } from 'bullmq';
import { ConfigError } from '../../core/errors.js';
import { canonicalJson } from '../report/backtest-run.js';
import type { BacktestConfig } from '../backtest-config.js';
import { documentWithParams, type GridPoint } from '../sweep-grid.js';
import { type SweepOutcome, type SweepOutcomeJson, outcomeFromJson } from '../sweep-outcome.js';
import type { RunPruning } from './asha.js';

export const SWEEP_QUEUE = 'perpetua-sweep';

export interface QueueJobData {
  /** The run's whole config document (strategy params applied, no sweep section). */
  readonly document: Record<string, unknown>;
  readonly fillModel: string;
  /** SHA-256 of the data the coordinator read; a worker whose data differs refuses the job. */
  readonly dataHash: string;
  /** For error messages: the config file and point. */
  readonly source: string;
  /** The rungs and thresholds at which the run stops itself (asha.ts): the same as on worker threads. */
  readonly pruning?: RunPruning;
}

/** The run (maybe stopped at a rung), or why the point's config is invalid. */
export type QueueJobResult = SweepOutcomeJson;

/** BullMQ connection options for a redis:// (or rediss://) URL; anything else is a config error. */
export function queueConnection(url: string): { url: string; maxRetriesPerRequest: null } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ConfigError('--queue', `expected a Redis URL like redis://127.0.0.1:6379, got ${JSON.stringify(url)}`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new ConfigError('--queue', `expected a redis:// or rediss:// URL, got ${u.protocol}//`);
  // Workers block on Redis; BullMQ requires unlimited retries per request for them.
  return { url, maxRetriesPerRequest: null };
}

/** The job id of a run: what its result depends on, hashed. */
export function runKey(data: Pick<QueueJobData, 'document' | 'fillModel' | 'dataHash' | 'pruning'>): string {
  const pruning = data.pruning ? { pruning: data.pruning } : {};
  return createHash('sha256')
    .update(JSON.stringify(canonicalJson({ document: data.document, fillModel: data.fillModel, dataHash: data.dataHash, ...pruning })))
    .digest('hex');
}

/**
 * A finished or failed job stays this long when its sweep never finishes (a coordinator killed and
 * never resumed): long enough to resume a sweep after a weekend, bounded all the same. BullMQ prunes
 * by age as later jobs finish; a finished sweep removes its own jobs at once (finish()).
 */
const KEEP = { age: 7 * 24 * 3600 };

export class QueueExecutor {
  private readonly jobIds = new Set<string>();

  private constructor(
    private readonly queue: Queue<QueueJobData, QueueJobResult>,
    private readonly events: QueueEvents,
    private readonly config: BacktestConfig,
    private readonly dataHash: string,
    private readonly source: string,
  ) {}

  /** `dataHash`: the content hash of the data the config reads (dataContentHash), which workers check. */
  static async open(url: string, config: BacktestConfig, dataHash: string, source: string): Promise<QueueExecutor> {
    const connection = queueConnection(url);
    const queue = new Queue<QueueJobData, QueueJobResult>(SWEEP_QUEUE, { connection });
    const events = new QueueEvents(SWEEP_QUEUE, { connection });
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    return new QueueExecutor(queue, events, config, dataHash, source);
  }

  async run(point: GridPoint, fillModel: string, pruning?: RunPruning): Promise<SweepOutcome> {
    const source = `${this.source} (${JSON.stringify(point)})`;
    const data: QueueJobData = {
      document: documentWithParams(this.config.document, point),
      fillModel,
      dataHash: this.dataHash,
      source,
      ...(pruning ? { pruning } : {}),
    };
    const jobId = runKey(data);
    let job: Job<QueueJobData, QueueJobResult> | undefined = await this.queue.getJob(jobId);
    // Resuming: a run that failed before (a worker error) is tried again; a finished one is reused.
    if (job && (await job.getState()) === 'failed') await job.retry('failed');
    const retry = { attempts: 3, backoff: { type: 'fixed', delay: 1000 } };
    job ??= await this.queue.add('run', data, { jobId, ...retry, removeOnComplete: KEEP, removeOnFail: KEEP });
    this.jobIds.add(jobId);
    const result = await job.waitUntilFinished(this.events);
    return outcomeFromJson(result);
  }

  async where(): Promise<string> {
    const n = await this.queue.getWorkersCount();
    return `${n} queue worker${n === 1 ? '' : 's'}`;
  }

  /**
   * The sweep's report is written: its jobs leave Redis (finished runs live on in the report and the
   * sweep's checkpoint), so Redis does not grow with every sweep ever run. A job another coordinator
   * still waits for is not ours to remove: BullMQ refuses to remove a locked (running) job.
   */
  async finish(): Promise<void> {
    for (const id of this.jobIds) await this.queue.remove(id);
    this.jobIds.clear();
  }

  async close(): Promise<void> {
    await Promise.all([this.events.close(), this.queue.close()]);
  }
}
