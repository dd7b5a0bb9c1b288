/**
 * A strategy's read-only view of the world. Everything comes from caches the runtime updates before
 * it calls the strategy (cache first, then publish), so a strategy never awaits anything.
 */
import type { Clock } from '../core/clock.js';
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { AlgoParent } from '../domain/algo-parent.js';
import type { Balance } from '../domain/balance.js';
import type { Instrument } from '../domain/instrument.js';
import type { Intent } from '../domain/intent.js';
import type { Order } from '../domain/order.js';
import type { Position, PositionLeg, PositionProtection } from '../domain/position.js';
import type { MarketSnapshot } from '../domain/snapshot.js';
import type { IntentFactory } from './intent-factory.js';

export interface StrategyContext {
  readonly strategyId: StrategyId;
  /** Time only; strategies do not schedule timers (cadence comes from the data). */
  readonly clock: Pick<Clock, 'now'>;
  instrument(symbol: InstrumentSymbol): Instrument | undefined;
  /** This strategy's position on the symbol (leg `net` unless hedged). */
  position(symbol: InstrumentSymbol, leg?: PositionLeg): Position | undefined;
  positions(): readonly Position[];
  /** Account balance of an asset (spot and contract settle coins). */
  balance(asset: string): Balance | undefined;
  balances(): readonly Balance[];
  /** This strategy's live orders, optionally of one symbol. */
  openOrders(symbol?: InstrumentSymbol): readonly Order[];
  order(clientOrderId: ClientOrderId): Order | undefined;
  /**
   * This strategy's execution algorithms (TWAP, iceberg), working ones first, then the newest finished:
   * filled, average price, remaining, in flight and state, measured from the children's venue fills.
   * Find the parent of an intent you emitted by its intentId.
   */
  algoOrders(symbol?: InstrumentSymbol): readonly AlgoParent[];
  lastSnapshot(symbol: InstrumentSymbol): MarketSnapshot | undefined;
  /**
   * The TP/SL orders the venue held on the account's positions of the symbol when last read (start-up,
   * then each reconciliation that looks); undefined when never read (no such orders at the venue, a
   * backtest). A strategy restarted on an open position reads it before arming a second one.
   */
  protectiveStops(symbol: InstrumentSymbol): readonly PositionProtection[] | undefined;
  /** Builds intents with ids and this strategy's id filled in. */
  readonly intents: IntentFactory;
  /** Queues intents; the runner collects them after the hook returns. */
  emit(...intents: Intent[]): void;
}

/**
 * The state a context reads. The runtime implements it over the order manager, the portfolio and the
 * snapshot cache; tests implement it with plain objects.
 */
export interface TradingStateView {
  instrument(symbol: InstrumentSymbol): Instrument | undefined;
  positions(strategyId: StrategyId): readonly Position[];
  balances(): readonly Balance[];
  /** Live orders of the strategy. */
  openOrders(strategyId: StrategyId): readonly Order[];
  order(clientOrderId: ClientOrderId): Order | undefined;
  lastSnapshot(symbol: InstrumentSymbol): MarketSnapshot | undefined;
  /** Execution algorithms' parents of the strategy; optional (views without an order manager have none). */
  algoOrders?(strategyId: StrategyId): readonly AlgoParent[];
  /** Venue TP/SL orders of the symbol as last read; optional (views without a venue have none). */
  protectiveStops?(symbol: InstrumentSymbol): readonly PositionProtection[] | undefined;
}
