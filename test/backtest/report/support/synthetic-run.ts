/**
 * A small, deterministic spot backtest made up in the test: a seeded random walk sampled every
 * minute, a strategy that buys half its cash every `holdMinutes` and sells it all the next time,
 * fills slipped by the fill model. Cash, positions and equity are kept consistent so metrics and
 * charts see a real-looking run.
 */
import { D, Decimal, ZERO } from '../../../../src/core/decimal.js';
import { SeededRandom } from '../../../../src/core/random.js';
import { clientOrderId, tradeId } from '../../../../src/core/ids.js';
import type { InstrumentSymbol } from '../../../../src/core/ids.js';
import { type BacktestRun, type RunFill, type RunOrder, type RunSample, configHash } from '../../../../src/backtest/report/backtest-run.js';

export interface SyntheticOptions {
  readonly fillModel?: string;
  /** Adverse slippage of every fill, in basis points. */
  readonly slippageBps?: number;
  readonly seed?: number;
  readonly minutes?: number;
  readonly holdMinutes?: number;
  readonly strategyName?: string;
  readonly symbol?: string;
  readonly klineOnly?: boolean;
  readonly start?: number;
}

export const SYNTHETIC_START = Date.UTC(2024, 2, 1, 0, 0, 0);

export function syntheticConfig(o: SyntheticOptions = {}): Record<string, unknown> {
  return {
    mode: 'backtest',
    strategy: { name: o.strategyName ?? 'Swing demo', params: { holdMinutes: o.holdMinutes ?? 240, fraction: 0.5 } },
    instruments: [o.symbol ?? 'BTCUSDT'],
    seed: o.seed ?? 7,
    initialCapital: '10000',
  };
}

export function syntheticRun(o: SyntheticOptions = {}): BacktestRun {
  const symbol = (o.symbol ?? 'BTCUSDT') as InstrumentSymbol;
  const minutes = o.minutes ?? 3 * 24 * 60;
  const hold = o.holdMinutes ?? 240;
  const start = o.start ?? SYNTHETIC_START;
  const slip = D(o.slippageBps ?? 0).div(10_000);
  const rng = new SeededRandom(o.seed ?? 7);
  const feeRate = D('0.001');
  const config = syntheticConfig(o);

  let price = D(42_000);
  let cash = D(10_000);
  let pos = ZERO;
  const samples: RunSample[] = [];
  const orders: RunOrder[] = [];
  const fills: RunFill[] = [];
  let fees = ZERO;
  for (let m = 0; m <= minutes; m++) {
    const t = start + m * 60_000;
    if (m > 0) price = price.mul(D(1).plus(D(rng.normal() * 0.0012).toDecimalPlaces(6))).toDecimalPlaces(2);
    if (m > 0 && m % hold === 0 && m < minutes) {
      const buy = pos.isZero();
      const fillPrice = (buy ? price.mul(D(1).plus(slip)) : price.mul(D(1).minus(slip))).toDecimalPlaces(2);
      const qty = buy ? cash.mul('0.5').div(fillPrice).toDecimalPlaces(4, Decimal.ROUND_DOWN) : pos;
      const fee = fillPrice.mul(qty).mul(feeRate).toDecimalPlaces(8);
      const n = orders.length + 1;
      const cid = clientOrderId(`swing-${n}`);
      orders.push({
        clientOrderId: cid,
        symbol,
        side: buy ? 'buy' : 'sell',
        type: 'market',
        timeInForce: 'ioc',
        quantity: qty,
        status: 'filled',
        filledQty: qty,
        avgFillPrice: fillPrice,
        createdAt: t,
        submittedAt: t,
        closedAt: t + 5,
        updatedAt: t + 5,
      });
      fills.push({
        tradeId: tradeId(`T${n}`),
        clientOrderId: cid,
        time: t + 5,
        symbol,
        side: buy ? 'buy' : 'sell',
        price: fillPrice,
        quantity: qty,
        fee,
        feeAsset: 'USDT',
        liquidity: 'taker',
      });
      cash = buy ? cash.minus(fillPrice.mul(qty)).minus(fee) : cash.plus(fillPrice.mul(qty)).minus(fee);
      pos = buy ? pos.plus(qty) : ZERO;
      fees = fees.plus(fee);
    }
    samples.push({
      time: t,
      equity: cash.plus(pos.mul(price)),
      cash,
      positions: pos.isZero() ? {} : { [symbol]: pos },
      marks: { [symbol]: price },
    });
  }
  return {
    config,
    configHash: configHash(config),
    strategy: { id: 'swing-demo', name: o.strategyName ?? 'Swing demo', params: { holdMinutes: hold, fraction: 0.5 } },
    seed: o.seed ?? 7,
    fillModel: o.fillModel ?? 'neutral',
    dataRange: {
      firstTime: start,
      lastTime: start + minutes * 60_000,
      instruments: [symbol],
      streams: o.klineOnly ? ['kline:1m'] : ['trades', 'depth'],
      recordCount: minutes * 12,
      klineOnlyIntraBar: o.klineOnly ?? false,
    },
    instruments: [{ symbol, kind: 'spot', multiplier: D(1), settleAsset: 'USDT' }],
    initialCapital: D(10_000),
    valuationAsset: 'USDT',
    orders,
    fills,
    funding: [],
    totalFees: fees,
    samplePeriodMs: 60_000,
    samples,
  };
}

/** The neutral run first, then optimistic (no slippage) and pessimistic (5 bp). */
export function syntheticBand(o: SyntheticOptions = {}): BacktestRun[] {
  return [
    syntheticRun({ ...o, fillModel: 'neutral', slippageBps: 2 }),
    syntheticRun({ ...o, fillModel: 'optimistic', slippageBps: 0 }),
    syntheticRun({ ...o, fillModel: 'pessimistic', slippageBps: 5 }),
  ];
}
