/**
 * The recorded market during a replay: one ReplayInstrument per instrument with its book (ReplayBook),
 * its tape (TapeAggregator: klines, 24h ticker, average price — what the venue's REST endpoints would
 * answer, kept only as far as the run's polls read it: ReplayTapeNeeds), its last prints, and, for
 * perpetuals, the fair / index price and the funding rate.
 *
 * Records come in time order (the runner merges them); each is applied as the venue would have
 * changed: depth snapshot + diffs with the venue's sequence rules, a bookTicker only when there is no
 * depth stream, trades to the tape. Decimal strings become ticks and lots as round(value / unit) in
 * plain numbers (exact below ~10^12 units). A `MarketListener` (the simulated exchange's fill model)
 * hears every trade, and the level changes of the instruments it watches (watchLevels).
 */
import type { Decimal } from '../core/decimal.js';
import { tickOf, stepOf, type Instrument } from '../domain/instrument.js';
import { instrumentKey, type DataRecord, type KlineRecord, type RecordLevel, type RecordMarket } from '../marketdata/record/record.js';
import type { ScaledBar, ScaledDepth, ScaledTrade, ScaleSpec } from '../marketdata/store/chunk-codec.js';
import type { KlineInterval } from '../domain/kline-interval.js';
import { TapeAggregator, type TapeTrade } from '../venue/market/tape-aggregator.js';

/** Prints each instrument keeps for the trades stream (spot trades allow at most 1000). */
export const RECENT_TRADES = 1000;
/** Slots of the memo of prices as Decimals (ReplayInstrument.price): a power of two. */
const PRICE_MEMO = 1 << 15;

/** Prices in ticks (NaN: empty slot) and their Decimals (ReplayInstrument.price). */
interface PriceMemo {
  readonly keys: Float64Array;
  readonly values: (Decimal | undefined)[];
}

/**
 * The price memos, by tick (its text). A price in ticks is the same Decimal for every instrument of
 * that tick in every run, so instruments share one: making a memo per instrument cost most of the
 * 0.2–0.4 ms a ReplayMarket took to make (≈1 % of a run of the 11-minute BTCUSDT recording), and a
 * run over the data of the last one (another fill model, a sweep point) finds its prices converted.
 */
const PRICE_MEMOS = new Map<string, PriceMemo>();

function priceMemo(tick: Decimal): PriceMemo {
  const key = tick.toString();
  let m = PRICE_MEMOS.get(key);
  if (m === undefined) {
    m = { keys: new Float64Array(PRICE_MEMO).fill(NaN), values: new Array<Decimal | undefined>(PRICE_MEMO).fill(undefined) };
    PRICE_MEMOS.set(key, m);
  }
  return m;
}
import { syntheticBookFlat, type IntraBarPathOptions, type PathPoint } from './intra-bar-path.js';
import { ReplayBook, type Side } from './replay-book.js';

/** What the replay feeds into (the fill model). */
export interface MarketListener {
  onTrade(inst: ReplayInstrument, takerSide: Side, priceTicks: number, lots: number, time: number): void;
  /** Only for instruments it watches (ReplayMarket.watchLevels), at the prices their books listen to (ReplayBook.listenRange). */
  onLevel(inst: ReplayInstrument, side: Side, priceTicks: number, prevLots: number, newLots: number): void;
  /** After a depth / bookTicker / path record changed the book. */
  onBook(inst: ReplayInstrument): void;
  /** A fair / index price or funding record of a perpetual. */
  onPrices?(inst: ReplayInstrument, record: DataRecord): void;
}

