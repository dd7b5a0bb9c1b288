/**
 * Drives one strategy: builds its context, calls its hooks and collects the intents it emits and
 * returns. Intents of another strategy id are refused here (a strategy cannot act for another).
 */
import type { Clock } from '../core/clock.js';
import { ValidationError } from '../core/errors.js';
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Intent } from '../domain/intent.js';
import type { PositionLeg } from '../domain/position.js';
import type { MarketSnapshot } from '../domain/snapshot.js';
import { IntentFactory } from './intent-factory.js';
import type { IntentResult, Strategy } from './strategy.js';
import type { StrategyContext, TradingStateView } from './strategy-context.js';

const NO_INTENTS: readonly Intent[] = Object.freeze([]);

export class StrategyRunner {
  readonly context: StrategyContext;
  private buffer: Intent[] = [];
  private started = false;

  constructor(
    readonly strategyId: StrategyId,
    readonly strategy: Strategy,
    view: TradingStateView,
    clock: Pick<Clock, 'now'>,
  ) {
    const intents = new IntentFactory(strategyId);
    const emit = (...xs: Intent[]): void => {
      this.buffer.push(...xs);
    };
    this.context = Object.freeze({
      strategyId,
      clock: Object.freeze({ now: () => clock.now() }),
      intents,
      emit,
      instrument: (s: InstrumentSymbol) => view.instrument(s),
      position: (s: InstrumentSymbol, leg: PositionLeg = 'net') => {
        // A loop, not find(): asked on every snapshot, and the callback was a closure made per call.
        for (const p of view.positions(strategyId)) if (p.symbol === s && p.leg === leg) return p;
        return undefined;
      },
      positions: () => view.positions(strategyId),
      balance: (asset: string) => view.balances().find((b) => b.asset === asset),
      balances: () => view.balances(),
      openOrders: (s?: InstrumentSymbol) => {
        const mine = view.openOrders(strategyId);
        // The view's own empty answer as it is (the common case); a copy otherwise, as before.
        return mine.length === 0 ? mine : mine.filter((o) => s === undefined || o.symbol === s);
      },
      order: (cid: ClientOrderId) => {
        const o = view.order(cid);
        return o && o.strategyId === strategyId ? o : undefined;
      },
      algoOrders: (s?: InstrumentSymbol) => (view.algoOrders?.(strategyId) ?? []).filter((p) => s === undefined || p.symbol === s),
      lastSnapshot: (s: InstrumentSymbol) => view.lastSnapshot(s),
      protectiveStops: (s: InstrumentSymbol) => view.protectiveStops?.(s),
    });
  }

  get isStarted(): boolean {
    return this.started;
  }

  async start(): Promise<readonly Intent[]> {
    const r = await this.strategy.onStart?.(this.context);
    this.started = true;
    return this.collect(r);
  }

  async stop(): Promise<readonly Intent[]> {
    if (!this.started) return NO_INTENTS;
    const r = await this.strategy.onStop?.(this.context);
    this.started = false;
    return this.collect(r);
  }

  onSnapshot(snapshot: MarketSnapshot): readonly Intent[] {
    if (!this.started) return NO_INTENTS;
    return this.collect(this.strategy.onSnapshot(snapshot, this.context));
  }

  /** Only events of this strategy (or with no strategy, like kill switches) reach it. */
  onExecution(event: ExecutionEvent): readonly Intent[] {
    if (!this.started || !this.strategy.onExecution) return NO_INTENTS;
    if (event.strategyId !== undefined && event.strategyId !== this.strategyId) return NO_INTENTS;
    return this.collect(this.strategy.onExecution(event, this.context));
  }

  private collect(returned: IntentResult): readonly Intent[] {
    // Nothing emitted and nothing returned (nearly every snapshot): one shared empty list, and the
    // buffer is kept for the next call instead of a new one made per call.
    if (this.buffer.length === 0 && (!returned || returned.length === 0)) return NO_INTENTS;
    const out = this.buffer;
    this.buffer = [];
    if (returned) out.push(...returned);
    for (const i of out) {
      if (i.strategyId !== this.strategyId)
        throw new ValidationError(
          'intent.strategyId',
          this.strategyId,
          i.strategyId,
          `strategy ${this.strategyId} emitted an intent for ${i.strategyId}`,
        );
    }
    return out;
  }
}
