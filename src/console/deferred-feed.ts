/**
 * Follows the runtime's event stream off the trading path. The runtime emits events synchronously
 * inside the snapshot → intent → request span; a console subscriber that builds JSON, hashes labels or
 * fills rings there makes every snapshot slower (the runtime-core bench measured 1.18–1.41× p50 with
 * the console on). Here the subscriber only appends the event reference to an array; the work runs in
 * one batch on the next turn of the event loop (setImmediate: between snapshots, not inside one).
 * Readers call `drain()` first, so a view asked for before that turn still sees every event.
 */
import type { Observable, Subscription } from 'rxjs';

export class DeferredFeed<T> {
  private inbox: T[] = [];
  private sub: Subscription | undefined;
  private scheduled = false;
  private readonly onTurn = (): void => {
    this.scheduled = false;
    this.drain();
  };

  constructor(private readonly apply: (item: T) => void) {}

  follow(source$: Observable<T>): void {
    this.sub = source$.subscribe((x) => this.push(x));
  }

  /** Queues one item; the first of a batch schedules the drain. */
  push(x: T): void {
    if (this.inbox.push(x) === 1 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(this.onTurn);
    }
  }

  /** Applies every queued item now (in order); a no-op when none is waiting. */
  drain(): void {
    if (this.inbox.length === 0) return;
    const batch = this.inbox;
    this.inbox = [];
    for (const x of batch) this.apply(x);
  }

  /** Stops following; what was queued is applied first. */
  stop(): void {
    this.sub?.unsubscribe();
    this.sub = undefined;
    this.drain();
  }
}
