/**
 * Kline-only data: the price path assumed inside each bar, so orders can fill between the bars.
 *
 * The path goes open → the NEARER extreme → the other extreme → close (a tie goes to the low first on
 * a bar that closes at or above its open, to the high first otherwise). Each of the three legs is cut
 * into `stepsPerLeg` equal price steps (rounded to the tick), so the path has 3·stepsPerLeg + 1 points,
 * spread evenly over [open time, close time − 1 ms]. At every point:
 *  - a synthetic book is laid around the price: `levels` levels per side, `levelLots` each, one tick
 *    apart, the price itself on the side the path is coming from (a rising path trades at the ask);
 *  - a synthetic trade prints at the price, taker side = the direction of the move; the bar's volume
 *    is shared evenly (the remainder goes to the last point), so the tape rebuilds the bar's OHLCV.
 * Runs that use this say so (BacktestRun.dataRange.klineOnlyIntraBar): fills on it are a model, not
 * a recording.
 */
import { pairsOf, type Side } from './replay-book.js';

export interface IntraBarPathOptions {
  /** Price steps per leg. Default 1 (four points: open, extreme, extreme, close). */
  readonly stepsPerLeg?: number;
  /** Levels per side of the synthetic book. Default 10. */
  readonly levels?: number;
  /** Lots per synthetic level; default: the volume of one path point (at least 1). */
  readonly levelLots?: number;
}

export interface BarTicks {
  readonly openTime: number;
  /** Exclusive end (= next bar's open). */
  readonly closeTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** Volume in our lots. */
  readonly volumeLots: number;
}

/** One point of the path: the synthetic book at `time`, then a print there. */
export interface PathPoint {
  readonly s: 'path';
  /** Record instrument key (`spot:BTCUSDT`). */
  readonly key: string;
  readonly et: number;
  readonly priceTicks: number;
  /** Lots printed (0: the bar had no volume; only the book moves). */
  readonly lots: number;
  readonly takerSide: Side;
  readonly levels: number;
  readonly levelLots: number;
}

/** The extremes in the order the path visits them. */
export function extremesInOrder(open: number, high: number, low: number, close: number): [number, number] {
  return lowFirst(open, high, low, close) ? [low, high] : [high, low];
}

/** Whether the path visits the low before the high (the nearer first; a tie: low first unless the bar closes below its open). */
function lowFirst(open: number, high: number, low: number, close: number): boolean {
  const toLow = open - low;
  const toHigh = high - open;
  return toLow < toHigh || (toLow === toHigh && close >= open);
}

/** The path's prices, in ticks, open first and close last (written into `out` when given: its length is set). */
export function pathPrices(bar: Pick<BarTicks, 'open' | 'high' | 'low' | 'close'>, stepsPerLeg = 1, out: number[] = []): number[] {
  const low = lowFirst(bar.open, bar.high, bar.low, bar.close);
  const first = low ? bar.low : bar.high;
  const second = low ? bar.high : bar.low;
  out.length = 0;
  out.push(bar.open);
  let a = bar.open;
  for (let leg = 0; leg < 3; leg++) {
    const b = leg === 0 ? first : leg === 1 ? second : bar.close;
    for (let k = 1; k <= stepsPerLeg; k++) out.push(Math.round(a + ((b - a) * k) / stepsPerLeg));
    a = b;
  }
  return out;
}

/** intraBarPath's prices of the bar at hand (it keeps none between bars). */
const scratchPrices: number[] = [];

export function intraBarPath(key: string, bar: BarTicks, opts: IntraBarPathOptions = {}): PathPoint[] {
  const steps = Math.max(1, Math.floor(opts.stepsPerLeg ?? 1));
  const prices = pathPrices(bar, steps, scratchPrices);
  const n = prices.length;
  const span = Math.max(0, bar.closeTime - 1 - bar.openTime);
  const each = Math.floor(Math.max(0, bar.volumeLots) / n);
  const rest = Math.max(0, bar.volumeLots) - each * n;
  const levelLots = Math.max(1, Math.floor(opts.levelLots ?? Math.max(each, 1)));
  const levels = Math.max(1, Math.floor(opts.levels ?? 10));
  const out: PathPoint[] = new Array<PathPoint>(n);
  // Direction of the first move decides the side of a flat start.
  let dir: Side = 'buy';
  for (let i = 1; i < n; i++) {
    if (prices[i]! !== prices[0]!) {
      dir = prices[i]! > prices[0]! ? 'buy' : 'sell';
      break;
    }
  }
  for (let i = 0; i < n; i++) {
    const p = prices[i]!;
    if (i > 0 && p !== prices[i - 1]!) dir = p > prices[i - 1]! ? 'buy' : 'sell';
    out[i] = {
      s: 'path',
      key,
      et: bar.openTime + (n === 1 ? 0 : Math.floor((span * i) / (n - 1))),
      priceTicks: p,
      lots: i === n - 1 ? each + rest : each,
      takerSide: dir,
      levels,
      levelLots,
    };
  }
  return out;
}

/**
 * Levels of the synthetic book at a path point: the traded price sits on the side the taker hits
 * (asks when buying), the other side starts one tick away.
 */
export function syntheticBook(p: Pick<PathPoint, 'priceTicks' | 'takerSide' | 'levels' | 'levelLots'>): {
  bids: [number, number][];
  asks: [number, number][];
} {
  const bids: number[] = [];
  const asks: number[] = [];
  syntheticBookFlat(p, bids, asks);
  return { bids: pairsOf(bids), asks: pairsOf(asks) };
}

/**
 * syntheticBook() written into two flat lists [price, lots, price, lots, …] the caller keeps (their
 * length is set): the replay lays a book at every path point, and a pair per level was most of its
 * garbage.
 */
export function syntheticBookFlat(
  p: Pick<PathPoint, 'priceTicks' | 'takerSide' | 'levels' | 'levelLots'>,
  bids: number[],
  asks: number[],
): void {
  const bestAsk = p.takerSide === 'buy' ? p.priceTicks : p.priceTicks + 1;
  const bestBid = bestAsk - 1;
  let nb = 0;
  let na = 0;
  for (let k = 0; k < p.levels; k++) {
    if (bestBid - k > 0) {
      bids[nb++] = bestBid - k;
      bids[nb++] = p.levelLots;
    }
    asks[na++] = bestAsk + k;
    asks[na++] = p.levelLots;
  }
  bids.length = nb;
  asks.length = na;
}
