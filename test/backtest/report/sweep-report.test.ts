import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '../../../src/core/errors.js';
import { type MetricKey, type Metrics, computeMetrics } from '../../../src/backtest/report/metrics.js';
import {
  type SweepJson,
  type SweepResult,
  rankSweepResults,
  renderSweepTable,
  writeSweepReport,
} from '../../../src/backtest/report/sweep-report.js';
import { syntheticBand, syntheticRun } from './support/synthetic-run.js';

const base: Metrics = computeMetrics(syntheticRun({ minutes: 120, holdMinutes: 30 }));
const result = (params: Record<string, unknown>, over: Partial<Metrics>): SweepResult => ({ params, metrics: { ...base, ...over } });

describe('backtest/report/sweep-report', () => {
  const results = [
    result({ fast: 5, slow: 20 }, { sharpe: 1.2, maxDrawdown: 0.1, totalReturn: 0.05 }),
    result({ fast: 10, slow: 20 }, { sharpe: null, maxDrawdown: 0.02, totalReturn: 0 }),
    result({ fast: 3, slow: 20 }, { sharpe: 2.5, maxDrawdown: 0.3, totalReturn: 0.2 }),
    result({ fast: 8, slow: 20 }, { sharpe: 1.2, maxDrawdown: 0.05, totalReturn: 0.04 }),
  ];

  it('ranks_descending_with_nulls_last_and_ties_by_params', () => {
    const ranked = rankSweepResults(results, 'sharpe');
    // 2.5 first; the two 1.2s ordered by canonical params ({"fast":5,…} < {"fast":8,…}); null last
    expect(ranked.map((r) => r.params['fast'])).to.deep.equal([3, 5, 8, 10]);
    expect(ranked.map((r) => r.rank)).to.deep.equal([1, 2, 3, 4]);
  });

  it('ranks_ascending_when_lower_is_better', () => {
    expect(rankSweepResults(results, 'maxDrawdown').map((r) => r.params['fast'])).to.deep.equal([10, 8, 5, 3]);
  });

  it('does_not_depend_on_input_order', () => {
    const a = rankSweepResults(results, 'sharpe').map((r) => r.params);
    const b = rankSweepResults([...results].reverse(), 'sharpe').map((r) => r.params);
    expect(a).to.deep.equal(b);
  });

  it('refuses_an_unknown_metric', () => {
    expect(() => rankSweepResults(results, 'nope' as MetricKey)).to.throw(ValidationError, /rankBy/);
  });

  it('renders_an_aligned_markdown_table', () => {
    const text = renderSweepTable(results, 'sharpe', { columns: ['totalReturn', 'maxDrawdown'] });
    const lines = text.trimEnd().split('\n');
    expect(lines).to.have.length(2 + 4);
    expect(lines[0]).to.match(/^\| +# \| fast +\| slow +\| +Sharpe \| +Total return \| +Max drawdown \|$/);
    expect(lines[2]).to.match(/^\| +1 \| 3 +\| 20 +\| +2\.50 \| +20\.00% \| +30\.00% \|$/);
    expect(lines[5]).to.contain('—'); // null Sharpe
    // every row the same width
    expect(new Set(lines.map((l) => [...l].length)).size).to.equal(1);
  });

  it('escapes_pipes_in_param_values', () => {
    const text = renderSweepTable([result({ name: 'a|b' }, { sharpe: 1 })], 'sharpe');
    expect(text).to.contain('a\\|b');
  });

  describe('writeSweepReport', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'perpetua-sweep-'));
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('writes_ranked_json_markdown_html_and_pages_for_the_best_runs', async () => {
      const withRuns: SweepResult[] = [30, 60, 90].map((hold) => {
        const runs = syntheticBand({ minutes: 600, holdMinutes: hold });
        return { params: { holdMinutes: hold }, metrics: computeMetrics(runs[0]!), runs };
      });
      const paths = await writeSweepReport(withRuns, dir, { rankBy: 'totalReturn', bestN: 2, title: 'Hold <sweep>' });
      const json = JSON.parse(await readFile(paths.json, 'utf8')) as SweepJson;
      expect(json.count).to.equal(3);
      expect(json.order).to.equal('descending');
      const returns = json.results.map((r) => r.metrics['totalReturn'] as number);
      expect(returns).to.deep.equal([...returns].sort((a, b) => b - a));
      expect(json.results.map((r) => r.report)).to.deep.equal(['best/01/report.html', 'best/02/report.html', null]);
      expect(paths.best).to.have.length(2);
      for (const p of paths.best) expect((await stat(p)).size).to.be.greaterThan(1000);
      const page = await readFile(join(dir, 'best', '01', 'report.html'), 'utf8');
      expect(page).to.contain('Sweep rank #1 of 3');
      const index = await readFile(paths.html, 'utf8');
      expect(index).to.contain('Hold &lt;sweep&gt;');
      expect(index).to.contain('href="best/01/report.html"');
      expect(await readFile(paths.markdown, 'utf8')).to.contain('Ranked by Total return (higher is better), 3 runs.');
    });
  });
});
