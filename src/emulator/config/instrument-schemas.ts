/**
 * Config-file shapes of spot pairs and contracts, and their conversion into the domain instruments the
 * engines use. Decimals are written as strings (or numbers) in YAML and become Decimal here.
 */
import { z } from 'zod';
import { Decimal, stepOfPrecision } from '../../core/decimal.js';
import { contractSymbol, spotSymbol } from '../../core/ids.js';
import { SPOT_ORDER_TYPES, SpotSymbolStatus, TradeSideType } from '../../domain/spot-enums.js';
import { ContractState, FEE_RATE_MODES, PositionOpenType, RISK_LIMIT_TYPES } from '../../domain/contract-enums.js';
import type { ContractInstrument, RiskTier, SpotInstrument } from '../../domain/instrument.js';

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A decimal written as a YAML string or number; kept as its exact string. */
export const decimalText = (what = 'a decimal number') =>
  z.union([z.string(), z.number()], { error: what }).transform((v, ctx) => {
    const s = typeof v === 'number' ? String(v) : v.trim();
    if (!NUMERIC.test(s) || !Number.isFinite(Number(s))) {
      ctx.addIssue({ code: 'custom', message: what });
      return z.NEVER;
    }
    return new Decimal(s).toFixed();
  });

export const positiveDecimalText = (what = 'a decimal number > 0') => decimalText(what).refine((s) => new Decimal(s).gt(0), what);
export const nonNegativeDecimalText = (what = 'a decimal number >= 0') => decimalText(what).refine((s) => new Decimal(s).gte(0), what);

const precision = z.number({ error: 'an integer 0..18' }).int('an integer 0..18').min(0, 'an integer 0..18').max(18, 'an integer 0..18');

export const spotInstrumentSchema = z.strictObject({
  symbol: z.string().regex(/^[A-Z0-9]{2,30}$/, 'a spot symbol like BTCUSDT'),
  baseAsset: z.string().regex(/^[A-Z0-9]{1,20}$/, 'an asset name like BTC'),
  quoteAsset: z.string().regex(/^[A-Z0-9]{1,20}$/, 'an asset name like USDT'),
  status: z.enum(['1', '2', '3'], { error: 'one of "1" (online), "2" (pause), "3" (offline)' }).default('1'),
  fullName: z.string().optional(),
  baseAssetPrecision: precision,
  quotePrecision: precision,
  quoteAssetPrecision: precision.optional(),
  baseCommissionPrecision: precision.optional(),
  quoteCommissionPrecision: precision.optional(),
  minQuantity: nonNegativeDecimalText(),
  minQuoteAmount: nonNegativeDecimalText(),
  minQuoteAmountMarket: nonNegativeDecimalText().optional(),
  maxQuoteAmount: positiveDecimalText(),
  maxQuoteAmountMarket: positiveDecimalText().optional(),
  makerCommission: nonNegativeDecimalText().default('0'),
  takerCommission: nonNegativeDecimalText().default('0.0005'),
  orderTypes: z
    .array(z.enum(SPOT_ORDER_TYPES, { error: `one of ${SPOT_ORDER_TYPES.join(', ')}` }))
    .default(['LIMIT', 'MARKET', 'LIMIT_MAKER']),
  percentPriceBySide: z.strictObject({ bidMultiplierUp: positiveDecimalText(), askMultiplierDown: positiveDecimalText() }).optional(),
  tradeSideType: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { error: 'one of 1, 2, 3, 4' }).default(1),
  isSpotTradingAllowed: z.boolean().default(true),
  /** Listed in defaultSymbols (API trading allowed; 10007 otherwise). */
  apiTradable: z.boolean().default(true),
  st: z.boolean().default(false),
});
export type SpotInstrumentConfig = z.output<typeof spotInstrumentSchema>;

const riskTierSchema = z.strictObject({
  level: z.number().int().min(1),
  maxVol: positiveDecimalText(),
  mmr: nonNegativeDecimalText(),
  imr: positiveDecimalText(),
  maxLeverage: z.number().int().min(1),
});

