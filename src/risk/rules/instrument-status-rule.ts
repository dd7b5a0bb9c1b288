import { ContractState } from '../../domain/contract-enums.js';
import { SpotSymbolStatus } from '../../domain/spot-enums.js';
import type { RiskRule } from '../risk-rule.js';

const SPOT_NAMES: Record<string, string> = { '1': 'online', '2': 'pause', '3': 'offline' };
const CONTRACT_NAMES: Record<number, string> = { 0: 'enabled', 1: 'delivery', 2: 'delivered', 3: 'offline', 4: 'paused' };

/** Spot status must be 1 (online); contract state must be 0 (enabled). Cancels always pass. */
export const instrumentStatusRule: RiskRule = (intent, instrument) => {
  if (!instrument || intent.kind === 'cancel' || intent.kind === 'cancel-all' || intent.kind === 'set-position-mode') return undefined;
  if (intent.kind === 'desired-quotes' && intent.quotes.length === 0) return undefined;
  if (instrument.kind === 'spot') {
    if (instrument.status === SpotSymbolStatus.ONLINE) return undefined;
    return {
      rule: 'instrument-status',
      reason: `${instrument.symbol} status is ${instrument.status} (${SPOT_NAMES[instrument.status] ?? 'unknown'}); trading needs 1 (online)`,
    };
  }
  if (instrument.state === ContractState.ENABLED) return undefined;
  return {
    rule: 'instrument-status',
    reason: `${instrument.symbol} state is ${instrument.state} (${CONTRACT_NAMES[instrument.state] ?? 'unknown'}); trading needs 0 (enabled)`,
  };
};
