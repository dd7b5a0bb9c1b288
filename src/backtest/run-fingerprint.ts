/**
 * Fingerprints of a run's trading record: one SHA-256 per series — the order list, the fills, the
 * funding payments and the sampled equity series (time, equity, cash, positions, marks) — each over
 * the report's canonical JSON of every element. Two runs that differ in one digit of one fill get
 * different fingerprints; the pinned-runs test holds them for the shipped configs (a speed change
 * must keep every one), and the backtest command uses them to tell fill models that traded alike.
 */
import { createHash } from 'node:crypto';
import { fillToJson, fundingToJson, orderToJson, sampleToJson, type BacktestRun } from './report/backtest-run.js';

export interface RunFingerprint {
  readonly orders: string;
  readonly fills: string;
  readonly funding: string;
  readonly equity: string;
  /** Counts, so a difference says at a glance what moved. */
  readonly counts: string;
}

function sha<T>(items: readonly T[], toJson: (x: T) => unknown): string {
  const h = createHash('sha256');
  for (const x of items) h.update(`${JSON.stringify(toJson(x))}\n`);
  return h.digest('hex').slice(0, 32);
}

export function runFingerprint(run: BacktestRun): RunFingerprint {
  return {
    orders: sha(run.orders, orderToJson),
    fills: sha(run.fills, fillToJson),
    funding: sha(run.funding, fundingToJson),
    equity: sha(run.samples, sampleToJson),
    counts: `${run.orders.length} orders, ${run.fills.length} fills, ${run.funding.length} funding, ${run.samples.length} samples`,
  };
}

/**
 * What a run earned, without when each request happened: every fill's side, price, size, fee and
 * liquidity in order, the funding and the equity series. Fill models that differ only in latency give
 * the same outcome when no market event falls inside the latency (taker orders on 1-minute bars).
 */
export function runOutcome(run: BacktestRun): string {
  const h = createHash('sha256');
  for (const f of run.fills)
    h.update(`${f.symbol} ${f.side} ${f.price.toFixed()} ${f.quantity.toFixed()} ${f.fee.toFixed()} ${f.feeAsset} ${f.liquidity}\n`);
  const fp = runFingerprint(run);
  h.update(`${fp.funding} ${fp.equity}`);
  return h.digest('hex');
}
