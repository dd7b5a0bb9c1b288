/**
 * The run's status line names open orders with their prices, the account's balances and the newest
 * denial with its rule. Built from a hand-made RuntimeStatus; the expected line is written out.
 */
import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { spotSymbol, strategyId } from '../../../src/core/ids.js';
import { statusLine } from '../../../src/app/cli/run-report.js';
import type { RuntimeStatus } from '../../../src/runtime/runtime-status.js';
import type { StrategyCounters } from '../../../src/runtime/run-stats.js';

const counters = (o: Partial<StrategyCounters> = {}): StrategyCounters => ({
  placed: 2,
  fills: 1,
  volume: D(0),
  amends: 0,
  cancels: 0,
  rejects: 0,
  denials: 1,
  failures: 0,
  deniedBy: { 'price-tick': 1 },
  ...o,
});
const BTC = spotSymbol('BTCUSDT');

describe('status line', () => {
  it('shows_order_prices_balances_and_the_last_denial', () => {
    const s: RuntimeStatus = {
      now: 0,
      elapsedMs: 65_000,
      marks: [{ symbol: BTC, mid: D('87500.126') }],
      strategies: [
        {
          id: strategyId('mm1'),
          name: 'spot-market-maker',
          positions: [{ symbol: BTC, leg: 'net', quantity: D('0.001'), entryPrice: D('87400') }] as never,
          realizedPnl: D('1.5'),
          unrealizedPnl: D('0.1'),
          fees: D(0),
          openOrders: 2,
          algos: [],
          orders: [
            { symbol: BTC, side: 'buy', price: D('87495.5'), quantity: D('0.001') },
            { symbol: BTC, side: 'sell', price: D('87505'), quantity: D('0.001') },
          ],
          counters: counters(),
        },
      ],
      totals: counters(),
      balances: [
        { asset: 'USDT', total: D('49912.534567') },
        { asset: 'BTC', total: D('0.50100000123456789') },
      ],
      lastDenial: 'price-tick: price 87495.505 is not a multiple of the tick 0.01',
      staleSnapshots: 0,
      snapshots: 10,
    };
    expect(statusLine(s, 'USDT')).to.equal(
      '1m05s BTCUSDT 87500.13 | mm1: +0.001 BTCUSDT pnl +1.60 USDT open buy 0.001@87495.5 sell 0.001@87505 | bal USDT 49912.53 BTC 0.501' +
        ' | placed 2 filled 1 amended 0 cancelled 0 rejects 0 denied 1 | last denied price-tick: price 87495.505 is not a multiple of the tick 0.01',
    );
  });
});
