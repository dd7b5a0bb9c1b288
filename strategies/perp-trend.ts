/**
 * Reference perpetual strategy: EMA-cross trend following with leverage and take-profit / stop-loss.
 *
 *  - At start: sets the position mode (optional) and the leverage of every instrument it trades.
 *  - On each newly CLOSED bar (venue klines of `interval`, or bars sampled from the fair price every
 *    `barSeconds`): fast EMA crossing above the slow one → go long; below → go short (`allowShort`).
 *    An opposite position is closed first (reduce-only), the new one is opened on the next signal bar.
 *  - Once a position is open: TP/SL is attached to it at entry ± takeProfitPct / stopLossPct
 *    (AttachTpSl), and — because a venue may refuse position TP/SL, and a professional does not rely
 *    on one line of defence — the strategy also closes the position itself when the fair price
 *    crosses either level (`protectiveExit`).
 *  - When the runtime says no TP/SL protects the position any more (ProtectionMissing: cancelled at the
 *    venue, or never placed), it is attached again; levels are worked out anew whenever the position
 *    changes side (a venue-side reversal or an adjustment to the venue's position).
 *  - `protection.kind` trailing / plan: instead of TP/SL, the venue's trailing order (trackorder) or plan
 *    orders close the position (see `guarded`); their venue ids are kept, the legs cancelled when the
 *    position is closed by a signal or by the other leg (the venue has no OCO), adopted after a restart.
 *  - One order at a time: nothing new is sent while an order of its own is still open or unanswered.
 */
import 'reflect-metadata';
import { inject, injectable, optional } from 'inversify';
import { z } from 'zod';
import { D, type Decimal, roundToTick, ZERO } from '../src/core/decimal.js';
import type { InstrumentSymbol } from '../src/core/ids.js';
import { STRATEGY_TOKENS } from '../src/strategy/strategy-tokens.js';
import { CONTRACT_KLINE_INTERVALS } from '../src/domain/contract-enums.js';
import type { ExecutionEvent } from '../src/domain/execution-event.js';
import type { ContractInstrument } from '../src/domain/instrument.js';
import type { ProtectiveOrderRef } from '../src/domain/position.js';
import { type Intent, intentSymbol } from '../src/domain/intent.js';
import { isTerminal, type OrderSide, type PositionSide } from '../src/domain/order.js';
import { fairPrice, type Kline, lastPrice, type MarketSnapshot, midPrice } from '../src/domain/snapshot.js';
import type { IntentResult, Strategy } from '../src/strategy/strategy.js';
import type { StrategyContext } from '../src/strategy/strategy-context.js';
import { decimalParam } from './param-types.js';
import { BarSampler, type Cross, emaCross } from './trend-signal.js';

