/**
 * Config of the fee extensions (spread into the `fees:` section of the emulator config):
 *
 *   fees:
 *     platformToken: { asset: MX, discount: '0.2' }        # spot platform-token deduction
 *     contractSchedules:                                     # per contract, on top of the instrument
 *       BTC_USDT:
 *         feeRateMode: TIERED
 *         tieredFeeRates:
 *           - { takerFeeRate: '0.0004', makerFeeRate: '0.0002', maxTieredDealAmount: '100000' }
 *           - { takerFeeRate: '0.0003', makerFeeRate: '0.0001', minTieredDealAmount: '100000' }
 *         statisticType: ROLLING
 *         tieredEffectiveDay: 30
 *       ETH_USDT:
 *         feeRateMode: LEVERAGE
 *         leverageFeeRates:
 *           - { minLeverage: 1, maxLeverage: 20, takerFeeRate: '0.0002', makerFeeRate: '0' }
 *           - { minLeverage: 21, takerFeeRate: '0.0006', makerFeeRate: '0.0002' }
 *     contractDeduct: [{ deductCoin: MX, settleCoin: USDT, discountRatio: '0.2' }]
 *     contractDiscounts:
 *       - { currency: USDT, levels: [{ level: 1, volMin: '1000000', day: 30, discount: '0.1' }] }
 */
import { z } from 'zod';
import { Decimal } from '../../core/decimal.js';
import { FEE_RATE_MODES, STATISTIC_TYPES } from '../../domain/contract-enums.js';
import type { ContractInstrument, FeeTier } from '../../domain/instrument.js';
import type { ContractFeeOverride, LeverageFeeTier } from '../../venue/fees/contract-fee-schedule.js';
import type { FeeDeductConfig, FeeDiscountConfig } from '../../venue/fees/contract-fee-model.js';
import { DEFAULT_PLATFORM_DISCOUNT, DEFAULT_PLATFORM_TOKEN } from '../../venue/fees/platform-token-deduction.js';
import { nonNegativeDecimalText } from './instrument-schemas.js';

const rate = nonNegativeDecimalText('a fee rate >= 0');
const fraction = nonNegativeDecimalText('a fraction in [0, 1)').refine((s) => new Decimal(s).lt(1), 'a fraction in [0, 1)');
const coin = z.string().regex(/^[A-Z0-9]{1,20}$/, 'a coin name like USDT');

const tieredTier = z.strictObject({
  takerFeeRate: rate,
  makerFeeRate: rate,
  minTieredDealAmount: nonNegativeDecimalText().optional(),
  maxTieredDealAmount: nonNegativeDecimalText().optional(),
});

const leverageTier = z.strictObject({
  minLeverage: z.number().int().min(1),
  maxLeverage: z.number().int().min(1).optional(),
  takerFeeRate: rate,
  makerFeeRate: rate,
});

const contractSchedule = z.strictObject({
  feeRateMode: z.enum(FEE_RATE_MODES).optional(),
  takerFeeRate: rate.optional(),
  makerFeeRate: rate.optional(),
  tieredFeeRates: z.array(tieredTier).optional(),
  leverageFeeRates: z.array(leverageTier).optional(),
  statisticType: z.enum(STATISTIC_TYPES).optional(),
  /** Days of the ROLLING window. */
  tieredEffectiveDay: z.number().int().min(1).max(365).optional(),
  fixedStartTime: z.number().int().min(0).optional(),
  fixedEndTime: z.number().int().min(0).optional(),
  tieredExcludeZeroFee: z.boolean().optional(),
  tieredAppointContract: z.boolean().optional(),
  tieredExcludeContractId: z.boolean().optional(),
  /** Contract symbols for tieredAppointContract / tieredExcludeContractId. */
  tieredContracts: z.array(z.string()).optional(),
});
export type ContractScheduleConfig = z.output<typeof contractSchedule>;

const discountLevel = z.strictObject({
  level: z.number().int().min(1),
  volMin: nonNegativeDecimalText(),
  volMax: nonNegativeDecimalText().optional(),
  day: z.number().int().min(1).max(365).default(30),
  discount: fraction,
});

const discountConfig = z.strictObject({
  currency: coin,
  enabled: z.boolean().default(true),
  levels: z.array(discountLevel).min(1),
  /** Contracts excluded from the discount (blackContractIdSet). */
  excludedSymbols: z.array(z.string()).default([]),
});

/** Fields added to the `fees:` section. */
export const feeExtensionsShape = {
  platformToken: z
    .strictObject({ asset: coin.default(DEFAULT_PLATFORM_TOKEN), discount: fraction.default(DEFAULT_PLATFORM_DISCOUNT) })
    .default({ asset: DEFAULT_PLATFORM_TOKEN, discount: DEFAULT_PLATFORM_DISCOUNT }),
  contractSchedules: z.record(z.string(), contractSchedule).default({}),
  contractDeduct: z
    .array(z.strictObject({ deductCoin: coin, settleCoin: coin, discountRatio: fraction }))
    .default([{ deductCoin: 'MX', settleCoin: 'USDT', discountRatio: '0.2' }]),
  contractDiscounts: z.array(discountConfig).default([]),
};

