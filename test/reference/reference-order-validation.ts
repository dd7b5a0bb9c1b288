/**
 * Reference copy of the venue's parameter checks as they were before they moved to integers (issue 12,
 * session 17): the price band in Decimal (fair·(1 ± rate) rounded to the tick) and the request parse by
 * exact Decimal division alone (no StepGrid shortcut), frozen here for the reference model so that the
 * differential test holds the venue's integer checks (order-validation.ts) to this version.
 */
import { D, Decimal, type DecimalLike } from '../../src/core/decimal.js';
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
} from '../../src/domain/contract-enums.js';
import { ContractVenueCode } from '../../src/venue/contract/contract-codes.js';
import type { PlaceOrderRequest, Rejected, VenueResult } from '../../src/venue/contract/contract-requests.js';
import type { ContractSpec } from '../../src/venue/contract/contract-spec.js';

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

/** Buys at most fair·(1 + bidLimitPriceRate), sells at least fair·(1 − askLimitPriceRate); none without a fair price. */
export function priceBand(spec: ContractSpec, fair: Decimal | undefined): PriceBand | undefined {
  if (fair === undefined) return undefined;
  const inst = spec.instrument;
  const maxBuy = spec.priceToTicks(fair.mul(ONE.add(inst.bidLimitPriceRate)), 'down');
  const minSell = Math.max(1, spec.priceToTicks(fair.mul(ONE.sub(inst.askLimitPriceRate)), 'up'));
  return { maxBuy, minSell };
}

export function validateOrderRequest(
  req: PlaceOrderRequest,
  spec: ContractSpec,
  mode: PositionMode,
  band: PriceBand | undefined,
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
  const lots = parseLots(spec, req.vol);
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
  let priceTicks = 0;
  let displayPrice = ZERO;
  if (type <= ContractOrderType.FOK) {
    const t = parseTicks(spec, req.price);
    if (t === undefined) return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, 'price must be a positive multiple of priceUnit');
    priceTicks = t;
    displayPrice = spec.ticksToPrice(t);
  } else if (isSet(req.price)) {
    const p = safeDecimal(req.price);
    if (p !== undefined && p.gt(0)) displayPrice = p;
  }
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
