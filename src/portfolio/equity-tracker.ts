/**
 * Peak equity and the equity at the start of the (UTC) day, for the kill switches, plus the equity
 * curve. Time comes from the caller (the injected clock), so a backtest's days are its data's days.
 */
import type { Decimal } from '../core/decimal.js';

const DAY_MS = 86_400_000;

export interface EquitySample {
  readonly time: number;
  readonly equity: Decimal;
}

/** Shaped like the risk engine's RiskMetrics, so it can be passed straight in. */
export interface EquityMetrics {
  readonly equity?: Decimal;
  readonly peakEquity?: Decimal;
  readonly dayStartEquity?: Decimal;
  readonly rejectTimes: readonly number[];
}

export class EquityTracker {
  private peak: Decimal | undefined;
  private dayStart: Decimal | undefined;
  private day: number | undefined;
  private last: Decimal | undefined;
  private readonly curve: EquitySample[] = [];

  /** `maxPoints` bounds the kept curve (oldest dropped). */
  constructor(private readonly maxPoints = 100_000) {}

  update(time: number, equity: Decimal): void {
    const day = Math.floor(time / DAY_MS);
    if (this.day === undefined || day !== this.day) {
      this.day = day;
      this.dayStart = equity;
    }
    if (!this.peak || equity.gt(this.peak)) this.peak = equity;
    this.last = equity;
    this.curve.push({ time, equity });
    if (this.curve.length > this.maxPoints) this.curve.shift();
  }

  metrics(rejectTimes: readonly number[] = []): EquityMetrics {
    return {
      ...(this.last ? { equity: this.last } : {}),
      ...(this.peak ? { peakEquity: this.peak } : {}),
      ...(this.dayStart ? { dayStartEquity: this.dayStart } : {}),
      rejectTimes,
    };
  }

  points(): readonly EquitySample[] {
    return this.curve;
  }

  /** Largest peak-to-trough fall of the kept curve, as a fraction of the peak. */
  maxDrawdown(): Decimal | undefined {
    let peak: Decimal | undefined;
    let worst: Decimal | undefined;
    for (const p of this.curve) {
      if (!peak || p.equity.gt(peak)) peak = p.equity;
      if (peak.gt(0)) {
        const dd = peak.minus(p.equity).div(peak);
        if (!worst || dd.gt(worst)) worst = dd;
      }
    }
    return worst;
  }
}
