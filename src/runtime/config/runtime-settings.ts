/**
 * The validated config mapped onto each layer's own options: RiskLimits for the risk engine, the
 * poller config for market data, the order manager's config, the runtime's execution policy, and
 * the canonical hash a journal run is stamped with.
 */
import { createHash } from 'node:crypto';
import { D } from '../../core/decimal.js';
import { isContractSymbol } from '../../core/ids.js';
import type { OrderManagerConfig } from '../../execution/order-manager.js';
import type { InstrumentPoll, MarketPollConfig } from '../../marketdata/poll/poll-config.js';
import type { RiskLimits, StrategyRiskLimits } from '../../risk/risk-rule.js';
import type { ExecutionPolicy } from '../runtime-options.js';
import type { RunConfig } from './run-config-schema.js';

export function toRiskLimits(c: RunConfig): RiskLimits {
  const strategies: Record<string, StrategyRiskLimits> = {};
  for (const [id, l] of Object.entries(c.risk.strategies)) {
    strategies[id] = {
      ...(l.maxPositionQty !== undefined ? { maxPositionQty: D(l.maxPositionQty) } : {}),
      ...(l.maxNotional !== undefined ? { maxNotional: D(l.maxNotional) } : {}),
    };
  }
  const k = c.risk.killSwitch;
  return {
    maxSnapshotAgeMs: c.marketData.maxSnapshotAgeMs,
    spotOpenOrderCap: c.risk.spotOpenOrderCap,
    strategies,
    killSwitch: {
      ...(k.maxDrawdown !== undefined ? { maxDrawdown: D(k.maxDrawdown) } : {}),
      ...(k.maxDailyLoss !== undefined ? { maxDailyLoss: D(k.maxDailyLoss) } : {}),
      ...(k.maxRejects !== undefined ? { maxRejects: k.maxRejects } : {}),
      rejectWindowMs: k.rejectWindowMs,
    },
  };
}

export function toPollConfig(c: RunConfig): MarketPollConfig {
  const md = c.marketData;
  const instruments: InstrumentPoll[] = c.instruments.map((symbol) =>
    isContractSymbol(symbol)
      ? { kind: 'contract', symbol, cycleMs: md.contract.cycleMs, streams: md.contract.streams }
      : { kind: 'spot', symbol, cycleMs: md.spot.cycleMs, streams: md.spot.streams },
  );
  return { instruments, backoff: md.backoff };
}

export function toOrderManagerConfig(c: RunConfig): Partial<OrderManagerConfig> {
  // A request delayed in the network can still be accepted until its recvWindow runs out; a minute
  // beyond that covers clock skew between us and the venue.
  return { unknownGraceMs: c.execution.unknownGraceMs ?? c.venue.recvWindowMs + 60_000 };
}

export function toExecutionPolicy(c: RunConfig, overrides: { cancelOnExit?: boolean } = {}): ExecutionPolicy {
  const e = c.execution;
  return {
    cancelOnExit: overrides.cancelOnExit ?? e.cancelOnExit,
    reconcileIntervalMs: e.reconcileIntervalMs,
    maxSnapshotAgeMs: c.marketData.maxSnapshotAgeMs,
    chaseMaxReprices: e.chase.maxReprices,
    // A few poll cycles: enough for the first answers of every stream, short enough to notice a dead feed.
    firstSnapshotTimeoutMs: Math.min(30_000, Math.max(5_000, 5 * Math.max(c.marketData.spot.cycleMs, c.marketData.contract.cycleMs))),
    ...(e.chase.priceCapBps !== undefined ? { chasePriceCapBps: D(e.chase.priceCapBps) } : {}),
  };
}

/** JSON with keys sorted at every level: the same config always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * sha256 of the canonical parsed config (defaults filled in, so an explicit default and an omitted one
 * hash alike). Inline secrets are replaced before hashing: the hash is journaled and printed.
 */
export function configHash(c: RunConfig): string {
  const safe: RunConfig = {
    ...c,
    venue: {
      ...c.venue,
      ...(c.venue.apiKey !== undefined ? { apiKey: '<inline>' } : {}),
      ...(c.venue.apiSecret !== undefined ? { apiSecret: '<inline>' } : {}),
    },
  };
  return createHash('sha256').update(canonicalJson(safe)).digest('hex');
}
