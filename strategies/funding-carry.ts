/**
 * Funding carry across both markets: one strategy owning a spot leg and a perpetual leg of equal base
 * size and opposite sign, earning the funding the perpetual pays.
 *
 *  - Instruments: exactly one spot and one perpetual of the same base (e.g. BTCUSDT + BTC_USDT).
 *  - Enter (flat, nothing in flight) when the funding rate per settlement is worth it: |rate| ≥
 *    `entryRate` AND |rate| × `settlementsToCover` ≥ the round trip's cost (taker fees of both legs, in
 *    and out, plus both half-spreads, as fractions of the price). A positive rate (longs pay shorts):
 *    buy `baseQty` spot + sell the same base in contracts. A negative rate, with `allowReverse`: sell
 *    `baseQty` of base the account holds + buy the contracts.
 *  - Rebalance: when spot base + perpetual base (contracts × contract size) drifts more than
 *    `driftTolerance` × baseQty from zero (a partial fill, a venue-side adjustment), the perpetual leg
 *    is traded back to the opposite of the spot leg.
 *  - Unwind both legs when the rate turns: its sign in the carry's favour falls below `exitRate`.
 *  - `report()`: the funding income booked on the perpetual leg, the basis (perpetual fair − spot mid)
 *    now and at entry, and the basis PnL of the pair: base × ((perp − spot) at entry − (perp − spot) now)
 *    for the long-spot carry (the sign flips for the reverse).
 *  - Market orders, one step at a time: nothing is decided while an order of its own is in flight.
 *  - At start: one-way position mode (`setPositionMode`) and the perpetual's leverage.
 */
import 'reflect-metadata';
import { inject, injectable, optional } from 'inversify';
import { z } from 'zod';
import { D, type Decimal, truncateToStep, ZERO } from '../src/core/decimal.js';
import { ConfigError } from '../src/core/errors.js';
import type { InstrumentSymbol } from '../src/core/ids.js';
import { STRATEGY_TOKENS } from '../src/strategy/strategy-tokens.js';
import type { ContractInstrument, SpotInstrument } from '../src/domain/instrument.js';
import type { Intent } from '../src/domain/intent.js';
import { fairPrice, type MarketSnapshot, midPrice } from '../src/domain/snapshot.js';
import type { IntentResult, Strategy, StrategyReport } from '../src/strategy/strategy.js';
import type { StrategyContext } from '../src/strategy/strategy-context.js';
import { decimalParam } from './param-types.js';

export const fundingCarryParams = z
  .strictObject({
    baseQty: decimalParam().describe('Base units of each leg (e.g. 0.01 BTC long spot and 0.01 BTC short in contracts).'),
    entryRate: z.number().min(0).max(0.05).default(0.0001).describe('Smallest |funding rate| per settlement to enter (0.0001 = 0.01 %).'),
    settlementsToCover: z
      .number()
      .positive()
      .max(1000)
      .default(3)
      .describe('Settlements the rate must pay for to cover the round trip (fees in and out, both spreads).'),
    exitRate: z.number().min(-0.05).max(0.05).default(0).describe("Unwind when the rate in the carry's favour falls below this."),
    driftTolerance: z
      .number()
      .gt(0)
      .max(1)
      .default(0.1)
      .describe('Rebalance the perpetual leg when the legs differ by more than this fraction of baseQty.'),
    allowReverse: z.boolean().default(false).describe('On a negative rate, sell base the account holds and buy the perpetual.'),
    leverage: z.number().int().min(1).max(125).default(2).describe('Leverage of the perpetual leg, set at start.'),
    marginMode: z.enum(['isolated', 'cross']).default('isolated').describe('Margin mode of the perpetual leg.'),
    setPositionMode: z
      .boolean()
      .default(true)
      .describe('Ask the venue for one-way position mode at start (the perpetual leg is one net position).'),
  })
  .refine((p) => p.exitRate < p.entryRate, { message: 'expected exitRate < entryRate', path: ['exitRate'] });

export type FundingCarryParams = z.output<typeof fundingCarryParams>;

interface Legs {
  spot: SpotInstrument;
  perp: ContractInstrument;
}

