/** Risk limits from config and the risk engine with the default rule set. */
import { ContainerModule } from 'inversify';
import { RISK_TOKENS } from '../../risk/risk-tokens.js';
import { RiskEngine } from '../../risk/risk-engine.js';
import { DEFAULT_RISK_RULES } from '../../risk/rules/index.js';
import type { RunConfig } from '../config/run-config-schema.js';
import { toRiskLimits } from '../config/runtime-settings.js';

export function riskModule(config: RunConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(RISK_TOKENS.RiskLimits).toConstantValue(toRiskLimits(config));
    bind(RISK_TOKENS.RiskRules).toConstantValue(DEFAULT_RISK_RULES);
    bind(RISK_TOKENS.RiskEngine).to(RiskEngine).inSingletonScope();
  });
}