export interface ReplayInstrumentSpec {
  /** Our instrument (rules, tick, step). */
  readonly instrument: Instrument;
  /** The instrument as the records name it. */
  readonly source: { readonly market: RecordMarket; readonly symbol: string };
  /** Recorded quantity × this = our quantity (base units, or contracts). Default 1. */
  readonly quantityFactor?: number;
  /** The instrument has only klines: they are expanded into an intra-bar path (intra-bar-path.ts). */
  readonly klineOnly?: boolean;
  readonly path?: IntraBarPathOptions;
  /** What the run reads from the tape (default: everything the venue could answer). */
  readonly tape?: ReplayTapeNeeds;
}

/**
 * The parts of the tape a run reads: what its polls ask for (the runner derives it from the poll
 * config). Every print updates each kept kline interval and window, so a run that polls the book
 * and trades only keeps no bars at all.
 */
export interface ReplayTapeNeeds {
  readonly klineIntervals: readonly KlineInterval[];
  readonly ticker24h: boolean;
  readonly avgPrice: boolean;
  /** Recent prints kept for the trades stream (its largest limit); at most RECENT_TRADES. */
  readonly recentTrades: number;
}

export interface FundingState {
  readonly rate: string;
  readonly nextSettleTime?: number;
  readonly min?: string;
  readonly max?: string;
  readonly cycleHours?: number;
  readonly time: number;
}

/** A recorded mark older than this behind the traded price gives way to it (trade / L2 data; bars use their length). */
export const DEFAULT_MARK_MAX_AGE_MS = 60_000;

export interface PricePointState {
  readonly price: string;
  readonly ticks: number;
  readonly time: number;
  /** When the price was sampled: before `time` for a record carried to the start of the run (carriedFrom). */
  readonly sampledAt: number;
}

/**
 * Records moved to the start of a run (backtest-data.ts sortAndTrim: the funding rate or mark in force
 * when the market data begins) → their own time. A mark carried from hours before is as old as that.
 */
export const carriedFrom = new WeakMap<object, number>();

export interface ReplayStats {
  /** Records (and path points) applied. */
  events: number;
  trades: number;
  depthUpdates: number;
  staleDiffs: number;
  sequenceGaps: number;
  unsynced: number;
  /** Records of instruments not in the run. */
  skipped: number;
}

/**
 * An instrument's record → integer conversion (ReplayInstrument.ticks / lots), for a reader that
 * decodes records straight into ticks and lots (RecordStoreReader.scaledRecords).
 */
export function replayScale(spec: ReplayInstrumentSpec): ScaleSpec {
  const inst = spec.instrument;
  return {
    key: instrumentKey(spec.source.market, spec.source.symbol),
    tick: tickOf(inst).toNumber(),
    lotFactor: (spec.quantityFactor ?? 1) / stepOf(inst).toNumber(),
  };
}

export class ReplayInstrument {
  readonly symbol: string;
  readonly kind: 'spot' | 'contract';
  readonly key: string;
  /** Price tick and quantity step as numbers (unit → ticks / lots divisions). */
  readonly tick: number;
  readonly step: number;
  readonly tickD: Decimal;
  readonly stepD: Decimal;
  readonly book = new ReplayBook();
  readonly tape: TapeAggregator;
  /** Recorded quantity → lots: qty × lotFactor. */
  readonly lotFactor: number;
  hasDepth = false;
  /** The first depth snapshot has been applied (diffs before it are ignored). */
  synced = false;
  private firstAfterSnapshot = false;
  lastTradeTicks: number | undefined;
  lastTradeTime: number | undefined;
  tradeSeq = 0;
  fair: PricePointState | undefined;
  index: PricePointState | undefined;
  /**
   * How old a recorded mark may be, behind the traded price, before the traded price stands in for it
   * (freshFair): the bar length of kline-only data (set by the feed), else a minute. A mark series
   * coarser than the traded data (8-hour mark candles under 1-minute bars) must not freeze the fair
   * price — equity, margin, triggers and the strategy's fair price — for hours (issue 13, defect 1).
   */
  markMaxAgeMs = DEFAULT_MARK_MAX_AGE_MS;
  /** Largest gap seen between two recorded marks, ms (0: fewer than two). */
  fairGapMs = 0;
  /** The last `ringSize` prints, a ring of columns (oldest overwritten; no object per print). */
  private readonly ringSize: number;
  private readonly ringId: Float64Array;
  private readonly ringTime: Float64Array;
  private readonly ringTicks: Float64Array;
  private readonly ringLots: Float64Array;
  /** 1 = the taker bought. */
  private readonly ringBuy: Uint8Array;
  private ringLen = 0;
  private ringPos = 0;
  funding: FundingState | undefined;

