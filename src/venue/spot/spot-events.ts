/**
 * Everything that changes in the spot venue, as typed events for plain-callback subscribers (the
 * emulator serves them, the market model builds its tape from `trade`).
 *
 * Delivery: events are queued while a command runs and delivered when it has finished, in the order
 * they happened, so a subscriber always sees a consistent venue and may itself call the venue (its
 * events are delivered after the current ones). Nothing is built when nobody subscribes.
 * Per command the order is: orderAccepted, then per fill `trade` + the maker's status event, then STP
 * cancels of makers, then the taker's final status event, then one balanceChanged per touched
 * (account, asset) with the balance as it stands at the end of the command.
 */
import type { Decimal } from '../../core/decimal.js';
import type { SpotSide } from '../../domain/spot-enums.js';
import type { SpotOrderView } from './spot-order.js';

export interface SpotOrderAccepted {
  readonly type: 'orderAccepted';
  readonly time: number;
  readonly order: SpotOrderView;
}

/** A resting order was filled in part (maker), or a taker came to rest after a partial fill. */
export interface SpotOrderPartiallyFilled {
  readonly type: 'orderPartiallyFilled';
  readonly time: number;
  readonly order: SpotOrderView;
}

export interface SpotOrderFilled {
  readonly type: 'orderFilled';
  readonly time: number;
  readonly order: SpotOrderView;
}

/** CANCELED or PARTIALLY_CANCELED; `order.cancelReason` is 'stp_cancel' for STP, '' otherwise. */
export interface SpotOrderCanceled {
  readonly type: 'orderCanceled';
  readonly time: number;
  readonly order: SpotOrderView;
}

export interface SpotTradeExecuted {
  readonly type: 'trade';
  readonly time: number;
  readonly symbol: string;
  readonly tradeId: string;
  readonly priceTicks: number;
  readonly lots: number;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly quoteQty: Decimal;
  readonly takerSide: SpotSide;
  readonly isBuyerMaker: boolean;
  readonly takerAccountId: string;
  readonly makerAccountId: string;
  readonly takerOrderId: string;
  readonly makerOrderId: string;
  readonly takerCommission: Decimal;
  readonly takerCommissionAsset: string;
  readonly makerCommission: Decimal;
  readonly makerCommissionAsset: string;
  readonly isSelfTrade: boolean;
}

export interface SpotBalanceChanged {
  readonly type: 'balanceChanged';
  readonly time: number;
  readonly accountId: string;
  readonly asset: string;
  readonly free: Decimal;
  readonly locked: Decimal;
}

/**
 * One fill for tape consumers (subscribeTrades): integer ticks and lots, ids, sides and time only —
 * price = priceTicks · tick, qty = lots · step of the symbol. The object is the listener's to keep.
 */
export interface SpotTradeTick {
  readonly symbol: string;
  readonly tradeId: string;
  /** Venue time of the fill, ms. */
  readonly time: number;
  readonly priceTicks: number;
  readonly lots: number;
  readonly takerSide: SpotSide;
  readonly takerOrderId: string;
  readonly makerOrderId: string;
  readonly takerAccountId: string;
  readonly makerAccountId: string;
  readonly isSelfTrade: boolean;
}

export type SpotTradeListener = (tick: SpotTradeTick) => void;

export type SpotVenueEvent =
  SpotOrderAccepted | SpotOrderPartiallyFilled | SpotOrderFilled | SpotOrderCanceled | SpotTradeExecuted | SpotBalanceChanged;
export type SpotVenueListener = (event: SpotVenueEvent) => void;
