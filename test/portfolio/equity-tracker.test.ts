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

  it('with_no_curve_keeps_only_the_latest_sample_and_the_same_metrics', () => {
    // The runtime's tracker (TradingState) keeps no curve; its kill-switch metrics are those of a tracker that does.
    const none = new EquityTracker(0);
    const all = new EquityTracker();
    for (const [i, e] of [100, 120, 90, 110].entries()) {
      none.update(i * DAY + 5, D(e));
      all.update(i * DAY + 5, D(e));
    }
    expect(none.points()).to.deep.equal([]);
    expect(none.latest()).to.deep.equal({ time: 3 * DAY + 5, equity: D(110) });
    expect(all.latest()).to.deep.equal(all.points().at(-1));
    expect(none.metrics()).to.deep.equal(all.metrics());
  });
});
