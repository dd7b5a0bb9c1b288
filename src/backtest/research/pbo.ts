/**
 * Probability of backtest overfitting by combinatorially symmetric cross-validation (Bailey, Borwein,
 * López de Prado & Zhu, "The Probability of Backtest Overfitting", Journal of Computational Finance,
 * 2015 / 2017).
 *
 * M is a T × N matrix: the periodic returns of N trials on the same T periods. Its rows are cut into
 * S equal blocks (S even; trailing rows that do not fill a block are left out). For each of the
 * C(S, S/2) ways to pick half the blocks as the in-sample set J (the rest, J̄, out of sample):
 *   n* = the trial with the best in-sample performance (first by index on a tie);
 *   ω̄ = rank of n* among the N out-of-sample performances / (N + 1), ranks 1 (worst) … N (best),
 *        ties sharing their average rank;
 *   λ = ln(ω̄ / (1 − ω̄)).
 * PBO = the share of splits with λ ≤ 0: how often the in-sample winner does no better than the
 * median out of sample. Performance is the per-period Sharpe ratio mean / sd (sample sd); a flat
 * column (sd = 0) scores 0, or ±∞ with the sign of its mean when that is not zero.
 */
import { ValidationError } from '../../core/errors.js';

export interface PboResult {
  /** Probability of backtest overfitting, in [0, 1]. */
  readonly pbo: number;
  /** λ of every split, in the order the splits are enumerated (lexicographic block combinations). */
  readonly logits: readonly number[];
  readonly splits: number;
  readonly blocks: number;
  /** Rows used (T less the remainder), trials (N). */
  readonly rows: number;
  readonly trials: number;
  /** Per split: in-sample and out-of-sample performance of the in-sample winner. */
  readonly pairs: readonly { readonly inSample: number; readonly outOfSample: number }[];
}

/**
 * Per-period Sharpe ratio of a column over a set of blocks, from the blocks' sums Σx and Σx² (so a
 * split costs S additions per column, not T): mean / √((Σx² − n·mean²) / (n − 1)). A variance at
 * rounding level of Σx²/n is flat (see the module note).
 */
function performance(sum: readonly number[], sumSq: readonly number[], blocks: readonly number[], rowsPerBlock: number): number {
  let s = 0;
  let q = 0;
  for (const b of blocks) {
    s += sum[b]!;
    q += sumSq[b]!;
  }
  const n = blocks.length * rowsPerBlock;
  const m = s / n;
  const v = (q - n * m * m) / (n - 1);
  if (v > 1e-12 * (q / n)) return m / Math.sqrt(v);
  return m === 0 ? 0 : m > 0 ? Infinity : -Infinity;
}

/** Every k-subset of 0 … n−1, lexicographic. */
export function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const pick: number[] = [];
  const go = (start: number): void => {
    if (pick.length === k) {
      out.push([...pick]);
      return;
    }
    for (let i = start; i <= n - (k - pick.length); i++) {
      pick.push(i);
      go(i + 1);
      pick.pop();
    }
  };
  go(0);
  return out;
}

/** Average rank (1 = smallest) of values[i] among values. */
function averageRank(values: readonly number[], i: number): number {
  let below = 0;
  let equal = 0;
  for (const v of values) {
    if (v < values[i]!) below++;
    else if (v === values[i]) equal++;
  }
  return below + (equal + 1) / 2;
}

/**
 * PBO of a T × N return matrix (rows = periods, columns = trials) with S blocks. Null when it is not
 * defined: fewer than 2 trials (nothing was selected). Throws on a malformed matrix or S.
 */
export function probabilityOfOverfitting(matrix: readonly (readonly number[])[], blocks = 16): PboResult | null {
  if (!(Number.isInteger(blocks) && blocks >= 2 && blocks % 2 === 0)) throw new ValidationError('blocks', 'an even integer ≥ 2', blocks);
  const n = matrix[0]?.length ?? 0;
  if (matrix.some((row) => row.length !== n))
    throw new ValidationError('matrix', 'rows of equal length (one column per trial)', 'ragged rows');
  if (n < 2) return null;
  const size = Math.floor(matrix.length / blocks);
  // Each half needs at least 2 rows for a standard deviation.
  if (size * (blocks / 2) < 2)
    throw new ValidationError(
      'matrix',
      `at least ${Math.max(blocks, 4)} rows for ${blocks} blocks (2 per half for a standard deviation)`,
      `${matrix.length} rows`,
    );
  // sums[c][b] = Σ over block b of column c; squares likewise.
  const sums = Array.from({ length: n }, () => new Array<number>(blocks).fill(0));
  const squares = Array.from({ length: n }, () => new Array<number>(blocks).fill(0));
  for (let b = 0; b < blocks; b++) {
    for (let r = b * size; r < (b + 1) * size; r++) {
      const row = matrix[r]!;
      for (let c = 0; c < n; c++) {
        sums[c]![b]! += row[c]!;
        squares[c]![b]! += row[c]! * row[c]!;
      }
    }
  }
  const logits: number[] = [];
  const pairs: { inSample: number; outOfSample: number }[] = [];
  for (const train of combinations(blocks, blocks / 2)) {
    const inTrain = new Set(train);
    const test = Array.from({ length: blocks }, (_, b) => b).filter((b) => !inTrain.has(b));
    const isPerf = Array.from({ length: n }, (_, c) => performance(sums[c]!, squares[c]!, train, size));
    const oosPerf = Array.from({ length: n }, (_, c) => performance(sums[c]!, squares[c]!, test, size));
    let best = 0;
    for (let c = 1; c < n; c++) if (isPerf[c]! > isPerf[best]!) best = c;
    const w = averageRank(oosPerf, best) / (n + 1);
    logits.push(Math.log(w / (1 - w)));
    pairs.push({ inSample: isPerf[best]!, outOfSample: oosPerf[best]! });
  }
  return {
    pbo: logits.filter((l) => l <= 0).length / logits.length,
    logits,
    splits: logits.length,
    blocks,
    rows: size * blocks,
    trials: n,
    pairs,
  };
}
