/**
 * The backtest's MarketDataSource: the snapshots the live pollers (marketdata/poll) would have made
 * from the recorded market, with their cadence and their staleness.
 *
 * Cadence: the same poll config (resolvePollConfig), the same rules as InstrumentPoller — a cycle per
 * `cycleMs` per instrument, each stream fetched in the cycles where its `everyMs` has passed since its
 * last fetch and carried over otherwise, one snapshot per cycle, `seq` counting per instrument.
 *
 * Staleness: a cycle scheduled at s reads the market as it stood at s (the requests reach the venue)
 * and its snapshot arrives at s + latencyMs with pollTime = s + latencyMs; so a snapshot taken at poll
 * time t reflects the market as of t − latencyMs. The next cycle is scheduled at s + cycleMs, or when
 * the previous answer arrived if that is later (cycles never overlap).
 *
 * Driven by the runner on the virtual clock (synchronous, docs/architecture.md rule 8): `nextDueAt()` says when
 * something is due, `runDue(now)` captures / delivers what is due; delivery calls subscribers
 * synchronously. No timers, no RxJS time operators.
 */
import { Observable, Subject, filter, share } from 'rxjs';
import type { Clock } from '../core/clock.js';
import { D, type Decimal } from '../core/decimal.js';
import { ConfigError } from '../core/errors.js';
import type { InstrumentSymbol } from '../core/ids.js';
import type {
  BookLevel,
  BookTicker,
  ContractTicker,
  FundingRateInfo,
  Kline,
  MarketTrade,
  OrderBookSnapshot,
  PricePoint,
  Ticker24h,
} from '../domain/snapshot.js';
import type { MarketDataSource } from '../marketdata/market-data-source.js';
import type { PolledSnapshot } from '../marketdata/poll/market-data-events.js';
import {
  resolvePollConfig,
  type MarketPollConfig,
  type ResolvedInstrumentPoll,
  type ResolvedStream,
  type StreamName,
} from '../marketdata/poll/poll-config.js';
import type { AveragePrice } from '../marketdata/poll/snapshot-records.js';
import { fromContractInterval, type KlineInterval } from '../domain/kline-interval.js';
import type { KlineBar } from '../venue/market/kline-store.js';
import type { TapeTrade } from '../venue/market/tape-aggregator.js';
import type { ReplayInstrument, ReplayMarket, ReplayTapeNeeds } from './replay-market.js';

export interface ReplaySnapshotSourceOptions {
  readonly clock: Clock;
  readonly market: ReplayMarket;
  /** What to poll and how often (the live config's marketData, mapped by the app or the backtest config). */
  readonly config: MarketPollConfig;
  /** A snapshot arrives this long after the market state it shows. Default 0. */
  readonly latencyMs?: number;
  /** Root of config paths in error messages. */
  readonly configPath?: string;
}

type Records = { -readonly [K in keyof PolledSnapshot]?: PolledSnapshot[K] };

interface PollState {
  readonly poll: ResolvedInstrumentPoll;
  readonly inst: ReplayInstrument;
  readonly lastFetched: Map<StreamName, number>;
  readonly records: Records;
  seq: number;
  /** Scheduled time of the next cycle. */
  nextCycle: number;
  /** A cycle captured and waiting to be delivered. */
  pending: { readonly deliverAt: number; readonly scheduledAt: number; readonly records: Records } | undefined;
  /** The bars of the last poll per interval name (see klines()). */
  readonly klineCache: Map<string, KlineWindow>;
  /** The prints of the last poll, in id order (see trades()). */
  tradeCache: TickTrade[];
  /** The depth levels of the last poll per side, by price (see levels()). */
  readonly levelCache: { buy: TickLevel[]; sell: TickLevel[] };
}

/** A poll's bars of one interval, oldest first: the first `closed` were closed at that poll. */
interface KlineWindow {
  readonly bars: readonly Kline[];
  readonly closed: number;
  /** The request's limit it answered. */
  readonly limit: number;
}