export const contractInstrumentSchema = z.strictObject({
  symbol: z.string().regex(/^[A-Z0-9]{1,20}_[A-Z0-9]{2,10}$/, 'a contract symbol like BTC_USDT'),
  /** The venue's numeric contract id (ticker contractId, detail id). */
  id: z.number().int().min(1).optional(),
  displayName: z.string().optional(),
  displayNameEn: z.string().optional(),
  baseCoin: z.string().regex(/^[A-Z0-9]{1,20}$/, 'a coin name like BTC'),
  quoteCoin: z.string().regex(/^[A-Z0-9]{1,20}$/, 'a coin name like USDT'),
  settleCoin: z.string().regex(/^[A-Z0-9]{1,20}$/, 'a coin name like USDT'),
  positionOpenType: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'one of 1 (isolated), 2 (cross), 3 (both)' }).default(3),
  contractSize: positiveDecimalText(),
  priceUnit: positiveDecimalText(),
  volUnit: positiveDecimalText(),
  priceScale: precision,
  volScale: precision,
  amountScale: precision.default(4),
  minVol: positiveDecimalText(),
  maxVol: positiveDecimalText(),
  minLeverage: z.number().int().min(1).default(1),
  maxLeverage: z.number().int().min(1),
  takerFeeRate: nonNegativeDecimalText().default('0.0002'),
  makerFeeRate: nonNegativeDecimalText().default('0'),
  maintenanceMarginRate: nonNegativeDecimalText(),
  initialMarginRate: positiveDecimalText(),
  bidLimitPriceRate: positiveDecimalText().default('0.1'),
  askLimitPriceRate: positiveDecimalText().default('0.1'),
  priceCoefficientVariation: nonNegativeDecimalText().default('0.004'),
  riskBaseVol: positiveDecimalText().optional(),
  riskIncrVol: nonNegativeDecimalText().default('0'),
  riskIncrMmr: nonNegativeDecimalText().default('0'),
  riskIncrImr: nonNegativeDecimalText().default('0'),
  riskLimitType: z.enum(RISK_LIMIT_TYPES).default('BY_VOLUME'),
  riskTiers: z.array(riskTierSchema).optional(),
  state: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).default(0),
  apiAllowed: z.boolean().default(true),
  maxNumOrders: z.tuple([z.number().int().min(1), z.number().int().min(1)]).default([200, 50]),
  feeRateMode: z.enum(FEE_RATE_MODES).default('NORMAL'),
});
export type ContractInstrumentConfig = z.output<typeof contractInstrumentSchema>;

export function toSpotInstrument(c: SpotInstrumentConfig, fees?: { maker?: string; taker?: string }): SpotInstrument {
  const status = c.status as SpotSymbolStatus;
  const quoteAssetPrecision = c.quoteAssetPrecision ?? c.quotePrecision;
  return {
    kind: 'spot',
    symbol: spotSymbol(c.symbol),
    status: status ?? SpotSymbolStatus.ONLINE,
    baseAsset: c.baseAsset,
    quoteAsset: c.quoteAsset,
    baseAssetPrecision: c.baseAssetPrecision,
    quotePrecision: c.quotePrecision,
    quoteAssetPrecision,
    baseCommissionPrecision: c.baseCommissionPrecision ?? c.baseAssetPrecision,
    quoteCommissionPrecision: c.quoteCommissionPrecision ?? quoteAssetPrecision,
    // The grid a client derives from exchangeInfo: anything else would disagree with every client.
    tick: stepOfPrecision(c.quotePrecision),
    step: stepOfPrecision(c.baseAssetPrecision),
    orderTypes: c.orderTypes,
    isSpotTradingAllowed: c.isSpotTradingAllowed,
    isMarginTradingAllowed: false,
    permissions: ['SPOT'],
    ...(c.percentPriceBySide
      ? {
          percentPriceBySide: {
            bidMultiplierUp: new Decimal(c.percentPriceBySide.bidMultiplierUp),
            askMultiplierDown: new Decimal(c.percentPriceBySide.askMultiplierDown),
          },
        }
      : {}),
    minQuoteAmount: new Decimal(c.minQuoteAmount),
    minQuantity: new Decimal(c.minQuantity),
    minQuoteAmountMarket: new Decimal(c.minQuoteAmountMarket ?? c.minQuoteAmount),
    maxQuoteAmount: new Decimal(c.maxQuoteAmount),
    maxQuoteAmountMarket: new Decimal(c.maxQuoteAmountMarket ?? c.maxQuoteAmount),
    makerCommission: new Decimal(fees?.maker ?? c.makerCommission),
    takerCommission: new Decimal(fees?.taker ?? c.takerCommission),
    tradeSideType: c.tradeSideType as TradeSideType,
    ...(c.fullName !== undefined ? { fullName: c.fullName } : {}),
    st: c.st,
    apiTradable: c.apiTradable,
  };
}