export const perpTrendParams = z
  .strictObject({
    leverage: z.number().int().min(1).max(500).default(5).describe('Leverage set at start and sent with every opening order.'),
    marginMode: z.enum(['isolated', 'cross']).default('isolated').describe('Margin mode of the positions.'),
    positionMode: z.enum(['one-way', 'hedged']).default('one-way').describe('Position mode the strategy trades in.'),
    setPositionMode: z
      .boolean()
      .default(true)
      .describe('Ask the venue for `positionMode` at start (refused while positions or orders are open).'),
    interval: z
      .enum(CONTRACT_KLINE_INTERVALS)
      .default('Min1')
      .describe('Kline interval of the bars (the market data config must poll it).'),
    barSeconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .optional()
      .describe('Sample bars from the fair price every this many seconds instead of reading klines.'),
    fastPeriod: z.number().int().min(1).max(500).default(9).describe('Fast EMA period, bars.'),
    slowPeriod: z.number().int().min(2).max(1000).default(21).describe('Slow EMA period, bars.'),
    size: decimalParam().describe('Contracts per entry.'),
    takeProfitPct: z.number().positive().max(1000).default(1).describe('Take-profit distance from the entry price, percent.'),
    stopLossPct: z.number().positive().max(100).default(0.5).describe('Stop-loss distance from the entry price, percent.'),
    allowShort: z.boolean().default(true).describe('Also sell a cross down (otherwise only close longs).'),
    protectiveExit: z
      .boolean()
      .default(true)
      .describe(
        'Close the position itself when the fair price crosses TP or SL (in case the venue holds no TP/SL); with trailing or plan protection, only once the venue refused them.',
      ),
    protection: z
      .strictObject({
        kind: z
          .enum(['tpsl', 'trailing', 'plan'])
          .default('tpsl')
          .describe(
            'tpsl: the venue TP/SL at takeProfitPct / stopLossPct; trailing: the venue trailing order (trackorder); plan: plan orders at stopLossPct (and takeProfitPct).',
          ),
        callbackPct: z
          .number()
          .positive()
          .lt(100)
          .default(0.5)
          .describe('trailing: closes when the price falls back this percent from its best since activation.'),
        activationPct: z
          .number()
          .positive()
          .max(1000)
          .optional()
          .describe('trailing: activates once the price is this percent in profit from the entry (absent: active at once).'),
        planTakeProfit: z.boolean().default(true).describe('plan: also place a take-profit plan order at takeProfitPct.'),
        trigger: z.enum(['fair', 'index', 'last']).default('fair').describe('Price the trailing / plan orders watch.'),
      })
      .prefault({})
      .describe('How the venue protects each position: fixed TP/SL (default), a trailing order or plan orders.'),
  })
  .refine((p) => p.fastPeriod < p.slowPeriod, { message: 'expected fastPeriod < slowPeriod', path: ['fastPeriod'] });

export type PerpTrendParams = z.output<typeof perpTrendParams>;

interface SymbolState {
  /** Open time of the newest bar judged (klines), or the count of sampled bars judged. */
  lastBar?: number;
  /** The closed bars judged last (klines) and their closes as doubles, in the same order. */
  judged?: readonly Kline[];
  judgedCloses?: number[];
  /** The closes array of the bar judged before last, filled again at the next bar (two arrays in turn: a new one per bar was the strategy's largest allocation). */
  spareCloses?: number[];
  sampler?: BarSampler;
  /** Intent whose order is not settled yet. */
  awaiting?: string;
  /** TP/SL levels of the current position (set when it was first seen open). */
  tp?: Decimal;
  sl?: Decimal;
  /** Side of the position the levels were worked out for. */
  long?: boolean;
  /** The venue refused position TP/SL, trailing or plan orders (only the protective exit guards the position). */
  venueTpslRefused: boolean;
  /** Trailing / plan orders of ours believed live at the venue (their ids: trigger orders carry no client id). */
  guards: ProtectiveOrderRef[];
  /** Trailing fallback: best fair price since the position was guarded. */
  peak?: Decimal;
  /** A snapshot of the symbol was judged (only the first may adopt what the venue already holds). */
  seen: boolean;
}

@injectable()
export class PerpTrend implements Strategy {
  static readonly strategyName = 'perp-trend';
  static readonly description =
    'Perpetual EMA-cross trend follower: leverage set at start, market entries, each position protected by the venue TP/SL, trailing order or plan orders, plus a protective exit.';
  static readonly paramsSchema = perpTrendParams;

  private readonly state = new Map<string, SymbolState>();

  constructor(
    @inject(STRATEGY_TOKENS.StrategyParams) private readonly params: PerpTrendParams,
    @inject(STRATEGY_TOKENS.StrategyInstruments) @optional() private readonly instruments: readonly InstrumentSymbol[] = [],
  ) {}

  onStart(ctx: StrategyContext): IntentResult {
    const p = this.params;
    const out: Intent[] = [];
    if (p.setPositionMode) out.push(ctx.intents.positionMode(p.positionMode));
    for (const symbol of this.instruments ?? []) {
      if (ctx.instrument(symbol)?.kind !== 'contract') continue;
      if (p.positionMode === 'hedged') {
        for (const side of ['long', 'short'] as const)
          out.push(ctx.intents.leverage(symbol, p.leverage, { positionSide: side, marginMode: p.marginMode }));
      } else out.push(ctx.intents.leverage(symbol, p.leverage, { marginMode: p.marginMode }));
    }
    return out;
  }

