/**
 * Small builders so strategies write `ctx.intents.limit(sym, 'buy', px, qty)` instead of object
 * literals with ids. Intent ids are `<strategyId>:<n>`, deterministic per run.
 */
import { D, type Decimal, type DecimalLike } from '../core/decimal.js';
import { type ClientOrderId, type InstrumentSymbol, isContractSymbol, type StrategyId } from '../core/ids.js';
import type {
  AlgoChildFields,
  AmendOrder,
  AttachTpSl,
  CancelAlgo,
  CancelAll,
  CancelOrder,
  CancelProtectiveOrders,
  ChaseOrder,
  DesiredQuote,
  DesiredQuotes,
  IcebergOrder,
  PlaceOrder,
  PlaceProtectiveOrder,
  PositionModeName,
  SetLeverage,
  SetPositionMode,
  TwapOrder,
} from '../domain/intent.js';
import type { MarginMode, OrderSide, OrderSpec, PositionSide, TimeInForce, TriggerPriceType } from '../domain/order.js';
import type { ProtectiveOrderRef } from '../domain/position.js';

export interface OrderOptions {
  readonly timeInForce?: TimeInForce;
  readonly reduceOnly?: boolean;
  readonly positionSide?: PositionSide;
  readonly leverage?: number;
  readonly marginMode?: MarginMode;
  readonly takeProfitPrice?: DecimalLike;
  readonly stopLossPrice?: DecimalLike;
  readonly triggerPriceType?: TriggerPriceType;
}

export interface QuoteInput {
  readonly slot: string;
  readonly side: OrderSide;
  readonly price: DecimalLike;
  readonly quantity: DecimalLike;
  readonly timeInForce?: 'gtc' | 'post-only';
  readonly positionSide?: PositionSide;
  readonly reduceOnly?: boolean;
  readonly leverage?: number;
  readonly marginMode?: MarginMode;
}

export interface TwapInput extends AlgoChildFields {
  readonly durationMs: number;
  /** Number of slices; or give sliceIntervalMs instead. */
  readonly slices?: number;
  readonly sliceIntervalMs?: number;
  /** `ioc` (default): limit IOC at the far touch; `passive`: rests at the near touch, re-priced each slice. */
  readonly childType?: 'ioc' | 'passive';
  readonly limitPrice?: DecimalLike;
  /** IOC children: at most this far through the touch, basis points (default 0: at the touch). */
  readonly maxDeviationBps?: DecimalLike;
}

export interface IcebergInput extends AlgoChildFields {
  /** 0–1: each visible size drawn from visible·(1 ± variance). */
  readonly visibleVariance?: DecimalLike;
  readonly seed?: number;
}

/** What a trailing or plan order takes besides its levels. */
export interface ProtectiveOptions {
  readonly trigger?: TriggerPriceType;
  readonly leverage?: number;
  readonly marginMode?: MarginMode;
}

export class IntentFactory {
  private seq = 0;

  constructor(readonly strategyId: StrategyId) {}

  private base(): { intentId: string; strategyId: StrategyId } {
    this.seq += 1;
    return { intentId: `${this.strategyId}:${this.seq}`, strategyId: this.strategyId };
  }

  limit(symbol: InstrumentSymbol, side: OrderSide, price: DecimalLike, quantity: DecimalLike, opts: OrderOptions = {}): PlaceOrder {
    return { ...this.base(), kind: 'place', order: spec(symbol, side, 'limit', opts, D(price), D(quantity)) };
  }

  market(symbol: InstrumentSymbol, side: OrderSide, quantity: DecimalLike, opts: OrderOptions = {}): PlaceOrder {
    return { ...this.base(), kind: 'place', order: spec(symbol, side, 'market', { timeInForce: 'ioc', ...opts }, undefined, D(quantity)) };
  }

  /** Spot market buy spending a quote amount. */
  marketBuyQuote(symbol: InstrumentSymbol, quoteAmount: DecimalLike): PlaceOrder {
    return {
      ...this.base(),
      kind: 'place',
      order: { symbol, kind: 'spot', side: 'buy', type: 'market', timeInForce: 'ioc', quoteQuantity: D(quoteAmount) },
    };
  }

  amend(symbol: InstrumentSymbol, clientOrderId: ClientOrderId, change: { price?: DecimalLike; quantity?: DecimalLike }): AmendOrder {
    return {
      ...this.base(),
      kind: 'amend',
      symbol,
      clientOrderId,
      ...(change.price !== undefined ? { price: D(change.price) } : {}),
      ...(change.quantity !== undefined ? { quantity: D(change.quantity) } : {}),
    };
  }

