/**
 * Live mirror: polls a real venue's public market endpoints and reproduces its book and tape here, so
 * our orders rest in (a copy of) the real queues and fill when the real tape trades through them.
 *
 * Each poll, per instrument: the recent trades and the depth (and for perpetuals the index, fair and
 * funding) are fetched through a MirrorFeedPort, turned into market records stamped with the venue's
 * times (`et`) and our clock (`lt`), and applied with the same MarketRecordApplier the replay uses:
 * NEW trades first (printed against the book as it stood — where our orders were queued), then the
 * depth snapshot (the crowd is resynchronised to the venue's current book). Every record can also go
 * to a RecordSink, so a mirror session is a recording for free.
 *
 * New trades: the venue returns the last N, newest first, MEXC spot without ids. A trade is new when
 * its time is after the newest seen, or equal to it and not among the trades already seen at that
 * time (by id when present, else by price, quantity and side, counted as a multiset). When the oldest
 * trade of a poll is newer than the newest seen, trades may have been missed (`possiblyMissed`).
 * The first poll only establishes the position: trades from before the mirror started are not printed.
 *
 * Failures: a failed poll of one instrument is counted (`errors`, `lastError`) and the others go on;
 * the book stays as it was until the next successful poll. Polls never overlap.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { ContractPriceBoard } from '../../venue/market/contract-price-board.js';
import type { LiquidityPort } from '../../venue/market/liquidity-port.js';
import type { MarketSource } from '../../venue/market/market-source.js';
import type { RecordSink } from './json-lines-codec.js';
import { MarketRecordApplier, type ApplierStats, type SourceInstrument } from './record-applier.js';
import type { DataRecord, RecordMarket } from './record.js';

export type MirrorLevel = readonly [price: string, qty: string];

export interface MirrorBook {
  /** lastUpdateId (spot) / version (contract). */
  readonly version: number;
  /** Venue time of the snapshot, when it sends one. */
  readonly time: number | undefined;
  /** Best first. */
  readonly bids: readonly MirrorLevel[];
  readonly asks: readonly MirrorLevel[];
}

export interface MirrorTrade {
  readonly id?: string;
  readonly price: string;
  readonly qty: string;
  readonly time: number;
  readonly takerSide: 'buy' | 'sell';
}

export interface MirrorPrices {
  readonly index?: { readonly price: string; readonly time: number };
  readonly fair?: { readonly price: string; readonly time: number };
  readonly funding?: {
    readonly rate: string;
    readonly min?: string;
    readonly max?: string;
    readonly nextSettleTime?: number;
    readonly collectCycleHours?: number;
    readonly time?: number;
  };
}

/** Public market data of one venue API (spot or contract), symbols as that venue spells them. */
export interface MirrorFeedPort {
  depth(symbol: string, limit: number): Promise<MirrorBook>;
  /** The most recent trades, in any order. */
  trades(symbol: string, limit: number): Promise<readonly MirrorTrade[]>;
  /** Index, fair and funding of a perpetual. */
  prices?(symbol: string): Promise<MirrorPrices>;
}

export interface MirrorOptions {
  readonly feeds: Partial<Record<RecordMarket, MirrorFeedPort>>;
  readonly instruments: readonly SourceInstrument[];
  readonly clock: Clock;
  readonly port: LiquidityPort;
  /** Default 1000. */
  readonly pollMs?: number;
  /** Depth rows requested. Default 100. */
  readonly depthLimit?: number;
  /** Trades requested (contract deals max 100, spot trades max 1000). Default 100. */
  readonly tradeLimit?: number;
  readonly recorder?: RecordSink;
  /** Default true (trade-printer.ts). */
  readonly forcePrints?: boolean;
}

export interface MirrorStats {
  polls: number;
  errors: number;
  lastError: unknown;
  newTrades: number;
  possiblyMissed: number;
}

interface TradeCursor {
  initialised: boolean;
  lastTime: number;
  /** Keys of the trades seen at lastTime, with multiplicity. */
  seenAtLast: Map<string, number>;
}

export class MirrorMarketSource implements MarketSource {
  readonly kind = 'mirror' as const;
  readonly applier: MarketRecordApplier;
  readonly mirrorStats: MirrorStats = { polls: 0, errors: 0, lastError: undefined, newTrades: 0, possiblyMissed: 0 };
  private readonly cursors = new Map<SourceInstrument, TradeCursor>();
  private timer: TimerHandle | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(private readonly opts: MirrorOptions) {
    this.applier = new MarketRecordApplier(opts.instruments, { port: opts.port, forcePrints: opts.forcePrints ?? true });
    for (const i of opts.instruments) {
      if (!opts.feeds[i.market]) throw new RangeError(`mirror: no ${i.market} feed for ${i.symbol}`);
      this.cursors.set(i, { initialised: false, lastTime: -Infinity, seenAtLast: new Map() });
    }
  }

  get stats(): ApplierStats {
    return this.applier.stats;
  }

  contractPrices(symbol: string): ContractPriceBoard | undefined {
    return this.applier.contractPrices(symbol);
  }

