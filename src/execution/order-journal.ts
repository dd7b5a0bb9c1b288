/**
 * The write-ahead record of intents, orders and events (docs/architecture.md rule 6: a client id is journaled
 * BEFORE its request is sent). The SQLite journal implements it; MemoryOrderJournal below serves
 * backtests and tests. Methods may be synchronous (better-sqlite3) or async; the order manager awaits
 * each one before going on, so a record that returned is durable.
 */
import type { AlgoParent } from '../domain/algo-parent.js';
import type { AlgoUpdated, ExecutionEvent } from '../domain/execution-event.js';
import type { Fill } from '../domain/fill.js';
import type { Intent } from '../domain/intent.js';
import type { Order } from '../domain/order.js';

export interface JournalSnapshot {
  /** Latest known state of every order not closed (and recently closed ones, for dedupe). */
  readonly orders: readonly Order[];
  /** Trade ids already counted. */
  readonly seenTradeIds: readonly string[];
  /** Watermark for fillsSince() after a restart, ms: the newest journaled fill of any symbol. */
  readonly lastFillTime?: number;
  /**
   * The newest journaled fill per symbol, ms. A restart reads each symbol's fills from its own
   * watermark: one shared watermark (the newest fill of any symbol, often a busy spot quote) skipped a
   * quieter symbol's fills made before it, such as a TP/SL close of a contract position (chaos suite).
   */
  readonly lastFillTimeBySymbol?: Readonly<Record<string, number>>;
  /** Fills of VenueFill events (orders not ours), oldest first: what each venue order has booked. */
  readonly venueFills?: readonly Fill[];
  /** Execution algorithms' parents whose last journaled state is `working` (AlgoUpdated events). */
  readonly algoParents?: readonly AlgoParent[];
}

/** The parents left working by a list of AlgoUpdated events in journal order: each parent's newest state decides. */
export function workingAlgoParents(updates: Iterable<AlgoUpdated>): AlgoParent[] {
  const last = new Map<string, AlgoParent>();
  for (const u of updates) last.set(u.parent.parentId, u.parent);
  return [...last.values()].filter((p) => p.state === 'working');
}

export interface OrderJournal {
  recordIntent(intent: Intent, ts: number): void | Promise<void>;
  /** Upsert by client id; first called with status `initialized` before the request is sent. */
  recordOrder(order: Order): void | Promise<void>;
  recordEvent(event: ExecutionEvent): void | Promise<void>;
  /** State to resume from after a restart. */
  restore(): JournalSnapshot | Promise<JournalSnapshot>;
}

export class MemoryOrderJournal implements OrderJournal {
  readonly intents: { intent: Intent; ts: number }[] = [];
  readonly events: ExecutionEvent[] = [];
  private readonly orders = new Map<string, Order>();
  private readonly trades = new Set<string>();
  private lastFillTime: number | undefined;
  private readonly lastFillBySymbol: Record<string, number> = {};

  recordIntent(intent: Intent, ts: number): void {
    this.intents.push({ intent, ts });
  }

  recordOrder(order: Order): void {
    this.orders.set(order.clientOrderId, order);
  }

  recordEvent(event: ExecutionEvent): void {
    this.events.push(event);
    if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled' || event.type === 'VenueFill') {
      this.trades.add(event.fill.tradeId);
      this.lastFillTime = Math.max(this.lastFillTime ?? 0, event.fill.time);
      this.lastFillBySymbol[event.fill.symbol] = Math.max(this.lastFillBySymbol[event.fill.symbol] ?? 0, event.fill.time);
    }
  }

  restore(): JournalSnapshot {
    const algoParents = workingAlgoParents(this.events.filter((e): e is AlgoUpdated => e.type === 'AlgoUpdated'));
    return {
      orders: [...this.orders.values()],
      seenTradeIds: [...this.trades],
      ...(algoParents.length > 0 ? { algoParents } : {}),
      ...(this.lastFillTime !== undefined ? { lastFillTime: this.lastFillTime, lastFillTimeBySymbol: { ...this.lastFillBySymbol } } : {}),
    };
  }

  order(clientOrderId: string): Order | undefined {
    return this.orders.get(clientOrderId);
  }
}
