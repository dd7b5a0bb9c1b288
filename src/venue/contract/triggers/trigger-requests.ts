/**
 * Commands of the trigger orders as the HTTP layer (or a simulated gateway) parsed them; numbers may
 * still be strings. Optional fields follow the venue's defaults (trend 1, reverse 2, market
 * execution, SAME volumes, volType 1).
 */
import type { DecimalLike } from '../../../core/decimal.js';
import type { ContractOrderType, ContractSide, OpenType, PositionMode } from '../../../domain/contract-enums.js';
import type { PageQuery } from '../contract-requests.js';

/** A TP/SL price: null, 0, '' and absent all mean "no price" (and cancel the leg where that applies). */
export type TpSlPrice = DecimalLike | null | undefined;

/** POST stoporder/place: TP/SL on an open position. */
export interface PlaceStopOrderRequest {
  /** When given it must be the position's contract. */
  readonly symbol?: string | undefined;
  readonly positionId: string | number;
  /** Contracts to close (volType 1); ignored by a position-level stop, which follows the position. */
  readonly vol: DecimalLike;
  readonly lossTrend?: number | undefined;
  readonly profitTrend?: number | undefined;
  readonly stopLossPrice?: TpSlPrice;
  readonly takeProfitPrice?: TpSlPrice;
  readonly priceProtect?: number | undefined;
  readonly profitLossVolType?: 'SAME' | 'SEPARATE' | undefined;
  readonly takeProfitVol?: DecimalLike | undefined;
  readonly stopLossVol?: DecimalLike | undefined;
  readonly volType?: number | undefined;
  readonly takeProfitReverse?: number | undefined;
  readonly stopLossReverse?: number | undefined;
  readonly takeProfitType?: number | undefined;
  readonly takeProfitOrderPrice?: DecimalLike | undefined;
  readonly stopLossType?: number | undefined;
  readonly stopLossOrderPrice?: DecimalLike | undefined;
}

/** POST stoporder/change_price: sets, replaces or (both prices empty / 0) cancels the TP/SL of a limit order. */
export interface ChangeStopPriceRequest {
  readonly orderId: string | number;
  readonly stopLossPrice?: TpSlPrice;
  readonly takeProfitPrice?: TpSlPrice;
  readonly lossTrend?: number | undefined;
  readonly profitTrend?: number | undefined;
  readonly takeProfitReverse?: number | undefined;
  readonly stopLossReverse?: number | undefined;
}

/** POST stoporder/change_plan_price: a price > 0 sets that leg, 0 removes it, absent keeps it. */
export interface ChangeStopPlanPriceRequest {
  readonly stopPlanOrderId: string | number;
  readonly stopLossPrice?: TpSlPrice;
  readonly takeProfitPrice?: TpSlPrice;
  readonly lossTrend?: number | undefined;
  readonly profitTrend?: number | undefined;
  readonly takeProfitReverse?: number | undefined;
  readonly stopLossReverse?: number | undefined;
}

/** POST planorder/change_stop_order: TP/SL of a trigger order (rules of contract-api.md §4.5). */
export interface ChangePlanStopOrderRequest {
  readonly symbol: string;
  readonly orderId: string | number;
  readonly lossTrend?: number | undefined;
  readonly profitTrend?: number | undefined;
  readonly stopLossPrice?: TpSlPrice;
  readonly takeProfitPrice?: TpSlPrice;
}

export interface StopOrdersQuery extends PageQuery {
  readonly symbol?: string | undefined;
  readonly isFinished?: number | undefined;
  readonly state?: number | undefined;
  /** Position type: 1 long, 2 short. */
  readonly positionType?: number | undefined;
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
}

export interface CancelAllStopOrdersRequest {
  readonly positionId?: string | number | undefined;
  readonly symbol?: string | undefined;
}

/** POST planorder/place and place/v2. */
export interface PlacePlanOrderRequest {
  readonly symbol: string;
  /** Required unless orderType is 5 (market). */
  readonly price?: DecimalLike | undefined;
  readonly vol: DecimalLike;
  readonly leverage?: number | undefined;
  readonly side: ContractSide;
  readonly openType: OpenType;
  readonly triggerPrice: DecimalLike;
  /** 1: fires when the price is ≥ triggerPrice; 2: when ≤. */
  readonly triggerType: number;
  /** Validity in HOURS (the wire's request codes 1 / 2 are 24 / 168 hours). */
  readonly executeCycle: number;
  readonly orderType: ContractOrderType;
  readonly trend: number;
  readonly positionMode?: PositionMode | undefined;
  readonly reduceOnly?: boolean | undefined;
  readonly priceProtect?: number | undefined;
  readonly lossTrend?: number | undefined;
  readonly profitTrend?: number | undefined;
  readonly stopLossPrice?: TpSlPrice;
  readonly takeProfitPrice?: TpSlPrice;
}

export interface PlanOrderRef {
  readonly symbol?: string | undefined;
  readonly orderId: string | number;
}

export interface PlanOrdersQuery extends PageQuery {
  readonly symbol?: string | undefined;
  readonly states?: readonly number[] | undefined;
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
}

/** POST trackorder/place. */
export interface PlaceTrackOrderRequest {
  readonly symbol: string;
  readonly leverage: number;
  readonly side: ContractSide;
  readonly vol: DecimalLike;
  readonly openType: OpenType;
  readonly trend: number;
  /** 1: backValue is a fraction of the benchmark (0.01 = 1 %); 2: an amount in quote currency. */
  readonly backType: number;
  readonly backValue: DecimalLike;
  readonly positionMode: PositionMode;
  /** Absent: active at once. */
  readonly activePrice?: DecimalLike | undefined;
  readonly reduceOnly?: boolean | undefined;
}

/** POST trackorder/change_order (states 0 and 1 only). */
export interface ChangeTrackOrderRequest {
  readonly symbol: string;
  readonly trackOrderId: string | number;
  readonly trend: number;
  readonly backType: number;
  readonly backValue: DecimalLike;
  readonly vol: DecimalLike;
  /** Applies while the order is inactive; absent keeps the current one. */
  readonly activePrice?: DecimalLike | undefined;
}

/** POST trackorder/cancel: one order by id, every live one of a contract, or every live one. */
export interface CancelTrackOrdersRequest {
  readonly symbol?: string | undefined;
  readonly trackOrderId?: string | number | undefined;
}

export interface TrackOrdersQuery {
  /** Empty or absent: every state. */
  readonly states?: readonly number[] | undefined;
  readonly symbol?: string | undefined;
  readonly side?: number | undefined;
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
  readonly pageIndex?: number | undefined;
  readonly pageSize?: number | undefined;
}
