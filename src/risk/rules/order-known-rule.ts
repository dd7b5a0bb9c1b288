import { findLiveOrder } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const RULE = 'order-known';

/** Amend / chase / TP-on-order must name a working order of the same strategy. */
export const orderKnownRule: RiskRule = (intent, _instrument, state) => {
  if (intent.kind !== 'amend' && intent.kind !== 'chase' && !(intent.kind === 'attach-tpsl' && intent.clientOrderId)) return undefined;
  const cid = intent.clientOrderId!;
  const o = findLiveOrder(state, cid);
  if (!o) return { rule: RULE, reason: `order ${cid} is not a live order of ours` };
  if (o.strategyId !== intent.strategyId)
    return { rule: RULE, reason: `order ${cid} belongs to strategy ${o.strategyId}, not ${intent.strategyId}` };
  if (o.symbol !== intent.symbol) return { rule: RULE, reason: `order ${cid} is on ${o.symbol}, not ${intent.symbol}` };
  if (intent.kind !== 'attach-tpsl' && o.status !== 'accepted' && o.status !== 'partially-filled') {
    return { rule: RULE, reason: `order ${cid} is ${o.status}; only a resting order can be amended or chased` };
  }
  if (intent.kind !== 'attach-tpsl' && o.type !== 'limit')
    return { rule: RULE, reason: `order ${cid} is a ${o.type} order; only limit orders can be amended or chased` };
  return undefined;
};
