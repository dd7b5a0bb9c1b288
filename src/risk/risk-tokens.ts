/** DI identifiers of the risk layer. */
import type { ServiceIdentifier } from 'inversify';
import type { RiskRule, RiskLimits } from './risk-rule.js';
import type { RiskEngine } from './risk-engine.js';

export const RISK_TOKENS = {
  RiskRules: Symbol.for('perpetua.RiskRules') as ServiceIdentifier<readonly RiskRule[]>,
  RiskLimits: Symbol.for('perpetua.RiskLimits') as ServiceIdentifier<RiskLimits>,
  RiskEngine: Symbol.for('perpetua.RiskEngine') as ServiceIdentifier<RiskEngine>,
} as const;
