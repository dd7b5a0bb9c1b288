/**
 * The strategy classes this process offers — the reference strategies plus any loaded from a config's
 * `strategyModules` (app/plugins/strategy-plugins.ts) — and the registry that creates them by name.
 * Plugins are process-wide like the modules they come from: once imported, every container and
 * catalog built afterwards (the run, a backtest, each sweep worker) offers them.
 */
import { ContainerModule } from 'inversify';
import { ConfigError } from '../../core/errors.js';
import { STRATEGY_TOKENS } from '../../strategy/strategy-tokens.js';
import { StrategyRegistry } from '../../strategy/strategy-registry.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import { REFERENCE_STRATEGIES } from '../../../strategies/index.js';

const plugins: StrategyClass[] = [];

/** Adds plugin classes (idempotent per class); a name already taken by another class is refused. */
export function addPluginStrategies(classes: readonly StrategyClass[], where = 'strategyModules'): void {
  for (const cls of classes) {
    if (plugins.includes(cls)) continue;
    const clash = availableStrategies().find((c) => c.strategyName === cls.strategyName);
    if (clash)
      throw new ConfigError(
        where,
        `${cls.name} is named ${JSON.stringify(cls.strategyName)}, which ${clash.name} already uses: choose another strategyName`,
      );
    plugins.push(cls);
  }
}

/** Reference strategies first, then plugins in load order. */
export function availableStrategies(): StrategyClass[] {
  return [...REFERENCE_STRATEGIES, ...plugins];
}

export function strategyModule(classes: readonly StrategyClass[] = availableStrategies()): ContainerModule {
  return new ContainerModule(({ bind }) => {
    for (const cls of classes) bind(STRATEGY_TOKENS.StrategyClass).toConstantValue(cls);
    bind(STRATEGY_TOKENS.StrategyRegistry).to(StrategyRegistry).inSingletonScope();
  });
}

/** A registry of the given classes without a container (config validation). */
export function strategyCatalog(classes: readonly StrategyClass[] = availableStrategies()): StrategyRegistry {
  return new StrategyRegistry(classes);
}
