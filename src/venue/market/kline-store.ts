/**
 * OHLCV bars of every interval at once, in integer price units and lots (the hot path: one update per
 * interval per trade, no Decimal). Bars are stored only when something traded; the gaps are filled at
 * query time with flat bars at the previous close, as the venue serves a bar for every interval.
 */
import {
  KLINE_INTERVALS,
  ceilKlineOpenTime,
  klineOpenTime,
  nextKlineOpenTime,
  stepBackKlines,
  type KlineInterval,
} from '../../domain/kline-interval.js';

export interface KlineBar {
  readonly openTime: number;
  /** The next bar's open time: the venue reports close time = open + interval (not open + interval − 1). */
  readonly closeTime: number;
  /** Close of the bar before (in price units), NaN when this is the first bar ever. */
  readonly prevClose: number;
  /** First, highest, lowest and last traded price of the bar (price units). */
  open: number;
  high: number;
  low: number;
  close: number;
  /** Sum of lots. */
  volume: number;
  /** Sum of price units × lots (a plain number; exact below 2^53). */
  quote: number;
  count: number;
  takerBuyVolume: number;
  takerBuyQuote: number;
  /** True for a gap-filled bar nobody traded in. */
  readonly empty: boolean;
}

export class BarSeries {
  bars: KlineBar[] = [];
  head = 0;

  constructor(
    readonly interval: KlineInterval,
    private readonly retention: number,
  ) {}

  get size(): number {
    return this.bars.length - this.head;
  }

  last(): KlineBar | undefined {
    return this.bars.length > this.head ? this.bars[this.bars.length - 1] : undefined;
  }

  push(bar: KlineBar): void {
    this.bars.push(bar);
    if (this.bars.length - this.head > this.retention) {
      this.head++;
      // Compacting in batches keeps push O(1) amortised without a ring buffer's index arithmetic.
      if (this.head >= this.retention) {
        this.bars = this.bars.slice(this.head);
        this.head = 0;
      }
    }
  }

  /** Index of the first bar with openTime >= t (bars.length when none). */
  lowerBound(t: number): number {
    let lo = this.head;
    let hi = this.bars.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.bars[mid]!.openTime < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export interface KlineSelection {
  /** Lowest open time wanted (inclusive). */
  readonly from: number;
  /** Highest open time wanted (inclusive). */
  readonly to: number;
  readonly limit: number;
  /** Keep the `limit` bars nearest `to` instead of the first `limit` from `from`. */
  readonly fromEnd: boolean;
}

export class KlineStore {
  private readonly series = new Map<KlineInterval, BarSeries>();
  /** The series as a list: add() runs per print and walks them all. */
  private readonly list: BarSeries[] = [];
  private lastPrice = NaN;

  /**
   * `intervals`: the bars kept (default every interval). A reader that polls one interval (a
   * backtest's replayed tape) keeps only that one: each kept interval costs an update per print.
   */
  constructor(retention = 10_000, intervals: readonly KlineInterval[] = KLINE_INTERVALS) {
    for (const i of KLINE_INTERVALS) {
      if (!intervals.includes(i)) continue;
      const s = new BarSeries(i, retention);
      this.series.set(i, s);
      this.list.push(s);
    }
  }

  /** Whether bars of `interval` are kept. */
  has(interval: KlineInterval): boolean {
    return this.series.has(interval);
  }

  private seriesOf(interval: KlineInterval): BarSeries {
    const s = this.series.get(interval);
    if (!s)
      throw new RangeError(`kline interval ${interval} is not kept by this store (kept: ${[...this.series.keys()].join(', ') || 'none'})`);
    return s;
  }

  /**
   * Adds one print. `t` must not go backwards (the TapeAggregator clamps late prints); `quote` is
   * price units × lots, passed in so callers can reuse it.
   */
  add(t: number, price: number, lots: number, quote: number, takerBuy: boolean): void {
    const list = this.list;
    for (let k = 0; k < list.length; k++) {
      const s = list[k]!;
      let bar = s.last();
      if (!bar || t >= bar.closeTime) {
        const interval = s.interval;
        const openTime = klineOpenTime(interval, t);
        bar = {
          openTime,
          closeTime: nextKlineOpenTime(interval, openTime),
          prevClose: this.lastPrice,
          open: price,
          high: price,
          low: price,
          close: price,
          volume: 0,
          quote: 0,
          count: 0,
          takerBuyVolume: 0,
          takerBuyQuote: 0,
          empty: false,
        };
        s.push(bar);
      } else {
        if (price > bar.high) bar.high = price;
        if (price < bar.low) bar.low = price;
        bar.close = price;
      }
      bar.volume += lots;
      bar.quote += quote;
      bar.count++;
      if (takerBuy) {
        bar.takerBuyVolume += lots;
        bar.takerBuyQuote += quote;
      }
    }
    this.lastPrice = price;
  }

  /** Stored (non-empty) bars of an interval, oldest first. */
  stored(interval: KlineInterval): readonly KlineBar[] {
    const s = this.seriesOf(interval);
    return s.bars.slice(s.head);
  }

  /** Open time of the oldest stored bar, or undefined when nothing traded. */
  firstOpenTime(interval: KlineInterval): number | undefined {
    const s = this.seriesOf(interval);
    return s.size > 0 ? s.bars[s.head]!.openTime : undefined;
  }

  /**
   * Bars with open time in [from, to], gap-filled, oldest first, at most `limit`. Nothing is returned
   * before the oldest stored bar: there is no price to fill with.
   */
  select(interval: KlineInterval, sel: KlineSelection): KlineBar[] {
    const s = this.seriesOf(interval);
    if (s.size === 0 || sel.limit <= 0) return [];
    const first = s.bars[s.head]!.openTime;
    // Clamp before aligning: callers may pass -Infinity / 0 for "from the beginning".
    let from = sel.from <= first ? first : ceilKlineOpenTime(interval, sel.from);
    const to = klineOpenTime(interval, sel.to);
    if (from > to) return [];
    if (sel.fromEnd) from = Math.max(from, stepBackKlines(interval, to, sel.limit - 1));
    let idx = s.lowerBound(from);
    let prevClose = idx > s.head ? s.bars[idx - 1]!.close : s.bars[idx]!.prevClose;
    const out: KlineBar[] = [];
    for (let t = from; t <= to && out.length < sel.limit; t = nextKlineOpenTime(interval, t)) {
      const bar = idx < s.bars.length ? s.bars[idx]! : undefined;
      if (bar && bar.openTime === t) {
        out.push(bar);
        prevClose = bar.close;
        idx++;
      } else {
        out.push(emptyBar(t, nextKlineOpenTime(interval, t), prevClose));
      }
    }
    return out;
  }
}

function emptyBar(openTime: number, closeTime: number, prevClose: number): KlineBar {
  return {
    openTime,
    closeTime,
    prevClose,
    open: prevClose,
    high: prevClose,
    low: prevClose,
    close: prevClose,
    volume: 0,
    quote: 0,
    count: 0,
    takerBuyVolume: 0,
    takerBuyQuote: 0,
    empty: true,
  };
}
