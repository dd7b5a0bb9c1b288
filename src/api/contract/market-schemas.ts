/**
 * Response payloads of the public contract market data (contract-api.md 2.1, 2.2), tolerant the way
 * the venue is: numbers as strings and strings as numbers, nulls, extra fields kept.
 */
import { z } from 'zod';
import type { Decimal } from '../../core/decimal.js';
import { PositionOpenType } from '../../domain/contract-enums.js';
import { bool, codeOf, dec, enumValues, int, obj, objectOrArray, oneOrMany, opt, str, venueId } from './response-primitives.js';

const text = z.string();
const strings = z.preprocess((v) => v ?? [], z.array(str));

/** One risk tier of riskLimitCustom. */
export const riskTierWireSchema = obj({ level: int, maxVol: dec, mmr: dec, imr: dec, maxLeverage: int });

/** One fee tier (leverageFeeRates / tieredFeeRates); the last tier has no maxTieredDealAmount. */
export const feeTierWireSchema = obj({
  takerFeeRate: dec,
  makerFeeRate: dec,
  minTieredDealAmount: opt(dec),
  maxTieredDealAmount: opt(dec),
});

/** Contract detail (2.1). Fields needed to trade are required; the rest are optional. */
export const contractDetailSchema = obj({
  symbol: text,
  displayName: opt(text),
  displayNameEn: opt(text),
  positionOpenType: codeOf(enumValues(PositionOpenType), 'positionOpenType'),
  baseCoin: text,
  quoteCoin: text,
  settleCoin: text,
  contractSize: dec,
  minLeverage: int,
  maxLeverage: int,
  priceScale: int,
  volScale: int,
  amountScale: int,
  priceUnit: dec,
  volUnit: dec,
  minVol: dec,
  maxVol: dec,
  bidLimitPriceRate: dec,
  askLimitPriceRate: dec,
  takerFeeRate: dec,
  makerFeeRate: dec,
  maintenanceMarginRate: dec,
  initialMarginRate: dec,
  riskBaseVol: dec,
  riskIncrVol: dec,
  riskBaseVolLong: opt(dec),
  riskIncrVolLong: opt(dec),
  riskBaseVolShort: opt(dec),
  riskIncrVolShort: opt(dec),
  riskLongShortSwitch: opt(int),
  riskIncrMmr: dec,
  riskIncrImr: dec,
  riskLevelLimit: int,
  priceCoefficientVariation: dec,
  indexOrigin: opt(strings),
  state: int,
  apiAllowed: bool,
  conceptPlate: opt(strings),
  riskLimitType: opt(text),
  maxNumOrders: opt(z.array(int)),
  type: opt(int),
  riskLimitMode: opt(text),
  riskLimitCustom: opt(z.array(riskTierWireSchema)),
  feeRateMode: opt(text),
  leverageFeeRates: opt(z.array(feeTierWireSchema)),
  tieredFeeRates: opt(z.array(feeTierWireSchema)),
  tieredDealAmount: opt(dec),
  tieredEffectiveDay: opt(int),
  tieredAppointContract: opt(bool),
  tieredExcludeContractId: opt(bool),
  tieredContractIds: opt(z.array(z.unknown())),
  tieredExcludeZeroFee: opt(bool),
  statisticType: opt(text),
  fixedStartTime: opt(int),
  fixedEndTime: opt(int),
  // further fields whose meaning the document leaves open; typed where the shape is clear
  id: opt(int),
  futureType: opt(int),
  isZeroFeeRate: opt(bool),
  isZeroFeeSymbol: opt(bool),
  liquidationFeeRate: opt(dec),
  createTime: opt(int),
  openingTime: opt(int),
  limitMaxVol: opt(dec),
  triggerProtect: opt(dec),
  marketOrderMaxLevel: opt(int),
  marketOrderPriceLimitRate1: opt(dec),
  marketOrderPriceLimitRate2: opt(dec),
  depthStepList: opt(strings),
  isNew: opt(bool),
  isHot: opt(bool),
  isHidden: opt(bool),
  stopOnlyFair: opt(bool),
  // named in the document's further fields (and preMarket, only in live answers): issue 14
  appraisal: opt(int),
  automaticDelivery: opt(int),
  baseCoinIconUrl: opt(z.string()),
  baseCoinId: opt(z.string()),
  countryConfigContractMaxLeverage: opt(int),
  isMaxLeverage: opt(bool),
  openingCountdownOption: opt(int),
  preMarket: opt(bool),
  showAppraisalCountdown: opt(int),
  showBeforeOpen: opt(bool),
  threshold: opt(int),
  vid: opt(z.string()),
});
export type ContractDetail = z.output<typeof contractDetailSchema>;

