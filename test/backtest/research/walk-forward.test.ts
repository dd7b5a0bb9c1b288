import { expect } from 'chai';
import { computeMetrics, windowPoints } from '../../../src/backtest/report/metrics.js';
import { resolveConstraints, resolveObjective } from '../../../src/backtest/research/objective.js';
import { walkForward, walkForwardFolds } from '../../../src/backtest/research/walk-forward.js';
import { ConfigError } from '../../../src/core/errors.js';
import { SYNTHETIC_START, syntheticRun } from '../report/support/synthetic-run.js';

const MIN = 60_000;

describe('backtest/research/walk-forward', () => {
  it('cuts_rolling_and_anchored_folds_by_hand', () => {
    // span 0–600 in 2 train + 2 test segments of 150
    expect(walkForwardFolds(0, 600, { mode: 'rolling', folds: 2, trainSegments: 2 })).to.deep.equal([
      { index: 0, train: { from: 0, to: 300 }, test: { from: 300, to: 450 } },
      { index: 1, train: { from: 150, to: 450 }, test: { from: 450, to: 600 } },
    ]);
    expect(walkForwardFolds(0, 600, { mode: 'anchored', folds: 2, trainSegments: 2 }).map((f) => f.train)).to.deep.equal([
      { from: 0, to: 300 },
      { from: 0, to: 450 },
    ]);
    // 601 ms: segments of 150, the last test window takes the remainder
    expect(walkForwardFolds(0, 601, { mode: 'rolling', folds: 2, trainSegments: 2 })[1]!.test).to.deep.equal({ from: 450, to: 601 });
    expect(() => walkForwardFolds(0, 3, { mode: 'rolling', folds: 2, trainSegments: 2 })).to.throw(ConfigError, /too short/);
  });

  it('reads_a_window_of_a_run_by_hand', () => {
    const run = syntheticRun({ minutes: 600, holdMinutes: 50 });
    const from = SYNTHETIC_START + 120 * MIN + 30_000; // between two samples: the curve's value at 120 min carries in
    const to = SYNTHETIC_START + 360 * MIN;
    const m = computeMetrics(run, { window: { from, to } });
    const at = (t: number): number =>
      run.samples
        .filter((s) => s.time <= t)
        .at(-1)!
        .equity.toNumber();
    expect(m.initialEquity).to.equal(at(from));
    expect(m.finalEquity).to.equal(at(to));
    expect(m.totalReturn).to.be.closeTo(at(to) / at(from) - 1, 1e-15);
    // The strategy buys at minute 50, sells at 100, buys at 150 … (every 50 minutes, alternating).
    // Inside 120.5–360 min: buy 150, sell 200, buy 250, sell 300, buy 350 = 5 fills
    expect(m.trades).to.equal(run.fills.filter((f) => f.time >= from && f.time <= to).length);
    expect(m.trades).to.equal(5);
    // round trips close on the sells inside: 200 and 300 (the one closed at 100 is before the window)
    expect(m.roundTrips).to.equal(2);
    // exposure: flat at 120.5 (sold at 100), long 150–200, 250–300, 350–360 = 110 of 239.5 minutes,
    // less 5 ms: fills come 5 ms after the minute, so the last holding starts at 350 min + 5 ms
    expect(m.exposure).to.be.closeTo((110 * MIN - 5) / (239.5 * MIN), 1e-12);
    // the same window seen from a run that is long when it opens: 170–360 starts long (bought at 150)
    const carried = computeMetrics(run, { window: { from: SYNTHETIC_START + 170 * MIN, to } });
    // 170 → 200 min + 5 ms, 250 + 5 ms → 300 + 5 ms, 350 + 5 ms → 360: exactly 90 minutes
    expect(carried.exposure).to.be.closeTo(90 / 190, 1e-12);
    expect(carried.roundTrips).to.equal(2);
    expect(
      windowPoints(
        [
          { time: 0, equity: 1 },
          { time: 10, equity: 2 },
        ],
        5,
        20,
      ),
    ).to.deep.equal([
      { time: 5, equity: 1 },
      { time: 10, equity: 2 },
    ]);
  });

  it('chooses_the_in_sample_best_and_reports_it_out_of_sample', () => {
    const candidates = [20, 45, 90, 130].map((hold, i) => ({
      key: String(i),
      params: { hold },
      run: syntheticRun({ minutes: 1200, holdMinutes: hold, seed: 3 }),
    }));
    const objective = resolveObjective('totalReturn');
    const wf = walkForward(candidates, { mode: 'rolling', folds: 3, trainSegments: 2 }, objective, []);
    expect(wf.folds).to.have.length(3);
    for (const fold of wf.folds) {
      const isScores = candidates.map((c) => computeMetrics(c.run, { window: fold.train }).totalReturn);
      const best = isScores.indexOf(Math.max(...isScores));
      expect(fold.chosen!.params).to.deep.equal({ hold: [20, 45, 90, 130][best] });
      expect(fold.outOfSampleScore).to.equal(computeMetrics(candidates[best]!.run, { window: fold.test }).totalReturn);
    }
    const mean = wf.folds.reduce((a, f) => a + f.outOfSampleScore!, 0) / 3;
    expect(wf.outOfSampleScore).to.be.closeTo(mean, 1e-15);
    // every candidate carries its in- and out-of-sample means
    expect(wf.candidates.every((c) => c.inSampleScore !== null && c.outOfSampleScore !== null)).to.equal(true);
    // a constraint nobody meets in sample leaves the folds without a choice
    const none = walkForward(
      candidates,
      { mode: 'anchored', folds: 2, trainSegments: 1 },
      objective,
      resolveConstraints({ trades: { min: 10_000 } }),
    );
    expect(none.folds.every((f) => f.chosen === null)).to.equal(true);
    expect(none.outOfSampleScore).to.equal(null);
  });
});
