/**
 * ASHA pruning of sweep runs (research/asha.ts): the rule on hand-worked numbers, the config keys, and
 * a small sweep whose prunings are worked out independently — from the same sweep run WITHOUT
 * pruning, whose anchored walk-forward train windows [start, test start] are exactly the rungs, with
 * the rule re-stated in the test by counting (not by asha.ts' thresholds).
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { sweepCommand, type SweepCommandSummary } from '../../../src/app/cli/sweep-command.js';
import { parseBacktestConfig } from '../../../src/backtest/backtest-config.js';
import { prunedRung, rungThresholds, rungTimes } from '../../../src/backtest/research/asha.js';
import { pointKey } from '../../../src/backtest/research/search-space.js';
import type { SweepJson } from '../../../src/backtest/report/sweep-report.js';
import { ConfigInvalid } from '../../../src/core/config/config-issues.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import { perpTrendDoc } from '../support/backtest-fixtures.js';

const sink = (): Writable & { text: string } => {
  const w = new Writable({ write: (chunk, _e, cb) => ((w.text += String(chunk)), cb()) }) as Writable & { text: string };
  w.text = '';
  return w;
};

const PRUNING = { method: 'asha', eta: 3, minRuns: 2 };
/** 4 × 3 = 12 grid points in batches of 4; anchored walk-forward with 2 folds: rungs at 2/4 and 3/4 of the span. */
const sweepDoc = (pruning?: Record<string, unknown>): Record<string, unknown> =>
  perpTrendDoc({
    sweep: {
      parameters: { fastPeriod: [3, 5, 7, 9], slowPeriod: [20, 30, 40] },
      search: { method: 'grid', batch: 4 },
      objective: 'returnDrawdown',
      walkForward: { mode: 'anchored', folds: 2, trainSegments: 2 },
      bestN: 0,
      ...(pruning ? { pruning } : {}),
    },
  });

interface NotRankedJson {
  params: Record<string, unknown>;
  status: string;
  reason: string;
  rung?: number;
  rungValues?: (number | null)[];
}

