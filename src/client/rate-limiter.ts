/**
 * Client-side rate limiting: requests WAIT (on the injected Clock) instead of being sent into a 429.
 * Pure apart from the clock: no I/O, every decision is a function of the recorded grants and now().
 *
 * Each bucket is a sliding window ("at most `limit` weight in any `windowMs`"), which is never looser
 * than the venue's fixed windows, whatever their phase. Waiters are served by (priority, arrival):
 * when a bucket is short, a waiting cancel goes before a waiting new order, and a lower-priority waiter
 * may not take from a bucket a higher-priority waiter is short of (no overtaking). Waiters that need
 * other buckets are not held up (market data keeps flowing while orders queue).
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import { weightOf, type EndpointDef, type RateBucket } from '../api/endpoint.js';

export interface WindowLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export interface RateLimitConfig {
  /** Per-IP weight budget shared by every spot request. */
  readonly ipWeight: WindowLimit;
  /** Spot place, batch, cancel, cancel-all: 12 per second per account (shared). */
  readonly spotOrders: WindowLimit;
  /** Spot account information: 2 per second. */
  readonly spotAccount: WindowLimit;
  /** Spot batch placement: 2 per second. */
  readonly spotBatch: WindowLimit;
  /** Each contract endpoint on its own: about 20 per 2 seconds. */
  readonly contractEndpoint: WindowLimit;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = Object.freeze({
  // The venue does not publish the per-IP budget (spot-api.md §8 "not shown"); wire-protocol.md says
  // "about 20 requests/s overall" and figures of 500 weight per 10 s circulate. 200 per 10 s keeps a
  // steady 20 weight-1 requests/s and stays well under either reading: a ban costs far more than a wait.
  ipWeight: { limit: 200, windowMs: 10_000 },
  spotOrders: { limit: 12, windowMs: 1_000 },
  spotAccount: { limit: 2, windowMs: 1_000 },
  spotBatch: { limit: 2, windowMs: 1_000 },
  // "about 20 per 2 s": 18 leaves room for the venue counting a request we timed out on.
  contractEndpoint: { limit: 18, windowMs: 2_000 },
});

export interface Permit {
  /** Bucket key, e.g. `ip-weight`, `spot-orders`, `contract-endpoint:contract.createOrder`. */
  readonly bucket: string;
  readonly weight: number;
}

/** Lower goes first. */
export const PRIORITY = { CANCEL: 0, NORMAL: 1 } as const;

class SlidingWindow {
  private readonly at: number[] = [];
  private readonly w: number[] = [];
  private head = 0;
  private used = 0;
  pausedUntil = 0;

  constructor(readonly cfg: WindowLimit) {}

  private prune(now: number): void {
    const cutoff = now - this.cfg.windowMs;
    while (this.head < this.at.length && this.at[this.head]! <= cutoff) {
      this.used -= this.w[this.head]!;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.at.length) {
      this.at.splice(0, this.head);
      this.w.splice(0, this.head);
      this.head = 0;
    }
  }

  /** A weight above the whole budget could never pass; it is charged as the whole budget instead. */
  private clamp(weight: number): number {
    return Math.min(Math.max(0, weight), this.cfg.limit);
  }

  /** Earliest time ≥ now at which `weight` fits. */
  availableAt(now: number, weight: number): number {
    this.prune(now);
    const need = this.clamp(weight);
    let t = now;
    if (this.used + need > this.cfg.limit) {
      let freed = 0;
      for (let i = this.head; i < this.at.length; i++) {
        freed += this.w[i]!;
        if (this.used - freed + need <= this.cfg.limit) {
          t = this.at[i]! + this.cfg.windowMs;
          break;
        }
      }
    }
    return Math.max(t, this.pausedUntil);
  }

  take(now: number, weight: number): void {
    this.at.push(now);
    this.w.push(this.clamp(weight));
    this.used += this.clamp(weight);
  }

  inUse(now: number): number {
    this.prune(now);
    return this.used;
  }
}

interface Waiter {
  readonly permits: readonly Permit[];
  readonly priority: number;
  readonly seq: number;
  readonly resolve: () => void;
}

export class RateLimiter {
  private readonly cfg: RateLimitConfig;
  private readonly windows = new Map<string, SlidingWindow>();
  private readonly waiters: Waiter[] = [];
  private seq = 0;
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;

  constructor(
    private readonly clock: Clock,
    config: Partial<RateLimitConfig> = {},
  ) {
    this.cfg = { ...DEFAULT_RATE_LIMITS, ...config };
  }

