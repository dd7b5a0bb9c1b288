/**
 * Applies market records to our venue: depth (snapshot + diffs, or a bookTicker when there is no
 * depth stream) becomes crowd liquidity through a CrowdBookMirror, trades are printed against the
 * book (printTrade), and index / fair / funding records update the instrument's ContractPriceBoard.
 * Shared by ReplayMarketSource (records from a file) and MirrorMarketSource (records made from polls).
 *
 * Decimal strings become ticks and lots as round(value / unit) in plain numbers: exact for any value
 * below ~10^12 units, which covers every price and size these venues print.
 */
import { D, type DecimalLike } from '../../core/decimal.js';
import { ContractPriceBoard } from '../../venue/market/contract-price-board.js';
import { CrowdBookMirror, type TargetLevel } from '../../venue/market/crowd-book-mirror.js';
import type { LiquidityPort } from '../../venue/market/liquidity-port.js';
import { printTrade } from '../../venue/market/trade-printer.js';
import { L2Book, type L2Level } from './l2-book.js';
import { instrumentKey, type DataRecord, type RecordLevel, type RecordMarket } from './record.js';

export interface SourceInstrument {
  readonly market: RecordMarket;
  /** Symbol in the records (the source venue's spelling). */
  readonly symbol: string;
  /** Symbol on our venue; default `symbol`. */
  readonly venueSymbol?: string;
  /** Our instrument's price tick and quantity step (contracts: priceUnit and volUnit). */
  readonly tick: DecimalLike;
  readonly step: DecimalLike;
  /** Levels per side reproduced as crowd liquidity. Default 20. */
  readonly depthLevels?: number;
  /** Precision of the index price (contracts). Default: the tick. */
  readonly indexTick?: DecimalLike;
  /** Funding bounds when the source does not send them (Binance does not). Default ±0.0018. */
  readonly minFundingRate?: DecimalLike;
  readonly maxFundingRate?: DecimalLike;
}

export interface RecordApplierOptions {
  readonly port: LiquidityPort;
  /** Print recorded trades even when the book here holds less (trade-printer.ts). Default true. */
  readonly forcePrints?: boolean;
}

export interface ApplierStats {
  records: number;
  /** Records of instruments not configured. */
  skipped: number;
  trades: number;
  matchedLots: number;
  forcedLots: number;
  sequenceGaps: number;
  staleDiffs: number;
  /** Diffs before any snapshot, and syncs skipped because the source book was crossed. */
  unsynced: number;
}

interface InstrumentState {
  readonly cfg: SourceInstrument;
  readonly venueSymbol: string;
  readonly tick: number;
  readonly step: number;
  readonly depthLevels: number;
  readonly book: L2Book;
  readonly mirror: CrowdBookMirror;
  readonly board: ContractPriceBoard | undefined;
  hasDepth: boolean;
  lastFunding: { rate: string; nt: number; cy: number | undefined } | undefined;
}

export class MarketRecordApplier {
  readonly stats: ApplierStats = {
    records: 0,
    skipped: 0,
    trades: 0,
    matchedLots: 0,
    forcedLots: 0,
    sequenceGaps: 0,
    staleDiffs: 0,
    unsynced: 0,
  };
  private readonly byKey = new Map<string, InstrumentState>();
  private readonly byVenueSymbol = new Map<string, InstrumentState>();
  private readonly port: LiquidityPort;
  private readonly force: boolean;

  constructor(instruments: readonly SourceInstrument[], opts: RecordApplierOptions) {
    this.port = opts.port;
    this.force = opts.forcePrints ?? true;
    for (const cfg of instruments) {
      const venueSymbol = cfg.venueSymbol ?? cfg.symbol;
      const st: InstrumentState = {
        cfg,
        venueSymbol,
        tick: D(cfg.tick).toNumber(),
        step: D(cfg.step).toNumber(),
        depthLevels: cfg.depthLevels ?? 20,
        book: new L2Book(),
        mirror: new CrowdBookMirror(this.port, venueSymbol),
        board: cfg.market === 'contract' ? new ContractPriceBoard(venueSymbol, cfg.indexTick ?? cfg.tick, cfg.tick) : undefined,
        hasDepth: false,
        lastFunding: undefined,
      };
      this.byKey.set(instrumentKey(cfg.market, cfg.symbol), st);
      this.byVenueSymbol.set(venueSymbol, st);
    }
  }

