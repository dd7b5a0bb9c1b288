/**
 * One execution of (part of) an order. Fills are identified by the venue's trade id; everything that
 * counts fills (orders, positions, balances) dedupes by it, so a fill seen twice is counted once.
 */
import type { Decimal } from '../core/decimal.js';
import type { ClientOrderId, InstrumentSymbol, OrderId, StrategyId, TradeId } from '../core/ids.js';
import type { InstrumentKind, Liquidity, OrderSide, PositionSide } from './order.js';

export interface Fill {
  readonly tradeId: TradeId;
  readonly venueOrderId?: OrderId;
  readonly clientOrderId?: ClientOrderId;
  readonly strategyId?: StrategyId;
  readonly symbol: InstrumentSymbol;
  readonly kind: InstrumentKind;
  readonly side: OrderSide;
  readonly price: Decimal;
  /** Base quantity (spot) or contracts (contract). */
  readonly quantity: Decimal;
  /** Fee paid (a negative fee is a rebate). */
  readonly fee: Decimal;
  readonly feeAsset: string;
  readonly liquidity: Liquidity;
  /** Venue execution time, ms. */
  readonly time: number;
  /** Hedged-mode leg the fill belongs to (contract). */
  readonly positionSide?: PositionSide;
  /** The fill closes position (contract close sides, reduce-only). */
  readonly reduceOnly?: boolean;
  /** Made up by reconcile from the venue's cumulative numbers because the trade itself was not seen. */
  readonly synthetic?: boolean;
  /**
   * Realised PnL the venue booked for this fill (contract order `profit`), fees excluded, when the
   * venue reports it. The books compute their own from the entry price; this is the venue's word.
   */
  readonly realizedPnl?: Decimal;
}

/** Trade id of a fill reconcile made up: deterministic, so a second reconcile finds it already seen. */
export const syntheticTradeId = (venueOrderIdOrClientId: string, cumulativeQty: Decimal): TradeId =>
  `syn:${venueOrderIdOrClientId}:${cumulativeQty.toFixed()}` as TradeId;

/** Fills not yet in `seen`, each trade id once, in the order given. */
export function newFills(fills: readonly Fill[], seen: ReadonlySet<string>): Fill[] {
  const taken = new Set<string>();
  const out: Fill[] = [];
  for (const f of fills) {
    if (seen.has(f.tradeId) || taken.has(f.tradeId)) continue;
    taken.add(f.tradeId);
    out.push(f);
  }
  return out;
}
