import { proposedOrders } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const RULE = 'market-data';

/** Fail closed: no snapshot, or one older than the limit, is no basis for pricing an order. */
export const marketDataRule: RiskRule = (intent, instrument, state) => {
  if (proposedOrders(intent, instrument, state).length === 0) return undefined;
  const s = state.snapshot;
  const symbol = instrument?.symbol ?? '';
  if (!s) return { rule: RULE, reason: `no market snapshot for ${symbol} (fail closed)` };
  if (s.symbol !== symbol) return { rule: RULE, reason: `the snapshot given is for ${s.symbol}, not ${symbol} (fail closed)` };
  const age = state.now - s.pollTime;
  if (age > state.limits.maxSnapshotAgeMs)
    return { rule: RULE, reason: `the ${symbol} snapshot is ${age} ms old; the limit is ${state.limits.maxSnapshotAgeMs} ms` };
  return undefined;
};
