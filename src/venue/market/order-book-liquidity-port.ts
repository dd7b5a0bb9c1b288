/**
 * A LiquidityPort straight onto bare OrderBooks (src/venue/book), with no accounts or fees: the
 * matching is the real engine's, so a market model can be run, tested and benchmarked without a spot
 * or contract venue. Every print goes to `onPrint` with both owners, so a test can see whose order
 * filled; other participants (a test's "our" orders) use `placeAs`.
 *
 * Crowd limit orders are owned by CROWD_MAKER and IOC orders by CROWD_TAKER, the split the venue
 * adapters make with two accounts, so crowd-vs-crowd prints are not self-trades.
 */
import type { Clock } from '../../core/clock.js';
import { OrderBook, type BookSide as EngineSide } from '../book/order-book.js';
import type { BookSide, LiquidityOrderKind, LiquidityPort, PlaceResult } from './liquidity-port.js';
import type { TapeTrade } from './tape-aggregator.js';

export const CROWD_MAKER = 'crowd-maker';
export const CROWD_TAKER = 'crowd-taker';

export interface PrintEvent {
  readonly symbol: string;
  readonly trade: TapeTrade;
  readonly makerOwner: string;
  readonly takerOwner: string;
  readonly makerOrderId: string;
}

export class OrderBookLiquidityPort implements LiquidityPort {
  private readonly books = new Map<string, OrderBook>();
  private readonly tradeIds = new Map<string, number>();
  private nextOrderId = 1;

  constructor(
    private readonly clock: Clock,
    symbols: readonly string[],
    private readonly onPrint: (e: PrintEvent) => void = () => {},
  ) {
    for (const s of symbols) {
      this.books.set(s, new OrderBook());
      this.tradeIds.set(s, 0);
    }
  }

  book(symbol: string): OrderBook {
    const b = this.books.get(symbol);
    if (!b) throw new RangeError(`no book for ${symbol}`);
    return b;
  }

  place(symbol: string, side: BookSide, priceTicks: number, lots: number, kind: LiquidityOrderKind): PlaceResult {
    return this.placeAs(kind === 'limit' ? CROWD_MAKER : CROWD_TAKER, symbol, side, priceTicks, lots, kind);
  }

  /** Places an order for any owner: match first, then rest the remainder of a limit order. */
  placeAs(owner: string, symbol: string, side: BookSide, priceTicks: number, lots: number, kind: LiquidityOrderKind): PlaceResult {
    const book = this.book(symbol);
    if (!Number.isSafeInteger(priceTicks) || priceTicks <= 0 || !Number.isSafeInteger(lots) || lots <= 0)
      return { id: undefined, filledLots: 0 };
    const id = String(this.nextOrderId++);
    const engineSide: EngineSide = side === 'buy' ? 'BUY' : 'SELL';
    const result = book.match(engineSide, { limitTicks: priceTicks, lots });
    const now = this.clock.now();
    for (const f of result.fills) {
      const tradeId = this.tradeIds.get(symbol)! + 1;
      this.tradeIds.set(symbol, tradeId);
      this.onPrint({
        symbol,
        makerOwner: f.maker.owner,
        takerOwner: owner,
        makerOrderId: f.maker.id,
        trade: {
          id: tradeId,
          time: now,
          priceTicks: f.priceTicks,
          lots: f.lots,
          takerSide: side,
          takerOrderId: id,
          selfTrade: f.maker.owner === owner,
        },
      });
    }
    const rest = lots - result.lots;
    if (kind === 'limit' && rest > 0) {
      book.add(id, engineSide, priceTicks, rest, owner);
      return { id, filledLots: result.lots };
    }
    return { id: undefined, filledLots: result.lots };
  }

  cancel(symbol: string, id: string): void {
    this.book(symbol).cancel(id);
  }

  remaining(symbol: string, id: string): number {
    return this.book(symbol).get(id)?.lots ?? 0;
  }

  bestBid(symbol: string): number | undefined {
    return this.book(symbol).bestBid();
  }

  bestAsk(symbol: string): number | undefined {
    return this.book(symbol).bestAsk();
  }
}
