/**
 * The spot venue's command and query shapes, and the conversion of a Decimal-edge order request
 * (strings straight from the wire are fine) into integer units with the venue's scale checks.
 */
import { D, type Decimal, type DecimalLike } from '../../core/decimal.js';
import type { SpotOrderType, SpotSide, SpotStpMode } from '../../domain/spot-enums.js';
import { amountToUnits } from '../ledger/ledger-units.js';
import { checkOrderType, checkSideAllowed, checkSymbolTradable } from './spot-filters.js';
import { lotsOf, ticksOf, type SpotMarket } from './spot-market.js';
import type { SpotOrderRecord, SpotOrderView } from './spot-order.js';
import { REJECT, type SpotRejection } from './spot-rejections.js';

/** POST /api/v3/order parameters as Decimal-like values (strings straight from the wire are fine). */
export interface SpotOrderRequest {
  readonly accountId: string;
  readonly symbol: string;
  readonly side: SpotSide;
  readonly type: SpotOrderType;
  readonly quantity?: DecimalLike | undefined;
  readonly quoteOrderQty?: DecimalLike | undefined;
  readonly price?: DecimalLike | undefined;
  readonly newClientOrderId?: string | undefined;
  readonly stpMode?: SpotStpMode | undefined;
}

/** The same order in integer units. */
export interface SpotUnitsOrderRequest {
  readonly accountId: string;
  readonly symbol: string;
  readonly side: SpotSide;
  readonly type: SpotOrderType;
  readonly priceTicks?: number | undefined;
  readonly lots?: number | undefined;
  /** quoteOrderQty in ledger units. */
  readonly quoteUnits?: bigint | undefined;
  readonly clientOrderId?: string | undefined;
  readonly stpMode?: SpotStpMode | undefined;
}

export type SpotPlaceResult = { readonly ok: true; readonly order: SpotOrderRecord } | SpotRejection;
export type SpotPlaceViewResult = { readonly ok: true; readonly order: SpotOrderView } | SpotRejection;
export type SpotCheckResult = { readonly ok: true } | SpotRejection;

/** Which order: by venue id or by client id (orderId wins when both are given). */
export interface SpotOrderRef {
  readonly orderId?: string | undefined;
  readonly clientOrderId?: string | undefined;
}

export interface SpotHistoryQuery {
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
  readonly limit?: number | undefined;
}

export interface SpotTradeQuery extends SpotHistoryQuery {
  readonly orderId?: string | undefined;
}

export interface AccountFeeRates {
  readonly maker?: DecimalLike | undefined;
  readonly taker?: DecimalLike | undefined;
}

/**
 * Checks what only the Decimal edge can see (price off tick, quantity off step, amount off the quote
 * asset's precision: the real venue's code 400 "… scale is invalid") and converts to units. Symbol,
 * side and type are checked first so the first failing rule names the error, as in place().
 */
export function toUnitsRequest(
  m: SpotMarket | undefined,
  req: SpotOrderRequest,
  scale: number,
): { ok: true; req: SpotUnitsOrderRequest } | SpotRejection {
  if (!m) return REJECT.invalidSymbol();
  const pre = checkPlaceable(m, req.side, req.type);
  if (pre) return pre;
  let priceTicks: number | undefined;
  let lots: number | undefined;
  let quoteUnits: bigint | undefined;
  if (req.price !== undefined && req.type !== 'MARKET') {
    const p = parsePositive(req.price);
    if (!p) return REJECT.mandatory('price');
    priceTicks = ticksOf(m, p);
    if (priceTicks === undefined) return REJECT.priceScale();
  }
  if (req.quantity !== undefined) {
    const q = parsePositive(req.quantity);
    if (!q) return REJECT.mandatory('quantity');
    lots = lotsOf(m, q);
    if (lots === undefined) return REJECT.quantityScale();
  }
  if (req.quoteOrderQty !== undefined) {
    const a = parsePositive(req.quoteOrderQty);
    if (!a) return REJECT.mandatory('quoteOrderQty');
    try {
      quoteUnits = amountToUnits(a, scale);
    } catch {
      return REJECT.amountScale();
    }
    if (quoteUnits % m.amountStepUnits !== 0n) return REJECT.amountScale();
  }
  return {
    ok: true,
    req: {
      accountId: req.accountId,
      symbol: req.symbol,
      side: req.side,
      type: req.type,
      priceTicks,
      lots,
      quoteUnits,
      clientOrderId: req.newClientOrderId === '' ? undefined : req.newClientOrderId,
      stpMode: req.stpMode,
    },
  };
}

/**
 * The rules toUnitsRequest checks before any value, in its order: symbol, side, type. For a caller that
 * hands the venue units it counted itself (the backtest's simulated spot venue), so that its refusals
 * come in the same order as a Decimal request's.
 */
export function checkPlaceable(m: SpotMarket | undefined, side: SpotSide, type: SpotOrderType): SpotRejection | undefined {
  if (!m) return REJECT.invalidSymbol();
  return checkSymbolTradable(m) ?? checkSideAllowed(m, side) ?? checkOrderType(m, type);
}

export function isPositiveInt(v: number): boolean {
  return Number.isSafeInteger(v) && v > 0;
}

/** A finite amount above zero, or undefined for anything else (including unparsable text). */
export function parsePositive(v: DecimalLike): Decimal | undefined {
  try {
    const d = D(v);
    return d.isFinite() && d.gt(0) ? d : undefined;
  } catch {
    return undefined;
  }
}
