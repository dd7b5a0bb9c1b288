/**
 * Spot grid: buy low, sell one level up, over and over, between two bounds.
 *
 *  - `levels` price lines between `lower` and `upper` (arithmetic or geometric spacing, see
 *    grid-levels.ts); each interval between two neighbouring lines holds ONE order: a buy at its lower
 *    line, or — once that buy filled — a sell of the same base quantity at its upper line. A filled
 *    sell puts the buy back. So a filled buy is re-placed as a sell one level up, and the reverse.
 *  - Budget: every interval gets totalInvestment / (levels − 1) of quote at its buy price, so the buys
 *    of the whole grid never spend more than `totalInvestment`.
 *  - The grid starts with buys only: intervals below the market rest at once; a buy above the market
 *    (it would cross) waits until the market rises past it. No base is bought up front.
 *  - All orders are declared as ONE DesiredQuotes intent (slots `b<i>` buy / `s<i>` sell of interval
 *    i), post-only: the order manager places and cancels the difference.
 *  - When the mid leaves the bounds: `atBounds: stop` pulls every order and stops trading (inventory
 *    is kept); `reanchor` moves the bounds so the mid is in their middle and rebuilds the grid, the
 *    base still held becoming sells of the new grid's intervals nearest above the mid; `wait` keeps
 *    the orders and waits for the market to come back.
 *  - Realised grid profit (sell proceeds − what the base cost, fees included) is kept apart from the
 *    inventory PnL (base held by the grid at the mid − what it cost): `report()`.
 *
 * Partial fills: the declared quantity is what is left of the interval's order. A buy cancelled after
 * a partial fill (a re-anchor) turns its interval into a sell of what it bought (or, below the
 * venue's minimum, leaves it as loose inventory of the grid); a part-sold sell keeps selling the rest.
 */
import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import { z } from 'zod';
import { type Decimal, truncateToStep, ZERO } from '../src/core/decimal.js';
import type { InstrumentSymbol } from '../src/core/ids.js';
import { STRATEGY_TOKENS } from '../src/strategy/strategy-tokens.js';
import type { ExecutionEvent } from '../src/domain/execution-event.js';
import type { SpotInstrument } from '../src/domain/instrument.js';
import type { Order } from '../src/domain/order.js';
import { bestAsk, bestBid, midPrice, type MarketSnapshot } from '../src/domain/snapshot.js';
import type { IntentResult, Strategy, StrategyReport } from '../src/strategy/strategy.js';
import type { StrategyContext } from '../src/strategy/strategy-context.js';
import { gridLines, intervalQuantities, reanchoredBounds } from './grid-levels.js';
import { decimalParam } from './param-types.js';

export const spotGridParams = z
  .strictObject({
    lower: decimalParam().describe('Lowest grid line (quote per base), the first buy level.'),
    upper: decimalParam().describe('Highest grid line, the last sell level.'),
    levels: z
      .number()
      .int()
      .min(3)
      .max(100)
      .default(10)
      .describe('Price lines from lower to upper, both included (levels − 1 intervals, one order each).'),
    spacing: z
      .enum(['arithmetic', 'geometric'])
      .default('arithmetic')
      .describe('Equal price steps (arithmetic) or equal ratios (geometric) between lines.'),
    totalInvestment: decimalParam().describe('Quote amount the grid may spend: each interval buys totalInvestment / (levels − 1) of base.'),
    atBounds: z
      .enum(['stop', 'reanchor', 'wait'])
      .default('wait')
      .describe('When the mid leaves [lower, upper]: pull the orders and stop, re-centre the grid on the mid, or wait.'),
    minRepeatMs: z
      .number()
      .int()
      .min(0)
      .max(600_000)
      .default(1000)
      .describe('The same order set is not declared again sooner than this (a denied order is retried at this pace), ms.'),
  })
  .refine((p) => p.lower.lt(p.upper), { message: 'expected lower < upper', path: ['lower'] });

