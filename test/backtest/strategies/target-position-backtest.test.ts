/**
 * target-position (a TWAP of 0.05 BTC over 50 s in 5 IOC slices) replayed on 60 s of recorded Binance
 * BTCUSDT (test/fixtures, never ../shared), through the real runtime, risk engine and order manager
 * against the simulated exchange: the same code as a paper or live run. By hand: 0.05 / 5 = 0.01 per
 * slice, slices due 10 s apart from the first snapshot; each IOC crosses the ask by at most 5 bps, and
 * the recorded book holds far more than 0.01 BTC within 5 bps of the ask, so every slice fills.
 */
import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { loadBacktestData } from '../../../src/backtest/backtest-data.js';
import { parseBacktestConfig } from '../../../src/backtest/backtest-config.js';
import { type BacktestResult, runBacktest } from '../../../src/backtest/backtest-runner.js';
import { parentOfClientId } from '../../../src/domain/client-id-codec.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import { spotMmDoc } from '../support/backtest-fixtures.js';

async function run(params: Record<string, unknown>): Promise<BacktestResult> {
  const doc = spotMmDoc({ strategies: [{ id: 'tp', name: 'target-position', instruments: ['BTCUSDT'], params }] });
  const config = parseBacktestConfig(doc, strategyCatalog(), 'target-position test config');
  const { records } = await loadBacktestData(config.backtest.data);
  return runBacktest({ config, records, fillModel: config.fillModels.find((m) => m.name === 'neutral')! });
}

describe('backtest: target-position by TWAP on recorded BTCUSDT (neutral)', function () {
  this.timeout(60_000);
  const twap = { target: '0.05', execution: 'twap', durationMs: 50_000, slices: 5, childType: 'ioc', maxDeviationBps: 5 };
  let result: BacktestResult;

  before(async () => {
    result = await run(twap);
  });

  it('reaches_the_target_in_five_children_ten_seconds_apart', () => {
    const report = result.stats.strategyReports.tp!;
    expect(report).to.include({ algo: 'twap', side: 'buy', state: 'completed', quantity: '0.05', filled: '0.05', remaining: '0' });
    const children = result.run.orders.filter((o) => parentOfClientId(o.clientOrderId));
    expect(children.map((o) => `${o.quantity!.toFixed()} ${o.timeInForce} ${o.status}`)).to.deep.equal(Array(5).fill('0.01 ioc filled'));
    const t0 = children[0]!.createdAt;
    // Snapshots come every second (cycleMs 1000): each slice goes at the first one at or after its time.
    expect(children.map((o) => Math.round((o.createdAt - t0) / 1000))).to.deep.equal([0, 10, 20, 30, 40]);
    // All children of one parent; the account holds what the parent says it filled.
    expect(new Set(children.map((o) => parentOfClientId(o.clientOrderId)!.parentId)).size).to.equal(1);
    const last = result.run.samples.at(-1)!;
    expect(last.positions.BTCUSDT!.toFixed()).to.equal('0.05');
    // The average is the children's fills' (Σ price·qty / Σ qty), each within 5 bps of its ask.
    const notional = result.run.fills.reduce((a, f) => a.plus(f.price.mul(f.quantity)), D(0));
    expect(D(report.avgPrice!).toFixed(8)).to.equal(notional.div('0.05').toFixed(8));
  });

  it('replays_to_the_same_children_and_figures', async () => {
    const again = await run(twap);
    expect(again.stats.strategyReports.tp).to.deep.equal(result.stats.strategyReports.tp);
    const ids = (r: BacktestResult) => r.run.orders.map((o) => `${o.clientOrderId} ${o.filledQty.toFixed()}`);
    expect(ids(again)).to.deep.equal(ids(result));
  });

  it('an_iceberg_shows_one_visible_child_at_a_time_and_the_stop_cancels_the_resting_one', async () => {
    const ice = await run({ target: '0.03', execution: 'iceberg', visibleQuantity: '0.01', icebergOffsetBps: 0 });
    const report = ice.stats.strategyReports.tp!;
    const children = ice.run.orders.filter((o) => parentOfClientId(o.clientOrderId));
    // Each child 0.01 at the bid of the start; a new one only once the previous filled.
    expect(children.every((o) => o.quantity!.eq('0.01') && o.price!.eq(children[0]!.price!))).to.equal(true);
    for (const [i, o] of children.entries()) if (i < children.length - 1) expect(o.status).to.equal('filled');
    // The data ends before the price comes back: the run's stop cancels the resting child and ends the parent,
    // whose filled quantity is the account's position.
    expect(children.at(-1)!.status).to.equal('cancelled');
    expect(report.state).to.equal('cancelled');
    expect(report.reason).to.match(/^runtime stop/);
    expect(D(report.filled!).plus(report.remaining!).toFixed()).to.equal('0.03');
    expect(ice.run.samples.at(-1)!.positions.BTCUSDT?.toFixed() ?? '0').to.equal(D(report.filled!).toFixed());
  });
});
