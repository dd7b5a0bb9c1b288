/**
 * The spot side of the emulator: one SpotVenue (matching, ledger, STP), a TapeAggregator per symbol
 * (klines, tickers, avgPrice, aggTrades, recent trades), a book version per symbol (depth
 * lastUpdateId), and the LiquidityPort through which the market model trades as the crowd.
 *
 * Prints reach the tape through the venue's trade ticks (`subscribeTrades`: integer ticks, lots, ids
 * and sides, no Decimal), not through its full events: a venue with an event subscriber builds Decimal
 * views of every order on every event, which measured at 3–4× the cost of the placement itself. Ticks
 * arrive when the venue command has finished; the prints of one taker order share its order id, so
 * they aggregate into one aggTrade per price. The depth lastUpdateId is the book's own change count.
 *
 * `venue` is the journaled handle (every state change is recorded when persistence is on); `reader`
 * is the bare venue for queries.
 */
import type { Clock } from '../../core/clock.js';
import type { SpotInstrument } from '../../domain/instrument.js';
import type { SpotTradeTick } from '../../venue/spot/spot-events.js';
import { SpotVenue, type SpotOrderRequest } from '../../venue/spot/spot-venue.js';
import { TapeAggregator } from '../../venue/market/tape-aggregator.js';
import type { LiquidityPort } from '../../venue/market/liquidity-port.js';
import { SpotVenueLiquidityPort } from '../../venue/market/spot-venue-liquidity-port.js';
import { CROWD_DEPOSIT, isCrowdAccount, SPOT_CROWD_TAKER, spotCrowdMaker } from '../../venue/market/crowd-accounts.js';
import { CommandJournal, journaled } from './command-journal.js';

export { isCrowdAccount, SPOT_CROWD_TAKER, spotCrowdMaker };

/** Commands between the retention sweeps (each a pass over every account's history lists). */
const CROWD_PRUNE_EVERY = 2000;

/** Venue methods that change state: recorded in the journal and replayed at start-up. */
export const SPOT_COMMANDS = [
  'placeOrder',
  'placeOrderUnits',
  'cancelOrder',
  'cancelAllOrders',
  'deposit',
  'withdraw',
  'setReferencePrice',
] as const;

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
  private readonly tradeSeq = new Map<string, number>();

  constructor(private readonly opts: SpotEngineOptions) {
    this.reader = new SpotVenue({
      clock: opts.clock,
      instruments: opts.instruments,
      maxOpenOrdersPerAccount: opts.maxOpenOrders,
      // The crowd's closed orders and trades are forgotten at once (no one can read them), so the state
      // a snapshot writes does not grow with simulated time; users keep the venue's windows.
      retentionMsOf: (id) => (isCrowdAccount(id) ? 0 : undefined),
      pruneEveryCommands: CROWD_PRUNE_EVERY,
    });
    this.venue = journaled(this.reader, 'spot', SPOT_COMMANDS, opts.journal);
    for (const i of opts.instruments) {
      this.tapes.set(i.symbol, new TapeAggregator({ tick: i.tick, step: i.step }));
      this.tradeSeq.set(i.symbol, 0);
      // The crowd trades free of fees, so its inventory never drains.
      this.reader.setAccountFees(spotCrowdMaker(i.symbol), { maker: 0, taker: 0 });
    }
    this.reader.subscribeTrades((t) => this.print(t));
    this.reader.setAccountFees(SPOT_CROWD_TAKER, { maker: 0, taker: 0 });
    this.port = new SpotVenueLiquidityPort(this.venue, this.reader);
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

  /** depth lastUpdateId: moves on every change of the symbol's book (1 for an untouched book). */
  version(symbol: string): number {
    const book = this.reader.book(symbol);
    return book === undefined ? 0 : 1 + book.version;
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

  /** One fill onto its symbol's tape (ids count per symbol, from 1). */
  private print(t: SpotTradeTick): void {
    const tape = this.tapes.get(t.symbol);
    if (tape === undefined) return;
    const seq = (this.tradeSeq.get(t.symbol) ?? 0) + 1;
    this.tradeSeq.set(t.symbol, seq);
    tape.onTrade({
      id: seq,
      time: t.time,
      priceTicks: t.priceTicks,
      lots: t.lots,
      takerSide: t.takerSide === 'BUY' ? 'buy' : 'sell',
      takerOrderId: t.takerOrderId,
    });
  }
}
