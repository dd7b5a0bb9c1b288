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
import { feeRate, type FeeRate } from '../ledger/fee-rate.js';
import { amountToUnits, unitsPer, LEDGER_SCALE } from '../ledger/ledger-units.js';
import type { SpotOrderState } from './spot-order.js';

/**
 * A PERCENT_PRICE_BY_SIDE multiplier as num/den. `fractional` (value < 1) is a band around the last
 * price (buy ≤ last·(1+m), sell ≥ last·(1−m)); otherwise the multiplier applies literally
 * (wire-protocol.md).
 */
export interface PriceBand {
  readonly num: bigint;
  readonly den: bigint;
  readonly fractional: boolean;
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
  readonly book: OrderBook<SpotOrderState, number>;
  /** Price of the last trade on this venue, or a reference price set from outside (market model). */
  lastPriceTicks: number | undefined;
}

export function compileSpotMarket(instrument: SpotInstrument, scale = LEDGER_SCALE): SpotMarket {
  const tick = D(instrument.tick);
  const step = D(instrument.step);
  if (!tick.gt(0) || !step.gt(0)) throw new RangeError(`${instrument.symbol}: tick and step must be positive`);
  const band = (m: Decimal | undefined): PriceBand | undefined => {
    if (m === undefined || m.isZero()) return undefined;
    const dp = m.decimalPlaces();
    const den = 10n ** BigInt(dp);
    return { num: BigInt(m.mul(D(10).pow(dp)).toFixed(0)), den, fractional: m.lt(1) };
  };
  const minQty = D(instrument.minQuantity);
  return {
    instrument,
    symbol: instrument.symbol,
    baseAsset: instrument.baseAsset,
    quoteAsset: instrument.quoteAsset,
    baseUnitsPerLot: unitsPer(step, scale),
    quoteUnitsPerTickLot: unitsPer(tick.mul(step), scale),
    amountStepUnits: unitsPer(D(10).pow(-instrument.quoteAssetPrecision), scale),
    minLots: Math.max(1, minQty.gt(0) ? toUnits(minQty, step, 'up') : 1),
    minQuoteUnits: nonNegativeUnits(instrument.minQuoteAmount, scale),
    minQuoteUnitsMarket: nonNegativeUnits(instrument.minQuoteAmountMarket, scale),
    maxQuoteUnits: positiveOrUnlimited(instrument.maxQuoteAmount, scale),
    maxQuoteUnitsMarket: positiveOrUnlimited(instrument.maxQuoteAmountMarket, scale),
    makerFee: feeRate(instrument.makerCommission),
    takerFee: feeRate(instrument.takerCommission),
    bidBand: band(instrument.percentPriceBySide?.bidMultiplierUp),
    askBand: band(instrument.percentPriceBySide?.askMultiplierDown),
    book: new OrderBook<SpotOrderState, number>(),
    lastPriceTicks: undefined,
  };
}

/** Ledger units of a quote amount at price · lots. */
export function quoteUnitsOf(m: SpotMarket, priceTicks: number, lots: number): bigint {
  return BigInt(priceTicks) * BigInt(lots) * m.quoteUnitsPerTickLot;
}

export function baseUnitsOf(m: SpotMarket, lots: number): bigint {
  return BigInt(lots) * m.baseUnitsPerLot;
}

export const priceOf = (m: SpotMarket, ticks: number): Decimal => D(m.instrument.tick).mul(ticks);
export const qtyOf = (m: SpotMarket, lots: number): Decimal => D(m.instrument.step).mul(lots);

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