export interface SnapshotSourceStats {
  cycles: number;
  snapshots: number;
  /** Cycles skipped because the instrument had no market data yet. */
  empty: number;
}

/**
 * What the polls of `config` read from each symbol's tape (the streams fetch() answers from it), so a
 * replay keeps only that: kline intervals polled, the 24h window for tickers, the average-price window,
 * and as many recent prints as the largest trades / deals limit.
 */
export function tapeNeeds(config: MarketPollConfig, configPath = 'marketData'): Map<string, ReplayTapeNeeds> {
  const out = new Map<string, ReplayTapeNeeds>();
  for (const poll of resolvePollConfig(config, configPath)) {
    const intervals = new Set<KlineInterval>();
    let ticker24h = false;
    let avgPrice = false;
    let recentTrades = 0;
    for (const s of poll.streams) {
      switch (s.name) {
        case 'klines':
          for (const r of s.requests) {
            const name = r.params.interval as string;
            intervals.add(poll.kind === 'contract' ? fromContractInterval(name as never) : (name as KlineInterval));
          }
          break;
        case 'ticker24h':
        case 'ticker':
          ticker24h = true;
          break;
        case 'avgPrice':
          avgPrice = true;
          break;
        case 'trades':
        case 'deals':
          for (const r of s.requests) recentTrades = Math.max(recentTrades, r.params.limit as number);
          break;
        default:
          break;
      }
    }
    const prev = out.get(poll.symbol);
    out.set(poll.symbol, {
      klineIntervals: [...new Set([...(prev?.klineIntervals ?? []), ...intervals])],
      ticker24h: ticker24h || (prev?.ticker24h ?? false),
      avgPrice: avgPrice || (prev?.avgPrice ?? false),
      recentTrades: Math.max(recentTrades, prev?.recentTrades ?? 0),
    });
  }
  return out;
}

/** A run that polls nothing of an instrument reads nothing of its tape. */
export const NO_TAPE: ReplayTapeNeeds = Object.freeze({ klineIntervals: [], ticker24h: false, avgPrice: false, recentTrades: 0 });

export class ReplaySnapshotSource implements MarketDataSource {
  readonly symbols: readonly InstrumentSymbol[];
  readonly stats: SnapshotSourceStats = { cycles: 0, snapshots: 0, empty: 0 };
  private readonly latency: number;
  private readonly polls: PollState[];
  private readonly subject = new Subject<PolledSnapshot>();
  private readonly all$: Observable<PolledSnapshot>;
  private readonly perSymbol = new Map<string, Observable<PolledSnapshot>>();
  private state: 'idle' | 'running' | 'stopped' = 'idle';
  private begun = false;

  constructor(private readonly opts: ReplaySnapshotSourceOptions) {
    const root = opts.configPath ?? 'marketData';
    this.latency = opts.latencyMs ?? 0;
    if (!Number.isSafeInteger(this.latency) || this.latency < 0)
      throw new ConfigError(`${root}.latencyMs`, `expected a whole number of ms >= 0, got ${this.latency}`);
    const resolved = resolvePollConfig(opts.config, root);
    this.polls = resolved.map((poll, i) => {
      const inst = opts.market.instrument(poll.symbol);
      if (!inst) throw new ConfigError(`${root}.instruments[${i}].symbol`, `${poll.symbol} has no market data in this backtest`);
      if (inst.kind !== poll.kind) throw new ConfigError(`${root}.instruments[${i}].kind`, `${poll.symbol} is a ${inst.kind} instrument`);
      return {
        poll,
        inst,
        lastFetched: new Map(),
        records: {},
        seq: 0,
        nextCycle: Infinity,
        pending: undefined,
        klineCache: new Map(),
        tradeCache: [],
        levelCache: { buy: [], sell: [] },
      };
    });
    this.symbols = this.polls.map((p) => p.poll.symbol);
    this.all$ = this.subject.pipe(share());
    for (const s of this.symbols)
      this.perSymbol.set(
        s,
        this.all$.pipe(
          filter((x) => x.symbol === s),
          share(),
        ),
      );
  }

