/**
 * Opens sweep.html in headless Chromium from a file:// URL, as the report test does for report.html:
 * the overfitting reading, the walk-forward folds, the in-sample vs out-of-sample scatter, the heat
 * map and the ranking are on the page with the numbers computed from the runs, nothing errors and
 * nothing is fetched. Skips with a message without Chromium or playwright-core.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeMetrics } from '../../../src/backtest/report/metrics.js';
import { formatMetric } from '../../../src/backtest/report/metric-defs.js';
import { type SweepResearch, type SweepResult, rankSweepResults, writeSweepReport } from '../../../src/backtest/report/sweep-report.js';
import { resolveConstraints, resolveObjective } from '../../../src/backtest/research/objective.js';
import { overfittingOfRuns } from '../../../src/backtest/research/overfitting.js';
import { walkForward } from '../../../src/backtest/research/walk-forward.js';
import { syntheticBand } from './support/synthetic-run.js';
import { openPage, requireChromiumOrSkip, type OpenedPage } from './support/chromium.js';

describe('backtest/report/sweep-report html (headless Chromium)', function () {
  this.timeout(60_000);
  let dir: string;
  let opened: OpenedPage;
  let research: SweepResearch;
  let results: SweepResult[];
  const objective = resolveObjective('sharpe');
  const constraints = resolveConstraints({ trades: { min: 10 } });
  const holds = [30, 60, 120, 240];
  const seeds = [1, 2, 3];

  before(async function () {
    requireChromiumOrSkip(this);
    dir = await mkdtemp(join(tmpdir(), 'perpetua-sweep-html-'));
    // 12 candidates: 4 holding times × 3 price paths over one day of minutes (240 min holds trade 5 times: below the constraint)
    const trials = holds.flatMap((hold) =>
      seeds.map((seed) => ({ params: { hold, seed }, runs: syntheticBand({ minutes: 24 * 60, holdMinutes: hold, seed }) })),
    );
    const wf = walkForward(
      trials.map((t, i) => ({ key: String(i), params: t.params, run: t.runs[0]! })),
      { mode: 'anchored', folds: 3, trainSegments: 1 },
      objective,
      constraints,
    );
    results = trials.map((t, i) => ({
      params: t.params,
      metrics: computeMetrics(t.runs[0]!),
      runs: t.runs,
      walkForward: { inSample: wf.candidates[i]!.inSampleScore, outOfSample: wf.candidates[i]!.outOfSampleScore },
    }));
    const ranked = rankSweepResults(results, objective, constraints);
    const winner = results.findIndex((r) => r.params === ranked[0]!.params);
    const overfitting = overfittingOfRuns(
      trials.map((t) => t.runs[0]!),
      winner,
      results[winner]!.metrics.returnPeriodMs,
    );
    research = { search: { method: 'grid', seed: 1, trials: 12, stoppedBy: 'space' }, walkForward: wf, overfitting };
    const paths = await writeSweepReport(results, join(dir, 'out'), {
      rankBy: objective,
      constraints,
      bestN: 2,
      title: 'Hold <sweep>',
      research,
    });
    opened = await openPage(paths.html, dir);
  });

  after(async () => {
    if (opened) await opened.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders_without_errors_or_requests_outside_the_page', () => {
    expect(opened.pageErrors).to.deep.equal([]);
    expect(opened.consoleErrors).to.deep.equal([]);
    expect(opened.requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'))).to.deep.equal([]);
  });

  it('shows_the_overfitting_statistics_and_their_plain_reading', async () => {
    const o = research.overfitting!;
    const reading = await opened.page.evaluate<{ text: string; height: number }>(
      `(() => { const p = document.getElementById('reading'); return { text: p.textContent, height: p.getBoundingClientRect().height }; })()`,
    );
    expect(reading.text).to.equal(o.reading);
    expect(reading.height).to.be.greaterThan(10);
    const cards = await opened.page.evaluate<Record<string, string>>(
      `Object.fromEntries([...document.querySelectorAll('#overfitting .card')].map(c => [c.querySelector('.clabel').textContent, c.querySelector('.cvalue').textContent]))`,
    );
    expect(cards['Trials']).to.equal('12');
    expect(cards['Deflated Sharpe ratio']).to.equal(`${(o.dsr!.dsr * 100).toFixed(1)}%`);
    expect(cards['Probability of overfitting']).to.equal(`${(o.pbo!.pbo * 100).toFixed(1)}%`);
  });

  it('lists_the_walk_forward_folds_with_their_choice', async () => {
    const rows = await opened.page.evaluate<string[][]>(
      `[...document.querySelectorAll('#walk-forward tbody tr')].map(r => [...r.cells].map(c => c.textContent))`,
    );
    expect(rows).to.have.length(3);
    research.walkForward!.folds.forEach((f, i) => {
      expect(rows[i]![3]).to.equal(f.chosen ? JSON.stringify(f.chosen.params) : 'none met the constraints');
      expect(rows[i]![5]).to.equal(formatMetric(f.outOfSampleScore, 'ratio'));
    });
  });

  it('draws_one_scatter_point_per_candidate_with_a_real_size', async () => {
    const s = await opened.page.evaluate<{ points: number; chosen: number; width: number; height: number }>(
      `(() => { const svg = document.querySelector('#is-oos svg'); const r = svg.getBoundingClientRect(); return { points: svg.querySelectorAll('circle.pt').length, chosen: svg.querySelectorAll('circle.pt.chosen').length, width: r.width, height: r.height }; })()`,
    );
    const withBoth = results.filter((r) => r.walkForward!.inSample !== null && r.walkForward!.outOfSample !== null).length;
    expect(s.points).to.equal(withBoth);
    expect(s.chosen).to.equal(
      new Set(research.walkForward!.folds.filter((f) => f.chosen).map((f) => JSON.stringify(f.chosen!.params))).size,
    );
    expect(s.width).to.be.greaterThan(400);
    expect(s.height).to.be.greaterThan(200);
  });

  it('shades_the_heat_map_with_the_best_cell_darkest', async () => {
    const cells = await opened.page.evaluate<{ text: string; good: string | null }[]>(
      `[...document.querySelectorAll('#heat-map td')].map(td => ({ text: td.textContent, good: td.dataset.good ?? null }))`,
    );
    // hold × seed = 4 × 3 cells; each (hold, seed) pair is one run, so a cell is that run's Sharpe
    expect(cells).to.have.length(12);
    const ranked = rankSweepResults(results, objective, constraints);
    const best = cells.find((c) => c.good === '1.000')!;
    expect(best.text).to.equal(formatMetric(ranked[0]!.score, 'ratio'));
    // the 240-minute holds break the constraint: their cells are empty
    expect(cells.filter((c) => c.text === '—').length).to.equal(ranked.filter((r) => r.violations.length > 0).length);
  });

  it('ranks_every_result_with_infeasible_ones_greyed_and_links_the_best', async () => {
    const rows = await opened.page.evaluate<{ rank: string; infeasible: boolean; link: string | null }[]>(
      `[...document.querySelectorAll('#ranking tbody tr')].map(r => ({ rank: r.dataset.rank, infeasible: r.classList.contains('infeasible'), link: r.querySelector('a')?.getAttribute('href') ?? null }))`,
    );
    expect(rows).to.have.length(12);
    const firstBad = rows.findIndex((r) => r.infeasible);
    expect(firstBad).to.be.greaterThan(0);
    expect(rows.slice(firstBad).every((r) => r.infeasible)).to.equal(true);
    expect(rows[0]!.link).to.equal('best/01/report.html');
    expect(existsSync(join(dir, 'out', 'best', '01', 'report.html'))).to.equal(true);
    expect(await opened.page.evaluate<string>(`document.querySelector('h1').textContent`)).to.equal('Hold <sweep>');
  });
});
