/**
 * Perpetual market maker after Avellaneda–Stoikov (the arithmetic and the estimators are in
 * avellaneda-stoikov.ts).
 *
 *  - Every snapshot feeds the online estimates: σ² from the mid's moves, k from the depths at which
 *    public trades happen (the contract `deals` stream). Nothing is quoted before `warmupSamples`.
 *  - One bid and one ask around the reservation price, `size` contracts each, post-only, declared as
 *    ONE DesiredQuotes intent: the order manager amends a resting quote in place when its price moved
 *    (the contract's native change_limit_order) instead of cancelling and placing it.
 *  - Inventory: q in lots (position / size) moves the reservation price against the position; at
 *    ±maxInventory the side that would add is withdrawn.
 *  - Funding: within `fundingWindowMinutes` before a settlement, the reservation price moves by what
 *    holding one contract through it costs (rate × mid × fundingSkew): with a positive rate (longs
 *    pay) the quotes move down, so the maker sells more and buys less before paying.
 *  - A quote is never priced through the book: a bid at most one tick under the best ask, an ask at
 *    least one tick over the best bid (post-only would be refused).
 *  - Position mode (`positionMode`): one-way quotes one net position. Hedged holds a long and a short
 *    leg: inventory q is their sum (long − |short|), and each quote closes the opposite leg while it holds
 *    a lot (the bid buys the short back, the ask sells the long) before it opens its own — so the maker
 *    does not build gross exposure (and margin on both legs) out of quotes that net to nothing. A quote
 *    that changes leg is cancelled and placed anew (the venue cannot amend a position side).
 *  - At start: the position mode (`setPositionMode`), then leverage and margin mode on every
 *    instrument (both legs in hedged mode), as perp-trend does.
 */
import 'reflect-metadata';
import { inject, injectable, optional } from 'inversify';
import { z } from 'zod';
import { type Decimal, ZERO } from '../src/core/decimal.js';
import type { InstrumentSymbol } from '../src/core/ids.js';
import { STRATEGY_TOKENS } from '../src/strategy/strategy-tokens.js';
import type { ContractInstrument } from '../src/domain/instrument.js';
import type { Intent } from '../src/domain/intent.js';
import { bestAsk, bestBid, midPrice, type MarketSnapshot } from '../src/domain/snapshot.js';
import type { IntentResult, Strategy, StrategyReport } from '../src/strategy/strategy.js';
import type { StrategyContext } from '../src/strategy/strategy-context.js';
import { type AsQuote, avellanedaStoikov, IntensityEstimator, onTick, VolatilityEstimator } from './avellaneda-stoikov.js';
import { decimalParam } from './param-types.js';

export const perpAsMakerParams = z.strictObject({
  size: decimalParam().describe('Contracts per quote (one lot of inventory).'),
  maxInventory: decimalParam().describe('Largest position (contracts, either sign); at it, the side that adds is withdrawn.'),
  gamma: z
    .number()
    .positive()
    .max(1000)
    .default(0.1)
    .describe('Risk aversion γ, 1/price: how hard inventory and volatility push the quotes.'),
  horizonSeconds: z
    .number()
    .positive()
    .max(86_400)
    .default(60)
    .describe('Horizon τ of the model, seconds (a rolling window: the maker never "closes").'),
  volHalfLifeSeconds: z.number().positive().max(86_400).default(300).describe('Half-life of the volatility estimate, seconds.'),
  intensityHalfLifeTrades: z
    .number()
    .positive()
    .max(100_000)
    .default(200)
    .describe('Half-life of the arrival-intensity estimate, in trades.'),
  priorK: z
    .number()
    .positive()
    .max(1e6)
    .default(0.1)
    .describe('Starting arrival-intensity decay k, 1/price (mean trade depth 1/k), until trades say otherwise.'),
  warmupSamples: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(10)
    .describe('Snapshots the volatility estimate needs before the first quote.'),
  fundingWindowMinutes: z
    .number()
    .min(0)
    .max(480)
    .default(30)
    .describe('Skew for funding this many minutes before a settlement (0: never).'),
  fundingSkew: z
    .number()
    .min(0)
    .max(100)
    .default(1)
    .describe('Multiple of the funding cost per contract (rate × mid) the reservation price moves by.'),
  requoteTicks: z
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(2)
    .describe('A quote whose target moved no more than this many ticks is left alone.'),
  leverage: z.number().int().min(1).max(500).default(5).describe('Leverage set at start and sent with every quote.'),
  marginMode: z.enum(['isolated', 'cross']).default('isolated').describe('Margin mode of the positions.'),
  positionMode: z
    .enum(['one-way', 'hedged'])
    .default('one-way')
    .describe('one-way: one net position. hedged: a long and a short leg; each quote closes the opposite leg before opening its own.'),
  setPositionMode: z
    .boolean()
    .default(true)
    .describe('Ask the venue for `positionMode` at start (leave false when the account is already in it).'),
});

