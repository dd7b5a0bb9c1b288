/**
 * Grid arithmetic for the spot grid, pure.
 *
 *   arithmetic: line_k = lower + k·(upper − lower)/(n − 1)
 *   geometric:  line_k = lower · (upper / lower)^(k/(n − 1))
 *
 * for k = 0 … n − 1, each rounded to the tick (down below the middle line, up above it, so no line
 * leaves the bounds). Interval i lies between line i and line i + 1: it holds either a buy at line i
 * or a sell of the same base quantity at line i + 1, so a round trip earns qty·(line_{i+1} − line_i)
 * before fees. Every interval is given the same quote amount, totalInvestment / (n − 1), so the
 * buys of the whole grid never spend more than the budget.
 */
import { D, type Decimal, roundToTick, truncateToStep } from '../src/core/decimal.js';
import { ValidationError } from '../src/core/errors.js';

export type GridSpacing = 'arithmetic' | 'geometric';

export function gridLines(lower: Decimal, upper: Decimal, count: number, spacing: GridSpacing, tick: Decimal): Decimal[] {
  if (!lower.lt(upper)) throw new ValidationError('lower', 'a price below upper', lower.toFixed());
  const n = count - 1;
  const ratio = upper.div(lower);
  const lines: Decimal[] = [];
  for (let k = 0; k <= n; k++) {
    const exact =
      k === 0
        ? lower
        : k === n
          ? upper
          : spacing === 'arithmetic'
            ? lower.plus(upper.minus(lower).mul(k).div(n))
            : lower.mul(ratio.pow(D(k).div(n)));
    lines.push(roundToTick(exact, tick, 2 * k < n ? 'down' : 'up'));
  }
  for (let k = 1; k < lines.length; k++) {
    if (!lines[k]!.gt(lines[k - 1]!)) {
      const at = lines[k]!.toFixed();
      throw new ValidationError(
        'levels',
        `a count whose lines stay a tick apart (lines ${k - 1} and ${k} both round to ${at} between ${lower.toFixed()} and ${upper.toFixed()})`,
        count,
      );
    }
  }
  return lines;
}

/** Base quantity of each interval: its share of the budget at its buy price, truncated to the step. */
export function intervalQuantities(lines: readonly Decimal[], totalInvestment: Decimal, step: Decimal): Decimal[] {
  const perInterval = totalInvestment.div(lines.length - 1);
  return lines.slice(0, -1).map((buyPrice) => truncateToStep(perInterval.div(buyPrice), step));
}

/**
 * The bounds moved so `mid` sits in their middle: the same width (arithmetic) or the same ratio
 * (geometric) as before.
 */
export function reanchoredBounds(lower: Decimal, upper: Decimal, mid: Decimal, spacing: GridSpacing): { lower: Decimal; upper: Decimal } {
  if (spacing === 'arithmetic') {
    const half = upper.minus(lower).div(2);
    return { lower: mid.minus(half), upper: mid.plus(half) };
  }
  const halfRatio = upper.div(lower).sqrt();
  return { lower: mid.div(halfRatio), upper: mid.mul(halfRatio) };
}
