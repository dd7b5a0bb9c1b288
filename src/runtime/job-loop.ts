/**
 * The runtime's single worker: jobs (snapshots, reconcile ticks, start-up, operator controls) run one
 * at a time in arrival order, each to completion before the next (docs/architecture.md rule 8). An
 * idle loop starts a new job synchronously, as RxJS concatMap would, so a replayed snapshot is
 * handled before the replay moves on.
 */
export class JobLoop<J> {
  private readonly jobs: J[] = [];
  private pumping = false;
  /** Resolves the idle() promises asked for while jobs run. */
  private waiters: (() => void)[] = [];

  /** `run` must not throw: the loop has no one to report to, so a failed job is the runner's to log. */
  constructor(private readonly run: (job: J) => Promise<void>) {}

  enqueue(job: J): void {
    this.jobs.push(job);
    if (!this.pumping) {
      this.pumping = true;
      this.next();
    }
  }

  /** Settles once every job queued so far (and any queued meanwhile) has run. */
  idle(): Promise<void> {
    return this.pumping ? new Promise((resolve) => this.waiters.push(resolve)) : IDLE;
  }

  get queued(): number {
    return this.jobs.length;
  }

  /**
   * Runs the next job, and again when it settles (a turn after, as awaiting it took), until none is
   * queued. Callbacks, not an async loop: the loop goes idle between the jobs of every bar of a
   * backtest (a snapshot, a reconcile tick), and each new start made an async frame and its promise.
   */
  private readonly next = (): void => {
    const job = this.jobs.shift();
    if (job === undefined) {
      this.pumping = false;
      const waiters = this.waiters;
      if (waiters.length > 0) {
        this.waiters = [];
        for (const resolve of waiters) resolve();
      }
      return;
    }
    let done: Promise<void>;
    try {
      done = this.run(job);
    } catch {
      done = IDLE;
    }
    done.then(this.next, this.next);
  };
}

/** The idle loop's answer to idle(). */
const IDLE: Promise<void> = Promise.resolve();
