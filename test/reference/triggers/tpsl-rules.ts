/**
 * Rules of a take-profit / stop-loss pair wherever one is given (order/create, stoporder/*,
 * planorder/place/v2, planorder/change_stop_order):
 *
 *  - a price of null, '' or 0 means "no such leg"; a negative price is a parameter error (600);
 *  - a set price must be a positive multiple of priceUnit (2015);
 *  - its trend must be 1, 2 or 3 (latest, fair, index) — anything else is 3001 "price type error";
 *    an omitted trend is 1;
 *  - a long's take-profit lies above the reference price and its stop-loss below; a short's the other
 *    way round (600 otherwise: such a leg would fire at once, which no trader means).
 */
import type { Decimal } from '../../../src/core/decimal.js';
import { ContractOrderErrorCode, PositionType, PriceTrend } from '../../../src/domain/contract-enums.js';
import { ContractVenueCode } from '../../../src/venue/contract/contract-codes.js';
import type { Rejected, VenueResult } from '../../../src/venue/contract/contract-requests.js';
import type { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import { parseTicks, safeDecimal } from '../reference-order-validation.js';
import { isTrend } from './trigger-prices.js';
import type { TpSlPrice } from '../../../src/venue/contract/triggers/trigger-requests.js';

export interface TpSlLeg {
  /** Undefined: no leg. */
  readonly price: Decimal | undefined;
  readonly trend: PriceTrend;
}

export interface TpSlPair {
  readonly stopLoss: TpSlLeg;
  readonly takeProfit: TpSlLeg;
}

export function refuse(code: number, message: string, errorCode: ContractOrderErrorCode = ContractOrderErrorCode.PARAMETER): Rejected {
  return { ok: false, code, errorCode, message };
}

/** Whether a TP/SL price field carries a price (> 0, or anything that is not a number: the parser reports it). */
export function hasPrice(v: TpSlPrice): boolean {
  if (v === undefined || v === null || v === '') return false;
  const d = safeDecimal(v);
  return d === undefined || !d.isZero();
}

/**
 * One leg. `trend` undefined means "omitted" (1). A trend that is given is checked only when the leg
 * has a price: the document lets a cancelling request carry any trend.
 */
export function parseLeg(
  spec: ContractSpec,
  price: TpSlPrice,
  trend: number | undefined,
  name: 'stopLossPrice' | 'takeProfitPrice',
): VenueResult<TpSlLeg> {
  const trendName = name === 'stopLossPrice' ? 'lossTrend' : 'profitTrend';
  if (!hasPrice(price)) return { ok: true, value: { price: undefined, trend: isTrend(trend) ? trend : PriceTrend.LATEST } };
  const d = safeDecimal(price);
  if (d === undefined || d.lt(0)) return refuse(ContractVenueCode.PARAMETER, `${name} must be a decimal number >= 0`);
  if (parseTicks(spec, d) === undefined)
    return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, `${name} must be a positive multiple of priceUnit ${spec.tick.toString()}`);
  const t = trend ?? PriceTrend.LATEST;
  if (!isTrend(t))
    return refuse(ContractVenueCode.PRICE_TYPE_ERROR, `${trendName} must be 1, 2 or 3 (latest, fair, index price) when ${name} is set`);
  return { ok: true, value: { price: d, trend: t } };
}

export function parsePair(
  spec: ContractSpec,
  p: { stopLossPrice?: TpSlPrice; takeProfitPrice?: TpSlPrice; lossTrend?: number | undefined; profitTrend?: number | undefined },
): VenueResult<TpSlPair> {
  const sl = parseLeg(spec, p.stopLossPrice, p.lossTrend, 'stopLossPrice');
  if (!sl.ok) return sl;
  const tp = parseLeg(spec, p.takeProfitPrice, p.profitTrend, 'takeProfitPrice');
  if (!tp.ok) return tp;
  return { ok: true, value: { stopLoss: sl.value, takeProfit: tp.value } };
}

/**
 * The side of the reference each leg must lie on. `reference(trend)` is the order price for a TP/SL
 * that waits for a limit order, or the trend's current price; undefined skips the check.
 */
export function checkDirection(
  positionType: PositionType,
  pair: TpSlPair,
  reference: (trend: PriceTrend) => Decimal | undefined,
): Rejected | undefined {
  const long = positionType === PositionType.LONG;
  const tp = pair.takeProfit;
  if (tp.price !== undefined) {
    const ref = reference(tp.trend);
    if (ref !== undefined && (long ? !tp.price.gt(ref) : !tp.price.lt(ref))) {
      return refuse(
        ContractVenueCode.PARAMETER,
        `takeProfitPrice ${tp.price.toString()} must be ${long ? 'above' : 'below'} ${ref.toString()} for a ${long ? 'long' : 'short'} position`,
      );
    }
  }
  const sl = pair.stopLoss;
  if (sl.price !== undefined) {
    const ref = reference(sl.trend);
    if (ref !== undefined && (long ? !sl.price.lt(ref) : !sl.price.gt(ref))) {
      return refuse(
        ContractVenueCode.PARAMETER,
        `stopLossPrice ${sl.price.toString()} must be ${long ? 'below' : 'above'} ${ref.toString()} for a ${long ? 'long' : 'short'} position`,
      );
    }
  }
  return undefined;
}

/** 1 or 2 (default 2: no reverse). */
export function reverseFlag(v: number | undefined, name: string): VenueResult<1 | 2> {
  if (v === undefined) return { ok: true, value: 2 };
  if (v === 1 || v === 2) return { ok: true, value: v };
  return refuse(ContractVenueCode.PARAMETER, `${name} must be 1 (reverse after trigger) or 2`);
}
