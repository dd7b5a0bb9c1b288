/**
 * Domain orders ↔ the contract wire (/api/v1/private). Pure functions; the gateway resolves what
 * needs the venue (position mode, the side's leverage and margin type) and passes it in.
 *
 * Side (1 open long, 2 close short, 3 open short, 4 close long):
 *   hedged mode, positionSide given: buy+long 1 · sell+long 4 · sell+short 3 · buy+short 2
 *   hedged mode, no positionSide:    buy 1 / sell 3, or with reduceOnly buy 2 / sell 4
 *   one-way mode (no positionSide):  buy 1 / sell 3, or with reduceOnly buy 2 / sell 4 and
 *                                    `reduceOnly: true` on the wire (accepted only in one-way mode)
 * Type: limit gtc 1 · post-only 2 · ioc 3 · fok 4 · market 5 (or 6, "market converted to the current
 * price", when configured); a market order has price 0 on the wire (the venue ignores it).
 * openType: isolated 1 · cross 2. TP/SL trigger prices on create carry profitTrend / lossTrend from
 * the trigger price type (last 1 · fair 2 · index 3).
 */
import { toPlain, type Decimal, ZERO } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import { clientOrderId, orderId, type ContractSymbol } from '../../core/ids.js';
import type { ContractOrder, ContractPosition } from '../../api/contract/order-schemas.js';
import {
  ContractOrderState,
  ContractOrderType,
  ContractSide,
  isOpenSide,
  OpenType,
  PositionMode,
  PositionState,
  PositionType,
  PriceTrend,
  sideIsBuy,
  sidePositionType,
  type ContractStpMode,
} from '../../domain/contract-enums.js';
import { syntheticTradeId, type Fill } from '../../domain/fill.js';
import type { ContractInstrument } from '../../domain/instrument.js';
import type {
  MarginMode,
  OrderSpec,
  OrderStatus,
  OrderType,
  PositionSide,
  TimeInForce,
  TriggerPriceType,
  VenueOrder,
} from '../../domain/order.js';
import type { Position } from '../../domain/position.js';
import type { Balance } from '../../domain/balance.js';
import type { PlaceRequest } from '../exchange-gateway.js';
import { checkClientId } from './client-id-check.js';
import { limitPriceOnTick, quantityOnStep, triggerPriceOnTick } from './order-rounding.js';

export const CONTRACT_CLIENT_ID_MAX = 32;

export const TRIGGER_TREND: Readonly<Record<TriggerPriceType, PriceTrend>> = {
  last: PriceTrend.LATEST,
  fair: PriceTrend.FAIR,
  index: PriceTrend.INDEX,
};
export const OPEN_TYPE: Readonly<Record<MarginMode, OpenType>> = { isolated: OpenType.ISOLATED, cross: OpenType.CROSS };
export const marginModeOf = (t: number | undefined): MarginMode | undefined =>
  t === OpenType.ISOLATED ? 'isolated' : t === OpenType.CROSS ? 'cross' : undefined;
export const positionTypeOf = (s: PositionSide): PositionType => (s === 'long' ? PositionType.LONG : PositionType.SHORT);

/** The create-order body, as the client takes it (decimals as plain strings; the schema sends JSON numbers). */
export interface ContractOrderWire {
  readonly symbol: string;
  readonly price: string;
  readonly vol: string;
  readonly leverage?: number;
  readonly side: ContractSide;
  readonly type: ContractOrderType;
  readonly openType: OpenType;
  readonly externalOid: string;
  readonly positionMode: PositionMode;
  readonly reduceOnly?: true;
  readonly takeProfitPrice?: string;
  readonly profitTrend?: PriceTrend;
  readonly stopLossPrice?: string;
  readonly lossTrend?: PriceTrend;
  readonly stpMode?: ContractStpMode;
}

export interface ContractOrderContext {
  /** The account's position mode as the gateway knows it. */
  readonly positionMode: PositionMode;
  /** Leverage to send; required for an opening order. */
  readonly leverage?: number;
  readonly openType: OpenType;
  readonly stpMode?: ContractStpMode;
  /** Type code of market orders: 5 (default) or 6. */
  readonly marketType?: typeof ContractOrderType.MARKET | typeof ContractOrderType.MARKET_TO_LIMIT;
}

