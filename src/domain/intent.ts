/**
 * Intents are what strategies ask for (commands, named in the imperative). The risk engine approves or
 * denies each one; the order manager turns approved ones into gateway calls.
 */
import type { Decimal } from '../core/decimal.js';
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { MarginMode, OrderSide, OrderSpec, PositionSide, TriggerPriceType } from './order.js';

interface IntentBase {
  /** Unique per strategy run; journaled with the client ids it produces. */
  readonly intentId: string;
  readonly strategyId: StrategyId;
}

export interface PlaceOrder extends IntentBase {
  readonly kind: 'place';
  readonly order: OrderSpec;
}

/** Change price and/or total quantity of a resting limit order. */
export interface AmendOrder extends IntentBase {
  readonly kind: 'amend';
  readonly symbol: InstrumentSymbol;
  readonly clientOrderId: ClientOrderId;
  readonly price?: Decimal;
  /** New total order quantity (filled part included). */
  readonly quantity?: Decimal;
}

/**
 * Keep a resting limit order at the best price of its own side until it fills, at most `maxReprices`
 * times and never beyond `priceCap` (buy: price ≤ cap; sell: price ≥ cap).
 */
export interface ChaseOrder extends IntentBase {
  readonly kind: 'chase';
  readonly symbol: InstrumentSymbol;
  readonly clientOrderId: ClientOrderId;
  readonly maxReprices: number;
  readonly priceCap?: Decimal;
}

export interface CancelOrder extends IntentBase {
  readonly kind: 'cancel';
  readonly symbol: InstrumentSymbol;
  readonly clientOrderId: ClientOrderId;
}

/**
 * `strategy` cancels this strategy's own orders (one by one or batched); `venue` uses the venue's
 * cancel-all and so also cancels orders of other strategies and manual orders on the symbol.
 */
export interface CancelAll extends IntentBase {
  readonly kind: 'cancel-all';
  readonly symbol?: InstrumentSymbol;
  readonly scope: 'strategy' | 'venue';
}

export interface SetLeverage extends IntentBase {
  readonly kind: 'set-leverage';
  readonly symbol: InstrumentSymbol;
  readonly leverage: number;
  readonly positionSide?: PositionSide;
  readonly marginMode?: MarginMode;
}

export type PositionModeName = 'hedged' | 'one-way';

export interface SetPositionMode extends IntentBase {
  readonly kind: 'set-position-mode';
  readonly mode: PositionModeName;
}

/** Take-profit / stop-loss on a resting limit order (clientOrderId) or on a position (positionSide / net). */
export interface AttachTpSl extends IntentBase {
  readonly kind: 'attach-tpsl';
  readonly symbol: InstrumentSymbol;
  readonly clientOrderId?: ClientOrderId;
  readonly positionSide?: PositionSide;
  /** Both absent or zero cancels TP/SL (contract-api.md 4.5). */
  readonly takeProfitPrice?: Decimal;
  readonly stopLossPrice?: Decimal;
  readonly triggerPriceType?: TriggerPriceType;
}

export interface DesiredQuote {
  /** Stable name of the quote within the strategy (`b0`, `a1`): 1–3 characters [a-z0-9]. */
  readonly slot: string;
  readonly side: OrderSide;
  readonly price: Decimal;
  /** Quantity the strategy wants resting (remaining, not counting what already filled). */
  readonly quantity: Decimal;
  readonly timeInForce?: 'gtc' | 'post-only';
  readonly positionSide?: PositionSide;
  readonly reduceOnly?: boolean;
  readonly leverage?: number;
  readonly marginMode?: MarginMode;
}

/**
 * The complete set of limit orders the strategy wants resting on `symbol`. Anything of this strategy
 * on the symbol that is not in the set is cancelled; an empty set cancels all its quotes.
 */
export interface DesiredQuotes extends IntentBase {
  readonly kind: 'desired-quotes';
  readonly symbol: InstrumentSymbol;
  readonly quotes: readonly DesiredQuote[];
}

export type Intent =
  PlaceOrder | AmendOrder | ChaseOrder | CancelOrder | CancelAll | SetLeverage | SetPositionMode | AttachTpSl | DesiredQuotes;
export type IntentKind = Intent['kind'];

export const SLOT_PATTERN = /^[a-z0-9]{1,3}$/;

/** Symbol an intent concerns, if it concerns one. */
export function intentSymbol(intent: Intent): InstrumentSymbol | undefined {
  switch (intent.kind) {
    case 'place':
      return intent.order.symbol;
    case 'set-position-mode':
      return undefined;
    case 'cancel-all':
      return intent.symbol;
    default:
      return intent.symbol;
  }
}

/** Intents that can only lower exposure: never blocked by kill switches or fail-closed checks. */
export function isRiskReducing(intent: Intent): boolean {
  switch (intent.kind) {
    case 'cancel':
    case 'cancel-all':
      return true;
    case 'place':
      return intent.order.reduceOnly === true;
    case 'desired-quotes':
      return intent.quotes.length === 0;
    case 'attach-tpsl':
      return true;
    default:
      return false;
  }
}