  chase(symbol: InstrumentSymbol, clientOrderId: ClientOrderId, maxReprices: number, priceCap?: DecimalLike): ChaseOrder {
    return {
      ...this.base(),
      kind: 'chase',
      symbol,
      clientOrderId,
      maxReprices,
      ...(priceCap !== undefined ? { priceCap: D(priceCap) } : {}),
    };
  }

  cancel(symbol: InstrumentSymbol, clientOrderId: ClientOrderId): CancelOrder {
    return { ...this.base(), kind: 'cancel', symbol, clientOrderId };
  }

  cancelAll(symbol?: InstrumentSymbol, scope: 'strategy' | 'venue' = 'strategy'): CancelAll {
    return { ...this.base(), kind: 'cancel-all', scope, ...(symbol ? { symbol } : {}) };
  }

  leverage(symbol: InstrumentSymbol, leverage: number, opts: { positionSide?: PositionSide; marginMode?: MarginMode } = {}): SetLeverage {
    return { ...this.base(), kind: 'set-leverage', symbol, leverage, ...opts };
  }

  positionMode(mode: PositionModeName): SetPositionMode {
    return { ...this.base(), kind: 'set-position-mode', mode };
  }

  tpsl(
    symbol: InstrumentSymbol,
    target: { clientOrderId?: ClientOrderId; positionSide?: PositionSide },
    prices: { takeProfit?: DecimalLike; stopLoss?: DecimalLike; trigger?: TriggerPriceType },
  ): AttachTpSl {
    return {
      ...this.base(),
      kind: 'attach-tpsl',
      symbol,
      ...target,
      ...(prices.takeProfit !== undefined ? { takeProfitPrice: D(prices.takeProfit) } : {}),
      ...(prices.stopLoss !== undefined ? { stopLossPrice: D(prices.stopLoss) } : {}),
      ...(prices.trigger ? { triggerPriceType: prices.trigger } : {}),
    };
  }

  /** TWAP of `quantity` (see TwapOrder); the parent's progress arrives as AlgoUpdated events and in ctx.algoOrders(). */
  twap(symbol: InstrumentSymbol, side: OrderSide, quantity: DecimalLike, opts: TwapInput): TwapOrder {
    return {
      ...this.base(),
      kind: 'twap',
      symbol,
      side,
      quantity: D(quantity),
      durationMs: opts.durationMs,
      ...(opts.slices !== undefined ? { slices: opts.slices } : {}),
      ...(opts.sliceIntervalMs !== undefined ? { sliceIntervalMs: opts.sliceIntervalMs } : {}),
      childType: opts.childType ?? 'ioc',
      ...(opts.limitPrice !== undefined ? { limitPrice: D(opts.limitPrice) } : {}),
      ...(opts.maxDeviationBps !== undefined ? { maxDeviationBps: D(opts.maxDeviationBps) } : {}),
      ...childFields(opts),
    };
  }

  /** Iceberg: `visible` of `quantity` resting at `price` at a time (see IcebergOrder). */
  iceberg(
    symbol: InstrumentSymbol,
    side: OrderSide,
    quantity: DecimalLike,
    visible: DecimalLike,
    price: DecimalLike,
    opts: IcebergInput = {},
  ): IcebergOrder {
    return {
      ...this.base(),
      kind: 'iceberg',
      symbol,
      side,
      quantity: D(quantity),
      visibleQuantity: D(visible),
      price: D(price),
      ...(opts.visibleVariance !== undefined ? { visibleVariance: D(opts.visibleVariance) } : {}),
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      ...childFields(opts),
    };
  }

  /** Stops a TWAP or iceberg parent (its resting child is cancelled). */
  cancelAlgo(symbol: InstrumentSymbol, parentId: ClientOrderId): CancelAlgo {
    return { ...this.base(), kind: 'cancel-algo', symbol, parentId };
  }

  /** A trailing stop closing `quantity` of the `positionSide` position; `callbackRate` a fraction (0.01 = 1 %). */
  trailingStop(
    symbol: InstrumentSymbol,
    positionSide: PositionSide,
    quantity: DecimalLike,
    opts: { callbackRate: DecimalLike; activationPrice?: DecimalLike } & ProtectiveOptions,
  ): PlaceProtectiveOrder {
    const spec = {
      type: 'trailing' as const,
      callbackRate: D(opts.callbackRate),
      ...(opts.activationPrice !== undefined ? { activationPrice: D(opts.activationPrice) } : {}),
    };
    return this.protective(symbol, positionSide, quantity, spec, opts);
  }