  onSnapshot(snapshot: MarketSnapshot, ctx: StrategyContext): IntentResult {
    const inst = ctx.instrument(snapshot.symbol);
    if (!inst || inst.kind !== 'contract') return;
    const st = this.stateOf(snapshot.symbol);
    const mark = fairPrice(snapshot) ?? lastPrice(snapshot) ?? midPrice(snapshot);
    const cross = this.nextCross(snapshot, st, mark);
    if (!mark || this.busy(ctx, st, snapshot.symbol)) return;

    const { qty, entry } = this.position(ctx, snapshot.symbol);
    if (this.params.protection.kind !== 'tpsl') {
      const out = this.guarded(ctx, st, inst, qty, entry, mark);
      if (out) return out;
    } else if (qty.isZero()) {
      delete st.tp;
      delete st.sl;
    } else {
      if (!st.tp || !st.sl || st.long !== qty.gt(0)) {
        // First sight of a position this instance did not open (a restart): keep the venue's TP/SL.
        if (st.long === undefined && this.adoptVenueStops(ctx, st, snapshot.symbol, qty)) return;
        return this.protect(ctx, st, inst, qty, entry);
      }
      if (this.params.protectiveExit) {
        const long = qty.gt(0);
        const hit = long ? mark.gte(st.tp) || mark.lte(st.sl) : mark.lte(st.tp) || mark.gte(st.sl);
        if (hit) return this.send(st, this.close(ctx, snapshot.symbol, qty));
      }
    }
    if (!cross) return;
    if (cross === 'up') {
      if (qty.lt(0)) return this.closeGuarded(ctx, st, snapshot.symbol, qty);
      if (qty.isZero()) return this.send(st, this.open(ctx, snapshot.symbol, 'buy'));
    } else {
      if (qty.gt(0)) return this.closeGuarded(ctx, st, snapshot.symbol, qty);
      if (qty.isZero() && this.params.allowShort) return this.send(st, this.open(ctx, snapshot.symbol, 'sell'));
    }
    return;
  }

  onExecution(event: ExecutionEvent, ctx: StrategyContext): IntentResult {
    if (event.type === 'IntentDenied' || event.type === 'IntentFailed') {
      // intentSymbol: a place intent names its symbol in `order` (reading `symbol` left a denied close awaited forever).
      const symbol = intentSymbol(event.intent);
      if (!symbol) return;
      const st = this.stateOf(symbol);
      if (st.awaiting === event.intent.intentId) delete st.awaiting;
      if (event.intent.kind === 'attach-tpsl' || event.intent.kind === 'protective-order') st.venueTpslRefused = true;
      return;
    }
    if (event.type === 'ProtectiveOrderPlaced') {
      const st = this.stateOf(event.symbol);
      if (event.order.kind === 'trailing' || event.order.kind === 'plan') st.guards.push({ kind: event.order.kind, id: event.order.id! });
      if (st.awaiting === event.intentId) delete st.awaiting;
      return;
    }
    if (event.type === 'ProtectionMissing') {
      const inst = ctx.instrument(event.symbol);
      const { qty, entry } = this.position(ctx, event.symbol);
      if (!inst || inst.kind !== 'contract' || qty.isZero()) return;
      // Re-armed even if the venue refused protection before: it is the only defence it names.
      const st = this.stateOf(event.symbol);
      st.venueTpslRefused = false;
      if (this.params.protection.kind === 'tpsl') return this.protect(ctx, st, inst, qty, entry);
      // The venue holds none of them (fired, expired after 7 days, cancelled by hand): re-armed. The check
      // may have read the venue just before a placement of ours landed: what we know of is cancelled too,
      // so no reduce-only leg is left behind to close a later position.
      if (st.awaiting !== undefined) return;
      const stale = st.guards.splice(0);
      const fresh = this.guard(ctx, st, inst, qty, entry) ?? [];
      return stale.length > 0 ? [ctx.intents.cancelProtective(inst.symbol, stale), ...fresh] : fresh;
    }
    if (!('clientOrderId' in event) || !('symbol' in event) || event.clientOrderId === undefined) return;
    const st = this.stateOf(event.symbol);
    const order = ctx.order(event.clientOrderId);
    if (order && st.awaiting !== undefined && order.intentId === st.awaiting && isTerminal(order.status)) delete st.awaiting;
    return;
  }

