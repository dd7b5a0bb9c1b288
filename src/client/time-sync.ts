/**
 * Server-time alignment for `timestamp` (spot) and `Request-Time` (contract). Each sample is
 * serverTime − local midpoint of its round trip (the server most likely read its clock half-way); the
 * offset is the MEDIAN of the recent N samples, so one slow or asymmetric round trip cannot drag it.
 * Resync is lazy (a stale offset triggers a background sync from the next signed request) so no timer
 * keeps a process alive; a timestamp rejection (spot 700003, contract 513) forces a sync that the
 * failed request waits for.
 */
import type { Clock } from '../core/clock.js';

export interface TimeSample {
  readonly serverTime: number;
  /** Local clock when the request was sent / the answer complete. */
  readonly sentAt: number;
  readonly receivedAt: number;
}

export interface TimeSyncOptions {
  readonly clock: Clock;
  readonly fetchSample: () => Promise<TimeSample>;
  /** Median over the last N samples. */
  readonly windowSize?: number;
  /** Round trips per sync. */
  readonly samplesPerSync?: number;
  /** Offset older than this is refreshed in the background. */
  readonly resyncIntervalMs?: number;
  /** Called when a background sync fails (the old offset stays in use). */
  readonly onError?: (e: unknown) => void;
}

export const DEFAULT_TIME_SYNC = { windowSize: 7, samplesPerSync: 3, resyncIntervalMs: 5 * 60_000 } as const;

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export class TimeSync {
  private readonly clock: Clock;
  private readonly fetchSample: () => Promise<TimeSample>;
  private readonly windowSize: number;
  private readonly samplesPerSync: number;
  private readonly resyncIntervalMs: number;
  private readonly onError: (e: unknown) => void;
  private readonly offsets: number[] = [];
  private currentOffset = 0;
  private syncedAt: number | undefined;
  private inFlight: Promise<void> | undefined;
  private stale = true;

  constructor(options: TimeSyncOptions) {
    this.clock = options.clock;
    this.fetchSample = options.fetchSample;
    this.windowSize = options.windowSize ?? DEFAULT_TIME_SYNC.windowSize;
    this.samplesPerSync = options.samplesPerSync ?? DEFAULT_TIME_SYNC.samplesPerSync;
    this.resyncIntervalMs = options.resyncIntervalMs ?? DEFAULT_TIME_SYNC.resyncIntervalMs;
    this.onError = options.onError ?? (() => undefined);
  }

  /** serverTime − local clock, in ms (rounded to whole ms). */
  offset(): number {
    return this.currentOffset;
  }

  /** Local clock shifted onto the server's. */
  now(): number {
    return this.clock.now() + this.currentOffset;
  }

  lastSyncAt(): number | undefined {
    return this.syncedAt;
  }

  addSample(sample: TimeSample): void {
    const mid = (sample.sentAt + sample.receivedAt) / 2;
    this.offsets.push(sample.serverTime - mid);
    if (this.offsets.length > this.windowSize) this.offsets.splice(0, this.offsets.length - this.windowSize);
    this.currentOffset = Math.round(median(this.offsets));
  }

  /** Takes a few samples now; concurrent callers share one sync. */
  sync(): Promise<void> {
    if (!this.inFlight) {
      this.inFlight = (async () => {
        try {
          for (let i = 0; i < this.samplesPerSync; i++) this.addSample(await this.fetchSample());
          this.syncedAt = this.clock.now();
          this.stale = false;
        } finally {
          this.inFlight = undefined;
        }
      })();
    }
    return this.inFlight;
  }

  /** Before a signed request: wait for a first (or forced) sync; refresh a merely old offset in the background. */
  async ensureFresh(): Promise<void> {
    if (this.stale || this.syncedAt === undefined) {
      await this.sync();
      return;
    }
    if (this.clock.now() - this.syncedAt >= this.resyncIntervalMs && !this.inFlight) {
      this.sync().catch((e: unknown) => this.onError(e));
    }
  }

  /**
   * The venue rejected our time: old samples are dropped (its clock, or ours, has moved) and the next
   * signed request waits for a new sync.
   */
  invalidate(): void {
    this.offsets.length = 0;
    this.stale = true;
  }
}
