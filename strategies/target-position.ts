/**
 * Target position: reaches `target` from the strategy's own position with ONE execution algorithm —
 * a TWAP over `durationMs` in `slices` children, or an iceberg showing `visibleQuantity` at a time —
 * and then holds it. The worked example of execution algorithms (docs/writing-a-strategy.md).
 *
 *  - At the first snapshot with a touch: delta = target − position (base units on spot, contracts on a
 *    perpetual; `direction: short` makes the perpetual target negative). A delta below the quantity step
 *    asks for nothing.
 *  - TWAP children are judged by risk one by one (the order manager asks the runtime's risk engine for
 *    each); the strategy only watches the parent through its AlgoUpdated events and ctx.algoOrders().
 *  - The iceberg rests at the near touch at the start (bid for a buy), `icebergOffsetBps` further away.
 *  - Once the parent ends (completed, expired, stopped, cancelled) nothing more is asked: what was done
 *    is in report() — filled, average price, state and the reason.
 *
 * Everything is decided from the snapshot and the events: no timers, no awaits (replayable).
 */
import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import { z } from 'zod';
import { D, type Decimal, roundToTick, truncateToStep } from '../src/core/decimal.js';
import type { InstrumentSymbol } from '../src/core/ids.js';
import type { AlgoParent } from '../src/domain/algo-parent.js';
import type { ExecutionEvent } from '../src/domain/execution-event.js';
import { stepOf, tickOf } from '../src/domain/instrument.js';
import type { Intent } from '../src/domain/intent.js';
import { bestAsk, bestBid, type MarketSnapshot } from '../src/domain/snapshot.js';
import type { IntentResult, Strategy, StrategyReport } from '../src/strategy/strategy.js';
import type { StrategyContext } from '../src/strategy/strategy-context.js';
import { STRATEGY_TOKENS } from '../src/strategy/strategy-tokens.js';
import { decimalParam } from './param-types.js';

export const targetPositionParams = z
  .strictObject({
    target: decimalParam('non-negative').describe('Position to reach: base units on spot, contracts on a perpetual.'),
    direction: z.enum(['long', 'short']).default('long').describe('Perpetuals: `short` makes the target a short position.'),
    positionMode: z
      .enum(['one-way', 'hedged'])
      .default('one-way')
      .describe("Perpetuals: the account's position mode; hedged trades the `direction` leg (children name their position side)."),
    execution: z.enum(['twap', 'iceberg']).default('twap').describe('The execution algorithm that trades the difference.'),
    durationMs: z.number().int().positive().default(600_000).describe('TWAP: time over which the difference is traded, ms.'),
    slices: z.number().int().min(1).max(10_000).default(10).describe('TWAP: number of children, one every durationMs / slices.'),
    childType: z
      .enum(['ioc', 'passive'])
      .default('ioc')
      .describe('TWAP: `ioc` crosses the spread each slice; `passive` rests at the near touch, re-priced every slice.'),
    maxDeviationBps: z.number().min(0).max(1_000).default(5).describe('TWAP ioc: how far through the touch a child may go, bps.'),
    limitPrice: decimalParam().optional().describe('Worst price of any child (buy: never above, sell: never below).'),
    visibleQuantity: decimalParam().optional().describe('Iceberg: quantity shown at a time (required for the iceberg).'),
    icebergOffsetBps: z
      .number()
      .min(0)
      .max(1_000)
      .default(0)
      .describe('Iceberg: its price, this far behind the near touch at the start, bps.'),
    visibleVariance: z.number().min(0).lt(1).default(0).describe('Iceberg: each visible size drawn from visible·(1 ± this).'),
    seed: z.number().int().default(1).describe('Iceberg: seed of the visible-size draws (the same seed replays the same sizes).'),
    leverage: z.number().int().min(1).max(200).optional().describe('Perpetuals: leverage of the children.'),
  })
  .refine((p) => p.execution !== 'iceberg' || p.visibleQuantity !== undefined, {
    message: 'expected visibleQuantity when execution is iceberg',
    path: ['visibleQuantity'],
  });

export type TargetPositionParams = z.output<typeof targetPositionParams>;

