/**
 * One spot symbol compiled for the hot path: every Decimal rule of the SpotInstrument turned once into
 * integer ticks, lots and bigint ledger units, plus the symbol's order book and last trade price.
 *
 *   price  = priceTicks · tick          qty   = lots · step
 *   base   = lots · baseUnitsPerLot     quote = priceTicks · lots · quoteUnitsPerTickLot   (ledger units)
 */
import { D, Decimal, toUnits, type DecimalLike } from '../../core/decimal.js';
import type { SpotInstrument } from '../../domain/instrument.js';
import { OrderBook } from '../book/order-book.js';
import { exactFeePer, feeRate, type FeeRate } from '../ledger/fee-rate.js';
import type { LedgerMeasure } from '../ledger/ledger.js';
import { amountToUnits, unitsPer, unitsToDecimal, LEDGER_SCALE } from '../ledger/ledger-units.js';
import type { SpotOrder } from './spot-order.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A PERCENT_PRICE_BY_SIDE multiplier as num/den. `fractional` (value < 1) is a band around the last
 * price (buy ≤ last·(1+m), sell ≥ last·(1−m)); otherwise the multiplier applies literally
 * (wire-protocol.md).
 */
export interface PriceBand {
  readonly num: bigint;
  readonly den: bigint;
  readonly fractional: boolean;
  /** den and the buy / sell factors (den±num when fractional, else num) as numbers; NaN past 2^53. */
  readonly denNum: number;
  readonly upNum: number;
  readonly downNum: number;
}

export interface SpotMarket {
  readonly instrument: SpotInstrument;
  readonly symbol: string;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly baseUnitsPerLot: bigint;
  readonly quoteUnitsPerTickLot: bigint;
  /** Granularity of quoteOrderQty (10^-quoteAssetPrecision) in ledger units. */
  readonly amountStepUnits: bigint;
  readonly minLots: number;
  readonly minQuoteUnits: bigint;
  readonly minQuoteUnitsMarket: bigint;
  readonly maxQuoteUnits: bigint;
  readonly maxQuoteUnitsMarket: bigint;
  readonly makerFee: FeeRate;
  readonly takerFee: FeeRate;
  readonly bidBand: PriceBand | undefined;
  readonly askBand: PriceBand | undefined;
  readonly book: OrderBook<SpotOrder, number>;
  /** Price of the last trade on this venue, or a reference price set from outside (market model). */
  lastPriceTicks: number | undefined;

  // ---- cached for the hot path (numbers instead of Decimal and bigint work per command)
  /** The instrument's tick and step as Decimals (views). */
  readonly tick: Decimal;
  readonly step: Decimal;
  /**
   * tick · step (the quote of one tick-lot) when any safe count of it multiplies exactly within the
   * Decimal precision; undefined otherwise (then quote views are built from ledger units).
   */
  readonly tickLot: Decimal | undefined;
  /**
   * Amount limits in tick-lots: for a whole number t of tick-lots, t·quoteUnitsPerTickLot < minUnits
   * exactly when t < minTickLots, and > maxUnits exactly when t > maxTickLots (ceil / floor of the
   * quotient; Infinity beyond 2^53 or for "no maximum").
   */
  readonly minTickLots: number;
  readonly maxTickLots: number;
  readonly minTickLotsMarket: number;
  readonly maxTickLotsMarket: number;
  readonly makerSteps: FeeSteps;
  readonly takerSteps: FeeSteps;
  /** @internal the ledger measures of one lot of base and one tick-lot of quote; set by the venue trading it. */
  baseMeasure: LedgerMeasure | undefined;
  quoteMeasure: LedgerMeasure | undefined;
  /** @internal which sides and types pass the symbol, side and type rules (spot-filters admissionTable); set by the venue. */
  admits: AdmissionTable | undefined;
}

/** Per side, one bit per order type (spot-filters typeBit) that passes the symbol, side and type rules. */
export interface AdmissionTable {
  readonly buy: number;
  readonly sell: number;
}

/**
 * A commission rate applied to this market's units: exact fee units per lot (taken from base a buyer
 * receives) and per tick-lot (taken from quote a seller receives), or undefined where ceil() rounding
 * would make the fee of n counts differ from n times the fee of one (those fees take the bigint path).
 */
export interface FeeSteps {
  readonly rate: FeeRate;
  readonly perLot: bigint | undefined;
  readonly perTickLot: bigint | undefined;
  /** @internal ledger measures of perLot / perTickLot (undefined for a zero or inexact step); set by the venue. */
  perLotMeasure: LedgerMeasure | undefined;
  perTickLotMeasure: LedgerMeasure | undefined;
}

export function feeSteps(rate: FeeRate, baseUnitsPerLot: bigint, quoteUnitsPerTickLot: bigint): FeeSteps {
  return {
    rate,
    perLot: exactFeePer(baseUnitsPerLot, rate),
    perTickLot: exactFeePer(quoteUnitsPerTickLot, rate),
    perLotMeasure: undefined,
    perTickLotMeasure: undefined,
  };
}