  constructor(readonly spec: ReplayInstrumentSpec) {
    const inst = spec.instrument;
    this.symbol = inst.symbol;
    this.kind = inst.kind;
    this.key = instrumentKey(spec.source.market, spec.source.symbol);
    this.tickD = tickOf(inst);
    this.stepD = stepOf(inst);
    this.halfTickD = this.tickD.div(2);
    const memo = priceMemo(this.tickD);
    this.priceKeys = memo.keys;
    this.priceValues = memo.values;
    this.tick = this.tickD.toNumber();
    this.step = this.stepD.toNumber();
    this.lotFactor = replayScale(spec).lotFactor;
    const needs = spec.tape;
    // The tape's own print buffers are never read by a replay (the ring below serves the trades stream).
    this.tape = new TapeAggregator(
      { tick: this.tickD, step: this.stepD, ...(inst.kind === 'contract' ? { contractSize: inst.contractSize } : {}) },
      {
        recentTrades: 0,
        aggTrades: 0,
        ...(needs ? { klineIntervals: needs.klineIntervals, ticker24h: needs.ticker24h, avgPrice: needs.avgPrice } : {}),
      },
    );
    const size = Math.max(0, Math.min(RECENT_TRADES, Math.floor(needs?.recentTrades ?? RECENT_TRADES)));
    this.ringSize = size;
    this.ringId = new Float64Array(size);
    this.ringTime = new Float64Array(size);
    this.ringTicks = new Float64Array(size);
    this.ringLots = new Float64Array(size);
    this.ringBuy = new Uint8Array(size);
  }

  get instrument(): Instrument {
    return this.spec.instrument;
  }

  ticks(s: string): number {
    return Math.round(Number(s) / this.tick);
  }

  lots(s: string): number {
    return Math.round(Number(s) * this.lotFactor);
  }

  price(ticks: number): Decimal {
    // The prices a run reads (the touch, the last trade, the mark) keep coming back: one Decimal per
    // price, kept for a while, instead of a multiplication per read. A direct-mapped memo by half tick
    // (a mid may be x.5): a price stays until one PRICE_MEMO / 2 ticks away takes its slot, so a
    // market moving inside that range (a week of BTC on a 0.1 tick) converts each price once; a map
    // emptied when full made a kline run convert most of its prices again.
    const slot = Math.round(ticks * 2) & (PRICE_MEMO - 1);
    if (this.priceKeys[slot] === ticks) return this.priceValues[slot]!;
    // A mid is a half tick: half a tick times a whole number is the same value, and decimal.js takes a
    // whole number directly where a fraction goes through its string (about five times slower).
    const d = Number.isInteger(ticks)
      ? this.tickD.mul(ticks)
      : Number.isInteger(ticks * 2)
        ? this.halfTickD.mul(ticks * 2)
        : this.tickD.mul(ticks);
    this.priceKeys[slot] = ticks;
    this.priceValues[slot] = d;
    return d;
  }

  private readonly halfTickD: Decimal;

  /** The memo's prices in ticks (NaN: empty slot) and their Decimals (shared by the instruments of this tick: priceMemo). */
  private readonly priceKeys: Float64Array;
  private readonly priceValues: (Decimal | undefined)[];

  qty(lots: number): Decimal {
    return this.stepD.mul(lots);
  }

