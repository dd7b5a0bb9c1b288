/**
 * The spot side of the emulator: one SpotVenue (matching, ledger, STP), a TapeAggregator per symbol
 * (klines, tickers, avgPrice, aggTrades, recent trades), a book version per symbol (depth
 * lastUpdateId), and the LiquidityPort through which the market model trades as the crowd.
 *
 * Prints reach the tape from the symbol's order book, not from venue events: a venue with a
 * subscriber builds Decimal views of every order on every event, which measured at 3–4× the cost of
 * the placement itself (bench/emulator-bench.ts), and the tape needs only price, lots and side. So each
 * book's mutators are wrapped once here: `match` reports its fills, and every mutator moves the
 * book version. A match call is one taker order (its prints aggregate into one aggTrade per price).
 *
 * `venue` is the journaled handle (every state change is recorded when persistence is on); `reader`
 * is the bare venue for queries.
 */
import type { Clock } from '../../core/clock.js';
import type { SpotInstrument } from '../../domain/instrument.js';
import { SpotVenue, type SpotOrderRequest } from '../../venue/spot/spot-venue.js';
import type { BookSide as EngineSide, MatchOptions, MatchResult } from '../../venue/book/order-book.js';
import { TapeAggregator } from '../../venue/market/tape-aggregator.js';
import type { BookSide, LiquidityOrderKind, LiquidityPort, PlaceResult } from '../../venue/market/liquidity-port.js';
import { CommandJournal, journaled } from './command-journal.js';

export const SPOT_CROWD_TAKER = 'crowd-taker';
/** One maker account per symbol keeps the crowd under the per-account open-order cap. */
export const spotCrowdMaker = (symbol: string): string => `crowd-maker:${symbol}`;
export const isCrowdAccount = (id: string): boolean => id.startsWith('crowd-');

/** What the crowd holds: enough never to run dry, far below the ledger's range. */
const CROWD_DEPOSIT = '1000000000000';

/** Venue methods that change state: recorded in the journal and replayed at start-up. */
export const SPOT_COMMANDS = ['placeOrder', 'placeOrderUnits', 'cancelOrder', 'cancelAllOrders', 'deposit', 'withdraw', 'setReferencePrice'] as const;

export interface SpotEngineOptions {
  readonly clock: Clock;
  readonly instruments: readonly SpotInstrument[];
  readonly maxOpenOrders: number;
  readonly journal?: CommandJournal;
}

export class SpotEngine {
  readonly reader: SpotVenue;
  readonly venue: SpotVenue;
  readonly tapes = new Map<string, TapeAggregator>();
  readonly port: LiquidityPort;
  private readonly versions = new Map<string, number>();
  private readonly tradeSeq = new Map<string, number>();

  constructor(private readonly opts: SpotEngineOptions) {
    this.reader = new SpotVenue({ clock: opts.clock, instruments: opts.instruments, maxOpenOrdersPerAccount: opts.maxOpenOrders });
    this.venue = journaled(this.reader, 'spot', SPOT_COMMANDS, opts.journal, () => opts.clock.now());
    for (const i of opts.instruments) {
      this.tapes.set(i.symbol, new TapeAggregator({ tick: i.tick, step: i.step }));
      this.versions.set(i.symbol, 1);
      this.tradeSeq.set(i.symbol, 0);
      // The crowd trades free of fees, so its inventory never drains.
      this.reader.setAccountFees(spotCrowdMaker(i.symbol), { maker: 0, taker: 0 });
      this.watchBook(i.symbol);
    }
    this.reader.setAccountFees(SPOT_CROWD_TAKER, { maker: 0, taker: 0 });
    this.port = new SpotCrowdPort(this);
  }

  /** Deposits the crowd's inventory (first start only: later starts replay it from the journal). */
  fundCrowd(): void {
    const assets = new Set<string>();
    for (const i of this.opts.instruments) {
      assets.add(i.baseAsset);
      assets.add(i.quoteAsset);
      for (const a of [i.baseAsset, i.quoteAsset]) this.venue.deposit(spotCrowdMaker(i.symbol), a, CROWD_DEPOSIT);
    }
    for (const a of assets) this.venue.deposit(SPOT_CROWD_TAKER, a, CROWD_DEPOSIT);
  }

  /** depth lastUpdateId: moves on every change of the symbol's book. */
  version(symbol: string): number {
    return this.versions.get(symbol) ?? 0;
  }

  tape(symbol: string): TapeAggregator | undefined {
    return this.tapes.get(symbol);
  }

  /** Cancels every resting crowd order (after a restart the new market model starts its own book). */
  clearCrowd(): void {
    for (const i of this.opts.instruments) this.venue.cancelAllOrders(spotCrowdMaker(i.symbol), i.symbol);
  }

  place(req: SpotOrderRequest) {
    return this.venue.placeOrder(req);
  }

  /** Wraps the symbol's book so prints go to the tape and every change moves the version. */
  private watchBook(symbol: string): void {
    const book = this.reader.market(symbol)?.book as unknown as Record<string, (...a: unknown[]) => unknown> | undefined;
    if (!book) return;
    const tape = this.tapes.get(symbol)!;
    const clock = this.opts.clock;
    for (const name of ['add', 'cancel', 'amend', 'reduce']) {
      const original = book[name]!.bind(book);
      book[name] = (...args: unknown[]) => {
        this.bump(symbol);
        return original(...args);
      };
    }
    const match = book.match!.bind(book) as (side: EngineSide, opts: MatchOptions, stp?: unknown) => MatchResult<unknown, number>;
    let takers = 0;
    book.match = (...args: unknown[]) => {
      const [side, opts, stp] = args as [EngineSide, MatchOptions, unknown];
      const r = match(side, opts, stp);
      if (r.fills.length === 0 && r.stpCancelled.length === 0) return r;
      this.bump(symbol);
      const takerOrderId = `t${++takers}`;
      const time = clock.now();
      const takerSide = side === 'BUY' ? 'buy' : 'sell';
      for (const f of r.fills) {
        const seq = (this.tradeSeq.get(symbol) ?? 0) + 1;
        this.tradeSeq.set(symbol, seq);
        tape.onTrade({ id: seq, time, priceTicks: f.priceTicks, lots: f.lots, takerSide, takerOrderId });
      }
      return r;
    };
  }

  private bump(symbol: string): void {
    this.versions.set(symbol, (this.versions.get(symbol) ?? 0) + 1);
  }
}

/** The market model's crowd on the spot venue: limit orders as the symbol's maker, IOC as the taker. */
class SpotCrowdPort implements LiquidityPort {
  /** Crowd order id → the book's key for it. */
  private readonly seqs = new Map<string, number>();

  constructor(private readonly engine: SpotEngine) {}

  place(symbol: string, side: BookSide, priceTicks: number, lots: number, kind: LiquidityOrderKind): PlaceResult {
    const r = this.engine.venue.placeOrderUnits({
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
    if (this.engine.reader.book(symbol)?.has(seq)) this.engine.venue.cancelOrder(spotCrowdMaker(symbol), symbol, { orderId: id });
  }

  remaining(symbol: string, id: string): number {
    const seq = this.seqs.get(id);
    if (seq === undefined) return 0;
    const lots = this.engine.reader.book(symbol)?.get(seq)?.lots ?? 0;
    if (lots === 0) this.seqs.delete(id);
    return lots;
  }

  bestBid(symbol: string): number | undefined {
    return this.engine.reader.book(symbol)?.bestBid();
  }

  bestAsk(symbol: string): number | undefined {
    return this.engine.reader.book(symbol)?.bestAsk();
  }
}
