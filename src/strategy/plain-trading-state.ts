/**
 * A TradingStateView of plain objects and a runner around a strategy, for strategy unit tests: set
 * the instruments, positions, orders and snapshots a test needs, then feed snapshots to the runner and
 * assert on the intents. Shared by the framework's tests and the `perpetua new-strategy` template.
 */
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { Balance } from '../domain/balance.js';
import type { Instrument } from '../domain/instrument.js';
import type { Order } from '../domain/order.js';
import type { Position, PositionProtection } from '../domain/position.js';
import type { MarketSnapshot } from '../domain/snapshot.js';
import type { Strategy } from './strategy.js';
import type { TradingStateView } from './strategy-context.js';
import { StrategyRunner } from './strategy-runner.js';

export class PlainState implements TradingStateView {
  instruments: Instrument[] = [];
  positionList: Position[] = [];
  orders: Order[] = [];
  balanceList: Balance[] = [];
  snapshots = new Map<string, MarketSnapshot>();
  /** What the venue holds protecting positions (TP/SL, trailing, plan), as the runtime reads it. */
  stopList: PositionProtection[] = [];

  instrument(symbol: InstrumentSymbol): Instrument | undefined {
    return this.instruments.find((i) => i.symbol === symbol);
  }
  positions(_strategyId: StrategyId): readonly Position[] {
    return this.positionList;
  }
  balances(): readonly Balance[] {
    return this.balanceList;
  }
  openOrders(strategyId: StrategyId): readonly Order[] {
    return this.orders.filter((o) => o.strategyId === strategyId);
  }
  order(clientOrderId: ClientOrderId): Order | undefined {
    return this.orders.find((o) => o.clientOrderId === clientOrderId);
  }
  lastSnapshot(symbol: InstrumentSymbol): MarketSnapshot | undefined {
    return this.snapshots.get(symbol);
  }
  protectiveStops(symbol: InstrumentSymbol): readonly PositionProtection[] {
    return this.stopList.filter((s) => s.symbol === symbol);
  }
}

/** A started runner (onStart called) over `state`, with a fixed clock. */
export async function started(
  id: StrategyId,
  strategy: Strategy,
  state: PlainState,
  now = 1_000_000,
): Promise<{ runner: StrategyRunner; startIntents: ReturnType<StrategyRunner['onSnapshot']> }> {
  const runner = new StrategyRunner(id, strategy, state, { now: () => now });
  const startIntents = await runner.start();
  return { runner, startIntents };
}
