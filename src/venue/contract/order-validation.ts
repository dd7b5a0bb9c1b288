/**
 * Parameter checks of POST order/create that need only the request, the contract and the account's
 * position mode. A failure here is answered without an order record (the request never became an
 * order); checks against positions and balances come later in the venue and record an invalid order.
 */
import { D, Decimal, type DecimalLike } from '../../core/decimal.js';
import {
  ContractOrderErrorCode,
  ContractOrderType,
  ContractStpMode,
  OpenType,
  PositionMode,
  PositionOpenType,
  PositionType,
  isOpenSide,
  sideIsBuy,
  sidePositionType,
  type ContractSide,
} from '../../domain/contract-enums.js';
import { ContractVenueCode } from './contract-codes.js';
import { lastCall2 } from '../../core/last-call.js';
import type { PlaceOrderRequest, PlaceOrderTicksRequest, Rejected, VenueResult } from './contract-requests.js';
import type { ContractSpec } from './contract-spec.js';

export interface ValidatedOrder {
  readonly side: ContractSide;
  readonly type: ContractOrderType;
  readonly openType: OpenType;
  readonly stpMode: ContractStpMode;
  readonly reduceOnly: boolean;
  readonly lots: number;
  /** Limit in ticks for types 1–4; 0 for 5 and 6 (decided at matching time). */
  readonly priceTicks: number;
  /** Price shown in the order record. */
  readonly displayPrice: Decimal;
  readonly isBuy: boolean;
  /** Only reduces a position: hedged close sides; one-way close sides or reduceOnly. */
  readonly closing: boolean;
  /** The position type the order opens, or reduces when closing. */
  readonly positionType: PositionType;
}

/** Allowed limit prices around the fair price, in ticks. */
export interface PriceBand {
  readonly maxBuy: number;
  readonly minSell: number;
}

const ONE = new Decimal(1);
const ZERO = new Decimal(0);

/**
 * Buys at most fair·(1 + bidLimitPriceRate), sells at least fair·(1 − askLimitPriceRate); none without a
 * fair price. The last answer is kept (fair prices are immutable Decimals: the same object is the same
 * price): every placement between two fair-price moves asks it, and in a backtest two a placement of
 * ours (the crowd's liquidity, then ours). A fair price on the tick grid is answered in integers
 * (bandInTicks); any other in Decimal, as before.
 */
export const priceBand = lastCall2((spec: ContractSpec, fair: Decimal | undefined): PriceBand | undefined => {
  if (fair === undefined) return undefined;
  return bandInTicks(spec, fair) ?? bandInDecimal(spec, fair);
});

function bandInDecimal(spec: ContractSpec, fair: Decimal): PriceBand {
  const inst = spec.instrument;
  const maxBuy = spec.priceToTicks(fair.mul(ONE.add(inst.bidLimitPriceRate)), 'down');
  const minSell = Math.max(1, spec.priceToTicks(fair.mul(ONE.sub(inst.askLimitPriceRate)), 'up'));
  return { maxBuy, minSell };
}

/**
 * The band of a fair price F ticks on the grid, with the rates as fractions up/den and down/den:
 * fair·(1 + rate) / tick = F·up / den, so maxBuy = ⌊F·up / den⌋ and minSell = max(1, ⌈F·down / den⌉),
 * exactly what the Decimal path rounds. Undefined when the fair price is off the grid or a product
 * would pass 2^53 (the Decimal path then answers, or throws, as before).
 */
function bandInTicks(spec: ContractSpec, fair: Decimal): PriceBand | undefined {
  const f = spec.tickGrid.exactSteps(fair);
  if (f === undefined) return undefined;
  const r = bandRates(spec.instrument);
  if (r === undefined) return undefined;
  const upper = f * r.up;
  const lower = f * r.down;
  if (!Number.isSafeInteger(upper + r.den) || !Number.isSafeInteger(Math.abs(lower) + r.den)) return undefined;
  return { maxBuy: floorDiv(upper, r.den), minSell: Math.max(1, -floorDiv(-lower, r.den)) };
}

/** ⌊a / b⌋ for safe integers (b > 0, |a| + b below 2^53): the rounded quotient corrected by one exact test each way. */
function floorDiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  if (q * b > a) q--;
  else if ((q + 1) * b <= a) q++;
  return q;
}