interface CarryState {
  /** +1 long spot / short perpetual, −1 the reverse; undefined while flat. */
  direction?: 1 | -1;
  entryBasis?: Decimal;
  basis?: Decimal;
  funding: Decimal;
  spotBase: Decimal;
  perpBase: Decimal;
  rate?: Decimal;
  /** Times each step was asked for (a denied step is asked again on the next snapshot and counted again). */
  entries: number;
  unwinds: number;
  rebalances: number;
}

@injectable()
export class FundingCarry implements Strategy {
  static readonly strategyName = 'funding-carry';
  static readonly description =
    'Funding carry: long spot + short perpetual (or the reverse) of equal base when funding beats costs, rebalanced on drift, unwound when the rate turns.';
  static readonly paramsSchema = fundingCarryParams;

  private readonly st: CarryState = { funding: ZERO, spotBase: ZERO, perpBase: ZERO, entries: 0, unwinds: 0, rebalances: 0 };
  private legs?: Legs;

  constructor(
    @inject(STRATEGY_TOKENS.StrategyParams) private readonly params: FundingCarryParams,
    @inject(STRATEGY_TOKENS.StrategyInstruments) @optional() private readonly instruments: readonly InstrumentSymbol[] = [],
  ) {}

  onStart(ctx: StrategyContext): IntentResult {
    const all = (this.instruments ?? []).map((s) => ctx.instrument(s));
    const spot = all.filter((i): i is SpotInstrument => i?.kind === 'spot');
    const perp = all.filter((i): i is ContractInstrument => i?.kind === 'contract');
    if (spot.length !== 1 || perp.length !== 1 || spot[0]!.baseAsset !== perp[0]!.baseCoin) {
      throw new ConfigError(
        'instruments',
        `funding-carry expects one spot and one perpetual of the same base, received ${(this.instruments ?? []).join(', ')}`,
      );
    }
    this.legs = { spot: spot[0]!, perp: perp[0]! };
    const p = this.params;
    return [
      ...(p.setPositionMode ? [ctx.intents.positionMode('one-way')] : []),
      ctx.intents.leverage(this.legs.perp.symbol, p.leverage, { marginMode: p.marginMode }),
    ];
  }

  onSnapshot(_snapshot: MarketSnapshot, ctx: StrategyContext): IntentResult {
    const legs = this.legs;
    if (!legs) return;
    const spotSnap = ctx.lastSnapshot(legs.spot.symbol);
    const perpSnap = ctx.lastSnapshot(legs.perp.symbol);
    const spotMid = midPrice(spotSnap);
    const perpMid = midPrice(perpSnap);
    const perpFair = fairPrice(perpSnap) ?? perpMid;
    const rate = perpSnap?.fundingRate?.rate ?? perpSnap?.contractTicker?.fundingRate;
    const st = this.st;
    const perpPos = ctx.position(legs.perp.symbol);
    st.spotBase = ctx.position(legs.spot.symbol)?.quantity ?? ZERO;
    st.perpBase = (perpPos?.quantity ?? ZERO).mul(legs.perp.contractSize);
    st.funding = perpPos?.funding ?? ZERO;
    if (spotMid && perpFair) st.basis = perpFair.minus(spotMid);
    if (rate !== undefined) st.rate = rate;
    if (!spotMid || !perpMid || !perpFair || rate === undefined) return;
    if (ctx.openOrders(legs.spot.symbol).length > 0 || ctx.openOrders(legs.perp.symbol).length > 0) return;

    const p = this.params;
    const flat = st.spotBase.abs().lt(legs.spot.minQuantity) && st.perpBase.isZero();
    if (flat) {
      st.direction = undefined;
      const dir = rate.gt(0) ? 1 : rate.lt(0) && p.allowReverse ? -1 : undefined;
      if (!dir || !this.worthIt(rate.abs(), legs, spotSnap!, perpSnap!)) return;
      if (dir === -1 && (ctx.balance(legs.spot.baseAsset)?.free ?? ZERO).lt(p.baseQty)) return;
      st.direction = dir;
      st.entryBasis = perpFair.minus(spotMid);
      st.entries += 1;
      return this.trade(ctx, legs, p.baseQty.mul(dir), this.contractsFor(p.baseQty, legs).mul(-dir));
    }
    const dir = st.direction ?? (st.spotBase.gt(0) ? 1 : -1);
    st.direction = dir;
    if (rate.mul(dir).lt(p.exitRate)) {
      st.unwinds += 1;
      return this.trade(ctx, legs, st.spotBase.neg(), (perpPos?.quantity ?? ZERO).neg(), true);
    }
    // The perpetual follows the spot leg: −spot base in contracts.
    const drift = st.spotBase.plus(st.perpBase);
    if (drift.abs().gt(p.baseQty.mul(p.driftTolerance))) {
      const target = this.contractsFor(st.spotBase.abs(), legs).mul(st.spotBase.gt(0) ? -1 : 1);
      const delta = target.minus(perpPos?.quantity ?? ZERO);
      if (delta.abs().gte(legs.perp.minVol)) {
        st.rebalances += 1;
        return this.trade(ctx, legs, ZERO, delta);
      }
    }
    return;
  }