  /** The permits a call to `def` with these (validated) parameters needs. */
  permitsFor(def: EndpointDef, params: Record<string, unknown>): Permit[] {
    const out: Permit[] = [];
    for (const b of def.buckets)
      out.push(b === 'ip-weight' ? { bucket: b, weight: weightOf(def, params) } : { bucket: bucketKey(b, def), weight: 1 });
    return out;
  }

  /** Cancels jump the queue: freeing exposure beats adding it. */
  priorityOf(def: EndpointDef): number {
    return def.method === 'DELETE' || /cancel/i.test(def.clientMethod) ? PRIORITY.CANCEL : PRIORITY.NORMAL;
  }

  /** Resolves when every permit has been granted (immediately when nothing is queued and all fit). */
  acquire(permits: readonly Permit[], priority: number = PRIORITY.NORMAL): Promise<void> {
    if (permits.length === 0) return Promise.resolve();
    if (this.waiters.length === 0 && this.tryTake(permits, this.clock.now())) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const w: Waiter = { permits, priority, seq: this.seq++, resolve };
      let i = this.waiters.length;
      while (i > 0 && compare(this.waiters[i - 1]!, w) > 0) i--;
      this.waiters.splice(i, 0, w);
      this.pump();
    });
  }

  /** Grants now or not at all (no queueing); false when anything is queued ahead on these buckets. */
  tryAcquire(permits: readonly Permit[]): boolean {
    const now = this.clock.now();
    const busy = new Set(this.waiters.flatMap((w) => w.permits.map((p) => p.bucket)));
    if (permits.some((p) => busy.has(p.bucket))) return false;
    return this.tryTake(permits, now);
  }

  /** After a 429 with Retry-After: nobody takes from these buckets before `until`. */
  pause(buckets: readonly string[], until: number): void {
    for (const b of buckets) {
      const win = this.window(b);
      win.pausedUntil = Math.max(win.pausedUntil, until);
    }
    this.pump();
  }

  /** Weight currently counted in a bucket's window. */
  inUse(bucket: string): number {
    return this.window(bucket).inUse(this.clock.now());
  }

  pending(): number {
    return this.waiters.length;
  }

  private window(bucket: string): SlidingWindow {
    let w = this.windows.get(bucket);
    if (!w) {
      w = new SlidingWindow(this.limitOf(bucket));
      this.windows.set(bucket, w);
    }
    return w;
  }

  private limitOf(bucket: string): WindowLimit {
    const kind = bucket.split(':', 1)[0] as RateBucket;
    switch (kind) {
      case 'ip-weight':
        return this.cfg.ipWeight;
      case 'spot-orders':
        return this.cfg.spotOrders;
      case 'spot-account':
        return this.cfg.spotAccount;
      case 'spot-batch':
        return this.cfg.spotBatch;
      case 'contract-endpoint':
        return this.cfg.contractEndpoint;
      default:
        return this.cfg.ipWeight;
    }
  }

  private tryTake(permits: readonly Permit[], now: number): boolean {
    for (const p of permits) if (this.window(p.bucket).availableAt(now, p.weight) > now) return false;
    for (const p of permits) this.window(p.bucket).take(now, p.weight);
    return true;
  }

  private pump(): void {
    const now = this.clock.now();
    const blocked = new Set<string>();
    let next = Infinity;
    for (let i = 0; i < this.waiters.length;) {
      const w = this.waiters[i]!;
      if (w.permits.some((p) => blocked.has(p.bucket))) {
        i++;
        continue;
      }
      let readyAt = now;
      for (const p of w.permits) {
        const at = this.window(p.bucket).availableAt(now, p.weight);
        if (at > now) {
          blocked.add(p.bucket);
          readyAt = Math.max(readyAt, at);
        }
      }
      if (readyAt > now) {
        next = Math.min(next, readyAt);
        i++;
        continue;
      }
      for (const p of w.permits) this.window(p.bucket).take(now, p.weight);
      this.waiters.splice(i, 1);
      w.resolve();
    }
    this.schedule(next);
  }

  private schedule(at: number): void {
    if (at === this.timerAt) return;
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    if (!Number.isFinite(at) || this.waiters.length === 0) return;
    this.timerAt = at;
    this.timer = this.clock.setTimer(at, () => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.pump();
    });
  }
}

function compare(a: Waiter, b: Waiter): number {
  return a.priority - b.priority || a.seq - b.seq;
}

export function bucketKey(bucket: RateBucket, def: EndpointDef): string {
  return bucket === 'contract-endpoint' ? `contract-endpoint:${def.id}` : bucket;
}
