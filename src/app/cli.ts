#!/usr/bin/env node
/**
 * The `perpetua` command. Each sub-command loads its module lazily so `perpetua endpoints` does not pay
 * for the emulator or the runtime.
 */
import 'reflect-metadata';
import { Command } from 'commander';

const program = new Command();
program.name('perpetua').description('Algorithmic trading framework: client, emulator, runtime and backtests').showHelpAfterError();

program
  .command('endpoints')
  .description('print the endpoint catalogue (both APIs) as a table')
  .option('--json', 'print JSON instead of a table')
  .action(async (opts: { json?: boolean }) => {
    const { endpointRows, renderEndpointsTable } = await import('./endpoints-report.js');
    const rows = endpointRows();
    process.stdout.write(opts.json ? `${JSON.stringify(rows, null, 2)}\n` : `${renderEndpointsTable(rows)}\n`);
  });

program
  .command('docs')
  .description('regenerate docs/endpoints.md, config-reference.md and console-openapi.json from the catalogue and the zod schemas')
  .option('--out <dir>', 'output folder', 'docs')
  .action(async (opts: { out: string }) => {
    const { writeDocs } = await import('./write-docs.js');
    for (const file of await writeDocs(opts.out)) process.stdout.write(`wrote ${file}\n`);
  });

program
  .command('emulator')
  .description('run the exchange emulator (spot + contract APIs with a matching engine) on 127.0.0.1')
  .requiredOption('--config <file>', 'emulator YAML config', 'config/emulator.yaml')
  .option('--port <n>', 'port to listen on (overrides the config)', (v) => Number(v))
  .action(async (opts: { config: string; port?: number }) => {
    const { emulatorCommand } = await import('../emulator/emulator-command.js');
    await emulatorCommand(opts);
  });

program
  .command('validate')
  .description('check a run config: exit 0 with a summary line, or 1 with every problem and its YAML path')
  .argument('<config>', 'run config (YAML)')
  .action(async (file: string) => {
    const { validateConfig } = await import('./cli/validate-command.js');
    const r = await validateConfig(file);
    (r.ok ? process.stdout : process.stderr).write(`${r.lines.join('\n')}\n`);
    process.exitCode = r.ok ? 0 : 1;
  });

