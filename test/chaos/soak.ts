/**
 * `npm run soak -- --minutes N [--seed S] [--strategies spot-market-maker,perp-trend] [--keep]`: the chaos
 * run of test/chaos for longer, both processes killed, and the table printed. Exit code 1 when any
 * count that must be zero is not.
 */
import 'reflect-metadata';
import { Command } from 'commander';
import type { InstrumentSymbol } from '../../src/core/ids.js';
import { formatChaosTable, runChaos, type ChaosStrategy } from './chaos-driver.js';

const program = new Command()
  .name('soak')
  .option('--minutes <n>', 'length of the chaos phase', (v) => Number(v), 5)
  .option('--seed <n>', 'seed of the kills and faults', (v) => Number(v), 1)
  .option('--strategies <list>', 'comma-separated: spot-market-maker, perp-trend', 'spot-market-maker,perp-trend')
  .option('--keep', 'keep the work folder (logs, journal, emulator state)')
  .parse();
const opts = program.opts<{ minutes: number; seed: number; strategies: string; keep?: boolean }>();
if (!Number.isFinite(opts.minutes) || opts.minutes <= 0) {
  process.stderr.write(`--minutes: expected a number > 0, received ${String(opts.minutes)}\n`);
  process.exit(2);
}
const strategies = opts.strategies.split(',').map((s) => s.trim()) as ChaosStrategy[];
for (const s of strategies) {
  if (s !== 'spot-market-maker' && s !== 'perp-trend') {
    process.stderr.write(`--strategies: expected spot-market-maker and/or perp-trend, received ${JSON.stringify(s)}\n`);
    process.exit(2);
  }
}
const t = await runChaos({
  seed: opts.seed,
  durationMs: opts.minutes * 60_000,
  strategies,
  emulator: 'process',
  // As the suite does: the first bot life lasts until perp-trend has an order at the venue, so a slow
  // start-up cannot leave the perpetual path untested.
  ...(strategies.includes('perp-trend') ? { tradeFirst: ['BTC_USDT' as InstrumentSymbol] } : {}),
  ...(opts.keep ? { keep: true } : {}),
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${formatChaosTable(t)}\n`);
const problems = [...t.audit.problems, ...t.restartProblems];
if (problems.length) process.stdout.write(`\nproblems:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
if (opts.keep) process.stdout.write(`work folder: ${t.workDir}\n`);
if (t.crashOutputs.length) process.stdout.write(`\nbot runs that died by themselves:\n${t.crashOutputs.join('\n')}\n`);
process.exitCode = problems.length || t.botCrashes ? 1 : 0;
