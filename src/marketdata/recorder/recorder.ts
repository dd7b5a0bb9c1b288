/**
 * Records polled market data into a record store, polling exactly as the runtime does: the same
 * PollingMarketDataSource (one snapshot per instrument per cycle, per-stream cadences, backoff on
 * failures) over the same fetchers, each snapshot turned into market records
 * (snapshot-record-mapper.ts) and appended to a RecordStoreWriter.
 *
 *   const rec = new Recorder({ clock, config, spot: new MexcSpotMarketFetcher(spotClient) });
 *   await rec.start();          // opens (or resumes) the store, starts polling
 *   …
 *   const summary = await rec.stop('SIGINT');   // stops polling, flushes, closes the store
 *
 * Durability: records reach the file at least every `store.flushMs` of the injected clock
 * (flushPeriodically) and whenever a chunk fills; a killed recorder loses at most that much. Opening
 * the same folder again repairs a torn tail (RecordStoreWriter) and continues the recording: the
 * newest stored trades and the last stored bar of each interval are read back first, so the first
 * polls after the restart do not write them twice.
 *
 * A record the store refuses (a value it cannot represent) is counted and logged, and the recording
 * goes on; an I/O error (disk full) stops the polling and resolves `failure` — the caller then stops
 * the recorder, which closes what can be closed.
 */
