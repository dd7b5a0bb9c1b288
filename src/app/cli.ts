#!/usr/bin/env node
/**
 * The `perpetua` command. Each sub-command loads its module lazily so `perpetua endpoints` does not pay
 * for the emulator or the runtime.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { durationFlagSeconds } from '../core/duration.js';
import { PerpetuaError } from '../core/errors.js';
import type { ImportKind } from '../marketdata/import/import-kinds.js';

// `perpetua endpoints | head` closes stdout early: that is the reader's choice, not an error to print a stack for.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

/** package.json sits three levels above dist/src/app/cli.js (and above src/app/cli.ts). */
const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command();
program
  .name('perpetua')
  .description('Algorithmic trading framework: client, emulator, runtime and backtests')
  .version(version, '-V, --version', 'print the version')
  .showHelpAfterError();

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
    const { emulatorCommand } = await import('./cli/emulator-command.js');
    await emulatorCommand(opts);
  });

program
  .command('validate')
  .description(
    'check a config of any kind (run, backtest, sweep, emulator, record): exit 0 with a summary line, or 1 with every problem and its YAML path',
  )
  .argument('<config>', 'config (YAML); its kind comes from a `kind:` key or from its keys')
  .action(async (file: string) => {
    const { validateConfig } = await import('./cli/validate-command.js');
    const r = await validateConfig(file);
    (r.ok ? process.stdout : process.stderr).write(`${r.lines.join('\n')}\n`);
    process.exitCode = r.ok ? 0 : 1;
  });

program
  .command('strategies')
  .description('list every strategy (built-in, and those a config or --module loads) with its parameters and defaults')
  .option('--config <file>', "also the strategies this config's strategyModules load")
  .option('--module <path...>', 'also the strategies of these modules or folders')
  .option('--json', 'print JSON instead of a table')
  .action(async (o: { config?: string; module?: string[]; json?: boolean }) => {
    const { listStrategies, renderStrategies } = await import('./cli/strategies-command.js');
    const list = await listStrategies({ ...(o.config ? { config: o.config } : {}), ...(o.module ? { modules: o.module } : {}) });
    process.stdout.write(o.json ? `${JSON.stringify(list, null, 2)}\n` : `${renderStrategies(list)}`);
  });

program
  .command('new-strategy')
  .description('write a documented strategy template, its unit test and a paper config that loads it (no framework edit)')
  .argument('<name>', 'strategy name: lowercase letters, digits and dashes (e.g. dip-buyer)')
  .option('--dir <folder>', 'where to write it, inside the project', 'my-strategies')
  .action(async (name: string, o: { dir: string }) => {
    const { newStrategy } = await import('./cli/new-strategy-command.js');
    const r = newStrategy(name, { dir: o.dir });
    process.stdout.write(`${r.files.map((f) => `wrote ${f}`).join('\n')}\nnext:\n${r.next.map((l) => `  ${l}`).join('\n')}\n`);
  });

program
  .command('test')
  .description("compile and run your strategies' unit tests (*.test.ts in the given files or folders) with node's test runner")
  .argument('<paths...>', 'test files or folders of them (e.g. my-strategies)')
  .action(async (paths: string[]) => {
    const { testStrategies } = await import('../runtime/plugins/strategy-plugins.js');
    process.exitCode = testStrategies(paths);
  });

for (const view of ['orders', 'fills', 'positions'] as const) {
  program
    .command(view)
    .description(`print the ${view} a run journaled (oldest first), as a table, CSV or JSON`)
    .requiredOption('--journal <file>', "the run's SQLite journal (journal.path of its config, or its --journal)")
    .option('--format <format>', 'table | csv | json', 'table')
    .option('--strategy <id>', 'only this strategy id')
    .option('--symbol <symbol>', 'only this symbol')
    .action(async (o: { journal: string; format: string; strategy?: string; symbol?: string }) => {
      const { journalRows, renderRows, OUTPUT_FORMATS } = await import('./cli/journal-command.js');
      if (!(OUTPUT_FORMATS as readonly string[]).includes(o.format))
        throw new Error(`--format: expected one of ${OUTPUT_FORMATS.join(', ')}, received ${JSON.stringify(o.format)}`);
      const rows = journalRows(o.journal, view, {
        ...(o.strategy ? { strategy: o.strategy } : {}),
        ...(o.symbol ? { symbol: o.symbol } : {}),
      });
      process.stdout.write(renderRows(rows, o.format as 'table', `no ${view} in ${o.journal}`));
    });
}

