import { expect } from 'chai';
import fc from 'fast-check';
import type { Clock, TimerHandle } from '../../src/core/clock.js';
import { ReplayClock } from '../../src/backtest/replay-clock.js';

type Op =
  | { k: 'timer'; dt: number; nest: boolean }
  | { k: 'interval'; period: number }
  | { k: 'clear'; which: number }
  | { k: 'advance'; dt: number };

/** Runs the ops on a clock; returns what fired, when, in order (timers named by creation number). */
function run(clock: Clock & { advanceTo(t: number): void; nextTimerAt(): number | undefined }, ops: readonly Op[]): string[] {
  const log: string[] = [];
  const handles: TimerHandle[] = [];
  let n = 0;
  for (const op of ops) {
    switch (op.k) {
      case 'timer': {
        const name = n++;
        handles.push(
          clock.setTimer(clock.now() + op.dt, () => {
            log.push(`t${name}@${clock.now()}`);
            // A timer that sets another one (due at once, or later) while the clock is advancing.
            if (op.nest) clock.setTimer(clock.now() + (op.dt % 3), () => log.push(`n${name}@${clock.now()}`));
          }),
        );
        break;
      }
      case 'interval': {
        const name = n++;
        handles.push(clock.setInterval(op.period, () => log.push(`i${name}@${clock.now()}`)));
        break;
      }
      case 'clear':
        if (handles.length > 0) clock.clearTimer(handles[op.which % handles.length]);
        break;
      case 'advance':
        clock.advanceTo(clock.now() + op.dt);
        log.push(`now ${clock.now()} next ${clock.nextTimerAt()}`);
        break;
    }
  }
  return log;
}

/**
 * The reference: the clock's contract written the plain way, every timer scanned on every move, no
 * earliest-time shortcut (the shortcut VirtualClock and ReplayClock share is what this checks).
 */
class ScanClock implements Clock {
  private current: number;
  private seq = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { id: number; at: number; seq: number; period: number; fn: () => void }>();
  constructor(start: number) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  setTimer(at: number, fn: () => void): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { id, at: Math.max(at, this.current), seq: this.seq++, period: 0, fn });
    return { id };
  }
  setInterval(periodMs: number, fn: () => void): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { id, at: this.current + periodMs, seq: this.seq++, period: periodMs, fn });
    return { id };
  }
  clearTimer(handle: TimerHandle | undefined): void {
    if (handle) this.timers.delete(handle.id);
  }
  sleep(): Promise<void> {
    throw new Error('not used');
  }
  nextTimerAt(): number | undefined {
    const ats = [...this.timers.values()].map((t) => t.at);
    return ats.length ? Math.min(...ats) : undefined;
  }
  advanceTo(target: number): void {
    for (;;) {
      const due = [...this.timers.values()].filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.current = due.at;
      if (due.period > 0) {
        due.at += due.period;
        due.seq = this.seq++;
      } else this.timers.delete(due.id);
      due.fn();
    }
    this.current = target;
  }
}

describe('replay clock', () => {
  it('fires_the_same_timers_at_the_same_times_as_a_scan_of_every_timer', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ k: fc.constant('timer' as const), dt: fc.integer({ min: -5, max: 50 }), nest: fc.boolean() }),
      fc.record({ k: fc.constant('interval' as const), period: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ k: fc.constant('clear' as const), which: fc.nat() }),
      fc.record({ k: fc.constant('advance' as const), dt: fc.integer({ min: 0, max: 40 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        expect(run(new ReplayClock(1_000), ops)).to.deep.equal(run(new ScanClock(1_000), ops));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses_to_go_backwards', () => {
    const c = new ReplayClock(1_000);
    expect(() => c.advanceTo(999)).to.throw(RangeError, 'ReplayClock cannot go backwards: now=1000, target=999');
  });
});
