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

/**
 * A listener list. Each item goes to the listeners there were when its delivery started: one added
 * meanwhile gets only later items, one removed meanwhile still gets this one. The array is changed in
 * place and copied only when it changes during a delivery, so delivery allocates nothing, and outside
 * delivery the list keeps its identity (the emulator's snapshot restore counts a listener list's
 * functions at the same place after re-wiring: a trigger book re-adds its price watcher there).
 */
export class Listeners<T> {
  private list: ((item: T) => void)[] = [];
  private delivering = 0;

  get size(): number {
    return this.list.length;
  }

  /** Adds a listener; the returned function removes it (once). */
  add(listener: (item: T) => void): () => void {
    this.own().push(listener);
    let removed = false;
    return () => {
      // Idempotent: a second call must not remove another subscription of the same function.
      if (removed) return;
      removed = true;
      const i = this.list.indexOf(listener);
      if (i >= 0) this.own().splice(i, 1);
    };
  }

  /** Calls every listener with `item`; a throw is recorded in `failures`, not propagated. */
  deliver(item: T, failures: ListenerFailures): void {
    const list = this.list;
    this.delivering++;
    try {
      failures.deliver(list, item);
    } finally {
      this.delivering--;
    }
  }

  /** The array to change: a copy while a delivery iterates the current one. */
  private own(): ((item: T) => void)[] {
    if (this.delivering > 0) this.list = [...this.list];
    return this.list;
  }
}

/**
 * Ordered, re-entrancy-safe delivery of queued items through `deliver` (which hands an item to its
 * listeners with the queue's ListenerFailures, so a throw is recorded, not propagated mid-flush).
 */
export class DeliveryQueue<I> {
  /**
   * Slots [0, count) hold the queued items. A count, not the array's length: emptying an array by
   * `length = 0` takes V8's slow path (≈140–230 ns against ≈5–20 ns for a count, node 20 micro-run),
   * and a command's flush emptied it once per command that queued anything (3 a bar in a kline run).
   */
  private readonly items: (I | undefined)[] = [];
  private count = 0;
  private flushing = false;
  private readonly failures = new ListenerFailures();

  constructor(private readonly deliver: (item: I, failures: ListenerFailures) => void) {}

  push(item: I): void {
    this.items[this.count++] = item;
  }

  flush(): void {
    // Most commands queue nothing for a given queue (no fill, no tick): skip the try/finally then.
    if (this.flushing || this.count === 0) return;
    this.flushing = true;
    let i = 0;
    try {
      // Drained by index, not shift() (which moves every later item); an item queued by a listener is
      // appended and reached by the same loop. Each slot is cleared as it is delivered, so the queue
      // keeps no delivered item alive.
      for (; i < this.count; i++) {
        const item = this.items[i]!;
        this.items[i] = undefined;
        this.deliver(item, this.failures);
      }
    } finally {
      // A throw out of deliver (ListenerFailures records a listener's throw, so only a defect) drops
      // what is left, as the length reset did.
      for (let k = i; k < this.count; k++) this.items[k] = undefined;
      this.count = 0;
      this.flushing = false;
    }
    this.failures.rethrow();
  }
}

/** One kind of event to one list of listeners (the spot venue has two: events and trade ticks). */
export class EventQueue<E> {
  private readonly listeners = new Listeners<E>();
  private readonly queue = new DeliveryQueue<E>((e, failures) => this.listeners.deliver(e, failures));

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
