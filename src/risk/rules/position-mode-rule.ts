import { isLive } from '../../domain/order.js';
import type { RiskRule } from '../risk-rule.js';

/** The venue changes position mode only with no open orders and no positions (contract-api.md §3). */
export const positionModeRule: RiskRule = (intent, _instrument, state) => {
  if (intent.kind !== 'set-position-mode') return undefined;
  if (state.positionMode === intent.mode) return undefined;
  const orders = state.openOrders.filter((o) => o.kind === 'contract' && isLive(o.status)).length;
  const positions = state.positions.filter((p) => p.kind === 'contract' && !p.quantity.isZero()).length;
  if (orders === 0 && positions === 0) return undefined;
  return {
    rule: 'position-mode-change',
    reason: `switching to ${intent.mode} needs no open orders and no positions; there are ${orders} open contract orders and ${positions} open positions`,
  };
};
