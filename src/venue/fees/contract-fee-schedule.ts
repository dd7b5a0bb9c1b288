/**
 * The fee settings of one contract (contract-api.md §2.6) and how a rate is picked from them:
 *
 *   NORMAL    the contract's makerFeeRate / takerFeeRate;
 *   LEVERAGE  the tier whose [minLeverage, maxLeverage] holds the leverage of the account on the
 *             contract (the document lists the tiers but not their bounds: each tier here carries
 *             minLeverage / maxLeverage, sent on the wire as extra fields); outside every tier → NORMAL.
 *             The venue's fee hook does not pass the order, so the emulator uses the higher of the
 *             account's long and short leverage on the contract;
 *   TIERED    the tier whose [minTieredDealAmount, maxTieredDealAmount) holds the account's traded
 *             amount (Σ price · vol · contractSize) over the statistic window: ROLLING = the last
 *             `tieredEffectiveDay` days (default 30) up to now, FIXED = [fixedStartTime, fixedEndTime].
 *             The last tier has no maxTieredDealAmount. Below the first tier's minimum → NORMAL.
 *
 * A zero-fee contract charges 0 whatever its mode.
 */
import { D, Decimal } from '../../core/decimal.js';
import type { FeeRateMode, StatisticType } from '../../domain/contract-enums.js';
import type { ContractInstrument, FeeTier } from '../../domain/instrument.js';

export interface MakerTaker {
  readonly maker: Decimal;
  readonly taker: Decimal;
}

export interface LeverageFeeTier {
  readonly minLeverage: number;
  /** Inclusive; undefined on the last tier. */
  readonly maxLeverage?: number | undefined;
  readonly makerFeeRate: Decimal;
  readonly takerFeeRate: Decimal;
}

export interface TieredSettings {
  readonly statisticType: StatisticType;
  /** Length of the ROLLING window in days. */
  readonly effectiveDays: number;
  readonly fixedStartTime?: number | undefined;
  readonly fixedEndTime?: number | undefined;
  /** Leave turnover on zero-fee contracts out of the traded amount. */
  readonly excludeZeroFee: boolean;
  /** Only the listed contracts count (tieredAppointContract). */
  readonly appointContract: boolean;
  /** With appointContract: the listed contracts are the ones EXCLUDED instead (tieredExcludeContractId). */
  readonly excludeContractIds: boolean;
  /** Contract symbols named by the two settings above. */
  readonly contracts: readonly string[];
}

export interface ContractFeeSchedule {
  readonly symbol: string;
  readonly settleCoin: string;
  readonly feeRateMode: FeeRateMode;
  readonly makerFeeRate: Decimal;
  readonly takerFeeRate: Decimal;
  readonly isZeroFee: boolean;
  readonly leverageFeeRates: readonly LeverageFeeTier[];
  readonly tieredFeeRates: readonly FeeTier[];
  readonly tiered: TieredSettings;
}

/** What configuration may change on top of the instrument. */
export interface ContractFeeOverride {
  readonly feeRateMode?: FeeRateMode | undefined;
  readonly makerFeeRate?: string | undefined;
  readonly takerFeeRate?: string | undefined;
  readonly leverageFeeRates?: readonly LeverageFeeTier[] | undefined;
  readonly tieredFeeRates?: readonly FeeTier[] | undefined;
  readonly tiered?: Partial<TieredSettings> | undefined;
}

export const DEFAULT_TIERED_SETTINGS: TieredSettings = Object.freeze({
  statisticType: 'ROLLING',
  effectiveDays: 30,
  excludeZeroFee: true,
  appointContract: false,
  excludeContractIds: false,
  contracts: [],
});

