import type { Decimal } from '../../core/decimal.js';
import type { PositionSide } from '../../domain/order.js';
import { markPrice } from '../../domain/snapshot.js';
import { directionOf, positionQty } from '../exposure.js';
import { findLiveOrder, fmt, proposedOrders } from '../order-proposals.js';
import type { Denial, RiskRule } from '../risk-rule.js';

const RULE = 'tpsl';

function check(direction: PositionSide, ref: Decimal, tp: Decimal | undefined, sl: Decimal | undefined, what: string): Denial | undefined {
  const long = direction === 'long';
  if (tp && !tp.isZero() && (long ? tp.lte(ref) : tp.gte(ref))) {
    return {
      rule: RULE,
      reason: `${what}: take-profit ${fmt(tp)} must be ${long ? 'above' : 'below'} ${fmt(ref)} for a ${direction} position`,
    };
  }
  if (sl && !sl.isZero() && (long ? sl.gte(ref) : sl.lte(ref))) {
    return {
      rule: RULE,
      reason: `${what}: stop-loss ${fmt(sl)} must be ${long ? 'below' : 'above'} ${fmt(ref)} for a ${direction} position`,
    };
  }
  return undefined;
}

/**
 * Take-profit above and stop-loss below the entry for longs (the reverse for shorts), TP/SL or plan
 * legs alike; a trailing or plan stop closes no more than the position it names. Spot has none. The reference is the order price, or the position's entry price, or the mark.
 */
export const tpslRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  if (intent.kind === 'attach-tpsl') {
    if (instrument.kind === 'spot') return { rule: RULE, reason: 'TP/SL is a contract feature; spot has none' };
    if (intent.clientOrderId) {
      const o = findLiveOrder(state, intent.clientOrderId);
      if (!o?.price) return undefined; // order-known reports it
      return check(directionOf(o), o.price, intent.takeProfitPrice, intent.stopLossPrice, `TP/SL on ${o.clientOrderId}`);
    }
    const leg = intent.positionSide ?? 'net';
    const pos = state.positions.find((p) => p.symbol === instrument.symbol && p.leg === leg && !p.quantity.isZero());
    if (!pos)
      return {
        rule: RULE,
        reason: `no open ${instrument.symbol} ${leg} position to attach TP/SL to (position ${fmt(positionQty(state.positions, instrument.symbol, leg))})`,
      };
    return check(
      pos.quantity.gt(0) ? 'long' : 'short',
      pos.entryPrice,
      intent.takeProfitPrice,
      intent.stopLossPrice,
      `TP/SL on the ${leg} position`,
    );
  }
  if (intent.kind === 'protective-order') {
    if (instrument.kind === 'spot') return { rule: RULE, reason: 'trailing and plan stops are a contract feature; spot has none' };
    const side = intent.positionSide;
    const pos = state.positions.find(
      (p) =>
        p.symbol === instrument.symbol && (p.leg === side || (p.leg === 'net' && (side === 'long' ? p.quantity.gt(0) : p.quantity.lt(0)))),
    );
    if (!pos) return { rule: RULE, reason: `no open ${instrument.symbol} ${side} position for a ${intent.spec.type} stop to close` };
    if (intent.quantity.gt(pos.quantity.abs()))
      return {
        rule: RULE,
        reason: `${intent.spec.type} stop of ${fmt(intent.quantity)} exceeds the ${side} position ${fmt(pos.quantity.abs())}`,
      };
    const s = intent.spec;
    if (s.type !== 'plan') return undefined;
    const what = `plan ${s.role} on the ${side} position`;
    return s.role === 'take-profit'
      ? check(side, pos.entryPrice, s.triggerPrice, undefined, what)
      : check(side, pos.entryPrice, undefined, s.triggerPrice, what);
  }
  for (const p of proposedOrders(intent, instrument, state)) {
    const s = p.spec;
    if (!s.takeProfitPrice && !s.stopLossPrice) continue;
    if (instrument.kind === 'spot') return { rule: RULE, reason: 'TP/SL is a contract feature; spot has none' };
    const ref = s.price ?? markPrice(state.snapshot);
    if (!ref) return { rule: RULE, reason: 'no price to check TP/SL against (fail closed)' };
    const d = check(directionOf(s), ref, s.takeProfitPrice, s.stopLossPrice, `${s.side} ${fmt(s.quantity ?? 0)}`);
    if (d) return d;
  }
  return undefined;
};
