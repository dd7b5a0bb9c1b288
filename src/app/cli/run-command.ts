/**
 * `perpetua run <config> [--duration <s>] [--no-cancel-on-exit] [--journal <path>]`.
 *
 * Loads and validates the config, builds the container for its mode, starts the runtime (journal run,
 * restore, reconcile, strategies), shows a status line (a plain status log line when not on a
 * terminal), and on Ctrl-C / SIGTERM / the end of --duration stops: cancels this run's orders unless
 * told not to, prints a summary and closes the journal run. A second Ctrl-C exits at once (the run is
 * then left open in the journal and the next start reconciles).
 */
import { SystemClock } from '../../core/clock.js';
import type { ContractClient } from '../../client/contract-client.js';
import type { SpotClient } from '../../client/spot-client.js';
import { ConfigError, PerpetuaError } from '../../core/errors.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import { ConfigInvalid } from '../../core/config/config-issues.js';
import { loadRunConfig } from '../../runtime/config/load-run-config.js';
import { configHash } from '../../runtime/config/runtime-settings.js';
import { RUNTIME_TOKENS } from '../../runtime/runtime-tokens.js';
import { buildContainer } from '../../runtime/container/build-container.js';
import { strategyCatalog } from '../../runtime/container/strategy-module.js';
import { startConsole, type RunningConsole } from '../../console/start-console.js';
import { createLogger } from '../../core/logger.js';
import { loadConfigFileStrategies } from '../../runtime/plugins/strategy-plugins.js';
import type { RunSummary } from '../../runtime/runtime-status.js';
import { bannerLines, startedLines, statusLine, summaryLines } from './run-report.js';
import { Terminal } from './terminal.js';
import { plainMessageOf } from '../../core/message-of.js';

export interface RunCommandOptions {
  /** Stop by itself after this many seconds. */
  readonly duration?: number;
  /** false: leave orders resting on exit (`--no-cancel-on-exit`); undefined: the config decides. */
  readonly cancelOnExit?: boolean;
  readonly journal?: string;
  /** Port of the embedded emulator (paper mode with paper.emulatorConfig); overrides its config. */
  readonly emulatorPort?: number;
  readonly strategyClasses?: readonly StrategyClass[];
  readonly env?: NodeJS.ProcessEnv;
  /** Console output (default process.stderr for logs and status, process.stdout for the summary). */
  readonly out?: NodeJS.WritableStream;
  readonly summaryOut?: NodeJS.WritableStream;
}

