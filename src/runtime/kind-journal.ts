/**
 * One journal, one order manager per account kind (spot and contract gateways differ in amend, chase
 * and batching, so each kind has its own manager). Every manager writes to the same SQLite journal;
 * this view makes each one restore only the orders of its own kind, so an order is owned by exactly
 * one manager after a restart.
 */
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Intent } from '../domain/intent.js';
import type { InstrumentKind, Order } from '../domain/order.js';
import type { JournalSnapshot, OrderJournal } from '../execution/order-journal.js';

export class KindJournal implements OrderJournal {
  constructor(
    private readonly journal: OrderJournal,
    readonly kind: InstrumentKind,
  ) {}

  recordIntent(intent: Intent, ts: number): void | Promise<void> {
    return this.journal.recordIntent(intent, ts);
  }

  recordOrder(order: Order): void | Promise<void> {
    return this.journal.recordOrder(order);
  }

  recordEvent(event: ExecutionEvent): void | Promise<void> {
    return this.journal.recordEvent(event);
  }

  async restore(): Promise<JournalSnapshot> {
    const snap = await this.journal.restore();
    return { ...snap, orders: snap.orders.filter((o) => o.kind === this.kind) };
  }
}
