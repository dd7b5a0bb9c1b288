/** A TradingStateView of plain objects and a runner around a strategy, for strategy unit tests. */
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../../../src/core/ids.js';
import type { Balance } from '../../../src/domain/balance.js';
import type { Instrument } from '../../../src/domain/instrument.js';
import type { Order } from '../../../src/domain/order.js';
import type { Position } from '../../../src/domain/position.js';
import type { MarketSnapshot } from '../../../src/domain/snapshot.js';
import type { Strategy } from '../../../src/strategy/strategy.js';
import type { TradingStateView } from '../../../src/strategy/strategy-context.js';
import { StrategyRunner } from '../../../src/strategy/strategy-runner.js';

export class PlainState implements TradingStateView {
  instruments: Instrument[] = [];
  positionList: Position[] = [];
  orders: Order[] = [];
  snapshots = new Map<string, MarketSnapshot>();

  instrument(symbol: InstrumentSymbol): Instrument | undefined {
    return this.instruments.find((i) => i.symbol === symbol);
  }
  positions(_strategyId: StrategyId): readonly Position[] {
    return this.positionList;
  }
  balances(): readonly Balance[] {
    return [];
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
}

export async function started(id: StrategyId, strategy: Strategy, state: PlainState, now = 1_000_000): Promise<{ runner: StrategyRunner; startIntents: ReturnType<StrategyRunner['onSnapshot']> }> {
  const runner = new StrategyRunner(id, strategy, state, { now: () => now });
  const startIntents = await runner.start();
  return { runner, startIntents };
}
