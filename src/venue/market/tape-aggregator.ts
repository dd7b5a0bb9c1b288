/**
 * Everything the public market endpoints derive from the tape of one instrument: klines of every
 * interval of both APIs, the rolling 24h ticker, the spot average price, aggregate trades and the
 * recent-trades buffer.
 *
 * Hot path (`onTrade`): integer price ticks and lots, plain-number sums, no Decimal and no allocation
 * beyond one bar per interval boundary. Decimal appears only in the query functions that produce
 * output. Prints must arrive in time order; a print stamped earlier than the previous one is counted
 * in `lateTrades` and booked at the previous print's time (the tape is append-only in time).
 *
 * Query semantics follow the two API documents and the captured responses:
 *  - spot klines: open time in [startTime, endTime) — the capture asked 5m bars for
 *    [1767204000000, 1767204600000] and got two bars, not the one opening at endTime; without
 *    startTime the `limit` bars ending at endTime (or now); default limit 500, max 1000;
 *  - contract candles (seconds): open time in [start, end] inclusive — the capture asked Min5 for
 *    [1767204000, 1767204600] and got three; start only → start..now; end only → the 2000 bars up to
 *    end; neither → the 2000 most recent; start and end spanning more than 2000 → the first 2000;
 *  - both return gap-filled bars (flat at the previous close) for intervals nobody traded in;
 *  - recent trades and aggregate trades are returned newest first, as the captures show.
 */
import { D, Decimal, type DecimalLike } from '../../core/decimal.js';
import { KlineStore, type KlineBar, type KlineSelection } from './kline-store.js';
import type { KlineInterval } from '../../domain/kline-interval.js';
import { RingBuffer } from './ring-buffer.js';
import { RollingWindow } from './rolling-window.js';

export type TakerSide = 'buy' | 'sell';

/** One print, as the matching engine (or a replayed / mirrored tape) reports it. */
export interface TapeTrade {
  /** Trade id, increasing. */
  readonly id: number;
  /** Exchange time, ms. */
  readonly time: number;
  readonly priceTicks: number;
  readonly lots: number;
  readonly takerSide: TakerSide;
  /** The taker order; prints of one taker order at one price and time form one aggregate trade. */
  readonly takerOrderId?: string;
  /** Both sides belonged to one account (contract deal M = 1). */
  readonly selfTrade?: boolean;
  /** Contract deal O: 1 both sides open, 2 neither opens, 3 other. */
  readonly openFlag?: number;
}

/** Whatever consumes prints: the aggregator, a recorder, a test probe. */
export interface TapeSink {
  onTrade(trade: TapeTrade): void;
}

/** How integer units map to venue decimals. */
export interface TapeScale {
  /** Price tick (spot tick, contract priceUnit). */
  readonly tick: DecimalLike;
  /** Quantity step (spot base step, contract volUnit in contracts). */
  readonly step: DecimalLike;
  /** Base units per contract; quote amounts are price × contracts × contractSize. Default 1 (spot). */
  readonly contractSize?: DecimalLike;
}

export interface TapeAggregatorOptions {
  /** Recent trades kept (spot trades max limit is 1000). Default 1000; 0 keeps none (recentTrades() is refused). */
  readonly recentTrades?: number;
  /** Aggregate trades kept for aggTrades time-range queries. Default 10000; 0 keeps none (aggTrades() is refused). */
  readonly aggTrades?: number;
  /**
   * Kline intervals kept (default all ten). A reader that polls only some (a backtest's replayed
   * tape) names them: each kept interval is updated on every print. Others are refused by the queries.
   */
  readonly klineIntervals?: readonly KlineInterval[];
  /** Keep the rolling 24h window (ticker24h). Default true; false refuses ticker24h(). */
  readonly ticker24h?: boolean;
  /** Keep the average-price window (avgPrice). Default true; false refuses avgPrice(). */
  readonly avgPrice?: boolean;
  /** Bars kept per interval. Default 10000 (a week of 1m bars). */
  readonly klineRetention?: number;
  /** Bucket of the 24h window. Default 60000 (one minute). */
  readonly tickerBucketMs?: number;
  /** Average-price window in minutes (spot avgPrice `mins`). Default 5. */
  readonly avgPriceMins?: number;
  /** Bucket of the average-price window. Default 1000. */
  readonly avgPriceBucketMs?: number;
}

