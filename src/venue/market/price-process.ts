/**
 * The "true" price of the synthetic market and the perpetual premium around it.
 *
 * Reference price, a Merton jump diffusion stepped by the elapsed clock time Δt:
 *   τ = Δt / YEAR_MS                              (YEAR = 365 days: crypto trades every day)
 *   N ~ Poisson(λ · Δt / DAY_MS)                  (λ = jumps per day)
 *   r = (μ − σ²/2)·τ + σ·√τ·Z + Σ_{k=1..N} J_k,   Z ~ N(0,1), J_k ~ N(m, s)
 *   S' = S · e^r
 * μ is the drift of the continuous part (jumps add λ·(e^{m+s²/2} − 1) per day on top).
 *
 * Premium, an Ornstein–Uhlenbeck process sampled exactly (so the result does not depend on the
 * step size), parameterised by its long-run mean θ, stationary standard deviation q and half-life h:
 *   a  = 2^(−Δt / h)
 *   p' = θ + (p − θ)·a + q·√(1 − a²)·Z
 */
import type { SeededRandom } from '../../core/random.js';

export const YEAR_MS = 365 * 86_400_000;
export const DAY_MS = 86_400_000;

export interface PriceProcessConfig {
  readonly initialPrice: number;
  /** μ, per year. Default 0. */
  readonly driftPerYear?: number;
  /** σ, annualised. */
  readonly volatilityPerYear: number;
  /** λ, expected jumps per day. Default 0. */
  readonly jumpsPerDay?: number;
  /** m, mean log-size of a jump. Default 0. */
  readonly jumpMean?: number;
  /** s, standard deviation of the log-size of a jump. Default 0.01. */
  readonly jumpStd?: number;
}

export class JumpDiffusionProcess {
  private current: number;
  private readonly mu: number;
  private readonly sigma: number;
  private readonly lambda: number;
  private readonly jumpMean: number;
  private readonly jumpStd: number;

  constructor(
    cfg: PriceProcessConfig,
    private readonly rng: SeededRandom,
  ) {
    if (!(cfg.initialPrice > 0)) throw new RangeError(`initialPrice must be > 0, got ${cfg.initialPrice}`);
    if (!(cfg.volatilityPerYear >= 0)) throw new RangeError(`volatilityPerYear must be ≥ 0, got ${cfg.volatilityPerYear}`);
    this.current = cfg.initialPrice;
    this.mu = cfg.driftPerYear ?? 0;
    this.sigma = cfg.volatilityPerYear;
    this.lambda = cfg.jumpsPerDay ?? 0;
    this.jumpMean = cfg.jumpMean ?? 0;
    this.jumpStd = cfg.jumpStd ?? 0.01;
  }

  get price(): number {
    return this.current;
  }

  /** Advances by `dtMs` and returns the new price. */
  step(dtMs: number): number {
    if (dtMs <= 0) return this.current;
    const tau = dtMs / YEAR_MS;
    let r = (this.mu - (this.sigma * this.sigma) / 2) * tau + this.sigma * Math.sqrt(tau) * this.rng.normal();
    const jumps = this.lambda > 0 ? this.rng.poisson((this.lambda * dtMs) / DAY_MS) : 0;
    for (let k = 0; k < jumps; k++) r += this.jumpMean + this.jumpStd * this.rng.normal();
    this.current *= Math.exp(r);
    return this.current;
  }
}

export interface PremiumConfig {
  /** θ, long-run mean premium (fraction of the index). Default 0. */
  readonly mean?: number;
  /** q, stationary standard deviation. Default 0.0002. */
  readonly std?: number;
  /** h, half-life of a deviation, ms. Default 10 minutes. */
  readonly halfLifeMs?: number;
  /** Starting premium. Default θ. */
  readonly initial?: number;
}

export class MeanRevertingPremium {
  private current: number;
  private readonly theta: number;
  private readonly q: number;
  private readonly halfLife: number;

  constructor(
    cfg: PremiumConfig,
    private readonly rng: SeededRandom,
  ) {
    this.theta = cfg.mean ?? 0;
    this.q = cfg.std ?? 0.0002;
    this.halfLife = cfg.halfLifeMs ?? 600_000;
    if (!(this.halfLife > 0)) throw new RangeError(`premium halfLifeMs must be > 0, got ${this.halfLife}`);
    this.current = cfg.initial ?? this.theta;
  }

  get value(): number {
    return this.current;
  }

  step(dtMs: number): number {
    if (dtMs <= 0) return this.current;
    const a = Math.pow(2, -dtMs / this.halfLife);
    this.current = this.theta + (this.current - this.theta) * a + this.q * Math.sqrt(1 - a * a) * this.rng.normal();
    return this.current;
  }
}
