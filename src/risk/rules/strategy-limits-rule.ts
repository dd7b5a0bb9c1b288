import { Decimal, ZERO } from '../../core/decimal.js';
import { isLive } from '../../domain/order.js';
import { markPrice } from '../../domain/snapshot.js';
import { netQty } from '../exposure.js';
import { byTouchPriority, fmt, orderRemaining, proposalRemaining, proposedOrders, releasedIds, slotOf } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const RULE = 'strategy-limits';

/**
 * Per-strategy limits from config: the largest absolute position the strategy could reach on the
 * symbol if all its open orders of one side filled, in quantity and valued at the mark. Strategies
 * without limits in config pass.
 */
export const strategyLimitsRule: RiskRule = (intent, instrument, state) => {
  if (!instrument) return undefined;
  const limits = state.limits.strategies[intent.strategyId];
  if (!limits || (!limits.maxPositionQty && !limits.maxNotional)) return undefined;
  const proposals = proposedOrders(intent, instrument, state);
  if (proposals.length === 0) return undefined;
  const released = releasedIds(intent, state);
  const pos = netQty(state.strategyPositions, instrument.symbol);
  let buys = ZERO;
  let sells = ZERO;
  for (const o of state.openOrders) {
    if (!isLive(o.status) || o.strategyId !== intent.strategyId || o.symbol !== instrument.symbol || released.has(o.clientOrderId))
      continue;
    if (o.side === 'buy') buys = buys.plus(orderRemaining(o));
    else sells = sells.plus(orderRemaining(o));
  }
  const multiplier = instrument.kind === 'contract' ? instrument.contractSize : new Decimal(1);
  for (const p of byTouchPriority(proposals)) {
    if (p.spec.side === 'buy') buys = buys.plus(proposalRemaining(p));
    else sells = sells.plus(proposalRemaining(p));
    const worst = Decimal.max(pos.plus(buys).abs(), pos.minus(sells).abs());
    if (limits.maxPositionQty && worst.gt(limits.maxPositionQty)) {
      return {
        rule: RULE,
        reason: `strategy ${intent.strategyId} could reach a position of ${fmt(worst)} on ${instrument.symbol} (position ${fmt(pos)}, open buys ${fmt(buys)}, sells ${fmt(sells)}); its limit is ${fmt(limits.maxPositionQty)}`,
        ...slotOf(p),
      };
    }
    if (limits.maxNotional) {
      const px = markPrice(state.snapshot) ?? p.spec.price;
      if (!px)
        return {
          rule: RULE,
          reason: `no price to value strategy ${intent.strategyId}'s position on ${instrument.symbol} (fail closed)`,
          ...slotOf(p),
        };
      const notional = worst.mul(px).mul(multiplier);
      if (notional.gt(limits.maxNotional)) {
        return {
          rule: RULE,
          reason: `strategy ${intent.strategyId} could reach a notional of ${fmt(notional)} on ${instrument.symbol} (${fmt(worst)} × ${fmt(px)}${multiplier.eq(1) ? '' : ` × ${fmt(multiplier)}`}); its limit is ${fmt(limits.maxNotional)}`,
          ...slotOf(p),
        };
      }
    }
  }
  return undefined;
};
