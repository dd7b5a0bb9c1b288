import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { sweepCommand } from '../../../src/app/cli/sweep-command.js';
import type { SweepJson } from '../../../src/backtest/report/sweep-report.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { perpTrendDoc } from '../support/backtest-fixtures.js';
import { loadBacktestConfig } from '../../../src/backtest/backtest-config.js';
import { sweepSettings } from '../../../src/backtest/research/sweep-settings.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import { PROJECT_ROOT } from '../../support/project-root.js';

const sink = (): Writable & { text: string } => {
  const w = new Writable({ write: (chunk, _e, cb) => ((w.text += String(chunk)), cb()) }) as Writable & { text: string };
  w.text = '';
  return w;
};

/** A TPE search with walk-forward over the perpetual trend strategy on 600 real one-minute bars. */
export const researchSweepDoc = (search: Record<string, unknown> = {}): Record<string, unknown> =>
  perpTrendDoc({
    sweep: {
      parameters: { fastPeriod: { min: 3, max: 12, integer: true }, slowPeriod: [20, 30, 40] },
      search: { method: 'tpe', runs: 12, batch: 4, startupRuns: 4, seed: 3, ...search },
      objective: 'returnDrawdown',
      constraints: { trades: { min: 2 } },
      walkForward: { mode: 'rolling', folds: 2, trainSegments: 2 },
      bestN: 1,
    },
  });

describe('perpetua sweep: search, walk-forward and overfitting statistics', function () {
  this.timeout(300_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpetua-sweep-research-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives_byte_identical_results_on_one_or_two_workers', async () => {
    const file = join(dir, 'tpe.yaml');
    writeFileSync(file, stringify(researchSweepDoc()));
    await sweepCommand({ config: file, out: join(dir, 'one'), workers: 1, progress: false, output: sink() });
    const out = sink();
    const two = await sweepCommand({ config: file, out: join(dir, 'two'), workers: 2, progress: false, output: out });
    for (const f of ['sweep.json', 'sweep.md', 'sweep.html', 'best/01/report.json']) {
      expect(readFileSync(join(dir, 'two', f), 'utf8'), f).to.equal(readFileSync(join(dir, 'one', f), 'utf8'));
    }
    expect(two.research.search).to.deep.equal({ method: 'tpe', seed: 3, trials: 12, stoppedBy: 'runs' });
    // The work spreads over both threads. Each batch is dispatched in one go and each run claims the
    // least busy thread at once (ties: the first). This search's batches come as 4, 3, 3 and 2 runs,
    // then the best point's 2 other fill models together: the first thread takes 2+2+2+1+1 = 8, the
    // second 2+1+1+1+1 = 6. When the claim waited for the thread to be ready, all 14 went to the first.
    expect(two.runsPerThread).to.deep.equal([8, 6]);
    expect(two.runs).to.equal(14);
    const json = JSON.parse(readFileSync(two.paths.json, 'utf8')) as SweepJson;
    expect(json.count).to.equal(12);
    expect(json.objective.name).to.equal('returnDrawdown');
    // 12 distinct points, all inside the space
    const points = json.results.map((r) => r.params as { fastPeriod: number; slowPeriod: number });
    expect(new Set(points.map((p) => `${p.fastPeriod}/${p.slowPeriod}`)).size).to.equal(12);
    for (const p of points) {
      expect(p.fastPeriod).to.be.within(3, 12);
      expect([20, 30, 40]).to.include(p.slowPeriod);
    }
    // ranked: every result meeting the constraint before any breaking it; scores descending within
    const feasible = json.results.map((r) => r.violations.length === 0);
    expect(feasible.indexOf(false) === -1 || feasible.slice(feasible.indexOf(false)).every((x) => !x)).to.equal(true);
    // walk-forward: each candidate has in- and out-of-sample figures, two folds were chosen
    expect(json.results.every((r) => r.walkForward !== undefined)).to.equal(true);
    const research = json.research as {
      walkForward: { folds: unknown[] };
      overfitting: { trials: number; pbo: { pbo: number } | null; deflatedSharpe: { dsr: number } | null };
    };
    expect(research.walkForward.folds).to.have.length(2);
    expect(research.overfitting.trials).to.equal(12);
    expect(research.overfitting.pbo!.pbo).to.be.within(0, 1);
    expect(out.text).to.match(/overfitting \(12 trials\): deflated Sharpe ratio .*probability of backtest overfitting/);
    expect(out.text).to.contain('walk-forward (rolling, 2 folds)');
  });

  it('ships_a_valid_walk_forward_example_config', async () => {
    const config = await loadBacktestConfig(join(PROJECT_ROOT, 'config', 'sweep-walk-forward.yaml'), strategyCatalog());
    const s = sweepSettings(config.sweep!);
    expect(s.search).to.include({ method: 'tpe', runs: 24, batch: 6 });
    expect(s.pruning).to.deep.equal({ method: 'asha', eta: 3, minRuns: 3, rungs: 3 });
    expect(s.walkForward).to.deep.equal({ mode: 'rolling', folds: 4, trainSegments: 2 });
    expect(s.constraints.map((c) => c.metric)).to.deep.equal(['maxDrawdown', 'trades']);
    // perp-trend refuses fastPeriod >= slowPeriod; such a point is infeasible (sweep-infeasible.test.ts)
    // and spends budget for nothing: every point of the example's space is valid, the largest fast
    // period below the smallest slow one.
    const range = (name: string): { min: number; max: number } => {
      const d = s.dims.find((x) => x.name === name);
      if (!d || d.kind !== 'range') throw new Error(`${name} is not a range`);
      return d;
    };
    expect(range('fastPeriod').max).to.be.lessThan(range('slowPeriod').min);
  });

  it('stops_at_the_time_budget_between_batches', async () => {
    // A clock that moves 10 minutes each time it is read: the budget of 15 minutes is spent after the
    // first batch (read at start = 0, before batch 1 = 10 min, before batch 2 = 20 min ≥ 15).
    class TickingClock extends VirtualClock {
      private t = 0;
      override now(): number {
        return (this.t += 600_000) - 600_000;
      }
    }
    const ticking = new TickingClock(0);
    const file = join(dir, 'time.yaml');
    writeFileSync(file, stringify(researchSweepDoc({ method: 'random', maxMinutes: 15, runs: 12 })));
    const r = await sweepCommand({ config: file, out: join(dir, 'time'), workers: 1, progress: false, output: sink(), clock: ticking });
    expect(r.research.search.stoppedBy).to.equal('time');
    expect(r.research.search.trials).to.equal(4);
  });
});