/**
 * detail: with a symbol the venue answers one object, without it an array. One schema takes both
 * and keeps the shape (use `Array.isArray`, or `asList`).
 */
export const contractDetailResponse = objectOrArray(contractDetailSchema);
export type ContractDetailResponse = z.output<typeof contractDetailResponse>;

/** Ticker (2.2). */
export const contractTickerSchema = obj({
  contractId: opt(int),
  symbol: text,
  lastPrice: dec,
  bid1: opt(dec),
  ask1: opt(dec),
  volume24: dec,
  amount24: opt(dec),
  holdVol: opt(dec),
  lower24Price: opt(dec),
  high24Price: opt(dec),
  riseFallRate: opt(dec),
  riseFallValue: opt(dec),
  indexPrice: opt(dec),
  fairPrice: opt(dec),
  fundingRate: opt(dec),
  maxBidPrice: opt(dec),
  minAskPrice: opt(dec),
  timestamp: int,
  riseFallRates: opt(
    obj({
      zone: opt(text),
      r: opt(dec),
      v: opt(dec),
      r7: opt(dec),
      r30: opt(dec),
      r90: opt(dec),
      r180: opt(dec),
      r365: opt(dec),
    }),
  ),
  riseFallRatesOfTimezone: opt(z.array(dec)),
});
export type ContractTicker = z.output<typeof contractTickerSchema>;

/** ticker: one object with a symbol, an array without (same rule as detail). */
export const contractTickerResponse = objectOrArray(contractTickerSchema);
export type ContractTickerResponse = z.output<typeof contractTickerResponse>;

/** The one-or-many answers of detail and ticker as a list. */
export const asList = <T>(v: T | readonly T[]): readonly T[] => (Array.isArray(v) ? v : [v as T]);

export interface DepthLevel {
  readonly price: Decimal;
  /** Contracts at the price. */
  readonly vol: Decimal;
  /** Number of orders; absent if the venue sends only two columns. */
  readonly count?: number;
}

/** Depth entry `[price, contracts, orders]` as a record. */
export const depthLevelSchema = z.tuple([dec, dec], z.unknown()).transform(([price, vol, ...rest], ctx): DepthLevel => {
  if (rest.length === 0 || rest[0] === null || rest[0] === undefined) return { price, vol };
  const c = int.safeParse(rest[0]);
  if (!c.success) {
    ctx.addIssue({ code: 'custom', path: [2], message: 'order count: an integer' });
    return z.NEVER;
  }
  return { price, vol, count: c.data };
});

const levels = z.preprocess((v) => v ?? [], z.array(depthLevelSchema));

/** Depth (asks ascending, bids descending as the venue sends them). */
export const depthSchema = obj({ asks: levels, bids: levels, version: int, timestamp: opt(int) });
export type ContractDepth = z.output<typeof depthSchema>;

/** depth_commits snapshot: asks, bids, version. */
export const depthSnapshotSchema = obj({ asks: levels, bids: levels, version: int });
export type DepthSnapshot = z.output<typeof depthSnapshotSchema>;

export const indexPriceSchema = obj({ symbol: text, indexPrice: dec, timestamp: int });
export type IndexPrice = z.output<typeof indexPriceSchema>;
export const fairPriceSchema = obj({ symbol: text, fairPrice: dec, timestamp: int });
export type FairPrice = z.output<typeof fairPriceSchema>;

