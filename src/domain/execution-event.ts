/**
 * What happened (past tense). The order manager, reconcile() and the risk engine emit these; the
 * order store, the portfolio, the journal and strategies consume them.
 */
import type { Decimal } from '../core/decimal.js';
import type { ClientOrderId, InstrumentSymbol, OrderId, StrategyId } from '../core/ids.js';
import type { AlgoParent } from './algo-parent.js';
import type { Fill } from './fill.js';
import type { Intent, PositionModeName } from './intent.js';
import type { Order, PositionSide } from './order.js';
import type { Position, PositionLeg, PositionProtection, ProtectiveOrderRef } from './position.js';

interface EventBase {
  /** Our clock when the event was produced. */
  readonly ts: number;
  readonly strategyId?: StrategyId;
}

interface OrderEventBase extends EventBase {
  readonly clientOrderId: ClientOrderId;
  readonly symbol: InstrumentSymbol;
}

/** Client id created and journaled; the request is about to be sent. */
export interface OrderSubmitted extends EventBase {
  readonly type: 'OrderSubmitted';
  readonly order: Order;
}

export interface OrderAccepted extends OrderEventBase {
  readonly type: 'OrderAccepted';
  readonly venueOrderId: OrderId;
}

export interface OrderRejected extends OrderEventBase {
  readonly type: 'OrderRejected';
  readonly reason: string;
  readonly venueCode?: number;
}

export interface OrderPartiallyFilled extends OrderEventBase {
  readonly type: 'OrderPartiallyFilled';
  readonly fill: Fill;
}

export interface OrderFilled extends OrderEventBase {
  readonly type: 'OrderFilled';
  readonly fill: Fill;
}

export interface OrderCancelRequested extends OrderEventBase {
  readonly type: 'OrderCancelRequested';
}

export interface OrderCancelled extends OrderEventBase {
  readonly type: 'OrderCancelled';
  /** user | replaced | stp | vanished (gone from the venue, no status found) | venue. */
  readonly reason: string;
}

export interface OrderCancelRejected extends OrderEventBase {
  readonly type: 'OrderCancelRejected';
  readonly reason: string;
}

export interface OrderExpired extends OrderEventBase {
  readonly type: 'OrderExpired';
}

export interface OrderAmendRequested extends OrderEventBase {
  readonly type: 'OrderAmendRequested';
  readonly price?: Decimal;
  readonly quantity?: Decimal;
}

/** The order now rests with the new price / quantity (contract change_limit_order, or seen by reconcile). */
export interface OrderAmended extends OrderEventBase {
  readonly type: 'OrderAmended';
  readonly price?: Decimal;
  readonly quantity?: Decimal;
  readonly venueOrderId?: OrderId;
}

export interface OrderAmendRejected extends OrderEventBase {
  readonly type: 'OrderAmendRejected';
  readonly reason: string;
}

/** Spot cancel-replace finished: `clientOrderId` was cancelled and `newClientOrderId` placed instead. */
export interface OrderReplaced extends OrderEventBase {
  readonly type: 'OrderReplaced';
  readonly newClientOrderId: ClientOrderId;
}

/** A state-changing request's outcome is unknown (timeout, 5xx); resolution by query follows. */
export interface OrderOutcomeUnknown extends OrderEventBase {
  readonly type: 'OrderOutcomeUnknown';
  readonly operation: 'place' | 'cancel' | 'amend' | 'chase';
}

/** An open order found at the venue whose client id decodes to one of our strategies. */
export interface OrderAdopted extends EventBase {
  readonly type: 'OrderAdopted';
  readonly order: Order;
}

/** The venue lists as open an order we consider closed: it rests untracked until cancelled. */
export interface OrderOrphaned extends OrderEventBase {
  readonly type: 'OrderOrphaned';
  readonly venueOrderId: OrderId;
  readonly localStatus: string;
}

export interface IntentDenied extends EventBase {
  readonly type: 'IntentDenied';
  readonly intent: Intent;
  /** The rule's name, e.g. `price-tick`. */
  readonly rule: string;
  /** A human reason with the numbers. */
  readonly reason: string;
}

/** A non-order intent (leverage, position mode, TP/SL) the venue refused, or a request that failed. */
export interface IntentFailed extends EventBase {
  readonly type: 'IntentFailed';
  readonly intent: Intent;
  readonly reason: string;
}

export interface LeverageChanged extends EventBase {
  readonly type: 'LeverageChanged';
  readonly symbol: InstrumentSymbol;
  readonly leverage: number;
  readonly positionSide?: PositionSide;
}

export interface PositionModeChanged extends EventBase {
  readonly type: 'PositionModeChanged';
  readonly mode: PositionModeName;
}

export interface TpSlAttached extends EventBase {
  readonly type: 'TpSlAttached';
  readonly symbol: InstrumentSymbol;
  readonly clientOrderId?: ClientOrderId;
  readonly takeProfitPrice?: Decimal;
  readonly stopLossPrice?: Decimal;
}

