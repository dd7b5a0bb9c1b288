/**
 * The spot grid replayed on 60 s of recorded Binance BTCUSDT (test/fixtures, never ../shared). Its own
 * books — realised grid profit and the PnL of the base it still holds — are checked against the
 * account's, which the simulated exchange keeps independently: they must add up to the equity change,
 * and every completed sell of the grid must be one round trip.
 */
import { expect } from 'chai';
import { D, ZERO } from '../../../src/core/decimal.js';
import { loadBacktestData } from '../../../src/backtest/backtest-data.js';
import { runBacktest, type BacktestResult } from '../../../src/backtest/backtest-runner.js';
import { parseBacktestConfig } from '../../../src/backtest/backtest-config.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import { decodeClientId } from '../../../src/domain/client-id-codec.js';
import { spotMmDoc } from '../support/backtest-fixtures.js';

describe('backtest: spot grid on recorded BTCUSDT (neutral)', function () {
  this.timeout(60_000);
  let result: BacktestResult;

  before(async () => {
    const doc = spotMmDoc({
      strategies: [
        // The excerpt trades around 61 800 – 61 850: 41 lines 5 USDT apart, 500 USDT per interval.
        {
          id: 'grid',
          name: 'spot-grid',
          instruments: ['BTCUSDT'],
          params: { lower: '61700', upper: '61900', levels: 41, totalInvestment: '20000' },
        },
      ],
    });
    const config = parseBacktestConfig(doc, strategyCatalog(), 'spot-grid test config');
    const { records } = await loadBacktestData(config.backtest.data);
    result = await runBacktest({ config, records, fillModel: config.fillModels.find((m) => m.name === 'neutral')! });
  });

  it('books_a_round_trip_for_every_completed_sell', () => {
    const report = result.stats.strategyReports.grid!;
    const sells = result.run.orders.filter((o) => o.status === 'filled' && decodeClientId(o.clientOrderId)?.slot?.startsWith('s'));
    expect(sells.length).to.be.greaterThan(0);
    expect(Number(report['BTCUSDT.roundTrips'])).to.equal(sells.length);
  });

  it('splits_the_equity_change_into_grid_profit_and_inventory_pnl', () => {
    const report = result.stats.strategyReports.grid!;
    const last = result.run.samples[result.run.samples.length - 1]!;
    // The base the grid says it holds is the account's position (the run starts flat).
    expect(report['BTCUSDT.inventoryBase']).to.equal((last.positions.BTCUSDT ?? ZERO).toFixed());
    // Equity change = realised grid profit + inventory PnL. The grid values its base at the last mid it saw,
    // the report at its own last valuation price: they may differ by the base × a few ticks (plus the 4-decimal rounding).
    const change = last.equity.minus(result.run.initialCapital);
    const parts = D(report['BTCUSDT.gridProfit']!).plus(report['BTCUSDT.inventoryPnl']!);
    const slack = D(report['BTCUSDT.inventoryBase']!).mul('0.05').plus('0.0002');
    expect(change.minus(parts).abs().lte(slack), `equity change ${change.toFixed()} vs grid ${parts.toFixed()}`).to.equal(true);
  });
});
