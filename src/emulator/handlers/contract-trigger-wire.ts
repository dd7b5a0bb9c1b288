/**
 * Trigger-order views → the venue's JSON, in the field sets of contract-api.md §2.7 (stop order),
 * the real exchange's plan-order list (fixture contract_GET_api_v1_private_planorder_list_orders)
 * and §2.8 (trailing order). Numbers as JSON numbers, like the rest of the contract wire; a price
 * or volume that is not set is null; stop-order ids and position ids as numbers while they fit,
 * order ids and plan / trailing ids as strings (the place/v2 and trackorder/place answers carry
 * string ids).
 */
import type { Decimal } from '../../core/decimal.js';
import type { PlanOrderView, StopOrderView, TrackOrderView } from '../../venue/contract/triggers/trigger-views.js';
import { idValue, n } from './contract-wire.js';

const orNull = (d: Decimal | undefined): number | null => (d === undefined ? null : n(d));

export function stopOrderWire(s: StopOrderView): Record<string, unknown> {
  return {
    id: idValue(s.id),
    symbol: s.symbol,
    orderId: s.orderId,
    positionId: idValue(s.positionId),
    lossTrend: s.lossTrend,
    profitTrend: s.profitTrend,
    stopLossPrice: orNull(s.stopLossPrice),
    takeProfitPrice: orNull(s.takeProfitPrice),
    state: s.state,
    triggerSide: s.triggerSide,
    positionType: s.positionType,
    vol: n(s.vol),
    realityVol: n(s.realityVol),
    placeOrderId: s.placeOrderId,
    errorCode: s.errorCode,
    isFinished: s.isFinished,
    version: s.version,
    priceProtect: s.priceProtect,
    profitLossVolType: s.profitLossVolType,
    takeProfitVol: orNull(s.takeProfitVol),
    stopLossVol: orNull(s.stopLossVol),
    volType: s.volType,
    takeProfitReverse: s.takeProfitReverse,
    stopLossReverse: s.stopLossReverse,
    takeProfitType: s.takeProfitType,
    stopLossType: s.stopLossType,
    takeProfitOrderPrice: orNull(s.takeProfitOrderPrice),
    stopLossOrderPrice: orNull(s.stopLossOrderPrice),
    closeTryTimes: s.closeTryTimes,
    reverseTryTimes: s.reverseTryTimes,
    reverseErrorCode: s.reverseErrorCode,
    createTime: s.createTime,
    updateTime: s.updateTime,
  };
}

export function planOrderWire(p: PlanOrderView): Record<string, unknown> {
  return {
    id: p.id,
    symbol: p.symbol,
    leverage: p.leverage ?? 0,
    side: p.side,
    vol: n(p.vol),
    price: n(p.price),
    openType: p.openType,
    triggerPrice: n(p.triggerPrice),
    triggerType: p.triggerType,
    state: p.state,
    executeCycle: p.executeCycle,
    trend: p.trend,
    orderType: p.orderType,
    orderId: p.orderId ?? null,
    errorCode: p.errorCode,
    createTime: p.createTime,
    updateTime: p.updateTime,
    positionMode: p.positionMode ?? null,
    reduceOnly: p.reduceOnly,
    priceProtect: p.priceProtect,
    lossTrend: p.lossTrend ?? null,
    profitTrend: p.profitTrend ?? null,
    stopLossPrice: orNull(p.stopLossPrice),
    takeProfitPrice: orNull(p.takeProfitPrice),
  };
}

export function trackOrderWire(t: TrackOrderView): Record<string, unknown> {
  return {
    id: t.id,
    symbol: t.symbol,
    leverage: t.leverage,
    side: t.side,
    vol: n(t.vol),
    openType: t.openType,
    trend: t.trend,
    activePrice: orNull(t.activePrice),
    markPrice: orNull(t.markPrice),
    backType: t.backType,
    backValue: n(t.backValue),
    triggerPrice: orNull(t.triggerPrice),
    orderId: t.orderId ?? null,
    errorCode: t.errorCode,
    state: t.state,
    createTime: t.createTime,
    updateTime: t.updateTime,
    positionMode: t.positionMode,
    reduceOnly: t.reduceOnly,
    triggerType: t.triggerType,
  };
}
