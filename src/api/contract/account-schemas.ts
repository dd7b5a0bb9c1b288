/** Response payloads of the contract account endpoints (contract-api.md 2.3, 2.6, 4.2). */
import { z } from 'zod';
import { feeTierWireSchema } from './market-schemas.js';
import { bool, dec, int, obj, opt, str, strList, venueId } from './response-primitives.js';

const text = z.string();
const decList = z.preprocess((v) => v ?? [], z.array(dec));
const intList = z.preprocess((v) => v ?? [], z.array(int));

/** Asset (2.3). */
export const contractAssetSchema = obj({
  currency: text,
  positionMargin: dec,
  frozenBalance: dec,
  availableBalance: dec,
  cashBalance: dec,
  equity: dec,
  unrealized: dec,
  bonus: opt(dec),
  availableCash: opt(dec),
  availableOpen: opt(dec),
  debtAmount: opt(dec),
  contributeMarginAmount: opt(dec),
  bonusExpireTime: opt(int),
  vcoinId: opt(str),
});
export type ContractAsset = z.output<typeof contractAssetSchema>;

export const transferRecordSchema = obj({
  id: venueId,
  txid: opt(text),
  currency: text,
  amount: dec,
  type: text,
  state: text,
  createTime: opt(int),
  updateTime: opt(int),
});
export type TransferRecord = z.output<typeof transferRecordSchema>;

export const profitRateSchema = obj({ ranking: opt(int), profitRate: opt(dec), statisticTime: opt(int) });
export type ProfitRate = z.output<typeof profitRateSchema>;

export const historyDailyDataSchema = obj({
  timeList: opt(intList),
  accumPnlList: opt(decList),
  accumPnlRateList: opt(decList),
  dailyPnlList: opt(decList),
  dailyPnlRateList: opt(decList),
  dailyEquityList: opt(decList),
  dailyIndexPriceRiseFallRateList: opt(decList),
});

export const assetAnalysisSchema = obj({
  todayPnl: opt(dec),
  todayPnlRate: opt(dec),
  totalPnl: opt(dec),
  totalEquity: opt(dec),
  winRate: opt(dec),
  historyDailyData: opt(historyDailyDataSchema),
});
export type AssetAnalysis = z.output<typeof assetAnalysisSchema>;

export const assetAnalysisV3Schema = obj({
  todayPnl: opt(dec),
  todayPnlRate: opt(dec),
  totalPnl: opt(dec),
  recentPnl: opt(dec),
  recentPnlRate: opt(dec),
  recentPnl30: opt(dec),
  recentPnlRate30: opt(dec),
  timestamp: opt(int),
  historyDailyData: opt(historyDailyDataSchema),
  accurate: opt(bool),
  totalEquity: opt(dec),
  todayPnlFinished: opt(bool),
});
export type AssetAnalysisV3 = z.output<typeof assetAnalysisV3Schema>;

export const calendarDailySchema = obj({ dailyTimeList: opt(intList), dailyPnlList: opt(decList), todayPnlFinished: opt(bool) });
export type CalendarDailyPnl = z.output<typeof calendarDailySchema>;
export const calendarMonthlySchema = obj({ monthlyTimeList: opt(intList), monthlyPnlList: opt(decList), todayPnlFinished: opt(bool) });
export type CalendarMonthlyPnl = z.output<typeof calendarMonthlySchema>;

/** recentPnl60 / recentPnlRate60 … for 60, 90, 120, 150, 180 and 360 days. */
export const recentPnlSchema = obj({
  recentPnl60: opt(dec),
  recentPnlRate60: opt(dec),
  recentPnl90: opt(dec),
  recentPnlRate90: opt(dec),
  recentPnl120: opt(dec),
  recentPnlRate120: opt(dec),
  recentPnl150: opt(dec),
  recentPnlRate150: opt(dec),
  recentPnl180: opt(dec),
  recentPnlRate180: opt(dec),
  recentPnl360: opt(dec),
  recentPnlRate360: opt(dec),
  todayPnlFinished: opt(bool),
});
export type RecentPnl = z.output<typeof recentPnlSchema>;

export const todayPnlSchema = obj({ todayPnl: opt(dec), todayPnlRate: opt(dec), todayPnlFinished: opt(bool) });
export type TodayPnl = z.output<typeof todayPnlSchema>;

export const feeDeductConfigSchema = obj({ deductCoin: text, settleCoin: opt(text), discountRatio: opt(dec) });
export type FeeDeductConfig = z.output<typeof feeDeductConfigSchema>;

