/**
 * Response records of the private contract API: order (2.5), position (2.4), stop order (2.7),
 * trigger (plan) order, trailing order (2.8), per-order cancel results. Money and sizes are Decimal,
 * times are ms numbers, ids are strings; unknown fields are kept.
 */
import { z } from 'zod';
import { ContractOrderState, ContractOrderType, ContractSide, OpenType, PositionState, PositionType } from '../../domain/contract-enums.js';
import { bool, codeOf, dec, enumValues, int, obj, opt, venueId } from './response-primitives.js';

const side = codeOf(enumValues(ContractSide), 'side');
const orderType = codeOf(enumValues(ContractOrderType), 'orderType');
const orderState = codeOf(enumValues(ContractOrderState), 'state');
const openType = codeOf(enumValues(OpenType), 'openType');
const positionType = codeOf(enumValues(PositionType), 'positionType');
const positionState = codeOf(enumValues(PositionState), 'state');
const text = z.string();

/** Order (contract-api.md 2.5). */
export const contractOrderSchema = obj({
  orderId: venueId,
  symbol: text,
  positionId: opt(venueId),
  price: dec,
  priceStr: opt(text),
  vol: dec,
  leverage: opt(int),
  side,
  category: opt(int),
  orderType,
  dealAvgPrice: opt(dec),
  dealAvgPriceStr: opt(text),
  dealVol: opt(dec),
  orderMargin: opt(dec),
  usedMargin: opt(dec),
  takerFee: opt(dec),
  makerFee: opt(dec),
  profit: opt(dec),
  feeCurrency: opt(text),
  totalFee: opt(dec),
  openType: opt(openType),
  state: orderState,
  externalOid: opt(text),
  /** 0–7 as in 2.5; the venue also reports other codes (8 system cancel), so it is not restricted. */
  errorCode: opt(int),
  createTime: opt(int),
  updateTime: opt(int),
  positionMode: opt(int),
  reduceOnly: opt(bool),
  bboTypeNum: opt(int),
  lossTrend: opt(int),
  profitTrend: opt(int),
  takeProfitPrice: opt(dec),
  stopLossPrice: opt(dec),
  priceProtect: opt(int),
  pnlRate: opt(dec),
  openAvgPrice: opt(dec),
  version: opt(int),
});
export type ContractOrder = z.output<typeof contractOrderSchema>;

/** Position (2.4). */
export const contractPositionSchema = obj({
  positionId: venueId,
  symbol: text,
  positionType,
  openType: opt(openType),
  state: positionState,
  holdVol: dec,
  frozenVol: opt(dec),
  closeVol: opt(dec),
  holdAvgPrice: opt(dec),
  holdAvgPriceFullyScale: opt(dec),
  openAvgPrice: opt(dec),
  openAvgPriceFullyScale: opt(dec),
  closeAvgPrice: opt(dec),
  newOpenAvgPrice: opt(dec),
  newCloseAvgPrice: opt(dec),
  liquidatePrice: opt(dec),
  oim: opt(dec),
  im: opt(dec),
  holdFee: opt(dec),
  realised: opt(dec),
  leverage: opt(int),
  marginRatio: opt(dec),
  autoAddIm: opt(bool),
  profitRatio: opt(dec),
  closeProfitLoss: opt(dec),
  fee: opt(dec),
  totalFee: opt(dec),
  adlLevel: opt(int),
  createTime: opt(int),
  updateTime: opt(int),
  version: opt(int),
  positionShowStatus: opt(text),
});
export type ContractPosition = z.output<typeof contractPositionSchema>;

/** Take-profit / stop-loss order (2.7). */
export const stopOrderSchema = obj({
  id: venueId,
  symbol: text,
  /** The limit order it hangs on; "0" when placed on a position. */
  orderId: opt(venueId),
  positionId: opt(venueId),
  lossTrend: opt(int),
  profitTrend: opt(int),
  stopLossPrice: opt(dec),
  takeProfitPrice: opt(dec),
  state: opt(int),
  triggerSide: opt(int),
  positionType: opt(int),
  vol: opt(dec),
  realityVol: opt(dec),
  placeOrderId: opt(venueId),
  errorCode: opt(int),
  isFinished: opt(int),
  version: opt(int),
  priceProtect: opt(int),
  profitLossVolType: opt(text),
  takeProfitVol: opt(dec),
  stopLossVol: opt(dec),
  volType: opt(int),
  takeProfitReverse: opt(int),
  stopLossReverse: opt(int),
  takeProfitType: opt(int),
  stopLossType: opt(int),
  takeProfitOrderPrice: opt(dec),
  stopLossOrderPrice: opt(dec),
  createTime: opt(int),
  updateTime: opt(int),
  closeTryTimes: opt(int),
  reverseTryTimes: opt(int),
  reverseErrorCode: opt(int),
});
export type StopOrder = z.output<typeof stopOrderSchema>;

/** Trigger (plan) order, from planorder/list/orders (fields as in the real exchange's documentation). */
export const planOrderSchema = obj({
  id: venueId,
  symbol: text,
  leverage: opt(int),
  side,
  triggerPrice: dec,
  price: opt(dec),
  vol: dec,
  openType: opt(openType),
  triggerType: int,
  state: int,
  /** Execution window in HOURS in responses (87600 in the fixture), unlike the 1/2 code of requests. */
  executeCycle: opt(int),
  trend: opt(int),
  orderType: opt(int),
  orderId: opt(venueId),
  errorCode: opt(int),
  createTime: opt(int),
  updateTime: opt(int),
  positionMode: opt(int),
  reduceOnly: opt(bool),
  lossTrend: opt(int),
  profitTrend: opt(int),
  stopLossPrice: opt(dec),
  takeProfitPrice: opt(dec),
  priceProtect: opt(int),
});
export type PlanOrder = z.output<typeof planOrderSchema>;

/** Trailing order (2.8). */
export const trackOrderSchema = obj({
  id: venueId,
  symbol: text,
  leverage: opt(int),
  side: opt(side),
  vol: opt(dec),
  openType: opt(int),
  trend: opt(int),
  activePrice: opt(dec),
  markPrice: opt(dec),
  backType: opt(int),
  backValue: opt(dec),
  triggerPrice: opt(dec),
  orderId: opt(venueId),
  errorCode: opt(int),
  state: opt(int),
  createTime: opt(int),
  updateTime: opt(int),
  positionMode: opt(int),
  reduceOnly: opt(bool),
  triggerType: opt(int),
});
export type TrackOrder = z.output<typeof trackOrderSchema>;

/**
 * One element of a cancel answer: errorCode 0 cancelled, 2040 order does not exist, 2041 state
 * cannot be cancelled. The external-id variants may name the order by externalOid only.
 */
export const cancelResultSchema = obj({
  orderId: opt(venueId),
  externalOid: opt(text),
  symbol: opt(text),
  errorCode: int,
  errorMsg: opt(text),
});
export type CancelResult = z.output<typeof cancelResultSchema>;

/** Per-order result of submit_batch: orderId is null on failure. */
export const batchOrderResultSchema = obj({
  orderId: opt(venueId),
  externalOid: opt(text),
  errorCode: int,
  errorMsg: opt(text),
});
export type BatchOrderResult = z.output<typeof batchOrderResultSchema>;