  /** Funding income, basis and the pair's basis PnL. */
  report(): StrategyReport {
    const st = this.st;
    const base = st.spotBase.abs();
    const basisPnl = st.direction && st.entryBasis && st.basis ? st.entryBasis.minus(st.basis).mul(base).mul(st.direction) : ZERO;
    return {
      direction: st.direction === 1 ? 'long-spot' : st.direction === -1 ? 'short-spot' : 'flat',
      fundingIncome: st.funding.toFixed(4),
      basis: st.basis?.toFixed(4) ?? '-',
      entryBasis: st.entryBasis?.toFixed(4) ?? '-',
      basisPnl: basisPnl.toFixed(4),
      spotBase: st.spotBase.toFixed(),
      perpBase: st.perpBase.toFixed(),
      lastRate: st.rate?.toFixed() ?? '-',
      entries: String(st.entries),
      rebalances: String(st.rebalances),
      unwinds: String(st.unwinds),
    };
  }

  /** Both legs as market orders: spot in base (signed), the perpetual in contracts (signed). */
  private trade(ctx: StrategyContext, legs: Legs, spotBase: Decimal, contracts: Decimal, closing = false): Intent[] {
    const p = this.params;
    const out: Intent[] = [];
    const spotQty = truncateToStep(spotBase.abs(), legs.spot.step);
    if (spotQty.gte(legs.spot.minQuantity)) out.push(ctx.intents.market(legs.spot.symbol, spotBase.gt(0) ? 'buy' : 'sell', spotQty));
    if (!contracts.isZero()) {
      // Closing (or shrinking) the perpetual is reduce-only: it can never open the other way by mistake.
      out.push(
        ctx.intents.market(legs.perp.symbol, contracts.gt(0) ? 'buy' : 'sell', contracts.abs(), {
          leverage: p.leverage,
          marginMode: p.marginMode,
          ...(closing ? { reduceOnly: true } : {}),
        }),
      );
    }
    return out;
  }

  private contractsFor(base: Decimal, legs: Legs): Decimal {
    return truncateToStep(base.div(legs.perp.contractSize), legs.perp.volUnit);
  }

  /** The rate pays for `settlementsToCover` round trips' costs: taker fees in and out plus both half-spreads. */
  private worthIt(rate: Decimal, legs: Legs, spotSnap: MarketSnapshot, perpSnap: MarketSnapshot): boolean {
    if (rate.lt(this.params.entryRate)) return false;
    const halfSpread = (s: MarketSnapshot): Decimal => {
      const mid = midPrice(s)!;
      const b = s.book?.bids[0]?.price ?? mid;
      const a = s.book?.asks[0]?.price ?? mid;
      return a.minus(b).div(mid).div(2);
    };
    const fees = legs.spot.takerCommission.plus(legs.perp.takerFeeRate).mul(2);
    const cost = fees.plus(halfSpread(spotSnap).mul(2)).plus(halfSpread(perpSnap).mul(2));
    return rate.mul(D(this.params.settlementsToCover)).gte(cost);
  }
}
