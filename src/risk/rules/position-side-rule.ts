import { proposedOrders, slotOf } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const RULE = 'position-side';

/**
 * Contract orders must match the position mode: hedged orders name the leg (positionSide), one-way
 * orders do not. An unknown mode denies (fail closed): the venue would map the side differently.
 */
export const positionSideRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  for (const p of proposedOrders(intent, instrument, state)) {
    if (instrument.kind === 'spot') {
      if (p.spec.positionSide)
        return { rule: RULE, reason: `spot orders have no position side (got ${p.spec.positionSide})`, ...slotOf(p) };
      continue;
    }
    if (!state.positionMode) return { rule: RULE, reason: `position mode of the contract account is unknown (fail closed)`, ...slotOf(p) };
    if (state.positionMode === 'hedged' && !p.spec.positionSide)
      return { rule: RULE, reason: `hedged mode: the order must name its position side (long or short)`, ...slotOf(p) };
    if (state.positionMode === 'one-way' && p.spec.positionSide)
      return { rule: RULE, reason: `one-way mode: the order must not name a position side (got ${p.spec.positionSide})`, ...slotOf(p) };
  }
  return undefined;
};