  /** The recorded mark while it is no older than markMaxAgeMs behind the last traded price; else undefined. */
  freshFair(): PricePointState | undefined {
    const f = this.fair;
    if (f === undefined) return undefined;
    const t = this.lastTradeTime;
    return t === undefined || t - f.sampledAt <= this.markMaxAgeMs ? f : undefined;
  }

  /** The mark series is sampled more coarsely than a mark may age (the run warns: see freshFair). */
  get coarseMark(): boolean {
    return this.fairGapMs > this.markMaxAgeMs;
  }

  /** The fresh recorded mark (contracts), else the mid of the visible book, else the last trade, in ticks (may be x.5). */
  markTicks(): number | undefined {
    if (this.kind === 'contract') {
      const f = this.freshFair();
      if (f !== undefined) return f.ticks;
    }
    const b = this.book.bestVisible('buy');
    const a = this.book.bestVisible('sell');
    if (b !== undefined && a !== undefined && b < a) return (a + b) / 2;
    return this.lastTradeTicks ?? b ?? a;
  }

  /** The mark as a Decimal rounded to the tick's precision + 1 place (mid may be half a tick). */
  markPrice(): Decimal | undefined {
    const m = this.markTicks();
    return m === undefined ? undefined : this.price(m);
  }

  /** @internal */
  remember(id: number, time: number, priceTicks: number, lots: number, takerSide: Side): void {
    const size = this.ringSize;
    if (size === 0) return;
    const i = this.ringPos;
    this.ringId[i] = id;
    this.ringTime[i] = time;
    this.ringTicks[i] = priceTicks;
    this.ringLots[i] = lots;
    this.ringBuy[i] = takerSide === 'buy' ? 1 : 0;
    this.ringPos = i + 1 === size ? 0 : i + 1;
    if (this.ringLen < size) this.ringLen++;
  }

  /** Visits the newest `n` prints (at most the ring's size), oldest first, without making objects. */
  visitRecentTrades(n: number, visit: (id: number, time: number, priceTicks: number, lots: number, takerSide: Side) => void): void {
    const size = this.ringSize;
    const k = Math.max(0, Math.min(n, this.ringLen));
    if (k === 0) return;
    const start = (this.ringPos - k + size) % size;
    for (let j = 0; j < k; j++) {
      const i = (start + j) % size;
      visit(this.ringId[i]!, this.ringTime[i]!, this.ringTicks[i]!, this.ringLots[i]!, this.ringBuy[i] === 1 ? 'buy' : 'sell');
    }
  }

  /** The newest `n` prints (at most the ring's size), oldest first. */
  recentTrades(n: number): TapeTrade[] {
    const len = this.ringLen;
    const size = this.ringSize;
    const k = Math.max(0, Math.min(n, len));
    const out: TapeTrade[] = new Array<TapeTrade>(k);
    // ringPos is the slot after the newest (once full, also the oldest).
    const start = (this.ringPos - k + size) % Math.max(1, size);
    for (let j = 0; j < k; j++) {
      const i = (start + j) % size;
      out[j] = {
        id: this.ringId[i]!,
        time: this.ringTime[i]!,
        priceTicks: this.ringTicks[i]!,
        lots: this.ringLots[i]!,
        takerSide: this.ringBuy[i] === 1 ? 'buy' : 'sell',
      };
    }
    return out;
  }

  /** @internal the venue's sequence rules for a diff; returns whether to apply it. */
  acceptDiff(U: number, u: number, pu: number | undefined, stats: ReplayStats): boolean {
    const id = this.book.updateId;
    if (!this.synced || id === undefined) {
      stats.unsynced++;
      return false;
    }
    if (u <= id) {
      stats.staleDiffs++;
      return false;
    }
    const chained = this.firstAfterSnapshot ? U <= id + 1 : pu !== undefined ? pu === id : U === id + 1;
    if (!chained) stats.sequenceGaps++;
    this.firstAfterSnapshot = false;
    return true;
  }

