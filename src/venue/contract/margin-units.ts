/**
 * The per-order and per-fill money of the hot path — initial margin ⌊ or ⌈ notional / leverage ⌉ to the
 * money step, plus a fee of `per` ledger units per tick·lot — without bigints where that is exact.
 *
 * Why: ledger units are 10^-18 of the settle coin, so the amounts themselves pass 2^53 and stay bigints,
 * but each bigint operation allocates, and a maker+taker cycle did about sixty of them here (issue 12).
 * With the terms counted in a coarser grain the same sums are small integers: the notional in money
 * steps is tick·lots × (unitValueUnits / stepUnits), and margin + fee is a whole number of
 * G = gcd(stepUnits, per) units. While every product and sum stays a safe integer (≤ 2^53 − 1) doubles
 * hold them exactly, and one BigInt and one multiplication give the units; past that (or when the tick
 * value is not a whole number of steps) the bigint formula runs, so the value is the same either way.
 *
 * The floor of a division in doubles is exact here: for integers 0 ≤ n < 2^53 and L ≥ 1, n / L is either
 * a whole number k (a double, so the quotient is k) or at least 1/L away from one, while its rounding
 * error is at most (n / L) · 2^-53 < 1/L; so ⌊fl(n / L)⌋ = ⌊n / L⌋.
 */
import { gcd } from '../ledger/ledger-units.js';
import { initialMarginUnits } from './margin-math.js';

/** One rate's constants (see the module comment); undefined numbers send the computation to bigints. */
export interface UnitTerms {
  readonly unitValueUnits: bigint;
  readonly stepUnits: bigint;
  readonly per: bigint;
  /** unitValueUnits / stepUnits, when whole and safe. */
  readonly valueSteps: number | undefined;
  /** G = gcd(stepUnits, per) and stepUnits / G, per / G as safe doubles. */
  readonly grain: bigint;
  readonly stepGrains: number | undefined;
  readonly perGrains: number | undefined;
}

const safeNumber = (v: bigint): number | undefined => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
};

export function unitTerms(unitValueUnits: bigint, stepUnits: bigint, per: bigint): UnitTerms {
  const valueSteps = stepUnits > 0n && unitValueUnits % stepUnits === 0n ? safeNumber(unitValueUnits / stepUnits) : undefined;
  const grain = stepUnits > 0n ? gcd(stepUnits, per) : 1n;
  return {
    unitValueUnits,
    stepUnits,
    per,
    valueSteps,
    grain,
    stepGrains: stepUnits > 0n ? safeNumber(stepUnits / grain) : undefined,
    perGrains: stepUnits > 0n ? safeNumber(per / grain) : undefined,
  };
}

/**
 * initialMarginUnits(ticks·lots·unitValueUnits, leverage, stepUnits, rounding) + ticks·lots·per, in
 * ledger units (ticks, lots ≥ 0 integers; RangeError on a negative notional, as initialMarginUnits).
 */
export function marginAndFeeUnits(ticks: number, lots: number, leverage: number, t: UnitTerms, rounding: 'floor' | 'ceil'): bigint {
  const valueSteps = t.valueSteps;
  const stepGrains = t.stepGrains;
  const perGrains = t.perGrains;
  const tickLots = ticks * lots;
  if (
    valueSteps !== undefined &&
    stepGrains !== undefined &&
    perGrains !== undefined &&
    Number.isSafeInteger(tickLots) &&
    tickLots >= 0 &&
    Number.isSafeInteger(leverage) &&
    leverage > 0
  ) {
    const notionalSteps = tickLots * valueSteps;
    if (Number.isSafeInteger(notionalSteps)) {
      let q = Math.floor(notionalSteps / leverage);
      if (rounding === 'ceil' && q * leverage !== notionalSteps) q += 1;
      const margin = q * stepGrains;
      const fee = tickLots * perGrains;
      const sum = margin + fee;
      if (Number.isSafeInteger(margin) && Number.isSafeInteger(fee) && Number.isSafeInteger(sum)) return BigInt(sum) * t.grain;
    }
  }
  const exact = BigInt(ticks) * BigInt(lots);
  return initialMarginUnits(exact * t.unitValueUnits, leverage, t.stepUnits, rounding) + exact * t.per;
}

/**
 * ticks·lots·per in ledger units (a fill's fee), exact: one BigInt of the double product while that is
 * a safe integer, else one BigInt of ticks·lots times `per` while ticks·lots is (a fee above 0.009 USDT
 * is past 2^53 ledger units: most of the bench's, 0.0002–0.0006 of 5–250 USDT), the bigint product
 * (four bigint operations, each allocating) past both.
 */
export function feeUnits(ticks: number, lots: number, per: bigint, perNumber: number | undefined): bigint {
  const tickLots = ticks * lots;
  if (Number.isSafeInteger(tickLots)) {
    if (perNumber !== undefined) {
      const fee = tickLots * perNumber;
      if (Number.isSafeInteger(fee)) return BigInt(fee);
    }
    return BigInt(tickLots) * per;
  }
  return BigInt(ticks) * BigInt(lots) * per;
}

/**
 * ticks·lots as a bigint: one BigInt of the double product while that is a safe integer (exact), the
 * bigint product past it. `BigInt(ticks) * BigInt(lots)` is three bigint allocations; a fill makes several.
 */
export function tickLotsOf(ticks: number, lots: number): bigint {
  const n = ticks * lots;
  return Number.isSafeInteger(n) ? BigInt(n) : BigInt(ticks) * BigInt(lots);
}

/** `per` as a safe double, or undefined (feeUnits then multiplies bigints). */
export const perNumberOf = safeNumber;
