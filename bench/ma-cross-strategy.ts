/**
 * The "simple strategy" of the backtest bench (issue 5's budget is for one): it reads the mid of each
 * snapshot and trades only when a fast simple moving average of the mid crosses a slow one — a market
 * buy of `size` on a cross up when flat, a market sell of what it holds on a cross down. Most
 * snapshots therefore cost one mid and two running sums, and a crossing goes through risk, the order
 * manager and the venue like any other order.
 *
 * It lives in bench/ (not strategies/): it exists to measure the pipeline, not to be copied.
 */
import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import { z } from 'zod';
import { D, type Decimal, truncateToStep } from '../src/core/decimal.js';
import { stepOf } from '../src/domain/instrument.js';
import { STRATEGY_TOKENS } from '../src/strategy/strategy-tokens.js';
import type { MarketSnapshot } from '../src/domain/snapshot.js';
import type { IntentResult, Strategy } from '../src/strategy/strategy.js';
import type { StrategyContext } from '../src/strategy/strategy-context.js';

export const maCrossParams = z.strictObject({
  fast: z.number().int().min(1).default(10),
  slow: z.number().int().min(2).default(30),
  size: z.string().default('0.01'),
});

/** A fixed window of numbers with its running sum (O(1) per value). */
class RollingMean {
  private readonly xs: number[];
  private i = 0;
  private n = 0;
  private sum = 0;

  constructor(private readonly len: number) {
    this.xs = new Array<number>(len).fill(0);
  }

  add(x: number): void {
    this.sum += x - this.xs[this.i]!;
    this.xs[this.i] = x;
    this.i = (this.i + 1) % this.len;
    if (this.n < this.len) this.n++;
  }

  get full(): boolean {
    return this.n === this.len;
  }

  get mean(): number {
    return this.sum / this.n;
  }
}

@injectable()
export class MaCrossStrategy implements Strategy {
  static readonly strategyName = 'bench-ma-cross';
  static readonly paramsSchema = maCrossParams;
  static readonly description = 'Bench only: market orders on crossings of two moving averages of the mid.';
  private readonly fast: RollingMean;
  private readonly slow: RollingMean;
  private readonly size: Decimal;
  private readonly halfSize: Decimal;
  /** Sign of fast − slow at the previous snapshot (0 until both windows are full). */
  private side = 0;
  /** An order of ours is still open: no new signal until it is settled. */
  private awaiting = false;

  constructor(@inject(STRATEGY_TOKENS.StrategyParams) p: z.output<typeof maCrossParams>) {
    this.fast = new RollingMean(p.fast);
    this.slow = new RollingMean(p.slow);
    this.size = D(p.size);
    this.halfSize = this.size.div(2);
  }

  onSnapshot(s: MarketSnapshot, ctx: StrategyContext): IntentResult {
    const b = s.book?.bids[0];
    const a = s.book?.asks[0];
    if (!b || !a) return;
    const mid = (b.price.toNumber() + a.price.toNumber()) / 2;
    this.fast.add(mid);
    this.slow.add(mid);
    if (!this.slow.full) return;
    const d = Math.sign(this.fast.mean - this.slow.mean);
    const before = this.side;
    this.side = d;
    if (d === 0 || before === 0 || d === before) return;
    if (this.awaiting) {
      if (ctx.openOrders(s.symbol).length > 0) return;
      this.awaiting = false;
    }
    // Long `size` or flat; what a sell leaves behind (the buy's fee was paid in the base asset) is
    // dust, not a position.
    const held = ctx.position(s.symbol)?.quantity;
    const long = held !== undefined && held.gte(this.halfSize);
    if (d > 0 && !long) {
      this.awaiting = true;
      return [ctx.intents.market(s.symbol, 'buy', this.size)];
    }
    if (d < 0 && long && held) {
      // A spot buy pays its fee in the base asset: sell what the account holds, not what was bought.
      const inst = ctx.instrument(s.symbol);
      const free = inst?.kind === 'spot' ? ctx.balance(inst.baseAsset)?.free : undefined;
      const qty = inst ? truncateToStep(free && free.lt(held) ? free : held, stepOf(inst)) : held;
      if (qty.lte(0)) return;
      this.awaiting = true;
      return [ctx.intents.market(s.symbol, 'sell', qty)];
    }
    return;
  }
}
