/**
 * Queue position of our resting orders in a recorded book (fill-model.ts says which model does what).
 * Pure arithmetic on integer lots, so the scenario tests can work every number out by hand.
 *
 * `ahead` counts only RECORDED (crowd) lots in front of an order: the recording does not contain our
 * orders, so two orders of ours at one price share the crowd in front of the first one, and the
 * second also waits for the first (FIFO among ours, as on the venue).
 */
import type { FillModel } from './fill-model.js';

export interface QueuedOrder {
  /** Recorded lots still ahead of the order at its price. */
  ahead: number;
  /** Lots of the order not filled yet. */
  remaining: number;
  /** Lots traded at the order's price since the recording last changed that level (see onDepthChange). */
  tradedSinceDepth: number;
}

/** Lots ahead of an order that reaches a level showing `displayedLots`. */
export function initialAhead(model: Pick<FillModel, 'queue' | 'queueExtraFraction'>, displayedLots: number): number {
  const shown = Math.max(0, displayedLots);
  switch (model.queue) {
    case 'front':
      return 0;
    case 'displayed':
      return shown;
    case 'back-plus':
      return Math.ceil(shown * (1 + model.queueExtraFraction));
  }
}

/**
 * A recorded trade of `lots` at the price our `orders` (FIFO) rest at. The crowd in front is eaten
 * first, then each order in turn; returns the lots each order fills (same indexes). Mutates the
 * orders' `ahead` and `tradedSinceDepth` (not `remaining`: the caller applies fills once the venue
 * has executed them).
 */
export function allocateTradeAtPrice(orders: readonly QueuedOrder[], lots: number): number[] {
  const fills = new Array<number>(orders.length).fill(0);
  let left = lots;
  let crowdTaken = 0;
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i]!;
    o.tradedSinceDepth += lots;
    const crowdBefore = Math.max(0, o.ahead - crowdTaken);
    const c = Math.min(crowdBefore, left);
    crowdTaken += c;
    left -= c;
    o.ahead = Math.max(0, o.ahead - crowdTaken);
    if (o.ahead > 0 || left <= 0) continue;
    const f = Math.min(o.remaining, left);
    fills[i] = f;
    left -= f;
  }
  return fills;
}

/**
 * The recording changed the level our order rests at from `prevLots` to `newLots`.
 *  - front: nothing ahead, nothing to do;
 *  - back-plus: only trades move us; the queue can never be longer than the level (plus the extra);
 *  - displayed: the part of a decrease that the trades since the last change do not explain was
 *    cancelled; it is shared by the lots ahead and behind us in proportion to their size.
 */
export function onDepthChange(
  o: QueuedOrder,
  model: Pick<FillModel, 'queue' | 'queueExtraFraction'>,
  prevLots: number,
  newLots: number,
): void {
  const traded = o.tradedSinceDepth;
  o.tradedSinceDepth = 0;
  if (model.queue === 'front') {
    o.ahead = 0;
    return;
  }
  if (model.queue === 'back-plus') {
    o.ahead = Math.min(o.ahead, Math.ceil(Math.max(0, newLots) * (1 + model.queueExtraFraction)));
    return;
  }
  const cancelled = prevLots - newLots - traded;
  if (cancelled > 0) {
    const front = o.ahead;
    const total = Math.max(prevLots, front);
    if (total > 0) o.ahead = Math.round(front - (cancelled * front) / total);
  }
  o.ahead = Math.max(0, Math.min(o.ahead, Math.max(0, newLots)));
}
