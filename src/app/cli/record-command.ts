/**
 * `perpetua record <config> [--out <dir>] [--duration <s>]`: records the configured instruments'
 * public market data into a record store until Ctrl-C / SIGTERM / the duration, with a one-line
 * progress on stderr. The lead wires this into the CLI; it returns a summary instead of printing one.
 *
 * No credentials: only public market endpoints are called (spot /api/v3, contract /api/v1/contract).
 * First Ctrl-C / SIGTERM: stop polling, flush, close the store (a clean, sealed store). A second one
 * exits at once; the store is then repaired on the next open, losing at most the unflushed tail.
 */
import { SystemClock, type Clock } from '../../core/clock.js';
import { ValidationError } from '../../core/errors.js';
import { ContractClient } from '../../client/contract-client.js';
import { SpotClient } from '../../client/spot-client.js';
import type { ClientOptions } from '../../client/catalogue-client.js';
import { createLogger } from '../../core/logger.js';
import { MexcContractMarketFetcher, MexcSpotMarketFetcher } from '../../marketdata/poll/mexc-market-fetcher.js';
import type { RecordStoreWriterOptions } from '../../marketdata/store/record-store-writer.js';
import { loadRecordConfig, type RecordConfig } from '../../marketdata/recorder/record-config.js';
import { progressLine } from '../../marketdata/recorder/record-progress.js';
import { Recorder, type RecorderSummary } from '../../marketdata/recorder/recorder.js';

export interface RecordCommandOptions {
  /** Record config (YAML). */
  readonly config: string;
  /** Store folder; overrides the config's `out`. */
  readonly out?: string;
  /** Seconds; overrides the config's `duration`. */
  readonly duration?: number;
  /** Default SystemClock. */
  readonly clock?: Clock;
  /** Where the progress line goes. Default process.stderr. */
  readonly progressStream?: NodeJS.WritableStream;
  /** Draw the progress line. Default true. */
  readonly progress?: boolean;
  /** Stop on SIGINT / SIGTERM. Default true. */
  readonly handleSignals?: boolean;
  /** Store options over the config's. */
  readonly store?: RecordStoreWriterOptions;
}

export interface RecordCommandSummary extends RecorderSummary {
  readonly config: string;
  readonly elapsedMs: number;
}

export async function recordCommand(opts: RecordCommandOptions): Promise<RecordCommandSummary> {
  if (opts.duration !== undefined && !(Number.isFinite(opts.duration) && opts.duration > 0))
    throw new ValidationError('duration', 'seconds > 0', opts.duration);
  if (opts.out !== undefined && opts.out.length === 0) throw new ValidationError('out', 'a store folder', opts.out);
  const config = await loadRecordConfig(opts.config);
  const clock = opts.clock ?? new SystemClock();
  const durationMs = opts.duration !== undefined ? Math.round(opts.duration * 1000) : config.duration;
  const file = config.log.file;
  // Without a log file, only warnings reach the terminal: info lines would tear the progress line.
  const logger = createLogger({ level: file ? config.log.level : 'warn', ...(file ? { file, quiet: true } : {}) });
  const { spot, contract } = clientsFor(config, clock);
  const closeAll = async (): Promise<void> => {
    await spot?.close();
    await contract?.close();
    await new Promise<void>((resolve) => {
      logger.on('finish', () => resolve());
      logger.end();
    });
  };

  const fetcherOptions = { timeoutMs: config.venue.requestTimeoutMs };
  let recorder: Recorder;
  try {
    recorder = new Recorder({
      clock,
      config,
      logger,
      ...(opts.out !== undefined ? { out: opts.out } : {}),
      ...(opts.store ? { store: opts.store } : {}),
      ...(spot ? { spot: new MexcSpotMarketFetcher(spot, fetcherOptions) } : {}),
      ...(contract ? { contract: new MexcContractMarketFetcher(contract, clock, fetcherOptions) } : {}),
    });
    await recorder.start();
  } catch (e) {
    await closeAll();
    throw e;
  }

  const stream = opts.progressStream ?? process.stderr;
  const tty = (stream as NodeJS.WriteStream).isTTY === true;
  const draw = (final = false): void => {
    if (opts.progress === false) return;
    const line = progressLine(recorder.stats(), clock.now() - (recorder.stats().startedAt ?? clock.now()));
    stream.write(tty ? `\r\x1b[2K${line}${final ? '\n' : ''}` : `${line}\n`);
  };
  const progressTimer = clock.setInterval(config.log.progressMs, () => draw());

  const cleanups: (() => void)[] = [() => clock.clearTimer(progressTimer)];
  const reason = await new Promise<string>((resolve) => {
    if (opts.handleSignals ?? true) {
      let signalled = false;
      const onSignal = (sig: NodeJS.Signals): void => {
        if (signalled) {
          // A second signal: leave now; the next open repairs the store's unflushed tail.
          stream.write(`\n${sig} again: exiting without closing the store (it is repaired on the next open)\n`);
          process.exit(130);
        }
        signalled = true;
        resolve(sig);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      cleanups.push(() => {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
      });
    }
    if (durationMs !== undefined) {
      const t = clock.setTimer(clock.now() + durationMs, () => resolve(`duration ${durationMs / 1000}s`));
      cleanups.push(() => clock.clearTimer(t));
    }
    void recorder.failure.then((e) => resolve(`store error: ${e.message}`));
  });
  let summary: RecorderSummary;
  try {
    summary = await recorder.stop(reason);
  } finally {
    for (const c of cleanups.splice(0)) c();
    draw(true);
    await closeAll();
  }
  return { ...summary, config: opts.config, elapsedMs: summary.stoppedAt - (summary.startedAt ?? summary.stoppedAt) };
}

function clientsFor(config: RecordConfig, clock: Clock): { spot: SpotClient | undefined; contract: ContractClient | undefined } {
  const common = (baseUrl: string): ClientOptions => ({
    baseUrl,
    clock,
    // Public endpoints only: no signature, so no server-time alignment either.
    timeSync: false,
    timeouts: { requestMs: config.venue.requestTimeoutMs },
    ...(config.venue.rateLimit ? {} : { rateLimits: false as const }),
  });
  return {
    spot: config.instruments.some((i) => i.kind === 'spot') ? new SpotClient(common(config.venue.spotUrl)) : undefined,
    contract: config.instruments.some((i) => i.kind === 'contract') ? new ContractClient(common(config.venue.contractUrl)) : undefined,
  };
}
