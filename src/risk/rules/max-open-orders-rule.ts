import { isLive } from '../../domain/order.js';
import { byTouchPriority, proposedOrders, releasedOrders } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const RULE = 'max-open-orders';

/**
 * Contract: open orders per contract ≤ maxNumOrders[hedged, one-way] (the smaller when the mode is
 * unknown). Spot: open orders per account ≤ the cap (500). Orders pending cancel still count: the
 * venue counts them until it confirms.
 */
export const maxOpenOrdersRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  const proposals = proposedOrders(intent, instrument, state);
  if (proposals.length === 0) return undefined;
  const released = releasedOrders(intent, state).length;
  let current: number;
  let cap: number;
  let scope: string;
  if (instrument.kind === 'contract') {
    current = state.openOrders.filter((o) => o.symbol === instrument.symbol && isLive(o.status)).length;
    const [hedged, oneWay] = instrument.maxNumOrders;
    cap = state.positionMode === 'hedged' ? hedged : state.positionMode === 'one-way' ? oneWay : Math.min(hedged, oneWay);
    scope = `${instrument.symbol} (${state.positionMode ?? 'position mode unknown'})`;
  } else {
    const ours = state.openOrders.filter((o) => o.kind === 'spot' && isLive(o.status)).length;
    current = Math.max(ours, state.venueOpenOrderCount ?? 0);
    cap = state.limits.spotOpenOrderCap;
    scope = 'the spot account';
  }
  let after = current - released;
  // The count only grows: when the whole set fits, no quote is denied, and no sort is needed to name one.
  if (after + proposals.length <= cap) return undefined;
  for (const p of byTouchPriority(proposals)) {
    after += 1;
    if (after > cap) {
      return {
        rule: RULE,
        reason: `${after} open orders on ${scope} would exceed the limit of ${cap} (now ${current})`,
        ...(p.slot ? { slot: p.slot } : {}),
      };
    }
  }
  return undefined;
};
