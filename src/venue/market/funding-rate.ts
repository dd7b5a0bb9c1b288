/**
 * Funding of the perpetuals, in the exchange's published form:
 *
 *   P̄ = time-weighted average premium index over the funding cycle, premium index = (fair − index) / index
 *   F  = clamp( P̄ + clamp(I − P̄, −c, +c), minFundingRate, maxFundingRate )
 *
 * I is the interest rate per cycle (0.03 %/day → 0.01 % per 8 h cycle), c the damper band (0.05 %).
 * Whenever P̄ lies within ±c of I the rate is exactly I, which is why 0.0001 is the usual print.
 * Settlements fall on multiples of the cycle in UTC (00:00, 08:00, 16:00 for 8 h; the capture's
 * nextSettleTime 1767225600000 is 2026-01-01 00:00 UTC).
 *
 * The premium between samples is taken as constant at the last sample (a step function), so the
 * average is exact for the samples the model produced.
 */
import { D, Decimal } from '../../core/decimal.js';

export interface FundingConfig {
  /** I, per cycle. Default 0.0001. */
  readonly interestRate?: number;
  /** c. Default 0.0005. */
  readonly clampBand?: number;
  /** Default −0.0018 (the capture's minFundingRate). */
  readonly minRate?: number;
  /** Default 0.0018. */
  readonly maxRate?: number;
  /** Default 8. */
  readonly collectCycleHours?: number;
  /** Decimal places of a published rate. Default 6. */
  readonly decimals?: number;
}

export interface ResolvedFundingConfig {
  readonly interestRate: number;
  readonly clampBand: number;
  readonly minRate: number;
  readonly maxRate: number;
  readonly collectCycleHours: number;
  readonly decimals: number;
}

export function resolveFundingConfig(cfg: FundingConfig = {}): ResolvedFundingConfig {
  const r: ResolvedFundingConfig = {
    interestRate: cfg.interestRate ?? 0.0001,
    clampBand: cfg.clampBand ?? 0.0005,
    minRate: cfg.minRate ?? -0.0018,
    maxRate: cfg.maxRate ?? 0.0018,
    collectCycleHours: cfg.collectCycleHours ?? 8,
    decimals: cfg.decimals ?? 6,
  };
  if (!(r.minRate <= r.maxRate)) throw new RangeError(`funding minRate ${r.minRate} > maxRate ${r.maxRate}`);
  if (!(r.collectCycleHours > 0)) throw new RangeError(`collectCycleHours must be > 0, got ${r.collectCycleHours}`);
  return r;
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** F from an average premium index, rounded to the published decimals. */
export function fundingRateOf(avgPremium: number, cfg: ResolvedFundingConfig): Decimal {
  const c = cfg.clampBand;
  const f = clamp(avgPremium + clamp(cfg.interestRate - avgPremium, -c, c), cfg.minRate, cfg.maxRate);
  // Through Decimal from a short string so 0.0001 stays 0.0001 and not 0.00009999999999999999.
  return D(f.toPrecision(12)).toDecimalPlaces(cfg.decimals);
}

/** The first settlement time strictly after `t`. */
export function nextSettleTime(t: number, cycleHours: number): number {
  const cycle = cycleHours * 3_600_000;
  return (Math.floor(t / cycle) + 1) * cycle;
}

export interface FundingSettlementRecord {
  readonly settleTime: number;
  readonly rate: Decimal;
}

/** Time-weighted premium average per cycle; returns the settlements each sample crosses. */
export class FundingAccumulator {
  private prevTime: number | undefined;
  private prevPremium = 0;
  private cycleStart = 0;
  private integral = 0;
  private nextSettle = 0;

  constructor(readonly cfg: ResolvedFundingConfig) {}

  /** Adds the premium index observed at `t`; returns settlements that fell in (previous sample, t]. */
  sample(t: number, premium: number): FundingSettlementRecord[] {
    const out: FundingSettlementRecord[] = [];
    if (this.prevTime === undefined) {
      this.prevTime = t;
      this.cycleStart = t;
      this.nextSettle = nextSettleTime(t, this.cfg.collectCycleHours);
      this.prevPremium = premium;
      return out;
    }
    if (t < this.prevTime) return out;
    while (this.nextSettle <= t) {
      this.integral += this.prevPremium * (this.nextSettle - this.prevTime);
      const elapsed = this.nextSettle - this.cycleStart;
      const avg = elapsed > 0 ? this.integral / elapsed : this.prevPremium;
      out.push({ settleTime: this.nextSettle, rate: fundingRateOf(avg, this.cfg) });
      this.prevTime = this.nextSettle;
      this.cycleStart = this.nextSettle;
      this.integral = 0;
      this.nextSettle += this.cfg.collectCycleHours * 3_600_000;
    }
    this.integral += this.prevPremium * (t - this.prevTime);
    this.prevTime = t;
    this.prevPremium = premium;
    return out;
  }

  /** Average premium of the running cycle up to the last sample. */
  averagePremium(): number {
    if (this.prevTime === undefined) return 0;
    const elapsed = this.prevTime - this.cycleStart;
    return elapsed > 0 ? this.integral / elapsed : this.prevPremium;
  }

  /** The rate the running cycle would settle at now (what the funding_rate endpoint shows). */
  estimate(): Decimal {
    return fundingRateOf(this.averagePremium(), this.cfg);
  }

  nextSettleTime(): number {
    return this.nextSettle;
  }
}
