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
 */
export function emaCross(closes: readonly number[], fast: number, slow: number): Cross {
  if (closes.length < slow + 1) return undefined;
  const f = ema(closes, fast);
  const s = ema(closes, slow);
  const n = closes.length;
  const now = Math.sign(f[n - 1]! - s[n - 1]!);
  const before = Math.sign(f[n - 2]! - s[n - 2]!);
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
