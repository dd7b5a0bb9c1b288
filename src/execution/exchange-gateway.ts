/**
 * The one seam between the order manager and a venue. Two implementations: MexcGateway (HTTP client:
 * the real exchange or the emulator) and SimulatedGateway (the venue engine in-process, backtests).
 * Venue-neutral: domain types in, domain types out; each implementation maps codes and enums.
 *
 * Error contract (src/core/errors.ts), the same for every state-changing call:
 *  - resolves → the venue accepted the request;
 *  - ExchangeError (InvalidOrder, InsufficientFunds, OrderNotFound, OrderNotCancellable, …) → the venue
 *    refused it; nothing changed;
 *  - NetworkError (RateLimited, ExchangeUnavailable, RequestTimeout before sending) → not sent or
 *    refused before processing; nothing changed;
 *  - OutcomeUnknown → sent, answer lost (timeout after sending, 5xx): the change may or may not have
 *    happened. The order manager resolves it by queryOrder(client id), never by sending again.
 */
import type { Decimal } from '../core/decimal.js';
import type { PerpetuaError } from '../core/errors.js';
import type { ClientOrderId, InstrumentSymbol, OrderId } from '../core/ids.js';
import type { AccountSnapshot } from '../domain/balance.js';
import type { Fill } from '../domain/fill.js';
import type { PlaceProtectiveOrder, PositionModeName } from '../domain/intent.js';
import type { InstrumentKind, MarginMode, OrderSpec, OrderStatus, PositionSide, TriggerPriceType, VenueOrder } from '../domain/order.js';
import type { Position, PositionLeg, PositionProtection, ProtectiveOrderRef } from '../domain/position.js';

export interface GatewayCapabilities {
  readonly kind: InstrumentKind;
  /** native: change price/quantity in place (contract change_limit_order); cancel-replace otherwise (spot). */
  readonly amend: 'native' | 'cancel-replace';
  /** native: the venue moves the order to its side's best price (contract chase_limit_order). */
  readonly chase: 'native' | 'emulated';
  /** Orders per placement call; 1 when there is no batch endpoint (spot batchOrders: 20, one symbol). */
  readonly batchPlaceMax: number;
  /** Orders per cancel call (contract order/cancel: 50; spot: 1). */
  readonly batchCancelMax: number;
  /** Longest client id the venue takes. */
  readonly clientIdMaxLength: number;
  /** Order-changing calls per second the venue allows (spot: 12/s shared by place, batch, cancel). */
  readonly orderCallsPerSecond: number;
  readonly leverage: boolean;
  readonly positionMode: boolean;
  readonly tpsl: boolean;
}

export interface PlaceRequest {
  readonly clientOrderId: ClientOrderId;
  readonly order: OrderSpec;
}

export interface PlaceAck {
  readonly clientOrderId: ClientOrderId;
  readonly venueOrderId: OrderId;
  /** Status in the answer when the venue gives one (an IOC may come back filled or expired). */
  readonly status?: OrderStatus;
  /** Venue time of acceptance, ms. */
  readonly time?: number;
}

/** One element of a batch answer: successes and failures may be mixed (spot batchOrders). */
export type BatchItem<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly clientOrderId: ClientOrderId; readonly error: PerpetuaError };

export interface OrderRef {
  readonly symbol: InstrumentSymbol;
  readonly clientOrderId: ClientOrderId;
  /** Known after the ack; gateways fall back to the client id (spot origClientOrderId, contract cancel_with_external). */
  readonly venueOrderId?: OrderId;
}

export interface AmendRequest extends OrderRef {
  readonly price: Decimal;
  /** New TOTAL quantity (filled part included). */
  readonly quantity: Decimal;
}

export interface AmendAck {
  /** The venue may give the amended order a new id. */
  readonly venueOrderId: OrderId;
}

export interface CancelAck {
  readonly clientOrderId: ClientOrderId;
  /** Cumulative filled quantity in the cancel answer (spot executedQty), when given. */
  readonly filledQty?: Decimal;
}

export interface LeverageRequest {
  readonly symbol: InstrumentSymbol;
  readonly leverage: number;
  readonly positionSide?: PositionSide;
  readonly marginMode?: MarginMode;
}

