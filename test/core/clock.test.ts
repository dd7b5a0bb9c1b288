import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';

describe('VirtualClock', () => {
  it('fires_due_timers_in_time_then_creation_order_before_reaching_target', () => {
    const clock = new VirtualClock(1000);
    const fired: string[] = [];
    clock.setTimer(1500, () => fired.push(`b@${clock.now()}`));
    clock.setTimer(1200, () => fired.push(`a@${clock.now()}`));
    clock.setTimer(1500, () => fired.push(`c@${clock.now()}`));
    clock.setTimer(2500, () => fired.push('late'));
    clock.advanceTo(2000);
    expect(fired).to.deep.equal(['a@1200', 'b@1500', 'c@1500']);
    expect(clock.now()).to.equal(2000);
  });

  it('repeats_intervals_and_stops_when_cleared', () => {
    const clock = new VirtualClock(0);
    let n = 0;
    const h = clock.setInterval(100, () => n++);
    clock.advanceTo(350);
    expect(n).to.equal(3);
    clock.clearTimer(h);
    clock.advanceTo(1000);
    expect(n).to.equal(3);
  });

  it('refuses_to_go_backwards', () => {
    const clock = new VirtualClock(500);
    expect(() => clock.advanceTo(499)).to.throw(RangeError, /backwards/);
  });

  it('timers_set_inside_a_timer_fire_in_the_same_advance_when_due', () => {
    const clock = new VirtualClock(0);
    const fired: number[] = [];
    clock.setTimer(10, () => {
      fired.push(clock.now());
      clock.setTimer(20, () => fired.push(clock.now()));
    });
    clock.advanceTo(30);
    expect(fired).to.deep.equal([10, 20]);
  });
});
