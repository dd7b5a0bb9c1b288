import type { SpotOrderType } from '../../domain/spot-enums.js';
import type { OrderSpec } from '../../domain/order.js';
import { proposedOrders } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

/** Spot wire type of a venue-neutral type and time in force. */
export function spotOrderTypeOf(spec: Pick<OrderSpec, 'type' | 'timeInForce'>): SpotOrderType {
  if (spec.type === 'market') return 'MARKET';
  switch (spec.timeInForce) {
    case 'post-only':
      return 'LIMIT_MAKER';
    case 'ioc':
      return 'IMMEDIATE_OR_CANCEL';
    case 'fok':
      return 'FILL_OR_KILL';
    default:
      return 'LIMIT';
  }
}

/** Spot: the order type must be among the symbol's orderTypes. */
export const orderTypeRule: RiskRule = (intent, instrument, state) => {
  if (!instrument || instrument.kind !== 'spot') return undefined;
  for (const p of proposedOrders(intent, instrument, state)) {
    const t = spotOrderTypeOf(p.spec);
    // IOC / FOK are not listed in exchangeInfo samples but are documented order types; only the listed
    // LIMIT / MARKET / LIMIT_MAKER are checked against the symbol.
    if ((t === 'LIMIT' || t === 'MARKET' || t === 'LIMIT_MAKER') && !instrument.orderTypes.includes(t)) {
      return {
        rule: 'order-type',
        reason: `${instrument.symbol} does not take ${t} orders (allowed: ${instrument.orderTypes.join(', ')})`,
        ...(p.slot ? { slot: p.slot } : {}),
      };
    }
  }
  return undefined;
};
