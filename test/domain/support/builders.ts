/**
 * Test builders: instruments with the values of the captured BTCUSDT / BTC_USDT fixtures
 * (test/fixtures/mexc), orders, snapshots and risk state, each overridable.
 */
import { D, type DecimalLike, ZERO } from '../../../src/core/decimal.js';
import {
  clientOrderId,
  contractSymbol,
  type InstrumentSymbol,
  orderId,
  spotSymbol,
  type StrategyId,
  strategyId,
  tradeId,
} from '../../../src/core/ids.js';
import type { AccountSnapshot, Balance } from '../../../src/domain/balance.js';
import type { Fill } from '../../../src/domain/fill.js';
import type { ContractInstrument, SpotInstrument } from '../../../src/domain/instrument.js';
import type { Order, OrderStatus, VenueOrder } from '../../../src/domain/order.js';
import type { Position, PositionLeg } from '../../../src/domain/position.js';
import type { MarketSnapshot } from '../../../src/domain/snapshot.js';

export const BTCUSDT = spotSymbol('BTCUSDT');
export const ETHUSDT = spotSymbol('ETHUSDT');
export const BTC_USDT = contractSymbol('BTC_USDT');
export const S1: StrategyId = strategyId('mm1');
export const S2: StrategyId = strategyId('other');

/** spot_GET_api_v3_exchangeInfo.json BTCUSDT, made API-tradable. */
export function spotInstrument(over: Partial<SpotInstrument> = {}): SpotInstrument {
  return {
    kind: 'spot',
    symbol: BTCUSDT,
    status: '1',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    baseAssetPrecision: 8,
    quotePrecision: 2,
    quoteAssetPrecision: 2,
    baseCommissionPrecision: 8,
    quoteCommissionPrecision: 2,
    tick: D('0.01'),
    step: D('0.000001'),
    orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER'],
    isSpotTradingAllowed: false,
    isMarginTradingAllowed: false,
    permissions: ['SPOT'],
    percentPriceBySide: { bidMultiplierUp: D('0.005'), askMultiplierDown: D('0.005') },
    minQuoteAmount: D('1'),
    minQuantity: D('0.000001'),
    minQuoteAmountMarket: D('1'),
    maxQuoteAmount: D('4000000'),
    maxQuoteAmountMarket: D('4000000'),
    makerCommission: D('0'),
    takerCommission: D('0.0005'),
    tradeSideType: 1,
    apiTradable: true,
    ...over,
  };
}

/** contract_GET_api_v1_contract_detail.json BTC_USDT, made apiAllowed. */
export function contractInstrument(over: Partial<ContractInstrument> = {}): ContractInstrument {
  return {
    kind: 'contract',
    symbol: BTC_USDT,
    baseCoin: 'BTC',
    quoteCoin: 'USDT',
    settleCoin: 'USDT',
    positionOpenType: 3,
    contractSize: D('0.0001'),
    minLeverage: 1,
    maxLeverage: 500,
    priceScale: 1,
    volScale: 0,
    amountScale: 4,
    priceUnit: D('0.1'),
    volUnit: D('1'),
    minVol: D('1'),
    maxVol: D('400000'),
    bidLimitPriceRate: D('0.1'),
    askLimitPriceRate: D('0.1'),
    takerFeeRate: D('0.0001'),
    makerFeeRate: D('0'),
    maintenanceMarginRate: D('0.001'),
    initialMarginRate: D('0.002'),
    riskBaseVol: D('11500000'),
    riskIncrVol: D('0'),
    riskIncrMmr: D('0'),
    riskIncrImr: D('0'),
    riskLevelLimit: 1,
    riskLimitType: 'BY_VOLUME',
    riskTiers: [
      { level: 1, maxVol: D('50000'), mmr: D('0.001'), imr: D('0.002'), maxLeverage: 500 },
      { level: 2, maxVol: D('120000'), mmr: D('0.004'), imr: D('0.005'), maxLeverage: 200 },
      { level: 3, maxVol: D('250000'), mmr: D('0.005'), imr: D('0.01'), maxLeverage: 100 },
      { level: 4, maxVol: D('2000000'), mmr: D('0.01'), imr: D('0.02'), maxLeverage: 50 },
      { level: 5, maxVol: D('8500000'), mmr: D('0.02'), imr: D('0.05'), maxLeverage: 20 },
    ],
    priceCoefficientVariation: D('0.004'),
    state: 0,
    apiAllowed: true,
    maxNumOrders: [200, 50],
    feeRateMode: 'NORMAL',
    leverageFeeRates: [],
    tieredFeeRates: [],
    ...over,
  };
}

