/**
 * `npm run bench`: runs every suite (or those named on the command line) and prints one table with our
 * figure, the baseline measured in the same run, the ratio and the budget from the issues.
 */
import type { BenchRow, BenchSuite } from './bench-row.js';

const SUITES: Record<string, () => Promise<{ suite: BenchSuite }>> = {
  // issue 2: signed request build + response parse per call
  client: () => import('./client-bench.js'),
  // issue 3: matching engine vs a published JS order book; signed placement vs a bare node:http endpoint
  engine: () => import('./engine-bench.js'),
  emulator: () => import('./emulator-bench.js'),
  'contract-venue': () => import('./contract-venue-bench.js'),
  // issue 4: snapshot → intent → request latency
  'runtime-core': () => import('./runtime-core-bench.js'),
  // issue 5: backtest events/s from memory and from disk; the record store; the tape
  backtest: () => import('./backtest-bench.js'),
  store: () => import('./store-bench.js'),
  // issue 13: the kline path (perp-trend on 50.8 days of 1-minute bars) and the whole backtest command
  'backtest-klines': () => import('./backtest-klines-bench.js'),
  // issue 13: peak memory and report size of a 90-day backtest command
  'backtest-memory': () => import('./backtest-memory-bench.js'),
  'market-model': () => import('./tape-aggregator-bench.js'),
  // issue 6: triggers and fee model on the price/fill paths
  triggers: () => import('./trigger-book-bench.js'),
  'fee-model': () => import('./fee-model-bench.js'),
  // issue 17: per-run overhead of a distributed sweep (BullMQ + Redis) vs worker threads
  sweep: () => import('./sweep-bench.js'),
};

function fmt(n: number | undefined): string {
  if (n === undefined) return '';
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  return n.toPrecision(4);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const names = wanted.length ? wanted : Object.keys(SUITES);
  const rows: { suite: string; row: BenchRow }[] = [];
  for (const name of names) {
    const load = SUITES[name];
    if (!load) throw new Error(`unknown bench suite ${name}; known: ${Object.keys(SUITES).join(', ')}`);
    const { suite } = await load();
    process.stderr.write(`running ${suite.title}…\n`);
    for (const row of await suite.run()) rows.push({ suite: suite.title, row });
  }
  const header = ['suite', 'measure', 'ours', 'baseline', 'ratio', 'unit', 'budget', 'verdict'];
  const table = rows.map(({ suite, row }) => {
    const ratio = row.baseline ? row.ours / row.baseline : undefined;
    const verdict =
      row.budget === undefined
        ? ''
        : (row.higherIsBetter ?? true)
          ? row.ours >= row.budget
            ? 'within budget'
            : 'OVER BUDGET'
          : row.ours <= row.budget
            ? 'within budget'
            : 'OVER BUDGET';
    return [
      suite,
      row.name,
      fmt(row.ours),
      row.baseline === undefined ? '' : `${fmt(row.baseline)} (${row.baselineName ?? 'baseline'})`,
      ratio === undefined ? '' : `${ratio.toFixed(2)}×`,
      row.unit,
      row.budget === undefined ? '' : fmt(row.budget),
      verdict,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of table) console.log(line(r));
  for (const { row } of rows) if (row.note) console.log(`note (${row.name}): ${row.note}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
