import { isRiskReducing } from '../../domain/intent.js';
import { fmt } from '../order-proposals.js';
import type { Denial, RiskRule, RiskState } from '../risk-rule.js';

export const KILL_SWITCH_RULE = 'kill-switch';

/** The first kill-switch condition that holds, or undefined. */
export function killSwitchCondition(state: RiskState): Denial | undefined {
  const k = state.limits.killSwitch;
  const m = state.metrics;
  const deny = (reason: string): Denial => ({ rule: KILL_SWITCH_RULE, reason });
  if (k.maxDrawdown || k.maxDailyLoss) {
    if (!m.equity) return deny('equity unknown while drawdown / daily-loss limits are set (fail closed)');
    if (k.maxDrawdown && m.peakEquity && m.peakEquity.gt(0)) {
      const dd = m.peakEquity.minus(m.equity).div(m.peakEquity);
      if (dd.gte(k.maxDrawdown)) return deny(`drawdown ${fmt(dd.mul(100).toDecimalPlaces(4))}% (peak ${fmt(m.peakEquity)}, equity ${fmt(m.equity)}) reached the limit ${fmt(k.maxDrawdown.mul(100))}%`);
    }
    if (k.maxDailyLoss && m.dayStartEquity) {
      const loss = m.dayStartEquity.minus(m.equity);
      if (loss.gte(k.maxDailyLoss)) return deny(`daily loss ${fmt(loss)} (day start ${fmt(m.dayStartEquity)}, equity ${fmt(m.equity)}) reached the limit ${fmt(k.maxDailyLoss)}`);
    }
  }
  if (k.maxRejects !== undefined) {
    const from = state.now - k.rejectWindowMs;
    const n = m.rejectTimes.filter((t) => t > from && t <= state.now).length;
    if (n >= k.maxRejects) return deny(`${n} venue rejections in the last ${k.rejectWindowMs} ms reached the limit ${k.maxRejects}`);
  }
  return undefined;
}

/** Kill switches: max drawdown, max daily loss, too many rejections. Cancels and reduce-only orders pass. */
export const killSwitchRule: RiskRule = (intent, _instrument, state) => (isRiskReducing(intent) ? undefined : killSwitchCondition(state));