program
  .command('run')
  .description('run the strategies of a config: live, or paper against the emulator (embedded or running)')
  .argument('<config>', 'run config (YAML)')
  .option('--duration <time>', 'stop by itself after this long (90s, 10m, 2h, or seconds)', (v) => durationFlagSeconds('--duration', v))
  .option('--no-cancel-on-exit', "leave this run's orders resting when it stops")
  .option('--journal <path>', 'journal file (overrides journal.path)')
  .option('--emulator-port <n>', "port of the embedded emulator (overrides its config's port; 0 = any free port)", (v) =>
    portFlag('--emulator-port', v),
  )
  .action(async (file: string, opts: { duration?: number; cancelOnExit?: boolean; journal?: string; emulatorPort?: number }) => {
    const { runCommand } = await import('./cli/run-command.js');
    process.exitCode = await runCommand(file, {
      ...(opts.duration !== undefined ? { duration: opts.duration } : {}),
      ...(opts.cancelOnExit === false ? { cancelOnExit: false } : {}),
      ...(opts.journal ? { journal: opts.journal } : {}),
      ...(opts.emulatorPort !== undefined ? { emulatorPort: opts.emulatorPort } : {}),
    });
  });

program
  .command('import')
  .description(
    'import recorded market data people already have (kline, trade, funding, mark/index CSVs, L2 recordings) into a record store',
  )
  .requiredOption('--kind <kind>', 'klines | mark | index | funding | trades | l2 | records')
  .requiredOption('--market <market>', 'spot | contract')
  .requiredOption('--out <dir>', 'record store folder (created, or appended to)')
  .option('--symbol <symbol>', 'instrument written into every record (default: from the data or file name)')
  .option('--interval <interval>', 'candle interval for klines/mark/index (default: inferred)')
  .option('--skip-bad-rows', 'skip malformed rows instead of stopping at the first one')
  .argument('<files...>', 'input files, read in this order')
  .action(
    async (
      files: string[],
      opts: { kind: string; market: string; out: string; symbol?: string; interval?: string; skipBadRows?: boolean },
    ) => {
      const { importCommand } = await import('./cli/import-command.js');
      if (opts.market !== 'spot' && opts.market !== 'contract')
        throw new Error(`--market: expected spot or contract, received ${JSON.stringify(opts.market)}`);
      const summary = await importCommand({
        kind: opts.kind as ImportKind,
        input: files,
        out: opts.out,
        market: opts.market,
        ...(opts.symbol ? { symbol: opts.symbol } : {}),
        ...(opts.interval ? { interval: opts.interval as never } : {}),
        ...(opts.skipBadRows ? { onBadRow: 'skip' as const } : {}),
      });
      const streams = Object.entries(summary.byStream)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      process.stdout.write(
        `imported ${summary.records} records (${streams}) into ${summary.out} in ${(summary.elapsedMs / 1000).toFixed(1)} s` +
          (summary.badRows ? `; ${summary.badRows} bad rows skipped` : '') +
          '\n',
      );
      for (const w of summary.warnings) process.stderr.write(`warning: ${w}\n`);
    },
  );

program
  .command('schema')
  .description('print the JSON Schema of a config kind (run, backtest, sweep, emulator, record) for editors; docs/schemas/ has them all')
  .argument('<kind>', 'run | backtest | sweep | emulator | record')
  .option('--write <dir>', 'write every kind to <dir>/<kind>.schema.json instead')
  .action(async (kind: string, o: { write?: string }) => {
    const { CONFIG_KINDS } = await import('../core/config-kind.js');
    const { allConfigSchemas, configJsonSchema } = await import('./cli/config-schemas.js');
    if (o.write) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const path = await import('node:path');
      mkdirSync(o.write, { recursive: true });
      for (const s of allConfigSchemas()) {
        writeFileSync(path.join(o.write, s.file), s.text);
        process.stdout.write(`wrote ${path.join(o.write, s.file)}\n`);
      }
      return;
    }
    if (!(CONFIG_KINDS as readonly string[]).includes(kind))
      throw new Error(`kind: expected one of ${CONFIG_KINDS.join(', ')}, received ${JSON.stringify(kind)}`);
    process.stdout.write(`${JSON.stringify(configJsonSchema(kind as (typeof CONFIG_KINDS)[number]), null, 2)}\n`);
  });

const data = program.command('data').description('look into record stores (what `perpetua record` and `perpetua import` write)');
data
  .command('list')
  .description('symbols, streams, time span and record counts of a record store (read from its index)')
  .argument('<store>', 'record store folder')
  .option('--json', 'print JSON instead of a table')
  .action(async (dir: string, o: { json?: boolean }) => {
    const { RecordStoreReader } = await import('../marketdata/store/record-store-reader.js');
    const { storeListingLines } = await import('../marketdata/store/store-listing.js');
    const reader = RecordStoreReader.open(dir);
    try {
      const summary = reader.summary();
      process.stdout.write(
        o.json ? `${JSON.stringify({ store: dir, ...summary }, null, 2)}\n` : `${storeListingLines(dir, summary).join('\n')}\n`,
      );
      for (const w of reader.warnings) process.stderr.write(`warning: ${w}\n`);
    } finally {
      reader.close();
    }
  });