  /** @internal */
  markSnapshot(): void {
    this.synced = true;
    this.hasDepth = true;
    this.firstAfterSnapshot = true;
  }
}

/** A depth record with its levels already in ticks and lots: [price, lots, price, lots, …]. */
export type CompiledDepth = ScaledDepth;

/** A trade record in ticks and lots. */
export type CompiledTrade = ScaledTrade;

/**
 * A bar of a kline-only instrument in ticks and lots (compileBar, or a record store's ScaledBar): what
 * the feed expands into the bar's intra-bar path, the same points its kline record gives
 * (replay-feed.ts), without a decimal string parsed per replay.
 */
export type CompiledBar = ScaledBar;

/** A kline record in ticks and lots: what ReplayInstrument.ticks / lots make of its strings. */
export function compileBar(r: KlineRecord, scale: ScaleSpec): CompiledBar {
  const { key, tick, lotFactor } = scale;
  return {
    s: 'bar',
    key,
    et: r.et,
    ot: r.ot,
    iv: r.iv,
    open: Math.round(Number(r.o) / tick),
    high: Math.round(Number(r.h) / tick),
    low: Math.round(Number(r.l) / tick),
    close: Math.round(Number(r.c) / tick),
    volumeLots: Math.round(Number(r.v) * lotFactor),
  };
}

/**
 * What a replay applies: records as read, intra-bar path points, or depth / trade records and bars
 * compiled to integers once (compile, compileBar) so that replaying them again — once per fill model —
 * parses no decimal strings.
 */
export type ReplayEvent = DataRecord | PathPoint | CompiledDepth | CompiledTrade | CompiledBar;

export const eventTime = (e: ReplayEvent): number => e.et;

export class ReplayMarket {
  readonly instruments: readonly ReplayInstrument[];
  readonly stats: ReplayStats = { events: 0, trades: 0, depthUpdates: 0, staleDiffs: 0, sequenceGaps: 0, unsynced: 0, skipped: 0 };
  private readonly byKey = new Map<string, ReplayInstrument>();
  private readonly bySymbol = new Map<string, ReplayInstrument>();
  private readonly spotBySource = new Map<string, ReplayInstrument>();
  private readonly contractBySource = new Map<string, ReplayInstrument>();
  private listener: MarketListener | undefined;
  private readonly watched = new Set<ReplayInstrument>();

  constructor(specs: readonly ReplayInstrumentSpec[]) {
    this.instruments = specs.map((s) => new ReplayInstrument(s));
    for (const i of this.instruments) {
      if (this.byKey.has(i.key)) throw new RangeError(`two instruments replay ${i.key}`);
      this.byKey.set(i.key, i);
      this.bySymbol.set(i.symbol, i);
      (i.spec.source.market === 'spot' ? this.spotBySource : this.contractBySource).set(i.spec.source.symbol, i);
    }
  }

  setListener(l: MarketListener | undefined): void {
    this.listener = l;
    for (const inst of this.instruments) this.installLevels(inst);
  }

  /**
   * The listener hears the level changes of `inst` only while it watches them: tens of thousands of
   * level changes a minute reach nobody while no order of ours rests there (the fill model watches an
   * instrument from the moment one of our orders rests on it until the last one leaves).
   */
  watchLevels(inst: ReplayInstrument, on: boolean): void {
    if (on) this.watched.add(inst);
    else this.watched.delete(inst);
    this.installLevels(inst);
  }

  private installLevels(inst: ReplayInstrument): void {
    const l = this.listener;
    inst.book.onLevel = l && this.watched.has(inst) ? (side, p, prev, now) => l.onLevel(inst, side, p, prev, now) : undefined;
  }

  /** The replay is over: the books give their memory back for the next replay (ReplayBook.release). */
  dispose(): void {
    for (const inst of this.instruments) inst.book.release();
  }

