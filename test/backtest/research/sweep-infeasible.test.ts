/**
 * A point whose config is invalid (perp-trend refuses fastPeriod ≥ slowPeriod) is infeasible: it is
 * recorded with the reason in the report and the checkpoint, never ranked, counted in the budget, and
 * TPE sees it as its worst observation; the search goes on. Before, the first such point aborted the
 * whole sweep (a random or TPE proposal, or any point of a grid, which was checked whole up front).
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { sweepCommand } from '../../../src/app/cli/sweep-command.js';
import type { SweepJson } from '../../../src/backtest/report/sweep-report.js';
import { perpTrendDoc } from '../support/backtest-fixtures.js';

const sink = (): Writable & { text: string } => {
  const w = new Writable({ write: (chunk, _e, cb) => ((w.text += String(chunk)), cb()) }) as Writable & { text: string };
  w.text = '';
  return w;
};

interface Point {
  fastPeriod: number;
  slowPeriod: number;
}
interface NotRankedJson {
  params: Point;
  status: string;
  reason: string;
}

describe('perpetua sweep: invalid points are infeasible, not fatal', function () {
  this.timeout(300_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpetua-sweep-infeasible-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const sweepOf = async (name: string, sweep: Record<string, unknown>): Promise<{ json: SweepJson; out: string; checkpoint: string[] }> => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, stringify(perpTrendDoc({ sweep: { objective: 'returnDrawdown', bestN: 0, ...sweep } })));
    const out = sink();
    const r = await sweepCommand({ config: file, out: join(dir, name), workers: 2, progress: false, output: out });
    const json = JSON.parse(readFileSync(r.paths.json, 'utf8')) as SweepJson;
    return {
      json,
      out: out.text,
      checkpoint: readFileSync(join(dir, name, 'checkpoint.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .slice(1),
    };
  };
  const notRanked = (json: SweepJson): NotRankedJson[] => (json.research as { notRanked?: NotRankedJson[] }).notRanked ?? [];

  it('records_invalid_grid_points_and_ranks_the_rest', async () => {
    // 3 × 2 grid; by hand, fast ≥ slow for (20,20), (30,20), (30,30): 3 infeasible, 3 ranked.
    const { json, out, checkpoint } = await sweepOf('grid', { parameters: { fastPeriod: [10, 20, 30], slowPeriod: [20, 30] } });
    const bad = notRanked(json);
    expect(bad.map((b) => `${b.params.fastPeriod}/${b.params.slowPeriod}`).sort()).to.deep.equal(['20/20', '30/20', '30/30']);
    for (const b of bad) {
      expect(b.status).to.equal('infeasible');
      expect(b.reason).to.contain('fastPeriod < slowPeriod');
    }
    expect(json.count).to.equal(3);
    expect(
      json.results.map((r) => `${(r.params as unknown as Point).fastPeriod}/${(r.params as unknown as Point).slowPeriod}`).sort(),
    ).to.deep.equal(['10/20', '10/30', '20/30']);
    expect((json.research as { search: unknown }).search).to.deep.include({ trials: 6, infeasible: 3 });
    // the checkpoint keeps each with its reason (a resume does not try them again)
    const lines = checkpoint.map((l) => JSON.parse(l) as { infeasible?: string; run?: unknown });
    expect(lines.filter((l) => l.infeasible !== undefined)).to.have.length(3);
    expect(lines.filter((l) => l.run !== undefined)).to.have.length(3);
    expect(out).to.contain('not ranked: 3 infeasible point(s)');
  });

  for (const method of ['random', 'tpe'] as const) {
    it(`goes_on_after_an_invalid_${method}_proposal_to_the_end_of_its_budget`, async () => {
      // fastPeriod 3…40 against slowPeriod 20 or 30: about half the space is invalid.
      const search = { method, runs: 10, batch: 4, startupRuns: 4, seed: 5 };
      const { json, checkpoint } = await sweepOf(method, {
        parameters: { fastPeriod: { min: 3, max: 40, integer: true }, slowPeriod: [20, 30] },
        search,
      });
      const bad = notRanked(json);
      expect(bad.length, 'the seed must draw some invalid points for this test to mean anything').to.be.greaterThan(0);
      for (const b of bad) {
        expect(b.status).to.equal('infeasible');
        expect(b.params.fastPeriod).to.be.at.least(b.params.slowPeriod);
        expect(b.reason).to.contain('fastPeriod < slowPeriod');
      }
      for (const r of json.results)
        expect((r.params as unknown as Point).fastPeriod).to.be.lessThan((r.params as unknown as Point).slowPeriod);
      // the whole budget is spent: ranked + infeasible = runs
      expect(json.count + bad.length).to.equal(10);
      expect((json.research as { search: unknown }).search).to.deep.include({
        method,
        trials: 10,
        stoppedBy: 'runs',
        infeasible: bad.length,
      });
      expect(checkpoint.filter((l) => (JSON.parse(l) as { infeasible?: string }).infeasible !== undefined)).to.have.length(bad.length);
    });
  }

  it('refuses_a_sweep_whose_every_point_is_invalid', async () => {
    const file = join(dir, 'none.yaml');
    writeFileSync(file, stringify(perpTrendDoc({ sweep: { parameters: { fastPeriod: [30, 40], slowPeriod: [20] }, bestN: 0 } })));
    let error: Error | undefined;
    try {
      await sweepCommand({ config: file, out: join(dir, 'none'), workers: 1, progress: false, output: sink() });
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).to.match(/^sweep\.parameters: expected some valid point; all 2 were refused.*fastPeriod < slowPeriod/);
  });
});