export function compileSpotMarket(instrument: SpotInstrument, scale = LEDGER_SCALE): SpotMarket {
  const tick = D(instrument.tick);
  const step = D(instrument.step);
  if (!tick.gt(0) || !step.gt(0)) throw new RangeError(`${instrument.symbol}: tick and step must be positive`);
  const band = (m: Decimal | undefined): PriceBand | undefined => {
    if (m === undefined || m.isZero()) return undefined;
    const dp = m.decimalPlaces();
    const den = 10n ** BigInt(dp);
    const num = BigInt(m.mul(D(10).pow(dp)).toFixed(0));
    const fractional = m.lt(1);
    const safe = (v: bigint): number => (v <= MAX_SAFE ? Number(v) : NaN);
    return {
      num,
      den,
      fractional,
      denNum: safe(den),
      upNum: safe(fractional ? den + num : num),
      downNum: safe(fractional ? den - num : num),
    };
  };
  const minQty = D(instrument.minQuantity);
  const baseUnitsPerLot = unitsPer(step, scale);
  const quoteUnitsPerTickLot = unitsPer(tick.mul(step), scale);
  const minQuoteUnits = nonNegativeUnits(instrument.minQuoteAmount, scale);
  const minQuoteUnitsMarket = nonNegativeUnits(instrument.minQuoteAmountMarket, scale);
  const maxQuoteUnits = positiveOrUnlimited(instrument.maxQuoteAmount, scale);
  const maxQuoteUnitsMarket = positiveOrUnlimited(instrument.maxQuoteAmountMarket, scale);
  const makerFee = feeRate(instrument.makerCommission);
  const takerFee = feeRate(instrument.takerCommission);
  return {
    instrument,
    symbol: instrument.symbol,
    baseAsset: instrument.baseAsset,
    quoteAsset: instrument.quoteAsset,
    baseUnitsPerLot,
    quoteUnitsPerTickLot,
    amountStepUnits: unitsPer(D(10).pow(-instrument.quoteAssetPrecision), scale),
    minLots: Math.max(1, minQty.gt(0) ? toUnits(minQty, step, 'up') : 1),
    minQuoteUnits,
    minQuoteUnitsMarket,
    maxQuoteUnits,
    maxQuoteUnitsMarket,
    makerFee,
    takerFee,
    bidBand: band(instrument.percentPriceBySide?.bidMultiplierUp),
    askBand: band(instrument.percentPriceBySide?.askMultiplierDown),
    book: new OrderBook<SpotOrder, number>(),
    lastPriceTicks: undefined,
    tick,
    step,
    // A safe count has at most 16 significant digits; the product stays exact below the precision (40).
    tickLot: tick.mul(step).sd() <= 40 - 16 ? tick.mul(step) : undefined,
    minTickLots: ceilTickLots(minQuoteUnits, quoteUnitsPerTickLot),
    maxTickLots: floorTickLots(maxQuoteUnits, quoteUnitsPerTickLot),
    minTickLotsMarket: ceilTickLots(minQuoteUnitsMarket, quoteUnitsPerTickLot),
    maxTickLotsMarket: floorTickLots(maxQuoteUnitsMarket, quoteUnitsPerTickLot),
    makerSteps: feeSteps(makerFee, baseUnitsPerLot, quoteUnitsPerTickLot),
    takerSteps: feeSteps(takerFee, baseUnitsPerLot, quoteUnitsPerTickLot),
    baseMeasure: undefined,
    quoteMeasure: undefined,
    admits: undefined,
  };
}

/** ceil(units / perTickLot) as a number; Infinity when beyond 2^53 (no safe tick-lot count reaches it). */
function ceilTickLots(units: bigint, perTickLot: bigint): number {
  const q = (units + perTickLot - 1n) / perTickLot;
  return q > MAX_SAFE ? Infinity : Number(q);
}

/** floor(units / perTickLot) as a number; Infinity for no maximum or beyond 2^53. */
function floorTickLots(units: bigint, perTickLot: bigint): number {
  if (units === UNLIMITED) return Infinity;
  const q = units / perTickLot;
  return q > MAX_SAFE ? Infinity : Number(q);
}

/** Ledger units of a quote amount at price · lots. */
export function quoteUnitsOf(m: SpotMarket, priceTicks: number, lots: number): bigint {
  return BigInt(priceTicks) * BigInt(lots) * m.quoteUnitsPerTickLot;
}

export function baseUnitsOf(m: SpotMarket, lots: number): bigint {
  return BigInt(lots) * m.baseUnitsPerLot;
}

export const priceOf = (m: SpotMarket, ticks: number): Decimal => m.tick.mul(ticks);

/** Quote amount of a whole number of tick-lots (a safe integer), exact. */
export const quoteOf = (m: SpotMarket, tickLots: number, scale: number): Decimal =>
  m.tickLot !== undefined ? m.tickLot.mul(tickLots) : unitsToDecimal(BigInt(tickLots) * m.quoteUnitsPerTickLot, scale);
export const qtyOf = (m: SpotMarket, lots: number): Decimal => m.step.mul(lots);

/** Exact ticks of a price; undefined when it is not a multiple of the tick. */
export function ticksOf(m: SpotMarket, price: DecimalLike): number | undefined {
  const q = D(price).div(m.instrument.tick);
  return q.isInteger() && q.abs().lte(Number.MAX_SAFE_INTEGER) ? q.toNumber() : undefined;
}

/** Exact lots of a quantity; undefined when it is not a multiple of the step. */
export function lotsOf(m: SpotMarket, qty: DecimalLike): number | undefined {
  const q = D(qty).div(m.instrument.step);
  return q.isInteger() && q.abs().lte(Number.MAX_SAFE_INTEGER) ? q.toNumber() : undefined;
}

function nonNegativeUnits(v: DecimalLike, scale: number): bigint {
  const d = D(v);
  return d.gt(0) ? amountToUnits(d, scale) : 0n;
}

/** A zero or missing maximum means no maximum. */
function positiveOrUnlimited(v: DecimalLike, scale: number): bigint {
  const d = D(v);
  return d.gt(0) ? amountToUnits(d, scale) : UNLIMITED;
}

/** Stands for "no maximum" (larger than any amount the ledger can hold in practice). */
export const UNLIMITED = 1n << 200n;
