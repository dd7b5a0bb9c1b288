/**
 * The polling loop of ONE instrument: one cycle → the due streams fetched in parallel → one snapshot.
 *
 * Timing lives on the injected Clock only (docs/architecture.md rule 1). Cycles run at a fixed rate from
 * their scheduled times and never overlap: when a cycle takes longer than `cycleMs`, the next starts
 * as soon as it completes. A stream is due when `everyMs` has passed since the scheduled time of the
 * cycle that last fetched it.
 *
 * A cycle is all-or-nothing: if any due stream fails, nothing of that cycle is kept (a snapshot mixing
 * a fresh ticker with a book from before the outage would look fresher than it is), the instrument
 * retries after an exponential, capped backoff, and the stream of snapshots simply pauses — it never
 * errors or completes. The retry fetches every stream that is due by then.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { InstrumentSymbol } from '../../core/ids.js';
import type { Kline } from '../../domain/snapshot.js';
import type { SpotKlineInterval } from '../../domain/spot-enums.js';
import type { ContractKlineInterval } from '../../domain/contract-enums.js';
import type { Backoff } from './backoff.js';
import type { ContractMarketFetcher, SpotMarketFetcher } from './market-fetcher.js';
import type { InstrumentPollStats, MarketDataEvent, PolledSnapshot } from './market-data-events.js';
import type { ResolvedInstrumentPoll, ResolvedStream, StreamName } from './poll-config.js';
import { plainMessageOf } from '../../core/message-of.js';

type Records = { -readonly [K in keyof PolledSnapshot]?: PolledSnapshot[K] };

export interface InstrumentPollerDeps {
  readonly clock: Clock;
  readonly spot?: SpotMarketFetcher;
  readonly contract?: ContractMarketFetcher;
  readonly backoff: Backoff;
  readonly onEvent?: (e: MarketDataEvent) => void;
  readonly onStats?: (s: InstrumentPollStats) => void;
}

export class InstrumentPoller {
  private running = false;
  private timer: TimerHandle | undefined;
  /** Scheduled time of the cycle that last fetched each stream successfully. */
  private readonly lastFetched = new Map<StreamName, number>();
  private readonly records: Records = {};
  private seq = 0;
  private consecutiveFailures = 0;
  private cycles = 0;
  private snapshots = 0;
  private failures = 0;
  private lastPollTime: number | undefined;
  private lastError: string | undefined;
  /** Bumped by stop(): a cycle still in flight from before must not emit or reschedule. */
  private generation = 0;
  private emit: ((s: PolledSnapshot) => void) | undefined;

  constructor(
    readonly instrument: ResolvedInstrumentPoll,
    private readonly deps: InstrumentPollerDeps,
  ) {}

  get symbol(): InstrumentSymbol {
    return this.instrument.symbol;
  }

  /** Starts with a cycle at once; snapshots go to `emit`. */
  start(emit: (s: PolledSnapshot) => void): void {
    if (this.running) return;
    this.running = true;
    this.emit = emit;
    this.run(this.deps.clock.now(), this.generation);
  }

  stop(): void {
    this.running = false;
    this.generation++;
    this.deps.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.emit = undefined;
  }

  stats(): InstrumentPollStats {
    return {
      symbol: this.symbol,
      cycles: this.cycles,
      snapshots: this.snapshots,
      failures: this.failures,
      consecutiveFailures: this.consecutiveFailures,
      ...(this.lastPollTime !== undefined ? { lastPollTime: this.lastPollTime } : {}),
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
    };
  }

  private schedule(at: number, gen: number): void {
    // One pending cycle at most, whatever path scheduled it.
    this.deps.clock.clearTimer(this.timer);
    this.timer = this.deps.clock.setTimer(at, () => {
      this.timer = undefined;
      this.run(at, gen);
    });
  }

  /** A cycle that throws outside the fetches (a bug in assembly) is a failed cycle too: the stream lives on. */
  private run(at: number, gen: number): void {
    this.cycle(at, gen).catch((e: unknown) => {
      if (!this.running || gen !== this.generation) return;
      this.fail([], e, gen);
    });
  }

  private due(scheduledAt: number): ResolvedStream[] {
    return this.instrument.streams.filter((s) => {
      const last = this.lastFetched.get(s.name);
      return last === undefined || scheduledAt - last >= s.everyMs;
    });
  }

  private async cycle(scheduledAt: number, gen: number): Promise<void> {
    if (!this.running || gen !== this.generation) return;
    this.cycles++;
    const due = this.due(scheduledAt);
    const results = await Promise.allSettled(due.map((s) => this.fetch(s)));
    if (!this.running || gen !== this.generation) return;
    const failed = due.filter((_, i) => results[i]!.status === 'rejected');
    if (failed.length > 0) {
      this.fail(
        failed.map((st) => st.name),
        (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason,
        gen,
      );
      return;
    }
    for (let i = 0; i < due.length; i++) {
      const s = due[i]!;
      Object.assign(this.records, (results[i] as PromiseFulfilledResult<Records>).value);
      this.lastFetched.set(s.name, scheduledAt);
    }
    const pollTime = this.deps.clock.now();
    if (this.consecutiveFailures > 0) {
      this.deps.onEvent?.({ type: 'MarketDataPollRecovered', ts: pollTime, symbol: this.symbol, failures: this.consecutiveFailures });
      this.consecutiveFailures = 0;
    }
    const snapshot = this.assemble(pollTime);
    this.snapshots++;
    this.lastPollTime = pollTime;
    this.deps.onStats?.(this.stats());
    // Scheduled before emitting: a subscriber that stops the source inside next() wins.
    this.schedule(Math.max(scheduledAt + this.instrument.cycleMs, pollTime), gen);
    this.emit?.(snapshot);
  }

  private fail(streams: StreamName[], error: unknown, gen: number): void {
    this.consecutiveFailures++;
    this.failures++;
    const errorName = error instanceof Error ? error.name : typeof error;
    const message = plainMessageOf(error);
    this.lastError = `${errorName}: ${message}`;
    const retryInMs = this.deps.backoff.delay(this.consecutiveFailures);
    const now = this.deps.clock.now();
    this.deps.onEvent?.({
      type: 'MarketDataPollFailed',
      ts: now,
      symbol: this.symbol,
      streams,
      errorName,
      message,
      consecutiveFailures: this.consecutiveFailures,
      retryInMs,
    });
    this.deps.onStats?.(this.stats());
    this.schedule(now + retryInMs, gen);
  }

  private assemble(pollTime: number): PolledSnapshot {
    const r = this.records;
    let exchangeTime: number | undefined;
    for (const rec of [r.book, r.bookTicker, r.ticker24h, r.fundingRate, r.fairPrice, r.indexPrice, r.contractTicker]) {
      const t = rec?.exchangeTime;
      if (t !== undefined && (exchangeTime === undefined || t > exchangeTime)) exchangeTime = t;
    }
    return {
      symbol: this.symbol,
      kind: this.instrument.kind,
      pollTime,
      ...(exchangeTime !== undefined ? { exchangeTime } : {}),
      seq: ++this.seq,
      ...r,
    };
  }

  /** One stream's records; a stream that answers nothing for the symbol fails the cycle. */
  private async fetch(s: ResolvedStream): Promise<Records> {
    const sym = this.symbol;
    if (this.instrument.kind === 'spot') {
      const f = this.deps.spot;
      if (!f) throw new Error('no spot market fetcher configured');
      switch (s.name) {
        case 'depth':
          return { book: await f.depth(sym, s.requests[0]!.params.limit as number) };
        case 'bookTicker':
          return { bookTicker: required(await f.bookTicker(sym), sym, s.name) };
        case 'trades':
          return { trades: await f.trades(sym, s.requests[0]!.params.limit as number) };
        case 'klines':
          return { klines: await this.klines(s, (interval, limit) => f.klines(sym, interval as SpotKlineInterval, limit)) };
        case 'ticker24h':
          return { ticker24h: required(await f.ticker24h(sym), sym, s.name) };
        case 'avgPrice':
          return { avgPrice: await f.avgPrice(sym) };
        default:
          throw new Error(`stream ${s.name} is not a spot stream`);
      }
    }
    const f = this.deps.contract;
    if (!f) throw new Error('no contract market fetcher configured');
    switch (s.name) {
      case 'depth':
        return { book: await f.depth(sym, s.requests[0]!.params.limit as number) };
      case 'ticker':
        return { contractTicker: required(await f.ticker(sym), sym, s.name) };
      case 'fundingRate':
        return { fundingRate: await f.fundingRate(sym) };
      case 'fairPrice':
        return { fairPrice: await f.fairPrice(sym) };
      case 'indexPrice':
        return { indexPrice: await f.indexPrice(sym) };
      case 'deals':
        return { trades: await f.deals(sym, s.requests[0]!.params.limit as number) };
      case 'klines':
        return { klines: await this.klines(s, (interval, limit) => f.klines(sym, interval as ContractKlineInterval, limit)) };
      default:
        throw new Error(`stream ${s.name} is not a contract stream`);
    }
  }

  private async klines(
    s: ResolvedStream,
    get: (interval: string, limit: number) => Promise<readonly Kline[]>,
  ): Promise<Record<string, readonly Kline[]>> {
    const rows = await Promise.all(s.requests.map((r) => get(r.params.interval as string, r.params.limit as number)));
    const out: Record<string, readonly Kline[]> = {};
    s.requests.forEach((r, i) => {
      out[r.params.interval as string] = rows[i]!;
    });
    return out;
  }
}

function required<T>(v: T | undefined, symbol: string, stream: string): T {
  if (v === undefined) throw new Error(`${stream}: the venue answered no record for ${symbol}`);
  return v;
}