  snapshots(symbol?: InstrumentSymbol): Observable<PolledSnapshot> {
    if (symbol === undefined) return this.all$;
    const s = this.perSymbol.get(symbol);
    if (!s) throw new ConfigError('marketData.instruments', `${symbol} is not polled (polled: ${this.symbols.join(', ') || 'none'})`);
    return s;
  }

  async start(): Promise<void> {
    if (this.state === 'stopped') throw new ConfigError('marketData', 'a stopped market data source cannot be restarted; build a new one');
    this.state = 'running';
  }

  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.subject.complete();
  }

  /** The first cycle of every instrument is at `at` (the first record's time). */
  begin(at: number): void {
    if (this.begun) return;
    this.begun = true;
    for (const p of this.polls) p.nextCycle = at;
  }

  nextDueAt(): number | undefined {
    if (this.state !== 'running') return undefined;
    let best = Infinity;
    for (const p of this.polls) {
      const t = p.pending ? p.pending.deliverAt : p.nextCycle;
      if (t < best) best = t;
    }
    return best === Infinity ? undefined : best;
  }

  /**
   * Captures the cycles due at `now` and delivers the snapshots due at `now`; returns how many were
   * delivered (a capture alone reads the market and wakes nobody).
   */
  runDue(now: number): number {
    if (this.state !== 'running') return 0;
    let delivered = 0;
    for (const p of this.polls) {
      // A capture and its delivery may both be due now (no latency): capture first.
      if (!p.pending && p.nextCycle <= now) this.capture(p, p.nextCycle);
      if (p.pending && p.pending.deliverAt <= now) {
        this.deliver(p);
        delivered++;
      }
    }
    return delivered;
  }

  private capture(p: PollState, scheduledAt: number): void {
    this.stats.cycles++;
    const inst = p.inst;
    if (inst.lastTradeTicks === undefined && inst.book.bestBid() === undefined && inst.book.bestAsk() === undefined) {
      // Nothing recorded yet: the venue would answer empty records; the poller would see a failed cycle.
      this.stats.empty++;
      p.nextCycle = scheduledAt + p.poll.cycleMs;
      return;
    }
    const now = this.opts.clock.now();
    const fresh: Records = {};
    for (const s of p.poll.streams) {
      const last = p.lastFetched.get(s.name);
      if (last !== undefined && scheduledAt - last < s.everyMs) continue;
      this.fetch(fresh, p, s, now);
      p.lastFetched.set(s.name, scheduledAt);
    }
    p.pending = { deliverAt: scheduledAt + this.latency, scheduledAt, records: fresh };
  }

  private deliver(p: PollState): void {
    const pending = p.pending!;
    p.pending = undefined;
    Object.assign(p.records, pending.records);
    const pollTime = pending.deliverAt;
    p.nextCycle = Math.max(pending.scheduledAt + p.poll.cycleMs, pollTime);
    const r = p.records;
    // The newest exchange time among the records that carry one (no list of them made per poll).
    let exchangeTime = newer(undefined, r.book?.exchangeTime);
    exchangeTime = newer(exchangeTime, r.bookTicker?.exchangeTime);
    exchangeTime = newer(exchangeTime, r.ticker24h?.exchangeTime);
    exchangeTime = newer(exchangeTime, r.fundingRate?.exchangeTime);
    exchangeTime = newer(exchangeTime, r.fairPrice?.exchangeTime);
    exchangeTime = newer(exchangeTime, r.indexPrice?.exchangeTime);
    exchangeTime = newer(exchangeTime, r.contractTicker?.exchangeTime);
    const snapshot: PolledSnapshot = {
      symbol: p.poll.symbol,
      kind: p.poll.kind,
      pollTime,
      ...(exchangeTime !== undefined ? { exchangeTime } : {}),
      seq: ++p.seq,
      ...r,
    };
    this.stats.snapshots++;
    this.subject.next(snapshot);
  }

  // ------------------------------------------------------------------ records, as the fetchers would map them

  /** Adds the stream's records to `out` (in the order the fetchers would map them). */
  private fetch(out: Records, p: PollState, s: ResolvedStream, now: number): void {
    const inst = p.inst;
    const params = s.requests[0]!.params;
    switch (s.name) {
      case 'depth':
        out.book = this.depth(p, params.limit as number);
        return;
      case 'bookTicker':
        out.bookTicker = this.bookTicker(inst);
        return;
      case 'trades':
      case 'deals':
        out.trades = this.trades(p, params.limit as number);
        return;
      case 'klines': {
        const bars: Record<string, readonly Kline[]> = {};
        for (const r of s.requests) {
          const name = r.params.interval as string;
          bars[name] = this.klines(p, name, r.params.limit as number, now);
        }
        out.klines = bars;
        return;
      }
      case 'ticker24h':
        out.ticker24h = this.ticker24h(inst, now);
        return;
      case 'avgPrice': {
        const a = inst.tape.avgPrice(now);
        if (a) out.avgPrice = { price: a.price, windowMinutes: a.mins } satisfies AveragePrice;
        return;
      }
      case 'ticker':
        out.contractTicker = this.contractTicker(inst, now);
        return;
      case 'fundingRate': {
        const f = this.funding(inst);
        if (f) out.fundingRate = f;
        return;
      }
      case 'fairPrice': {
        const f = this.fair(inst);
        if (f) out.fairPrice = f;
        return;
      }
      case 'indexPrice': {
        const x = inst.index ? { price: this.parsed(inst.index.price), exchangeTime: inst.index.time } : this.fair(inst);
        if (x) out.indexPrice = x;
        return;
      }
    }
  }

  private depth(p: PollState, limit: number): OrderBookSnapshot {
    const book = p.inst.book;
    // The optional fields set in place, in the same order (a spread made and copied an object for each, every poll).
    const out: { bids: BookLevel[]; asks: BookLevel[]; sequence?: string; exchangeTime?: number } = {
      bids: this.levels(p, 'buy', limit),
      asks: this.levels(p, 'sell', limit),
    };
    if (book.updateId !== undefined) out.sequence = String(book.updateId);
    if (book.updateTime !== undefined) out.exchangeTime = book.updateTime;
    return out;
  }

  /**
   * Up to `limit` visible levels, best first, as lazy views (TickLevel). A level seen at the last poll
   * with the same size is the same view again, so a Decimal once read is not made twice; both lists
   * are in price order, so one pass over the last one finds them.
   */
  private levels(p: PollState, side: 'buy' | 'sell', limit: number): BookLevel[] {
    const prev = p.levelCache[side];
    const inst = p.inst;
    const n = inst.book.visibleTop(side, limit, this.scratchPrices, this.scratchLots);
    const out = new Array<TickLevel>(n);
    const bid = side === 'buy';
    let j = 0;
    for (let k = 0; k < n; k++) {
      const price = this.scratchPrices[k]!;
      const lots = this.scratchLots[k]!;
      // Skip the old levels better than this price (gone since the last poll).
      while (j < prev.length && (bid ? prev[j]!.ticks > price : prev[j]!.ticks < price)) j++;
      const old = j < prev.length ? prev[j]! : undefined;
      out[k] = old !== undefined && old.ticks === price && old.lots === lots ? old : new TickLevel(inst, price, lots);
    }
    p.levelCache[side] = out;
    return out;
  }

  private readonly scratchPrices: number[] = [];
  private readonly scratchLots: number[] = [];

  private bookTicker(inst: ReplayInstrument): BookTicker {
    const [b] = inst.book.top('buy', 1);
    const [a] = inst.book.top('sell', 1);
    const zero = D(0);
    return {
      bidPrice: b ? inst.price(b[0]) : zero,
      bidQty: b ? inst.qty(b[1]) : zero,
      askPrice: a ? inst.price(a[0]) : zero,
      askQty: a ? inst.qty(a[1]) : zero,
    };
  }

  private trades(p: PollState, limit: number): MarketTrade[] {
    const inst = p.inst;
    // Both lists are in id order: one pass over the last poll's finds the prints seen before.
    const prev = p.tradeCache;
    const out: TickTrade[] = [];
    let j = 0;
    inst.visitRecentTrades(limit, (id, time, priceTicks, lots, takerSide) => {
      while (j < prev.length && prev[j]!.seq < id) j++;
      out.push(j < prev.length && prev[j]!.seq === id ? prev[j]! : new TickTrade(inst, id, time, priceTicks, lots, takerSide));
    });
    p.tradeCache = out;
    return out;
  }

  /**
   * The window of bars, sharing the views of the bars that were closed at the last poll: a closed bar
   * never changes, and the window moves by a bar or so between polls, so each bar becomes a view
   * once (and its close a Decimal once). Both windows are in time order: one pass over the last one
   * finds them.
   *
   * Once a whole window is known, only the bars after its last closed one are read from the tape (a
   * bar or two at a poll a bar, instead of the whole window: issue 13): the window is then those closed
   * bars and the new ones, the oldest dropped down to `limit`. A window is a run of consecutive bars
   * ending at the bar open at `now` (the tape fills a bar without prints), so this is the same window.
   */
  private klines(p: PollState, name: string, limit: number, now: number): Kline[] {
    const inst = p.inst;
    const interval: KlineInterval = inst.kind === 'contract' ? fromContractInterval(name as never) : (name as KlineInterval);
    const prev = p.klineCache.get(name);
    const after = prev !== undefined && prev.closed > 0 ? prev.bars[prev.closed - 1]!.closeTime : undefined;
    if (prev !== undefined && after !== undefined && prev.limit === limit && prev.bars.length >= limit) {
      const fresh = inst.tape.klineBars(interval, { startTime: after, limit }, now);
      // A full answer may have stopped short of `now` (polls further apart than the window): read it whole.
      if (fresh.length < limit) return this.klineWindow(p, name, limit, now, prev, fresh, prev.closed);
    }
    return this.klineWindow(p, name, limit, now, prev, inst.tape.klineBars(interval, { limit }, now), 0);
  }

  /** The window of `bars` (read from the tape) after the first `kept` closed bars of the last window. */
  private klineWindow(
    p: PollState,
    name: string,
    limit: number,
    now: number,
    prev: KlineWindow | undefined,
    bars: readonly KlineBar[],
    kept: number,
  ): Kline[] {
    const inst = p.inst;
    const prevBars = prev?.bars ?? [];
    // Bars after the kept ones are all newer than any closed one of the last window: nothing to look up.
    const prevClosed = kept > 0 ? 0 : (prev?.closed ?? 0);
    const skip = Math.max(0, kept + bars.length - limit);
    const out: Kline[] = new Array<Kline>(kept - skip + bars.length);
    for (let i = skip; i < kept; i++) out[i - skip] = prevBars[i]!;
    let closed = kept - skip;
    let j = 0;
    for (let i = 0; i < bars.length; i++) {
      const b = bars[i]!;
      const at = kept - skip + i;
      if (b.closeTime <= now) {
        closed = at + 1;
        while (j < prevClosed && prevBars[j]!.openTime < b.openTime) j++;
        if (j < prevClosed && prevBars[j]!.openTime === b.openTime) {
          out[at] = prevBars[j]!;
          continue;
        }
      }
      out[at] = this.kline(inst, b);
    }
    p.klineCache.set(name, { bars: out, closed, limit });
    return out;
  }

  private kline(inst: ReplayInstrument, b: KlineBar): Kline {
    return new TickKline(inst, b);
  }

  private ticker24h(inst: ReplayInstrument, now: number): Ticker24h {
    const t = inst.tape.ticker24h(now);
    const last = t.last ?? (inst.lastTradeTicks !== undefined ? inst.price(inst.lastTradeTicks) : D(0));
    const [b] = inst.book.top('buy', 1);
    const [a] = inst.book.top('sell', 1);
    return {
      lastPrice: last,
      ...(t.open !== undefined ? { openPrice: t.open } : {}),
      ...(t.high !== undefined ? { highPrice: t.high } : {}),
      ...(t.low !== undefined ? { lowPrice: t.low } : {}),
      volume: t.volume,
      quoteVolume: t.quoteVolume,
      ...(t.priceChangePercent !== undefined ? { priceChangePercent: t.priceChangePercent } : {}),
      ...(b ? { bidPrice: inst.price(b[0]) } : {}),
      ...(a ? { askPrice: inst.price(a[0]) } : {}),
      exchangeTime: t.closeTime,
    };
  }

  private fair(inst: ReplayInstrument): PricePoint | undefined {
    const f = inst.freshFair();
    if (f) return { price: this.parsed(f.price), exchangeTime: f.time };
    // No mark-price stream recorded, or its last mark is older than the traded data allows (a coarse
    // mark series): the venue's fair price follows its last trade.
    return inst.lastTradeTicks !== undefined
      ? { price: inst.price(inst.lastTradeTicks), ...(inst.lastTradeTime !== undefined ? { exchangeTime: inst.lastTradeTime } : {}) }
      : undefined;
  }

  private funding(inst: ReplayInstrument): FundingRateInfo | undefined {
    const f = inst.funding;
    if (!f) return undefined;
    return {
      rate: this.parsed(f.rate),
      ...(f.max !== undefined ? { maxRate: D(f.max) } : {}),
      ...(f.min !== undefined ? { minRate: D(f.min) } : {}),
      ...(f.cycleHours !== undefined ? { collectCycleHours: f.cycleHours } : {}),
      ...(f.nextSettleTime !== undefined ? { nextSettleTime: f.nextSettleTime } : {}),
      exchangeTime: f.time,
    };
  }

  private contractTicker(inst: ReplayInstrument, now: number): ContractTicker {
    const t = inst.tape.dayTotalUnits(now);
    const lastTicks = t.lastTicks ?? inst.lastTradeTicks;
    const b = inst.book.bestVisible('buy');
    const a = inst.book.bestVisible('sell');
    const fair = this.fair(inst);
    const f = inst.funding;
    const index = inst.index ? this.parsed(inst.index.price) : fair?.price;
    return new TickContractTicker(
      inst,
      t.volumeLots,
      t.quoteUnits,
      lastTicks !== undefined ? inst.price(lastTicks) : D(0),
      b !== undefined ? inst.price(b) : undefined,
      a !== undefined ? inst.price(a) : undefined,
      fair?.price,
      index,
      f ? this.parsed(f.rate) : undefined,
      now,
    );
  }

  /**
   * A recorded decimal string (a funding rate, an index or mark price) as a Decimal, parsed once: the
   * same string comes back at every poll until the next record of it.
   */
  private parsed(s: string): Decimal {
    let d = this.parsedStrings.get(s);
    if (d === undefined) {
      if (this.parsedStrings.size >= PARSED_MEMO) this.parsedStrings.clear();
      this.parsedStrings.set(s, (d = D(s)));
    }
    return d;
  }

  private readonly parsedStrings = new Map<string, Decimal>();
}