export type PerpAsMakerParams = z.output<typeof perpAsMakerParams>;

interface MakerState {
  vol: VolatilityEstimator;
  intensity: IntensityEstimator;
  lastMid?: number;
  lastTradeTime: number;
  last?: AsQuote;
  declared?: { bid?: Decimal; ask?: Decimal; q: string };
  fundingShift: number;
}

@injectable()
export class PerpAsMaker implements Strategy {
  static readonly strategyName = 'perp-as-maker';
  static readonly description =
    'Perpetual market maker after Avellaneda–Stoikov: reservation price and spread from online volatility and arrival-intensity estimates, inventory limits, funding skew, post-only quotes amended in place.';
  static readonly paramsSchema = perpAsMakerParams;

  private readonly state = new Map<string, MakerState>();

  constructor(
    @inject(STRATEGY_TOKENS.StrategyParams) private readonly params: PerpAsMakerParams,
    @inject(STRATEGY_TOKENS.StrategyInstruments) @optional() private readonly instruments: readonly InstrumentSymbol[] = [],
  ) {}

  onStart(ctx: StrategyContext): IntentResult {
    const p = this.params;
    const leverage = (this.instruments ?? [])
      .filter((s) => ctx.instrument(s)?.kind === 'contract')
      .map((s) => ctx.intents.leverage(s, p.leverage, { marginMode: p.marginMode }));
    return [...(p.setPositionMode ? [ctx.intents.positionMode(p.positionMode)] : []), ...leverage];
  }

  onSnapshot(snapshot: MarketSnapshot, ctx: StrategyContext): IntentResult {
    const inst = ctx.instrument(snapshot.symbol);
    if (!inst || inst.kind !== 'contract') return;
    const st = this.stateOf(snapshot.symbol, inst);
    const mid = midPrice(snapshot);
    if (!mid) return;
    const s = mid.toNumber();
    this.observe(st, snapshot, s);
    const sigma2 = st.vol.variancePerSec;
    if (sigma2 === undefined || st.vol.samples < this.params.warmupSamples) return;
    const open = ctx.openOrders(snapshot.symbol);
    if (open.some((o) => o.status === 'submitted' || o.status === 'pending-amend' || o.status === 'pending-cancel')) return;

    const p = this.params;
    const hedged = p.positionMode === 'hedged';
    const long = hedged ? (ctx.position(snapshot.symbol, 'long')?.quantity ?? ZERO) : ZERO;
    const short = hedged ? (ctx.position(snapshot.symbol, 'short')?.quantity.abs() ?? ZERO) : ZERO;
    // Inventory is the net exposure in both modes; in hedged mode the legs' sum.
    const position = hedged ? long.minus(short) : (ctx.position(snapshot.symbol)?.quantity ?? ZERO);
    st.fundingShift = this.fundingShift(snapshot, ctx.clock.now(), s);
    const q = position.div(p.size).toNumber();
    const quote = avellanedaStoikov({
      mid: s,
      q,
      gamma: p.gamma,
      sigma2,
      horizonSec: p.horizonSeconds,
      k: st.intensity.k,
      fundingShift: st.fundingShift,
    });
    st.last = quote;
    const tick = inst.priceUnit;
    const ask1 = bestAsk(snapshot);
    const bid1 = bestBid(snapshot);
    let bid = onTick(quote.bid, tick, 'down');
    let ask = onTick(quote.ask, tick, 'up');
    if (ask1 && bid.gte(ask1)) bid = ask1.minus(tick);
    if (bid1 && ask.lte(bid1)) ask = bid1.plus(tick);
    const mayBuy = position.lt(p.maxInventory);
    const maySell = position.gt(p.maxInventory.neg());
    // Hedged: which leg each quote trades — close the opposite leg while it holds a lot, else open.
    const bidLeg = short.gte(p.size) ? ('short' as const) : ('long' as const);
    const askLeg = long.gte(p.size) ? ('long' as const) : ('short' as const);
    const want = {
      ...(mayBuy ? { bid } : {}),
      ...(maySell ? { ask } : {}),
      q: hedged ? `${position.toFixed()} ${bidLeg} ${askLeg}` : position.toFixed(),
    };
    if (st.declared && !this.moved(st.declared, want, tick) && open.length === (mayBuy ? 1 : 0) + (maySell ? 1 : 0)) return;
    st.declared = want;
    const common = { quantity: p.size, timeInForce: 'post-only' as const, leverage: p.leverage, marginMode: p.marginMode };
    const quotes = [
      ...(want.bid ? [{ slot: 'b0', side: 'buy' as const, price: want.bid, ...common, ...(hedged ? { positionSide: bidLeg } : {}) }] : []),
      ...(want.ask ? [{ slot: 'a0', side: 'sell' as const, price: want.ask, ...common, ...(hedged ? { positionSide: askLeg } : {}) }] : []),
    ];
    const out: Intent[] = [ctx.intents.quotes(snapshot.symbol, quotes)];
    return out;
  }