/** Runs until stopped; resolves with the exit code. */
export async function runCommand(file: string, opts: RunCommandOptions = {}): Promise<number> {
  const out = opts.out ?? process.stderr;
  const summaryOut = opts.summaryOut ?? process.stdout;
  let loaded;
  try {
    if (!opts.strategyClasses) await loadConfigFileStrategies(file);
    loaded = await loadRunConfig(file, strategyCatalog(opts.strategyClasses));
  } catch (e) {
    if (e instanceof ConfigInvalid) {
      out.write(
        `${file}: ${e.issues.length} problem${e.issues.length === 1 ? '' : 's'}\n${e
          .lines()
          .map((l) => `  ${l}\n`)
          .join('')}`,
      );
      return 1;
    }
    if (e instanceof ConfigError) {
      out.write(`${file}: 1 problem\n  ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  const { config } = loaded;
  if (opts.emulatorPort !== undefined && (config.mode !== 'paper' || config.paper?.emulatorConfig === undefined)) {
    out.write(
      `${file}: 1 problem\n  --emulator-port: only for paper mode with paper.emulatorConfig (an embedded emulator); this config runs ${config.mode === 'paper' ? `against ${config.paper?.emulatorUrl ?? 'a running emulator'}` : `in ${config.mode} mode`}\n`,
    );
    return 1;
  }
  const tty = (out as NodeJS.WriteStream).isTTY === true;
  const terminal = new Terminal({ out, statusLine: tty, colour: tty });
  const logger = createLogger({ level: config.logging.level, quiet: true, ...(config.logging.file ? { file: config.logging.file } : {}) });
  logger.add(terminal.transport(config.logging.level));

  const clock = new SystemClock();
  const container = buildContainer(loaded, {
    env: opts.env ?? process.env,
    logger,
    clock,
    ...(opts.cancelOnExit === false ? { cancelOnExit: false } : {}),
    ...(opts.journal ? { journalPath: opts.journal } : {}),
    ...(opts.emulatorPort !== undefined ? { emulatorPort: opts.emulatorPort } : {}),
    ...(opts.strategyClasses ? { strategyClasses: opts.strategyClasses } : {}),
  });

  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async (): Promise<void> => {
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c();
      } catch (e) {
        logger.warn('shutdown step failed', { error: plainMessageOf(e) });
      }
    }
  };
  let summary: RunSummary | undefined;
  let code = 0;
  try {
    const access = await container.getAsync(RUNTIME_TOKENS.VenueAccess);
    cleanups.push(() => access.close());
    const runtime = await container.getAsync(RUNTIME_TOKENS.Runtime);
    const spot = await container.getAsync(RUNTIME_TOKENS.SpotClient);
    const contract = await container.getAsync(RUNTIME_TOKENS.ContractClient);
    cleanups.push(async () => {
      await closeClient(spot);
      await closeClient(contract);
    });
    const journal = await container.getAsync(RUNTIME_TOKENS.Journal);
    cleanups.push(async () => journal.close());

    const journalPath = opts.journal ?? config.journal.path;
    for (const line of bannerLines({
      file,
      mode: config.mode,
      venue: access.label,
      key: access.credentialSource,
      journal: journalPath,
      hash: configHash(config),
      strategies: loaded.strategies.map((s) => `${s.id} (${s.name} on ${s.instruments.join(', ')})`).join(', '),
    })) {
      terminal.line(line);
    }
    const info = await runtime.start();
    // Started: from here a transient venue error is the runtime's to handle, not a reason to wait.
    spot?.engine.endStartup();
    contract?.engine.endStartup();
    for (const line of startedLines(info)) terminal.line(line);
    let stopRequested: ((reason: string) => void) | undefined;
    let web: RunningConsole | undefined;
    if (config.console) {
      web = await startConsole({
        run: runtime,
        info: {
          mode: config.mode,
          venue: access.label,
          valuationAsset: config.risk.valuationAsset,
          instruments: config.instruments,
          strategies: loaded.strategies.map((s, i) => ({ ...s, params: config.strategies[i]!.params })),
        },
        config: config.console,
        env: opts.env ?? process.env,
        clock,
        logger,
        winston: logger,
        requestStop: (reason) => stopRequested?.(reason),
      });
      const running = web;
      cleanups.push(() => running.close());
      terminal.line(`console: ${web.url} (bearer token from $${config.console.tokenEnv})`);
    }
    logger.debug('run started', { runId: info.run.id, configHash: configHash(config), mode: config.mode });

    const asset = config.risk.valuationAsset;
    let ticks = 0;
    const statusTimer = clock.setInterval(config.logging.statusIntervalMs, () => {
      const s = runtime.status();
      if (terminal.hasStatusLine) terminal.setStatus(statusLine(s, asset));
      else if (++ticks % 10 === 0) logger.info(`status ${statusLine(s, asset)}`);
    });

    const reason = await new Promise<string>((resolve) => {
      let signalled = false;
      const onSignal = (sig: NodeJS.Signals): void => {
        if (signalled) {
          // A second Ctrl-C: leave now; the journal run stays open and the next start reconciles.
          terminal.clearStatus();
          out.write(`\n${sig} again: exiting without cleanup (the next run will reconcile)\n`);
          process.exit(130);
        }
        signalled = true;
        resolve(sig);
      };
      stopRequested = resolve;
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      cleanups.push(async () => {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
      });
      if (opts.duration !== undefined) {
        const t = clock.setTimer(clock.now() + opts.duration * 1000, () => resolve(`--duration ${opts.duration}s`));
        cleanups.push(async () => clock.clearTimer(t));
      }
    });
    clock.clearTimer(statusTimer);
    terminal.clearStatus();
    terminal.line(`stopping (${reason})…`);
    summary = await runtime.stop(reason);
    logger.info('run stopped', {
      runId: summary.runId,
      reason,
      placed: summary.totals.placed,
      fills: summary.totals.fills,
      cancelledOnExit: summary.cancelledOnExit,
    });
    summaryOut.write(`${summaryLines(summary, asset).join('\n')}\n`);
    const { placed, fills } = summary.totals;
    web?.webhook?.notify('stop', `run stopped (${reason})`, { reason, placed, fills, cancelledOnExit: summary.cancelledOnExit });
  } catch (e) {
    terminal.clearStatus();
    const msg = e instanceof PerpetuaError ? `${e.name}: ${e.message}` : e instanceof Error ? (e.stack ?? e.message) : String(e);
    out.write(`perpetua run: ${msg}\n`);
    code = 1;
  } finally {
    await cleanup();
    await new Promise<void>((resolve) => logger.on('finish', () => resolve()).end());
  }
  // Keep-alive sockets and the like must not hold the process once the run is over.
  clock.setTimer(clock.now() + 3000, () => process.exit(code));
  clock.unrefAll();
  return code;
}

async function closeClient(c: SpotClient | ContractClient | undefined): Promise<void> {
  if (c) await c.close();
}