let cidSeq = 0;
export function order(over: Partial<Order> & { status?: OrderStatus } = {}): Order {
  cidSeq += 1;
  const symbol = over.symbol ?? BTCUSDT;
  return {
    symbol,
    kind: symbol.includes('_') ? 'contract' : 'spot',
    side: 'buy',
    type: 'limit',
    timeInForce: 'gtc',
    price: D('100'),
    quantity: D('1'),
    clientOrderId: clientOrderId(`c${cidSeq}`),
    strategyId: S1,
    status: 'accepted',
    filledQty: ZERO,
    filledNotional: ZERO,
    fees: {},
    createdAt: 0,
    updatedAt: 0,
    submittedAt: 0,
    ...over,
  };
}

export function venueOrder(o: Order, over: Partial<VenueOrder> = {}): VenueOrder {
  return {
    venueOrderId: o.venueOrderId ?? orderId(`v-${o.clientOrderId}`),
    clientOrderId: o.clientOrderId,
    symbol: o.symbol,
    kind: o.kind,
    side: o.side,
    type: o.type,
    timeInForce: o.timeInForce,
    ...(o.price ? { price: o.price } : {}),
    ...(o.quantity ? { quantity: o.quantity } : {}),
    status: 'accepted',
    filledQty: ZERO,
    ...over,
  };
}

export function fill(o: Order, qty: DecimalLike, price: DecimalLike, over: Partial<Fill> = {}): Fill {
  return {
    tradeId: tradeId(`t-${o.clientOrderId}-${D(qty).toFixed()}-${D(price).toFixed()}`),
    ...(o.venueOrderId ? { venueOrderId: o.venueOrderId } : {}),
    clientOrderId: o.clientOrderId,
    strategyId: o.strategyId,
    symbol: o.symbol,
    kind: o.kind,
    side: o.side,
    price: D(price),
    quantity: D(qty),
    fee: ZERO,
    feeAsset: 'USDT',
    liquidity: 'maker',
    time: 1,
    ...over,
  };
}

export interface BookSpec {
  bids?: [DecimalLike, DecimalLike][];
  asks?: [DecimalLike, DecimalLike][];
  last?: DecimalLike;
  fair?: DecimalLike;
  pollTime?: number;
}

export function snapshot(symbol: InstrumentSymbol, spec: BookSpec = {}): MarketSnapshot {
  const kind = symbol.includes('_') ? 'contract' : 'spot';
  return {
    symbol,
    kind,
    pollTime: spec.pollTime ?? 0,
    book: {
      bids: (spec.bids ?? []).map(([p, q]) => ({ price: D(p), quantity: D(q) })),
      asks: (spec.asks ?? []).map(([p, q]) => ({ price: D(p), quantity: D(q) })),
    },
    ...(spec.last !== undefined ? { ticker24h: { lastPrice: D(spec.last) } } : {}),
    ...(spec.fair !== undefined ? { fairPrice: { price: D(spec.fair) } } : {}),
  };
}

export function balance(asset: string, free: DecimalLike, locked: DecimalLike = 0): Balance {
  return { asset, free: D(free), locked: D(locked) };
}

export function account(kind: 'spot' | 'contract', ...balances: Balance[]): AccountSnapshot {
  return { kind, balances: Object.fromEntries(balances.map((b) => [b.asset, b])), time: 0 };
}

export function position(
  symbol: InstrumentSymbol,
  qty: DecimalLike,
  entry: DecimalLike,
  leg: PositionLeg = 'net',
  over: Partial<Position> = {},
): Position {
  const contract = symbol.includes('_');
  return {
    symbol,
    kind: contract ? 'contract' : 'spot',
    leg,
    quantity: D(qty),
    entryPrice: D(entry),
    multiplier: contract ? D('0.0001') : D(1),
    settleAsset: 'USDT',
    realizedPnl: ZERO,
    fees: ZERO,
    funding: ZERO,
    updatedAt: 0,
    ...over,
  };
}