export function contractFeeSchedule(i: ContractInstrument, o: ContractFeeOverride = {}): ContractFeeSchedule {
  const maker = o.makerFeeRate !== undefined ? D(o.makerFeeRate) : i.makerFeeRate;
  const taker = o.takerFeeRate !== undefined ? D(o.takerFeeRate) : i.takerFeeRate;
  const tiers = [...(o.tieredFeeRates ?? i.tieredFeeRates)].sort((a, b) =>
    (a.minTieredDealAmount ?? D(0)).cmp(b.minTieredDealAmount ?? D(0)),
  );
  const lev = [...(o.leverageFeeRates ?? [])].sort((a, b) => a.minLeverage - b.minLeverage);
  return {
    symbol: i.symbol,
    settleCoin: i.settleCoin,
    feeRateMode: o.feeRateMode ?? i.feeRateMode,
    makerFeeRate: maker,
    takerFeeRate: taker,
    isZeroFee: i.isZeroFee === true || (maker.isZero() && taker.isZero()),
    leverageFeeRates: lev,
    tieredFeeRates: tiers,
    tiered: { ...DEFAULT_TIERED_SETTINGS, ...(o.tiered ?? {}) },
  };
}

/** Index of the tier holding `amount`: min ≤ amount < max (no max on the last); -1 below the first. */
export function tierIndexForAmount(tiers: readonly FeeTier[], amount: Decimal): number {
  for (let k = tiers.length - 1; k >= 0; k--) {
    const t = tiers[k]!;
    const min = t.minTieredDealAmount ?? D(0);
    if (amount.gte(min) && (t.maxTieredDealAmount === undefined || amount.lt(t.maxTieredDealAmount))) return k;
  }
  return -1;
}

export function leverageTierIndex(tiers: readonly LeverageFeeTier[], leverage: number): number {
  for (let k = 0; k < tiers.length; k++) {
    const t = tiers[k]!;
    if (leverage >= t.minLeverage && (t.maxLeverage === undefined || leverage <= t.maxLeverage)) return k;
  }
  return -1;
}

export interface ScheduleRate extends MakerTaker {
  /** 0-based tier used (-1: the contract's base rates). */
  readonly tier: number;
}

/** The rate the schedule gives before any discount or deduction. */
export function scheduleRate(
  s: ContractFeeSchedule,
  inputs: { readonly leverage?: number | undefined; readonly dealAmount?: Decimal | undefined },
): ScheduleRate {
  if (s.isZeroFee) return { maker: new Decimal(0), taker: new Decimal(0), tier: -1 };
  if (s.feeRateMode === 'LEVERAGE' && inputs.leverage !== undefined) {
    const k = leverageTierIndex(s.leverageFeeRates, inputs.leverage);
    if (k >= 0) return { maker: s.leverageFeeRates[k]!.makerFeeRate, taker: s.leverageFeeRates[k]!.takerFeeRate, tier: k };
  }
  if (s.feeRateMode === 'TIERED') {
    const k = tierIndexForAmount(s.tieredFeeRates, inputs.dealAmount ?? new Decimal(0));
    if (k >= 0) return { maker: s.tieredFeeRates[k]!.makerFeeRate, taker: s.tieredFeeRates[k]!.takerFeeRate, tier: k };
  }
  return { maker: s.makerFeeRate, taker: s.takerFeeRate, tier: -1 };
}

/** The statistic window [from, to] of a TIERED schedule at `now`. */
export function tieredWindow(t: TieredSettings, now: number): { readonly from: number; readonly to: number } {
  if (t.statisticType === 'FIXED') return { from: t.fixedStartTime ?? 0, to: t.fixedEndTime ?? now };
  return { from: now - t.effectiveDays * 86_400_000, to: now };
}

/** Whether turnover on `symbol` counts towards the traded amount of schedule `s`. */
export function countsTowards(t: TieredSettings, symbol: string, symbolIsZeroFee: boolean): boolean {
  if (t.excludeZeroFee && symbolIsZeroFee) return false;
  if (!t.appointContract) return true;
  const listed = t.contracts.includes(symbol);
  return t.excludeContractIds ? !listed : listed;
}
