/**
 * The one failure behaviour of both venues' event delivery (issue 12): a listener that throws does not
 * stop delivery — every other listener still gets this item and every later item of the flush — and
 * the first error is rethrown once the queue is empty, so a failing subscriber is still seen by the
 * command's caller instead of being swallowed.
 */
export class ListenerFailures {
  private failed = false;
  private first: unknown;

  /** Calls each listener with `item`, remembering the first error. The list is the caller's snapshot. */
  deliver<T>(listeners: readonly ((item: T) => void)[], item: T): void {
    for (const l of listeners) {
      try {
        l(item);
      } catch (err) {
        this.record(err);
      }
    }
  }

  /** Runs one step of a flush that is not a listener call (a deferred task), with the same rule. */
  run(task: () => void): void {
    try {
      task();
    } catch (err) {
      this.record(err);
    }
  }

  /** Throws the first error recorded since the last call, if any. */
  rethrow(): void {
    if (!this.failed) return;
    const err = this.first;
    this.failed = false;
    this.first = undefined;
    throw err;
  }

  private record(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.first = err;
  }
}
