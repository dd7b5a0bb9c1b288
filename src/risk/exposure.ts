/** Position and open-order arithmetic shared by the leverage, reduce-only and limit rules. */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { InstrumentSymbol } from '../core/ids.js';
import type { Order, OrderSpec, PositionSide } from '../domain/order.js';
import type { Position, PositionLeg } from '../domain/position.js';
import { isOpening, orderRemaining, type ProposedOrder, proposalRemaining } from './order-proposals.js';

export const legOf = (spec: Pick<OrderSpec, 'positionSide'>): PositionLeg => spec.positionSide ?? 'net';

export function positionQty(positions: readonly Position[], symbol: InstrumentSymbol, leg: PositionLeg): Decimal {
  let q = ZERO;
  for (const p of positions) if (p.symbol === symbol && p.leg === leg) q = q.plus(p.quantity);
  return q;
}

/** Net signed quantity over all legs (per-strategy limits look at the net). */
export function netQty(positions: readonly Position[], symbol: InstrumentSymbol): Decimal {
  let q = ZERO;
  for (const p of positions) if (p.symbol === symbol) q = q.plus(p.quantity);
  return q;
}

/** Direction an opening order adds to. */
export const directionOf = (spec: Pick<OrderSpec, 'side' | 'positionSide'>): PositionSide =>
  spec.positionSide ?? (spec.side === 'buy' ? 'long' : 'short');

/**
 * Largest size the position in `direction` can reach on `leg` if every opening order (live ones not
 * released by the intent, plus the proposals) fills.
 */
export function worstCaseExposure(
  symbol: InstrumentSymbol,
  leg: PositionLeg,
  direction: PositionSide,
  positions: readonly Position[],
  live: readonly Order[],
  released: ReadonlySet<string>,
  proposals: readonly ProposedOrder[],
): Decimal {
  const q = positionQty(positions, symbol, leg);
  let exposure = direction === 'long' ? q : q.neg();
  const adds = (s: OrderSpec): boolean => s.symbol === symbol && legOf(s) === leg && isOpening(s) && directionOf(s) === direction;
  for (const o of live) if (!released.has(o.clientOrderId) && adds(o)) exposure = exposure.plus(orderRemaining(o));
  for (const p of proposals) if (adds(p.spec)) exposure = exposure.plus(proposalRemaining(p));
  return exposure.isNegative() ? ZERO : exposure;
}

/**
 * Worst-case exposure for many proposals at once: the position and live orders are summed once per
 * (leg, direction), then every proposal adds to its total. Each opening proposal is judged against
 * the total with all proposals in (the whole set may fill); closing proposals get 0.
 */
export function cumulativeExposures(
  symbol: InstrumentSymbol,
  positions: readonly Position[],
  live: readonly Order[],
  released: ReadonlySet<string>,
  proposals: readonly ProposedOrder[],
): Decimal[] {
  const totals = new Map<string, Decimal>();
  const keyOf = (p: ProposedOrder): string | undefined =>
    p.spec.symbol === symbol && isOpening(p.spec) ? `${legOf(p.spec)}|${directionOf(p.spec)}` : undefined;
  for (const p of proposals) {
    const key = keyOf(p);
    if (key === undefined) continue;
    const base = totals.get(key) ?? worstCaseExposure(symbol, legOf(p.spec), directionOf(p.spec), positions, live, released, []);
    totals.set(key, base.plus(proposalRemaining(p)));
  }
  return proposals.map((p) => {
    const key = keyOf(p);
    return key === undefined ? ZERO : totals.get(key)!;
  });
}