  start(): void {
    if (this.timer) return;
    void this.tick();
    this.timer = this.opts.clock.setInterval(this.opts.pollMs ?? 1000, () => void this.tick());
  }

  stop(): void {
    this.opts.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** One poll of every instrument; resolves when applied. Concurrent calls share the poll in flight. */
  pollOnce(): Promise<void> {
    if (!this.inFlight) {
      this.inFlight = this.pollAll().finally(() => {
        this.inFlight = undefined;
      });
    }
    return this.inFlight;
  }

  private tick(): Promise<void> {
    // A timer that fires while a poll is still out skips rather than queueing polls up.
    return this.inFlight ? this.inFlight : this.pollOnce();
  }

  private async pollAll(): Promise<void> {
    this.mirrorStats.polls++;
    await Promise.all(this.opts.instruments.map((i) => this.pollInstrument(i)));
  }

  private async pollInstrument(inst: SourceInstrument): Promise<void> {
    const feed = this.opts.feeds[inst.market]!;
    try {
      const [trades, book, prices] = await Promise.all([
        feed.trades(inst.symbol, this.opts.tradeLimit ?? 100),
        feed.depth(inst.symbol, this.opts.depthLimit ?? 100),
        inst.market === 'contract' && feed.prices ? feed.prices(inst.symbol) : Promise.resolve(undefined),
      ]);
      const lt = this.opts.clock.now();
      const head = { m: inst.market, i: inst.symbol, lt } as const;
      const records: DataRecord[] = [];
      for (const t of this.newTrades(inst, trades)) {
        records.push({
          s: 'trade',
          ...head,
          et: t.time,
          ...(t.id === undefined ? {} : { id: t.id }),
          p: t.price,
          q: t.qty,
          ts: t.takerSide,
        });
      }
      records.push({ s: 'depth.snapshot', ...head, et: book.time ?? lt, u: book.version, b: book.bids, a: book.asks });
      if (prices?.index) records.push({ s: 'index', ...head, et: prices.index.time, p: prices.index.price });
      if (prices?.fair) records.push({ s: 'fair', ...head, et: prices.fair.time, p: prices.fair.price });
      const f = prices?.funding;
      if (f) {
        records.push({
          s: 'funding',
          ...head,
          et: f.time ?? lt,
          r: f.rate,
          ...(f.nextSettleTime === undefined ? {} : { nt: f.nextSettleTime }),
          ...(f.min === undefined ? {} : { min: f.min }),
          ...(f.max === undefined ? {} : { max: f.max }),
          ...(f.collectCycleHours === undefined ? {} : { cy: f.collectCycleHours }),
        });
      }
      for (const r of records) {
        this.applier.apply(r, lt);
        this.opts.recorder?.write(r);
      }
    } catch (e) {
      this.mirrorStats.errors++;
      this.mirrorStats.lastError = e;
    }
  }

  private newTrades(inst: SourceInstrument, trades: readonly MirrorTrade[]): MirrorTrade[] {
    const c = this.cursors.get(inst)!;
    // Venues list newest first; reversing before a stable sort keeps their order among equal times.
    const sorted = [...trades].reverse().sort((a, b) => a.time - b.time);
    if (!c.initialised) {
      // The first poll's trades happened before we mirrored; an empty first poll still starts the
      // cursor, or the first trade after it would be taken for history and swallowed.
      c.initialised = true;
      if (sorted.length === 0) return [];
      c.lastTime = sorted[sorted.length - 1]!.time;
      c.seenAtLast = countKeys(sorted.filter((t) => t.time === c.lastTime));
      return [];
    }
    if (sorted.length === 0) return [];
    const newest = sorted[sorted.length - 1]!.time;
    if (Number.isFinite(c.lastTime) && sorted[0]!.time > c.lastTime) this.mirrorStats.possiblyMissed++;
    const budget = new Map(c.seenAtLast);
    const fresh: MirrorTrade[] = [];
    for (const t of sorted) {
      if (t.time < c.lastTime) continue;
      if (t.time === c.lastTime) {
        const k = tradeKey(t);
        const n = budget.get(k) ?? 0;
        if (n > 0) {
          budget.set(k, n - 1);
          continue;
        }
      }
      fresh.push(t);
    }
    if (newest > c.lastTime) {
      c.lastTime = newest;
      c.seenAtLast = countKeys(sorted.filter((t) => t.time === newest));
    } else {
      for (const t of fresh) c.seenAtLast.set(tradeKey(t), (c.seenAtLast.get(tradeKey(t)) ?? 0) + 1);
    }
    this.mirrorStats.newTrades += fresh.length;
    return fresh;
  }
}

function tradeKey(t: MirrorTrade): string {
  return t.id !== undefined ? `#${t.id}` : `${t.price}|${t.qty}|${t.takerSide}`;
}

function countKeys(trades: readonly MirrorTrade[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of trades) m.set(tradeKey(t), (m.get(tradeKey(t)) ?? 0) + 1);
  return m;
}