/** 1 + bidLimitPriceRate and 1 − askLimitPriceRate as up/den and down/den (den a power of ten), or undefined when not small integers. */
interface BandRates {
  readonly up: number;
  readonly down: number;
  readonly den: number;
}

/** Per instrument (immutable); a cache beside it, not in it (snapshots write an object's own fields). */
const bandRatesOf = new WeakMap<ContractSpec['instrument'], BandRates | null>();

/** Asked only for a new fair price (priceBand keeps its last answer). */
function bandRates(inst: ContractSpec['instrument']): BandRates | undefined {
  let r = bandRatesOf.get(inst);
  if (r === undefined) {
    const up = ONE.add(inst.bidLimitPriceRate);
    const down = ONE.sub(inst.askLimitPriceRate);
    const places = Math.max(up.decimalPlaces(), down.decimalPlaces());
    const den = 10 ** places;
    const upN = up.mul(den).toNumber();
    const downN = down.mul(den).toNumber();
    r = places <= 15 && Number.isSafeInteger(upN) && Number.isSafeInteger(downN) ? { up: upN, down: downN, den } : null;
    bandRatesOf.set(inst, r);
  }
  return r ?? undefined;
}

/** The request's fields besides its price and size: what a placement in decimals and one in ticks and lots share. */
export type OrderFields = Omit<PlaceOrderRequest, 'price' | 'vol'>;

/**
 * The checks of a request in decimals: its vol and price parsed to lots and ticks (undefined when not a
 * positive multiple of the step), then the integer checks (validateOrder).
 */
export function validateOrderRequest(
  req: PlaceOrderRequest,
  spec: ContractSpec,
  mode: PositionMode,
  band: PriceBand | undefined,
): VenueResult<ValidatedOrder> {
  const limit = isCode(req.type, 1, ContractOrderType.FOK);
  const lots = parseLots(spec, req.vol);
  const priceTicks = limit ? parseTicks(spec, req.price) : 0;
  return validateOrder(req, spec, mode, band, lots, priceTicks, limit ? ZERO : marketDisplayPrice(req.price));
}

/** The checks of a request in ticks and lots: the same checks, without a parse. */
export function validateOrderTicks(
  req: PlaceOrderTicksRequest,
  spec: ContractSpec,
  mode: PositionMode,
  band: PriceBand | undefined,
): VenueResult<ValidatedOrder> {
  const limit = isCode(req.type, 1, ContractOrderType.FOK);
  const priceTicks = wholePositive(req.priceTicks);
  return validateOrder(
    req,
    spec,
    mode,
    band,
    wholePositive(req.lots),
    limit ? priceTicks : 0,
    limit || priceTicks === undefined ? ZERO : spec.ticksToPrice(priceTicks),
  );
}

/** n when a whole number > 0 within 2^53, else undefined (what the parse answers for a value off the grid). */
const wholePositive = (n: number): number | undefined => (Number.isSafeInteger(n) && n > 0 ? n : undefined);

/** A market order's price is not checked; a positive one is shown in the order record. */
function marketDisplayPrice(price: DecimalLike | undefined): Decimal {
  if (!isSet(price)) return ZERO;
  const p = safeDecimal(price);
  return p !== undefined && p.gt(0) ? p : ZERO;
}

/**
 * The parameter checks, in the order the venue answers them, on a request's lots (undefined: not a
 * positive multiple of volUnit) and limit in ticks (undefined: not a positive multiple of priceUnit;
 * 0 for market types, shown at `marketPrice`).
 */
