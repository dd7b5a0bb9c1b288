/**
 * Where a chased order should go next (pure): to the best price of its own side, only ever toward the
 * market, and never beyond the cap (buy: ≤ cap, sell: ≥ cap). Undefined when it should stay.
 */
import type { Decimal } from '../core/decimal.js';
import type { Order } from '../domain/order.js';
import { bestAsk, bestBid, type MarketSnapshot } from '../domain/snapshot.js';

export function chaseTarget(
  order: Pick<Order, 'side' | 'price'>,
  snapshot: MarketSnapshot | undefined,
  priceCap?: Decimal,
): Decimal | undefined {
  if (!order.price) return undefined;
  const best = order.side === 'buy' ? bestBid(snapshot) : bestAsk(snapshot);
  if (!best) return undefined;
  let target = best;
  if (priceCap) target = order.side === 'buy' ? (target.gt(priceCap) ? priceCap : target) : target.lt(priceCap) ? priceCap : target;
  const towardMarket = order.side === 'buy' ? target.gt(order.price) : target.lt(order.price);
  return towardMarket ? target : undefined;
}
