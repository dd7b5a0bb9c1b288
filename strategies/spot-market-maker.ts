/**
 * Reference spot market maker with inventory skew.
 *
 *  - Quotes `levels` bids and asks around the mid, `spreadBps` apart, declared as ONE DesiredQuotes
 *    intent (slots b0/a0, b1/a1 …): the order manager turns it into the fewest place / cancel calls.
 *  - Inventory (this strategy's position from its own fills) skews both quotes: long → lower, short →
 *    higher, by up to `skewBps` at ±maxInventory; the side that would grow the inventory past the
 *    maximum is withdrawn.
 *  - When the target of a resting quote moves more than `requoteBps` from its price, the quote is
 *    AMENDED (an AmendOrder intent on its client id: spot has no amend, so the order manager cancels
 *    and places the remainder, keeping the slot).
 *  - When inventory reaches `unwind.atFraction` of the maximum, the quotes are pulled and one
 *    inventory-reducing order joins the touch and is CHASED (repriced to the best price of its side,
 *    at most `unwind.maxReprices` times, never beyond `unwind.capBps` from the mid at the start).
 *    Quoting resumes when the inventory is back under `unwind.resumeFraction`.
 *
 * Everything is decided from the snapshot and the context: no timers, no awaits (replayable).
 */
import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import { z } from 'zod';
import { D, type Decimal, roundToTick, truncateToStep, ZERO } from '../src/core/decimal.js';
import type { InstrumentSymbol } from '../src/core/ids.js';
import { STRATEGY_TOKENS } from '../src/strategy/strategy-tokens.js';
import type { ExecutionEvent } from '../src/domain/execution-event.js';
import type { Intent } from '../src/domain/intent.js';
import type { Order } from '../src/domain/order.js';
import { bestAsk, bestBid, midPrice, type MarketSnapshot } from '../src/domain/snapshot.js';
import type { IntentResult, Strategy } from '../src/strategy/strategy.js';
import type { StrategyContext } from '../src/strategy/strategy-context.js';
import { bpsBetween, type Ladder, ladderOf, planQuotes, type PlannedQuote } from './market-maker-quotes.js';
import { decimalParam } from './param-types.js';

export const spotMarketMakerParams = z
  .strictObject({
    spreadBps: z.number().positive().max(10_000).default(10).describe('Distance between the bid and the ask, basis points of the mid.'),
    orderSize: decimalParam().describe('Base quantity of each quote (e.g. 0.001 BTC).'),
    levels: z.number().int().min(1).max(5).default(1).describe('Quotes per side.'),
    levelStepBps: z.number().positive().max(10_000).default(5).describe('Extra distance of each further level, basis points.'),
    maxInventory: decimalParam().describe(
      'Largest inventory (base units, either sign) the strategy builds; at it, the side that adds is withdrawn.',
    ),
    skewBps: z
      .number()
      .min(0)
      .max(10_000)
      .default(5)
      .describe('How far both quotes move against the inventory at ±maxInventory, basis points.'),
    requoteBps: z
      .number()
      .positive()
      .max(10_000)
      .default(2)
      .describe('A resting quote whose target moved more than this (basis points of the mid) is amended.'),
    postOnly: z.boolean().default(true).describe('Quotes are post-only (LIMIT_MAKER): never take liquidity by accident.'),
    minRepeatMs: z
      .number()
      .int()
      .min(0)
      .max(600_000)
      .default(1000)
      .describe('The same quote set is not declared again sooner than this (a denied quote is retried at this pace), ms.'),
    unwind: z
      .strictObject({
        enabled: z.boolean().default(true).describe('Reduce a large inventory with one chased order.'),
        atFraction: z.number().gt(0).max(1).default(0.8).describe('Start when |inventory| ≥ this × maxInventory.'),
        resumeFraction: z.number().min(0).lt(1).default(0.4).describe('Quote again when |inventory| ≤ this × maxInventory.'),
        maxReprices: z.number().int().min(1).max(1000).default(10).describe('Reprices of the chased order.'),
        capBps: z
          .number()
          .positive()
          .max(10_000)
          .default(20)
          .describe('The chase never goes beyond this many basis points from the mid at the start (the worst price accepted).'),
      })
      .prefault({})
      .describe('Inventory unwind.'),
  })
  .refine((p) => p.unwind.resumeFraction < p.unwind.atFraction, {
    message: 'expected unwind.resumeFraction < unwind.atFraction',
    path: ['unwind', 'resumeFraction'],
  });

