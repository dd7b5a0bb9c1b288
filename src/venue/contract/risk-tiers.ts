/**
 * Risk-limit tiers. A position's tier follows its size in contracts: the first tier whose maxVol
 * holds the size. The tier bounds the leverage (maxLeverage) and sets the maintenance rate (mmr).
 */
import { D, Decimal } from '../../core/decimal.js';
import type { ContractInstrument, RiskTier } from '../../domain/instrument.js';

/**
 * The explicit tiers when the instrument lists them (riskLimitCustom), otherwise derived from the
 * base/increment fields: tier i (1-based) holds riskBaseVol + (i−1)·riskIncrVol contracts at
 * mmr = maintenanceMarginRate + (i−1)·riskIncrMmr, imr = initialMarginRate + (i−1)·riskIncrImr and
 * maxLeverage = min(maxLeverage, floor(1/imr)).
 */
export function riskTiersOf(instrument: ContractInstrument): readonly RiskTier[] {
  if (instrument.riskTiers.length > 0) return [...instrument.riskTiers].sort((a, b) => a.level - b.level);
  const n = Math.max(1, instrument.riskLevelLimit);
  const out: RiskTier[] = [];
  for (let i = 0; i < n; i++) {
    const imr = instrument.initialMarginRate.add(instrument.riskIncrImr.mul(i));
    const byImr = imr.gt(0) ? new Decimal(1).div(imr).floor().toNumber() : instrument.maxLeverage;
    out.push({
      level: i + 1,
      maxVol: instrument.riskBaseVol.add(instrument.riskIncrVol.mul(i)),
      mmr: instrument.maintenanceMarginRate.add(instrument.riskIncrMmr.mul(i)),
      imr,
      maxLeverage: Math.max(instrument.minLeverage, Math.min(instrument.maxLeverage, byImr)),
    });
  }
  return out;
}

/** The tier holding `vol` contracts, or undefined when the size exceeds the last tier. */
export function tierForVol(tiers: readonly RiskTier[], vol: Decimal | number): RiskTier | undefined {
  const v = D(vol);
  for (const t of tiers) if (v.lte(t.maxVol)) return t;
  return undefined;
}

/** The highest tier whose maxLeverage still admits `leverage` (the "leverage level"). */
export function tierForLeverage(tiers: readonly RiskTier[], leverage: number): RiskTier | undefined {
  let best: RiskTier | undefined;
  for (const t of tiers) if (leverage <= t.maxLeverage) best = t;
  return best;
}
