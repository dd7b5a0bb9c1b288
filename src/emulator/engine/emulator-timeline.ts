/**
 * The emulator's own clock-driven work on ONE timer: the 00:00 UTC equity snapshots and the market
 * model's steps. One timer, not one per job, so two jobs due at the same instant always run in the
 * same order (snapshot first: it closes the day on the prices of its last step) whatever the history
 * of the clock's timers — a run that was stopped and restarted fires exactly what an uninterrupted
 * run fires, which the journal's replay relies on (engine/market-epochs.ts).
 *
 * Steps keep their phase (`firstAt + k · stepMs`); when a system clock falls behind by more than a
 * step, the missed steps are skipped rather than run in a burst (the model steps by the elapsed time).
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import { DAY_MS, dayStart } from '../../venue/analysis/utc-calendar.js';

export interface TimelineSteps {
  readonly stepMs: number;
  /** Time of the first step. */
  readonly firstAt: number;
  readonly run: () => void;
}

export interface EmulatorTimelineOptions {
  readonly clock: Clock;
  /** Runs at every 00:00 UTC with that midnight's time. */
  readonly midnight: (at: number) => void;
  /** A job that threw (the timeline goes on). */
  readonly onError: (err: unknown, job: 'midnight' | 'step') => void;
}

export class EmulatorTimeline {
  private timer: TimerHandle | undefined;
  private nextMidnight = 0;
  private steps: TimelineSteps | undefined;
  private nextStep = Infinity;
  private running = false;

  constructor(private readonly opts: EmulatorTimelineOptions) {}

  /** Arms the midnight job from now, and the steps when given. */
  start(steps?: TimelineSteps): void {
    if (this.running) return;
    this.running = true;
    this.nextMidnight = dayStart(this.opts.clock.now()) + DAY_MS;
    this.steps = steps;
    this.nextStep = steps ? steps.firstAt : Infinity;
    this.arm();
  }

  stop(): void {
    this.running = false;
    this.opts.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (!this.running) return;
    this.timer = this.opts.clock.setTimer(Math.min(this.nextMidnight, this.nextStep), () => this.fire());
  }

  private fire(): void {
    if (!this.running) return;
    const now = this.opts.clock.now();
    if (this.nextMidnight <= now) {
      this.nextMidnight = dayStart(now) + DAY_MS;
      this.guard('midnight', () => this.opts.midnight(dayStart(now)));
    }
    const steps = this.steps;
    if (steps && this.nextStep <= now) {
      this.nextStep += steps.stepMs;
      if (this.nextStep <= now) this.nextStep += Math.ceil((now - this.nextStep + 1) / steps.stepMs) * steps.stepMs;
      this.guard('step', steps.run);
    }
    this.arm();
  }

  private guard(job: 'midnight' | 'step', fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.opts.onError(e, job);
    }
  }
}
