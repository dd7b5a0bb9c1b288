import { ZERO } from '../../core/decimal.js';
import { isLive } from '../../domain/order.js';
import { legOf, positionQty } from '../exposure.js';
import { fmt, isOpening, orderRemaining, proposalRemaining, proposedOrders, releasedIds, slotOf } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const RULE = 'reduce-only';

/**
 * Orders that close must have something to close: a one-way reduce-only order must oppose the net
 * position and, with the other closing orders of that side, not exceed it; a hedged close (sell the
 * long leg, buy the short leg) likewise against its leg. reduceOnly does not exist on spot, and the
 * contract API takes it only in one-way mode.
 */
export const reduceOnlyRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  const proposals = proposedOrders(intent, instrument, state);
  const taken = new Map<string, typeof ZERO>();
  for (const p of proposals) {
    const s = p.spec;
    if (instrument.kind === 'spot') {
      if (s.reduceOnly) return { rule: RULE, reason: 'spot orders cannot be reduce-only', ...slotOf(p) };
      continue;
    }
    if (s.reduceOnly && state.positionMode === 'hedged')
      return {
        rule: RULE,
        reason: 'reduceOnly is accepted only in one-way mode; in hedged mode close the leg with its close side',
        ...slotOf(p),
      };
    if (isOpening(s)) continue;
    const leg = legOf(s);
    const pos = positionQty(state.positions, instrument.symbol, leg);
    // The position size this order may close: long positions close with sells, short with buys.
    const closable = s.side === 'sell' ? (pos.gt(0) ? pos : ZERO) : pos.lt(0) ? pos.neg() : ZERO;
    if (closable.isZero()) {
      return {
        rule: RULE,
        reason: `${s.side} ${fmt(s.quantity ?? 0)} closes nothing: the ${instrument.symbol} ${leg} position is ${fmt(pos)}`,
        ...slotOf(p),
      };
    }
    const key = `${leg}|${s.side}`;
    let pending = taken.get(key);
    if (pending === undefined) {
      pending = ZERO;
      // Only a closing proposal needs the released orders (a quote set of opening quotes never gets here).
      const released = releasedIds(intent, state);
      for (const o of state.openOrders) {
        if (
          !isLive(o.status) ||
          released.has(o.clientOrderId) ||
          o.symbol !== instrument.symbol ||
          legOf(o) !== leg ||
          o.side !== s.side ||
          isOpening(o)
        )
          continue;
        pending = pending.plus(orderRemaining(o));
      }
    }
    const after = pending.plus(proposalRemaining(p));
    taken.set(key, after);
    if (after.gt(closable)) {
      return {
        rule: RULE,
        reason: `closing ${s.side} orders would total ${fmt(after)} (this ${fmt(proposalRemaining(p))} + ${fmt(pending)} already open) but the ${leg} position is ${fmt(pos)}`,
        ...slotOf(p),
      };
    }
  }
  return undefined;
};
