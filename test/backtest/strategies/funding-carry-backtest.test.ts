/**
 * The funding carry replayed on the shipped week of Binance BTCUSDT spot and perpetual bars with the
 * perpetual's funding (config/backtest-funding-carry.yaml, data/sample: never ../shared). Both legs in
 * one run need both wallets funded, and the strategy must hear every settlement its short leg was paid:
 * before, the contract wallet started empty (the perpetual leg was denied 20,156 times), the strategy's
 * funding income read 0 while the run booked it, and the perpetual's first fill was dropped as a repeat
 * of the spot's trade id.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigInvalid } from '../../../src/core/config/config-issues.js';
import { D, ZERO } from '../../../src/core/decimal.js';
import { loadBacktestData } from '../../../src/backtest/backtest-data.js';
import { runBacktest, type BacktestResult } from '../../../src/backtest/backtest-runner.js';
import { parseBacktestConfig } from '../../../src/backtest/backtest-config.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import { PROJECT_ROOT } from '../../support/project-root.js';

const CONFIG = join(PROJECT_ROOT, 'config', 'backtest-funding-carry.yaml');
const configDoc = (): Record<string, Record<string, unknown>> =>
  parseYaml(readFileSync(CONFIG, 'utf8')) as Record<string, Record<string, unknown>>;

async function carryRun(edit: (bt: Record<string, unknown>) => Record<string, unknown> = (bt) => bt): Promise<BacktestResult> {
  const doc = configDoc();
  const config = parseBacktestConfig({ ...doc, backtest: edit(doc.backtest!) }, strategyCatalog(), CONFIG);
  const { records } = await loadBacktestData(config.backtest.data, { cwd: PROJECT_ROOT });
  return runBacktest({ config, records, fillModel: config.fillModels.find((m) => m.name === 'neutral')! });
}

describe('backtest: funding carry on the sample week of spot and perpetual bars (neutral)', function () {
  this.timeout(120_000);
  let result: BacktestResult;

  before(async () => {
    result = await carryRun();
  });

  it('holds_both_legs_with_the_capital_split_between_the_wallets', () => {
    const report = result.stats.strategyReports.carry1!;
    expect(report).to.include({ direction: 'long-spot', spotBase: '0.05', perpBase: '-0.05', entries: '1', rebalances: '0' });
    // One order a leg, and the account holds what the strategy believes: the spot and contract venues
    // both number their trades from 1, and the perpetual's first fill was once dropped as a repeat of
    // the spot's (the strategy then sold 500 contracts more, holding -1000 while believing -500).
    expect(result.run.orders.map((o) => `${o.symbol} ${o.side} ${o.quantity?.toFixed()}`)).to.deep.equal([
      'BTCUSDT buy 0.05',
      'BTC_USDT sell 500',
    ]);
    expect(result.run.fills.map((f) => f.tradeId)).to.deep.equal(['1', '1']);
    expect(result.run.samples.at(-1)!.positions).to.deep.include({ BTC_USDT: D(-500) });
  });

  it('books_every_settlement_the_short_leg_was_paid_to_the_strategy', () => {
    // The run's funding list is the simulated venue's settlement records; the strategy's income is the
    // sum of the FundingSettled events the runtime booked to it: two independent paths, to the digit.
    const paid = result.run.funding.reduce((s, f) => s.plus(f.amount), ZERO);
    expect(result.run.funding.length, 'settlements while the short was open').to.equal(20);
    // May 2025 paid longs to shorts at every settlement of the week (rates 0.0013 % to 0.01 %).
    for (const f of result.run.funding) expect(f.amount.gt(0), new Date(f.time).toISOString()).to.equal(true);
    expect(result.stats.strategyReports.carry1!.fundingIncome).to.equal(paid.toFixed(4));
    // By hand: 0.05 BTC short × about 107,000 USDT × the 20 rates' sum (0.00149) ≈ 7.97.
    expect(paid.toFixed(4)).to.equal('7.9655');
  });

  it('cannot_open_the_perpetual_leg_when_its_wallet_is_too_small', async () => {
    // 0.05 BTC short at about 105,550 and leverage 2 needs about 2,640 USDT of margin: 1,000 is short.
    const small = await carryRun((bt) => ({ ...bt, contractCapital: '1000' }));
    expect(small.stats.strategyReports.carry1).to.include({ spotBase: '0.05', perpBase: '0' });
    expect(D(small.stats.strategyReports.carry1!.fundingIncome as string).isZero()).to.equal(true);
  });

  it('refuses_a_contract_capital_not_below_the_initial_capital_or_in_a_one_market_run', () => {
    const doc = configDoc();
    const parse = (d: Record<string, unknown>): unknown => parseBacktestConfig(d, strategyCatalog(), CONFIG);
    const tooMuch = (): unknown => parse({ ...doc, backtest: { ...doc.backtest!, contractCapital: '20000' } });
    expect(tooMuch).to.throw(ConfigInvalid, /backtest\.contractCapital.*less than backtest\.initialCapital \(20000\)/);
    const perpOnly = {
      ...doc,
      instruments: ['BTC_USDT'],
      strategies: [{ id: 'trend1', name: 'perp-trend', instruments: ['BTC_USDT'], params: { size: '10' } }],
      backtest: {
        ...doc.backtest!,
        contractCapital: '5000',
        instruments: { BTC_USDT: (doc.backtest!.instruments as Record<string, unknown>).BTC_USDT },
      },
    };
    expect(() => parse(perpOnly)).to.throw(ConfigInvalid, /backtest\.contractCapital.*both spot and contract/);
  });
});
