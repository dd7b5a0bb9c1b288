/**
 * Average-cost position accounting (pure). A fill that adds to the position moves the entry to the
 * quantity-weighted average; a fill against it realises (exit − entry) on the closed part; a fill
 * larger than the position closes it and opens the rest at the fill price.
 *
 * Invariant (tested as a property): realised + unrealised at any mark equals the mark value of the
 * position minus the cash paid for it, so the sum is the same whatever order the fills come in.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { Fill } from '../domain/fill.js';
import type { OrderSide } from '../domain/order.js';
import type { Position } from '../domain/position.js';

export interface PositionChange {
  readonly position: Position;
  /** Realised by this fill, before fees, in the settle asset. */
  readonly realized: Decimal;
}

export const signedQty = (side: OrderSide, qty: Decimal): Decimal => (side === 'buy' ? qty : qty.neg());

export function applyTrade(pos: Position, side: OrderSide, price: Decimal, qty: Decimal, time: number): PositionChange {
  const q0 = pos.quantity;
  const d = signedQty(side, qty);
  const q1 = q0.plus(d);
  let entry: Decimal;
  let realized = ZERO;
  if (q0.isZero() || q0.isNegative() === d.isNegative()) {
    entry = pos.entryPrice.mul(q0.abs()).plus(price.mul(d.abs())).div(q1.abs());
  } else {
    const closed = d.abs().lt(q0.abs()) ? d.abs() : q0.abs();
    realized = price.minus(pos.entryPrice).mul(closed).mul(pos.multiplier);
    if (q0.isNegative()) realized = realized.neg();
    entry = q1.isZero() ? ZERO : d.abs().gt(q0.abs()) ? price : pos.entryPrice;
  }
  return { position: { ...pos, quantity: q1, entryPrice: entry, realizedPnl: pos.realizedPnl.plus(realized), updatedAt: time }, realized };
}

/** A fill's effect on its position; the fee counts on the position when paid in the settle asset. */
export function applyFillToPosition(pos: Position, fill: Fill): PositionChange {
  const r = applyTrade(pos, fill.side, fill.price, fill.quantity, fill.time);
  if (fill.feeAsset !== pos.settleAsset || fill.fee.isZero()) return r;
  return { ...r, position: { ...r.position, fees: r.position.fees.plus(fill.fee) } };
}

/** Unrealised PnL at `mark`. */
export const unrealizedPnl = (pos: Position, mark: Decimal): Decimal => mark.minus(pos.entryPrice).mul(pos.quantity).mul(pos.multiplier);

/** Realised − fees + funding. */
export const netRealized = (pos: Position): Decimal => pos.realizedPnl.minus(pos.fees).plus(pos.funding);