/** Side code from side + position side / reduce-only + position mode (table in the module comment). */
export function contractSide(spec: Pick<OrderSpec, 'side' | 'positionSide' | 'reduceOnly'>, mode: PositionMode): ContractSide {
  const buy = spec.side === 'buy';
  if (spec.positionSide !== undefined) {
    if (mode === PositionMode.ONE_WAY)
      throw new ValidationError('order.positionSide', 'absent in one-way position mode (use reduceOnly to reduce)', spec.positionSide);
    const side =
      spec.positionSide === 'long'
        ? buy
          ? ContractSide.OPEN_LONG
          : ContractSide.CLOSE_LONG
        : buy
          ? ContractSide.CLOSE_SHORT
          : ContractSide.OPEN_SHORT;
    if (spec.reduceOnly && isOpenSide(side))
      throw new ValidationError('order.reduceOnly', `false: a ${spec.side} on the ${spec.positionSide} leg opens, it cannot reduce`, true);
    return side;
  }
  if (spec.reduceOnly) return buy ? ContractSide.CLOSE_SHORT : ContractSide.CLOSE_LONG;
  return buy ? ContractSide.OPEN_LONG : ContractSide.OPEN_SHORT;
}

/** Whether an order with this side opens (adds) position: it then needs a leverage. */
export const opensPosition = (side: ContractSide, reduceOnly: boolean | undefined, mode: PositionMode): boolean =>
  isOpenSide(side) && !(mode === PositionMode.ONE_WAY && reduceOnly === true);

const LIMIT_TYPES: Readonly<Record<TimeInForce, ContractOrderType>> = {
  gtc: ContractOrderType.LIMIT,
  'post-only': ContractOrderType.POST_ONLY,
  ioc: ContractOrderType.IOC,
  fok: ContractOrderType.FOK,
};

export function contractOrderType(
  type: OrderType,
  tif: TimeInForce,
  marketType: ContractOrderContext['marketType'] = ContractOrderType.MARKET,
): ContractOrderType {
  if (type === 'limit') return LIMIT_TYPES[tif];
  if (tif === 'gtc' || tif === 'ioc') return marketType;
  throw new ValidationError('order.timeInForce', 'gtc or ioc for a market order', tif);
}

export function contractOrderParams(req: PlaceRequest, instrument: ContractInstrument, ctx: ContractOrderContext): ContractOrderWire {
  const o = req.order;
  if (o.kind !== 'contract') throw new ValidationError('order.kind', 'contract (this is the contract gateway)', o.kind);
  if (o.symbol !== instrument.symbol) throw new ValidationError('order.symbol', instrument.symbol, o.symbol);
  if (o.quoteQuantity) throw new ValidationError('order.quoteQuantity', 'absent on contract orders (sizes are in contracts)');
  if (!o.quantity) throw new ValidationError('order.quantity', 'a quantity in contracts');
  checkClientId(req.clientOrderId, CONTRACT_CLIENT_ID_MAX);
  const side = contractSide(o, ctx.positionMode);
  const type = contractOrderType(o.type, o.timeInForce, ctx.marketType);
  const vol = quantityOnStep(o.quantity, instrument.volUnit);
  let price: Decimal = ZERO;
  if (o.type === 'limit') {
    if (!o.price) throw new ValidationError('order.price', 'a price for a limit order');
    price = limitPriceOnTick(o.price, instrument.priceUnit, o.side);
  }
  const opening = opensPosition(side, o.reduceOnly, ctx.positionMode);
  const leverage = o.leverage ?? ctx.leverage;
  if (opening && leverage === undefined)
    throw new ValidationError('order.leverage', 'a leverage for an order that opens position (in the order, or set with setLeverage)');
  if (leverage !== undefined && (!Number.isInteger(leverage) || leverage < instrument.minLeverage || leverage > instrument.maxLeverage)) {
    throw new ValidationError('order.leverage', `an integer ${instrument.minLeverage}..${instrument.maxLeverage}`, leverage);
  }
  const trend = TRIGGER_TREND[o.triggerPriceType ?? 'last'];
  return {
    symbol: o.symbol,
    price: toPlain(price),
    vol: toPlain(vol),
    ...(leverage !== undefined ? { leverage } : {}),
    side,
    type,
    openType: ctx.openType,
    externalOid: req.clientOrderId,
    positionMode: ctx.positionMode,
    ...(ctx.positionMode === PositionMode.ONE_WAY && o.reduceOnly ? { reduceOnly: true as const } : {}),
    ...(o.takeProfitPrice
      ? {
          takeProfitPrice: toPlain(triggerPriceOnTick(o.takeProfitPrice, instrument.priceUnit, 'order.takeProfitPrice')),
          profitTrend: trend,
        }
      : {}),
    ...(o.stopLossPrice
      ? { stopLossPrice: toPlain(triggerPriceOnTick(o.stopLossPrice, instrument.priceUnit, 'order.stopLossPrice')), lossTrend: trend }
      : {}),
    ...(ctx.stpMode !== undefined ? { stpMode: ctx.stpMode } : {}),
  };
}