export type SpotMarketMakerParams = z.output<typeof spotMarketMakerParams>;

const QUOTE_SLOT = /^[ab][0-9]$/;
const UNWIND_SLOT = 'u';

interface SymbolState {
  mode: 'quote' | 'unwind';
  /** The quotes of the last DesiredQuotes declared, and when. */
  lastDeclared?: readonly PlannedQuote[];
  lastDeclaredAt: number;
  /** Unwind: the worst price the chase may reach, and whether the chase was asked for. */
  cap?: Decimal;
  chasing: boolean;
  /** The params' quote ladder on the symbol's instrument (ladderOf), made on its first quote. */
  ladder?: Ladder;
}

@injectable()
export class SpotMarketMaker implements Strategy {
  static readonly strategyName = 'spot-market-maker';
  static readonly description =
    'Spot market maker: quotes around the mid with inventory skew (desired quotes), amends on moves, unwinds large inventory with a chased order.';
  static readonly paramsSchema = spotMarketMakerParams;

  private readonly state = new Map<string, SymbolState>();

  /**
   * The thresholds onSnapshot compares with, made once: each was a Decimal made from a number on every
   * snapshot (a comparison with a number parses it into a Decimal first). Same values, same comparisons.
   */
  private readonly unwindAt: Decimal;
  private readonly resumeAt: Decimal;
  private readonly requoteBps: Decimal;

  constructor(@inject(STRATEGY_TOKENS.StrategyParams) private readonly params: SpotMarketMakerParams) {
    this.unwindAt = params.maxInventory.mul(params.unwind.atFraction);
    this.resumeAt = params.maxInventory.mul(params.unwind.resumeFraction);
    this.requoteBps = D(params.requoteBps);
  }

  onSnapshot(snapshot: MarketSnapshot, ctx: StrategyContext): IntentResult {
    const inst = ctx.instrument(snapshot.symbol);
    if (!inst || inst.kind !== 'spot') return;
    const symbol = snapshot.symbol;
    const st = this.stateOf(symbol);
    const open = ctx.openOrders(symbol);
    const mid = midPrice(snapshot);
    if (!mid) {
      // No two-sided book: nothing to price quotes on, so none may rest.
      return open.length > 0 ? this.declare(ctx, st, symbol, []) : undefined;
    }
    // A request in flight (sent, amending, cancelling) settles first; acting on top of it races it.
    if (open.some((o) => o.status === 'submitted' || o.status === 'pending-amend' || o.status === 'pending-cancel')) return;

    const inventory = ctx.position(symbol)?.quantity ?? ZERO;
    const p = this.params;
    const absInv = inventory.abs();
    if (p.unwind.enabled) {
      if (st.mode === 'quote' && absInv.gte(this.unwindAt)) return this.startUnwind(ctx, st, snapshot, inventory, mid);
      if (st.mode === 'unwind') {
        if (absInv.gt(this.resumeAt)) return this.keepUnwinding(ctx, st, snapshot, inventory, open);
        st.mode = 'quote';
        st.chasing = false;
        delete st.cap;
      }
    }

    // The ladder is the params' on this instrument: made again only when the instrument is another object.
    if (st.ladder?.inst !== inst) st.ladder = ladderOf(p, inst);
    const targets = planQuotes(mid, inventory, p, inst, st.ladder);
    const quotes = open.filter((o) => o.slot !== undefined && QUOTE_SLOT.test(o.slot));
    const bySlot = new Map(quotes.map((o) => [o.slot!, o]));
    const structural =
      quotes.length !== open.length || targets.length !== quotes.length || targets.some((t) => bySlot.get(t.slot)?.side !== t.side);
    if (structural) return this.declare(ctx, st, symbol, targets);

    const out: Intent[] = [];
    for (const t of targets) {
      const o = bySlot.get(t.slot)!;
      if (o.price && bpsBetween(o.price, t.price, mid).gt(this.requoteBps))
        out.push(ctx.intents.amend(symbol, o.clientOrderId, { price: t.price }));
    }
    return out;
  }

  onExecution(event: ExecutionEvent, ctx: StrategyContext): IntentResult {
    if ((event.type === 'IntentDenied' || event.type === 'IntentFailed') && event.intent.kind === 'chase') {
      this.stateOf(event.intent.symbol).chasing = false;
      return;
    }
    if (event.type !== 'OrderAccepted' && event.type !== 'OrderRejected') return;
    const order = ctx.order(event.clientOrderId);
    if (order?.slot !== UNWIND_SLOT) return;
    const st = this.stateOf(event.symbol);
    if (st.mode !== 'unwind') return;
    if (event.type === 'OrderRejected') {
      st.chasing = false;
      return;
    }
    if (st.chasing) return;
    st.chasing = true;
    return [ctx.intents.chase(event.symbol, event.clientOrderId, this.params.unwind.maxReprices, st.cap)];
  }