program
  .command('record')
  .description('poll public market data as the runtime does and append it to a compressed record store (resumable)')
  .argument('<config>', 'record config (YAML)')
  .option('--out <dir>', 'store folder (overrides out)')
  .option('--duration <time>', 'stop after this long (90s, 10m, 2h, or seconds; overrides duration)', (v) =>
    durationFlagSeconds('--duration', v),
  )
  .action(async (file: string, o: { out?: string; duration?: number }) => {
    const { recordCommand } = await import('./cli/record-command.js');
    const s = await recordCommand({
      config: file,
      ...(o.out ? { out: o.out } : {}),
      ...(o.duration !== undefined ? { duration: o.duration } : {}),
    });
    const streams = Object.entries(s.byStream)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    process.stdout.write(`recorded ${s.records} records (${streams}) into ${s.out} (${s.reason})\n`);
  });

program
  .command('backtest')
  .description('replay recorded market data through a strategy and write report.json and report.html')
  .argument('<config>', 'backtest config (YAML: a run config with a backtest: section)')
  .option('--out <dir>', 'report folder (default var/backtest/<config name>)')
  .option(
    '--workers <n>',
    'fill models run at once, this process and worker threads (default: all of a long run on a machine with a core for each and one more, else 1: one after another)',
    (v) => Number(v),
  )
  .action(async (file: string, o: { out?: string; workers?: number }) => {
    (await import('./cli/heap-growth.js')).useBatchHeapGrowth();
    const { backtestCommand } = await import('./cli/backtest-command.js');
    await backtestCommand({ config: file, ...(o.out ? { out: o.out } : {}), ...(o.workers !== undefined ? { workers: o.workers } : {}) });
  });

program
  .command('sweep')
  .description(
    'search strategy parameters (grid, random, TPE), validate walk-forward, and write a ranked report with overfitting statistics',
  )
  .argument('<config>', 'backtest config with a sweep: section')
  .option('--out <dir>', 'output folder (default var/sweep/<config name>)')
  .option('--workers <n>', 'worker threads (default: cores less one)', (v) => Number(v))
  .option('--queue <redis-url>', 'put the runs on a BullMQ queue in Redis for `perpetua worker`s (e.g. redis://127.0.0.1:6379)')
  .option('--resume', 'continue an interrupted sweep: keep the finished runs of <out>/checkpoint.jsonl, run only the rest')
  .action(async (file: string, o: { out?: string; workers?: number; queue?: string; resume?: boolean }) => {
    (await import('./cli/heap-growth.js')).useBatchHeapGrowth();
    const { sweepCommand } = await import('./cli/sweep-command.js');
    const where = {
      ...(o.out ? { out: o.out } : {}),
      ...(o.workers !== undefined ? { workers: o.workers } : {}),
      ...(o.queue ? { queue: o.queue } : {}),
    };
    await sweepCommand({ config: file, ...where, resume: o.resume === true, handleSignals: true });
  });

program
  .command('worker')
  .description('take sweep runs from a BullMQ queue in Redis (started by `perpetua sweep --queue`) until stopped')
  .requiredOption('--queue <redis-url>', 'the Redis the sweep coordinator uses (e.g. redis://10.0.0.5:6379)')
  .option('--concurrency <n>', 'runs at once (default 1: start one worker per core)', (v) => Number(v))
  .option('--lock-ms <ms>', "how soon a dead worker's run goes to another worker (default 30000)", (v) => Number(v))
  .action(async (o: { queue: string; concurrency?: number; lockMs?: number }) => {
    (await import('./cli/heap-growth.js')).useBatchHeapGrowth();
    const { workerCommand } = await import('../backtest/research/queue-worker.js');
    await workerCommand({
      queue: o.queue,
      ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
      ...(o.lockMs !== undefined ? { lockMs: o.lockMs } : {}),
    });
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  if ((err as Error).name === 'RerunUnbundled') {
    // Bundled (scripts/bundle-cli.mjs), where this URL is still dist/src/app/cli.js: the command loads
    // strategy modules from outside, which need the framework as dist holds it; nothing was written yet.
    const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: 'inherit',
    });
    process.exit(r.status ?? 1);
  }
  process.stderr.write(`${describeFailure(err)}\n`);
  process.exit(1);
});

/** A TCP port flag: an integer 0–65535, else an error naming the flag. */
function portFlag(flag: string, v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n > 65535)
    throw new InvalidArgumentError(`${flag}: expected a port number 0-65535, received ${JSON.stringify(v)}`);
  return n;
}

/**
 * How a failed command reads: a config with problems lists every one with its path (as `validate`
 * does); our own errors print their message without the class name; anything else is a bug and keeps
 * its name.
 */
function describeFailure(err: unknown): string {
  const e = err as Error & { issues?: readonly unknown[]; source?: string; lines?: () => string[] };
  if (Array.isArray(e.issues) && typeof e.lines === 'function') {
    const n = e.issues.length;
    return [`perpetua: ${e.source ?? 'config'}: ${n} problem${n === 1 ? '' : 's'}`, ...e.lines().map((l) => `  ${l}`)].join('\n');
  }
  return `perpetua: ${e instanceof PerpetuaError || e.name === 'Error' ? '' : `${e.name}: `}${e.message}`;
}
