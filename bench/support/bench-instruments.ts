/**
 * The BTC_USDT perpetual the contract benches run on (one tier, NORMAL fees), so every bench measures
 * the same instrument.
 */
import { Decimal } from '../../src/core/decimal.js';
import { D } from '../../src/core/decimal.js';
import { contractSymbol, spotSymbol } from '../../src/core/ids.js';
import type { ContractInstrument, SpotInstrument } from '../../src/domain/instrument.js';

const d = (v: string | number): Decimal => new Decimal(v);

export function benchBtcUsdtContract(): ContractInstrument {
  return {
    kind: 'contract',
    symbol: contractSymbol('BTC_USDT'),
    baseCoin: 'BTC',
    quoteCoin: 'USDT',
    settleCoin: 'USDT',
    positionOpenType: 3,
    contractSize: d('0.0001'),
    minLeverage: 1,
    maxLeverage: 125,
    priceScale: 1,
    volScale: 0,
    amountScale: 4,
    priceUnit: d('0.1'),
    volUnit: d(1),
    minVol: d(1),
    maxVol: d(1000000),
    bidLimitPriceRate: d('0.1'),
    askLimitPriceRate: d('0.1'),
    takerFeeRate: d('0.0006'),
    makerFeeRate: d('0.0002'),
    maintenanceMarginRate: d('0.004'),
    initialMarginRate: d('0.008'),
    riskBaseVol: d(10000000),
    riskIncrVol: d(0),
    riskIncrMmr: d(0),
    riskIncrImr: d(0),
    riskLevelLimit: 1,
    riskLimitType: 'BY_VOLUME',
    riskTiers: [{ level: 1, maxVol: d(10000000), mmr: d('0.004'), imr: d('0.008'), maxLeverage: 125 }],
    priceCoefficientVariation: d('0.004'),
    state: 0,
    apiAllowed: true,
    maxNumOrders: [200, 200],
    feeRateMode: 'NORMAL',
    leverageFeeRates: [],
    tieredFeeRates: [],
  };
}

/** The BTCUSDT spot pair the spot benches run on. */
export function benchBtcUsdtSpot(): SpotInstrument {
  return {
    kind: 'spot',
    symbol: spotSymbol('BTCUSDT'),
    status: '1',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    baseAssetPrecision: 4,
    quotePrecision: 2,
    quoteAssetPrecision: 2,
    baseCommissionPrecision: 8,
    quoteCommissionPrecision: 8,
    tick: D('0.01'),
    step: D('0.0001'),
    orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER'],
    isSpotTradingAllowed: true,
    isMarginTradingAllowed: false,
    permissions: ['SPOT'],
    minQuoteAmount: D('0'),
    minQuantity: D('0.0001'),
    minQuoteAmountMarket: D('0'),
    maxQuoteAmount: D('0'),
    maxQuoteAmountMarket: D('0'),
    makerCommission: D('0.001'),
    takerCommission: D('0.002'),
    tradeSideType: 1,
    apiTradable: true,
  };
}
