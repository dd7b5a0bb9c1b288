import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { ConfigError } from '../../src/core/errors.js';
import {
  backtestCommand,
  fillModelLanes,
  type ModelResult,
  reportOrder,
  runModels,
  THREADS_FROM_EVENTS,
} from '../../src/app/cli/backtest-command.js';
import { expectedEvents } from '../../src/backtest/load-replay.js';
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

  it('runs_the_fill_models_on_worker_threads_with_the_report_and_tapes_of_a_run_one_after_another', async () => {
    // The independent method: the same config run in this process, one fill model after another (the
    // path before threads). Every byte of report.json, report.html and each model's tape must agree.
    const file = join(dir, 'threads.yaml');
    writeFileSync(file, stringify(spotMmDoc()));
    const seqDir = join(dir, 'seq');
    const thrDir = join(dir, 'thr');
    const seq = await backtestCommand({ config: file, out: seqDir, progress: false, output: sink(), workers: 1 });
    const thr = await backtestCommand({ config: file, out: thrDir, progress: false, output: sink(), workers: 3 });
    expect(thr.models.map((m) => m.fillModel)).to.deep.equal(['neutral', 'optimistic', 'pessimistic']);
    expect(thr.records).to.equal(seq.records).and.to.be.greaterThan(0);
    expect(thr.models).to.deep.equal(seq.models);
    expect(thr.identical).to.deep.equal(seq.identical);
    const files = (root: string): string[] =>
      (readdirSync(root, { recursive: true }) as string[]).filter((f) => statSync(join(root, f)).isFile()).sort();
    expect(files(thrDir)).to.deep.equal(files(seqDir));
    expect(files(seqDir)).to.include.members(['report.json', 'report.html', join('tape', 'neutral', 'orders.csv')]);
    // The reports name their own folder (the tape's path): the one difference allowed.
    const read = (root: string, f: string): string => readFileSync(join(root, f), 'utf8').split(root).join('<out>');
    for (const f of files(seqDir)) expect(read(thrDir, f), f).to.equal(read(seqDir, f));
  });

  it('gives_the_same_config_error_whatever_the_workers', async () => {
    // A window with no data: found while loading, before any thread starts, the same ConfigError naming backtest.data.
    const file = join(dir, 'empty-window.yaml');
    const doc = spotMmDoc();
    writeFileSync(
      file,
      stringify({ ...doc, backtest: { ...(doc.backtest as object), from: '2001-01-01T00:00:00Z', to: '2001-01-02T00:00:00Z' } }),
    );
    const errorOf = async (workers: number): Promise<unknown> =>
      backtestCommand({ config: file, out: join(dir, `empty-${workers}`), progress: false, output: sink(), workers }).then(
        () => undefined,
        (e: unknown) => e,
      );
    const inProcess = await errorOf(1);
    const threaded = await errorOf(3);
    expect(inProcess).to.be.instanceOf(ConfigError);
    expect(threaded).to.be.instanceOf(ConfigError);
    expect((threaded as ConfigError).path).to.equal('backtest.data');
    expect((threaded as Error).message)
      .to.equal((inProcess as Error).message)
      .and.to.match(/^backtest\.data: no records of BTCUSDT between/);
  });

  it('refuses_a_workers_count_that_is_not_a_whole_number_of_at_least_one', async () => {
    const file = join(dir, 'spot.yaml');
    writeFileSync(file, stringify(spotMmDoc()));
    for (const workers of [0, 1.5, Number.NaN]) {
      const err = await backtestCommand({ config: file, out: join(dir, 'never-w'), progress: false, output: sink(), workers }).catch(
        (e: unknown) => e,
      );
      expect(err, String(workers)).to.be.instanceOf(ConfigError);
      expect((err as Error).message).to.match(/^--workers: a whole number ≥ 1/);
    }
    expect(existsSync(join(dir, 'never-w'))).to.equal(false);
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

describe('fill-model lanes', () => {
  it('runs_this_process_first_then_threads_and_keeps_the_model_order', async () => {
    // 4 models on 2 lanes: this process takes model 0, the thread lane model 1; whoever is free takes the
    // next. Threads finish after 30 ms, this process at once: it takes 2 and 3 while the thread still runs.
    const log: string[] = [];
    const results = await runModels(
      4,
      2,
      async (k) => (log.push(`main ${k}`), fakeResult(k)),
      (k) => {
        log.push(`thread ${k}`);
        return { result: new Promise((r) => setTimeout(() => r(fakeResult(k)), 30)), stop: async () => undefined };
      },
    );
    expect(results.map((r) => r.stats.events)).to.deep.equal([0, 1, 2, 3]);
    expect(log).to.deep.equal(['main 0', 'thread 1', 'main 2', 'main 3']);
  });

  it('stops_the_running_threads_when_a_lane_fails_and_throws_its_error', async () => {
    let stopped = 0;
    let started = 0;
    const err = await runModels(
      5,
      3,
      async (k) => {
        await new Promise((r) => setTimeout(r, 10));
        if (k === 0) throw new Error('model 0 broke');
        return fakeResult(k);
      },
      () => {
        started++;
        return { result: new Promise<never>(() => undefined), stop: async () => void stopped++ };
      },
    ).catch((e: unknown) => e);
    expect((err as Error).message).to.equal('model 0 broke');
    // Two thread lanes had each started one model that never ends: both stopped, no model started after the failure.
    expect(started).to.equal(2);
    expect(stopped).to.equal(2);
  });

  it('threads_a_long_run_only_with_a_core_per_model_and_one_more_and_never_strategy_classes', () => {
    expect(fillModelLanes({}, 3, THREADS_FROM_EVENTS, 4)).to.equal(3);
    expect(fillModelLanes({}, 3, THREADS_FROM_EVENTS - 1, 4)).to.equal(1);
    expect(fillModelLanes({}, 3, THREADS_FROM_EVENTS, 3)).to.equal(1);
    expect(fillModelLanes({}, 3, THREADS_FROM_EVENTS, 2)).to.equal(1);
    expect(fillModelLanes({ workers: 2 }, 3, 10, 2)).to.equal(2);
    expect(fillModelLanes({ workers: 8 }, 3, 10, 2)).to.equal(3);
    expect(fillModelLanes({ workers: 3, strategyClasses: [] }, 3, THREADS_FROM_EVENTS, 8)).to.equal(1);
    expect(() => fillModelLanes({ workers: 0 }, 3, 10)).to.throw(ConfigError, /--workers: a whole number ≥ 1/);
  });
});

const fakeResult = (k: number): ModelResult => ({ run: {} as ModelResult['run'], stats: { events: k } as ModelResult['stats'] });

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
