/**
 * What the engine reports, as plain callbacks (no RxJS in the venue). Events of one command are
 * queued and delivered after the command has finished, so a listener always sees a consistent
 * engine (cache first, then publish).
 */
import type { Decimal } from '../../core/decimal.js';
import type { AccountId, ContractSymbol } from '../../core/ids.js';
import type { ContractOrderErrorCode, PositionMode } from '../../domain/contract-enums.js';
import type {
  CancelReason,
  ContractFillView,
  ContractOrderView,
  ContractPositionView,
  ContractTradeView,
  FundingRecordView,
  LiquidationView,
  TransferRecordView,
} from './contract-views.js';
import type { PlanOrderView, StopOrderView, TrackOrderView } from './triggers/trigger-views.js';

export interface OrderAccepted {
  readonly type: 'OrderAccepted';
  readonly time: number;
  readonly order: ContractOrderView;
}

export interface OrderRejected {
  readonly type: 'OrderRejected';
  readonly time: number;
  readonly accountId: AccountId;
  readonly code: number;
  readonly errorCode: ContractOrderErrorCode;
  readonly message: string;
  /** The invalid (state 5) record, when the request got that far. */
  readonly order: ContractOrderView | undefined;
}

export interface OrderFilled {
  readonly type: 'OrderFilled';
  readonly time: number;
  readonly order: ContractOrderView;
  readonly fill: ContractFillView;
}

export interface OrderCancelled {
  readonly type: 'OrderCancelled';
  readonly time: number;
  readonly order: ContractOrderView;
  readonly reason: CancelReason;
}

export interface OrderAmended {
  readonly type: 'OrderAmended';
  readonly time: number;
  readonly order: ContractOrderView;
  readonly chase: boolean;
}

export interface TradeExecuted {
  readonly type: 'TradeExecuted';
  readonly time: number;
  readonly trade: ContractTradeView;
}

export interface PositionChanged {
  readonly type: 'PositionChanged';
  readonly time: number;
  /** After the change; state 3 when it closed. */
  readonly position: ContractPositionView;
}

export interface FundingSettled {
  readonly type: 'FundingSettled';
  readonly time: number;
  readonly symbol: ContractSymbol;
  readonly rate: Decimal;
  /** The price positions were valued at; undefined when none was known (nothing was paid). */
  readonly fairPrice: Decimal | undefined;
  readonly records: readonly FundingRecordView[];
}

export interface PositionLiquidated {
  readonly type: 'PositionLiquidated';
  readonly time: number;
  readonly liquidation: LiquidationView;
}

export interface MarginAutoAdded {
  readonly type: 'MarginAutoAdded';
  readonly time: number;
  readonly position: ContractPositionView;
  readonly amount: Decimal;
}

export interface FundsTransferred {
  readonly type: 'FundsTransferred';
  readonly time: number;
  readonly transfer: TransferRecordView;
}

export interface PositionModeChanged {
  readonly type: 'PositionModeChanged';
  readonly time: number;
  readonly accountId: AccountId;
  readonly positionMode: PositionMode;
}

/** A TP/SL (stop) order was created or changed state, legs, volume or reverse outcome. */
export interface StopOrderChanged {
  readonly type: 'StopOrderChanged';
  readonly time: number;
  readonly stopOrder: StopOrderView;
}

/** A trigger (plan) order was created, changed, fired, failed, expired or was cancelled. */
export interface PlanOrderChanged {
  readonly type: 'PlanOrderChanged';
  readonly time: number;
  readonly planOrder: PlanOrderView;
}

/** A trailing order was created, changed, activated, fired, failed or was cancelled (not on each benchmark move). */
export interface TrackOrderChanged {
  readonly type: 'TrackOrderChanged';
  readonly time: number;
  readonly trackOrder: TrackOrderView;
}

export type ContractVenueEvent =
  | OrderAccepted
  | OrderRejected
  | OrderFilled
  | OrderCancelled
  | OrderAmended
  | TradeExecuted
  | PositionChanged
  | FundingSettled
  | PositionLiquidated
  | MarginAutoAdded
  | FundsTransferred
  | PositionModeChanged
  | StopOrderChanged
  | PlanOrderChanged
  | TrackOrderChanged;

export type ContractVenueListener = (event: ContractVenueEvent) => void;

export type ContractVenueEventType = ContractVenueEvent['type'];

/** The event of one type (what a listener subscribed to that type receives). */
export type ContractVenueEventOf<T extends ContractVenueEventType> = Extract<ContractVenueEvent, { readonly type: T }>;

/** Every event type, checked against the union by the Record (a new event type must be added here). */
const EVENT_TYPE_SET: Readonly<Record<ContractVenueEventType, true>> = {
  OrderAccepted: true,
  OrderRejected: true,
  OrderFilled: true,
  OrderCancelled: true,
  OrderAmended: true,
  TradeExecuted: true,
  PositionChanged: true,
  FundingSettled: true,
  PositionLiquidated: true,
  MarginAutoAdded: true,
  FundsTransferred: true,
  PositionModeChanged: true,
  StopOrderChanged: true,
  PlanOrderChanged: true,
  TrackOrderChanged: true,
};

export const CONTRACT_VENUE_EVENT_TYPES = Object.keys(EVENT_TYPE_SET) as readonly ContractVenueEventType[];

export function isContractVenueEventType(name: string): name is ContractVenueEventType {
  return Object.hasOwn(EVENT_TYPE_SET, name);
}

/** Price inputs and trades, for trigger engines (plan, TP/SL, trailing orders) built on the venue. */
export interface PriceUpdate {
  readonly symbol: ContractSymbol;
  readonly kind: 'fair' | 'index' | 'last';
  readonly price: Decimal;
  readonly time: number;
}

export type PriceWatcher = (update: PriceUpdate) => void;