export type SpotGridParams = z.output<typeof spotGridParams>;

interface Interval {
  side: 'buy' | 'sell';
  /** Base quantity of the interval's order. */
  qty: Decimal;
  /** Sell side: what the base it sells cost, quote, fees included. */
  cost: Decimal;
}

interface GridState {
  lower: Decimal;
  upper: Decimal;
  lines: Decimal[];
  intervals: Interval[];
  stopped: boolean;
  failure?: string;
  lastDeclared?: string;
  lastDeclaredAt: number;
  /** Realised grid profit (quote) and completed round trips. */
  profit: Decimal;
  roundTrips: number;
  reanchors: number;
  /** Base left over from partly filled, cancelled orders, and what it cost. */
  looseBase: Decimal;
  looseCost: Decimal;
  lastMid?: Decimal;
}

const SLOT = /^([bs])([0-9]{1,2})$/;

@injectable()
export class SpotGrid implements Strategy {
  static readonly strategyName = 'spot-grid';
  static readonly description =
    'Spot grid: buys on arithmetic or geometric lines, each fill re-placed one level up or down, within a budget; stops or re-anchors at the bounds.';
  static readonly paramsSchema = spotGridParams;

  private readonly grids = new Map<string, GridState>();

  constructor(@inject(STRATEGY_TOKENS.StrategyParams) private readonly params: SpotGridParams) {}

  onSnapshot(snapshot: MarketSnapshot, ctx: StrategyContext): IntentResult {
    const inst = ctx.instrument(snapshot.symbol);
    if (!inst || inst.kind !== 'spot') return;
    const g = this.gridOf(inst);
    if (g.stopped) return;
    const mid = midPrice(snapshot);
    if (!mid) return;
    g.lastMid = mid;
    const open = ctx.openOrders(snapshot.symbol);
    // A request in flight settles first; declaring on top of it races it.
    if (open.some((o) => o.status === 'submitted' || o.status === 'pending-amend' || o.status === 'pending-cancel')) return;
    if (mid.lt(g.lower) || mid.gt(g.upper)) {
      if (this.params.atBounds === 'stop') {
        g.stopped = true;
        return this.declare(ctx, g, snapshot.symbol, [], true);
      }
      if (this.params.atBounds === 'reanchor') this.reanchor(g, inst, mid);
    }
    return this.declare(ctx, g, snapshot.symbol, this.quotes(g, snapshot, open), false);
  }

  onExecution(event: ExecutionEvent, ctx: StrategyContext): IntentResult {
    if (event.type !== 'OrderFilled' && event.type !== 'OrderCancelled') return;
    const order = ctx.order(event.clientOrderId);
    const m = order?.slot ? SLOT.exec(order.slot) : null;
    const inst = ctx.instrument(event.symbol);
    if (!order || !m || !inst || inst.kind !== 'spot') return;
    const g = this.gridOf(inst);
    const interval = g.intervals[Number(m[2])];
    const side = m[1] === 'b' ? 'buy' : 'sell';
    if (!interval || interval.side !== side || order.filledQty.isZero()) return;
    const value = order.filledQty.mul(order.avgFillPrice ?? order.price ?? ZERO);
    const fee = feeInQuote(order, inst);
    const baseFee = order.fees[inst.baseAsset] ?? ZERO;
    if (event.type === 'OrderCancelled') {
      // Partly filled, then pulled (re-anchor or stop).
      if (side === 'buy') {
        const bought = truncateToStep(order.filledQty.minus(baseFee), inst.step);
        if (bought.gte(inst.minQuantity) && bought.mul(g.lines[Number(m[2]) + 1]!).gte(inst.minQuoteAmount)) {
          // Enough to sell on its own: the interval sells what it bought, then buys in full again.
          Object.assign(interval, { side: 'sell', qty: bought, cost: value.plus(fee) });
        } else {
          g.looseBase = g.looseBase.plus(order.filledQty).minus(baseFee);
          g.looseCost = g.looseCost.plus(value).plus(fee);
        }
      } else {
        // The part sold is realised; the interval keeps selling the rest.
        const share = order.filledQty.div(interval.qty);
        const soldCost = interval.cost.mul(share);
        g.profit = g.profit.plus(value.minus(fee).minus(soldCost));
        interval.cost = interval.cost.minus(soldCost);
        interval.qty = interval.qty.minus(order.filledQty);
      }
      return;
    }
    if (side === 'buy') {
      // A fee taken in base leaves less to sell: the sell is what arrived, on the step.
      interval.side = 'sell';
      interval.qty = truncateToStep(order.filledQty.minus(baseFee), inst.step);
      interval.cost = value.plus(fee);
    } else {
      g.profit = g.profit.plus(value.minus(fee).minus(interval.cost));
      g.roundTrips += 1;
      interval.side = 'buy';
      interval.qty = this.buyQuantity(g, inst, Number(m[2]));
      interval.cost = ZERO;
    }
    return;
  }