  instrument(symbol: string): ReplayInstrument | undefined {
    return this.bySymbol.get(symbol);
  }

  byRecordKey(key: string): ReplayInstrument | undefined {
    return this.byKey.get(key);
  }

  apply(e: ReplayEvent): void {
    this.stats.events++;
    if (e.s === 'path' || e.s === 'depth' || e.s === 'print') {
      const inst = this.byKey.get(e.key);
      if (!inst) {
        this.stats.skipped++;
        return;
      }
      if (e.s === 'path') this.applyPath(inst, e);
      else if (e.s === 'print') {
        if (e.lots > 0) this.trade(inst, e.takerSide, e.priceTicks, e.lots, e.et);
      } else this.applyDepth(inst, e);
      return;
    }
    // A bar reaches here only for an instrument that is not kline-only: bars then come from the prints, as for a kline record.
    if (e.s === 'bar') return;
    const inst = (e.m === 'spot' ? this.spotBySource : this.contractBySource).get(e.i);
    if (!inst) {
      this.stats.skipped++;
      return;
    }
    switch (e.s) {
      case 'depth.snapshot':
        inst.book.replace(this.levels(inst, e.b), this.levels(inst, e.a));
        inst.book.updateId = e.u;
        inst.book.updateTime = e.et;
        inst.markSnapshot();
        this.stats.depthUpdates++;
        this.listener?.onBook(inst);
        return;
      case 'depth.diff': {
        if (!inst.acceptDiff(e.U, e.u, e.pu, this.stats)) return;
        const book = inst.book;
        for (const l of e.b) book.setLevel('buy', inst.ticks(l[0]), inst.lots(l[1]));
        for (const l of e.a) book.setLevel('sell', inst.ticks(l[0]), inst.lots(l[1]));
        book.updateId = e.u;
        book.updateTime = e.et;
        this.stats.depthUpdates++;
        this.listener?.onBook(inst);
        return;
      }
      case 'bookTicker':
        if (inst.hasDepth) return;
        inst.book.setTop(inst.ticks(e.bp), inst.lots(e.bq), inst.ticks(e.ap), inst.lots(e.aq));
        if (e.u !== undefined) inst.book.updateId = e.u;
        inst.book.updateTime = e.et;
        this.stats.depthUpdates++;
        this.listener?.onBook(inst);
        return;
      case 'trade': {
        const lots = inst.lots(e.q);
        if (lots <= 0) return;
        this.trade(inst, e.ts, inst.ticks(e.p), lots, e.et);
        return;
      }
      case 'fair': {
        const sampledAt = carriedFrom.get(e) ?? e.et;
        if (inst.fair !== undefined && sampledAt - inst.fair.sampledAt > inst.fairGapMs) inst.fairGapMs = sampledAt - inst.fair.sampledAt;
        inst.fair = { price: e.p, ticks: inst.ticks(e.p), time: e.et, sampledAt };
        this.listener?.onPrices?.(inst, e);
        return;
      }
      case 'index':
        inst.index = { price: e.p, ticks: inst.ticks(e.p), time: e.et, sampledAt: carriedFrom.get(e) ?? e.et };
        this.listener?.onPrices?.(inst, e);
        return;
      case 'funding':
        inst.funding = {
          rate: e.r,
          time: e.et,
          ...(e.nt !== undefined ? { nextSettleTime: e.nt } : {}),
          ...(e.min !== undefined ? { min: e.min } : {}),
          ...(e.max !== undefined ? { max: e.max } : {}),
          ...(e.cy !== undefined ? { cycleHours: e.cy } : {}),
        };
        this.listener?.onPrices?.(inst, e);
        return;
      case 'kline':
      case 'ticker':
        // Bars and tickers come from the replayed prints (the tape); kline-only instruments reach
        // here as path points instead (intra-bar-path.ts).
        return;
    }
  }

