import { expect } from 'chai';
import fc from 'fast-check';
import { D, type Decimal } from '../../../src/core/decimal.js';
import { type InstrumentSymbol, tradeId } from '../../../src/core/ids.js';
import type { BacktestRun, RunFill } from '../../../src/backtest/report/backtest-run.js';
import { configHash } from '../../../src/backtest/report/backtest-run.js';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  YEAR_MS,
  annualisedReturn,
  computeMetrics,
  defaultReturnPeriodMs,
  drawdownSeries,
  drawdownStats,
  exposure,
  periodicReturns,
  roundTripsFifo,
  sharpeRatio,
  sortinoRatio,
  tradeStats,
  tradedNotional,
} from '../../../src/backtest/report/metrics.js';

const close = (actual: number | null, expected: number, tol = 1e-9): void => {
  expect(actual, `expected ≈ ${expected}`).to.be.a('number');
  expect(Math.abs((actual as number) - expected), `${actual} vs ${expected}`).to.be.lessThan(tol);
};

const pts = (...equity: number[]): { time: number; equity: number }[] => equity.map((e, i) => ({ time: i * HOUR_MS, equity: e }));

let fillSeq = 0;
const fill = (time: number, side: 'buy' | 'sell', qty: string, price: string, fee: string, extra: Partial<RunFill> = {}): RunFill => ({
  tradeId: tradeId(`t${++fillSeq}`),
  time,
  symbol: 'BTCUSDT' as InstrumentSymbol,
  side,
  price: D(price),
  quantity: D(qty),
  fee: D(fee),
  feeAsset: 'USDT',
  liquidity: 'taker',
  ...extra,
});

