/**
 * Domain orders ↔ the spot wire (/api/v3). Pure functions; the gateway does the calls.
 *
 * Type and time in force are one field on this venue:
 *   limit  + gtc        → LIMIT
 *   limit  + post-only  → LIMIT_MAKER
 *   limit  + ioc        → IMMEDIATE_OR_CANCEL
 *   limit  + fok        → FILL_OR_KILL
 *   market + gtc / ioc  → MARKET (quantity, or quoteOrderQty for a buy by quote amount)
 * A market order cannot be post-only or fill-or-kill here, and spot knows no reduce-only, position
 * side, leverage, margin mode or TP/SL: such a spec is refused before anything is sent.
 */
import { stepOfPrecision, toPlain, type Decimal, ZERO } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import { clientOrderId, orderId, tradeId, type InstrumentSymbol, type SpotSymbol } from '../../core/ids.js';
import type { SpotOrder } from '../../api/spot/orders.js';
import type { SpotOwnTrade } from '../../api/spot/account.js';
import type { SpotSide, SpotOrderType, SpotStpMode } from '../../domain/spot-enums.js';
import type { SpotInstrument } from '../../domain/instrument.js';
import type { Fill } from '../../domain/fill.js';
import type { OrderSide, OrderStatus, OrderType, TimeInForce, VenueOrder } from '../../domain/order.js';
import type { PlaceRequest } from '../exchange-gateway.js';
import { limitPriceOnTick, limitPriceTicks, quantityOnStep, quantitySteps } from './order-rounding.js';
import { checkClientId } from './client-id-check.js';

/** The newOrder / batchOrders element parameters, exactly as they go on the wire. */
export interface SpotOrderWire {
  readonly symbol: string;
  readonly side: SpotSide;
  readonly type: SpotOrderType;
  readonly quantity?: string;
  readonly quoteOrderQty?: string;
  readonly price?: string;
  readonly newClientOrderId: string;
  readonly stpMode?: SpotStpMode;
}

export const SPOT_CLIENT_ID_MAX = 32;

const LIMIT_TYPES: Readonly<Record<TimeInForce, SpotOrderType>> = {
  gtc: 'LIMIT',
  'post-only': 'LIMIT_MAKER',
  ioc: 'IMMEDIATE_OR_CANCEL',
  fok: 'FILL_OR_KILL',
};

export function spotOrderType(type: OrderType, tif: TimeInForce): SpotOrderType {
  if (type === 'limit') return LIMIT_TYPES[tif];
  if (tif === 'gtc' || tif === 'ioc') return 'MARKET';
  throw new ValidationError(
    'order.timeInForce',
    'gtc or ioc for a spot market order (the venue has no post-only or fill-or-kill market order)',
    tif,
  );
}

export const spotSide = (s: OrderSide): SpotSide => (s === 'buy' ? 'BUY' : 'SELL');

/** Refuses what the spot venue cannot express, naming the field. */
function refuseContractOnly(req: PlaceRequest): void {
  const o = req.order;
  if (o.kind !== 'spot') throw new ValidationError('order.kind', 'spot (this is the spot gateway)', o.kind);
  if (o.reduceOnly) throw new ValidationError('order.reduceOnly', 'absent on spot (no positions to reduce)', o.reduceOnly);
  if (o.positionSide !== undefined) throw new ValidationError('order.positionSide', 'absent on spot', o.positionSide);
  if (o.leverage !== undefined) throw new ValidationError('order.leverage', 'absent on spot', o.leverage);
  if (o.marginMode !== undefined) throw new ValidationError('order.marginMode', 'absent on spot', o.marginMode);
  if (o.takeProfitPrice !== undefined || o.stopLossPrice !== undefined)
    throw new ValidationError('order.takeProfitPrice', 'absent on spot (the spot venue has no TP/SL on orders)');
}

