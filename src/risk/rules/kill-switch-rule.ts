import type { Decimal } from '../../core/decimal.js';
import { lastCall2 } from '../../core/last-call.js';
import { isRiskReducing } from '../../domain/intent.js';
import { fmt } from '../order-proposals.js';
import type { Denial, RiskRule, RiskState } from '../risk-rule.js';

export const KILL_SWITCH_RULE = 'kill-switch';

/** limit × peak, for the last (peak, limit) asked: the peak changes far less often than equity. */
const drawdownFloor = lastCall2((peak: Decimal, limit: Decimal): Decimal => peak.mul(limit));

/**
 * peak − equity, for the last (peak, equity) asked: flat, a backtest's equity is the very balance
 * Decimal from one bar to the next (the account book keeps it while no fill moves it).
 */
const fallOf = lastCall2((peak: Decimal, equity: Decimal): Decimal => peak.minus(equity));

/** The first kill-switch condition that holds, or undefined. */
export function killSwitchCondition(state: RiskState): Denial | undefined {
  const k = state.limits.killSwitch;
  const m = state.metrics;
  const deny = (reason: string): Denial => ({ rule: KILL_SWITCH_RULE, reason });
  if (k.maxDrawdown || k.maxDailyLoss) {
    if (!m.equity)
      return deny(
        `equity unknown${m.unknownReason ? ` (${m.unknownReason})` : ''} while drawdown / daily-loss limits are set (fail closed)`,
      );
    if (k.maxDrawdown && m.peakEquity && m.peakEquity.gt(0)) {
      // (peak − equity) / peak ≥ limit, as (peak − equity) ≥ limit × peak: no division on every
      // snapshot (the product is exact; the quotient is only needed for the message).
      const fall = fallOf(m.peakEquity, m.equity);
      if (fall.gte(drawdownFloor(m.peakEquity, k.maxDrawdown))) {
        const dd = fall.div(m.peakEquity);
        return deny(
          `drawdown ${fmt(dd.mul(100).toDecimalPlaces(4))}% (peak ${fmt(m.peakEquity)}, equity ${fmt(m.equity)}) reached the limit ${fmt(k.maxDrawdown.mul(100))}%`,
        );
      }
    }
    if (k.maxDailyLoss && m.dayStartEquity) {
      const loss = m.dayStartEquity.minus(m.equity);
      if (loss.gte(k.maxDailyLoss))
        return deny(
          `daily loss ${fmt(loss)} (day start ${fmt(m.dayStartEquity)}, equity ${fmt(m.equity)}) reached the limit ${fmt(k.maxDailyLoss)}`,
        );
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