/** A trailing or plan order accepted by the venue (`order.id` is the venue's id; `order.kind` says which). */
export interface ProtectiveOrderPlaced extends EventBase {
  readonly type: 'ProtectiveOrderPlaced';
  readonly symbol: InstrumentSymbol;
  readonly intentId: string;
  readonly order: PositionProtection;
}

/** A trailing or plan order cancelled at the venue, or found no longer live there (`live: false`). */
export interface ProtectiveOrderCancelled extends EventBase {
  readonly type: 'ProtectiveOrderCancelled';
  readonly symbol: InstrumentSymbol;
  readonly order: ProtectiveOrderRef;
  /** False when the venue had already ended it (fired, expired, cancelled elsewhere). */
  readonly live: boolean;
}

export interface FundingSettled extends EventBase {
  readonly type: 'FundingSettled';
  readonly symbol: InstrumentSymbol;
  readonly leg: PositionLeg;
  /** Received (+) or paid (−), in `asset`. */
  readonly amount: Decimal;
  readonly asset: string;
  readonly rate?: Decimal;
  /** The venue's funding record id (paper / live): each payment is booked once, across restarts. */
  readonly fundingId?: string;
  /** When the venue settled it (venue ms); `ts` is when the bot learned of it. */
  readonly settledAt?: number;
}

/** Reconcile found the venue's position differs from ours. */
export interface PositionDrift extends EventBase {
  readonly type: 'PositionDrift';
  readonly symbol: InstrumentSymbol;
  readonly leg: PositionLeg;
  readonly localQuantity: Decimal;
  readonly venueQuantity: Decimal;
}

/**
 * A fill of an order the bot did not place: a take-profit / stop-loss, plan or trailing order firing,
 * a liquidation or ADL, a close-all, or an order placed by hand. Learned from the venue's order history
 * and journaled like our own fills (the fill's trade id counts it once). `strategyId` is the owner of
 * the position (the one strategy trading that symbol and leg); absent when ownership is ambiguous
 * (then only the account's book takes it).
 */
export interface VenueFill extends EventBase {
  readonly type: 'VenueFill';
  readonly symbol: InstrumentSymbol;
  readonly fill: Fill;
}

/**
 * A strategy's position set to the venue's when no fill explains the difference (journaled, so a
 * restart rebuilds the same book). `position` is the strategy's position after the adjustment.
 */
export interface PositionAdjusted extends EventBase {
  readonly type: 'PositionAdjusted';
  readonly symbol: InstrumentSymbol;
  readonly leg: PositionLeg;
  readonly fromQuantity: Decimal;
  readonly toQuantity: Decimal;
  readonly position: Position;
  readonly reason: string;
}

/** The strategy holds a contract position that no open take-profit / stop-loss order at the venue protects. */
export interface ProtectionMissing extends EventBase {
  readonly type: 'ProtectionMissing';
  readonly symbol: InstrumentSymbol;
  readonly leg: PositionLeg;
  readonly quantity: Decimal;
}

export interface KillSwitchTripped extends EventBase {
  readonly type: 'KillSwitchTripped';
  readonly rule: string;
  readonly reason: string;
}

/** An execution algorithm's parent started, progressed or ended: its state after the change. */
export interface AlgoUpdated extends EventBase {
  readonly type: 'AlgoUpdated';
  readonly symbol: InstrumentSymbol;
  readonly parent: AlgoParent;
  /** What changed: `started`, `child 3 placed`, `child denied: …`, `cancelled: strategy`, … */
  readonly change: string;
}

export type OrderEvent =
  | OrderSubmitted
  | OrderAccepted
  | OrderRejected
  | OrderPartiallyFilled
  | OrderFilled
  | OrderCancelRequested
  | OrderCancelled
  | OrderCancelRejected
  | OrderExpired
  | OrderAmendRequested
  | OrderAmended
  | OrderAmendRejected
  | OrderReplaced
  | OrderOutcomeUnknown
  | OrderAdopted
  | OrderOrphaned;

export type ExecutionEvent =
  | OrderEvent
  | IntentDenied
  | IntentFailed
  | LeverageChanged
  | PositionModeChanged
  | TpSlAttached
  | ProtectiveOrderPlaced
  | ProtectiveOrderCancelled
  | FundingSettled
  | PositionDrift
  | VenueFill
  | PositionAdjusted
  | ProtectionMissing
  | KillSwitchTripped
  | AlgoUpdated;

export type ExecutionEventType = ExecutionEvent['type'];

/** Client id an event concerns, when it concerns one order. */
export function eventClientOrderId(e: ExecutionEvent): ClientOrderId | undefined {
  if (e.type === 'OrderSubmitted' || e.type === 'OrderAdopted') return e.order.clientOrderId;
  return 'clientOrderId' in e ? e.clientOrderId : undefined;
}