export interface TpSlRequest {
  readonly symbol: InstrumentSymbol;
  /** A resting limit order, or absent for the position (positionSide / net). */
  readonly order?: OrderRef;
  readonly positionSide?: PositionSide;
  readonly takeProfitPrice?: Decimal;
  readonly stopLossPrice?: Decimal;
  readonly triggerPriceType?: TriggerPriceType;
}

/** An open order protecting a held position: TP/SL, trailing or plan (the domain's PositionProtection). */
export type ProtectiveStop = PositionProtection;

/** A reduce-only trailing or plan order closing (part of) a position (contract). */
export type ProtectiveOrderRequest = Pick<
  PlaceProtectiveOrder,
  'symbol' | 'positionSide' | 'quantity' | 'spec' | 'triggerPriceType' | 'leverage' | 'marginMode'
>;

/** A funding payment on one of the account's positions, as the venue recorded it (contract). */
export interface FundingPayment {
  /** The venue's record id: a payment is booked once. */
  readonly id: string;
  readonly symbol: InstrumentSymbol;
  readonly leg: PositionLeg;
  /** Received (+) or paid (−), in `asset`. */
  readonly amount: Decimal;
  readonly asset: string;
  readonly rate?: Decimal;
  /** Settlement time, venue ms. */
  readonly time: number;
}

export interface ExchangeGateway {
  readonly capabilities: GatewayCapabilities;

  placeOrder(req: PlaceRequest): Promise<PlaceAck>;
  /** Only with capabilities.batchPlaceMax > 1; all of one symbol. */
  placeOrders(reqs: readonly PlaceRequest[]): Promise<readonly BatchItem<PlaceAck>[]>;
  /** Only with capabilities.amend === 'native'. */
  amendOrder(req: AmendRequest): Promise<AmendAck>;
  /** Only with capabilities.chase === 'native'. */
  chaseOrder(ref: OrderRef): Promise<void>;
  cancelOrder(ref: OrderRef): Promise<CancelAck>;
  /** Up to capabilities.batchCancelMax. */
  cancelOrders(refs: readonly OrderRef[]): Promise<readonly BatchItem<CancelAck>[]>;
  /** The venue's cancel-all for a symbol (all symbols when absent): other strategies' orders too. */
  cancelAll(symbol?: InstrumentSymbol): Promise<void>;

  /** The order with this client id, or undefined when the venue says it has none. */
  queryOrder(symbol: InstrumentSymbol, clientOrderId: ClientOrderId): Promise<VenueOrder | undefined>;
  /** Every open order (all pages) of the symbol, or of the account when absent. */
  openOrders(symbol?: InstrumentSymbol): Promise<readonly VenueOrder[]>;
  /** Own fills of the symbol at or after `since` (ms). */
  fillsSince(symbol: InstrumentSymbol, since: number): Promise<readonly Fill[]>;
  positions(symbol?: InstrumentSymbol): Promise<readonly Position[]>;
  balances(): Promise<AccountSnapshot>;

  setLeverage(req: LeverageRequest): Promise<void>;
  setPositionMode(mode: PositionModeName): Promise<void>;
  attachTpSl(req: TpSlRequest): Promise<void>;
  /**
   * Open orders protecting held positions of the symbol: TP/SL stop orders, and the reduce-only trailing
   * and plan orders that close a position (kind 'trailing' / 'plan', with their venue id); absent where
   * the venue has no such orders.
   */
  protectiveStops?(symbol: InstrumentSymbol): Promise<readonly ProtectiveStop[]>;
  /** Places a trailing or plan order; resolves with the venue's view of it (its id included). */
  placeProtectiveOrder?(req: ProtectiveOrderRequest): Promise<ProtectiveStop>;
  /** Cancels one trailing or plan order; resolves false when the venue says it is no longer live (fired, expired). */
  cancelProtectiveOrder?(symbol: InstrumentSymbol, ref: ProtectiveOrderRef): Promise<boolean>;
  /** Funding payments of the symbol settled at or after `since` (venue ms), oldest first; absent where there is no funding. */
  fundingSince?(symbol: InstrumentSymbol, since: number): Promise<readonly FundingPayment[]>;
}
