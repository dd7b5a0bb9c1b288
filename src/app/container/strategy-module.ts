/** The strategy classes this build offers, and the registry that creates them by name. */
import { ContainerModule } from 'inversify';
import { TOKENS } from '../../core/tokens.js';
import { StrategyRegistry } from '../../strategy/strategy-registry.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import { REFERENCE_STRATEGIES } from '../../../strategies/index.js';

export function strategyModule(classes: readonly StrategyClass[] = REFERENCE_STRATEGIES): ContainerModule {
  return new ContainerModule(({ bind }) => {
    for (const cls of classes) bind(TOKENS.StrategyClass).toConstantValue(cls);
    bind(TOKENS.StrategyRegistry).to(StrategyRegistry).inSingletonScope();
  });
}

/** A registry of the given classes without a container (config validation). */
export function strategyCatalog(classes: readonly StrategyClass[] = REFERENCE_STRATEGIES): StrategyRegistry {
  return new StrategyRegistry(classes);
}