export const discountLevelSchema = obj({ level: opt(int), volMin: opt(dec), volMax: opt(dec), day: opt(int), discount: opt(dec) });
export type DiscountLevel = z.output<typeof discountLevelSchema>;

/** discountConfig arrives as a STRING holding a JSON list; it is parsed into records. */
const discountConfigList = z
  .union([z.string(), z.array(z.unknown())])
  .transform((v, ctx): unknown[] => {
    if (Array.isArray(v)) return v;
    try {
      const parsed: unknown = JSON.parse(v);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'a JSON list of {level, volMin, volMax, day, discount}' });
    return z.NEVER;
  })
  .pipe(z.array(discountLevelSchema));

export const feeDiscountConfigSchema = obj({
  id: opt(venueId),
  currency: text,
  state: opt(text),
  discountConfig: opt(discountConfigList),
  ineffectiveDiscountConfig: opt(discountConfigList),
  blackContractIdSet: opt(strList),
  operator: opt(text),
  createTime: opt(int),
  updateTime: opt(int),
  enabled: opt(bool),
});
export type FeeDiscountConfig = z.output<typeof feeDiscountConfigSchema>;

export const discountTypeSchema = obj({ useFeeDiscount: bool, useFeeDeduct: bool });
export type DiscountType = z.output<typeof discountTypeSchema>;

export const orderDealFeeTotalSchema = obj({ totalFee: dec, saveFee: dec });
export type OrderDealFeeTotal = z.output<typeof orderDealFeeTotalSchema>;

/** Fee settings (2.6), shared by fee_rate and tiered_fee_rate/v2. */
const feeSettings = {
  feeRateMode: opt(text),
  takerFeeRate: opt(dec),
  makerFeeRate: opt(dec),
  leverageFeeRates: opt(z.array(feeTierWireSchema)),
  tieredFeeRates: opt(z.array(feeTierWireSchema.extend({ realTakerFee: opt(dec), realMakerFee: opt(dec) }))),
  tieredDealAmount: opt(dec),
  tieredEffectiveDay: opt(int),
  tieredAppointContract: opt(bool),
  tieredExcludeContractId: opt(bool),
  tieredContractIds: opt(z.array(z.unknown())),
  tieredExcludeZeroFee: opt(bool),
  statisticType: opt(text),
  fixedStartTime: opt(int),
  fixedEndTime: opt(int),
};

export const contractFeeRateSchema = obj({
  contractId: opt(int),
  symbol: text,
  isZeroFeeRate: opt(bool),
  maxLeverage: opt(int),
  ...feeSettings,
  agentFee: opt(dec),
  isMaxLeverage: opt(bool),
  countryConfigContractMaxLeverage: opt(int),
});
export type ContractFeeRate = z.output<typeof contractFeeRateSchema>;

export const zeroFeeRateSchema = obj({
  contracts: z.preprocess((v) => v ?? [], z.array(obj({ contractId: int, ifHotTag: opt(bool) }))),
  hotRecs: opt(z.array(z.unknown())),
});
export type ZeroFeeRate = z.output<typeof zeroFeeRateSchema>;

export const tieredFeeRateSchema = obj({
  originalMakerFee: opt(dec),
  originalTakerFee: opt(dec),
  realMakerFee: opt(dec),
  realTakerFee: opt(dec),
  joinDiscount: opt(bool),
  enjoyDiscount: opt(bool),
  joinDeduct: opt(bool),
  enjoyDeduct: opt(bool),
  discountRate: opt(dec),
  deductRate: opt(dec),
  dealAmount: opt(dec),
  walletBalance: opt(dec),
  inviterKyc: opt(bool),
  level: opt(int),
  feeType: opt(str),
  agentFee: opt(dec),
  ...feeSettings,
});
export type TieredFeeRate = z.output<typeof tieredFeeRateSchema>;

export const riskLimitEntrySchema = obj({
  symbol: opt(text),
  positionType: opt(int),
  level: int,
  maxVol: dec,
  maxLeverage: opt(int),
  mmr: dec,
  imr: dec,
  openType: opt(int),
  leverage: opt(int),
  limitBySys: opt(bool),
  currentMmr: opt(dec),
});
export type RiskLimitEntry = z.output<typeof riskLimitEntrySchema>;

/** Object keyed by symbol, each a list of tiers (maxVol in contracts even for BY_VALUE contracts). */
export const riskLimitSchema = z.record(
  z.string(),
  z.preprocess((v) => v ?? [], z.array(riskLimitEntrySchema)),
);
export type RiskLimits = z.output<typeof riskLimitSchema>;