/** The later of two exchange times, either possibly unknown. */
const newer = (a: number | undefined, t: number | undefined): number | undefined => (t !== undefined && (a === undefined || t > a) ? t : a);

/** Recorded strings kept parsed (ReplaySnapshotSource.parsed) before the memo starts over. */
const PARSED_MEMO = 1024;

/*
 * Snapshot views whose Decimals are made on first read. A poll copies the top of the book and the
 * recent prints every cycle, but a strategy typically reads one or two of those values (the mid);
 * converting every level and print to Decimal was most of a snapshot's cost and most of the replay's
 * garbage. `price` and `quantity` are getters that convert once and keep the value; they are
 * enumerable (for…in, deep equality see the same keys as on the record a poller builds) and toJSON
 * gives the plain record. The internal state is in private fields, invisible to reflection.
 */
class TickLevel implements BookLevel {
  readonly #inst: ReplayInstrument;
  readonly #ticks: number;
  readonly #lots: number;
  #price: Decimal | undefined;
  #quantity: Decimal | undefined;

  constructor(inst: ReplayInstrument, ticks: number, lots: number) {
    this.#inst = inst;
    this.#ticks = ticks;
    this.#lots = lots;
  }

  /** Price ticks and visible lots (not part of the record: getters on the prototype, not enumerable). */
  get ticks(): number {
    return this.#ticks;
  }

