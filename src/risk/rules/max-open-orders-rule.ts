import { isLive } from '../../domain/order.js';
import { byTouchPriority, proposedOrders, releasedOrders } from '../order-proposals.js';
import type { Instrument } from '../../domain/instrument.js';
import type { RiskRule, RiskState } from '../risk-rule.js';

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
  // Counted in a loop, and the scope worded only for a denial: every quote set of every snapshot filtered
  // a copy of the open orders to count them and built the scope's text for a denial it almost never makes.
  let current = 0;
  let cap: number;
  const open = state.openOrders;
  if (instrument.kind === 'contract') {
    for (let i = 0; i < open.length; i++) if (open[i]!.symbol === instrument.symbol && isLive(open[i]!.status)) current++;
    const [hedged, oneWay] = instrument.maxNumOrders;
    cap = state.positionMode === 'hedged' ? hedged : state.positionMode === 'one-way' ? oneWay : Math.min(hedged, oneWay);
  } else {
    for (let i = 0; i < open.length; i++) if (open[i]!.kind === 'spot' && isLive(open[i]!.status)) current++;
    current = Math.max(current, state.venueOpenOrderCount ?? 0);
    cap = state.limits.spotOpenOrderCap;
  }
  let after = current - released;
  // The count only grows: when the whole set fits, no quote is denied, and no sort is needed to name one.
  if (after + proposals.length <= cap) return undefined;
  for (const p of byTouchPriority(proposals)) {
    after += 1;
    if (after > cap) {
      return {
        rule: RULE,
        reason: `${after} open orders on ${scopeOf(instrument, state)} would exceed the limit of ${cap} (now ${current})`,
        ...(p.slot ? { slot: p.slot } : {}),
      };
    }
  }
  return undefined;
};

/** What the limit counts, for the denial: one contract in a position mode, or the spot account. */
function scopeOf(instrument: Instrument, state: RiskState): string {
  return instrument.kind === 'contract' ? `${instrument.symbol} (${state.positionMode ?? 'position mode unknown'})` : 'the spot account';
}
