import { expect } from 'chai';
import { VirtualClock, type Clock, type TimerHandle } from '../../../src/core/clock.js';
import { EmulatorTimeline } from '../../../src/emulator/engine/emulator-timeline.js';

/** 2026-01-01T23:59:58Z */
const EVE = Date.parse('2026-01-01T23:59:58Z');
const MIDNIGHT = Date.parse('2026-01-02T00:00:00Z');

/** A clock whose one pending timer the test fires by hand, at any time it likes (a late system timer). */
class LateClock implements Clock {
  t: number;
  pending: { at: number; fn: () => void } | undefined;
  constructor(t: number) {
    this.t = t;
  }
  now(): number {
    return this.t;
  }
  setTimer(at: number, fn: () => void): TimerHandle {
    this.pending = { at, fn };
    return { id: 1 };
  }
  setInterval(): TimerHandle {
    throw new Error('not used');
  }
  clearTimer(): void {
    this.pending = undefined;
  }
  sleep(): Promise<void> {
    throw new Error('not used');
  }
  fireAt(t: number): void {
    this.t = t;
    const p = this.pending!;
    this.pending = undefined;
    p.fn();
  }
}

describe('EmulatorTimeline', () => {
  it('runs_the_midnight_job_before_the_step_due_at_the_same_instant', () => {
    const clock = new VirtualClock(EVE);
    const log: string[] = [];
    const timeline = new EmulatorTimeline({
      clock,
      midnight: (at) => log.push(`midnight ${at - MIDNIGHT}`),
      onError: () => log.push('error'),
    });
    timeline.start({ stepMs: 1000, firstAt: EVE + 1000, run: () => log.push(`step ${clock.now() - MIDNIGHT}`) });
    clock.advanceBy(3000);
    timeline.stop();
    clock.advanceBy(5000);
    // Steps at −1 s, 0 s, +1 s from midnight; the midnight job first at 0.
    expect(log).to.deep.equal(['step -1000', 'midnight 0', 'step 0', 'step 1000']);
  });

  it('keeps_the_step_phase_and_skips_steps_a_late_timer_missed', () => {
    const clock = new LateClock(EVE);
    const steps: number[] = [];
    const timeline = new EmulatorTimeline({ clock, midnight: () => undefined, onError: () => undefined });
    timeline.start({ stepMs: 1000, firstAt: EVE + 1000, run: () => steps.push(clock.now() - EVE) });
    expect(clock.pending!.at - EVE).to.equal(1000);
    // The timer fires 3.5 s late: one step now, the next on the phase (EVE + 5 s), not four in a burst.
    clock.fireAt(EVE + 4500);
    expect(steps).to.deep.equal([4500]);
    expect(clock.pending!.at - EVE).to.equal(5000);
  });

  it('goes_on_after_a_job_threw_and_reports_it', () => {
    const clock = new VirtualClock(EVE);
    const errors: string[] = [];
    let n = 0;
    const timeline = new EmulatorTimeline({
      clock,
      midnight: () => undefined,
      onError: (e, job) => errors.push(`${job}: ${(e as Error).message}`),
    });
    timeline.start({
      stepMs: 1000,
      firstAt: EVE + 1000,
      run: () => {
        if (++n === 1) throw new Error('boom');
      },
    });
    clock.advanceBy(2000);
    expect([n, errors]).to.deep.equal([2, ['step: boom']]);
  });
});