import type { Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { ValidationError } from '../../core/errors.js';
import type { ContractMarketFetcher, SpotMarketFetcher } from '../poll/market-fetcher.js';
import type { BucketUsage } from '../poll/poll-budget.js';
import { PollingMarketDataSource } from '../poll/polling-market-data-source.js';
import type { PolledSnapshot } from '../poll/market-data-events.js';
import { instrumentKey, metaRecord, type RecordStream } from '../record/record.js';
import { RecordStoreReader } from '../store/record-store-reader.js';
import { RecordStoreWriter, type RecordStoreWriterOptions, type RecoveryAction } from '../store/record-store-writer.js';
import { flushPeriodically } from '../store/store-flush-timer.js';
import { toMarketPollConfig, type RecordConfig } from './record-config.js';
import { SnapshotRecordMapper, type SeedSummary } from './snapshot-record-mapper.js';

/** What the recorder logs through (a winston logger fits). */
export interface RecorderLogger {
  info(message: string, meta?: Record<string, unknown>): unknown;
  warn(message: string, meta?: Record<string, unknown>): unknown;
  error(message: string, meta?: Record<string, unknown>): unknown;
}

export interface RecorderOptions {
  readonly clock: Clock;
  readonly config: RecordConfig;
  /** Required when a spot instrument is configured. */
  readonly spot?: SpotMarketFetcher;
  /** Required when a contract instrument is configured. */
  readonly contract?: ContractMarketFetcher;
  /** Store folder; default `config.out`. */
  readonly out?: string;
  readonly logger?: RecorderLogger;
  /** Store options over the config's (tests: `fsync: 'never'`). */
  readonly store?: RecordStoreWriterOptions;
  /** Trade dedup window, ms of trade time. Default 300 000. */
  readonly tradeWindowMs?: number;
  /** Clock-skew allowance for judging a bar closed by time, ms. Default 2000. */
  readonly klineGraceMs?: number;
}

export interface RecorderStats {
  /** Clock time of start(), once started. */
  readonly startedAt: number | undefined;
  readonly snapshots: number;
  /** Data records appended in this session. */
  readonly records: number;
  readonly byStream: Readonly<Partial<Record<RecordStream, number>>>;
  /** By `spot:BTCUSDT` / `contract:BTC_USDT`. */
  readonly byInstrument: Readonly<Record<string, number>>;
  /** Compressed bytes written to the store in this session (buffered records not yet included). */
  readonly bytes: number;
  readonly pollFailures: number;
  /** Polls whose full trade answer did not reach back to the trades recorded before: raise the limit or poll more often. */
  readonly tradeGaps: number;
  readonly tradesWithoutSide: number;
  /** Records the store refused (logged). */
  readonly rejected: number;
}

export interface RecorderSummary extends RecorderStats {
  readonly out: string;
  readonly reason: string;
  readonly stoppedAt: number;
  /** What opening the store repaired (a crashed previous session). */
  readonly recovery: readonly RecoveryAction[];
  /** What the store already held that the dedup state was seeded with. */
  readonly seeded: SeedSummary | undefined;
  /** The I/O error that stopped the recording, if one did. */
  readonly error?: string;
}

type State = 'idle' | 'running' | 'failed' | 'stopped';

const FSYNC: Readonly<Record<RecordConfig['store']['fsync'], NonNullable<RecordStoreWriterOptions['fsync']>>> = {
  flush: 'close',
  chunk: 'chunk',
  close: 'close',
  never: 'never',
};

export class Recorder {
  readonly out: string;
  /** Steady request cost of the cadences per rate bucket. */
  readonly usage: readonly BucketUsage[];
  /** Resolves with the I/O error that stopped the recording (never rejects; pending while healthy). */
  readonly failure: Promise<Error>;
  recovery: readonly RecoveryAction[] = [];
  seeded: SeedSummary | undefined;

  private readonly clock: Clock;
  private readonly source: PollingMarketDataSource;
  private readonly mapper: SnapshotRecordMapper;
  private readonly logger: RecorderLogger | undefined;
  private writer: RecordStoreWriter | undefined;
  private state: State = 'idle';
  private readonly subs: Subscription[] = [];
  private stopFlush: (() => void) | undefined;
  private resolveFailure!: (e: Error) => void;
  private fatal: Error | undefined;
  private summary: RecorderSummary | undefined;
  private startedAt: number | undefined;
  private snapshots = 0;
  private records = 0;
  private pollFailures = 0;
  private rejected = 0;
  private readonly byStream: Partial<Record<RecordStream, number>> = {};
  private readonly byInstrument: Record<string, number> = {};

  constructor(private readonly opts: RecorderOptions) {
    this.clock = opts.clock;
    this.out = opts.out ?? opts.config.out;
    this.logger = opts.logger;
    // Built here so a bad cadence or a missing fetcher is an error before anything is opened.
    this.source = new PollingMarketDataSource({
      clock: opts.clock,
      config: toMarketPollConfig(opts.config),
      configPath: 'record',
      ...(opts.spot ? { spot: opts.spot } : {}),
      ...(opts.contract ? { contract: opts.contract } : {}),
    });
    this.usage = this.source.usage;
    this.mapper = new SnapshotRecordMapper(opts.config.instruments, {
      ...(opts.tradeWindowMs !== undefined ? { tradeWindowMs: opts.tradeWindowMs } : {}),
      ...(opts.klineGraceMs !== undefined ? { klineGraceMs: opts.klineGraceMs } : {}),
    });
    this.failure = new Promise<Error>((resolve) => {
      this.resolveFailure = resolve;
    });
  }

  get running(): boolean {
    return this.state === 'running';
  }

  /** Opens (or resumes) the store and starts polling. */
  async start(): Promise<void> {
    if (this.state !== 'idle') throw new Error(`recorder cannot start: it is ${this.state}`);
    const cfg = this.opts.config;
    const writer = RecordStoreWriter.open(this.out, {
      segmentPeriod: cfg.store.segmentPeriod,
      codec: cfg.store.codec,
      fsync: FSYNC[cfg.store.fsync],
      ...this.opts.store,
    });
    this.writer = writer;
    try {
      this.recovery = writer.recovery;
      for (const r of writer.recovery)
        this.logger?.warn('store recovered after an unclean stop', {
          file: r.file,
          cause: r.cause,
          truncatedBytes: r.truncatedBytes,
          keptRecords: r.keptRecords,
        });
      const reader = RecordStoreReader.open(this.out);
      try {
        this.seeded = this.mapper.seed(reader);
      } finally {
        reader.close();
      }
      this.startedAt = this.clock.now();
      writer.append(
        metaRecord(
          cfg.source ?? sourceOf(cfg),
          `perpetua record, session started ${new Date(this.startedAt).toISOString()}: ${cfg.instruments.map((i) => `${i.symbol} (${Object.keys(i.streams).join(', ')})`).join('; ')}`,
        ),
      );
    } catch (e) {
      writer.close();
      this.writer = undefined;
      throw e;
    }
    this.state = 'running';
    this.stopFlush = flushPeriodically(writer, this.clock, cfg.store.flushMs, cfg.store.fsync === 'flush', (e) => this.fail(e));
    this.subs.push(
      this.source.events$.subscribe((e) => {
        if (e.type === 'MarketDataPollFailed') {
          this.pollFailures++;
          this.logger?.warn('poll failed', {
            symbol: e.symbol,
            streams: e.streams,
            error: `${e.errorName}: ${e.message}`,
            consecutiveFailures: e.consecutiveFailures,
            retryInMs: e.retryInMs,
          });
        } else if (e.type === 'MarketDataPollRecovered') {
          this.logger?.info('poll recovered', { symbol: e.symbol, failures: e.failures });
        }
      }),
    );
    this.subs.push(this.source.snapshots().subscribe((s) => this.onSnapshot(s)));
    this.logger?.info('recording', {
      out: this.out,
      instruments: cfg.instruments.map((i) => i.symbol),
      usage: this.usage.map((u) => `${u.bucket} ${Math.round(u.perSecond * 100) / 100}/${Math.round(u.limit * 100) / 100} per s`),
      ...(this.seeded && (this.seeded.trades > 0 || this.seeded.klineIntervals > 0) ? { resumed: this.seeded } : {}),
    });
    await this.source.start();
  }

  /** Stops polling, flushes and closes the store. Idempotent: later calls return the same summary. */
  async stop(reason = 'stopped'): Promise<RecorderSummary> {
    if (this.summary) return this.summary;
    const wasRunning = this.state === 'running' || this.state === 'failed';
    this.state = 'stopped';
    for (const s of this.subs.splice(0)) s.unsubscribe();
    await this.source.stop();
    this.stopFlush?.();
    this.stopFlush = undefined;
    let closeError: Error | undefined;
    if (this.writer) {
      try {
        this.writer.close();
      } catch (e) {
        closeError = e instanceof Error ? e : new Error(String(e));
        this.logger?.error('closing the store failed', { error: closeError.message });
      }
    }
    const error = this.fatal ?? closeError;
    this.summary = {
      ...this.stats(),
      out: this.out,
      reason,
      stoppedAt: this.clock.now(),
      recovery: this.recovery,
      seeded: this.seeded,
      ...(error ? { error: error.message } : {}),
    };
    if (wasRunning)
      this.logger?.info('recording stopped', {
        reason,
        records: this.summary.records,
        snapshots: this.summary.snapshots,
        bytes: this.summary.bytes,
      });
    return this.summary;
  }

  stats(): RecorderStats {
    return {
      startedAt: this.startedAt,
      snapshots: this.snapshots,
      records: this.records,
      byStream: { ...this.byStream },
      byInstrument: { ...this.byInstrument },
      bytes: this.writer?.bytesWritten ?? 0,
      pollFailures: this.pollFailures,
      tradeGaps: this.mapper.counters.tradeGaps,
      tradesWithoutSide: this.mapper.counters.tradesWithoutSide,
      rejected: this.rejected,
    };
  }

  private onSnapshot(s: PolledSnapshot): void {
    if (this.state !== 'running') return;
    const writer = this.writer!;
    this.snapshots++;
    const gapsBefore = this.mapper.counters.tradeGaps;
    const records = this.mapper.records(s);
    if (this.mapper.counters.tradeGaps > gapsBefore)
      this.logger?.warn(
        'trades may have been missed: the poll returned a full page newer than every trade seen before (poll trades more often or raise the limit)',
        { symbol: s.symbol },
      );
    for (const r of records) {
      try {
        writer.append(r);
      } catch (e) {
        if (e instanceof ValidationError) {
          this.rejected++;
          if (this.rejected <= 10)
            this.logger?.warn('record refused by the store', { symbol: s.symbol, stream: r.s, field: e.field, expected: e.expected });
          continue;
        }
        this.fail(e);
        return;
      }
      this.records++;
      this.byStream[r.s] = (this.byStream[r.s] ?? 0) + 1;
      const key = instrumentKey(r.m, r.i);
      this.byInstrument[key] = (this.byInstrument[key] ?? 0) + 1;
    }
  }

  private fail(e: unknown): void {
    const err = e instanceof Error ? e : new Error(String(e));
    this.fatal = err;
    this.state = 'failed';
    this.logger?.error('writing the store failed; recording stops', { error: err.message });
    void this.source.stop();
    this.resolveFailure(err);
  }
}

function sourceOf(cfg: RecordConfig): string {
  const hosts: string[] = [];
  if (cfg.instruments.some((i) => i.kind === 'spot')) hosts.push(`spot ${cfg.venue.spotUrl}`);
  if (cfg.instruments.some((i) => i.kind === 'contract')) hosts.push(`contract ${cfg.venue.contractUrl}`);
  return `polled REST market data (${hosts.join(', ')})`;
}
