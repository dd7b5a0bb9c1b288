/**
 * A token bucket over the injected clock: how many order calls may go out now. The client's rate
 * limiter is the hard guard; this budget lets the quote diff choose WHICH calls to make when not all
 * fit, instead of queueing them behind the limiter and quoting stale prices.
 */
import type { Clock } from '../core/clock.js';

export class RateBudget {
  private tokens: number;
  private last: number;

  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    /** Calls per second, and the burst size. */
    readonly perSecond: number,
    readonly burst: number = perSecond,
  ) {
    if (!(perSecond > 0) || !(burst > 0)) throw new RangeError(`rate budget needs perSecond > 0 and burst > 0, got ${perSecond}, ${burst}`);
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Whole calls available now. */
  available(): number {
    this.refill();
    return Math.floor(this.tokens);
  }

  /** Spends `n` calls (may go negative: calls made outside the budget still count). */
  consume(n: number): void {
    this.refill();
    this.tokens -= n;
  }

  private refill(): void {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
      this.last = now;
    }
  }
}
