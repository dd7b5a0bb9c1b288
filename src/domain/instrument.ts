/**
 * Trading rules of an instrument, as the risk engine, the order manager and the venue engine need them.
 * Money and sizes are Decimal here; the venue converts to integer ticks and lots with `tick` and `step`.
 */
import type { Decimal } from '../core/decimal.js';
import type { ContractSymbol, SpotSymbol } from '../core/ids.js';
import type { SpotOrderType, SpotSymbolStatus, TradeSideType } from './spot-enums.js';
import type { ContractState, FeeRateMode, PositionOpenType, RiskLimitType } from './contract-enums.js';

export interface PercentPriceBySide {
  /** Buy limit price ≤ last·(1+up) when up < 1, else ≤ last·up (wire-protocol.md). */
  readonly bidMultiplierUp: Decimal;
  /** Sell limit price ≥ last·(1−down) when down < 1, else ≥ last·down. */
  readonly askMultiplierDown: Decimal;
}

export interface SpotInstrument {
  readonly kind: 'spot';
  readonly symbol: SpotSymbol;
  readonly status: SpotSymbolStatus;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly baseAssetPrecision: number;
  readonly quotePrecision: number;
  readonly quoteAssetPrecision: number;
  readonly baseCommissionPrecision: number;
  readonly quoteCommissionPrecision: number;
  /** Price tick, 10^-quotePrecision. */
  readonly tick: Decimal;
  /** Quantity step, 10^-baseAssetPrecision. */
  readonly step: Decimal;
  readonly orderTypes: readonly SpotOrderType[];
  readonly isSpotTradingAllowed: boolean;
  readonly isMarginTradingAllowed: boolean;
  readonly permissions: readonly string[];
  readonly percentPriceBySide?: PercentPriceBySide;
  /** Minimum order amount in quote (quoteAmountPrecision). */
  readonly minQuoteAmount: Decimal;
  /** Minimum order quantity in base (baseSizePrecision). */
  readonly minQuantity: Decimal;
  readonly minQuoteAmountMarket: Decimal;
  readonly maxQuoteAmount: Decimal;
  readonly maxQuoteAmountMarket: Decimal;
  readonly makerCommission: Decimal;
  readonly takerCommission: Decimal;
  readonly tradeSideType: TradeSideType;
  readonly fullName?: string;
  readonly st?: boolean;
  /** Listed in defaultSymbols: tradable through the API (error 10007 otherwise). */
  readonly apiTradable: boolean;
}

export interface RiskTier {
  readonly level: number;
  /** Maximum position size in contracts at this tier. */
  readonly maxVol: Decimal;
  readonly mmr: Decimal;
  readonly imr: Decimal;
  readonly maxLeverage: number;
}

export interface FeeTier {
  readonly takerFeeRate: Decimal;
  readonly makerFeeRate: Decimal;
  readonly minTieredDealAmount?: Decimal;
  readonly maxTieredDealAmount?: Decimal;
}

export interface ContractInstrument {
  readonly kind: 'contract';
  readonly symbol: ContractSymbol;
  readonly displayName?: string;
  readonly baseCoin: string;
  readonly quoteCoin: string;
  readonly settleCoin: string;
  readonly positionOpenType: PositionOpenType;
  /** Base units per contract. */
  readonly contractSize: Decimal;
  readonly minLeverage: number;
  readonly maxLeverage: number;
  readonly priceScale: number;
  readonly volScale: number;
  readonly amountScale: number;
  /** Price tick. */
  readonly priceUnit: Decimal;
  /** Quantity step in contracts. */
  readonly volUnit: Decimal;
  readonly minVol: Decimal;
  readonly maxVol: Decimal;
  readonly bidLimitPriceRate: Decimal;
  readonly askLimitPriceRate: Decimal;
  readonly takerFeeRate: Decimal;
  readonly makerFeeRate: Decimal;
  readonly maintenanceMarginRate: Decimal;
  readonly initialMarginRate: Decimal;
  readonly riskBaseVol: Decimal;
  readonly riskIncrVol: Decimal;
  readonly riskIncrMmr: Decimal;
  readonly riskIncrImr: Decimal;
  readonly riskLevelLimit: number;
  readonly riskLimitType: RiskLimitType;
  /** Explicit tiers (riskLimitCustom) or derived from base/incr values. */
  readonly riskTiers: readonly RiskTier[];
  readonly priceCoefficientVariation: Decimal;
  readonly state: ContractState;
  readonly apiAllowed: boolean;
  /** [hedged mode, one-way mode] maximum open orders. */
  readonly maxNumOrders: readonly [number, number];
  readonly feeRateMode: FeeRateMode;
  readonly leverageFeeRates: readonly FeeTier[];
  readonly tieredFeeRates: readonly FeeTier[];
  readonly isZeroFee?: boolean;
}

export type Instrument = SpotInstrument | ContractInstrument;

/** Tick and step of any instrument, for code that works on both. */
export const tickOf = (i: Instrument): Decimal => (i.kind === 'spot' ? i.tick : i.priceUnit);
export const stepOf = (i: Instrument): Decimal => (i.kind === 'spot' ? i.step : i.volUnit);
