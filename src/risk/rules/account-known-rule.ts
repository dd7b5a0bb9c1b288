import type { RiskRule } from '../risk-rule.js';
import { proposedOrders } from '../order-proposals.js';

/** Fail closed: no balances from the venue, no new orders. */
export const accountKnownRule: RiskRule = (intent, instrument, state) => {
  if (state.account) return undefined;
  if (proposedOrders(intent, instrument, state).length === 0) return undefined;
  return {
    rule: 'account-known',
    reason: `no ${instrument?.kind ?? ''} account balances known: cannot check funds (fail closed)`.replace('  ', ' '),
  };
};
