/**
 * The one event delivery of both venues (issue 12): what a command queues is delivered after the
 * command, in queue order, to a snapshot of the listeners.
 *
 * Failure rule — a venue must never lose or reorder events for other listeners because one of them
 * failed. So a throwing listener (or deferred task) does not stop delivery: every other listener still
 * gets this item and every later item of the flush, and the first error is rethrown once the queue is
 * empty, so the command's caller still sees the failing subscriber instead of it being swallowed
 * (ListenerFailures). The alternative — stop at the first throw — would leave the rest of the queue
 * undelivered (or delivered late, behind the next command's items) to listeners that did nothing wrong.
 *
 * Re-entrancy: a listener may run a command. Its items are appended to the queue being drained and
 * delivered by the same loop, after everything queued before them (a nested flush returns at once),
 * so every listener sees one global order.
 */
import { ListenerFailures } from './listener-failures.js';

/** A listener list copied on write, so delivery reads a stable snapshot without copying per item. */
export class Listeners<T> {
  private list: readonly ((item: T) => void)[] = [];

  get size(): number {
    return this.list.length;
  }

  /** The current listeners; a later add / remove makes a new array and leaves this one unchanged. */
  get snapshot(): readonly ((item: T) => void)[] {
    return this.list;
  }

  /** Adds a listener; the returned function removes it (once). */
  add(listener: (item: T) => void): () => void {
    this.list = [...this.list, listener];
    return () => {
      const i = this.list.indexOf(listener);
      if (i >= 0) this.list = [...this.list.slice(0, i), ...this.list.slice(i + 1)];
    };
  }
}

/**
 * Ordered, re-entrancy-safe delivery of queued items through `deliver` (which hands an item to its
 * listeners with the queue's ListenerFailures, so a throw is recorded, not propagated mid-flush).
 */
export class DeliveryQueue<I> {
  private readonly items: I[] = [];
  private flushing = false;
  private readonly failures = new ListenerFailures();

  constructor(private readonly deliver: (item: I, failures: ListenerFailures) => void) {}

  push(item: I): void {
    this.items.push(item);
  }

  flush(): void {
    // Most commands queue nothing for a given queue (no fill, no tick): skip the try/finally then.
    if (this.flushing || this.items.length === 0) return;
    this.flushing = true;
    try {
      // Drained by index, not shift() (which moves every later item); an item queued by a listener is
      // appended and reached by the same loop; the array is emptied once, at the end.
      for (let i = 0; i < this.items.length; i++) this.deliver(this.items[i]!, this.failures);
    } finally {
      this.items.length = 0;
      this.flushing = false;
    }
    this.failures.rethrow();
  }
}

/** One kind of event to one list of listeners (the spot venue has two: events and trade ticks). */
export class EventQueue<E> {
  private readonly listeners = new Listeners<E>();
  private readonly queue = new DeliveryQueue<E>((e, failures) => failures.deliver(this.listeners.snapshot, e));

  /** Whether anyone listens (a venue builds an event only then). */
  get active(): boolean {
    return this.listeners.size !== 0;
  }

  subscribe(listener: (e: E) => void): () => void {
    return this.listeners.add(listener);
  }

  push(event: E): void {
    this.queue.push(event);
  }

  flush(): void {
    this.queue.flush();
  }
}
