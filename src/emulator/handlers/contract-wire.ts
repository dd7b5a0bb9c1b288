/**
 * Contract views → the venue's JSON: numbers as JSON numbers (the captures carry prices, volumes and
 * money as numbers), order ids as strings, position ids as numbers while they fit (the captures show
 * `positionId: 1394650`), paged lists in the page object of contract-api.md §2.
 */
import { createHash } from 'node:crypto';
import type { Decimal } from '../../core/decimal.js';
import type { ContractInstrument, FeeTier } from '../../domain/instrument.js';
import type { ContractAssetView, ContractOrderView, ContractPositionView, Page } from '../../venue/contract/contract-views.js';
import type { StopOrderView } from '../../venue/contract/triggers/trigger-views.js';

export const n = (d: Decimal | undefined): number => (d === undefined ? 0 : d.toNumber());

/** A fee tier of contract detail; leverage tiers also carry their minLeverage / maxLeverage bounds. */
export function feeTierWire(t: FeeTier): Record<string, unknown> {
  const lev = t as FeeTier & { minLeverage?: number; maxLeverage?: number };
  return {
    takerFeeRate: n(t.takerFeeRate),
    makerFeeRate: n(t.makerFeeRate),
    ...(t.minTieredDealAmount !== undefined ? { minTieredDealAmount: n(t.minTieredDealAmount) } : {}),
    ...(t.maxTieredDealAmount !== undefined ? { maxTieredDealAmount: n(t.maxTieredDealAmount) } : {}),
    ...(lev.minLeverage !== undefined ? { minLeverage: lev.minLeverage } : {}),
    ...(lev.maxLeverage !== undefined ? { maxLeverage: lev.maxLeverage } : {}),
  };
}

/** A venue id as a number when it is a safe integer, else the digit string. */
export function idValue(id: string | undefined): number | string | undefined {
  if (id === undefined) return undefined;
  const v = Number(id);
  return Number.isSafeInteger(v) ? v : id;
}

/**
 * An order record. `tpsl` is the take-profit / stop-loss the order carries (ContractVenue.orderTpSl):
 * its prices, price types (1 latest, 2 fair, 3 index) and priceProtect appear only then, as on the
 * venue, where an order without TP/SL leaves them out.
 */
export function orderWire(o: ContractOrderView, tpsl?: StopOrderView): Record<string, unknown> {
  const fees = o.takerFee.plus(o.makerFee);
  return {
    orderId: o.orderId,
    symbol: o.symbol,
    positionId: idValue(o.positionId) ?? 0,
    price: n(o.price),
    priceStr: o.price.toFixed(),
    vol: n(o.vol),
    leverage: o.leverage,
    side: o.side,
    category: o.category,
    orderType: o.orderType,
    dealAvgPrice: n(o.dealAvgPrice),
    dealAvgPriceStr: o.dealAvgPrice.toFixed(),
    dealVol: n(o.dealVol),
    orderMargin: n(o.orderMargin),
    usedMargin: n(o.usedMargin),
    takerFee: n(o.takerFee),
    makerFee: n(o.makerFee),
    profit: n(o.profit),
    feeCurrency: o.feeCurrency,
    totalFee: n(fees),
    openType: o.openType,
    state: o.state,
    externalOid: o.externalOid ?? '',
    errorCode: o.errorCode,
    createTime: o.createTime,
    updateTime: o.updateTime,
    positionMode: o.positionMode,
    reduceOnly: o.reduceOnly,
    stpMode: o.stpMode,
    ...(tpsl ? tpslWire(tpsl) : {}),
    version: 1,
  };
}

function tpslWire(t: StopOrderView): Record<string, unknown> {
  return {
    ...(t.takeProfitPrice !== undefined ? { takeProfitPrice: n(t.takeProfitPrice) } : {}),
    ...(t.stopLossPrice !== undefined ? { stopLossPrice: n(t.stopLossPrice) } : {}),
    profitTrend: t.profitTrend,
    lossTrend: t.lossTrend,
    priceProtect: t.priceProtect,
  };
}

export function positionWire(p: ContractPositionView): Record<string, unknown> {
  return {
    positionId: idValue(p.positionId),
    symbol: p.symbol,
    positionType: p.positionType,
    openType: p.openType,
    state: p.state,
    holdVol: n(p.holdVol),
    frozenVol: n(p.frozenVol),
    closeVol: n(p.closeVol),
    holdAvgPrice: n(p.holdAvgPrice),
    holdAvgPriceFullyScale: p.holdAvgPriceFullyScale.toFixed(),
    openAvgPrice: n(p.openAvgPrice),
    openAvgPriceFullyScale: p.openAvgPriceFullyScale.toFixed(),
    closeAvgPrice: n(p.closeAvgPrice),
    newOpenAvgPrice: n(p.openAvgPrice),
    newCloseAvgPrice: n(p.closeAvgPrice),
    liquidatePrice: n(p.liquidatePrice),
    oim: n(p.oim),
    im: n(p.im),
    holdFee: n(p.holdFee),
    realised: n(p.realised),
    leverage: p.leverage,
    marginRatio: n(p.marginRatio),
    autoAddIm: p.autoAddIm,
    profitRatio: n(p.profitRatio),
    closeProfitLoss: n(p.closeProfitLoss),
    fee: n(p.fee),
    totalFee: n(p.totalFee),
    createTime: p.createTime,
    updateTime: p.updateTime,
    version: 1,
    positionShowStatus: p.state === 3 ? 'CLOSED' : 'OPEN',
  };
}

