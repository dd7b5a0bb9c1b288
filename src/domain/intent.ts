/**
 * Intents are what strategies ask for (commands, named in the imperative). The risk engine approves or
 * denies each one; the order manager turns approved ones into gateway calls.
 */
import type { Decimal } from '../core/decimal.js';
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { MarginMode, OrderSide, OrderSpec, PositionSide, TriggerPriceType } from './order.js';
import type { ProtectiveOrderRef } from './position.js';

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

/** Trailing stop: follows the best price since activation and closes when the price falls back `callbackRate` from it. */
export interface TrailingStopSpec {
  readonly type: 'trailing';
  /** Callback as a fraction of the benchmark (0.01 = 1 %), 0 < rate < 1. */
  readonly callbackRate: Decimal;
  /** The price that activates it (absent: active at once). */
  readonly activationPrice?: Decimal;
}

/** Plan (trigger) order closing at market when the price reaches `triggerPrice`: a stop-loss or a take-profit leg. */
export interface PlanStopSpec {
  readonly type: 'plan';
  readonly role: 'stop-loss' | 'take-profit';
  readonly triggerPrice: Decimal;
}

/**
 * A reduce-only trigger order at the venue closing `quantity` of the `positionSide` position (in one-way
 * mode: the net position's direction). Trigger orders carry no client id: the venue's id comes back in
 * ProtectiveOrderPlaced, and the venue's list of them is the truth after a restart.
 */
export interface PlaceProtectiveOrder extends IntentBase {
  readonly kind: 'protective-order';
  readonly symbol: InstrumentSymbol;
  readonly positionSide: PositionSide;
  readonly quantity: Decimal;
  readonly spec: TrailingStopSpec | PlanStopSpec;
  readonly triggerPriceType?: TriggerPriceType;
  /** The venue asks leverage and margin type of every trailing order; default: the position's. */
  readonly leverage?: number;
  readonly marginMode?: MarginMode;
}

/** Cancels trailing / plan orders by the venue's id (what is no longer live is skipped, not an error). */
export interface CancelProtectiveOrders extends IntentBase {
  readonly kind: 'cancel-protective';
  readonly symbol: InstrumentSymbol;
  readonly orders: readonly ProtectiveOrderRef[];
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

/** Order fields every child of an execution algorithm carries (contract legs and flags). */
export interface AlgoChildFields {
  readonly positionSide?: PositionSide;
  readonly reduceOnly?: boolean;
  readonly leverage?: number;
  readonly marginMode?: MarginMode;
}

/**
 * Time-weighted execution: `quantity` split over `durationMs` into `slices` children (or one every
 * `sliceIntervalMs`), slice k due at start + k·interval with a cumulative target of
 * ⌊quantity·(k+1)/n⌋ (to the step; the last is the whole). A child is sized target − filled − in
 * flight, so a slice that did not fill is caught up by the next one and nothing is ever overfilled.
 *  - `ioc`: each child is a limit IOC at the far touch (ask for a buy), `maxDeviationBps` through it;
 *  - `passive`: each child rests at the near touch (bid for a buy) and is re-priced (cancel, then a new
 *    child for the rest) at every slice; the last is cancelled when the duration ends.
 * `limitPrice` caps every child's price (buy: never above; sell: never below).
 */
export interface TwapOrder extends IntentBase, AlgoChildFields {
  readonly kind: 'twap';
  readonly symbol: InstrumentSymbol;
  readonly side: OrderSide;
  readonly quantity: Decimal;
  readonly durationMs: number;
  readonly slices?: number;
  readonly sliceIntervalMs?: number;
  readonly childType: 'ioc' | 'passive';
  readonly limitPrice?: Decimal;
  readonly maxDeviationBps?: Decimal;
}

/**
 * Shows `visibleQuantity` of `quantity` at `price` at a time; a new visible child is placed when the
 * previous one has filled. `visibleVariance` (0–1) draws each visible size uniformly from
 * visible·(1 ± variance) with a generator seeded by `seed` (src/core/random.ts), so a run replays.
 */
export interface IcebergOrder extends IntentBase, AlgoChildFields {
  readonly kind: 'iceberg';
  readonly symbol: InstrumentSymbol;
  readonly side: OrderSide;
  readonly quantity: Decimal;
  readonly visibleQuantity: Decimal;
  readonly price: Decimal;
  readonly visibleVariance?: Decimal;
  readonly seed?: number;
}

/** Stops an execution algorithm: no further child, the resting one cancelled. */
export interface CancelAlgo extends IntentBase {
  readonly kind: 'cancel-algo';
  readonly symbol: InstrumentSymbol;
  /** The parent's client id (AlgoUpdated.parent.parentId). */
  readonly parentId: ClientOrderId;
}

export type AlgoIntent = TwapOrder | IcebergOrder;

export type Intent =
  | PlaceOrder
  | AmendOrder
  | ChaseOrder
  | CancelOrder
  | CancelAll
  | SetLeverage
  | SetPositionMode
  | AttachTpSl
  | DesiredQuotes
  | TwapOrder
  | IcebergOrder
  | CancelAlgo
  | PlaceProtectiveOrder
  | CancelProtectiveOrders;
export type IntentKind = Intent['kind'];

export const SLOT_PATTERN = /^[a-z0-9]{1,3}$/;

/**
 * A slot's code: a distinct positive integer for each string SLOT_PATTERN accepts (its characters as
 * base-37 digits 1–36, so lengths cannot collide), −1 for any other string. The risk check of every
 * quote set tests each slot and looks for an earlier equal one: the pattern's test and a string
 * comparison per pair cost more than the rest of that rule (test/domain/slot-code.test.ts holds it to
 * the pattern).
 */
export function slotCode(s: string): number {
  const n = s.length;
  if (n < 1 || n > 3) return -1;
  let code = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 47;
    else if (c >= 97 && c <= 122) d = c - 86;
    else return -1;
    code = code * 37 + d;
  }
  return code;
}

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
    case 'cancel-algo':
      return true;
    case 'place':
      return intent.order.reduceOnly === true;
    case 'desired-quotes':
      return intent.quotes.length === 0;
    case 'attach-tpsl':
    case 'protective-order':
    case 'cancel-protective':
      return true;
    default:
      return false;
  }
}
