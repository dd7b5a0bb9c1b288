import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { ConfigError } from '../../src/core/errors.js';
import { backtestCommand, expectedEvents, reportOrder } from '../../src/app/cli/backtest-command.js';
import { sweepCommand } from '../../src/app/cli/sweep-command.js';
import { applyGridPoint, sweepGrid } from '../../src/backtest/sweep-grid.js';
import { FILL_MODEL_PRESETS } from '../../src/backtest/fill-model.js';
import { loadBacktestData } from '../../src/backtest/backtest-data.js';
import { perpTrendConfig, spotMmDoc } from './support/backtest-fixtures.js';

const sink = (): Writable & { text: string } => {
  const w = new Writable({ write: (chunk, _e, cb) => ((w.text += String(chunk)), cb()) }) as Writable & { text: string };
  w.text = '';
  return w;
};

describe('perpetua backtest / sweep commands', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpetua-backtest-cmd-'));
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes_the_report_of_all_three_fill_models', async () => {
    const file = join(dir, 'spot.yaml');
    writeFileSync(file, stringify(spotMmDoc()));
    const out = sink();
    const r = await backtestCommand({ config: file, out: join(dir, 'report'), progress: false, output: out });
    expect(existsSync(r.json)).to.equal(true);
    expect(existsSync(r.html)).to.equal(true);
    expect(r.models.map((m) => m.fillModel)).to.deep.equal(['neutral', 'optimistic', 'pessimistic']);
    const json = JSON.parse(readFileSync(r.json, 'utf8')) as { band: { fillModel: string }[]; run: { fillModel: string } };
    expect(json.run.fillModel).to.equal('neutral');
    expect(json.band.map((b) => b.fillModel)).to.deep.equal(['optimistic', 'neutral', 'pessimistic']);
    expect(out.text).to.contain('report:');
  });

  it('fails_before_running_when_the_data_is_missing', async () => {
    const file = join(dir, 'missing.yaml');
    const doc = spotMmDoc();
    writeFileSync(
      file,
      stringify({
        ...doc,
        backtest: { ...(doc.backtest as object), data: [{ kind: 'l2', market: 'spot', files: ['data/missing/not-there.gz'] }] },
      }),
    );
    let err: unknown;
    await backtestCommand({ config: file, out: join(dir, 'never'), progress: false, output: sink(), cwd: dir }).catch(
      (e: unknown) => (err = e),
    );
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as Error).message).to.match(/backtest\.data\[0\]\.files\[0\]: data\/missing\/not-there\.gz does not exist/);
    expect(existsSync(join(dir, 'never'))).to.equal(false);
  });

  it('runs_a_parameter_grid_on_worker_threads_and_ranks_it', async () => {
    const file = join(dir, 'sweep.yaml');
    writeFileSync(
      file,
      stringify(spotMmDoc({ sweep: { parameters: { spreadBps: [1, 3] }, rankBy: 'totalReturn', bestN: 1, workers: 2 } })),
    );
    const out = sink();
    const r = await sweepCommand({ config: file, out: join(dir, 'sweep'), progress: false, output: out });
    // 2 points with the neutral model, then the rest of the band (2 models) for the best one
    expect(r.runs).to.equal(4);
    expect(r.results).to.have.length(2);
    expect(r.results.filter((x) => x.runs !== undefined)).to.have.length(1);
    expect(existsSync(r.paths.json)).to.equal(true);
    expect(r.paths.best).to.have.length(1);
    expect(out.text).to.contain('spreadBps');
  });
});

describe('sweep grid', () => {
  it('enumerates_every_combination_in_a_fixed_order', () => {
    expect(sweepGrid({ b: [1, 2], a: ['x', 'y'] })).to.deep.equal([
      { a: 'x', b: 1 },
      { a: 'x', b: 2 },
      { a: 'y', b: 1 },
      { a: 'y', b: 2 },
    ]);
    expect(() => sweepGrid({ a: [1, 2, 3], b: [1, 2] }, 5)).to.throw(ConfigError);
  });

  it('sets_nested_parameters_by_dotted_path', () => {
    expect(applyGridPoint({ spreadBps: 1, unwind: { capBps: 5, enabled: true } }, { 'unwind.capBps': 9 })).to.deep.equal({
      spreadBps: 1,
      unwind: { capBps: 9, enabled: true },
    });
  });
});

describe('backtest command helpers', () => {
  it('puts_the_neutral_model_first', () => {
    const { optimistic, neutral, pessimistic } = FILL_MODEL_PRESETS;
    expect(reportOrder([optimistic, neutral, pessimistic]).map((m) => m.name)).to.deep.equal(['neutral', 'optimistic', 'pessimistic']);
  });

  it('counts_four_path_points_per_bar_of_kline_only_data', async () => {
    const config = perpTrendConfig();
    const { records } = await loadBacktestData(config.backtest.data);
    const bars = records.filter((r) => r.s === 'kline').length;
    // 600 bars → 2400 path points; funding records count once
    expect(bars).to.equal(600);
    expect(expectedEvents(config, records)).to.equal(records.length - bars + 4 * bars);
  });
});