  /** Realised grid profit apart from the inventory's PnL at the last mid, per symbol. */
  report(): StrategyReport {
    const out: Record<string, string> = {};
    for (const [symbol, g] of this.grids) {
      const held = g.intervals.filter((i) => i.side === 'sell');
      const base = held.reduce((s, i) => s.plus(i.qty), g.looseBase);
      const cost = held.reduce((s, i) => s.plus(i.cost), g.looseCost);
      const inventoryPnl = g.lastMid ? base.mul(g.lastMid).minus(cost) : ZERO;
      out[`${symbol}.gridProfit`] = g.profit.toFixed(4);
      out[`${symbol}.roundTrips`] = String(g.roundTrips);
      out[`${symbol}.inventoryBase`] = base.toFixed();
      out[`${symbol}.inventoryPnl`] = inventoryPnl.toFixed(4);
      out[`${symbol}.reanchors`] = String(g.reanchors);
      out[`${symbol}.bounds`] = `${g.lower.toFixed()}-${g.upper.toFixed()}${g.stopped ? ' (stopped)' : ''}`;
      if (g.failure) out[`${symbol}.failure`] = g.failure;
    }
    return out;
  }

  /** Quotes of every interval that can rest now: a buy below the ask, a sell above the bid. */
  private quotes(g: GridState, snapshot: MarketSnapshot, open: readonly Order[]): GridQuote[] {
    const ask = bestAsk(snapshot);
    const bid = bestBid(snapshot);
    const bySlot = new Map(open.filter((o) => o.slot).map((o) => [o.slot!, o]));
    const out: GridQuote[] = [];
    g.intervals.forEach((iv, i) => {
      const buy = iv.side === 'buy';
      const slot = `${buy ? 'b' : 's'}${i}`;
      const price = buy ? g.lines[i]! : g.lines[i + 1]!;
      const resting = bySlot.get(slot);
      // What is left of the interval's order (a partly filled order keeps resting for the rest).
      const quantity = resting ? iv.qty.minus(resting.filledQty) : iv.qty;
      if (!quantity.gt(0)) return;
      const crosses = buy ? ask !== undefined && price.gte(ask) : bid !== undefined && price.lte(bid);
      // A resting order that the market now reaches stays (it is filling); a new one would take.
      if (crosses && !resting) return;
      out.push({ slot, side: iv.side, price, quantity });
    });
    return out;
  }

  private declare(
    ctx: StrategyContext,
    g: GridState,
    symbol: InstrumentSymbol,
    quotes: readonly GridQuote[],
    force: boolean,
  ): IntentResult {
    const key = quotes.map((q) => `${q.slot}:${q.price.toFixed()}:${q.quantity.toFixed()}`).join('|');
    const now = ctx.clock.now();
    if (!force && key === g.lastDeclared && now - g.lastDeclaredAt < this.params.minRepeatMs) return;
    g.lastDeclared = key;
    g.lastDeclaredAt = now;
    return [
      ctx.intents.quotes(
        symbol,
        quotes.map((q) => ({ ...q, timeInForce: 'post-only' as const })),
      ),
    ];
  }

