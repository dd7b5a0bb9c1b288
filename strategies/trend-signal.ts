/**
 * EMA-cross arithmetic for the perpetual trend strategy, pure.
 *
 *   EMA_t = α·close_t + (1 − α)·EMA_{t−1},  α = 2 / (period + 1),  seeded with the first close.
 *
 * The averages come from trading-signals' streaming EMA (a maintained, tested library) rather than
 * code of our own; its first value is close·α + close·(1 − α), which equals the seed close up to one
 * float rounding (test/app/strategies/trend-signal.test.ts checks it against hand-worked values and
 * against the hand-written recursion this replaced, over the shipped sample bars).
 *
 * A cross is judged on CLOSED bars only: the sign of fast − slow on the newest closed bar against the
 * bar before it. Bars come from the venue's klines, or are sampled by the strategy from the mark price
 * every `barMs` (BarSampler) when klines are too coarse for the run.
 */
import { EMA } from 'trading-signals';
import type { Decimal } from '../src/core/decimal.js';

export type Cross = 'up' | 'down' | undefined;

/** The EMA after each of `values` (oldest first), seeded with the first value. */
export function ema(values: readonly number[], period: number): number[] {
  const e = new EMA(period);
  // EMA.add returns the new average on every input, before the library calls it stable.
  return values.map((v) => e.update(v, false));
}

/**
 * The cross on the newest of `closes` (oldest first), or undefined. Needs at least slow + 1 closes so
 * the slow average has seen a full period before its first judged bar.
 *
 * Judged on every new bar over the whole window: the two averages run here in one pass, keeping only
 * the last two values of each, with the very arithmetic of trading-signals' EMA.update (`ema` above:
 * v·α + (previous ?? v)·(1 − α), the same double operations in the same order, so the same bits; the
 * trend-signal test holds it to `ema` on every window of the sample bars). Two arrays and two library
 * objects per bar were a third of the strategy's time on a kline backtest (issue 13).
 */
export function emaCross(closes: readonly number[], fast: number, slow: number): Cross {
  const n = closes.length;
  if (n < slow + 1) return undefined;
  const af = 2 / (fast + 1);
  const as = 2 / (slow + 1);
  let f = closes[0]!;
  let s = f;
  f = f * af + f * (1 - af);
  s = s * as + s * (1 - as);
  let before = 0;
  for (let i = 1; i < n; i++) {
    if (i === n - 1) before = Math.sign(f - s);
    const v = closes[i]!;
    f = v * af + f * (1 - af);
    s = v * as + s * (1 - as);
  }
  const now = Math.sign(f - s);
  if (now > 0 && before <= 0) return 'up';
  if (now < 0 && before >= 0) return 'down';
  return undefined;
}

/** Bars made from prices seen at data time (no timers): a bar closes when a price arrives after its end. */
export class BarSampler {
  private readonly closes: number[] = [];
  private barStart: number | undefined;
  private last: number | undefined;

  constructor(
    private readonly barMs: number,
    private readonly keep: number,
  ) {}

  /** Feeds a price at time t; true when a bar closed. */
  add(t: number, price: Decimal): boolean {
    const start = Math.floor(t / this.barMs) * this.barMs;
    let closed = false;
    if (this.barStart !== undefined && start > this.barStart && this.last !== undefined) {
      this.closes.push(this.last);
      if (this.closes.length > this.keep) this.closes.shift();
      closed = true;
    }
    this.barStart = start;
    this.last = price.toNumber();
    return closed;
  }

  /** Closes of the finished bars, oldest first. */
  closed(): readonly number[] {
    return this.closes;
  }
}
