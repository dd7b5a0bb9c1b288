/**
 * The overfitting statistics of a finished sweep, from the trials' equity curves: every run's
 * periodic returns on one grid (the return period of the winner's metrics) form the T × N matrix of
 * CSCV, and the winner's returns with the trials' Sharpe ratios give the deflated Sharpe ratio.
 */
import type { BacktestRun } from '../report/backtest-run.js';
import { equityPoints, periodicReturns } from '../report/metrics.js';
import { type DeflatedSharpe, deflatedSharpeOfTrials } from './deflated-sharpe.js';
import { type PboResult, probabilityOfOverfitting } from './pbo.js';

export interface Overfitting {
  readonly trials: number;
  readonly returnPeriodMs: number;
  readonly dsr: DeflatedSharpe | null;
  readonly pbo: PboResult | null;
  /** One line a user can act on. */
  readonly reading: string;
}

/** CSCV blocks: 16 as in the paper, fewer (even) when there are too few returns for 2 per block. */
export function pboBlocks(rows: number): number {
  const most = Math.floor(rows / 2);
  return Math.max(2, Math.min(16, most - (most % 2)));
}

/** `trials`: how many configurations the search tried (default the runs; more when some were pruned). */
export function overfittingOfRuns(runs: readonly BacktestRun[], winner: number, returnPeriodMs: number, trials = runs.length): Overfitting {
  const series = runs.map((r) => periodicReturns(equityPoints(r), returnPeriodMs));
  const t = Math.min(...series.map((s) => s.length));
  // The runs replay the same data, so the grids agree; a shorter one (a run that stopped early) trims all.
  const cols = series.map((s) => s.slice(0, t));
  const dsr = deflatedSharpeOfTrials(cols[winner]!, cols, Math.max(trials, cols.length));
  let pbo: PboResult | null = null;
  if (t >= 4 && cols.length >= 2) {
    const matrix = Array.from({ length: t }, (_, i) => cols.map((c) => c[i]!));
    pbo = probabilityOfOverfitting(matrix, pboBlocks(t));
  }
  return { trials: runs.length, returnPeriodMs, dsr, pbo, reading: plainReading(dsr, pbo) };
}

const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;

/** The statistics in one sentence: what they say about trusting the winner. */
export function plainReading(dsr: DeflatedSharpe | null, pbo: PboResult | null): string {
  const parts: string[] = [];
  if (pbo) {
    parts.push(
      pbo.pbo > 0.5
        ? `the in-sample best did worse than the median out of sample in ${pct(pbo.pbo)} of ${pbo.splits} splits: the ranking is mostly luck`
        : pbo.pbo > 0.2
          ? `the in-sample best fell below the median out of sample in ${pct(pbo.pbo)} of ${pbo.splits} splits: treat the ranking with caution`
          : `the in-sample best stayed above the median out of sample in ${pct(1 - pbo.pbo)} of ${pbo.splits} splits`,
    );
  }
  if (dsr) {
    parts.push(
      dsr.dsr >= 0.95
        ? `the winner's Sharpe ratio beats the best of ${dsr.trials} lucky trials with ${pct(dsr.dsr)} confidence`
        : `only ${pct(dsr.dsr)} confidence that the winner's Sharpe ratio beats the best of ${dsr.trials} lucky trials (95% would be convincing)`,
    );
  }
  if (parts.length === 0) return 'Not enough runs or returns to judge overfitting.';
  const text = parts.join('; ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}
