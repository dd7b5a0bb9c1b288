/**
 * Decimal strings ↔ integer units for grids that are powers of ten (a spot symbol's tick is
 * 10^-quotePrecision and its step 10^-baseAssetPrecision), without Decimal: the placement hot path
 * converts with string operations, and anything it cannot convert exactly goes the Decimal way.
 */

const PLAIN = /^(\d+)(?:\.(\d*))?$/;

/** `text` in units of 10^-decimals, or undefined when it has more decimals or is not a safe integer. */
export function unitsFromFixed(text: string, decimals: number): number | undefined {
  const m = PLAIN.exec(text);
  if (!m) return undefined;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) return undefined;
  const n = Number(m[1]! + frac.padEnd(decimals, '0'));
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Units of 10^-decimals as a plain decimal string without trailing zeros ("87500", "0.001"). */
export function fixedFromUnits(units: number, decimals: number): string {
  if (units === 0) return '0';
  const neg = units < 0;
  let s = String(Math.abs(units));
  if (decimals > 0) {
    if (s.length <= decimals) s = '0'.repeat(decimals - s.length + 1) + s;
    const whole = s.slice(0, s.length - decimals);
    const frac = s.slice(s.length - decimals).replace(/0+$/, '');
    s = frac ? `${whole}.${frac}` : whole;
  }
  return neg ? `-${s}` : s;
}