export interface TradeView {
  readonly id: number;
  readonly time: number;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly quoteQty: Decimal;
  readonly takerSide: TakerSide;
  /** Spot isBuyerMaker: the seller took. */
  readonly buyerMaker: boolean;
  readonly selfTrade: boolean;
  readonly openFlag: number | undefined;
}

export interface AggTradeView {
  /** Aggregate id, first and last trade id. */
  readonly a: number;
  readonly f: number;
  readonly l: number;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly time: number;
  readonly buyerMaker: boolean;
}

export interface KlineView {
  readonly openTime: number;
  readonly closeTime: number;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly close: Decimal;
  readonly volume: Decimal;
  readonly quoteVolume: Decimal;
  readonly count: number;
  readonly takerBuyVolume: Decimal;
  readonly takerBuyQuoteVolume: Decimal;
}

/**
 * Contract candles, columnar, as the wire carries them. `open` is the previous bar's close and
 * high/low include it (the capture: each bar's open equals the prior close, and realLow 87837.5 vs
 * low 87837.4 = that open); realOpen … realLow are the bar's own prints.
 */
export interface ContractCandles {
  /** Open times in SECONDS. */
  readonly time: number[];
  readonly open: number[];
  readonly close: number[];
  readonly high: number[];
  readonly low: number[];
  /** Contracts. */
  readonly vol: number[];
  /** Quote turnover. */
  readonly amount: number[];
  readonly realOpen: number[];
  readonly realClose: number[];
  readonly realHigh: number[];
  readonly realLow: number[];
}

export interface TickerView {
  readonly openTime: number;
  readonly closeTime: number;
  /** Price at the window start (last print before it), else the first print in the window. */
  readonly open: Decimal | undefined;
  readonly high: Decimal | undefined;
  readonly low: Decimal | undefined;
  readonly last: Decimal | undefined;
  readonly lastQty: Decimal | undefined;
  /** Equal to `open` (the capture shows prevClosePrice == openPrice). */
  readonly prevClose: Decimal | undefined;
  readonly priceChange: Decimal | undefined;
  /** A RATIO truncated to 4 places, as the venue sends it: −491.05 / 88395.05 = −0.005555… → −0.0055. */
  readonly priceChangePercent: Decimal | undefined;
  readonly volume: Decimal;
  readonly quoteVolume: Decimal;
  readonly count: number;
}

export interface AvgPriceView {
  readonly mins: number;
  readonly price: Decimal;
}

export interface KlineQuery {
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit?: number;
}

export interface CandleQuery {
  /** Seconds. */
  readonly start?: number;
  /** Seconds. */
  readonly end?: number;
}

export interface AggTradeQuery {
  /** Inclusive, ms. */
  readonly startTime?: number;
  /** Inclusive, ms. */
  readonly endTime?: number;
  readonly limit?: number;
}

interface AggAcc {
  readonly a: number;
  readonly f: number;
  l: number;
  readonly priceTicks: number;
  lots: number;
  readonly time: number;
  readonly takerSide: TakerSide;
  readonly takerOrderId: string | undefined;
}

export const SPOT_KLINE_DEFAULT_LIMIT = 500;
export const SPOT_KLINE_MAX_LIMIT = 1000;
export const CONTRACT_CANDLE_MAX_POINTS = 2000;
const DAY_MS = 86_400_000;

export class TapeAggregator implements TapeSink {
  readonly tick: Decimal;
  readonly step: Decimal;
  readonly contractSize: Decimal;
  /** Quote value of one price unit × one lot. */
  private readonly quoteUnit: Decimal;
  private readonly quoteDecimals: number;
  private readonly klines: KlineStore;
  private readonly day: RollingWindow | undefined;
  private readonly avg: RollingWindow | undefined;
  private readonly avgMins: number;
  private readonly recent: RingBuffer<TapeTrade> | undefined;
  private readonly aggs: RingBuffer<AggAcc> | undefined;
  /** Prints only feed bars and windows: no print object is kept (onPrint needs none). */
  private readonly keepsPrints: boolean;
  private nextAggId = 1;
  private lastTime = -Infinity;
  private last: TapeTrade | undefined;
  private lastTicks: number | undefined;
  private lastLots: number | undefined;
  /** Prints that arrived stamped before the previous print. */
  lateTrades = 0;

