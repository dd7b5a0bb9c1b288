import { expect } from 'chai';
import fc from 'fast-check';
import { VirtualClock, type Clock, type TimerHandle } from '../../src/core/clock.js';
import { ReplayClock } from '../../src/backtest/replay-clock.js';

type Op = { k: 'timer'; dt: number; nest: boolean } | { k: 'interval'; period: number } | { k: 'clear'; which: number } | { k: 'advance'; dt: number };

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

describe('replay clock', () => {
  it('fires_the_same_timers_at_the_same_times_as_the_virtual_clock', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ k: fc.constant('timer' as const), dt: fc.integer({ min: -5, max: 50 }), nest: fc.boolean() }),
      fc.record({ k: fc.constant('interval' as const), period: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ k: fc.constant('clear' as const), which: fc.nat() }),
      fc.record({ k: fc.constant('advance' as const), dt: fc.integer({ min: 0, max: 40 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        expect(run(new ReplayClock(1_000), ops)).to.deep.equal(run(new VirtualClock(1_000), ops));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses_to_go_backwards', () => {
    const c = new ReplayClock(1_000);
    expect(() => c.advanceTo(999)).to.throw(RangeError);
  });
});