  /** The cross on a newly closed bar (each bar judged once), else undefined. */
  private nextCross(snapshot: MarketSnapshot, st: SymbolState, mark: Decimal | undefined): Cross {
    const p = this.params;
    if (p.barSeconds !== undefined) {
      st.sampler ??= new BarSampler(p.barSeconds * 1000, p.slowPeriod * 4);
      if (!mark || !st.sampler.add(snapshot.pollTime, mark)) return undefined;
      return emaCross(st.sampler.closed(), p.fastPeriod, p.slowPeriod);
    }
    const klines = snapshot.klines?.[p.interval];
    if (!klines || klines.length < 2) return undefined;
    // The newest kline is still forming: judge the ones before it.
    const n = klines.length - 1;
    const newest = klines[n - 1]!.openTime;
    if (st.lastBar !== undefined && newest <= st.lastBar) return undefined;
    st.lastBar = newest;
    // A bar's close as a double, decoded once per bar: a snapshot source hands the same immutable Kline
    // again at every poll while it stays in the window (decimal.js' toNumber goes through a string).
    // Both windows are in time order: one pass over the last one finds the bars seen before.
    const prev = st.judged ?? [];
    const prevCloses = st.judgedCloses ?? [];
    const closes = st.spareCloses ?? [];
    closes.length = n;
    let j = 0;
    for (let i = 0; i < n; i++) {
      const k = klines[i]!;
      while (j < prevCloses.length && prev[j]!.openTime < k.openTime) j++;
      closes[i] = j < prevCloses.length && prev[j] === k ? prevCloses[j]! : k.close.toNumber();
    }
    st.judged = klines;
    st.spareCloses = st.judgedCloses;
    st.judgedCloses = closes;
    // The averages are worked out over the window again on every new bar, seeded with its oldest close
    // (as before): a streaming EMA over the whole history would weigh the seed differently (the slow
    // average's seed still carries (1 − α)^(window − 1) ≈ 2 % on a 59-bar window) and change the trades.
    return emaCross(closes, p.fastPeriod, p.slowPeriod);
  }

  private busy(ctx: StrategyContext, st: SymbolState, symbol: InstrumentSymbol): boolean {
    if (st.awaiting !== undefined) return true;
    return ctx.openOrders(symbol).length > 0;
  }

  /** Net position over the legs (the strategy holds one direction at a time) and its entry price. */
  private position(ctx: StrategyContext, symbol: InstrumentSymbol): { qty: Decimal; entry: Decimal } {
    let qty = ZERO;
    let entry = ZERO;
    for (const leg of this.params.positionMode === 'hedged' ? (['long', 'short'] as const) : (['net'] as const)) {
      const p = ctx.position(symbol, leg);
      if (!p || p.quantity.isZero()) continue;
      qty = qty.plus(p.quantity);
      entry = p.entryPrice;
    }
    return { qty, entry };
  }

