/**
 * LiquidityPort onto a bare SpotVenue (src/venue/spot), for code that drives the venue in process
 * (backtest SimulatedGateway, paper runs, tests) and, through its journaled venue, the emulator's
 * spot engine.
 *
 * Accounts (crowd-accounts.ts): crowd limit orders belong to one maker account per symbol (keeps the crowd under the
 * per-account open-order cap), IOC orders to one taker account. fundSpotCrowd() deposits their
 * inventory and sets their fees to zero, so the crowd never drains; funds stay conserved because
 * every crowd fill is an ordinary ledger transfer between accounts.
 */
import type { DecimalLike } from '../../core/decimal.js';
import type { SpotVenue } from '../spot/spot-venue.js';
import type { BookSide, LiquidityOrderKind, LiquidityPort, PlaceResult } from './liquidity-port.js';

import { SPOT_CROWD_TAKER, spotCrowdMaker } from './crowd-accounts.js';

export class SpotVenueLiquidityPort implements LiquidityPort {
  /** Crowd order id → the venue's book key for it (books are keyed by an integer sequence). */
  private readonly seqs = new Map<string, number>();

  /**
   * Orders go through `venue`; books are read from `books` (default: the same venue). The emulator
   * passes its journaled venue for the first, so the crowd's orders are recorded and replayed, and the
   * bare venue for the second, as reads change nothing.
   */
  constructor(
    private readonly venue: Pick<SpotVenue, 'placeOrderUnits' | 'cancelOrder'>,
    private readonly books: Pick<SpotVenue, 'book'> = venue as SpotVenue,
  ) {}

  place(symbol: string, side: BookSide, priceTicks: number, lots: number, kind: LiquidityOrderKind): PlaceResult {
    const r = this.venue.placeOrderUnits({
      accountId: kind === 'limit' ? spotCrowdMaker(symbol) : SPOT_CROWD_TAKER,
      symbol,
      side: side === 'buy' ? 'BUY' : 'SELL',
      type: kind === 'limit' ? 'LIMIT' : 'IMMEDIATE_OR_CANCEL',
      priceTicks,
      lots,
    });
    if (!r.ok) return { id: undefined, filledLots: 0 };
    if (!r.order.isWorking) return { id: undefined, filledLots: r.order.executedLots };
    this.seqs.set(r.order.orderId, r.order.seq);
    return { id: r.order.orderId, filledLots: r.order.executedLots };
  }

  cancel(symbol: string, id: string): void {
    const seq = this.seqs.get(id);
    if (seq === undefined) return;
    this.seqs.delete(id);
    if (this.books.book(symbol)?.has(seq)) this.venue.cancelOrder(spotCrowdMaker(symbol), symbol, { orderId: id });
  }

  remaining(symbol: string, id: string): number {
    const seq = this.seqs.get(id);
    if (seq === undefined) return 0;
    const lots = this.books.book(symbol)?.get(seq)?.lots ?? 0;
    // Forget finished orders so the map holds only what rests.
    if (lots === 0) this.seqs.delete(id);
    return lots;
  }

  bestBid(symbol: string): number | undefined {
    return this.books.book(symbol)?.bestBid();
  }

  bestAsk(symbol: string): number | undefined {
    return this.books.book(symbol)?.bestAsk();
  }
}

/** Deposits `amount` of both assets of every symbol into the crowd accounts and makes them fee-free. */
export function fundSpotCrowd(venue: SpotVenue, amount: DecimalLike = '1000000000'): void {
  for (const symbol of venue.symbols()) {
    const inst = venue.instrument(symbol)!;
    const maker = spotCrowdMaker(symbol);
    venue.setAccountFees(maker, { maker: 0, taker: 0 });
    for (const asset of [inst.baseAsset, inst.quoteAsset]) {
      venue.deposit(maker, asset, amount);
      venue.deposit(SPOT_CROWD_TAKER, asset, amount);
    }
  }
  venue.setAccountFees(SPOT_CROWD_TAKER, { maker: 0, taker: 0 });
}