@injectable()
export class TargetPosition implements Strategy {
  static readonly strategyName = 'target-position';
  static readonly description = 'Reaches a target position by TWAP or iceberg (an execution algorithm), then holds it.';
  static readonly paramsSchema = targetPositionParams;

  /** The intent that started the parent (its AlgoUpdated events carry this id). */
  private asked: string | undefined;
  private last: AlgoParent | undefined;
  private ctx: StrategyContext | undefined;

  constructor(@inject(STRATEGY_TOKENS.StrategyParams) private readonly params: TargetPositionParams) {}

  onSnapshot(s: MarketSnapshot, ctx: StrategyContext): IntentResult {
    this.ctx = ctx;
    if (this.asked !== undefined) return [];
    const intent = this.plan(s, ctx);
    if (intent) this.asked = intent.intentId;
    return intent ? [intent] : [];
  }

  onExecution(e: ExecutionEvent): IntentResult {
    if (e.type === 'AlgoUpdated' && e.parent.intentId === this.asked) this.last = e.parent;
    return [];
  }

  report(): StrategyReport {
    // The order manager's view, measured now from the children's fills (it includes the final state a
    // stopped run no longer tells the strategy); the last event heard when there is no context.
    const p = this.ctx?.algoOrders().find((a) => a.intentId === this.asked) ?? this.last;
    if (!p) return { state: this.asked ? 'not started' : 'nothing to do' };
    return {
      algo: p.algo,
      side: p.side,
      state: p.state,
      quantity: p.quantity.toFixed(),
      filled: p.filledQty.toFixed(),
      remaining: p.remaining.toFixed(),
      avgPrice: p.avgPrice?.toFixed(8) ?? '-',
      children: String(p.children),
      denials: String(p.denials),
      ...(p.reason ? { reason: p.reason } : {}),
    };
  }

  private plan(s: MarketSnapshot, ctx: StrategyContext): Intent | undefined {
    const p = this.params;
    const symbol: InstrumentSymbol = s.symbol;
    const inst = ctx.instrument(symbol);
    const bid = bestBid(s);
    const ask = bestAsk(s);
    if (!inst || !bid || !ask) return undefined;
    const contract = inst.kind === 'contract';
    const hedged = contract && p.positionMode === 'hedged';
    // Hedged: the `direction` leg alone, in signed terms (a short leg's position is negative).
    const leg = hedged ? p.direction : 'net';
    const target = contract && p.direction === 'short' ? p.target.neg() : p.target;
    const held = ctx.position(symbol, leg)?.quantity ?? D(0);
    const delta = target.minus(held);
    const quantity = truncateToStep(delta.abs(), stepOf(inst));
    if (quantity.isZero()) return undefined;
    const side = delta.isPositive() ? 'buy' : 'sell';
    const opts = {
      ...(p.leverage !== undefined && contract ? { leverage: p.leverage } : {}),
      ...(hedged ? { positionSide: p.direction } : {}),
      // A one-way trade toward zero only reduces: it must not open the other side on a race.
      ...(contract && !hedged && target.abs().lt(held.abs()) && target.mul(held).gte(0) ? { reduceOnly: true } : {}),
    };
    if (p.execution === 'twap') {
      return ctx.intents.twap(symbol, side, quantity, {
        durationMs: p.durationMs,
        slices: p.slices,
        childType: p.childType,
        maxDeviationBps: p.maxDeviationBps,
        ...(p.limitPrice ? { limitPrice: p.limitPrice } : {}),
        ...opts,
      });
    }
    const visible: Decimal = p.visibleQuantity!.gt(quantity) ? quantity : p.visibleQuantity!;
    const off = D(p.icebergOffsetBps).div(10_000);
    const raw = side === 'buy' ? bid.mul(D(1).minus(off)) : ask.mul(D(1).plus(off));
    let price = roundToTick(raw, tickOf(inst), side === 'buy' ? 'down' : 'up');
    if (p.limitPrice && (side === 'buy' ? price.gt(p.limitPrice) : price.lt(p.limitPrice))) price = p.limitPrice;
    return ctx.intents.iceberg(symbol, side, quantity, visible, price, {
      ...(p.visibleVariance > 0 ? { visibleVariance: p.visibleVariance, seed: p.seed } : {}),
      ...opts,
    });
  }
}