export interface FeeExtensionsConfig {
  readonly platformToken: { readonly asset: string; readonly discount: string };
  readonly contractSchedules: Readonly<Record<string, ContractScheduleConfig>>;
  readonly contractDeduct: readonly { readonly deductCoin: string; readonly settleCoin: string; readonly discountRatio: string }[];
  readonly contractDiscounts: readonly z.output<typeof discountConfig>[];
}

const d = (s: string | undefined): Decimal | undefined => (s === undefined ? undefined : new Decimal(s));

export function toContractFeeOverride(c: ContractScheduleConfig): ContractFeeOverride {
  const tiered: FeeTier[] | undefined = c.tieredFeeRates?.map((t) => ({
    takerFeeRate: new Decimal(t.takerFeeRate),
    makerFeeRate: new Decimal(t.makerFeeRate),
    ...(t.minTieredDealAmount !== undefined ? { minTieredDealAmount: new Decimal(t.minTieredDealAmount) } : {}),
    ...(t.maxTieredDealAmount !== undefined ? { maxTieredDealAmount: new Decimal(t.maxTieredDealAmount) } : {}),
  }));
  const leverage: LeverageFeeTier[] | undefined = c.leverageFeeRates?.map((t) => ({
    minLeverage: t.minLeverage,
    maxLeverage: t.maxLeverage,
    takerFeeRate: new Decimal(t.takerFeeRate),
    makerFeeRate: new Decimal(t.makerFeeRate),
  }));
  return {
    feeRateMode: c.feeRateMode,
    makerFeeRate: c.makerFeeRate,
    takerFeeRate: c.takerFeeRate,
    tieredFeeRates: tiered,
    leverageFeeRates: leverage,
    tiered: {
      ...(c.statisticType !== undefined ? { statisticType: c.statisticType } : {}),
      ...(c.tieredEffectiveDay !== undefined ? { effectiveDays: c.tieredEffectiveDay } : {}),
      ...(c.fixedStartTime !== undefined ? { fixedStartTime: c.fixedStartTime } : {}),
      ...(c.fixedEndTime !== undefined ? { fixedEndTime: c.fixedEndTime } : {}),
      ...(c.tieredExcludeZeroFee !== undefined ? { excludeZeroFee: c.tieredExcludeZeroFee } : {}),
      ...(c.tieredAppointContract !== undefined ? { appointContract: c.tieredAppointContract } : {}),
      ...(c.tieredExcludeContractId !== undefined ? { excludeContractIds: c.tieredExcludeContractId } : {}),
      ...(c.tieredContracts !== undefined ? { contracts: c.tieredContracts } : {}),
    },
  };
}

export function toDeductConfigs(list: FeeExtensionsConfig['contractDeduct']): FeeDeductConfig[] {
  return list.map((c) => ({ deductCoin: c.deductCoin, settleCoin: c.settleCoin, discountRatio: new Decimal(c.discountRatio) }));
}

export function toDiscountConfigs(list: FeeExtensionsConfig['contractDiscounts'], createdAt: number): FeeDiscountConfig[] {
  return list.map((c, i) => ({
    id: i + 1,
    currency: c.currency,
    enabled: c.enabled,
    levels: c.levels.map((l) => ({
      level: l.level,
      volMin: new Decimal(l.volMin),
      volMax: d(l.volMax),
      day: l.day,
      discount: new Decimal(l.discount),
    })),
    excludedSymbols: c.excludedSymbols,
    createTime: createdAt,
    updateTime: createdAt,
  }));
}

/**
 * The instruments as the venue lists them once the fee schedules of the config are applied: mode,
 * base rates, tiers and the zero-fee flag, so that contract/detail and fee_rate tell the same story.
 * Leverage tiers keep their bounds as extra fields (minLeverage / maxLeverage) next to the FeeTier ones.
 */
export function applyFeeSchedules(
  instruments: readonly ContractInstrument[],
  schedules: Readonly<Record<string, ContractScheduleConfig>>,
): ContractInstrument[] {
  return instruments.map((i) => {
    const c = schedules[i.symbol];
    if (c === undefined) return i;
    const o = toContractFeeOverride(c);
    const maker = o.makerFeeRate !== undefined ? new Decimal(o.makerFeeRate) : i.makerFeeRate;
    const taker = o.takerFeeRate !== undefined ? new Decimal(o.takerFeeRate) : i.takerFeeRate;
    const leverage: FeeTier[] | undefined = o.leverageFeeRates?.map((t) => ({
      takerFeeRate: t.takerFeeRate,
      makerFeeRate: t.makerFeeRate,
      minLeverage: t.minLeverage,
      ...(t.maxLeverage !== undefined ? { maxLeverage: t.maxLeverage } : {}),
    }));
    return {
      ...i,
      feeRateMode: o.feeRateMode ?? i.feeRateMode,
      makerFeeRate: maker,
      takerFeeRate: taker,
      tieredFeeRates: o.tieredFeeRates ?? i.tieredFeeRates,
      leverageFeeRates: leverage ?? i.leverageFeeRates,
      isZeroFee: maker.isZero() && taker.isZero(),
    };
  });
}
