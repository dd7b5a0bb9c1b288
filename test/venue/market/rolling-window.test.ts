import { expect } from 'chai';
import fc from 'fast-check';
import { RingBuffer } from '../../../src/venue/market/ring-buffer.js';
import { RollingWindow } from '../../../src/venue/market/rolling-window.js';

describe('RollingWindow', () => {
  it('recomputes_the_extremes_after_the_bucket_holding_them_leaves', () => {
    // 10 s window in 1 s buckets: high 120 at t=0 leaves when the window opens past 0 s.
    const w = new RollingWindow(10_000, 1_000);
    w.add(0, 120, 1, 120);
    w.add(2_000, 100, 2, 200);
    w.add(5_000, 90, 1, 90);
    const a = w.stats(10_999);
    // windowStart = floor((10999 − 10000)/1000)·1000 = 0: all three buckets.
    expect([a.openTime, a.high, a.low, a.volume, a.quote, a.count, a.firstPrice]).to.deep.equal([0, 120, 90, 4, 410, 3, 120]);
    const b = w.stats(11_000);
    // windowStart 1000: the t=0 bucket is gone; high falls to 100; the price before the window is 120.
    expect([b.openTime, b.high, b.low, b.volume, b.quote, b.count, b.priceBefore, b.firstPrice, b.last]).to.deep.equal([
      1000, 100, 90, 3, 290, 2, 120, 100, 90,
    ]);
    const c = w.stats(100_000);
    expect([c.count, c.volume, c.last, c.priceBefore]).to.deep.equal([0, 0, 90, 90]);
  });

  it('answers_the_high_and_low_of_the_buckets_in_the_window_as_a_scan_of_them_would', () => {
    // Prints and queries at rising times, against a scan of every print whose bucket starts in the window
    // (the extremes are kept as monotonic queues; a window restored from a snapshot without them builds them).
    const step = fc.record({
      dt: fc.integer({ min: 0, max: 4_000 }),
      price: fc.integer({ min: 1, max: 40 }),
      query: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 300 }), fc.integer({ min: -1, max: 299 }), (steps, restoreAt) => {
        let w = new RollingWindow(10_000, 1_000);
        const prints: { t: number; price: number }[] = [];
        let t = 0;
        for (let i = 0; i < steps.length; i++) {
          const s = steps[i]!;
          t += s.dt;
          if (i === restoreAt) w = withoutQueues(w);
          if (s.query) {
            const got = w.stats(t);
            const inWindow = prints.filter((p) => Math.floor(p.t / 1_000) * 1_000 >= got.openTime).map((p) => p.price);
            expect([got.high, got.low]).to.deep.equal(inWindow.length ? [Math.max(...inWindow), Math.min(...inWindow)] : [NaN, NaN]);
          } else {
            w.add(t, s.price, 1, s.price);
            prints.push({ t, price: s.price });
          }
        }
      }),
    );
  });

  it('keeps_the_high_through_the_queues_dropping_the_buckets_they_passed', () => {
    // Falling prices: every bucket stays in the high queue and leaves it from the front as the window
    // moves, so the queue drops its passed entries many times in a minute (a drop that took one live
    // entry too many would answer a lower high than the scan).
    const w = new RollingWindow(10_000, 1_000);
    const prints: { t: number; price: number }[] = [];
    for (let t = 0; t < 120_000; t += 1_000) {
      const price = 100_000 - t / 100;
      w.add(t, price, 1, price);
      prints.push({ t, price });
      const got = w.stats(t);
      const inWindow = prints.filter((p) => p.t >= got.openTime).map((p) => p.price);
      expect([got.high, got.low], `at ${t}`).to.deep.equal([Math.max(...inWindow), Math.min(...inWindow)]);
    }
  });

  it('refuses_a_window_shorter_than_its_bucket', () => {
    expect(() => new RollingWindow(500, 1000)).to.throw(RangeError);
  });
});

/**
 * A copy of `w` as an emulator snapshot written before the extreme queues restores it: its fields without
 * them, then reviveAfterSnapshot, which the restore calls on every object that has it (object-graph REVIVE).
 */
function withoutQueues(w: RollingWindow): RollingWindow {
  const copy = Object.create(RollingWindow.prototype) as RollingWindow;
  const fields = { ...(w as unknown as Record<string, unknown>) };
  for (const k of ['highs', 'highHead', 'lows', 'lowHead']) delete fields[k];
  Object.assign(copy, fields);
  copy.reviveAfterSnapshot();
  return copy;
}

describe('RingBuffer', () => {
  it('overwrites_the_oldest_and_searches_in_time_order', () => {
    const r = new RingBuffer<number>(3);
    for (const x of [10, 20, 30, 40]) r.push(x);
    expect([r.size, r.at(0), r.last()]).to.deep.equal([3, 20, 40]);
    expect(r.newestFirst()).to.deep.equal([40, 30, 20]);
    expect(r.lowerBound(25, (x) => x)).to.equal(1);
    expect(r.lowerBound(99, (x) => x)).to.equal(3);
    expect(() => r.at(3)).to.throw(RangeError);
  });
});