function validateOrder(
  req: OrderFields,
  spec: ContractSpec,
  mode: PositionMode,
  band: PriceBand | undefined,
  lots: number | undefined,
  limitTicks: number | undefined,
  marketPrice: Decimal,
): VenueResult<ValidatedOrder> {
  const inst = spec.instrument;
  if (!isCode(req.side, 1, 4)) return refuse(ContractVenueCode.PARAMETER, 'side must be 1–4');
  if (!isCode(req.type, 1, 6)) return refuse(ContractVenueCode.PARAMETER, 'type must be 1–6');
  if (req.openType !== OpenType.ISOLATED && req.openType !== OpenType.CROSS)
    return refuse(ContractVenueCode.PARAMETER, 'openType must be 1 or 2');
  if (
    (inst.positionOpenType === PositionOpenType.ISOLATED && req.openType !== OpenType.ISOLATED) ||
    (inst.positionOpenType === PositionOpenType.CROSS && req.openType !== OpenType.CROSS)
  ) {
    return refuse(ContractVenueCode.WRONG_OPEN_TYPE, 'open type not supported by the contract');
  }
  const stpMode = req.stpMode ?? ContractStpMode.NONE;
  if (!isCode(stpMode, 0, 3)) return refuse(ContractVenueCode.PARAMETER, 'stpMode must be 0–3');
  if (req.positionMode !== undefined && req.positionMode !== mode) {
    return refuse(ContractVenueCode.PARAMETER, `positionMode ${req.positionMode} does not match the account's mode ${mode}`);
  }
  const reduceOnly = req.reduceOnly === true;
  if (reduceOnly && mode === PositionMode.HEDGED) return refuse(ContractVenueCode.PARAMETER, 'reduceOnly is accepted only in one-way mode');
  if (lots === undefined) return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, 'vol is not a multiple of volUnit');
  if (lots < spec.minLots || lots > spec.maxLots)
    return refuse(ContractVenueCode.PARAMETER, `vol must be within [${inst.minVol.toString()}, ${inst.maxVol.toString()}]`);
  if (
    req.leverage !== undefined &&
    (!Number.isInteger(req.leverage) || req.leverage < inst.minLeverage || req.leverage > inst.maxLeverage)
  ) {
    return refuse(ContractVenueCode.LEVERAGE_ERROR, `leverage must be an integer within [${inst.minLeverage}, ${inst.maxLeverage}]`);
  }
  const type = req.type;
  if (limitTicks === undefined)
    return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, 'price must be a positive multiple of priceUnit');
  const priceTicks = limitTicks;
  const displayPrice = priceTicks > 0 ? spec.ticksToPrice(priceTicks) : marketPrice;
  const isBuy = sideIsBuy(req.side);
  if (priceTicks > 0 && band && (isBuy ? priceTicks > band.maxBuy : priceTicks < band.minSell)) {
    return refuse(ContractVenueCode.ORDER_PRICE_ERROR, 'price outside the allowed range of the fair price');
  }
  const oneWay = mode === PositionMode.ONE_WAY;
  const closing = oneWay ? !isOpenSide(req.side) || reduceOnly : !isOpenSide(req.side);
  // One-way: a buy opens a long or reduces the short; hedged: the side names the position.
  const positionType = oneWay ? (closing === isBuy ? PositionType.SHORT : PositionType.LONG) : sidePositionType(req.side);
  return {
    ok: true,
    value: {
      side: req.side,
      type,
      openType: req.openType,
      stpMode,
      reduceOnly,
      lots,
      priceTicks,
      displayPrice,
      isBuy,
      closing,
      positionType,
    },
  };
}

/** One of the integer codes min…max (what `[min, …, max].includes(v)` answered, without the array). */
const isCode = (v: unknown, min: number, max: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Whole lots of a positive vol, or undefined when it is not a positive multiple of volUnit. */
export function parseLots(spec: ContractSpec, vol: DecimalLike | undefined): number | undefined {
  const fast = spec.lotGrid.exactSteps(vol);
  if (fast !== undefined) return fast;
  const v = safeDecimal(vol);
  if (v === undefined || !v.gt(0)) return undefined;
  try {
    return spec.volToLots(v, 'exact');
  } catch {
    return undefined;
  }
}

/** Whole ticks of a positive price, or undefined when it is not a positive multiple of priceUnit. */
export function parseTicks(spec: ContractSpec, price: DecimalLike | undefined): number | undefined {
  const fast = spec.tickGrid.exactSteps(price);
  if (fast !== undefined) return fast;
  const p = safeDecimal(price);
  if (p === undefined || !p.gt(0)) return undefined;
  try {
    return spec.priceToTicks(p, 'exact');
  } catch {
    return undefined;
  }
}

export function safeDecimal(v: DecimalLike | null | undefined): Decimal | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  try {
    const d = D(v);
    return d.isFinite() ? d : undefined;
  } catch {
    return undefined;
  }
}

/** A value given and not zero (the venue treats 0 as "not set" for optional prices). */
export function isSet(v: DecimalLike | undefined): boolean {
  const d = safeDecimal(v);
  return d !== undefined && !d.isZero();
}

function refuse(code: number, message: string): Rejected {
  return { ok: false, code, errorCode: ContractOrderErrorCode.PARAMETER, message };
}