  /**
   * New bounds centred on the mid; the base the old grid still held (its sell intervals and loose
   * base) becomes sells of the new intervals nearest above the mid, at its average cost.
   */
  private reanchor(g: GridState, inst: SpotInstrument, mid: Decimal): void {
    const held = g.intervals.filter((i) => i.side === 'sell');
    let base = held.reduce((s, i) => s.plus(i.qty), g.looseBase);
    const cost = held.reduce((s, i) => s.plus(i.cost), g.looseCost);
    const unitCost = base.gt(0) ? cost.div(base) : ZERO;
    const bounds = reanchoredBounds(g.lower, g.upper, mid, this.params.spacing);
    this.build(g, inst, bounds.lower, bounds.upper);
    g.reanchors += 1;
    for (let i = 0; i < g.intervals.length; i++) {
      const iv = g.intervals[i]!;
      if (!g.lines[i]!.gte(mid) || base.lt(iv.qty)) continue;
      iv.side = 'sell';
      iv.cost = unitCost.mul(iv.qty);
      base = base.minus(iv.qty);
    }
    g.looseBase = base;
    g.looseCost = unitCost.mul(base);
  }

  private build(g: GridState, inst: SpotInstrument, lower: Decimal, upper: Decimal): void {
    const p = this.params;
    g.lower = lower;
    g.upper = upper;
    g.lines = gridLines(lower, upper, p.levels, p.spacing, inst.tick);
    const qtys = intervalQuantities(g.lines, p.totalInvestment, inst.step);
    qtys.forEach((q, i) => {
      const notional = q.mul(g.lines[i]!);
      if (q.lt(inst.minQuantity) || notional.lt(inst.minQuoteAmount)) {
        throw new Error(
          `totalInvestment: expected enough for ${inst.minQuoteAmount.toFixed()} ${inst.quoteAsset} per interval, each of ${qtys.length} gets ${notional.toFixed()}`,
        );
      }
    });
    g.intervals = qtys.map((qty) => ({ side: 'buy', qty, cost: ZERO }));
  }

  private buyQuantity(g: GridState, inst: SpotInstrument, i: number): Decimal {
    return intervalQuantities(g.lines, this.params.totalInvestment, inst.step)[i]!;
  }

  private gridOf(inst: SpotInstrument): GridState {
    let g = this.grids.get(inst.symbol);
    if (g) return g;
    g = {
      lower: this.params.lower,
      upper: this.params.upper,
      lines: [],
      intervals: [],
      stopped: false,
      lastDeclaredAt: Number.NEGATIVE_INFINITY,
      profit: ZERO,
      roundTrips: 0,
      reanchors: 0,
      looseBase: ZERO,
      looseCost: ZERO,
    };
    this.grids.set(inst.symbol, g);
    try {
      this.build(g, inst, g.lower, g.upper);
    } catch (e) {
      // A grid the instrument's rules cannot hold trades nothing; report() and the log say why.
      g.stopped = true;
      g.failure = (e as Error).message;
      throw e;
    }
    return g;
  }
}

interface GridQuote {
  readonly slot: string;
  readonly side: 'buy' | 'sell';
  readonly price: Decimal;
  readonly quantity: Decimal;
}

/** Fees of an order in its quote asset: quote fees as they are, base fees at the average fill price. */
function feeInQuote(order: Order, inst: SpotInstrument): Decimal {
  const quote = order.fees[inst.quoteAsset] ?? ZERO;
  const base = order.fees[inst.baseAsset] ?? ZERO;
  return quote.plus(base.mul(order.avgFillPrice ?? order.price ?? ZERO));
}
