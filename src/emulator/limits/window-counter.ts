/**
 * Fixed-window request counters keyed by IP, account or endpoint, on the emulator's clock (so a test
 * with a virtual clock sees exact window edges). A refusal says how long until the window resets,
 * which becomes the Retry-After header.
 */
import type { Clock } from '../../core/clock.js';

interface Window {
  start: number;
  used: number;
}

export class WindowCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: Clock,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Spends `cost` from `key`'s current window: undefined when allowed, else ms until the window resets. */
  take(key: string, cost = 1): number | undefined {
    const now = this.clock.now();
    const start = now - (((now % this.windowMs) + this.windowMs) % this.windowMs);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      if (this.windows.size > 10_000) this.prune(start);
      w = { start, used: 0 };
      this.windows.set(key, w);
    }
    if (w.used + cost > this.limit) return start + this.windowMs - now;
    w.used += cost;
    return undefined;
  }

  /** What is left in `key`'s current window. */
  remaining(key: string): number {
    const now = this.clock.now();
    const start = now - (((now % this.windowMs) + this.windowMs) % this.windowMs);
    const w = this.windows.get(key);
    return !w || w.start !== start ? this.limit : Math.max(0, this.limit - w.used);
  }

  reset(): void {
    this.windows.clear();
  }

  private prune(currentStart: number): void {
    for (const [k, w] of this.windows) if (w.start < currentStart) this.windows.delete(k);
  }
}