  /**
   * Trailing / plan protection on each snapshot; intents to send, or undefined to go on with the signal.
   *  - flat: the legs still believed live are cancelled (the other plan leg after one fired, the trailing
   *    order after the strategy closed): reduce-only orders left behind would close the next position;
   *  - first sight of a held position (a restart): the venue's own trailing / plan orders are adopted;
   *  - a position not guarded for its side yet: old legs cancelled, new ones placed;
   *  - guarded: the protective exit acts only when the venue refused the orders (else the venue closes).
   */
  private guarded(
    ctx: StrategyContext,
    st: SymbolState,
    inst: ContractInstrument,
    qty: Decimal,
    entry: Decimal,
    mark: Decimal,
  ): IntentResult | undefined {
    const first = !st.seen;
    st.seen = true;
    if (qty.isZero()) {
      delete st.tp;
      delete st.sl;
      delete st.long;
      delete st.peak;
      st.venueTpslRefused = false;
      return st.guards.length > 0 ? [ctx.intents.cancelProtective(inst.symbol, st.guards.splice(0))] : undefined;
    }
    const long = qty.gt(0);
    if (st.long !== long) {
      if (first && this.adoptVenueGuards(ctx, st, inst, qty, entry)) return [];
      if (st.guards.length > 0) return [ctx.intents.cancelProtective(inst.symbol, st.guards.splice(0))];
      return this.guard(ctx, st, inst, qty, entry);
    }
    if (!this.params.protectiveExit || !st.venueTpslRefused) return undefined;
    if (this.params.protection.kind === 'trailing') {
      // The venue's rule, kept here: the best price since guarding, closed on a fall back of callbackPct.
      st.peak = !st.peak || (long ? mark.gt(st.peak) : mark.lt(st.peak)) ? mark : st.peak;
      const back = D(this.params.protection.callbackPct).div(100);
      const level = st.peak.mul(long ? D(1).minus(back) : D(1).plus(back));
      if (long ? mark.lte(level) : mark.gte(level)) return this.send(st, this.close(ctx, inst.symbol, qty));
      return undefined;
    }
    const hit = long ? mark.gte(st.tp!) || mark.lte(st.sl!) : mark.lte(st.tp!) || mark.gte(st.sl!);
    return hit ? this.send(st, this.close(ctx, inst.symbol, qty)) : undefined;
  }

  /** A restarted strategy keeps the trailing / plan orders the venue holds for this position; false when there are none. */
  private adoptVenueGuards(ctx: StrategyContext, st: SymbolState, inst: ContractInstrument, qty: Decimal, entry: Decimal): boolean {
    const side: PositionSide = qty.gt(0) ? 'long' : 'short';
    const kind = this.params.protection.kind;
    const held = ctx.protectiveStops(inst.symbol)?.filter((s) => s.positionSide === side && s.kind === kind && s.id) ?? [];
    if (held.length === 0) return false;
    this.levels(st, inst, qty, entry);
    st.guards = held.map((s) => ({ kind: s.kind as ProtectiveOrderRef['kind'], id: s.id! }));
    return true;
  }

  /** The trailing order, or the stop-loss (and take-profit) plan orders, for the whole position. */
  private guard(ctx: StrategyContext, st: SymbolState, inst: ContractInstrument, qty: Decimal, entry: Decimal): IntentResult {
    const long = this.levels(st, inst, qty, entry);
    st.peak = entry;
    if (st.venueTpslRefused) return [];
    const p = this.params;
    const side: PositionSide = long ? 'long' : 'short';
    const opts = { trigger: p.protection.trigger, leverage: p.leverage, marginMode: p.marginMode };
    const size = qty.abs();
    const out: Intent[] = [];
    if (p.protection.kind === 'trailing') {
      const act = p.protection.activationPct;
      const move = act !== undefined ? D(act).div(100) : undefined;
      // Rounded away from the entry: it activates no earlier than asked.
      const activationPrice = move
        ? roundToTick(entry.mul(long ? D(1).plus(move) : D(1).minus(move)), inst.priceUnit, long ? 'up' : 'down')
        : undefined;
      const callbackRate = D(p.protection.callbackPct).div(100);
      out.push(
        ctx.intents.trailingStop(inst.symbol, side, size, { callbackRate, ...(activationPrice ? { activationPrice } : {}), ...opts }),
      );
    } else {
      out.push(ctx.intents.planStop(inst.symbol, side, size, { role: 'stop-loss', triggerPrice: st.sl!, ...opts }));
      if (p.protection.planTakeProfit)
        out.push(ctx.intents.planStop(inst.symbol, side, size, { role: 'take-profit', triggerPrice: st.tp!, ...opts }));
    }
    st.awaiting = out[out.length - 1]!.intentId;
    return out;
  }

