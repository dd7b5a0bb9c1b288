/**
 * The container of a run. The mode picks the modules (docs/architecture.md rule 2); nothing below app/ asks
 * which mode it is in.
 *
 *   live    core · strategies · risk · journal · live venue       · exchange · runtime
 *   paper   core · strategies · risk · journal · embedded emulator · exchange · runtime
 *           (or a running emulator, by URL, instead of the embedded one)
 *   backtest  comes with `perpetua backtest` (issue 5).
 */
import { Container, type ContainerModule } from 'inversify';
import type { Clock } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import type { LoadedRunConfig } from '../config/load-run-config.js';
import type { RunMode } from '../config/run-config-schema.js';
import { RUNTIME_TOKENS, type RunOptions } from '../runtime-tokens.js';
import { coreModule } from './core-module.js';
import { exchangeModule } from './exchange-module.js';
import { journalModule } from './journal-module.js';
import { riskModule } from './risk-module.js';
import { runtimeModule } from './runtime-module.js';
import { strategyModule } from './strategy-module.js';
import { embeddedEmulatorModule, liveVenueModule, runningEmulatorModule } from './venue-modules.js';

export interface BuildOptions extends RunOptions {
  readonly clock?: Clock;
  /** Strategy classes offered (default: the reference strategies). */
  readonly strategyClasses?: readonly StrategyClass[];
}

type ModeModules = (loaded: LoadedRunConfig, options: BuildOptions) => ContainerModule[];

const shared = (loaded: LoadedRunConfig, options: BuildOptions): ContainerModule[] => [
  coreModule(loaded, options, options.clock),
  strategyModule(options.strategyClasses),
  riskModule(loaded.config),
  journalModule(),
];

export const MODE_MODULES: Readonly<Record<RunMode, ModeModules>> = {
  live: (loaded, options) => [...shared(loaded, options), liveVenueModule(loaded.config), exchangeModule(), runtimeModule()],
  paper: (loaded, options) => [
    ...shared(loaded, options),
    loaded.config.paper?.emulatorUrl !== undefined ? runningEmulatorModule(loaded.config) : embeddedEmulatorModule(loaded.config),
    exchangeModule(),
    runtimeModule(),
  ],
  backtest: () => {
    throw new ConfigError('mode', 'backtest runs come with `perpetua backtest` (not in this build); `perpetua run` takes live or paper');
  },
};

export function buildContainer(loaded: LoadedRunConfig, options: BuildOptions): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(RUNTIME_TOKENS.Container).toConstantValue(container);
  container.load(...MODE_MODULES[loaded.config.mode](loaded, options));
  return container;
}
