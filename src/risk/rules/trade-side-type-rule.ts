import { TradeSideType } from '../../domain/spot-enums.js';
import { describe, proposedOrders } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

/** Spot tradeSideType: 2 buy orders only, 3 sell orders only, 4 closed. */
export const tradeSideTypeRule: RiskRule = (intent, instrument, state) => {
  if (!instrument || instrument.kind !== 'spot') return undefined;
  const t = instrument.tradeSideType;
  if (t === TradeSideType.ALL) return undefined;
  for (const p of proposedOrders(intent, instrument, state)) {
    const allowed = t === TradeSideType.BUY_ONLY ? p.spec.side === 'buy' : t === TradeSideType.SELL_ONLY ? p.spec.side === 'sell' : false;
    if (!allowed) {
      const what =
        t === TradeSideType.BUY_ONLY ? 'buy orders only' : t === TradeSideType.SELL_ONLY ? 'sell orders only' : 'no orders (closed)';
      return {
        rule: 'trade-side-type',
        reason: `${instrument.symbol} tradeSideType ${t} takes ${what}; ${describe(p.spec, p.slot)} denied`,
        ...(p.slot ? { slot: p.slot } : {}),
      };
    }
  }
  return undefined;
};