export const fundingRateSchema = obj({
  symbol: text,
  fundingRate: dec,
  maxFundingRate: opt(dec),
  minFundingRate: opt(dec),
  /** Hours between settlements. */
  collectCycle: opt(int),
  nextSettleTime: opt(int),
  timestamp: opt(int),
});
export type FundingRate = z.output<typeof fundingRateSchema>;

export const fundingHistoryEntrySchema = obj({ symbol: text, fundingRate: dec, settleTime: int, collectCycle: opt(int) });
export type FundingHistoryEntry = z.output<typeof fundingHistoryEntrySchema>;

/** Candle with its open time in MILLISECONDS (the wire carries seconds: time × 1000). */
export interface ContractKline {
  readonly openTime: number;
  readonly open: Decimal;
  readonly close: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  /** Contracts; 0 for index and fair price candles. */
  readonly vol: Decimal;
  readonly amount?: Decimal;
  readonly realOpen?: Decimal;
  readonly realClose?: Decimal;
  readonly realHigh?: Decimal;
  readonly realLow?: Decimal;
}

const decCol = z.preprocess((v) => v ?? [], z.array(dec));

/** Columnar candles (time in seconds, one list per field) turned into rows; lists of unequal length are malformed. */
export const klineSchema = obj({
  time: z.preprocess((v) => v ?? [], z.array(int)),
  open: decCol,
  close: decCol,
  high: decCol,
  low: decCol,
  vol: decCol,
  amount: opt(decCol),
  realOpen: opt(decCol),
  realClose: opt(decCol),
  realHigh: opt(decCol),
  realLow: opt(decCol),
}).transform((c, ctx): ContractKline[] => {
  const n = c.time.length;
  const columns = ['open', 'close', 'high', 'low', 'vol', 'amount', 'realOpen', 'realClose', 'realHigh', 'realLow'] as const;
  for (const name of columns) {
    const col = c[name];
    if (col !== undefined && col.length !== n) {
      ctx.addIssue({ code: 'custom', path: [name], message: `a list of ${n} values (as many as time)` });
      return z.NEVER;
    }
  }
  const rows: ContractKline[] = [];
  for (let i = 0; i < n; i++) {
    rows.push({
      openTime: c.time[i]! * 1000,
      open: c.open[i]!,
      close: c.close[i]!,
      high: c.high[i]!,
      low: c.low[i]!,
      vol: c.vol[i]!,
      ...(c.amount ? { amount: c.amount[i]! } : {}),
      ...(c.realOpen ? { realOpen: c.realOpen[i]! } : {}),
      ...(c.realClose ? { realClose: c.realClose[i]! } : {}),
      ...(c.realHigh ? { realHigh: c.realHigh[i]! } : {}),
      ...(c.realLow ? { realLow: c.realLow[i]! } : {}),
    });
  }
  return rows;
});

/**
 * Trade (2.2) under the venue's names: p price, v contracts, T 1 buy / 2 sell, O open flag
 * (1 both open, 2 neither opens, 3 other), M 1 self-trade / 2 not, t time (ms), i trade id.
 */
export const dealSchema = obj({ p: dec, v: dec, T: int, O: opt(int), M: opt(int), t: int, i: opt(venueId) });
export type ContractDeal = z.output<typeof dealSchema>;

/** Insurance fund balance (2.2). */
export const riskReverseSchema = obj({ symbol: text, currency: text, available: dec, timestamp: opt(int) });
export type RiskReverse = z.output<typeof riskReverseSchema>;
/** risk_reverse/{symbol}: the document says a list; the real venue answers one object. Both → list. */
export const riskReverseResponse = oneOrMany(riskReverseSchema);

export const riskReverseHistoryEntrySchema = obj({ symbol: text, currency: text, available: dec, snapshotTime: int });
export type RiskReverseHistoryEntry = z.output<typeof riskReverseHistoryEntrySchema>;
