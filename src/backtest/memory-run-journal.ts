/**
 * The journal of a backtest: the RunJournal interface held in memory. A backtest has nothing to
 * survive (the venue is rebuilt for every run), and writing every order and event through SQLite
 * costs more than the strategy, the risk checks and the order manager together — so the runtime gets
 * the same calls, answered from arrays and maps.
 *
 * `history: false` (what backtests use): only what a run reads back is kept — live orders, counted
 * trade ids, positions. The run's record is built from the order managers' events (backtest-runner),
 * so keeping every order and event here only grew memory with the run (a 90-day market maker: 133k
 * orders). orders() and events() then refuse instead of answering with a part.
 */
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Intent } from '../domain/intent.js';
import { isTerminal, type Order } from '../domain/order.js';
import { positionKey, type Position } from '../domain/position.js';
import type { JournalSnapshot } from '../execution/order-journal.js';
import type { ControlEntry, RunInfo, RunJournal } from '../persistence/run-journal.js';

export class MemoryRunJournal implements RunJournal {
  private readonly runList: RunInfo[] = [];
  private readonly controls: ControlEntry[] = [];
  private readonly orderMap = new Map<string, Order>();
  private readonly eventList: ExecutionEvent[] = [];
  private readonly positionMap = new Map<string, Position>();
  private readonly trades = new Set<string>();
  private lastFillTime: number | undefined;
  private readonly history: boolean;
  intents = 0;

  constructor(opts: { history?: boolean } = {}) {
    this.history = opts.history ?? true;
  }

  startRun(configHash: string, mode: string, startedAt: number): RunInfo {
    const run: RunInfo = { id: this.runList.length + 1, startedAt, configHash, mode };
    this.runList.push(run);
    return run;
  }

  endRun(endedAt: number, exitReason: string): void {
    const i = this.runList.length - 1;
    if (i >= 0) this.runList[i] = { ...this.runList[i]!, endedAt, exitReason };
  }

  runs(): RunInfo[] {
    return [...this.runList];
  }

  lastUncleanRun(): RunInfo | undefined {
    return this.runList.filter((r) => r.endedAt === undefined).at(-1);
  }

  recordIntent(_intent: Intent, _ts: number): void {
    this.intents++;
  }

  recordOrder(order: Order): void {
    if (!this.history && isTerminal(order.status)) this.orderMap.delete(order.clientOrderId);
    else this.orderMap.set(order.clientOrderId, order);
  }

  /** Backtests have no operator: nothing to keep. */
  recordControl(entry: ControlEntry): void {
    this.controls.push(entry);
  }

  controlActions(): ControlEntry[] {
    return [...this.controls];
  }

  recordEvent(event: ExecutionEvent): void {
    if (this.history) this.eventList.push(event);
    if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') {
      this.trades.add(event.fill.tradeId);
      this.lastFillTime = Math.max(this.lastFillTime ?? 0, event.fill.time);
    }
  }

  recordPosition(position: Position): void {
    this.positionMap.set(positionKey(position.symbol, position.leg), position);
  }

  restore(): JournalSnapshot {
    return {
      orders: [...this.orderMap.values()].filter((o) => !isTerminal(o.status)),
      seenTradeIds: [...this.trades],
      ...(this.lastFillTime !== undefined ? { lastFillTime: this.lastFillTime } : {}),
    };
  }

  positions(): Position[] {
    return [...this.positionMap.values()];
  }

  order(clientOrderId: string): Order | undefined {
    return this.orderMap.get(clientOrderId);
  }

  /** Every order, in the order it was first recorded. */
  orders(): Order[] {
    this.mustKeepHistory('orders');
    return [...this.orderMap.values()];
  }

  fillCount(): number {
    return this.trades.size;
  }

  events(): ExecutionEvent[] {
    this.mustKeepHistory('events');
    return [...this.eventList];
  }

  private mustKeepHistory(what: string): void {
    if (!this.history)
      throw new Error(
        `this in-memory journal keeps no history (history: false): ${what}() would answer with a part; the run's record comes from the order managers' events`,
      );
  }

  close(): void {}
}
