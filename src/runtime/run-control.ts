/**
 * What an operator can ask of a running strategy (the console's control port), and the intents each
 * action turns into. The intents are the strategy's own kind, made with its own intent factory, so
 * they go through the same risk rules and order manager as anything the strategy asks.
 */
import type { StrategyId } from '../core/ids.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Intent } from '../domain/intent.js';
import type { InstrumentKind } from '../domain/order.js';
import type { StrategyRunner } from '../strategy/strategy-runner.js';
import type { TradingState } from './trading-state.js';

export const CONTROL_ACTIONS = ['pause', 'resume', 'cancel-orders', 'flatten'] as const;
export type ControlActionName = (typeof CONTROL_ACTIONS)[number];

export interface ControlAction {
  readonly action: ControlActionName;
  readonly strategyId: StrategyId;
}

export interface ControlOutcome extends ControlAction {
  /** Whether the strategy is paused after the action. */
  readonly paused: boolean;
  /** The intents the action sent through risk and the order managers (none for pause / resume). */
  readonly intents: readonly Intent[];
  /** Every event the job produced: submissions, fills, cancels, denials (with their rule) … */
  readonly events: readonly ExecutionEvent[];
}

/**
 * cancel-orders: one cancel-all of the strategy's own orders (every venue it trades on).
 * flatten: that cancel, then a market order against each open position of the strategy's book
 * (reduce-only on a one-way contract position; on a hedged leg, the side that closes that leg). pause / resume: no intents.
 */
export function controlIntents(
  action: ControlAction,
  runner: StrategyRunner,
  state: TradingState,
  venues: readonly { readonly kind: InstrumentKind; readonly orders: { liveOrders(f: { strategyId: StrategyId }): readonly unknown[] } }[],
): Intent[] {
  if (action.action === 'pause' || action.action === 'resume') return [];
  const f = runner.context.intents;
  const out: Intent[] = [];
  if (venues.some((v) => v.orders.liveOrders({ strategyId: action.strategyId }).length > 0)) out.push(f.cancelAll(undefined, 'strategy'));
  if (action.action === 'cancel-orders') return out;
  for (const p of state.strategyBook(action.strategyId).positions()) {
    if (p.quantity.isZero()) continue;
    const side = p.quantity.isPositive() ? 'sell' : 'buy';
    const qty = p.quantity.abs();
    // A hedged leg is closed by the opposite side on that leg; a one-way position by a reduce-only order.
    const opts = p.kind !== 'contract' ? {} : p.leg === 'net' ? { reduceOnly: true } : { positionSide: p.leg };
    out.push(f.market(p.symbol, side, qty, opts));
  }
  return out;
}
