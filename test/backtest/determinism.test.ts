import { expect } from 'chai';
import type { DataRecord } from '../../src/marketdata/record/record.js';
import { loadBacktestData } from '../../src/backtest/backtest-data.js';
import { runBacktest, runFillModelBand } from '../../src/backtest/backtest-runner.js';
import { renderReport } from '../../src/backtest/report/write-report.js';
import { runToJson } from '../../src/backtest/report/run-codec.js';
import type { BacktestConfig } from '../../src/backtest/backtest-config.js';
import { perpTrendConfig, spotMmConfig } from './support/backtest-fixtures.js';

async function runAll(config: BacktestConfig, records: DataRecord[]): Promise<string[]> {
  return (await runFillModelBand({ config, records })).map((r) => JSON.stringify(runToJson(r.run)));
}

describe('determinism: same data + config + seed → the same bytes', function () {
  this.timeout(120_000);

  it('gives_byte_identical_run_json_for_two_spot_runs', async () => {
    const config = spotMmConfig();
    const { records } = await loadBacktestData(config.backtest.data);
    const a = await runAll(config, records);
    const b = await runAll(spotMmConfig(), (await loadBacktestData(config.backtest.data)).records);
    expect(a).to.have.length(3);
    expect(a.map((j) => (JSON.parse(j) as { header: { fillModel: string } }).header.fillModel)).to.deep.equal([
      'neutral',
      'optimistic',
      'pessimistic',
    ]);
    a.forEach((json, i) => expect(json).to.equal(b[i]));
    // The three fill models do not all agree (otherwise the band would show nothing).
    expect(new Set(a).size).to.be.greaterThan(1);
  });

  it('gives_a_byte_identical_report_for_two_perpetual_runs', async () => {
    const config = perpTrendConfig();
    const { records } = await loadBacktestData(config.backtest.data);
    const run = async () => {
      const runs = [];
      for (const m of config.fillModels) runs.push((await runBacktest({ config, records, fillModel: m })).run);
      const neutral = runs.find((r) => r.fillModel === 'neutral')!;
      return renderReport([neutral, ...runs.filter((r) => r !== neutral)]).json;
    };
    const first = await run();
    expect(await run()).to.equal(first);
    expect(JSON.parse(first).run.dataRange.klineOnlyIntraBar).to.equal(true);
  });

  it('changes_the_run_when_the_seed_changes_only_in_its_record', async () => {
    const config = spotMmConfig();
    const other = spotMmConfig({ backtest: { ...(spotMmConfig().document.backtest as object), seed: 8 } });
    const { records } = await loadBacktestData(config.backtest.data);
    const a = (await runBacktest({ config, records, fillModel: config.fillModels[1]! })).run;
    const b = (await runBacktest({ config: other, records, fillModel: other.fillModels[1]! })).run;
    expect(a.seed).to.equal(7);
    expect(b.seed).to.equal(8);
    expect(a.configHash).to.not.equal(b.configHash);
    // Nothing in this run draws random numbers: the seed changes the record, not the trading.
    expect(JSON.stringify(runToJson(a).orders)).to.equal(JSON.stringify(runToJson(b).orders));
  });

  it('repeats_seeded_latency_jitter_exactly_and_varies_it_with_the_seed', async () => {
    const jittery = (seed: number) => {
      const base = spotMmConfig().document.backtest as Record<string, unknown>;
      return spotMmConfig({ backtest: { ...base, seed, fillModels: [{ name: 'jittery', base: 'neutral', latency: { jitterMs: 40 } }] } });
    };
    const { records } = await loadBacktestData(spotMmConfig().backtest.data);
    const run = async (seed: number) => {
      const c = jittery(seed);
      return JSON.stringify(runToJson((await runBacktest({ config: c, records, fillModel: c.fillModels[0]! })).run).orders);
    };
    const a = await run(7);
    expect(await run(7)).to.equal(a);
    expect(await run(8)).to.not.equal(a);
  });
});
