/** Exact, read-only questions a spot placement asks the book before or after matching. */
import { StpAction, type SelfTradeCheck } from '../book/order-book.js';
import type { SpotMarket } from './spot-market.js';
import type { SpotOrder } from './spot-order.js';

/**
 * Exact tick-lots a market buy of `lots` pays against the current asks (honouring STP skips/stops),
 * as a number; NaN when the sum would pass 2^53 (then ask exactBuyCost).
 */
export function exactBuyTickLots(m: SpotMarket, lots: number, stpCheck: SelfTradeCheck<SpotOrder, number> | undefined): number {
  let want = lots;
  let tickLots = 0;
  outer: for (const level of m.book.levels('SELL')) {
    if (stpCheck === undefined) {
      const take = level.totalLots < want ? level.totalLots : want;
      tickLots += take * level.priceTicks;
      want -= take;
      if (want === 0) break;
      continue;
    }
    for (let o = level.head; o !== null; o = o.next) {
      const action = stpCheck(o);
      if (action === StpAction.CancelTaker || action === StpAction.CancelBoth) break outer;
      if (action === StpAction.CancelMaker) continue;
      const take = o.lots < want ? o.lots : want;
      tickLots += take * level.priceTicks;
      want -= take;
      if (want === 0) break outer;
    }
  }
  // Every partial sum is below the total, so one check at the end covers them all.
  return tickLots <= Number.MAX_SAFE_INTEGER ? tickLots : NaN;
}

/** Exact quote units a market buy of `lots` pays against the current asks (honouring STP skips/stops). */
export function exactBuyCost(m: SpotMarket, lots: number, stpCheck: SelfTradeCheck<SpotOrder, number> | undefined): bigint {
  let want = lots;
  let tickLots = 0n;
  outer: for (const level of m.book.levels('SELL')) {
    if (stpCheck === undefined) {
      const take = level.totalLots < want ? level.totalLots : want;
      tickLots += BigInt(take) * BigInt(level.priceTicks);
      want -= take;
      if (want === 0) break;
      continue;
    }
    for (let o = level.head; o !== null; o = o.next) {
      const action = stpCheck(o);
      if (action === StpAction.CancelTaker || action === StpAction.CancelBoth) break outer;
      if (action === StpAction.CancelMaker) continue;
      const take = o.lots < want ? o.lots : want;
      tickLots += BigInt(take) * BigInt(level.priceTicks);
      want -= take;
      if (want === 0) break outer;
    }
  }
  return tickLots * m.quoteUnitsPerTickLot;
}

/**
 * A quoteOrderQty order counts as FILLED when what is left of its amount cannot take one more step at
 * the best remaining opposite price (or, with the opposite side empty, at its last fill price).
 */
export function quoteBudgetSpent(m: SpotMarket, order: SpotOrder, budgetTickLots: bigint, isBuy: boolean): boolean {
  const left = budgetTickLots - order.cumTickLotsBig();
  const next = (isBuy ? m.book.bestAsk() : m.book.bestBid()) ?? m.lastPriceTicks ?? 0;
  return left < BigInt(next);
}