  constructor(scale: TapeScale, opts: TapeAggregatorOptions = {}) {
    this.tick = D(scale.tick);
    this.step = D(scale.step);
    this.contractSize = D(scale.contractSize ?? 1);
    this.quoteUnit = this.tick.mul(this.step).mul(this.contractSize);
    this.quoteDecimals = this.quoteUnit.decimalPlaces();
    this.klines = new KlineStore(opts.klineRetention ?? 10_000, opts.klineIntervals);
    this.day = opts.ticker24h === false ? undefined : new RollingWindow(DAY_MS, opts.tickerBucketMs ?? 60_000);
    this.avgMins = opts.avgPriceMins ?? 5;
    this.avg = opts.avgPrice === false ? undefined : new RollingWindow(this.avgMins * 60_000, opts.avgPriceBucketMs ?? 1_000);
    const recent = opts.recentTrades ?? 1000;
    const aggs = opts.aggTrades ?? 10_000;
    this.recent = recent === 0 ? undefined : new RingBuffer(recent);
    this.aggs = aggs === 0 ? undefined : new RingBuffer(aggs);
    this.keepsPrints = this.recent !== undefined || this.aggs !== undefined;
  }

  /**
   * A print given as numbers (a replay's hot path: no print object is made when the tape keeps no
   * prints). Same effect as onTrade({ id, time, priceTicks, lots, takerSide }).
   */
  onPrint(id: number, time: number, priceTicks: number, lots: number, takerSide: TakerSide): void {
    if (this.keepsPrints) {
      this.onTrade({ id, time, priceTicks, lots, takerSide });
      return;
    }
    let t = time;
    if (t < this.lastTime) {
      this.lateTrades++;
      t = this.lastTime;
    }
    this.lastTime = t;
    this.addToWindows(t, priceTicks, lots, takerSide === 'buy');
    this.lastTicks = priceTicks;
    this.lastLots = lots;
    this.last = undefined;
  }

  private addToWindows(t: number, p: number, lots: number, takerBuy: boolean): void {
    const quote = p * lots;
    this.klines.add(t, p, lots, quote, takerBuy);
    this.day?.add(t, p, lots, quote);
    this.avg?.add(t, p, lots, quote);
  }

  onTrade(trade: TapeTrade): void {
    let t = trade.time;
    if (t < this.lastTime) {
      this.lateTrades++;
      t = this.lastTime;
      trade = { ...trade, time: t };
    }
    this.lastTime = t;
    const { priceTicks: p, lots } = trade;
    this.addToWindows(t, p, lots, trade.takerSide === 'buy');
    this.lastTicks = p;
    this.lastLots = lots;
    this.last = trade;
    this.recent?.push(trade);
    if (!this.aggs) return;
    const agg = this.aggs.last();
    if (
      agg &&
      trade.takerOrderId !== undefined &&
      agg.takerOrderId === trade.takerOrderId &&
      agg.priceTicks === p &&
      agg.time === t &&
      agg.takerSide === trade.takerSide
    ) {
      agg.lots += lots;
      agg.l = trade.id;
    } else {
      this.aggs.push({
        a: this.nextAggId++,
        f: trade.id,
        l: trade.id,
        priceTicks: p,
        lots,
        time: t,
        takerSide: trade.takerSide,
        takerOrderId: trade.takerOrderId,
      });
    }
  }

  /** The last print given to onTrade(), or undefined before the first (and after an onPrint()). */
  lastTrade(): TapeTrade | undefined {
    return this.last;
  }

  /** Last price in ticks, or undefined before the first print. */
  lastPriceTicks(): number | undefined {
    return this.lastTicks;
  }

  private refused(what: string, option: string): RangeError {
    return new RangeError(`${what}: this tape was made without it (TapeAggregatorOptions.${option})`);
  }

  price(ticks: number): Decimal {
    return this.tick.mul(ticks);
  }

  qty(lots: number): Decimal {
    return this.step.mul(lots);
  }

  /** Quote value of a sum of price units × lots. */
  quote(units: number): Decimal {
    return this.quoteUnit.mul(Math.round(units)).toDecimalPlaces(this.quoteDecimals);
  }