  /** A plan order closing `quantity` of the `positionSide` position at market once the price reaches `triggerPrice`. */
  planStop(
    symbol: InstrumentSymbol,
    positionSide: PositionSide,
    quantity: DecimalLike,
    opts: { role: 'stop-loss' | 'take-profit'; triggerPrice: DecimalLike } & ProtectiveOptions,
  ): PlaceProtectiveOrder {
    return this.protective(symbol, positionSide, quantity, { type: 'plan', role: opts.role, triggerPrice: D(opts.triggerPrice) }, opts);
  }

  cancelProtective(symbol: InstrumentSymbol, orders: readonly ProtectiveOrderRef[]): CancelProtectiveOrders {
    return { ...this.base(), kind: 'cancel-protective', symbol, orders: orders.map((o) => ({ kind: o.kind, id: o.id })) };
  }

  private protective(
    symbol: InstrumentSymbol,
    positionSide: PositionSide,
    quantity: DecimalLike,
    spec: PlaceProtectiveOrder['spec'],
    opts: ProtectiveOptions,
  ): PlaceProtectiveOrder {
    return {
      ...this.base(),
      kind: 'protective-order',
      symbol,
      positionSide,
      quantity: D(quantity),
      spec,
      ...(opts.trigger ? { triggerPriceType: opts.trigger } : {}),
      ...(opts.leverage !== undefined ? { leverage: opts.leverage } : {}),
      ...(opts.marginMode ? { marginMode: opts.marginMode } : {}),
    };
  }

  quotes(symbol: InstrumentSymbol, quotes: readonly QuoteInput[]): DesiredQuotes {
    // Assigned in the order the spreads gave the keys: five conditional spreads per quote took V8's slow path.
    // A ladder gives every quote the same size, often as text: parsed once per set (Decimals are immutable values).
    let text: string | undefined;
    let parsed: Decimal | undefined;
    const quantityOf = (v: DecimalLike): Decimal => {
      if (typeof v !== 'string') return D(v);
      if (v !== text || parsed === undefined) {
        parsed = D(v);
        text = v;
      }
      return parsed;
    };
    const qs: DesiredQuote[] = quotes.map((q) => {
      const out: { -readonly [K in keyof DesiredQuote]: DesiredQuote[K] } = {
        slot: q.slot,
        side: q.side,
        price: D(q.price),
        quantity: quantityOf(q.quantity),
      };
      if (q.timeInForce) out.timeInForce = q.timeInForce;
      if (q.positionSide) out.positionSide = q.positionSide;
      if (q.reduceOnly) out.reduceOnly = true;
      if (q.leverage !== undefined) out.leverage = q.leverage;
      if (q.marginMode) out.marginMode = q.marginMode;
      return out;
    });
    // Written out: `{ ...this.base(), kind, … }` adds keys after a spread, V8's slow path (~5 µs per intent).
    const { intentId, strategyId } = this.base();
    return { intentId, strategyId, kind: 'desired-quotes', symbol, quotes: qs };
  }
}

function childFields(o: AlgoChildFields): AlgoChildFields {
  return {
    ...(o.positionSide ? { positionSide: o.positionSide } : {}),
    ...(o.reduceOnly ? { reduceOnly: true } : {}),
    ...(o.leverage !== undefined ? { leverage: o.leverage } : {}),
    ...(o.marginMode ? { marginMode: o.marginMode } : {}),
  };
}

function spec(
  symbol: InstrumentSymbol,
  side: OrderSide,
  type: 'limit' | 'market',
  opts: OrderOptions,
  price: ReturnType<typeof D> | undefined,
  quantity: ReturnType<typeof D>,
): OrderSpec {
  return {
    symbol,
    kind: isContractSymbol(symbol) ? 'contract' : 'spot',
    side,
    type,
    timeInForce: opts.timeInForce ?? 'gtc',
    ...(price ? { price } : {}),
    quantity,
    ...(opts.reduceOnly ? { reduceOnly: true } : {}),
    ...(opts.positionSide ? { positionSide: opts.positionSide } : {}),
    ...(opts.leverage !== undefined ? { leverage: opts.leverage } : {}),
    ...(opts.marginMode ? { marginMode: opts.marginMode } : {}),
    ...(opts.takeProfitPrice !== undefined ? { takeProfitPrice: D(opts.takeProfitPrice) } : {}),
    ...(opts.stopLossPrice !== undefined ? { stopLossPrice: D(opts.stopLossPrice) } : {}),
    ...(opts.triggerPriceType ? { triggerPriceType: opts.triggerPriceType } : {}),
  };
}
