/** Contract enumerations under their exact wire codes (contract-api.md §2, wire-protocol.md). */

/** Order side: 1 open long, 2 close short, 3 open short, 4 close long. */
export const ContractSide = { OPEN_LONG: 1, CLOSE_SHORT: 2, OPEN_SHORT: 3, CLOSE_LONG: 4 } as const;
export type ContractSide = (typeof ContractSide)[keyof typeof ContractSide];

/** Order type: 1 limit, 2 post only, 3 IOC, 4 FOK, 5 market, 6 market converted to current price. */
export const ContractOrderType = { LIMIT: 1, POST_ONLY: 2, IOC: 3, FOK: 4, MARKET: 5, MARKET_TO_LIMIT: 6 } as const;
export type ContractOrderType = (typeof ContractOrderType)[keyof typeof ContractOrderType];

/** Order state: 1 pending submission, 2 uncompleted, 3 completed, 4 cancelled, 5 invalid. */
export const ContractOrderState = { PENDING: 1, UNCOMPLETED: 2, COMPLETED: 3, CANCELLED: 4, INVALID: 5 } as const;
export type ContractOrderState = (typeof ContractOrderState)[keyof typeof ContractOrderState];

/** Order category: 1 limit, 2 liquidation custody, 3 custody close, 4 ADL reduction. */
export const OrderCategory = { LIMIT: 1, LIQUIDATION_CUSTODY: 2, CUSTODY_CLOSE: 3, ADL: 4 } as const;
export type OrderCategory = (typeof OrderCategory)[keyof typeof OrderCategory];

/** Order errorCode 0–7 (contract-api.md §2.5). */
export const ContractOrderErrorCode = {
  NORMAL: 0,
  PARAMETER: 1,
  INSUFFICIENT_BALANCE: 2,
  POSITION_NOT_EXIST: 3,
  POSITION_TOO_SMALL: 4,
  PRICE_BEYOND_LIQUIDATION: 5,
  LIQUIDATION_BEYOND_FAIR: 6,
  RISK_LIMIT_EXCEEDED: 7,
} as const;
export type ContractOrderErrorCode = (typeof ContractOrderErrorCode)[keyof typeof ContractOrderErrorCode];

export const OpenType = { ISOLATED: 1, CROSS: 2 } as const;
export type OpenType = (typeof OpenType)[keyof typeof OpenType];

/** Contract detail positionOpenType: 1 isolated, 2 cross, 3 both. */
export const PositionOpenType = { ISOLATED: 1, CROSS: 2, BOTH: 3 } as const;
export type PositionOpenType = (typeof PositionOpenType)[keyof typeof PositionOpenType];

export const PositionType = { LONG: 1, SHORT: 2 } as const;
export type PositionType = (typeof PositionType)[keyof typeof PositionType];

/** Position state: 1 holding, 2 system custody, 3 closed. */
export const PositionState = { HOLDING: 1, CUSTODY: 2, CLOSED: 3 } as const;
export type PositionState = (typeof PositionState)[keyof typeof PositionState];

export const PositionMode = { HEDGED: 1, ONE_WAY: 2 } as const;
export type PositionMode = (typeof PositionMode)[keyof typeof PositionMode];

/** Contract state: 0 enabled, 1 delivery, 2 delivered, 3 offline, 4 paused. */
export const ContractState = { ENABLED: 0, DELIVERY: 1, DELIVERED: 2, OFFLINE: 3, PAUSED: 4 } as const;
export type ContractState = (typeof ContractState)[keyof typeof ContractState];

/** Contract stpMode: 0 none, 1 cancel both, 2 cancel maker only, 3 cancel taker only. */
export const ContractStpMode = { NONE: 0, CANCEL_BOTH: 1, CANCEL_MAKER: 2, CANCEL_TAKER: 3 } as const;
export type ContractStpMode = (typeof ContractStpMode)[keyof typeof ContractStpMode];

/** Price type for triggers: 1 latest, 2 fair, 3 index. */
export const PriceTrend = { LATEST: 1, FAIR: 2, INDEX: 3 } as const;
export type PriceTrend = (typeof PriceTrend)[keyof typeof PriceTrend];

/** Stop-order state: 1 untriggered, 2 cancelled, 3 executed, 4 invalid, 5 failed. */
export const StopOrderState = { UNTRIGGERED: 1, CANCELLED: 2, EXECUTED: 3, INVALID: 4, FAILED: 5 } as const;
export type StopOrderState = (typeof StopOrderState)[keyof typeof StopOrderState];

/** triggerSide: 0 none, 1 take profit, 2 stop loss. */
export const TriggerSide = { NONE: 0, TAKE_PROFIT: 1, STOP_LOSS: 2 } as const;
export type TriggerSide = (typeof TriggerSide)[keyof typeof TriggerSide];

/** Stop-order volType: 1 partial TP/SL, 2 position-level. */
export const StopVolType = { PARTIAL: 1, POSITION: 2 } as const;
export type StopVolType = (typeof StopVolType)[keyof typeof StopVolType];

export const PROFIT_LOSS_VOL_TYPES = ['SAME', 'SEPARATE'] as const;
export type ProfitLossVolType = (typeof PROFIT_LOSS_VOL_TYPES)[number];

