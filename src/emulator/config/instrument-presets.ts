/**
 * Built-in instrument rules, taken from the real captured responses in test/fixtures/mexc (BTCUSDT from
 * exchangeInfo, BTC_USDT / ETH_USDT from contract detail). ETHUSDT spot is not among the captures; its
 * rules follow the same venue conventions (2 price decimals, 8 quantity decimals, 0.000001 minimum).
 * Whatever a config lists by name comes from here; a config may also spell out every field itself.
 *
 * The price tick is 10^-quotePrecision and the quantity step 10^-baseAssetPrecision, as a client derives
 * them from exchangeInfo (api/spot/to-spot-instrument.ts); baseSizePrecision is the minimum quantity.
 */
import type { z } from 'zod';
import type { contractInstrumentSchema, spotInstrumentSchema } from './instrument-schemas.js';

export type SpotInstrumentInput = z.input<typeof spotInstrumentSchema>;
export type ContractInstrumentInput = z.input<typeof contractInstrumentSchema>;

export const SPOT_PRESETS: Readonly<Record<string, SpotInstrumentInput>> = {
  BTCUSDT: {
    symbol: 'BTCUSDT',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    fullName: 'Bitcoin',
    baseAssetPrecision: 8,
    quotePrecision: 2,
    quoteAssetPrecision: 2,
    baseCommissionPrecision: 8,
    quoteCommissionPrecision: 2,
    minQuantity: '0.000001',
    minQuoteAmount: '1',
    minQuoteAmountMarket: '1',
    maxQuoteAmount: '4000000',
    maxQuoteAmountMarket: '4000000',
    makerCommission: '0',
    takerCommission: '0.0005',
    percentPriceBySide: { bidMultiplierUp: '0.005', askMultiplierDown: '0.005' },
  },
  ETHUSDT: {
    symbol: 'ETHUSDT',
    baseAsset: 'ETH',
    quoteAsset: 'USDT',
    fullName: 'Ethereum',
    baseAssetPrecision: 8,
    quotePrecision: 2,
    quoteAssetPrecision: 2,
    baseCommissionPrecision: 8,
    quoteCommissionPrecision: 2,
    minQuantity: '0.000001',
    minQuoteAmount: '1',
    minQuoteAmountMarket: '1',
    maxQuoteAmount: '4000000',
    maxQuoteAmountMarket: '4000000',
    makerCommission: '0',
    takerCommission: '0.0005',
    percentPriceBySide: { bidMultiplierUp: '0.005', askMultiplierDown: '0.005' },
  },
};

const BTC_TIERS = [
  { level: 1, maxVol: '50000', mmr: '0.001', imr: '0.002', maxLeverage: 500 },
  { level: 2, maxVol: '120000', mmr: '0.004', imr: '0.005', maxLeverage: 200 },
  { level: 3, maxVol: '250000', mmr: '0.005', imr: '0.01', maxLeverage: 100 },
  { level: 4, maxVol: '2000000', mmr: '0.01', imr: '0.02', maxLeverage: 50 },
  { level: 5, maxVol: '8500000', mmr: '0.02', imr: '0.05', maxLeverage: 20 },
];

const ETH_TIERS = [
  { level: 1, maxVol: '19000', mmr: '0.001', imr: '0.002', maxLeverage: 500 },
  { level: 2, maxVol: '45000', mmr: '0.004', imr: '0.005', maxLeverage: 200 },
  { level: 3, maxVol: '90000', mmr: '0.005', imr: '0.01', maxLeverage: 100 },
  { level: 4, maxVol: '600000', mmr: '0.01', imr: '0.02', maxLeverage: 50 },
  { level: 5, maxVol: '2500000', mmr: '0.02', imr: '0.05', maxLeverage: 20 },
];

export const CONTRACT_PRESETS: Readonly<Record<string, ContractInstrumentInput>> = {
  BTC_USDT: {
    symbol: 'BTC_USDT',
    id: 10,
    displayName: 'BTC_USDT永续',
    displayNameEn: 'BTC_USDT PERPETUAL',
    baseCoin: 'BTC',
    quoteCoin: 'USDT',
    settleCoin: 'USDT',
    contractSize: '0.0001',
    priceUnit: '0.1',
    volUnit: '1',
    priceScale: 1,
    volScale: 0,
    amountScale: 4,
    minVol: '1',
    maxVol: '400000',
    minLeverage: 1,
    maxLeverage: 500,
    takerFeeRate: '0.0001',
    makerFeeRate: '0',
    maintenanceMarginRate: '0.001',
    initialMarginRate: '0.002',
    bidLimitPriceRate: '0.1',
    askLimitPriceRate: '0.1',
    priceCoefficientVariation: '0.004',
    riskBaseVol: '11500000',
    maxNumOrders: [200, 50],
    riskTiers: BTC_TIERS,
  },
  ETH_USDT: {
    symbol: 'ETH_USDT',
    id: 11,
    displayName: 'ETH_USDT永续',
    displayNameEn: 'ETH_USDT PERPETUAL',
    baseCoin: 'ETH',
    quoteCoin: 'USDT',
    settleCoin: 'USDT',
    contractSize: '0.01',
    priceUnit: '0.01',
    volUnit: '1',
    priceScale: 2,
    volScale: 0,
    amountScale: 4,
    minVol: '1',
    maxVol: '70000',
    minLeverage: 1,
    maxLeverage: 500,
    takerFeeRate: '0.0001',
    makerFeeRate: '0',
    maintenanceMarginRate: '0.001',
    initialMarginRate: '0.002',
    bidLimitPriceRate: '0.1',
    askLimitPriceRate: '0.1',
    priceCoefficientVariation: '0.004',
    riskBaseVol: '2500000',
    maxNumOrders: [200, 50],
    riskTiers: ETH_TIERS,
  },
};

/** Starting prices of the synthetic market when the config names none (late-2025 levels of the captures). */
export const DEFAULT_START_PRICES: Readonly<Record<string, string>> = {
  BTCUSDT: '87500',
  ETHUSDT: '2950',
  BTC_USDT: '87500',
  ETH_USDT: '2950',
};