  get lots(): number {
    return this.#lots;
  }

  get price(): Decimal {
    return (this.#price ??= this.#inst.price(this.#ticks));
  }

  get quantity(): Decimal {
    return (this.#quantity ??= this.#inst.qty(this.#lots));
  }

  toJSON(): BookLevel {
    return { price: this.price, quantity: this.quantity };
  }
}

class TickTrade implements MarketTrade {
  readonly id: string;
  readonly takerSide: TapeTrade['takerSide'];
  readonly time: number;
  readonly #inst: ReplayInstrument;
  readonly #ticks: number;
  readonly #lots: number;
  readonly #seq: number;
  #price: Decimal | undefined;
  #quantity: Decimal | undefined;

  /** The print's number in the replay (the id as a number; a getter, not part of the record). */
  get seq(): number {
    return this.#seq;
  }

  constructor(inst: ReplayInstrument, id: number, time: number, priceTicks: number, lots: number, takerSide: TapeTrade['takerSide']) {
    this.#seq = id;
    this.id = String(id);
    this.takerSide = takerSide;
    this.time = time;
    this.#inst = inst;
    this.#ticks = priceTicks;
    this.#lots = lots;
  }

  get price(): Decimal {
    return (this.#price ??= this.#inst.price(this.#ticks));
  }

  get quantity(): Decimal {
    return (this.#quantity ??= this.#inst.qty(this.#lots));
  }

  toJSON(): MarketTrade {
    return { id: this.id, price: this.price, quantity: this.quantity, takerSide: this.takerSide, time: this.time };
  }
}

/**
 * A bar as a lazy view: its prices and sizes are copied as ticks and lots when the poll reads the
 * bar (the forming bar changes after), and become Decimals on first read. A strategy reads the
 * closes of a window of bars; the volume and quote volume of every bar (a multiplication and a
 * rounding each) were built for nobody at every poll.
 */
class TickKline implements Kline {
  readonly openTime: number;
  readonly closeTime: number;
  readonly #inst: ReplayInstrument;
  readonly #open: number;
  readonly #high: number;
  readonly #low: number;
  readonly #close: number;
  readonly #lots: number;
  readonly #quoteUnits: number;
  #volume: Decimal | undefined;
  #quoteVolume: Decimal | undefined;

  constructor(inst: ReplayInstrument, b: KlineBar) {
    this.openTime = b.openTime;
    this.closeTime = b.closeTime;
    this.#inst = inst;
    this.#open = b.open;
    this.#high = b.high;
    this.#low = b.low;
    this.#close = b.close;
    this.#lots = b.volume;
    this.#quoteUnits = b.quote;
  }

  // Prices come from the instrument's memo (one Decimal per price, kept a while): nothing to keep here.
  get open(): Decimal {
    return this.#inst.price(this.#open);
  }

  get high(): Decimal {
    return this.#inst.price(this.#high);
  }

  get low(): Decimal {
    return this.#inst.price(this.#low);
  }

  get close(): Decimal {
    return this.#inst.price(this.#close);
  }

  get volume(): Decimal {
    return (this.#volume ??= this.#inst.qty(this.#lots));
  }

  get quoteVolume(): Decimal {
    return (this.#quoteVolume ??= this.#inst.tape.quote(this.#quoteUnits));
  }

  toJSON(): Kline {
    return {
      openTime: this.openTime,
      closeTime: this.closeTime,
      open: this.open,
      high: this.high,
      low: this.low,
      close: this.close,
      volume: this.volume,
      quoteVolume: this.quoteVolume,
    };
  }
}

/**
 * A contract ticker whose 24h volume and turnover become Decimals on first read (nothing in the
 * trading runtime reads them; building them was a third of a poll's records). The other fields are
 * own properties, present only when known, as on the record a poller builds.
 */
class TickContractTicker implements ContractTicker {
  declare readonly lastPrice: Decimal;
  declare readonly bid1?: Decimal;
  declare readonly ask1?: Decimal;
  declare readonly fairPrice?: Decimal;
  declare readonly indexPrice?: Decimal;
  declare readonly fundingRate?: Decimal;
  declare readonly exchangeTime?: number;
  readonly #inst: ReplayInstrument;
  readonly #lots: number;
  readonly #quoteUnits: number;
  #volume24: Decimal | undefined;
  #amount24: Decimal | undefined;

  /** The fields given are own properties in the record's order; an undefined one is left out, as on the record. */
  constructor(
    inst: ReplayInstrument,
    volumeLots: number,
    quoteUnits: number,
    lastPrice: Decimal,
    bid1: Decimal | undefined,
    ask1: Decimal | undefined,
    fairPrice: Decimal | undefined,
    indexPrice: Decimal | undefined,
    fundingRate: Decimal | undefined,
    exchangeTime: number,
  ) {
    this.lastPrice = lastPrice;
    if (bid1 !== undefined) this.bid1 = bid1;
    if (ask1 !== undefined) this.ask1 = ask1;
    if (fairPrice !== undefined) this.fairPrice = fairPrice;
    if (indexPrice !== undefined) this.indexPrice = indexPrice;
    if (fundingRate !== undefined) this.fundingRate = fundingRate;
    this.exchangeTime = exchangeTime;
    this.#inst = inst;
    this.#lots = volumeLots;
    this.#quoteUnits = quoteUnits;
  }

  get volume24(): Decimal {
    return (this.#volume24 ??= this.#inst.qty(this.#lots));
  }

  get amount24(): Decimal {
    return (this.#amount24 ??= this.#inst.tape.quote(this.#quoteUnits));
  }

  /** The record in the order contractTicker() gives its fields (and a poller maps them). */
  toJSON(): ContractTicker {
    const { lastPrice, bid1, ask1, fairPrice, indexPrice, fundingRate, exchangeTime } = this;
    return {
      lastPrice,
      ...(bid1 !== undefined ? { bid1 } : {}),
      ...(ask1 !== undefined ? { ask1 } : {}),
      volume24: this.volume24,
      amount24: this.amount24,
      ...(fairPrice !== undefined ? { fairPrice } : {}),
      ...(indexPrice !== undefined ? { indexPrice } : {}),
      ...(fundingRate !== undefined ? { fundingRate } : {}),
      ...(exchangeTime !== undefined ? { exchangeTime } : {}),
    };
  }
}

for (const [cls, keys] of [
  [TickLevel, ['price', 'quantity']],
  [TickTrade, ['price', 'quantity']],
  [TickKline, ['open', 'high', 'low', 'close', 'volume', 'quoteVolume']],
  [TickContractTicker, ['volume24', 'amount24']],
] as const) {
  for (const key of keys)
    Object.defineProperty(cls.prototype, key, { ...Object.getOwnPropertyDescriptor(cls.prototype, key)!, enumerable: true });
}
