/**
 * The in-process emulator over real HTTP for the recorder tests: its synthetic market on a
 * VirtualClock, and PUBLIC clients (no credentials, like the recorder) with the pollers' fetchers.
 * The recorder gets its own clock, skewed from the venue's, so a test can tell exchange time from
 * local receive time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock, type Clock, type TimerHandle } from '../../../../src/core/clock.js';
import { ContractClient } from '../../../../src/client/contract-client.js';
import { SpotClient } from '../../../../src/client/spot-client.js';
import { startEmulator, type RunningEmulator } from '../../../../src/emulator/start-emulator.js';
import type { EmulatorConfigInput } from '../../../../src/emulator/emulator-config.js';
import { MexcContractMarketFetcher, MexcSpotMarketFetcher } from '../../../../src/marketdata/poll/mexc-market-fetcher.js';

/** 2026-01-01T00:00:00Z (a minute boundary: the first 1m bar opens at T0). */
export const T0 = 1_767_225_600_000;

/** A clock `skewMs` ahead of another (our machine's clock vs the venue's), timers included. */
export class SkewedClock implements Clock {
  constructor(
    private readonly inner: Clock,
    readonly skewMs: number,
  ) {}
  now(): number {
    return this.inner.now() + this.skewMs;
  }
  setTimer(at: number, fn: () => void): TimerHandle {
    return this.inner.setTimer(at - this.skewMs, fn);
  }
  setInterval(periodMs: number, fn: () => void): TimerHandle {
    return this.inner.setInterval(periodMs, fn);
  }
  clearTimer(handle: TimerHandle | undefined): void {
    this.inner.clearTimer(handle);
  }
  sleep(ms: number): Promise<void> {
    return this.inner.sleep(ms);
  }
}

export interface RecorderRig {
  readonly venueClock: VirtualClock;
  readonly emu: RunningEmulator;
  readonly spotClient: SpotClient;
  readonly contractClient: ContractClient;
  readonly spot: MexcSpotMarketFetcher;
  /** Built on the recorder's clock (it derives the kline range from it). */
  contractFetcher(clock: Clock): MexcContractMarketFetcher;
  close(): Promise<void>;
}

export async function startRecorderRig(extra: EmulatorConfigInput = {}): Promise<RecorderRig> {
  const venueClock = new VirtualClock(T0);
  const emu = await startEmulator(
    {
      seed: 7,
      clock: { mode: 'virtual', start: T0, stepMs: 0 },
      rateLimits: { enabled: false },
      ...extra,
    },
    { clock: venueClock },
  );
  const common = { baseUrl: emu.url, clock: venueClock, timeSync: false as const, rateLimits: false as const };
  const spotClient = new SpotClient(common);
  const contractClient = new ContractClient(common);
  return {
    venueClock,
    emu,
    spotClient,
    contractClient,
    spot: new MexcSpotMarketFetcher(spotClient),
    contractFetcher: (clock) => new MexcContractMarketFetcher(contractClient, clock),
    async close() {
      await spotClient.close();
      await contractClient.close();
      await emu.stop();
    },
  };
}

/** Waits (real time, at most `ms`) until `cond` holds: HTTP answers arrive on the event loop. */
export async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise<void>((r) => setImmediate(r));
  }
}

/** A fresh temporary folder per test, removed by cleanup(). */
export class TempDirs {
  private readonly made: string[] = [];

  make(prefix = 'perpetua-recorder-'): string {
    const d = mkdtempSync(join(tmpdir(), prefix));
    this.made.push(d);
    return d;
  }

  cleanup(): void {
    for (const d of this.made.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

/** A multiset of strings as a sorted list (deep-equal compares counts too). */
export const multiset = (xs: Iterable<string>): string[] => [...xs].sort();
