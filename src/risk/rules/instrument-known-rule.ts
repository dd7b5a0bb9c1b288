import { intentSymbol } from '../../domain/intent.js';
import type { RiskRule } from '../risk-rule.js';

/** Fail closed: an intent about a symbol we have no rules for is denied (cancels excepted). */
export const instrumentKnownRule: RiskRule = (intent, instrument) => {
  if (intent.kind === 'cancel' || intent.kind === 'cancel-all' || intent.kind === 'set-position-mode') return undefined;
  if (instrument) return undefined;
  return {
    rule: 'instrument-known',
    reason: `no instrument rules for ${intentSymbol(intent) ?? '(no symbol)'}: cannot check the intent (fail closed)`,
  };
};
