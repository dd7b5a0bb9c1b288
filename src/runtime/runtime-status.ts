/**
 * What the status line, the console and the end-of-run report show: per strategy its positions, P&L,
 * fees, live orders and counters; for the run its marks, equity, balances, kill switch and last denial.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { InstrumentSymbol, StrategyId } from '../core/ids.js';
import { totalOf } from '../domain/balance.js';
import type { AlgoParent } from '../domain/algo-parent.js';
import type { Order } from '../domain/order.js';
import { midPrice } from '../domain/snapshot.js';
import type { RunStats, StrategyCounters } from './run-stats.js';
import type { TradingRuntimeOptions } from './runtime-options.js';
import type { TradingState } from './trading-state.js';

export interface PositionLine {
  readonly symbol: InstrumentSymbol;
  readonly leg: string;
  readonly quantity: Decimal;
  readonly entryPrice: Decimal;
}

export interface StrategyStatus {
  readonly id: StrategyId;
  readonly name: string;
  readonly positions: readonly PositionLine[];
  readonly realizedPnl: Decimal;
  /** Undefined when a position has no mark yet. */
  readonly unrealizedPnl?: Decimal;
  readonly fees: Decimal;
  readonly openOrders: number;
  /** The live orders themselves (side, quantity, price), for the status line. */
  readonly orders: readonly {
    readonly symbol: InstrumentSymbol;
    readonly side: string;
    readonly price?: Decimal;
    readonly quantity?: Decimal;
  }[];
  /** Execution algorithms (TWAP, iceberg): working ones, then the newest finished. */
  readonly algos: readonly AlgoParent[];
  readonly counters: StrategyCounters;
}

export interface RuntimeStatus {
  readonly now: number;
  readonly elapsedMs: number;
  readonly marks: readonly { symbol: InstrumentSymbol; mid?: Decimal }[];
  readonly strategies: readonly StrategyStatus[];
  readonly totals: StrategyCounters;
  readonly equity?: Decimal;
  readonly killSwitch?: string;
  /** Non-zero account balances (asset, total), as the venue last reported them. */
  readonly balances: readonly { readonly asset: string; readonly total: Decimal }[];
  /** The newest denial, `rule: reason`. */
  readonly lastDenial?: string;
  readonly staleSnapshots: number;
  readonly snapshots: number;
}

export interface RunSummary extends RuntimeStatus {
  readonly reason: string;
  readonly runId: number;
  /** Orders cancelled by the exit cancel. */
  readonly cancelledOnExit: number;
  /** Our orders still open at the venue after shutdown (cancelOnExit off, or a cancel failed). */
  readonly openOrdersLeft: readonly Order[];
}

/** The run's status now, read from the caches and counters (no venue call). */
export function runtimeStatus(o: TradingRuntimeOptions, state: TradingState, stats: RunStats, startedAt: number): RuntimeStatus {
  const now = o.clock.now();
  const strategies: StrategyStatus[] = o.strategies.map((s) => {
    const book = state.strategyBook(s.id);
    const u = book.unrealized(state.mark);
    return {
      id: s.id,
      name: s.name,
      positions: book
        .positions()
        .filter((p) => !p.quantity.isZero())
        .map((p) => ({ symbol: p.symbol, leg: p.leg, quantity: p.quantity, entryPrice: p.entryPrice })),
      realizedPnl: book.realizedPnl(),
      ...(u.missing.length === 0 ? { unrealizedPnl: u.value } : {}),
      fees: book.fees().get(o.valuationAsset) ?? ZERO,
      openOrders: state.openOrders(s.id).length,
      orders: state.openOrders(s.id).map((x) => ({
        symbol: x.symbol,
        side: x.side,
        ...(x.price ? { price: x.price } : {}),
        ...(x.quantity ? { quantity: x.quantity } : {}),
      })),
      algos: state.algoOrders(s.id),
      counters: stats.of(s.id),
    };
  });
  const last = state.equity.latest();
  return {
    now,
    elapsedMs: now - startedAt,
    marks: o.market.symbols.map((symbol) => {
      const mid = midPrice(state.lastSnapshot(symbol));
      return { symbol, ...(mid ? { mid } : {}) };
    }),
    strategies,
    totals: stats.total(),
    ...(last ? { equity: last.equity } : {}),
    ...(stats.killSwitch ? { killSwitch: stats.killSwitch } : {}),
    balances: state
      .balances()
      .map((b) => ({ asset: b.asset, total: totalOf(b) }))
      .filter((b) => !b.total.isZero()),
    ...(stats.lastDenial ? { lastDenial: stats.lastDenial } : {}),
    staleSnapshots: stats.staleSnapshots,
    snapshots: stats.snapshots,
  };
}