  /** Recent trades, newest first. */
  recentTrades(limit: number): TradeView[] {
    const recent = this.recent;
    if (!recent) throw this.refused('recent trades', 'recentTrades');
    const n = Math.max(0, Math.min(limit, recent.size));
    return recent.newestFirst(recent.size - n).map((t) => this.tradeView(t));
  }

  /** Aggregate trades, newest first; with a time range, the newest `limit` inside it. */
  aggTrades(q: AggTradeQuery = {}): AggTradeView[] {
    const aggs = this.aggs;
    if (!aggs) throw this.refused('aggregate trades', 'aggTrades');
    const limit = clampLimit(q.limit, SPOT_KLINE_DEFAULT_LIMIT, SPOT_KLINE_MAX_LIMIT);
    const key = (a: AggAcc): number => a.time;
    const from = q.startTime === undefined ? 0 : aggs.lowerBound(q.startTime, key);
    const to = q.endTime === undefined ? aggs.size : aggs.lowerBound(q.endTime + 1, key);
    return aggs.newestFirst(Math.max(from, to - limit), to).map((a) => ({
      a: a.a,
      f: a.f,
      l: a.l,
      price: this.price(a.priceTicks),
      qty: this.qty(a.lots),
      time: a.time,
      buyerMaker: a.takerSide === 'sell',
    }));
  }

  /** Spot /api/v3/klines. */
  klineBars(interval: KlineInterval, q: KlineQuery, now: number): KlineBar[] {
    const limit = clampLimit(q.limit, SPOT_KLINE_DEFAULT_LIMIT, SPOT_KLINE_MAX_LIMIT);
    const to = Math.min(q.endTime === undefined ? now : q.endTime - 1, now);
    return this.klines.select(interval, { from: q.startTime ?? -Infinity, to, limit, fromEnd: q.startTime === undefined });
  }

  klineViews(interval: KlineInterval, q: KlineQuery, now: number): KlineView[] {
    return this.klineBars(interval, q, now).map((b) => this.klineView(b));
  }

  /** Contract /api/v1/contract/kline/{symbol}, bars as stored (open = own first print). */
  candleBars(interval: KlineInterval, q: CandleQuery, now: number): KlineBar[] {
    return this.klines.select(interval, contractCandleSelection(q, now));
  }

  contractCandles(interval: KlineInterval, q: CandleQuery, now: number): ContractCandles {
    const bars = this.candleBars(interval, q, now);
    return candlesOf(
      bars,
      (ticks) => this.price(ticks).toNumber(),
      (lots) => this.qty(lots).toNumber(),
      (u) => this.quote(u).toNumber(),
      false,
    );
  }

  /** Rolling 24h statistics at `now`. */
  ticker24h(now: number): TickerView {
    if (!this.day) throw this.refused('the 24h ticker', 'ticker24h');
    const s = this.day.stats(now);
    const lastTicks = Number.isNaN(s.last) ? this.lastTicks : s.last;
    const openTicks = !Number.isNaN(s.priceBefore) ? s.priceBefore : !Number.isNaN(s.firstPrice) ? s.firstPrice : lastTicks;
    const open = openTicks === undefined ? undefined : this.price(openTicks);
    const last = lastTicks === undefined ? undefined : this.price(lastTicks);
    const change = open && last ? last.minus(open) : undefined;
    return {
      openTime: s.openTime,
      closeTime: s.closeTime,
      open,
      high: s.count > 0 ? this.price(s.high) : last,
      low: s.count > 0 ? this.price(s.low) : last,
      last,
      lastQty: this.lastLots !== undefined ? this.qty(this.lastLots) : undefined,
      prevClose: open,
      priceChange: change,
      priceChangePercent: change && open && !open.isZero() ? change.div(open).toDecimalPlaces(4, Decimal.ROUND_DOWN) : undefined,
      volume: this.qty(s.volume),
      quoteVolume: this.quote(s.quote),
      count: s.count,
    };
  }

  /**
   * The part of ticker24h a contract ticker shows (last price, 24h volume and quote volume), the same
   * values without the open, extremes and change a replayed poll would build and drop every cycle.
   */
  dayTotals(now: number): Pick<TickerView, 'last' | 'volume' | 'quoteVolume'> {
    const t = this.dayTotalUnits(now);
    return {
      last: t.lastTicks === undefined ? undefined : this.price(t.lastTicks),
      volume: this.qty(t.volumeLots),
      quoteVolume: this.quote(t.quoteUnits),
    };
  }