export function toContractInstrument(c: ContractInstrumentConfig, fees?: { maker?: string; taker?: string }): ContractInstrument {
  const tiers: RiskTier[] = c.riskTiers
    ? c.riskTiers.map((t) => ({
        level: t.level,
        maxVol: new Decimal(t.maxVol),
        mmr: new Decimal(t.mmr),
        imr: new Decimal(t.imr),
        maxLeverage: t.maxLeverage,
      }))
    : [
        {
          level: 1,
          maxVol: new Decimal(c.riskBaseVol ?? c.maxVol),
          mmr: new Decimal(c.maintenanceMarginRate),
          imr: new Decimal(c.initialMarginRate),
          maxLeverage: c.maxLeverage,
        },
      ];
  return {
    kind: 'contract',
    symbol: contractSymbol(c.symbol),
    ...(c.displayName !== undefined ? { displayName: c.displayName } : {}),
    baseCoin: c.baseCoin,
    quoteCoin: c.quoteCoin,
    settleCoin: c.settleCoin,
    positionOpenType: c.positionOpenType as PositionOpenType,
    contractSize: new Decimal(c.contractSize),
    minLeverage: c.minLeverage,
    maxLeverage: c.maxLeverage,
    priceScale: c.priceScale,
    volScale: c.volScale,
    amountScale: c.amountScale,
    priceUnit: new Decimal(c.priceUnit),
    volUnit: new Decimal(c.volUnit),
    minVol: new Decimal(c.minVol),
    maxVol: new Decimal(c.maxVol),
    bidLimitPriceRate: new Decimal(c.bidLimitPriceRate),
    askLimitPriceRate: new Decimal(c.askLimitPriceRate),
    takerFeeRate: new Decimal(fees?.taker ?? c.takerFeeRate),
    makerFeeRate: new Decimal(fees?.maker ?? c.makerFeeRate),
    maintenanceMarginRate: new Decimal(c.maintenanceMarginRate),
    initialMarginRate: new Decimal(c.initialMarginRate),
    riskBaseVol: new Decimal(c.riskBaseVol ?? tiers[0]!.maxVol),
    riskIncrVol: new Decimal(c.riskIncrVol),
    riskIncrMmr: new Decimal(c.riskIncrMmr),
    riskIncrImr: new Decimal(c.riskIncrImr),
    riskLevelLimit: tiers.length,
    riskLimitType: c.riskLimitType,
    riskTiers: tiers,
    priceCoefficientVariation: new Decimal(c.priceCoefficientVariation),
    state: c.state as ContractState,
    apiAllowed: c.apiAllowed,
    maxNumOrders: c.maxNumOrders,
    feeRateMode: c.feeRateMode,
    leverageFeeRates: [],
    tieredFeeRates: [],
    isZeroFee: new Decimal(c.takerFeeRate).isZero() && new Decimal(c.makerFeeRate).isZero(),
  };
}
