/**
 * A sweep across processes on BullMQ + Redis: a coordinator (`sweepCommand` with `queue`) and two
 * `perpetua worker` processes (the real CLI, spawned) give byte-identical results to the same sweep on
 * worker threads; killing one worker mid-run still completes every run exactly once; a coordinator
 * killed part-way resumes without running anything twice.
 *
 * Needs Redis: the one .ci/run starts (PERPETUA_TEST_REDIS), else a private redis-server on a free
 * port; skips with a message when there is no redis-server binary.
 */
import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { Queue, QueueEvents } from 'bullmq';
import { stringify } from 'yaml';
import { sweepCommand } from '../../../src/app/cli/sweep-command.js';
import { parseBacktestConfig } from '../../../src/backtest/backtest-config.js';
import { dataContentHash } from '../../../src/backtest/research/data-hash.js';
import { workerCommand } from '../../../src/backtest/research/queue-worker.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import { SWEEP_QUEUE, queueConnection } from '../../../src/backtest/research/queue-executor.js';
import { perpTrendDoc } from '../support/backtest-fixtures.js';
import { PROJECT_ROOT } from '../../support/project-root.js';
import { type TestRedis, startTestRedis } from './support/redis-server.js';

const sink = (): Writable & { text: string } => {
  const w = new Writable({ write: (chunk, _e, cb) => ((w.text += String(chunk)), cb()) }) as Writable & { text: string };
  w.text = '';
  return w;
};

const CLI = join(PROJECT_ROOT, 'dist', 'src', 'app', 'cli.js');
/** 6 × 4 = 24 grid points, no band runs: exactly 24 runs. */
const doc24 = perpTrendDoc({
  sweep: { parameters: { fastPeriod: [3, 4, 5, 6, 7, 8], slowPeriod: [20, 30, 40, 50] }, objective: 'sharpe', bestN: 0 },
});
const FILES = ['sweep.json', 'sweep.md', 'sweep.html'];