  /** Index / fair / funding of a perpetual, by OUR symbol. */
  contractPrices(venueSymbol: string): ContractPriceBoard | undefined {
    return this.byVenueSymbol.get(venueSymbol)?.board;
  }

  /** The source book as rebuilt, by OUR symbol. */
  sourceBook(venueSymbol: string): L2Book | undefined {
    return this.byVenueSymbol.get(venueSymbol)?.book;
  }

  /** `time` is the clock time the record is applied at (board prices are stamped with it). */
  apply(r: DataRecord, time: number = r.et): void {
    const st = this.byKey.get(instrumentKey(r.m, r.i));
    this.stats.records++;
    if (!st) {
      this.stats.skipped++;
      return;
    }
    switch (r.s) {
      case 'depth.snapshot':
        st.book.applySnapshot(r.u, this.levels(st, r.b), this.levels(st, r.a));
        st.hasDepth = true;
        this.sync(st);
        return;
      case 'depth.diff': {
        const outcome = st.book.applyDiff(r.U, r.u, r.pu, this.levels(st, r.b), this.levels(st, r.a));
        if (outcome === 'stale') this.stats.staleDiffs++;
        else if (outcome === 'no-snapshot') this.stats.unsynced++;
        else {
          if (outcome === 'gap') this.stats.sequenceGaps++;
          this.sync(st);
        }
        return;
      }
      case 'bookTicker':
        if (st.hasDepth) return;
        st.book.applyTopOfBook([this.ticks(st, r.bp), this.lots(st, r.bq)], [this.ticks(st, r.ap), this.lots(st, r.aq)]);
        this.sync(st);
        return;
      case 'trade': {
        const lots = this.lots(st, r.q);
        if (lots <= 0) return;
        const out = printTrade(this.port, st.venueSymbol, r.ts, this.ticks(st, r.p), lots, this.force);
        this.stats.trades++;
        this.stats.matchedLots += out.matchedLots;
        this.stats.forcedLots += out.forcedLots;
        return;
      }
      case 'index':
        st.board?.setIndex(time, r.p);
        return;
      case 'fair':
        st.board?.setFair(time, r.p);
        return;
      case 'funding':
        this.funding(st, r, time);
        return;
      case 'kline':
      case 'ticker':
        // Bars and tickers here are derived from the prints we replay; the recorded ones are kept in
        // the file for comparison and for the backtest's bar-driven mode.
        return;
    }
  }

  private funding(st: InstrumentState, r: Extract<DataRecord, { s: 'funding' }>, time: number): void {
    const board = st.board;
    if (!board) return;
    const prev = st.lastFunding;
    // The rate shown before a settlement is the one that settles: when the announced next settle
    // time moves on, the previous rate was paid at the previous settle time.
    if (prev && r.nt !== undefined && r.nt > prev.nt) board.settle(prev.rate, prev.nt, prev.cy ?? r.cy ?? 8);
    if (r.nt !== undefined) st.lastFunding = { rate: r.r, nt: r.nt, cy: r.cy };
    const current = board.funding();
    board.setFunding({
      rate: D(r.r),
      minRate: r.min !== undefined ? D(r.min) : (current?.minRate ?? D(st.cfg.minFundingRate ?? '-0.0018')),
      maxRate: r.max !== undefined ? D(r.max) : (current?.maxRate ?? D(st.cfg.maxFundingRate ?? '0.0018')),
      collectCycleHours: r.cy ?? current?.collectCycleHours ?? 8,
      nextSettleTime: r.nt ?? current?.nextSettleTime ?? 0,
      time,
    });
  }

  private sync(st: InstrumentState): void {
    if (st.book.isCrossed()) {
      this.stats.unsynced++;
      return;
    }
    const bids: TargetLevel[] = st.book.top('buy', st.depthLevels);
    const asks: TargetLevel[] = st.book.top('sell', st.depthLevels);
    st.mirror.sync(bids, asks);
  }

  private ticks(st: InstrumentState, s: string): number {
    return Math.round(Number(s) / st.tick);
  }

  private lots(st: InstrumentState, s: string): number {
    return Math.round(Number(s) / st.step);
  }

  private levels(st: InstrumentState, src: readonly RecordLevel[]): L2Level[] {
    const out: L2Level[] = new Array(src.length);
    for (let k = 0; k < src.length; k++) {
      const l = src[k]!;
      out[k] = [this.ticks(st, l[0]), this.lots(st, l[1])];
    }
    return out;
  }
}
