/**
 * One line of `npm run bench`. Every measurement is reported next to a baseline measured in the same
 * run on the same input, because absolute times drift on shared machines; the ratio is what we judge.
 */
export interface BenchRow {
  /** What was measured, e.g. "matching engine: orders/s". */
  readonly name: string;
  /** Our figure. */
  readonly ours: number;
  /** The baseline's figure on the same input, when there is one. */
  readonly baseline?: number;
  readonly baselineName?: string;
  /** Unit of ours/baseline, e.g. "ops/s", "ns/call", "µs". */
  readonly unit: string;
  /** Budget from the issue, in the same unit, and whether larger is better. */
  readonly budget?: number;
  readonly higherIsBetter?: boolean;
  readonly note?: string;
}

export interface BenchSuite {
  readonly title: string;
  run(): Promise<BenchRow[]>;
}

/** Runs fn repeatedly for at least minMs and returns operations per second (ops counted by fn's return). */
export function measure(fn: () => number, minMs = 1000): { opsPerSec: number; ops: number; ms: number } {
  const t0 = process.hrtime.bigint();
  let ops = 0;
  let elapsed = 0;
  do {
    ops += fn();
    elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
  } while (elapsed < minMs);
  return { opsPerSec: (ops * 1000) / elapsed, ops, ms: elapsed };
}