  /** Cancels the trailing / plan legs, then closes (the legs first: a reduce-only leg left live would close the next position). */
  private closeGuarded(ctx: StrategyContext, st: SymbolState, symbol: InstrumentSymbol, qty: Decimal): IntentResult {
    const close = this.close(ctx, symbol, qty);
    st.awaiting = close.intentId;
    if (st.guards.length === 0) return [close];
    return [ctx.intents.cancelProtective(symbol, st.guards.splice(0)), close];
  }

  /** Takes the levels of a TP/SL order the venue already holds on this position; false when there is none. */
  private adoptVenueStops(ctx: StrategyContext, st: SymbolState, symbol: InstrumentSymbol, qty: Decimal): boolean {
    const side: PositionSide = qty.gt(0) ? 'long' : 'short';
    const stop = ctx.protectiveStops(symbol)?.find((s) => s.positionSide === side && s.takeProfitPrice && s.stopLossPrice);
    if (!stop) return false;
    st.long = qty.gt(0);
    st.tp = stop.takeProfitPrice!;
    st.sl = stop.stopLossPrice!;
    return true;
  }

  /** TP and SL levels of the position (and its side); returns whether it is long. */
  private levels(st: SymbolState, inst: ContractInstrument, qty: Decimal, entry: Decimal): boolean {
    const long = qty.gt(0);
    st.long = long;
    const tpMove = D(this.params.takeProfitPct).div(100);
    const slMove = D(this.params.stopLossPct).div(100);
    // Rounded toward the entry: a level is never further away than asked.
    st.tp = roundToTick(entry.mul(long ? D(1).plus(tpMove) : D(1).minus(tpMove)), inst.priceUnit, long ? 'down' : 'up');
    st.sl = roundToTick(entry.mul(long ? D(1).minus(slMove) : D(1).plus(slMove)), inst.priceUnit, long ? 'up' : 'down');
    return long;
  }

  private protect(ctx: StrategyContext, st: SymbolState, inst: ContractInstrument, qty: Decimal, entry: Decimal): IntentResult {
    const long = this.levels(st, inst, qty, entry);
    if (st.venueTpslRefused) return;
    const positionSide: PositionSide | undefined = this.params.positionMode === 'hedged' ? (long ? 'long' : 'short') : undefined;
    return [ctx.intents.tpsl(inst.symbol, positionSide ? { positionSide } : {}, { takeProfit: st.tp, stopLoss: st.sl, trigger: 'fair' })];
  }

  private open(ctx: StrategyContext, symbol: InstrumentSymbol, side: OrderSide): Intent {
    const p = this.params;
    return ctx.intents.market(symbol, side, p.size, {
      leverage: p.leverage,
      marginMode: p.marginMode,
      ...(p.positionMode === 'hedged' ? { positionSide: side === 'buy' ? ('long' as const) : ('short' as const) } : {}),
    });
  }

  private close(ctx: StrategyContext, symbol: InstrumentSymbol, qty: Decimal): Intent {
    const p = this.params;
    const long = qty.gt(0);
    return ctx.intents.market(symbol, long ? 'sell' : 'buy', qty.abs(), {
      marginMode: p.marginMode,
      ...(p.positionMode === 'hedged' ? { positionSide: long ? ('long' as const) : ('short' as const) } : { reduceOnly: true }),
    });
  }

  private send(st: SymbolState, intent: Intent): IntentResult {
    st.awaiting = intent.intentId;
    return [intent];
  }

  private stateOf(symbol: string): SymbolState {
    let s = this.state.get(symbol);
    if (!s) this.state.set(symbol, (s = { venueTpslRefused: false, guards: [], seen: false }));
    return s;
  }
}