/** Reverse after trigger: 1 yes, 2 no. */
export const ReverseFlag = { YES: 1, NO: 2 } as const;
export type ReverseFlag = (typeof ReverseFlag)[keyof typeof ReverseFlag];

/** takeProfitType / stopLossType: 0 market, 1 limit. */
export const StopExecType = { MARKET: 0, LIMIT: 1 } as const;
export type StopExecType = (typeof StopExecType)[keyof typeof StopExecType];

/** Trailing-order state: 0 inactive, 1 active, 2 triggered, 3 trigger failed, 4 cancelled. */
export const TrackOrderState = { INACTIVE: 0, ACTIVE: 1, TRIGGERED: 2, FAILED: 3, CANCELLED: 4 } as const;
export type TrackOrderState = (typeof TrackOrderState)[keyof typeof TrackOrderState];

/** Trailing callback: 1 percent, 2 amount. */
export const BackType = { PERCENT: 1, AMOUNT: 2 } as const;
export type BackType = (typeof BackType)[keyof typeof BackType];

/** Trigger comparison: 1 price ≥ trigger, 2 price ≤ trigger. */
export const TriggerType = { GTE: 1, LTE: 2 } as const;
export type TriggerType = (typeof TriggerType)[keyof typeof TriggerType];

/** Plan-order state (trigger orders): 1 untriggered, 2 cancelled, 3 executed, 4 invalid, 5 failed. */
export const PlanOrderState = StopOrderState;
export type PlanOrderState = StopOrderState;

/** Plan-order execute cycle in hours is free-form; these are the trend codes as for stops. */

/** bboTypeNum: 0 none, 1 opposite best, 2 opposite 5th, 3 same-side best, 4 same-side 5th. */
export const BboType = { NONE: 0, OPPOSITE_1: 1, OPPOSITE_5: 2, SAME_1: 3, SAME_5: 4 } as const;
export type BboType = (typeof BboType)[keyof typeof BboType];

/** Trade T: 1 buy, 2 sell. O: 1 both open, 2 neither opens, 3 other. M: 1 self-trade, 2 not. */
export const DealSide = { BUY: 1, SELL: 2 } as const;
export type DealSide = (typeof DealSide)[keyof typeof DealSide];
export const DealOpenFlag = { BOTH_OPEN: 1, NEITHER_OPENS: 2, OTHER: 3 } as const;
export type DealOpenFlag = (typeof DealOpenFlag)[keyof typeof DealOpenFlag];

export const CONTRACT_KLINE_INTERVALS = ['Min1', 'Min5', 'Min15', 'Min30', 'Min60', 'Hour4', 'Hour8', 'Day1', 'Week1', 'Month1'] as const;
export type ContractKlineInterval = (typeof CONTRACT_KLINE_INTERVALS)[number];

/** Interval length in seconds (Month1 is calendar-based and handled separately). */
export const CONTRACT_INTERVAL_SECONDS: Record<Exclude<ContractKlineInterval, 'Month1'>, number> = {
  Min1: 60,
  Min5: 300,
  Min15: 900,
  Min30: 1800,
  Min60: 3600,
  Hour4: 14400,
  Hour8: 28800,
  Day1: 86400,
  Week1: 604800,
};

export const FEE_RATE_MODES = ['NORMAL', 'LEVERAGE', 'TIERED'] as const;
export type FeeRateMode = (typeof FEE_RATE_MODES)[number];

export const RISK_LIMIT_TYPES = ['BY_VOLUME', 'BY_VALUE'] as const;
export type RiskLimitType = (typeof RISK_LIMIT_TYPES)[number];

export const STATISTIC_TYPES = ['ROLLING', 'FIXED'] as const;
export type StatisticType = (typeof STATISTIC_TYPES)[number];

export const TRANSFER_TYPES = ['IN', 'OUT'] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];
export const TRANSFER_STATES = ['WAIT', 'SUCCESS', 'FAILED'] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

export const MARGIN_CHANGE_TYPES = ['ADD', 'SUB'] as const;
export type MarginChangeType = (typeof MARGIN_CHANGE_TYPES)[number];

/** fee_details deductType: 0 none, 1 points, 2 bonus. */
export const DeductType = { NONE: 0, POINTS: 1, BONUS: 2 } as const;
export type DeductType = (typeof DeductType)[keyof typeof DeductType];

/** Permissions of contract keys (contract-api.md §5). */
export const CONTRACT_PERMISSIONS = ['ACCOUNT_READ', 'ORDER_READ', 'ORDER_PLACE'] as const;
export type ContractPermission = (typeof CONTRACT_PERMISSIONS)[number];

export const isOpenSide = (s: ContractSide): boolean => s === ContractSide.OPEN_LONG || s === ContractSide.OPEN_SHORT;
export const sidePositionType = (s: ContractSide): PositionType =>
  s === ContractSide.OPEN_LONG || s === ContractSide.CLOSE_LONG ? PositionType.LONG : PositionType.SHORT;
/** Whether the side buys (open long, close short) or sells. */
export const sideIsBuy = (s: ContractSide): boolean => s === ContractSide.OPEN_LONG || s === ContractSide.CLOSE_SHORT;
