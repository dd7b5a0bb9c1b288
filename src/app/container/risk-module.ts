/** Risk limits from config and the risk engine with the default rule set. */
import { ContainerModule } from 'inversify';
import { TOKENS } from '../../core/tokens.js';
import { RiskEngine } from '../../risk/risk-engine.js';
import { DEFAULT_RISK_RULES } from '../../risk/rules/index.js';
import type { RunConfig } from '../config/run-config-schema.js';
import { toRiskLimits } from '../config/runtime-settings.js';

export function riskModule(config: RunConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.RiskLimits).toConstantValue(toRiskLimits(config));
    bind(TOKENS.RiskRules).toConstantValue(DEFAULT_RISK_RULES);
    bind(TOKENS.RiskEngine).to(RiskEngine).inSingletonScope();
  });
}