describe('backtest/report/metrics', () => {
  describe('periodicReturns', () => {
    it('returns_simple_returns_on_the_period_grid', () => {
      // 100 → 110 → 99 → 99 → 118.8: 110/100−1 = 0.1, 99/110−1 = −0.1, 0, 118.8/99−1 = 0.2
      const r = periodicReturns(pts(100, 110, 99, 99, 118.8), HOUR_MS);
      expect(r).to.have.length(4);
      [0.1, -0.1, 0, 0.2].forEach((x, i) => close(r[i]!, x, 1e-12));
    });

    it('reads_the_curve_as_a_step_function_and_drops_the_partial_period', () => {
      // samples at 0, 30m, 90m, 150m with 100, 105, 120, 90; grid 0, 60m, 120m (180m > end):
      // E(60m) = 105 (last at or before), E(120m) = 120 → returns 0.05, 120/105 − 1
      const points = [
        { time: 0, equity: 100 },
        { time: 30 * MINUTE_MS, equity: 105 },
        { time: 90 * MINUTE_MS, equity: 120 },
        { time: 150 * MINUTE_MS, equity: 90 },
      ];
      const r = periodicReturns(points, HOUR_MS);
      expect(r).to.have.length(2);
      close(r[0]!, 0.05, 1e-12);
      close(r[1]!, 120 / 105 - 1, 1e-12);
    });
  });

  describe('sharpe_and_sortino', () => {
    const returns = [0.1, -0.1, 0, 0.2];

    it('sharpe_is_mean_over_sample_sd_times_root_periods', () => {
      // mean = 0.2/4 = 0.05; deviations 0.05, −0.15, −0.05, 0.15; Σd² = 0.0025+0.0225+0.0025+0.0225 = 0.05
      // sd = √(0.05/3) = 0.1290994; Sharpe = 0.05/0.1290994 · √4 = 0.7745967
      close(sharpeRatio(returns, 4), (0.05 / Math.sqrt(0.05 / 3)) * 2, 1e-12);
      close(sharpeRatio(returns, 4), 0.7745966692, 1e-9);
    });

    it('sharpe_subtracts_the_per_period_risk_free_rate', () => {
      // rf = 1.05⁴ − 1 = 0.21550625 a year → rf_p = 0.05 per period; excess mean = 0.05 − 0.05 = 0
      close(sharpeRatio(returns, 4, 0.21550625), 0, 1e-12);
    });

    it('sortino_uses_downside_deviation_over_all_periods', () => {
      // downside: min(e,0) = 0, −0.1, 0, 0 → Σ = 0.01, /4 = 0.0025, DD = 0.05; 0.05/0.05 · √4 = 2
      close(sortinoRatio(returns, 4), 2, 1e-12);
    });

    it('is_null_when_undefined', () => {
      expect(sharpeRatio([0.01], 365)).to.equal(null); // one return: no sample deviation
      expect(sharpeRatio([0.01, 0.01, 0.01], 365)).to.equal(null); // sd = 0
      expect(sortinoRatio([0.01, 0.02], 365)).to.equal(null); // no period below target
    });
  });

  describe('annualisedReturn', () => {
    it('compounds_over_a_365_day_year', () => {
      // 100 → 121 over 2 years: 1.21^(1/2) − 1 = 0.1
      close(annualisedReturn(100, 121, 2 * YEAR_MS), 0.1, 1e-12);
      // 100 → 110 over half a year (182.5 d): 1.1² − 1 = 0.21
      close(annualisedReturn(100, 110, 182.5 * DAY_MS), 0.21, 1e-12);
    });

    it('is_minus_one_when_wiped_out_and_null_for_zero_span', () => {
      expect(annualisedReturn(100, 0, DAY_MS)).to.equal(-1);
      expect(annualisedReturn(100, 110, 0)).to.equal(null);
    });
  });

  describe('drawdown', () => {
    it('finds_the_deepest_drawdown_and_its_recovery', () => {
      // 100, 120, 90, 110, 125, 100 (hourly): 120 → 90 is (120−90)/120 = 0.25; 125 → 100 is 0.2.
      // Deepest: peak at 1h, trough at 2h, back to ≥ 120 at 4h → duration 4h − 1h = 3h
      const dd = drawdownStats(pts(100, 120, 90, 110, 125, 100));
      close(dd.maxDrawdown, 0.25, 1e-12);
      expect(dd.peakTime).to.equal(HOUR_MS);
      expect(dd.troughTime).to.equal(2 * HOUR_MS);
      expect(dd.recoveryTime).to.equal(4 * HOUR_MS);
      expect(dd.durationMs).to.equal(3 * HOUR_MS);
    });

    it('runs_to_the_end_when_not_recovered', () => {
      // 100, 80, 90: (100−80)/100 = 0.2, peak at 0, never back to 100 → duration = end (2h) − 0
      const dd = drawdownStats(pts(100, 80, 90));
      close(dd.maxDrawdown, 0.2, 1e-12);
      expect(dd.recoveryTime).to.equal(null);
      expect(dd.durationMs).to.equal(2 * HOUR_MS);
    });

    it('is_zero_for_a_rising_curve', () => {
      expect(drawdownStats(pts(100, 101, 102))).to.deep.equal({
        maxDrawdown: 0,
        peakTime: null,
        troughTime: null,
        recoveryTime: null,
        durationMs: 0,
      });
    });

    it('drawdown_series_is_equity_over_running_peak_minus_one', () => {
      // 100, 120, 90, 125: 0, 0, 90/120 − 1 = −0.25, 0
      const s = drawdownSeries(pts(100, 120, 90, 125));
      [0, 0, -0.25, 0].forEach((x, i) => close(s[i]!, x, 1e-12));
    });
  });

  describe('round trips (FIFO)', () => {
    // buy 1 @100 fee .1; buy 2 @110 fee .22; sell 2 @120 fee .24; sell 2 @105 fee .21 (flips short 1);
    // buy 1 @100 fee .1
    const fills = [
      fill(1, 'buy', '1', '100', '0.1'),
      fill(2, 'buy', '2', '110', '0.22'),
      fill(3, 'sell', '2', '120', '0.24'),
      fill(4, 'sell', '2', '105', '0.21'),
      fill(5, 'buy', '1', '100', '0.1'),
    ];

    it('matches_oldest_lots_first_and_splits_fees_pro_rata', () => {
      const trips = roundTripsFifo(fills);
      // 1) lot 1@100 vs sell@120, q=1: gross 20, fees 0.1 + 0.12 = 0.22, net 19.78
      // 2) lot 2@110 vs sell@120, q=1: gross 10, fees 0.11 + 0.12 = 0.23, net 9.77
      // 3) lot 1@110 (rest) vs sell@105, q=1: gross −5, fees 0.11 + 0.105 = 0.215, net −5.215
      // 4) short lot 1@105 vs buy@100, q=1: gross 105−100 = 5, fees 0.105 + 0.1 = 0.205, net 4.795
      expect(trips.map((t) => t.netPnl.toFixed())).to.deep.equal(['19.78', '9.77', '-5.215', '4.795']);
      expect(trips.map((t) => t.direction)).to.deep.equal(['long', 'long', 'long', 'short']);
      expect(trips.map((t) => [t.entryTime, t.exitTime])).to.deep.equal([
        [1, 3],
        [2, 3],
        [2, 4],
        [4, 5],
      ]);
      expect(trips[2]!.grossPnl.toFixed()).to.equal('-5');
    });

    it('derives_win_rate_profit_factor_and_expectancy', () => {
      const s = tradeStats(roundTripsFifo(fills));
      expect(s.roundTrips).to.equal(4);
      close(s.winRate, 3 / 4); // 3 of 4 net > 0
      // wins 19.78 + 9.77 + 4.795 = 34.345; losses 5.215 → PF = 34.345 / 5.215
      close(s.profitFactor, 34.345 / 5.215, 1e-12);
      // (34.345 − 5.215) / 4 = 29.13 / 4 = 7.2825
      close(s.expectancy, 7.2825, 1e-12);
      close(s.averageWin, 34.345 / 3, 1e-12);
      close(s.averageLoss, -5.215, 1e-12);
    });

    it('applies_the_contract_multiplier_and_keeps_hedged_legs_apart', () => {
      // long leg: buy 100 @30000, sell 100 @31000, multiplier 0.0001 → 1000·100·0.0001 = 10
      // short leg (positionSide short): sell 50 @31000, buy 50 @30500 → 500·50·0.0001 = 2.5
      const leg = (time: number, side: 'buy' | 'sell', qty: string, price: string, ps: 'long' | 'short'): RunFill =>
        fill(time, side, qty, price, '0', { symbol: 'BTC_USDT' as InstrumentSymbol, positionSide: ps });
      const trips = roundTripsFifo(
        [
          leg(1, 'buy', '100', '30000', 'long'),
          leg(2, 'sell', '50', '31000', 'short'),
          leg(3, 'sell', '100', '31000', 'long'),
          leg(4, 'buy', '50', '30500', 'short'),
        ],
        () => D('0.0001'),
      );
      expect(trips.map((t) => [t.leg, t.direction, t.grossPnl.toFixed()])).to.deep.equal([
        ['long', 'long', '10'],
        ['short', 'short', '2.5'],
      ]);
    });

    it('ignores_fees_not_in_the_settle_asset', () => {
      const trips = roundTripsFifo(
        [fill(1, 'buy', '1', '100', '0.5', { feeAsset: 'MX' }), fill(2, 'sell', '1', '101', '0.1')],
        undefined,
        () => 'USDT',
      );
      // gross 1, only the USDT exit fee 0.1 counts → net 0.9
      expect(trips[0]!.netPnl.toFixed()).to.equal('0.9');
    });

    it('is_empty_without_a_reducing_fill', () => {
      expect(tradeStats([]).winRate).to.equal(null);
      expect(roundTripsFifo([fill(1, 'buy', '1', '100', '0'), fill(2, 'buy', '1', '101', '0')])).to.deep.equal([]);
    });
  });

  describe('exposure_and_turnover', () => {
    it('counts_time_with_a_non_zero_position', () => {
      // range 0..100; long from 10 to 30, flat, long again from 50 to the end: (20 + 50) / 100 = 0.7
      const f = [fill(10, 'buy', '1', '100', '0'), fill(30, 'sell', '1', '100', '0'), fill(50, 'buy', '1', '100', '0')];
      close(exposure(f, 0, 100), 0.7);
      expect(exposure(f, 5, 5)).to.equal(null);
    });

    it('sums_traded_notional_with_multiplier', () => {
      // 2·100·0.5 + 1·110·0.5 = 100 + 55 = 155
      const n = tradedNotional([fill(1, 'buy', '2', '100', '0'), fill(2, 'sell', '1', '110', '0')], () => D('0.5'));
      expect(n.toFixed()).to.equal('155');
    });
  });

  describe('defaultReturnPeriodMs', () => {
    it('picks_day_hour_or_minute_by_span_and_never_below_the_sample_period', () => {
      expect(defaultReturnPeriodMs(60 * DAY_MS, MINUTE_MS)).to.equal(DAY_MS);
      expect(defaultReturnPeriodMs(3 * DAY_MS, MINUTE_MS)).to.equal(HOUR_MS);
      expect(defaultReturnPeriodMs(10 * HOUR_MS, MINUTE_MS)).to.equal(MINUTE_MS);
      expect(defaultReturnPeriodMs(3 * DAY_MS, DAY_MS)).to.equal(DAY_MS);
    });
  });

  describe('computeMetrics', () => {
    // Daily samples over 4 days: 1000, 1100, 990, 990, 1188 (USDT).
    // Fills: buy 1 @100 at 0.5 d (fee 0.1), sell 1 @110 at 1.5 d (fee 0.11). Funding +0.5, −0.2 USDT, +1 BNB.
    const equity = [1000, 1100, 990, 990, 1188];
    const run: BacktestRun = {
      config: { a: 1 },
      configHash: configHash({ a: 1 }),
      strategy: { id: 's', name: 'S', params: {} },
      seed: 1,
      fillModel: 'neutral',
      dataRange: {
        firstTime: 0,
        lastTime: 4 * DAY_MS,
        instruments: ['BTCUSDT'],
        streams: ['trades'],
        recordCount: 10,
        klineOnlyIntraBar: false,
      },
      instruments: [{ symbol: 'BTCUSDT', kind: 'spot', multiplier: D(1), settleAsset: 'USDT' }],
      initialCapital: D(1000),
      valuationAsset: 'USDT',
      orders: [],
      fills: [fill(0.5 * DAY_MS, 'buy', '1', '100', '0.1'), fill(1.5 * DAY_MS, 'sell', '1', '110', '0.11')],
      funding: [
        { time: DAY_MS, symbol: 'BTCUSDT', amount: D('0.5'), asset: 'USDT' },
        { time: 2 * DAY_MS, symbol: 'BTCUSDT', amount: D('-0.2'), asset: 'USDT' },
        { time: 3 * DAY_MS, symbol: 'BTCUSDT', amount: D('1'), asset: 'BNB' },
      ],
      totalFees: D('0.21'),
      samplePeriodMs: DAY_MS,
      samples: equity.map((e, i) => ({ time: i * DAY_MS, equity: D(e), cash: D(e), positions: {}, marks: {} as Record<string, Decimal> })),
    };
    const m = computeMetrics(run);

    it('computes_returns_and_ratios_on_daily_returns', () => {
      close(m.totalReturn, 0.188, 1e-12); // 1188/1000 − 1
      close(m.netPnl, 188, 1e-9);
      // span 4 d → hourly by default, but never below the 1 d sampling → 1 d, 365 periods a year
      expect(m.returnPeriodMs).to.equal(DAY_MS);
      close(m.periodsPerYear, 365, 1e-12);
      // returns 0.1, −0.1, 0, 0.2 → Sharpe = 0.05/√(0.05/3) · √365 ; Sortino = 0.05/0.05 · √365
      close(m.sharpe, (0.05 / Math.sqrt(0.05 / 3)) * Math.sqrt(365), 1e-9);
      close(m.sortino, Math.sqrt(365), 1e-9);
      // CAGR = 1.188^(365/4) − 1; Calmar = CAGR / 0.1 (max drawdown 1100 → 990)
      close(m.annualisedReturn! / (Math.pow(1.188, 365 / 4) - 1), 1, 1e-9);
      close(m.maxDrawdown, 0.1, 1e-12);
      close(m.calmar! / ((Math.pow(1.188, 365 / 4) - 1) / 0.1), 1, 1e-9);
      // peak 1 d, recovered (1188 ≥ 1100) at 4 d → 3 d
      expect(m.maxDrawdownDurationMs).to.equal(3 * DAY_MS);
    });

    it('computes_trade_exposure_turnover_fees_and_funding', () => {
      expect(m.trades).to.equal(2);
      expect(m.roundTrips).to.equal(1);
      close(m.winRate, 1);
      expect(m.profitFactor).to.equal(null); // no losing round trip
      close(m.expectancy, 9.79, 1e-12); // 110 − 100 − (0.1 + 0.11)
      close(m.exposure, 0.25, 1e-12); // long from 0.5 d to 1.5 d over 4 d
      // notional 100 + 110 = 210; mean equity (1000+1100+990+990+1188)/5 = 1053.6
      close(m.turnover, 210 / 1053.6, 1e-12);
      close(m.fees, 0.21, 1e-12);
      close(m.funding, 0.3, 1e-12); // 0.5 − 0.2; the BNB payment is not in the valuation asset
    });

    it('honours_a_configured_risk_free_rate_and_period', () => {
      const m2 = computeMetrics(run, { riskFreeRate: Math.pow(1.05, 365) - 1, returnPeriodMs: DAY_MS });
      // rf_p = 0.05 per day → excess 0.05, −0.15, −0.05, 0.15 → mean 0 → Sharpe 0
      close(m2.sharpe, 0, 1e-9);
    });
  });

  describe('properties', () => {
    const curve = fc.array(fc.double({ min: 1, max: 1e6, noNaN: true }), { minLength: 2, maxLength: 60 });

    it('max_drawdown_is_within_zero_and_one', () => {
      fc.assert(
        fc.property(curve, (eq) => {
          const dd = drawdownStats(eq.map((e, i) => ({ time: i, equity: e }))).maxDrawdown;
          return dd >= 0 && dd <= 1;
        }),
      );
    });

    it('takes_returns_at_rounding_level_as_flat_whatever_the_scale', () => {
      // The curve fast-check once found: 1.0000000000000016 → 1.0000000000000002 → 1 moves by a few
      // ulps. Its returns (≈ −1.3e-15, −2.2e-16) are rounding; their deviation (≈ 8e-16) must not
      // yield a Sharpe ratio at one scale and none at another (×77.7 changed the rounding).
      for (const k of [1, 77.71428571428572]) {
        const r = periodicReturns(
          [1.0000000000000016, 1.0000000000000002, 1].map((e, i) => ({ time: i * HOUR_MS, equity: e * k })),
          HOUR_MS,
        );
        expect(sharpeRatio(r, 8760)).to.equal(null);
        expect(sortinoRatio(r, 8760)).to.equal(null);
      }
    });

    it('sharpe_sortino_and_drawdown_are_invariant_to_scaling_equity', () => {
      fc.assert(
        fc.property(curve, fc.double({ min: 0.001, max: 1000, noNaN: true }), (eq, k) => {
          const a = eq.map((e, i) => ({ time: i * HOUR_MS, equity: e }));
          const b = eq.map((e, i) => ({ time: i * HOUR_MS, equity: e * k }));
          const ra = periodicReturns(a, HOUR_MS);
          const rb = periodicReturns(b, HOUR_MS);
          const sa = sharpeRatio(ra, 8760);
          const sb = sharpeRatio(rb, 8760);
          const same = (x: number | null, y: number | null): boolean =>
            x === null || y === null ? x === y || Math.abs((x ?? y)!) < 1e-6 : Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x));
          return (
            same(sa, sb) &&
            same(sortinoRatio(ra, 8760), sortinoRatio(rb, 8760)) &&
            Math.abs(drawdownStats(a).maxDrawdown - drawdownStats(b).maxDrawdown) < 1e-9
          );
        }),
      );
    });

    it('round_trip_gross_pnl_equals_cash_flow_when_flat_at_the_end', () => {
      // Any sequence of fills that ends flat: Σ gross PnL = Σ sell notional − Σ buy notional.
      const step = fc.record({
        side: fc.constantFrom('buy' as const, 'sell' as const),
        qty: fc.integer({ min: 1, max: 5 }),
        price: fc.integer({ min: 90, max: 110 }),
      });
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), fc.integer({ min: 90, max: 110 }), (steps, lastPrice) => {
          const fills = steps.map((s, i) => fill(i, s.side, String(s.qty), String(s.price), '0'));
          const net = steps.reduce((a, s) => a + (s.side === 'buy' ? s.qty : -s.qty), 0);
          if (net !== 0) fills.push(fill(steps.length, net > 0 ? 'sell' : 'buy', String(Math.abs(net)), String(lastPrice), '0'));
          const cash = fills.reduce((a, f) => a.plus(f.side === 'sell' ? f.price.mul(f.quantity) : f.price.mul(f.quantity).neg()), D(0));
          const gross = roundTripsFifo(fills).reduce((a, t) => a.plus(t.grossPnl), D(0));
          return gross.eq(cash);
        }),
      );
    });
  });
});