  private startUnwind(ctx: StrategyContext, st: SymbolState, snapshot: MarketSnapshot, inventory: Decimal, mid: Decimal): IntentResult {
    st.mode = 'unwind';
    st.chasing = false;
    const side = inventory.gt(0) ? 'sell' : 'buy';
    const cap = mid.mul(
      D(1).plus(
        D(this.params.unwind.capBps)
          .div(10_000)
          .mul(side === 'sell' ? -1 : 1),
      ),
    );
    const inst = ctx.instrument(snapshot.symbol)!;
    st.cap = roundToTick(cap, inst.kind === 'spot' ? inst.tick : inst.priceUnit, side === 'sell' ? 'up' : 'down');
    return this.declareUnwind(ctx, st, snapshot, inventory);
  }

  private keepUnwinding(
    ctx: StrategyContext,
    st: SymbolState,
    snapshot: MarketSnapshot,
    inventory: Decimal,
    open: readonly Order[],
  ): IntentResult {
    const unwinding = open.find((o) => o.slot === UNWIND_SLOT);
    if (unwinding) {
      // A chase that was denied or failed (stale data, a refused cancel) is asked for again.
      if (st.chasing || (unwinding.status !== 'accepted' && unwinding.status !== 'partially-filled')) return;
      st.chasing = true;
      return [ctx.intents.chase(snapshot.symbol, unwinding.clientOrderId, this.params.unwind.maxReprices, st.cap)];
    }
    // The chased order filled in part and closed, or was never placed: join the touch again.
    st.chasing = false;
    return this.declareUnwind(ctx, st, snapshot, inventory);
  }

  private declareUnwind(ctx: StrategyContext, st: SymbolState, snapshot: MarketSnapshot, inventory: Decimal): IntentResult {
    const inst = ctx.instrument(snapshot.symbol);
    if (!inst || inst.kind !== 'spot') return;
    const side = inventory.gt(0) ? 'sell' : 'buy';
    const touch = side === 'sell' ? bestAsk(snapshot) : bestBid(snapshot);
    const qty = truncateToStep(inventory.abs(), inst.step);
    if (!touch || qty.lt(inst.minQuantity) || touch.mul(qty).lt(inst.minQuoteAmount)) return this.declare(ctx, st, snapshot.symbol, []);
    // Never start beyond the cap: if the touch is already past it, rest at the cap.
    const price = st.cap && (side === 'sell' ? touch.lt(st.cap) : touch.gt(st.cap)) ? st.cap : touch;
    return this.declare(ctx, st, snapshot.symbol, [{ slot: UNWIND_SLOT, side, price, quantity: qty }]);
  }

  private declare(ctx: StrategyContext, st: SymbolState, symbol: InstrumentSymbol, quotes: readonly PlannedQuote[]): IntentResult {
    const now = ctx.clock.now();
    if (sameQuotes(quotes, st.lastDeclared) && now - st.lastDeclaredAt < this.params.minRepeatMs) return;
    st.lastDeclared = quotes;
    st.lastDeclaredAt = now;
    const tif = this.params.postOnly ? ('post-only' as const) : ('gtc' as const);
    return [
      ctx.intents.quotes(
        symbol,
        quotes.map((q) => ({ ...q, timeInForce: tif })),
      ),
    ];
  }

  private stateOf(symbol: string): SymbolState {
    let s = this.state.get(symbol);
    if (!s) this.state.set(symbol, (s = { mode: 'quote', lastDeclaredAt: Number.NEGATIVE_INFINITY, chasing: false }));
    return s;
  }
}

/**
 * The same quotes, in the same order, as declared last: slot, side, price and quantity. It was a key
 * string compared with the last one, and every declaration formatted each quote's two Decimals for it.
 */
function sameQuotes(quotes: readonly PlannedQuote[], last: readonly PlannedQuote[] | undefined): boolean {
  if (last === undefined || last.length !== quotes.length) return false;
  for (let i = 0; i < quotes.length; i++) {
    const a = quotes[i]!;
    const b = last[i]!;
    if (a.slot !== b.slot || a.side !== b.side || !a.price.eq(b.price) || !a.quantity.eq(b.quantity)) return false;
  }
  return true;
}
