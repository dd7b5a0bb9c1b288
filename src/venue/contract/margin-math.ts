/**
 * Pure margin and PnL arithmetic of one position, in settle-coin Decimals.
 *
 * Notation (all per position): Q = base quantity held (holdVol · contractSize), C = cost value
 * (Σ entry price · base quantity of what is held, so the average entry A = C / Q), im = the
 * position's margin, mmr = maintenance rate of the position's risk tier, P = a price.
 *
 *   unrealised(P)        long: Q·P − C                 short: C − Q·P
 *   maintenance(P)       mmr · Q · P
 *   breach at P          im + unrealised(P) ≤ maintenance(P)
 *   liquidation price    long: (C − im) / (Q·(1 − mmr))  short: (C + im) / (Q·(1 + mmr))
 *   bankruptcy price     long: (C − im) / Q               short: (C + im) / Q
 *
 * The liquidation price is the P where the breach inequality turns to equality: for a long,
 * im + Q·P − C = mmr·Q·P ⇔ P·Q·(1 − mmr) = C − im. The bankruptcy price is where the position's
 * margin is exactly used up (im + unrealised = 0).
 */
import { Decimal } from '../../core/decimal.js';
import { PositionType } from '../../domain/contract-enums.js';

export interface PositionFigures {
  readonly positionType: PositionType;
  /** Base quantity held (holdVol · contractSize), > 0. */
  readonly qty: Decimal;
  /** Cost value C = Σ entry price · base quantity of what is held. */
  readonly costValue: Decimal;
  /** Position margin. */
  readonly im: Decimal;
}

export const floorMoney = (v: Decimal, scale: number): Decimal => v.toDecimalPlaces(scale, Decimal.ROUND_FLOOR);
export const ceilMoney = (v: Decimal, scale: number): Decimal => v.toDecimalPlaces(scale, Decimal.ROUND_CEIL);

/**
 * Initial margin notional / leverage at the money scale. Reservations round up and bookings round
 * down, so what a fill books never exceeds what its order reserved (Σ floor ≤ ceil Σ).
 */
export function initialMargin(notional: Decimal, leverage: number, scale: number, rounding: 'floor' | 'ceil'): Decimal {
  const raw = notional.div(leverage);
  return rounding === 'floor' ? floorMoney(raw, scale) : ceilMoney(raw, scale);
}

/**
 * initialMargin in ledger units (the hot path): ⌊ or ⌈ notional / leverage ⌉ to a multiple of `stepUnits`
 * (the units of one 10^-scale). The same digits as the Decimal form, which divides at 40 significant
 * digits first: a quotient of an integer by a leverage ≤ 10^4 is never within 10^-30 of a step
 * without being on it, so the Decimal rounding of the division cannot move it across a step.
 */
export function initialMarginUnits(notionalUnits: bigint, leverage: number, stepUnits: bigint, rounding: 'floor' | 'ceil'): bigint {
  if (notionalUnits < 0n) throw new RangeError(`notional must be ≥ 0, got ${notionalUnits} units`);
  const d = BigInt(leverage) * stepUnits;
  const q = notionalUnits / d;
  return (rounding === 'ceil' && q * d !== notionalUnits ? q + 1n : q) * stepUnits;
}

export function unrealisedPnl(p: Pick<PositionFigures, 'positionType' | 'qty' | 'costValue'>, price: Decimal): Decimal {
  const value = p.qty.mul(price);
  return p.positionType === PositionType.LONG ? value.sub(p.costValue) : p.costValue.sub(value);
}

export function maintenanceMargin(qty: Decimal, price: Decimal, mmr: Decimal): Decimal {
  return qty.mul(price).mul(mmr);
}

/** im + unrealised(P) ≤ mmr·Q·P. */
export function isBreached(p: PositionFigures, price: Decimal, mmr: Decimal): boolean {
  return p.im.add(unrealisedPnl(p, price)).lte(maintenanceMargin(p.qty, price, mmr));
}

/** Exact liquidation price (see the module comment); undefined when it would be ≤ 0 (cannot be liquidated). */
export function liquidationPrice(p: PositionFigures, mmr: Decimal): Decimal | undefined {
  if (p.qty.lte(0)) return undefined;
  if (p.positionType === PositionType.LONG) {
    const num = p.costValue.sub(p.im);
    if (num.lte(0)) return undefined;
    return num.div(p.qty.mul(new Decimal(1).sub(mmr)));
  }
  return p.costValue.add(p.im).div(p.qty.mul(new Decimal(1).add(mmr)));
}

/** Exact bankruptcy price; 0 for a long whose margin covers the whole cost. */
export function bankruptcyPrice(p: PositionFigures): Decimal {
  if (p.positionType === PositionType.LONG) {
    const num = p.costValue.sub(p.im);
    return num.lte(0) ? new Decimal(0) : num.div(p.qty);
  }
  return p.costValue.add(p.im).div(p.qty);
}

/** Maintenance margin over the margin balance (im + unrealised); ≥ 1 means liquidation. */
export function marginRatio(p: PositionFigures, price: Decimal, mmr: Decimal): Decimal {
  const balance = p.im.add(unrealisedPnl(p, price));
  const mm = maintenanceMargin(p.qty, price, mmr);
  if (balance.lte(0)) return new Decimal(1);
  return mm.div(balance);
}
