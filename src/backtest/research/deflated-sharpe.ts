/**
 * The deflated Sharpe ratio (Bailey & López de Prado, "The Deflated Sharpe Ratio: Correcting for
 * Selection Bias, Backtest Overfitting and Non-Normality", Journal of Portfolio Management, 2014).
 *
 * The best of N tried configurations has a high Sharpe ratio even when none has skill. DSR is the
 * probability that the winner's true Sharpe ratio exceeds the one expected from the best of N
 * skill-less trials:
 *
 *   SR₀ = √V · ((1 − γ) · Φ⁻¹(1 − 1/N) + γ · Φ⁻¹(1 − 1/(N·e)))       (expected maximum of N trials)
 *   DSR = Φ( (SR − SR₀) · √(T − 1) / √(1 − γ₃·SR + (γ₄ − 1)/4 · SR²) )
 *
 * with every Sharpe ratio per period (not annualised), V the variance of the trials' Sharpe ratios,
 * γ = 0.5772… (Euler–Mascheroni), T the number of returns of the winner, γ₃ its skewness and γ₄ its
 * (non-excess) kurtosis. With SR₀ = 0 it is the probabilistic Sharpe ratio (PSR) against zero.
 */
import { sampleStdDev } from '../report/metrics.js';
import { mean, normCdf, normInv, sampleVariance, skewKurtosis } from './normal.js';

export const EULER_GAMMA = 0.5772156649015329;

/**
 * E[max of N standard-normal-ish Sharpe ratios] scaled by √variance. N = 1 or V = 0 gives 0: with
 * one trial (or trials that all agree) there is no selection to correct for.
 */
export function expectedMaxSharpe(trials: number, variance: number): number {
  if (!(trials > 1) || !(variance > 0)) return 0;
  const n = trials;
  return Math.sqrt(variance) * ((1 - EULER_GAMMA) * normInv(1 - 1 / n) + EULER_GAMMA * normInv(1 - 1 / (n * Math.E)));
}

export interface DeflatedSharpeInput {
  /** The winner's Sharpe ratio per period (mean / sd of its periodic returns). */
  readonly sharpe: number;
  /** Number of returns behind it. */
  readonly observations: number;
  readonly skew: number;
  /** Non-excess kurtosis (3 for a normal). */
  readonly kurtosis: number;
  /** Number of configurations tried (independent trials). */
  readonly trials: number;
  /** Variance of the per-period Sharpe ratios across the trials. */
  readonly sharpeVariance: number;
}

export interface DeflatedSharpe {
  /** Probability that the true Sharpe ratio beats the expected best of `trials` lucky ones. */
  readonly dsr: number;
  /** The benchmark SR₀, per period. */
  readonly expectedMaxSharpe: number;
  readonly sharpe: number;
  readonly trials: number;
  readonly observations: number;
}

/**
 * DSR from its inputs; null when undefined: fewer than 2 returns, or a non-positive variance term
 * (very skewed returns with a large Sharpe ratio make 1 − γ₃·SR + (γ₄ − 1)/4·SR² ≤ 0).
 */
export function deflatedSharpe(input: DeflatedSharpeInput): DeflatedSharpe | null {
  const { sharpe: sr, observations: t, skew, kurtosis, trials } = input;
  if (!(t >= 2) || !Number.isFinite(sr)) return null;
  const denom = 1 - skew * sr + ((kurtosis - 1) / 4) * sr * sr;
  if (!(denom > 0)) return null;
  const sr0 = expectedMaxSharpe(trials, input.sharpeVariance);
  return { dsr: normCdf(((sr - sr0) * Math.sqrt(t - 1)) / Math.sqrt(denom)), expectedMaxSharpe: sr0, sharpe: sr, trials, observations: t };
}

/** Per-period Sharpe ratio mean / sd (sample sd, n − 1); null when flat or n < 2. */
export function periodSharpe(returns: readonly number[]): number | null {
  const sd = sampleStdDev(returns);
  // Same floor as the report's Sharpe: a deviation of rounding size means flat returns.
  return sd !== null && sd > 1e-12 ? mean(returns) / sd : null;
}

/**
 * DSR of the winner among trials given as periodic return series: the winner's moments from its own
 * returns, the variance from the trials' per-period Sharpe ratios (trials whose ratio is undefined
 * count as trials but add no variance). `count`: the trials the search made, when more than the series
 * (runs stopped early by pruning were tried too, but have no whole series).
 */
export function deflatedSharpeOfTrials(
  winner: readonly number[],
  trials: readonly (readonly number[])[],
  count = trials.length,
): DeflatedSharpe | null {
  const sr = periodSharpe(winner);
  const moments = skewKurtosis(winner);
  if (sr === null || moments === null) return null;
  const srs = trials.map(periodSharpe).filter((x): x is number => x !== null);
  const variance = sampleVariance(srs) ?? 0;
  return deflatedSharpe({
    sharpe: sr,
    observations: winner.length,
    skew: moments.skew,
    kurtosis: moments.kurtosis,
    trials: count,
    sharpeVariance: variance,
  });
}
