/**
 * The only way the market models (synthetic, replay, mirror) touch an order book. They never see the
 * spot or contract engines: an adapter maps this port onto one engine, trading for the crowd accounts.
 *
 * Contract for adapters:
 *  - every call acts for the crowd; `limit` orders are the crowd's resting liquidity and `ioc`
 *    orders its takers. Use two ordinary accounts (a maker and a taker account, large deposits) so
 *    crowd-vs-crowd prints are not self-trades and funds stay conserved; a crowd limit order that
 *    crosses a resting order of someone else simply trades, as any order would;
 *  - prices are integer ticks of the instrument, quantities integer lots (spot base step, contract
 *    volUnit);
 *  - the call matches synchronously: when it returns, the prints happened (and reached the tape).
 */
export type BookSide = 'buy' | 'sell';
export type LiquidityOrderKind = 'limit' | 'ioc';

export interface PlaceResult {
  /** Venue id of the remainder resting on the book; undefined when nothing rests. */
  readonly id: string | undefined;
  /** Lots filled on entry. */
  readonly filledLots: number;
}

export interface LiquidityPort {
  /** Places a crowd order; a rejected order returns `{ id: undefined, filledLots: 0 }`. */
  place(symbol: string, side: BookSide, priceTicks: number, lots: number, kind: LiquidityOrderKind): PlaceResult;
  /** Cancels a crowd order; an order already gone is not an error. */
  cancel(symbol: string, id: string): void;
  /** Lots of a crowd order still resting; 0 when filled or cancelled. */
  remaining(symbol: string, id: string): number;
  bestBid(symbol: string): number | undefined;
  bestAsk(symbol: string): number | undefined;
}