const TYPE_BACK: Readonly<Record<number, { type: OrderType; timeInForce: TimeInForce }>> = {
  [ContractOrderType.LIMIT]: { type: 'limit', timeInForce: 'gtc' },
  [ContractOrderType.POST_ONLY]: { type: 'limit', timeInForce: 'post-only' },
  [ContractOrderType.IOC]: { type: 'limit', timeInForce: 'ioc' },
  [ContractOrderType.FOK]: { type: 'limit', timeInForce: 'fok' },
  [ContractOrderType.MARKET]: { type: 'market', timeInForce: 'ioc' },
  [ContractOrderType.MARKET_TO_LIMIT]: { type: 'market', timeInForce: 'ioc' },
};

/** Types the venue closes itself when they cannot fill: "cancelled" for them means expired. */
const IMMEDIATE: ReadonlySet<number> = new Set([
  ContractOrderType.IOC,
  ContractOrderType.FOK,
  ContractOrderType.MARKET,
  ContractOrderType.MARKET_TO_LIMIT,
]);

export function contractOrderStatus(o: Pick<ContractOrder, 'state' | 'orderType' | 'dealVol'>): OrderStatus {
  switch (o.state) {
    case ContractOrderState.PENDING:
      return 'submitted';
    case ContractOrderState.UNCOMPLETED:
      return o.dealVol && o.dealVol.gt(0) ? 'partially-filled' : 'accepted';
    case ContractOrderState.COMPLETED:
      return 'filled';
    case ContractOrderState.CANCELLED:
      return IMMEDIATE.has(o.orderType) ? 'expired' : 'cancelled';
    case ContractOrderState.INVALID:
      return 'rejected';
  }
}

/** Position side of an order in hedged mode (undefined one-way). */
function positionSideOf(side: ContractSide, mode: PositionMode): PositionSide | undefined {
  if (mode !== PositionMode.HEDGED) return undefined;
  return sidePositionType(side) === PositionType.LONG ? 'long' : 'short';
}

/** A venue order → VenueOrder; the order's own positionMode wins over the gateway's belief. */
export function venueOrderFromContract(o: ContractOrder, accountMode: PositionMode): VenueOrder {
  const { type, timeInForce } = TYPE_BACK[o.orderType] ?? { type: 'limit', timeInForce: 'gtc' };
  const mode = o.positionMode === PositionMode.ONE_WAY || o.positionMode === PositionMode.HEDGED ? o.positionMode : accountMode;
  const filledQty = o.dealVol ?? ZERO;
  const positionSide = positionSideOf(o.side, mode);
  return {
    venueOrderId: orderId(o.orderId),
    ...(o.externalOid ? { clientOrderId: clientOrderId(o.externalOid) } : {}),
    symbol: o.symbol as ContractSymbol,
    kind: 'contract',
    side: sideIsBuy(o.side) ? 'buy' : 'sell',
    type,
    timeInForce,
    ...(o.price.gt(0) && type === 'limit' ? { price: o.price } : {}),
    quantity: o.vol,
    status: contractOrderStatus(o),
    filledQty,
    ...(filledQty.gt(0) && o.dealAvgPrice ? { avgFillPrice: o.dealAvgPrice } : {}),
    ...(positionSide ? { positionSide } : {}),
    ...(!isOpenSide(o.side) || o.reduceOnly === true ? { reduceOnly: true } : {}),
    ...(o.leverage !== undefined && o.leverage > 0 ? { leverage: o.leverage } : {}),
    ...(o.createTime !== undefined ? { createdAt: o.createTime } : {}),
    ...(o.updateTime !== undefined ? { updatedAt: o.updateTime } : {}),
  };
}

