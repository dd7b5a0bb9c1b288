/**
 * Read-only snapshots of the trigger orders the venue keeps beside its book: take-profit / stop-loss
 * (stop) orders (contract-api.md §2.7), trigger (plan) orders and trailing orders (§2.8). Prices and
 * volumes are Decimal; the HTTP layer formats them. A view never aliases engine state.
 */
import type { Decimal } from '../../../core/decimal.js';
import type { AccountId, ContractSymbol } from '../../../core/ids.js';
import type {
  BackType,
  ContractOrderType,
  ContractSide,
  OpenType,
  PlanOrderState,
  PositionMode,
  PositionType,
  PriceTrend,
  ProfitLossVolType,
  ReverseFlag,
  StopExecType,
  StopOrderState,
  StopVolType,
  TrackOrderState,
  TriggerSide,
  TriggerType,
} from '../../../domain/contract-enums.js';

export interface StopOrderView {
  readonly accountId: AccountId;
  readonly id: string;
  readonly symbol: ContractSymbol;
  /** The limit order the TP/SL hangs on; '0' when it was placed on a position. */
  readonly orderId: string;
  /** The position it closes; '0' while its limit order has not filled. */
  readonly positionId: string;
  readonly positionType: PositionType;
  readonly lossTrend: PriceTrend;
  readonly profitTrend: PriceTrend;
  readonly stopLossPrice: Decimal | undefined;
  readonly takeProfitPrice: Decimal | undefined;
  readonly state: StopOrderState;
  readonly triggerSide: TriggerSide;
  /**
   * Contracts it closes: the filled volume of its limit order, the placed vol (volType 1), or the
   * position's current holdVol while a position-level (volType 2) stop is untriggered.
   */
  readonly vol: Decimal;
  /** Volume of the close order placed on trigger (0 before). */
  readonly realityVol: Decimal;
  /** The close order placed on trigger; '0' before. */
  readonly placeOrderId: string;
  /** Order errorCode (§2.5) of a failed trigger; 0 otherwise. */
  readonly errorCode: number;
  /** 1 once the stop order is in a final state (2–5). */
  readonly isFinished: 0 | 1;
  /** Bumped on every change. */
  readonly version: number;
  readonly priceProtect: 0 | 1;
  readonly profitLossVolType: ProfitLossVolType;
  readonly takeProfitVol: Decimal | undefined;
  readonly stopLossVol: Decimal | undefined;
  readonly volType: StopVolType;
  readonly takeProfitReverse: ReverseFlag;
  readonly stopLossReverse: ReverseFlag;
  readonly takeProfitType: StopExecType;
  readonly stopLossType: StopExecType;
  readonly takeProfitOrderPrice: Decimal | undefined;
  readonly stopLossOrderPrice: Decimal | undefined;
  readonly closeTryTimes: number;
  readonly reverseTryTimes: number;
  /** Venue code of a failed reverse (0 when none failed). */
  readonly reverseErrorCode: number;
  /** The opening order of the reverse, once placed. */
  readonly reverseOrderId: string | undefined;
  readonly createTime: number;
  readonly updateTime: number;
}

export interface PlanOrderView {
  readonly accountId: AccountId;
  readonly id: string;
  readonly symbol: ContractSymbol;
  readonly leverage: number | undefined;
  readonly side: ContractSide;
  readonly vol: Decimal;
  /** Execution price (0 for a market plan order without one). */
  readonly price: Decimal;
  readonly openType: OpenType;
  readonly triggerPrice: Decimal;
  readonly triggerType: TriggerType;
  readonly trend: PriceTrend;
  /** Order type placed on trigger (1–5). */
  readonly orderType: ContractOrderType;
  readonly state: PlanOrderState;
  /** Validity in hours from createTime; untriggered past it the plan order is invalid (state 4). */
  readonly executeCycle: number;
  readonly expireTime: number;
  /** The order placed on trigger; undefined before. */
  readonly orderId: string | undefined;
  readonly errorCode: number;
  readonly positionMode: PositionMode | undefined;
  readonly reduceOnly: boolean;
  readonly priceProtect: 0 | 1;
  readonly lossTrend: PriceTrend | undefined;
  readonly profitTrend: PriceTrend | undefined;
  readonly stopLossPrice: Decimal | undefined;
  readonly takeProfitPrice: Decimal | undefined;
  readonly createTime: number;
  readonly updateTime: number;
}

export interface TrackOrderView {
  readonly accountId: AccountId;
  readonly id: string;
  readonly symbol: ContractSymbol;
  readonly leverage: number;
  readonly side: ContractSide;
  readonly vol: Decimal;
  readonly openType: OpenType;
  readonly trend: PriceTrend;
  readonly activePrice: Decimal | undefined;
  /** Benchmark: highest price since activation (sell side), lowest (buy side); undefined while inactive. */
  readonly markPrice: Decimal | undefined;
  readonly backType: BackType;
  readonly backValue: Decimal;
  /** benchmark ∓ callback, rounded to the tick away from the benchmark; undefined while inactive. */
  readonly triggerPrice: Decimal | undefined;
  /** The market order placed on trigger. */
  readonly orderId: string | undefined;
  readonly errorCode: number;
  readonly state: TrackOrderState;
  readonly positionMode: PositionMode;
  readonly reduceOnly: boolean;
  /** How it fires: 2 (≤ triggerPrice) for the sell sides 3 and 4, 1 (≥) for the buy sides 1 and 2. */
  readonly triggerType: TriggerType;
  readonly createTime: number;
  readonly updateTime: number;
}

/** Untriggered stop / plan orders and live trailing orders of an account (open_order_total_count). */
export interface TriggerCounts {
  readonly stop: number;
  readonly plan: number;
  readonly track: number;
}