/**
 * What every spot placement is checked for before a value is written (spotOrderParams, spotOrderCounts):
 * a spot spec for this instrument, a client id the venue keeps as sent, the fields its type needs.
 * Returns the venue's order type.
 */
function checkedSpotType(req: PlaceRequest, instrument: SpotInstrument): SpotOrderType {
  refuseContractOnly(req);
  const o = req.order;
  if (o.symbol !== instrument.symbol) throw new ValidationError('order.symbol', instrument.symbol, o.symbol);
  checkClientId(req.clientOrderId, SPOT_CLIENT_ID_MAX);
  const type = spotOrderType(o.type, o.timeInForce);
  if (type !== 'MARKET') {
    if (!o.price) throw new ValidationError('order.price', 'a price for a limit order');
    if (!o.quantity) throw new ValidationError('order.quantity', 'a quantity for a limit order');
    if (o.quoteQuantity) throw new ValidationError('order.quoteQuantity', 'absent on a limit order');
    return type;
  }
  if (o.quantity && o.quoteQuantity)
    throw new ValidationError('order.quoteQuantity', 'either quantity or quoteQuantity on a market order, not both');
  if (o.quantity) return type;
  if (o.quoteQuantity) {
    if (o.side !== 'buy') throw new ValidationError('order.quoteQuantity', 'only on a market buy (a sell gives the base quantity)');
    return type;
  }
  throw new ValidationError('order.quantity', 'quantity or quoteQuantity for a market order');
}

/** PlaceRequest → wire parameters: type from type + time in force, price to tick, quantity to step. */
export function spotOrderParams(req: PlaceRequest, instrument: SpotInstrument, stpMode?: SpotStpMode): SpotOrderWire {
  const type = checkedSpotType(req, instrument);
  const o = req.order;
  const base = {
    symbol: o.symbol,
    side: spotSide(o.side),
    type,
    newClientOrderId: req.clientOrderId,
    ...(stpMode !== undefined ? { stpMode } : {}),
  };
  if (type !== 'MARKET')
    return {
      ...base,
      quantity: toPlain(quantityOnStep(o.quantity!, instrument.step)),
      price: toPlain(limitPriceOnTick(o.price!, instrument.tick, o.side)),
    };
  if (o.quantity) return { ...base, quantity: toPlain(quantityOnStep(o.quantity, instrument.step)) };
  // The amount to spend: truncated, so we never spend more than asked.
  return {
    ...base,
    quoteOrderQty: toPlain(quantityOnStep(o.quoteQuantity!, stepOfPrecision(instrument.quoteAssetPrecision), 'order.quoteQuantity')),
  };
}

/** A spot placement in whole ticks of the price and steps of the quantity (see spotOrderCounts). */
export interface SpotOrderCounts {
  readonly side: SpotSide;
  readonly type: SpotOrderType;
  /** Absent on a market order. */
  readonly priceTicks: number | undefined;
  readonly lots: number;
}

/**
 * spotOrderParams as counts instead of text, for a venue that works in ticks and lots (the backtest's
 * simulated spot venue): the same checks, rounding and refusals, without writing the decimals out and
 * parsing them back. Undefined for a market buy by quote amount, which has no count of steps: it goes
 * by spotOrderParams.
 */
export function spotOrderCounts(req: PlaceRequest, instrument: SpotInstrument): SpotOrderCounts | undefined {
  const type = checkedSpotType(req, instrument);
  const o = req.order;
  if (type === 'MARKET' && !o.quantity) return undefined;
  // Quantity before price, as spotOrderParams rounds them (its first refusal is the quantity's).
  const lots = quantitySteps(o.quantity!, instrument.step);
  const priceTicks = type === 'MARKET' ? undefined : limitPriceTicks(o.price!, instrument.tick, o.side);
  return { side: spotSide(o.side), type, priceTicks, lots };
}

