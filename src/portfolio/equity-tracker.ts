/**
 * Peak equity and the equity at the start of the (UTC) day, for the kill switches, plus the equity
 * curve. Time comes from the caller (the injected clock), so a backtest's days are its data's days.
 */
import type { Decimal } from '../core/decimal.js';

const DAY_MS = 86_400_000;
const NO_REJECTS: readonly number[] = Object.freeze([]);

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
  /** Why equity is unknown (the assets without a price, and the fix), while it is. */
  readonly unknownReason?: string;
}

export class EquityTracker {
  private peak: Decimal | undefined;
  private dayStart: Decimal | undefined;
  private day: number | undefined;
  private last: Decimal | undefined;
  private lastSample: EquitySample | undefined;
  /** The kept curve is curve[head…]: dropping the oldest point moves `head` (no array shift per update). */
  private curve: EquitySample[] = [];
  private head = 0;
  /** metrics() without reject times, until the next update (the runtime asks once per snapshot). */
  private cached: EquityMetrics | undefined;

  /**
   * `maxPoints` bounds the kept curve (oldest dropped); 0 keeps none, only the latest sample (the
   * runtime reads no more, and 20,000 kept points were ~4 MB of a long backtest's live heap).
   */
  constructor(private readonly maxPoints = 100_000) {}

  /** Equity could not be valued now, for this reason (kept until the next update). */
  unknown(reason: string): void {
    if (reason === this.unknownReason) return;
    this.unknownReason = reason;
    this.cached = undefined;
  }

  private unknownReason: string | undefined;

  update(time: number, equity: Decimal): void {
    if (this.unknownReason !== undefined) this.unknownReason = undefined;
    const day = Math.floor(time / DAY_MS);
    if (this.day === undefined || day !== this.day) {
      this.day = day;
      this.dayStart = equity;
    }
    if (!this.peak || equity.gt(this.peak)) this.peak = equity;
    this.last = equity;
    this.cached = undefined;
    const sample = { time, equity };
    this.lastSample = sample;
    if (this.maxPoints === 0) return;
    this.curve.push(sample);
    if (this.curve.length - this.head > this.maxPoints) {
      this.head++;
      // Compact in batches: O(1) amortised per update instead of moving the whole curve each time.
      if (this.head >= this.maxPoints) this.compact();
    }
  }

  metrics(rejectTimes: readonly number[] = []): EquityMetrics {
    if (rejectTimes.length === 0 && this.cached) return this.cached;
    // Built field by field: asked once per snapshot, and spreading optional parts costs more than the rest.
    const m: { equity?: Decimal; peakEquity?: Decimal; dayStartEquity?: Decimal; rejectTimes: readonly number[]; unknownReason?: string } =
      { rejectTimes: rejectTimes.length === 0 ? NO_REJECTS : rejectTimes };
    if (this.unknownReason !== undefined) m.unknownReason = this.unknownReason;
    if (this.last) m.equity = this.last;
    if (this.peak) m.peakEquity = this.peak;
    if (this.dayStart) m.dayStartEquity = this.dayStart;
    if (rejectTimes.length === 0) this.cached = m;
    return m;
  }

  /** The latest sample, whether or not a curve is kept. */
  latest(): EquitySample | undefined {
    return this.lastSample;
  }

  points(): readonly EquitySample[] {
    if (this.head > 0) this.compact();
    return this.curve;
  }

  private compact(): void {
    this.curve = this.curve.slice(this.head);
    this.head = 0;
  }

  /** Largest peak-to-trough fall of the kept curve, as a fraction of the peak. */
  maxDrawdown(): Decimal | undefined {
    let peak: Decimal | undefined;
    let worst: Decimal | undefined;
    for (const p of this.points()) {
      if (!peak || p.equity.gt(peak)) peak = p.equity;
      if (peak.gt(0)) {
        const dd = peak.minus(p.equity).div(peak);
        if (!worst || dd.gt(worst)) worst = dd;
      }
    }
    return worst;
  }
}
