/**
 * What the configured cadences cost, before anything is polled. Spot public endpoints draw on the
 * per-IP weight budget (shared with orders and account calls); contract endpoints are metered one by
 * one. A configuration whose steady rate exceeds the budget is refused at start-up, naming the stream
 * that costs most in the bucket that overflows — a poller that would live on 429s is worse than none.
 */
import { spotCatalogue } from '../../api/spot/catalogue.js';
import { contractCatalogue } from '../../api/contract/catalogue.js';
import { weightOf, type EndpointDef } from '../../api/endpoint.js';
import { DEFAULT_RATE_LIMITS } from '../../client/rate-limiter.js';
import { ConfigError } from '../../core/errors.js';
import type { PollBudget, ResolvedInstrumentPoll, StreamName } from './poll-config.js';

/**
 * Half of what the client's limiter allows: spot 200 weight per 10 s → 10/s for market data; contract
 * 18 per 2 s per endpoint → 4.5/s. The other half is for orders, reconciliation and a recorder.
 */
export const DEFAULT_POLL_BUDGET: PollBudget = Object.freeze({
  spotWeightPerSecond: DEFAULT_RATE_LIMITS.ipWeight.limit / (DEFAULT_RATE_LIMITS.ipWeight.windowMs / 1000) / 2,
  contractCallsPerSecondPerEndpoint:
    DEFAULT_RATE_LIMITS.contractEndpoint.limit / (DEFAULT_RATE_LIMITS.contractEndpoint.windowMs / 1000) / 2,
});

export interface StreamCost {
  readonly symbol: string;
  readonly stream: StreamName;
  /** Config path of the stream. */
  readonly path: string;
  /** `spot-ip-weight` or `contract:<endpoint id>`. */
  readonly bucket: string;
  /** Weight (spot) or calls (contract) per second at the effective period. */
  readonly perSecond: number;
}

export interface BucketUsage {
  readonly bucket: string;
  readonly perSecond: number;
  readonly limit: number;
  readonly streams: readonly StreamCost[];
}

const SPOT_BUCKET = 'spot-ip-weight';

function defOf(kind: 'spot' | 'contract', method: string): EndpointDef {
  const def = (kind === 'spot' ? (spotCatalogue as Record<string, EndpointDef>) : (contractCatalogue as Record<string, EndpointDef>))[
    method
  ];
  if (!def) throw new Error(`no ${kind} catalogue entry ${method}`);
  return def;
}

/** Cost of every configured stream, by bucket. */
export function pollBudgetUsage(instruments: readonly ResolvedInstrumentPoll[], budget: PollBudget): BucketUsage[] {
  const buckets = new Map<string, StreamCost[]>();
  for (const inst of instruments) {
    for (const s of inst.streams) {
      const perBucket = new Map<string, number>();
      for (const r of s.requests) {
        const def = defOf(inst.kind, r.method);
        const bucket = inst.kind === 'spot' ? SPOT_BUCKET : `contract:${def.id}`;
        const cost = inst.kind === 'spot' ? weightOf(def, r.params as Record<string, unknown>) : 1;
        perBucket.set(bucket, (perBucket.get(bucket) ?? 0) + (cost * 1000) / s.periodMs);
      }
      for (const [bucket, perSecond] of perBucket) {
        const list = buckets.get(bucket) ?? [];
        list.push({ symbol: inst.symbol, stream: s.name, path: s.path, bucket, perSecond });
        buckets.set(bucket, list);
      }
    }
  }
  return [...buckets.entries()].map(([bucket, streams]) => ({
    bucket,
    perSecond: streams.reduce((a, c) => a + c.perSecond, 0),
    limit: bucket === SPOT_BUCKET ? budget.spotWeightPerSecond : budget.contractCallsPerSecondPerEndpoint,
    streams,
  }));
}

const fmt = (n: number): string => (Math.round(n * 100) / 100).toString();

/** Throws ConfigError (path of the costliest stream of the first bucket over budget). */
export function assertPollBudget(instruments: readonly ResolvedInstrumentPoll[], budget: PollBudget): BucketUsage[] {
  const usage = pollBudgetUsage(instruments, budget);
  // A tiny epsilon: 10 weight/s from 1/0.1 s must pass a budget of exactly 10.
  for (const u of usage) {
    if (u.perSecond <= u.limit + 1e-9) continue;
    const worst = [...u.streams].sort((a, b) => b.perSecond - a.perSecond)[0]!;
    const unit = u.bucket === SPOT_BUCKET ? 'weight/s' : 'calls/s';
    const what = u.bucket === SPOT_BUCKET ? 'spot market data' : `contract endpoint ${u.bucket.slice('contract:'.length)}`;
    throw new ConfigError(
      worst.path,
      `${what} would use ${fmt(u.perSecond)} ${unit}, over the budget of ${fmt(u.limit)} ${unit}; the ${worst.symbol} ${worst.stream} stream alone uses ${fmt(worst.perSecond)} ${unit} — poll it less often (everyMs) or raise the budget`,
    );
  }
  return usage;
}
