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

/** `per` as a safe double, or undefined (feeUnits then multiplies bigints). */
export const perNumberOf = safeNumber;

/**
 * One rate's amounts counted in a grain: G = gcd of the money step, the tick·lot value and the rate's
 * fees per tick·lot (ledger units), so margin, fee and PnL of any fill are whole counts of G, and the
 * venue's money cells add them in doubles (MoneyCell.addGrains). `grain` 0: no such safe grain (a
 * count is not a safe integer), and the callers take the bigint formulas.
 */
export interface GrainTerms {
  /** Ledger units per grain (a safe integer), 0 when there is none. */
  readonly grain: number;
  readonly step: number;
  readonly value: number;
  /** Fee per tick·lot of a maker fill, of a taker fill; reserved per tick·lot by a resting order, by a taker part. */
  readonly makerPer: number;
  readonly takerPer: number;
  readonly reservePer: number;
  readonly takerReservePer: number;
}

const NO_GRAIN: GrainTerms = { grain: 0, step: 0, value: 0, makerPer: 0, takerPer: 0, reservePer: 0, takerReservePer: 0 };

export function grainTerms(
  stepUnits: bigint,
  unitValueUnits: bigint,
  makerPer: bigint,
  takerPer: bigint,
  reservePer: bigint,
  takerReservePer: bigint,
): GrainTerms {
  if (stepUnits <= 0n || unitValueUnits <= 0n) return NO_GRAIN;
  let g = gcd(stepUnits, unitValueUnits);
  for (const p of [makerPer, takerPer, reservePer, takerReservePer]) g = gcd(g, p);
  const counts = [g, stepUnits / g, unitValueUnits / g, makerPer / g, takerPer / g, reservePer / g, takerReservePer / g].map(safeNumber);
  if (counts.some((c) => c === undefined)) return NO_GRAIN;
  const [grain, step, value, mk, tk, rs, trs] = counts as number[];
  return { grain: grain!, step: step!, value: value!, makerPer: mk!, takerPer: tk!, reservePer: rs!, takerReservePer: trs! };
}

/**
 * marginAndFeeUnits in grains: ⌊ or ⌈ notional / leverage ⌉ to the step plus ticks·lots·per, all counted
 * in G = t.grain (per: grains per tick·lot); NaN when some product or sum is not a safe integer (the
 * caller then takes marginAndFeeUnits). Exact: every figure is an integer below 2^53, and the floor of
 * the division is exact (the module comment), with divisor leverage·step as in initialMarginUnits.
 */
export function marginAndFeeGrains(
  ticks: number,
  lots: number,
  leverage: number,
  t: GrainTerms,
  per: number,
  rounding: 'floor' | 'ceil',
): number {
  const tickLots = ticks * lots;
  if (t.grain === 0 || !Number.isSafeInteger(tickLots) || tickLots < 0 || !Number.isSafeInteger(leverage) || leverage <= 0) return NaN;
  const notional = tickLots * t.value;
  const d = leverage * t.step;
  if (!Number.isSafeInteger(notional) || !Number.isSafeInteger(d)) return NaN;
  let q = Math.floor(notional / d);
  if (rounding === 'ceil' && q * d !== notional) q += 1;
  const margin = q * t.step;
  const fee = tickLots * per;
  const sum = margin + fee;
  return Number.isSafeInteger(margin) && Number.isSafeInteger(fee) && Number.isSafeInteger(sum) ? sum : NaN;
}

/** ticks·lots·per in grains (a fill's fee); NaN when not a safe integer. */
export function feeGrains(ticks: number, lots: number, t: GrainTerms, per: number): number {
  const fee = ticks * lots * per;
  return t.grain !== 0 && Number.isSafeInteger(ticks * lots) && Number.isSafeInteger(fee) ? fee : NaN;
}
