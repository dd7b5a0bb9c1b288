/**
 * perp-trend backtested with the venue's trailing order (protection.kind: trailing) against fixed TP/SL,
 * on the shipped excerpt (600 one-minute bars of the Binance BTCUSDT perpetual, test/fixtures, never
 * ../shared), neutral fill model, 100 contracts, TP 0.6 % / SL 0.3 %.
 *
 * Expected direction, worked out before running: the trailing order closes a position once the fair
 * price falls back 0.1 % from its best since the entry, so no round trip it closes can lose much more
 * than 0.1 % plus the close's slippage; the fixed stop lets a trade run to −0.3 % (and past it by the
 * poll delay: the backtest's venue takes no TP/SL, the strategy's own exit acts on its one-a-minute
 * snapshots). So the worst round trip is a smaller loss with trailing protection.
 *
 * The trailing closes are the venue's fills (no client id of ours): the run must book each to the
 * strategy once and go on trading after it — it once stopped after the first (the backtest attributed
 * them to nobody, booked them again every pass once their trade id was pruned, and a denied close left
 * the strategy waiting forever).
 */
import { expect } from 'chai';
import { D, type Decimal } from '../../../src/core/decimal.js';
import { loadBacktestData } from '../../../src/backtest/backtest-data.js';
import { runBacktest, type BacktestResult } from '../../../src/backtest/backtest-runner.js';
import { roundTripsFifo, type RoundTrip } from '../../../src/backtest/report/metrics.js';
import { perpTrendConfig } from '../support/backtest-fixtures.js';

const PARAMS = { leverage: 5, interval: 'Min1', fastPeriod: 5, slowPeriod: 20, size: '100', takeProfitPct: 0.6, stopLossPct: 0.3 };

async function run(protection?: Record<string, unknown>): Promise<BacktestResult> {
  const params = { ...PARAMS, ...(protection ? { protection } : {}) };
  const config = perpTrendConfig({ strategies: [{ id: 'trend', name: 'perp-trend', instruments: ['BTC_USDT'], params }] });
  const { records } = await loadBacktestData(config.backtest.data);
  return runBacktest({ config, records, fillModel: config.fillModels.find((m) => m.name === 'neutral')! });
}

/** Price move of a round trip in its favour, percent. */
const movePct = (t: RoundTrip): Decimal =>
  (t.direction === 'long' ? t.exitPrice.div(t.entryPrice).minus(1) : D(1).minus(t.exitPrice.div(t.entryPrice))).mul(100);
const worst = (r: BacktestResult): Decimal =>
  roundTripsFifo(r.run.fills, () => D('0.0001'))
    .map(movePct)
    .reduce((a, b) => (b.lt(a) ? b : a));

describe('backtest: perp-trend with a trailing order against fixed TP/SL (excerpt, neutral)', function () {
  this.timeout(120_000);
  let fixed: BacktestResult;
  let trailing: BacktestResult;

  before(async () => {
    fixed = await run();
    trailing = await run({ kind: 'trailing', callbackPct: 0.1 });
  });

  it('closes_positions_with_the_venue_trailing_order_and_keeps_trading_after_each', () => {
    const venueCloses = trailing.run.fills.filter((f) => f.clientOrderId === undefined);
    expect(venueCloses.length, 'closes made by the trailing order').to.be.greaterThan(1);
    expect(
      fixed.run.fills.filter((f) => f.clientOrderId === undefined),
      'none with fixed TP/SL (the venue takes no TP/SL)',
    ).to.deep.equal([]);
    // The strategy's own orders go on after the first venue close (it used to stop there): its book took
    // the close once, so it saw itself flat and entered again, and later trailing orders closed again.
    const first = venueCloses[0]!.time;
    expect(trailing.run.orders.filter((o) => o.createdAt > first).length).to.be.greaterThan(10);
  });

  it('loses_less_on_its_worst_round_trip_than_the_fixed_stop_allows', () => {
    const w = worst(trailing);
    const f = worst(fixed);
    expect(f.lte(-0.3), `fixed TP/SL worst round trip ${f.toFixed(3)} %`).to.equal(true);
    expect(w.gt(-0.3), `trailing worst round trip ${w.toFixed(3)} %`).to.equal(true);
    expect(w.gt(f)).to.equal(true);
  });
});