describe('backtest/research/asha: pruning runs that cannot win', function () {
  this.timeout(300_000);

  it('applies_the_successive_halving_rule_to_hand_worked_values', () => {
    // η = 3, minRuns 3; earlier values 0.5, 0.1, 0.3: n = 4 competitors, ⌊4/3⌋ = 1 goes on → must reach 0.5.
    expect(rungThresholds([[0.5, 0.1, 0.3]], { eta: 3, minRuns: 3 })).to.deep.equal([0.5]);
    // η = 2: earlier 0.5, 0.1, 0.3, 0.2, 0.4 → n = 6, ⌊6/2⌋ = 3 go on → the 3rd best earlier, 0.3.
    expect(rungThresholds([[0.5, 0.1, 0.3, 0.2, 0.4]], { eta: 2, minRuns: 2 })).to.deep.equal([0.3]);
    // fewer earlier runs than minRuns: nothing pruned; a −∞ (undefined score) threshold prunes nothing.
    expect(rungThresholds([[0.5], [-Infinity, -Infinity]], { eta: 2, minRuns: 2 })).to.deep.equal([null, null]);
    // η = 2 with 2 earlier: n = 3, ⌊3/2⌋ = 1: only a run at least as good as the best earlier goes on.
    expect(rungThresholds([[0.2, 0.7]], { eta: 2, minRuns: 2 })).to.deep.equal([0.7]);
    expect(prunedRung([0.4, 0.1], [0.3, 0.2])).to.equal(1);
    expect(prunedRung([0.2, 0.9], [0.3, 0.2])).to.equal(0);
    expect(prunedRung([0.3, 0.2], [0.3, 0.2]), 'a tie goes on').to.equal(undefined);
    expect(prunedRung([-Infinity], [null])).to.equal(undefined);
    // rungs: 3 equal cuts of [0, 1000] → 4 segments of 250; or the walk-forward test starts.
    expect(rungTimes(0, 1000, { method: 'asha', eta: 3, minRuns: 3, rungs: 3 }, undefined)).to.deep.equal([250, 500, 750]);
    expect(
      rungTimes(0, 1000, { method: 'asha', eta: 3, minRuns: 3, rungs: 3 }, { mode: 'rolling', folds: 2, trainSegments: 2 }),
    ).to.deep.equal([500, 750]);
  });

  it('validates_the_pruning_keys_with_their_paths', () => {
    const issues = (pruning: unknown): string[] => {
      try {
        parseBacktestConfig(sweepDoc(pruning as Record<string, unknown>), strategyCatalog(), 'test');
        return [];
      } catch (e) {
        if (e instanceof ConfigInvalid) return e.lines();
        throw e;
      }
    };
    expect(issues({ method: 'asha', eta: 1 }).some((l) => l.startsWith('sweep.pruning.eta:'))).to.equal(true);
    expect(issues({ method: 'hyperband' }).some((l) => l.startsWith('sweep.pruning.method:'))).to.equal(true);
    expect(issues({ method: 'asha', rungz: 2 }).some((l) => l.startsWith('sweep.pruning') && l.includes('rungz'))).to.equal(true);
    expect(issues({ method: 'asha' })).to.deep.equal([]);
  });

  describe('a pruned grid sweep', () => {
    let dir: string;
    let full: SweepCommandSummary;
    let pruned: SweepCommandSummary;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'perpetua-sweep-pruning-'));
      writeFileSync(join(dir, 'full.yaml'), stringify(sweepDoc()));
      writeFileSync(join(dir, 'pruned.yaml'), stringify(sweepDoc(PRUNING)));
      full = await sweepCommand({ config: join(dir, 'full.yaml'), out: join(dir, 'full'), workers: 2, progress: false, output: sink() });
      pruned = await sweepCommand({
        config: join(dir, 'pruned.yaml'),
        out: join(dir, 'pruned-1'),
        workers: 1,
        progress: false,
        output: sink(),
      });
    });
    after(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('prunes_exactly_the_runs_the_rule_prunes_given_the_unpruned_rung_values', () => {
      // Rung k's value of each point: returnDrawdown (total return − 2 · max drawdown) over the anchored
      // train window of fold k, [start, test start k] — the window the run reports at rung k.
      const wf = full.research.walkForward!;
      const value = new Map(wf.candidates.map((c) => [c.key, c.folds.map((f) => f.inSample.totalReturn - 2 * f.inSample.maxDrawdown)]));
      const order = [3, 5, 7, 9].flatMap((fast) => [20, 30, 40].map((slow) => pointKey({ fastPeriod: fast, slowPeriod: slow })));
      expect([...value.keys()].sort()).to.deep.equal([...order].sort());
      // The rule by counting: at rung k a run of batch b goes on when fewer than max(1, ⌊n/η⌋) of the
      // runs of batches < b that reached rung k are strictly better (n = those + 1), once they are ≥ minRuns.
      const reached: number[][] = [[], []];
      const expected = new Map<string, number>();
      for (let b = 0; b < 3; b++) {
        const batch = order.slice(b * 4, b * 4 + 4);
        const reports: [number, number][] = [];
        for (const key of batch) {
          const v = value.get(key)!;
          let stop: number | undefined;
          for (let k = 0; k < 2 && stop === undefined; k++) {
            reports.push([k, v[k]!]);
            const earlier = reached[k]!;
            if (earlier.length < PRUNING.minRuns) continue;
            const keep = Math.max(1, Math.floor((earlier.length + 1) / PRUNING.eta));
            if (earlier.filter((x) => x > v[k]!).length >= keep) stop = k;
          }
          if (stop !== undefined) expected.set(key, stop);
        }
        for (const [k, v] of reports) reached[k]!.push(v);
      }
      // Worked by hand from the unpruned values (rung 0 / rung 1, ×10⁻³, returnDrawdown on the fixture's
      // 600 bars): batch 1 — 3/20 −0.784/−1.842, 3/30 −1.230/−0.834, 3/40 −1.655/−1.678, 5/20 −0.802/−2.583
      // (never pruned). Batch 2 at rung 0: 4 earlier, n = 5, ⌊5/3⌋ = 1 goes on, so only a value ≥ −0.784
      // would: 5/30 −1.297, 5/40 −1.113, 7/20 −1.093, 7/30 −1.178 all stop at rung 0. Batch 3 at rung 0:
      // 8 earlier, n = 9, 3 go on, so fewer than 3 earlier may be better: 7/40 −1.102 (3 better: −0.784,
      // −0.802, −1.093) and 9/20 −1.425 stop; 9/30 −1.040 and 9/40 −0.904 (2 better) go on. At rung 1
      // 4 earlier (batch 1): only one ≥ −0.834 goes on: 9/30 −1.132 stops at rung 1, 9/40 −0.360 goes on.
      const key = (fast: number, slow: number): string => pointKey({ fastPeriod: fast, slowPeriod: slow });
      const byHand = {
        [key(5, 30)]: 0,
        [key(5, 40)]: 0,
        [key(7, 20)]: 0,
        [key(7, 30)]: 0,
        [key(7, 40)]: 0,
        [key(9, 20)]: 0,
        [key(9, 30)]: 1,
      };
      expect(Object.fromEntries(expected)).to.deep.equal(byHand);
      const json = JSON.parse(readFileSync(pruned.paths.json, 'utf8')) as SweepJson;
      const notRanked = (json.research as { notRanked?: NotRankedJson[] }).notRanked ?? [];
      const got = new Map(notRanked.map((n) => [pointKey(n.params), n.rung!]));
      expect(Object.fromEntries(got)).to.deep.equal(Object.fromEntries(expected));
      for (const n of notRanked) {
        expect(n.status).to.equal('pruned');
        expect(n.reason).to.match(new RegExp(`^pruned at rung ${n.rung} \\(`));
        // What the stopped run reported at its rungs is what the whole run shows over the same windows:
        // the early stop changes nothing before it.
        const v = value.get(pointKey(n.params))!;
        expect(n.rungValues).to.have.length(n.rung! + 1);
        n.rungValues!.forEach((x, k) => expect(x).to.be.closeTo(v[k]!, 1e-12));
      }
      // never ranked; the runs that went on are the same runs as without pruning
      expect(json.count).to.equal(12 - expected.size);
      expect(json.results.every((r) => !expected.has(pointKey(r.params as Record<string, unknown>)))).to.equal(true);
      const fullJson = JSON.parse(readFileSync(full.paths.json, 'utf8')) as SweepJson;
      const fullMetrics = new Map(fullJson.results.map((r) => [pointKey(r.params as Record<string, unknown>), r.metrics]));
      for (const r of json.results) expect(r.metrics).to.deep.equal(fullMetrics.get(pointKey(r.params as Record<string, unknown>)));
      expect(pruned.research.search).to.deep.include({ trials: 12, pruned: expected.size });
      // the checkpoint says where each pruned run stopped
      const lines = readFileSync(join(dir, 'pruned-1', 'checkpoint.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l) as { prunedAt?: number });
      expect(
        lines
          .filter((l) => l.prunedAt !== undefined)
          .map((l) => l.prunedAt)
          .sort(),
      ).to.deep.equal([...expected.values()].sort());
    });

    it('prunes_the_same_runs_on_two_workers_and_on_resume', async () => {
      await sweepCommand({ config: join(dir, 'pruned.yaml'), out: join(dir, 'pruned-2'), workers: 2, progress: false, output: sink() });
      for (const f of ['sweep.json', 'sweep.md', 'sweep.html']) {
        expect(readFileSync(join(dir, 'pruned-2', f), 'utf8'), f).to.equal(readFileSync(join(dir, 'pruned-1', f), 'utf8'));
      }
      const again = await sweepCommand({
        config: join(dir, 'pruned.yaml'),
        out: join(dir, 'pruned-2'),
        workers: 2,
        progress: false,
        output: sink(),
        resume: true,
      });
      expect(again.resumed).to.equal(12);
      expect(readFileSync(join(dir, 'pruned-2', 'sweep.json'), 'utf8')).to.equal(readFileSync(join(dir, 'pruned-1', 'sweep.json'), 'utf8'));
      expect(readFileSync(join(dir, 'pruned-1', 'sweep.html'), 'utf8')).to.contain('<section id="not-ranked">');
    });
  });
});