  /** The current estimates and quote, per symbol. */
  report(): StrategyReport {
    const out: Record<string, string> = {};
    for (const [symbol, st] of this.state) {
      const v = st.vol.variancePerSec;
      out[`${symbol}.sigmaPerSqrtSec`] = v === undefined ? '-' : Math.sqrt(v).toFixed(4);
      out[`${symbol}.k`] = st.intensity.k.toFixed(4);
      out[`${symbol}.tradesSeen`] = String(st.intensity.trades);
      if (st.last) out[`${symbol}.spread`] = st.last.spread.toFixed(2);
      out[`${symbol}.fundingShift`] = st.fundingShift.toFixed(4);
    }
    return out;
  }

  private observe(st: MakerState, snapshot: MarketSnapshot, mid: number): void {
    st.vol.add(snapshot.pollTime, mid);
    // Depths are measured from the mid before the trades (the one they were arriving at).
    const ref = st.lastMid ?? mid;
    for (const t of snapshot.trades ?? []) {
      if (t.time <= st.lastTradeTime) continue;
      st.intensity.addTrade(t.price.toNumber(), ref);
      st.lastTradeTime = t.time;
    }
    st.lastMid = mid;
  }

  private fundingShift(snapshot: MarketSnapshot, now: number, mid: number): number {
    const p = this.params;
    const f = snapshot.fundingRate;
    const rate = f?.rate ?? snapshot.contractTicker?.fundingRate;
    if (!rate || p.fundingWindowMinutes === 0 || f?.nextSettleTime === undefined) return 0;
    const untilMs = f.nextSettleTime - now;
    if (untilMs < 0 || untilMs > p.fundingWindowMinutes * 60_000) return 0;
    return rate.toNumber() * mid * p.fundingSkew;
  }

  private moved(
    was: { bid?: Decimal; ask?: Decimal; q: string },
    now: { bid?: Decimal; ask?: Decimal; q: string },
    tick: Decimal,
  ): boolean {
    if (was.q !== now.q || (was.bid === undefined) !== (now.bid === undefined) || (was.ask === undefined) !== (now.ask === undefined))
      return true;
    const limit = tick.mul(this.params.requoteTicks);
    return (
      (was.bid !== undefined && was.bid.minus(now.bid!).abs().gt(limit)) ||
      (was.ask !== undefined && was.ask.minus(now.ask!).abs().gt(limit))
    );
  }

  private stateOf(symbol: string, inst: ContractInstrument): MakerState {
    let s = this.state.get(symbol);
    if (!s) {
      const p = this.params;
      s = {
        vol: new VolatilityEstimator(p.volHalfLifeSeconds),
        intensity: new IntensityEstimator(p.intensityHalfLifeTrades, p.priorK, inst.priceUnit.toNumber()),
        lastTradeTime: Number.NEGATIVE_INFINITY,
        fundingShift: 0,
      };
      this.state.set(symbol, s);
    }
    return s;
  }
}