  private applyDepth(inst: ReplayInstrument, d: CompiledDepth): void {
    const book = inst.book;
    if (d.snapshot) {
      book.replaceFlat(d.bids, d.asks);
      inst.markSnapshot();
    } else {
      if (!inst.acceptDiff(d.U, d.u, d.pu, this.stats)) return;
      book.setLevels('buy', d.bids);
      book.setLevels('sell', d.asks);
    }
    book.updateId = d.u;
    book.updateTime = d.et;
    this.stats.depthUpdates++;
    this.listener?.onBook(inst);
  }

  /**
   * Depth and trade records of the run's instruments with their prices and sizes converted once.
   * Everything else (bars, compiled or not, funding, prices, records of other instruments) passes through as is.
   */
  compile(records: Iterable<DataRecord | CompiledBar>): ReplayEvent[] {
    const out: ReplayEvent[] = [];
    for (const r of records) {
      if (r.s === 'bar') {
        out.push(r);
        continue;
      }
      const inst = (r.m === 'spot' ? this.spotBySource : this.contractBySource).get(r.i);
      if (!inst) {
        out.push(r);
        continue;
      }
      if (r.s === 'trade')
        out.push({ s: 'print', key: inst.key, et: r.et, priceTicks: inst.ticks(r.p), lots: inst.lots(r.q), takerSide: r.ts });
      else if (r.s === 'depth.snapshot' || r.s === 'depth.diff') {
        const flat = (levels: readonly RecordLevel[]): number[] => {
          const f = new Array<number>(levels.length * 2);
          for (let k = 0; k < levels.length; k++) {
            f[2 * k] = inst.ticks(levels[k]![0]);
            f[2 * k + 1] = inst.lots(levels[k]![1]);
          }
          return f;
        };
        out.push({
          s: 'depth',
          key: inst.key,
          et: r.et,
          snapshot: r.s === 'depth.snapshot',
          U: r.s === 'depth.diff' ? r.U : r.u,
          u: r.u,
          pu: r.s === 'depth.diff' ? r.pu : undefined,
          bids: flat(r.b),
          asks: flat(r.a),
        });
      } else out.push(r);
    }
    return out;
  }

  /** The synthetic book of the current path point, flat (reused: one book per path point). */
  private readonly pathBids: number[] = [];
  private readonly pathAsks: number[] = [];

  private applyPath(inst: ReplayInstrument, p: PathPoint): void {
    // Laid when something reads the book (a poll, a placement of ours, a fill model watching it): most
    // path points pass unread.
    inst.book.replaceFlatLater(syntheticBookFlat, p, this.pathBids, this.pathAsks);
    inst.book.updateId = (inst.book.updateId ?? 0) + 1;
    inst.book.updateTime = p.et;
    inst.markSnapshot();
    this.stats.depthUpdates++;
    this.listener?.onBook(inst);
    if (p.lots > 0) this.trade(inst, p.takerSide, p.priceTicks, p.lots, p.et);
    else {
      inst.lastTradeTicks = p.priceTicks;
      inst.lastTradeTime = p.et;
    }
  }

  private trade(inst: ReplayInstrument, takerSide: Side, ticks: number, lots: number, time: number): void {
    const id = ++inst.tradeSeq;
    inst.lastTradeTicks = ticks;
    inst.lastTradeTime = time;
    inst.tape.onPrint(id, time, ticks, lots, takerSide);
    inst.remember(id, time, ticks, lots, takerSide);
    this.stats.trades++;
    this.listener?.onTrade(inst, takerSide, ticks, lots, time);
  }

  private levels(inst: ReplayInstrument, src: readonly RecordLevel[]): [number, number][] {
    const out: [number, number][] = new Array<[number, number]>(src.length);
    for (let k = 0; k < src.length; k++) {
      const l = src[k]!;
      out[k] = [inst.ticks(l[0]), inst.lots(l[1])];
    }
    return out;
  }
}