  /** dayTotals() in ticks, lots and price units × lots (quote()): for a reader that converts only what it reads. */
  dayTotalUnits(now: number): { readonly lastTicks: number | undefined; readonly volumeLots: number; readonly quoteUnits: number } {
    if (!this.day) throw this.refused('the 24h ticker', 'ticker24h');
    const s = this.day.stats(now);
    return { lastTicks: Number.isNaN(s.last) ? this.lastTicks : s.last, volumeLots: s.volume, quoteUnits: s.quote };
  }

  /**
   * Spot /api/v3/avgPrice: volume-weighted price of the last `mins` minutes, rounded to the tick;
   * the last price when nothing traded in the window; undefined before the first print.
   */
  avgPrice(now: number): AvgPriceView | undefined {
    if (!this.avg) throw this.refused('the average price', 'avgPrice');
    const s = this.avg.stats(now);
    if (s.volume > 0) {
      const price = this.tick.mul(D(Math.round(s.quote)).div(s.volume)).toDecimalPlaces(this.tick.decimalPlaces(), Decimal.ROUND_HALF_UP);
      return { mins: this.avgMins, price };
    }
    return this.lastTicks !== undefined ? { mins: this.avgMins, price: this.price(this.lastTicks) } : undefined;
  }

  private tradeView(t: TapeTrade): TradeView {
    return {
      id: t.id,
      time: t.time,
      price: this.price(t.priceTicks),
      qty: this.qty(t.lots),
      quoteQty: this.quote(t.priceTicks * t.lots),
      takerSide: t.takerSide,
      buyerMaker: t.takerSide === 'sell',
      selfTrade: t.selfTrade ?? false,
      openFlag: t.openFlag,
    };
  }

  private klineView(b: KlineBar): KlineView {
    return {
      openTime: b.openTime,
      closeTime: b.closeTime,
      open: this.price(b.open),
      high: this.price(b.high),
      low: this.price(b.low),
      close: this.price(b.close),
      volume: this.qty(b.volume),
      quoteVolume: this.quote(b.quote),
      count: b.count,
      takerBuyVolume: this.qty(b.takerBuyVolume),
      takerBuyQuoteVolume: this.quote(b.takerBuyQuote),
    };
  }
}

/** The contract candle rules (seconds in, ms out): see the header of this file. */
export function contractCandleSelection(q: CandleQuery, now: number): KlineSelection {
  return {
    from: q.start === undefined ? -Infinity : q.start * 1000,
    to: Math.min(q.end === undefined ? now : q.end * 1000, now),
    limit: CONTRACT_CANDLE_MAX_POINTS,
    fromEnd: q.start === undefined,
  };
}

function clampLimit(limit: number | undefined, dflt: number, max: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return dflt;
  return Math.max(1, Math.min(max, Math.floor(limit)));
}

/**
 * Columnar candles from bars. `realFromClose` gives the index / fair price candle shape of the
 * published example, where every real* column repeats the close.
 */
export function candlesOf(
  bars: readonly KlineBar[],
  price: (units: number) => number,
  vol: (lots: number) => number,
  amount: (quoteUnits: number) => number,
  realFromClose: boolean,
): ContractCandles {
  const c: ContractCandles = {
    time: [],
    open: [],
    close: [],
    high: [],
    low: [],
    vol: [],
    amount: [],
    realOpen: [],
    realClose: [],
    realHigh: [],
    realLow: [],
  };
  for (const b of bars) {
    const open = Number.isNaN(b.prevClose) ? b.open : b.prevClose;
    c.time.push(Math.floor(b.openTime / 1000));
    c.open.push(price(open));
    c.close.push(price(b.close));
    c.high.push(price(Math.max(b.high, open)));
    c.low.push(price(Math.min(b.low, open)));
    c.vol.push(vol(b.volume));
    c.amount.push(amount(b.quote));
    c.realOpen.push(price(realFromClose ? b.close : b.open));
    c.realClose.push(price(b.close));
    c.realHigh.push(price(realFromClose ? b.close : b.high));
    c.realLow.push(price(realFromClose ? b.close : b.low));
  }
  return c;
}