const TYPE_BACK: Readonly<Record<SpotOrderType, { type: OrderType; timeInForce: TimeInForce }>> = {
  LIMIT: { type: 'limit', timeInForce: 'gtc' },
  LIMIT_MAKER: { type: 'limit', timeInForce: 'post-only' },
  IMMEDIATE_OR_CANCEL: { type: 'limit', timeInForce: 'ioc' },
  FILL_OR_KILL: { type: 'limit', timeInForce: 'fok' },
  MARKET: { type: 'market', timeInForce: 'ioc' },
};

/** Types the venue itself closes when they cannot fill: CANCELED for them means expired. */
const IMMEDIATE: ReadonlySet<SpotOrderType> = new Set(['IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL', 'MARKET']);

export function spotOrderStatus(status: SpotOrder['status'], type: SpotOrderType, executedQty: Decimal): OrderStatus {
  switch (status) {
    case 'NEW':
      return executedQty.gt(0) ? 'partially-filled' : 'accepted';
    case 'PARTIALLY_FILLED':
      return 'partially-filled';
    case 'FILLED':
      return 'filled';
    case 'CANCELED':
    case 'PARTIALLY_CANCELED':
      return IMMEDIATE.has(type) ? 'expired' : 'cancelled';
  }
}

/** A spot order as queried / listed → VenueOrder (PARTIALLY_CANCELED is cancelled with filledQty > 0). */
export function venueOrderFromSpot(o: SpotOrder): VenueOrder {
  const { type, timeInForce } = TYPE_BACK[o.type];
  const filledQty = o.executedQty;
  const quoteQty = o.origQuoteOrderQty;
  return {
    venueOrderId: orderId(o.orderId),
    ...(o.clientOrderId ? { clientOrderId: clientOrderId(o.clientOrderId) } : {}),
    symbol: o.symbol as SpotSymbol,
    kind: 'spot',
    side: o.side === 'BUY' ? 'buy' : 'sell',
    type,
    timeInForce,
    ...(o.price && o.price.gt(0) ? { price: o.price } : {}),
    ...(o.origQty.gt(0) ? { quantity: o.origQty } : {}),
    // Limit orders report origQuoteOrderQty too (price × quantity); only a market order is sized by it.
    ...(type === 'market' && quoteQty && quoteQty.gt(0) ? { quoteQuantity: quoteQty } : {}),
    status: spotOrderStatus(o.status, o.type, filledQty),
    filledQty,
    filledNotional: o.cummulativeQuoteQty,
    ...(filledQty.gt(0) ? { avgFillPrice: o.cummulativeQuoteQty.div(filledQty) } : {}),
    createdAt: o.time,
    ...(o.updateTime !== undefined ? { updatedAt: o.updateTime } : {}),
  };
}

/**
 * An own trade → Fill (fee in the commission asset; isMaker gives the liquidity). A self-trade gives two
 * own-trade records under one trade id, the maker's and the taker's, and both are fills of ours: the
 * maker side is named `<id>-m` (as the backtest's simulated venue names it) so that everything keyed by
 * trade id (dedupe, the journal's fills table) counts each side once.
 */
export function fillFromSpotTrade(t: SpotOwnTrade): Fill {
  return {
    tradeId: tradeId(spotFillId(t)),
    venueOrderId: orderId(t.orderId),
    ...(t.clientOrderId ? { clientOrderId: clientOrderId(t.clientOrderId) } : {}),
    symbol: t.symbol as InstrumentSymbol,
    kind: 'spot',
    side: t.isBuyer ? 'buy' : 'sell',
    price: t.price,
    quantity: t.qty,
    fee: t.commission ?? ZERO,
    feeAsset: t.commissionAsset ?? '',
    liquidity: t.isMaker ? 'maker' : 'taker',
    time: t.time,
  };
}

/** The trade id a Fill of this own-trade record carries (see fillFromSpotTrade). */
export function spotFillId(t: Pick<SpotOwnTrade, 'id' | 'isMaker' | 'isSelfTrade'>): string {
  return t.isSelfTrade === true && t.isMaker ? `${t.id}-m` : t.id;
}
