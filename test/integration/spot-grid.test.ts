/**
 * The spot grid through the whole pipeline — pollers, strategy, risk, order manager, spot gateway,
 * SQLite journal — against the emulator over real HTTP: it rests buys under the market, turns a
 * filled buy into a sell one level up, completes round trips, never has more than its budget in
 * buys, and leaves nothing resting when it stops.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { D, ZERO } from '../../src/core/decimal.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { SpotGrid } from '../../strategies/spot-grid.js';
import { fillProblems, IT_ACCOUNT, journalFills, runDoc, startRun, startTestEmulator, tempDir, waitFor } from './support/paper-harness.js';

describe('integration: spot grid against the emulator', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  const tmp = tempDir('grid');

  before(async () => {
    emu = await startTestEmulator();
  });
  after(async () => {
    await emu.stop();
    tmp.remove();
  });

  it('buys_low_sells_one_level_up_within_its_budget_and_cancels_on_exit', async () => {
    // Bounds around the emulator's market now (read over HTTP like any client): ±300 USDT, 61 lines 10 USDT
    // apart, so the lines inside the crowd's 20 USDT spread are the best bid / ask and its takers fill them.
    const ticker = (await (await fetch(`${emu.url}/api/v3/ticker/bookTicker?symbol=BTCUSDT`)).json()) as {
      bidPrice: string;
      askPrice: string;
    };
    const mid = D(ticker.bidPrice).plus(ticker.askPrice).div(2).round();
    const budget = D(6000);
    const run = await startRun(
      runDoc(emu.url, join(tmp.dir, 'grid.sqlite'), {
        instruments: ['BTCUSDT'],
        strategies: [
          {
            id: 'grid1',
            name: 'spot-grid',
            instruments: ['BTCUSDT'],
            params: { lower: mid.minus(300).toFixed(), upper: mid.plus(300).toFixed(), levels: 61, totalInvestment: budget.toFixed() },
          },
        ],
      }),
    );
    const grid = run.runtime.strategyRunners[0]!.strategy as SpotGrid;
    const events = (): ExecutionEvent[] => run.journal.events();
    let worstBuyNotional = ZERO;
    const watchBudget = (): void => {
      const buys = emu.spot.reader
        .openOrders(IT_ACCOUNT.name, 'BTCUSDT')
        .map((o) => emu.spot.reader.orderView(o))
        .filter((o) => o.side === 'BUY');
      const notional = buys.reduce((s, o) => s.plus(o.price.mul(o.origQty)), ZERO);
      if (notional.gt(worstBuyNotional)) worstBuyNotional = notional;
    };
    try {
      await waitFor(() => (watchBudget(), emu.spot.reader.openOrders(IT_ACCOUNT.name, 'BTCUSDT').length >= 10), 20_000, 'the grid of buys');
      await waitFor(() => (watchBudget(), Number(grid.report()['BTCUSDT.roundTrips']) >= 2), 75_000, 'two grid round trips');
    } catch (e) {
      await run.stop('test failed');
      const report = JSON.stringify(grid.report());
      run.dispose();
      throw new Error(`${(e as Error).message}; grid: ${report}`);
    }
    const summary = await run.stop('test over');
    const report = grid.report();

    // Every order rested at a grid line (10 USDT apart from the lower bound), post-only, as buys or sells.
    const orders = emu.spot.reader.allOrders(IT_ACCOUNT.name, 'BTCUSDT', { limit: 1000 }).map((o) => emu.spot.reader.orderView(o));
    const lower = mid.minus(300);
    for (const o of orders) {
      expect(o.price.minus(lower).mod(10).isZero(), `order ${o.clientOrderId} at ${o.price}`).to.equal(true);
      expect(o.type).to.equal('LIMIT_MAKER');
    }
    // A sell of interval i rests one line (10 USDT) above the buy it follows, at the same quantity: a round trip
    // earns qty × 10 USDT with the emulator's zero maker fee, so the realised profit is positive.
    expect(D(report['BTCUSDT.gridProfit']!).gt(0)).to.equal(true);
    // The buys resting together never spent more than the budget.
    expect(worstBuyNotional.gt(0)).to.equal(true);
    expect(worstBuyNotional.lte(budget)).to.equal(true);
    // Cancelled on exit: nothing rests at the venue and the journal agrees.
    expect(summary.cancelledOnExit).to.be.greaterThan(0);
    expect(emu.spot.reader.openOrders(IT_ACCOUNT.name, 'BTCUSDT')).to.have.length(0);
    expect(run.journal.orders().filter((o) => !['filled', 'cancelled', 'rejected', 'expired'].includes(o.status))).to.have.length(0);
    // Every fill the venue made for us is in the journal once, and no other.
    expect(fillProblems(journalFills(events()), emu, IT_ACCOUNT.name, 'BTCUSDT')).to.deep.equal([]);
    run.dispose();
  });
});