/** Waits until `cond` holds (polling every 50 ms), at most `ms`. */
async function until(cond: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  for (let t = 0; t < ms; t += 50) {
    if (await cond()) return;
    await delay(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('perpetua sweep --queue / perpetua worker (BullMQ + Redis)', function () {
  this.timeout(600_000);
  let redis: TestRedis | undefined;
  let dir: string;
  let config: string;
  let queue: Queue;
  let events: QueueEvents;
  const workers: ChildProcess[] = [];
  const completedTimes = new Map<string, number>();
  const stalled = new Set<string>();

  const startWorker = (lockMs = 2000): ChildProcess => {
    const child = spawn(process.execPath, [CLI, 'worker', '--queue', redis!.url, '--lock-ms', String(lockMs)], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workers.push(child);
    return child;
  };
  const stopWorkers = async (): Promise<void> => {
    await Promise.all(
      workers.splice(0).map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.exitCode !== null || w.signalCode !== null) return resolve();
            w.once('exit', () => resolve());
            w.kill('SIGTERM');
          }),
      ),
    );
  };

  before(async function () {
    const r = await startTestRedis();
    if (typeof r === 'string') {
      console.log(`      skipped: ${r}`);
      this.skip();
    }
    redis = r;
    dir = mkdtempSync(join(tmpdir(), 'perpetua-queue-sweep-'));
    config = join(dir, 'grid24.yaml');
    writeFileSync(config, stringify(doc24));
    queue = new Queue(SWEEP_QUEUE, { connection: queueConnection(redis.url) });
    events = new QueueEvents(SWEEP_QUEUE, { connection: queueConnection(redis.url) });
    await events.waitUntilReady();
    // Every completion the queue reports, per run: "exactly once" is a count of 1 for each.
    events.on('completed', ({ jobId }) => completedTimes.set(jobId, (completedTimes.get(jobId) ?? 0) + 1));
    events.on('stalled', ({ jobId }) => stalled.add(jobId));
    // The reference: the same sweep on worker threads.
    await sweepCommand({ config, out: join(dir, 'threads'), workers: 2, progress: false, output: sink() });
  });

  beforeEach(async () => {
    if (!redis) return;
    await queue.obliterate({ force: true });
    completedTimes.clear();
    stalled.clear();
  });

  afterEach(stopWorkers);

  after(async () => {
    await stopWorkers();
    if (events) await events.close();
    if (queue) await queue.close();
    if (redis) await redis.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const expectSameAsThreads = (out: string): void => {
    for (const f of FILES) expect(readFileSync(join(dir, out, f), 'utf8'), f).to.equal(readFileSync(join(dir, 'threads', f), 'utf8'));
  };
  const expectEachRunOnce = async (): Promise<void> => {
    await until(() => completedTimes.size === 24, 10_000, 'the completion events');
    expect(
      [...completedTimes.values()].every((n) => n === 1),
      JSON.stringify([...completedTimes.values()]),
    ).to.equal(true);
    // The finished sweep took its jobs out of Redis (its runs live on in its report and checkpoint):
    // Redis does not grow with every sweep ever run.
    const counts = await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
    expect(counts).to.deep.equal({ completed: 0, failed: 0, waiting: 0, active: 0, delayed: 0 });
  };

  it('gives_byte_identical_results_to_worker_threads_with_two_worker_processes', async () => {
    startWorker();
    startWorker();
    const out = sink();
    const r = await sweepCommand({ config, out: join(dir, 'queue'), queue: redis!.url, progress: false, output: out });
    expect(r.runs).to.equal(24);
    expect(out.text).to.match(/24 runs on the queue at redis:\/\/127\.0\.0\.1/);
    expectSameAsThreads('queue');
    await expectEachRunOnce();
  });

  it('completes_every_run_exactly_once_when_a_worker_is_killed_mid_run', async () => {
    const doomed = startWorker(2000);
    startWorker(2000);
    const sweep = sweepCommand({ config, out: join(dir, 'killed'), queue: redis!.url, progress: false, output: sink() });
    // Both workers busy (2 active jobs, one each) after a few runs: the doomed one holds a run.
    await until(async () => completedTimes.size >= 3 && (await queue.getActiveCount()) === 2, 120_000, 'both workers busy');
    doomed.kill('SIGKILL');
    await sweep;
    expectSameAsThreads('killed');
    await expectEachRunOnce();
    // The run the killed worker held went back to the queue (stalled) and was finished by the other.
    expect(stalled.size).to.be.greaterThan(0);
    expect([...stalled].every((id) => completedTimes.get(id) === 1)).to.equal(true);
  });

  it('resumes_a_sweep_whose_coordinator_was_killed_without_running_anything_twice', async () => {
    startWorker();
    startWorker();
    const coordinator = spawn(process.execPath, [CLI, 'sweep', config, '--queue', redis!.url, '--out', join(dir, 'first')], {
      cwd: PROJECT_ROOT,
      stdio: 'ignore',
    });
    workers.push(coordinator); // stopped after the test whatever happens
    await until(() => completedTimes.size >= 6, 400_000, 'six finished runs'); // a loaded machine: ~20 s a run
    coordinator.kill('SIGKILL');
    const before = completedTimes.size;
    // The runs it queued stay queued; the workers go on with them. Resume with a new coordinator.
    const out = sink();
    await sweepCommand({ config, out: join(dir, 'resumed'), queue: redis!.url, progress: false, output: out });
    expect(before).to.be.lessThan(24);
    expectSameAsThreads('resumed');
    await expectEachRunOnce();
  });

  it('prunes_and_refuses_invalid_points_as_worker_threads_do', async () => {
    // ASHA thresholds travel with each job, and a point whose config is invalid (fastPeriod 40 ≥ every
    // slowPeriod) comes back infeasible: the report is byte-identical to the same sweep on threads.
    const pruned = join(dir, 'pruned.yaml');
    const sweep = {
      parameters: { fastPeriod: [3, 5, 7, 9, 40], slowPeriod: [20, 30, 40] },
      search: { method: 'grid', batch: 4 },
      objective: 'returnDrawdown',
      walkForward: { mode: 'anchored', folds: 2, trainSegments: 2 },
      pruning: { method: 'asha', eta: 3, minRuns: 2 },
      bestN: 0,
    };
    writeFileSync(pruned, stringify(perpTrendDoc({ sweep })));
    await sweepCommand({ config: pruned, out: join(dir, 'pruned-threads'), workers: 2, progress: false, output: sink() });
    const abort = new AbortController();
    const worker = workerCommand({ queue: redis!.url, output: sink(), signal: abort.signal });
    try {
      const r = await sweepCommand({ config: pruned, out: join(dir, 'pruned-queue'), queue: redis!.url, progress: false, output: sink() });
      expect(r.research.search).to.deep.include({ trials: 15, infeasible: 3 });
      expect(r.research.search.pruned).to.be.greaterThan(0);
    } finally {
      abort.abort();
      await worker;
    }
    for (const f of FILES)
      expect(readFileSync(join(dir, 'pruned-queue', f), 'utf8'), f).to.equal(readFileSync(join(dir, 'pruned-threads', f), 'utf8'));
  });

  it('refuses_a_run_whose_data_hash_differs_from_the_data_the_worker_reads', async () => {
    // A job as a coordinator with other files would queue it: the config of this sweep, a data hash
    // that is not the hash of the files this worker reads.
    const other = 'f'.repeat(64);
    const { sweep: _sweep, ...document } = doc24;
    const job = await queue.add(
      'run',
      { document, fillModel: 'neutral', dataHash: other, source: 'a machine with other data' },
      { jobId: 'other-data', attempts: 3 },
    );
    const abort = new AbortController();
    const out = sink();
    const worker = workerCommand({ queue: redis!.url, output: out, signal: abort.signal });
    try {
      await until(async () => (await job.getState()) === 'failed', 60_000, 'the refusal');
    } finally {
      abort.abort();
    }
    const summary = await worker;
    const failed = (await queue.getJob('other-data'))!;
    const local = await dataContentHash(parseBacktestConfig(document, strategyCatalog(), 'test').backtest.data, PROJECT_ROOT);
    expect(failed.failedReason).to.equal(
      `the data this worker reads in ${PROJECT_ROOT} has content hash ${local.slice(0, 16)}…, the sweep's is ffffffffffffffff…: give it the same files`,
    );
    // Refused for good: not retried (attempts: 3 would otherwise try it again), nothing run.
    expect(failed.attemptsMade).to.equal(1);
    expect(summary).to.deep.equal({ runs: 0, failed: 1 });
    expect(out.text).to.include('worker: run other-data failed: the data this worker reads');
  });

  it('shows_the_connected_queue_workers_on_the_progress_line', async () => {
    startWorker();
    startWorker();
    const bar = sink();
    await until(async () => (await queue.getWorkersCount()) === 2, 60_000, 'two workers connected');
    await sweepCommand({ config, out: join(dir, 'progress'), queue: redis!.url, progress: true, progressStream: bar, output: sink() });
    // Not the coordinator's thread count: the worker processes connected to the queue.
    expect(bar.text).to.match(/\| 2 queue workers \|/);
    expect(bar.text).to.not.match(/threads/);
    await expectEachRunOnce();
  });
});