export function assetWire(a: ContractAssetView): Record<string, unknown> {
  return {
    currency: a.currency,
    positionMargin: n(a.positionMargin),
    availableBalance: n(a.availableBalance),
    cashBalance: n(a.cashBalance),
    frozenBalance: n(a.frozenBalance),
    equity: n(a.equity),
    unrealized: n(a.unrealized),
    bonus: n(a.bonus),
    availableCash: n(a.availableCash),
    availableOpen: n(a.availableOpen),
  };
}

export function pageWire<T>(p: Page<T>, f: (t: T) => unknown): Record<string, unknown> {
  return {
    pageSize: p.pageSize,
    totalCount: p.totalCount,
    totalPage: p.totalPage,
    currentPage: p.currentPage,
    resultList: p.resultList.map(f),
  };
}

/** Contract detail (2.1) from the instrument, in the captured field set. */
export function detailWire(i: ContractInstrument, id: number, createTime: number): Record<string, unknown> {
  return {
    symbol: i.symbol,
    displayName: i.displayName ?? `${i.symbol}永续`,
    displayNameEn: `${i.symbol} PERPETUAL`,
    positionOpenType: i.positionOpenType,
    baseCoin: i.baseCoin,
    quoteCoin: i.quoteCoin,
    settleCoin: i.settleCoin,
    baseCoinName: i.baseCoin,
    quoteCoinName: i.quoteCoin,
    contractSize: n(i.contractSize),
    minLeverage: i.minLeverage,
    maxLeverage: i.maxLeverage,
    priceScale: i.priceScale,
    volScale: i.volScale,
    amountScale: i.amountScale,
    priceUnit: n(i.priceUnit),
    volUnit: n(i.volUnit),
    minVol: n(i.minVol),
    maxVol: n(i.maxVol),
    bidLimitPriceRate: n(i.bidLimitPriceRate),
    askLimitPriceRate: n(i.askLimitPriceRate),
    takerFeeRate: n(i.takerFeeRate),
    makerFeeRate: n(i.makerFeeRate),
    maintenanceMarginRate: n(i.maintenanceMarginRate),
    initialMarginRate: n(i.initialMarginRate),
    riskBaseVol: n(i.riskBaseVol),
    riskIncrVol: n(i.riskIncrVol),
    riskLongShortSwitch: 0,
    riskIncrMmr: n(i.riskIncrMmr),
    riskIncrImr: n(i.riskIncrImr),
    riskLevelLimit: i.riskLevelLimit,
    priceCoefficientVariation: n(i.priceCoefficientVariation),
    indexOrigin: ['EMULATOR'],
    state: i.state,
    apiAllowed: i.apiAllowed,
    conceptPlate: [],
    conceptPlateId: [],
    riskLimitType: i.riskLimitType,
    maxNumOrders: [...i.maxNumOrders],
    type: 1,
    riskLimitMode: 'CUSTOM',
    riskLimitCustom: i.riskTiers.map((t) => ({
      level: t.level,
      maxVol: n(t.maxVol),
      mmr: n(t.mmr),
      imr: n(t.imr),
      maxLeverage: t.maxLeverage,
    })),
    feeRateMode: i.feeRateMode,
    leverageFeeRates: i.feeRateMode === 'LEVERAGE' ? i.leverageFeeRates.map(feeTierWire) : [],
    tieredFeeRates: i.feeRateMode === 'TIERED' ? i.tieredFeeRates.map(feeTierWire) : [],
    id,
    futureType: 1,
    isZeroFeeRate: i.isZeroFee ?? false,
    isZeroFeeSymbol: i.isZeroFee ?? false,
    isNew: false,
    isHot: false,
    isHidden: false,
    createTime,
    openingTime: 0,
    depthStepList: [i.priceUnit.toFixed(), i.priceUnit.mul(10).toFixed(), i.priceUnit.mul(100).toFixed()],
    limitMaxVol: n(i.maxVol),
    marketOrderMaxLevel: 20,
    stopOnlyFair: false,
    // The rest of the fields a live answer carries (test/fixtures/mexc contract_GET_api_v1_contract_detail.json),
    // all but preMarket named in the document's further fields. Listing and display flags take the live
    // values; the behavioural ones say what this venue does, not what the real one charges:
    appraisal: 0,
    automaticDelivery: 0,
    // No icon is served (a link to the real exchange's CDN would leave 127.0.0.1).
    baseCoinIconUrl: '',
    baseCoinId: stableHexId(`coin:${i.baseCoin}`),
    countryConfigContractMaxLeverage: 0,
    isMaxLeverage: true,
    // A liquidated account here pays what is left of its maintenance margin (liquidation-rules.ts), not a rate.
    liquidationFeeRate: 0,
    // Market orders are not held to a separate price band here (only limit prices are, by bid/askLimitPriceRate).
    marketOrderPriceLimitRate1: 0,
    marketOrderPriceLimitRate2: 0,
    openingCountdownOption: 1,
    preMarket: false,
    showAppraisalCountdown: 0,
    showBeforeOpen: true,
    threshold: 0,
    // Trigger orders fire at their trigger price without a protection band (priceProtect is stored, not applied).
    triggerProtect: 0,
    vid: stableHexId(`contract:${i.symbol}`),
  };
}

/** A 32-hex-digit id that is the same on every start (baseCoinId / vid look like this on the real venue). */
function stableHexId(name: string): string {
  return createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 32);
}
