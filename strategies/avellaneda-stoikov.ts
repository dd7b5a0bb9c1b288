/**
 * Avellaneda–Stoikov market making ("High-frequency trading in a limit order book", 2008), pure.
 *
 *   reservation  r = s − q·γ·σ²·τ − f            f: the funding the position pays before settlement
 *   spread       δ = γ·σ²·τ + (2/γ)·ln(1 + γ/k)
 *   bid = r − δ/2,  ask = r + δ/2
 *
 * s the mid, q the inventory in lots (position / order size), γ the risk aversion (1/price), σ the
 * volatility of the mid (price per √second), τ the horizon (seconds), k the decay of the order
 * arrival intensity λ(δ) = A·e^(−k·δ) (1/price).
 *
 * σ and k are estimated online, from the data, with exponential forgetting:
 *  - σ²: EWMA of (Δmid)² / Δt over successive snapshots;
 *  - k: when trades arrive at depths δ from the mid with intensity A·e^(−kδ), the depths of the trades
 *    that happen are exponentially distributed with rate k, whose maximum-likelihood estimate is
 *    1 / (mean depth): k̂ = 1 / EWMA(|trade price − mid|).
 */
import type { Decimal } from '../src/core/decimal.js';

export interface AsInputs {
  readonly mid: number;
  /** Inventory in lots (position / order size), signed. */
  readonly q: number;
  readonly gamma: number;
  /** Variance of the mid per second, price². */
  readonly sigma2: number;
  readonly horizonSec: number;
  readonly k: number;
  /** Funding shift of the reservation price, price units (positive: longs pay). */
  readonly fundingShift: number;
}

export interface AsQuote {
  readonly reservation: number;
  readonly spread: number;
  readonly bid: number;
  readonly ask: number;
}

export function avellanedaStoikov(x: AsInputs): AsQuote {
  const risk = x.gamma * x.sigma2 * x.horizonSec;
  const reservation = x.mid - x.q * risk - x.fundingShift;
  const spread = risk + (2 / x.gamma) * Math.log(1 + x.gamma / x.k);
  return { reservation, spread, bid: reservation - spread / 2, ask: reservation + spread / 2 };
}

/** Exponentially weighted mean whose weight halves every `halfLife` units of the time it is fed. */
export class EwmaMean {
  private value: number | undefined;
  private count = 0;

  constructor(private readonly halfLife: number) {}

  /** Adds x observed `dt` after the previous one (dt = 1: per observation). */
  add(x: number, dt = 1): void {
    const alpha = 1 - Math.pow(0.5, dt / this.halfLife);
    this.value = this.value === undefined ? x : this.value + alpha * (x - this.value);
    this.count += 1;
  }

  get mean(): number | undefined {
    return this.value;
  }

  get samples(): number {
    return this.count;
  }
}

/** σ² per second from mids at times (ms): EWMA of (Δmid)² / Δt, half-life in seconds. */
export class VolatilityEstimator {
  private readonly ewma: EwmaMean;
  private last: { t: number; mid: number } | undefined;

  constructor(halfLifeSec: number) {
    this.ewma = new EwmaMean(halfLifeSec);
  }

  add(tMs: number, mid: number): void {
    const prev = this.last;
    if (prev && tMs > prev.t) {
      const dt = (tMs - prev.t) / 1000;
      this.ewma.add((mid - prev.mid) ** 2 / dt, dt);
    }
    if (!prev || tMs > prev.t) this.last = { t: tMs, mid };
  }

  get variancePerSec(): number | undefined {
    return this.ewma.mean;
  }

  get samples(): number {
    return this.ewma.samples;
  }
}

/** k from the depths of trades from the mid, seeded with a prior mean depth (1/k₀). */
export class IntensityEstimator {
  private readonly ewma: EwmaMean;

  constructor(
    halfLifeTrades: number,
    priorK: number,
    private readonly minDepth: number,
  ) {
    this.ewma = new EwmaMean(halfLifeTrades);
    this.ewma.add(1 / priorK);
  }

  addTrade(price: number, mid: number): void {
    this.ewma.add(Math.abs(price - mid));
  }

  /** 1 / mean depth; a depth under one tick counts as one tick (a trade at the mid says k is large, not infinite). */
  get k(): number {
    return 1 / Math.max(this.ewma.mean!, this.minDepth);
  }

  get trades(): number {
    return this.ewma.samples - 1;
  }
}

/** A float price as a Decimal on the tick, rounded away from the reservation price (never narrower). */
export const onTick = (price: number, tick: Decimal, direction: 'down' | 'up'): Decimal => {
  const units = price / tick.toNumber();
  return tick.mul(direction === 'down' ? Math.floor(units + 1e-9) : Math.ceil(units - 1e-9));
};