program
  .command('run')
  .description('run the strategies of a config: live, or paper against the emulator (embedded or running)')
  .argument('<config>', 'run config (YAML)')
  .option('--duration <seconds>', 'stop by itself after this many seconds', (v) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--duration: expected seconds > 0, received ${JSON.stringify(v)}`);
    return n;
  })
  .option('--no-cancel-on-exit', "leave this run's orders resting when it stops")
  .option('--journal <path>', 'journal file (overrides journal.path)')
  .action(async (file: string, opts: { duration?: number; cancelOnExit?: boolean; journal?: string }) => {
    const { runCommand } = await import('./cli/run-command.js');
    process.exitCode = await runCommand(file, {
      ...(opts.duration !== undefined ? { duration: opts.duration } : {}),
      ...(opts.cancelOnExit === false ? { cancelOnExit: false } : {}),
      ...(opts.journal ? { journal: opts.journal } : {}),
    });
  });

program
  .command('import')
  .description('import recorded market data people already have (kline, trade, funding, mark/index CSVs, L2 recordings) into a record store')
  .requiredOption('--kind <kind>', 'klines | mark | index | funding | trades | l2 | records')
  .requiredOption('--market <market>', 'spot | contract')
  .requiredOption('--out <dir>', 'record store folder (created, or appended to)')
  .option('--symbol <symbol>', 'instrument written into every record (default: from the data or file name)')
  .option('--interval <interval>', 'candle interval for klines/mark/index (default: inferred)')
  .option('--skip-bad-rows', 'skip malformed rows instead of stopping at the first one')
  .argument('<files...>', 'input files, read in this order')
  .action(async (files: string[], opts: { kind: string; market: string; out: string; symbol?: string; interval?: string; skipBadRows?: boolean }) => {
    const { importCommand, IMPORT_KINDS } = await import('../marketdata/import/import-command.js');
    if (opts.market !== 'spot' && opts.market !== 'contract') throw new Error(`--market: expected spot or contract, received ${JSON.stringify(opts.market)}`);
    const summary = await importCommand({
      kind: opts.kind as (typeof IMPORT_KINDS)[number],
      input: files,
      out: opts.out,
      market: opts.market,
      ...(opts.symbol ? { symbol: opts.symbol } : {}),
      ...(opts.interval ? { interval: opts.interval as never } : {}),
      ...(opts.skipBadRows ? { onBadRow: 'skip' as const } : {}),
    });
    const streams = Object.entries(summary.byStream).map(([k, v]) => `${k}=${v}`).join(' ');
    process.stdout.write(`imported ${summary.records} records (${streams}) into ${summary.out} in ${(summary.elapsedMs / 1000).toFixed(1)} s` + (summary.badRows ? `; ${summary.badRows} bad rows skipped` : '') + '\n');
    for (const w of summary.warnings) process.stderr.write(`warning: ${w}\n`);
  });

program
  .command('record')
  .description('poll public market data as the runtime does and append it to a compressed record store (resumable)')
  .argument('<config>', 'record config (YAML)')
  .option('--out <dir>', 'store folder (overrides out)')
  .option('--duration <seconds>', 'stop after this many seconds', (v) => Number(v))
  .action(async (file: string, o: { out?: string; duration?: number }) => {
    const { recordCommand } = await import('../marketdata/recorder/record-command.js');
    const s = await recordCommand({ config: file, ...(o.out ? { out: o.out } : {}), ...(o.duration !== undefined ? { duration: o.duration } : {}) });
    const streams = Object.entries(s.byStream).map(([k, v]) => `${k}=${v}`).join(' ');
    process.stdout.write(`recorded ${s.records} records (${streams}) into ${s.out} (${s.reason})\n`);
  });

program
  .command('backtest')
  .description('replay recorded market data through a strategy and write report.json and report.html')
  .argument('<config>', 'backtest config (YAML: a run config with a backtest: section)')
  .option('--out <dir>', 'report folder (default var/backtest/<config name>)')
  .action(async (file: string, o: { out?: string }) => {
    const { backtestCommand } = await import('../backtest/backtest-command.js');
    await backtestCommand({ config: file, ...(o.out ? { out: o.out } : {}) });
  });

program
  .command('sweep')
  .description('search strategy parameters (grid, random, TPE), validate walk-forward, and write a ranked report with overfitting statistics')
  .argument('<config>', 'backtest config with a sweep: section')
  .option('--out <dir>', 'output folder (default var/sweep/<config name>)')
  .option('--workers <n>', 'worker threads (default: cores less one)', (v) => Number(v))
  .option('--queue <redis-url>', 'put the runs on a BullMQ queue in Redis for `perpetua worker`s (e.g. redis://127.0.0.1:6379)')
  .action(async (file: string, o: { out?: string; workers?: number; queue?: string }) => {
    const { sweepCommand } = await import('../backtest/sweep-command.js');
    await sweepCommand({ config: file, ...(o.out ? { out: o.out } : {}), ...(o.workers !== undefined ? { workers: o.workers } : {}), ...(o.queue ? { queue: o.queue } : {}) });
  });

program
  .command('worker')
  .description('take sweep runs from a BullMQ queue in Redis (started by `perpetua sweep --queue`) until stopped')
  .requiredOption('--queue <redis-url>', 'the Redis the sweep coordinator uses (e.g. redis://10.0.0.5:6379)')
  .option('--concurrency <n>', 'runs at once (default 1: start one worker per core)', (v) => Number(v))
  .option('--lock-ms <ms>', "how soon a dead worker's run goes to another worker (default 30000)", (v) => Number(v))
  .action(async (o: { queue: string; concurrency?: number; lockMs?: number }) => {
    const { workerCommand } = await import('../backtest/research/queue-worker.js');
    await workerCommand({ queue: o.queue, ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}), ...(o.lockMs !== undefined ? { lockMs: o.lockMs } : {}) });
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  const e = err as Error;
  process.stderr.write(`perpetua: ${e.name === 'Error' ? '' : `${e.name}: `}${e.message}\n`);
  process.exit(1);
});
