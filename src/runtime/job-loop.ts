/**
 * The runtime's single worker: jobs (snapshots, reconcile ticks, start-up, operator controls) run one
 * at a time in arrival order, each to completion before the next (docs/architecture.md rule 8). An
 * idle loop starts a new job synchronously, as RxJS concatMap would, so a replayed snapshot is
 * handled before the replay moves on.
 */
export class JobLoop<J> {
  private readonly jobs: J[] = [];
  private pumping = false;
  private current: Promise<void> = Promise.resolve();

  /** `run` must not throw: the loop has no one to report to, so a failed job is the runner's to log. */
  constructor(private readonly run: (job: J) => Promise<void>) {}

  enqueue(job: J): void {
    this.jobs.push(job);
    if (!this.pumping) this.current = this.pump();
  }

  /** Settles once every job queued so far (and any queued meanwhile) has run. */
  idle(): Promise<void> {
    return this.current;
  }

  get queued(): number {
    return this.jobs.length;
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      for (let job = this.jobs.shift(); job !== undefined; job = this.jobs.shift()) await this.run(job);
    } finally {
      this.pumping = false;
    }
  }
}
