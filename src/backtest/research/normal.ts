/**
 * The standard normal distribution and the sample moments the overfitting statistics need. Written
 * here rather than taken from a package: two short, well-known algorithms, each accurate to about
 * 1e-15, are less to audit than a statistics library.
 */

// Hart's coefficients, highest power first.
const HART_N = [
  3.52624965998911e-2, 0.700383064443688, 6.37396220353165, 33.912866078383, 112.079291497871, 221.213596169931, 220.206867912376,
];
const HART_D = [
  8.83883476483184e-2, 1.75566716318264, 16.064177579207, 86.7807322029461, 296.564248779674, 637.333633378831, 793.826512519948,
  440.413735824752,
];

/** Σ cᵢ·x^(n−i) by Horner's rule. */
const horner = (coefficients: readonly number[], x: number): number => coefficients.reduce((acc, c) => acc * x + c, 0);

/**
 * Φ(x), the standard normal CDF, by Hart's double-precision rational approximation (Hart 1968, as
 * given by West, "Better approximations to cumulative normal functions", 2005): absolute error
 * below 1e-14 over the real line.
 */
export function normCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const z = Math.abs(x);
  let c: number;
  if (z > 37) c = 0;
  else {
    const e = Math.exp((-z * z) / 2);
    if (z < 7.07106781186547) {
      c = (e * horner(HART_N, z)) / horner(HART_D, z);
    } else {
      const b = z + 1 / (z + 2 / (z + 3 / (z + 4 / (z + 0.65))));
      c = e / b / 2.506628274631;
    }
  }
  return x > 0 ? 1 - c : c;
}

const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const DD = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];

/**
 * Φ⁻¹(p), the standard normal quantile: Acklam's rational approximation (relative error 1.15e-9)
 * refined by one Halley step on Φ, which brings it to full double precision. ±Infinity at 0 and 1.
 */
export function normInv(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const lo = 0.02425;
  let x: number;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) /
      ((((DD[0]! * q + DD[1]!) * q + DD[2]!) * q + DD[3]!) * q + 1);
  } else if (p <= 1 - lo) {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((A[0]! * r + A[1]!) * r + A[2]!) * r + A[3]!) * r + A[4]!) * r + A[5]!) * q) /
      (((((B[0]! * r + B[1]!) * r + B[2]!) * r + B[3]!) * r + B[4]!) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) /
      ((((DD[0]! * q + DD[1]!) * q + DD[2]!) * q + DD[3]!) * q + 1);
  }
  const e = normCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Sample variance Σ(x − x̄)² / (n − 1); null for n < 2. */
export function sampleVariance(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs);
  return xs.reduce((a, x) => a + (x - m) * (x - m), 0) / (xs.length - 1);
}

/**
 * Skewness m₃ / m₂^{3/2} and (non-excess) kurtosis m₄ / m₂² from the population central moments
 * mₖ = Σ(x − x̄)ᵏ / n, as Bailey & López de Prado use them (a normal sample has 0 and 3). Null when
 * the sample is flat.
 */
export function skewKurtosis(xs: readonly number[]): { skew: number; kurtosis: number } | null {
  if (xs.length < 2) return null;
  const m = mean(xs);
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (const x of xs) {
    const d = x - m;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  m2 /= xs.length;
  m3 /= xs.length;
  m4 /= xs.length;
  if (!(m2 > 0)) return null;
  return { skew: m3 / Math.pow(m2, 1.5), kurtosis: m4 / (m2 * m2) };
}