/**
 * The contract API lists no own trades, only orders with their cumulative fill (dealVol at
 * dealAvgPrice). Each order with a fill becomes ONE synthetic fill for its cumulative quantity, with
 * the trade id reconcile() uses for the same cumulative gap (`syn:<orderId>:<dealVol>`), so the two
 * paths never count the same quantity twice; the fee is the order's total fee.
 */
export function fillFromContractOrder(o: ContractOrder, settleCoin: string, accountMode: PositionMode): Fill | undefined {
  const qty = o.dealVol ?? ZERO;
  if (qty.lte(0) || !o.dealAvgPrice) return undefined;
  const mode = o.positionMode === PositionMode.ONE_WAY || o.positionMode === PositionMode.HEDGED ? o.positionMode : accountMode;
  const positionSide = positionSideOf(o.side, mode);
  const taker = o.takerFee ?? ZERO;
  const maker = o.makerFee ?? ZERO;
  return {
    tradeId: syntheticTradeId(String(o.orderId), qty),
    venueOrderId: orderId(o.orderId),
    ...(o.externalOid ? { clientOrderId: clientOrderId(o.externalOid) } : {}),
    symbol: o.symbol as ContractSymbol,
    kind: 'contract',
    side: sideIsBuy(o.side) ? 'buy' : 'sell',
    price: o.dealAvgPrice,
    quantity: qty,
    fee: o.totalFee ?? taker.plus(maker),
    feeAsset: o.feeCurrency ?? settleCoin,
    liquidity: taker.gt(0) && maker.lte(0) ? 'taker' : maker.gt(0) && taker.lte(0) ? 'maker' : taker.gt(0) ? 'taker' : 'maker',
    time: o.updateTime ?? o.createTime ?? 0,
    ...(positionSide ? { positionSide } : {}),
    ...(!isOpenSide(o.side) || o.reduceOnly === true ? { reduceOnly: true } : {}),
    ...(o.profit !== undefined ? { realizedPnl: o.profit } : {}),
    synthetic: true,
  };
}

/** A held position → Position (signed quantity: long > 0, short < 0; leg net in one-way mode). */
export function positionFromContract(
  p: ContractPosition,
  instrument: ContractInstrument,
  mode: PositionMode,
  now: number,
): Position | undefined {
  if (p.state === PositionState.CLOSED || p.holdVol.lte(0)) return undefined;
  const long = p.positionType === PositionType.LONG;
  const marginMode = marginModeOf(p.openType);
  return {
    symbol: instrument.symbol,
    kind: 'contract',
    leg: mode === PositionMode.ONE_WAY ? 'net' : long ? 'long' : 'short',
    quantity: long ? p.holdVol : p.holdVol.neg(),
    entryPrice: p.holdAvgPrice ?? p.openAvgPrice ?? ZERO,
    multiplier: instrument.contractSize,
    settleAsset: instrument.settleCoin,
    realizedPnl: p.realised ?? ZERO,
    fees: p.totalFee ?? p.fee ?? ZERO,
    funding: p.holdFee ?? ZERO,
    ...(p.leverage !== undefined && p.leverage > 0 ? { leverage: p.leverage } : {}),
    ...(marginMode ? { marginMode } : {}),
    ...(p.liquidatePrice && p.liquidatePrice.gt(0) ? { liquidationPrice: p.liquidatePrice } : {}),
    ...(p.im !== undefined ? { margin: p.im } : {}),
    updatedAt: p.updateTime ?? now,
  };
}

/** The contract fields of an asset, as the venue's assets list and the emulator's engine both name them. */
export interface ContractAssetFigures {
  readonly currency: string;
  readonly availableBalance: Decimal;
  readonly frozenBalance: Decimal;
  readonly positionMargin: Decimal;
  readonly equity: Decimal;
  readonly unrealized: Decimal;
}

/** A contract asset → Balance (free = available, locked = frozen; margin, equity and unrealised PnL as read). */
export function balanceFromContractAsset(a: ContractAssetFigures): Balance {
  return {
    asset: a.currency,
    free: a.availableBalance,
    locked: a.frozenBalance,
    positionMargin: a.positionMargin,
    equity: a.equity,
    unrealizedPnl: a.unrealized,
  };
}
