import { expect } from 'chai';
import { D } from '../../src/core/decimal.js';
import { EquityTracker } from '../../src/portfolio/equity-tracker.js';

const DAY = 86_400_000;

describe('EquityTracker', () => {
  it('tracks_the_peak_and_the_start_of_each_utc_day', () => {
    const t = new EquityTracker();
    t.update(DAY + 1, D(100));
    t.update(DAY + 2, D(120));
    t.update(DAY + 3, D(90));
    expect(t.metrics()).to.deep.include({ equity: D(90), peakEquity: D(120), dayStartEquity: D(100) });
    t.update(2 * DAY, D(95));
    expect(t.metrics().dayStartEquity!.toFixed()).to.equal('95');
  });

  it('measures_the_largest_fall_from_a_peak', () => {
    const t = new EquityTracker();
    for (const [i, e] of [100, 120, 90, 110, 60, 130].entries()) t.update(i, D(e));
    // worst: 120 → 60 = 50 %
    expect(t.maxDrawdown()!.toFixed()).to.equal('0.5');
  });

  it('keeps_a_bounded_curve', () => {
    const t = new EquityTracker(3);
    for (let i = 0; i < 5; i++) t.update(i, D(i));
    expect(t.points().map((p) => p.time)).to.deep.equal([2, 3, 4]);
  });
});
