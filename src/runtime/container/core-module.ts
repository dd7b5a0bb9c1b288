/** Clock, config and logger: what every mode shares. */
import { ContainerModule } from 'inversify';
import { type Clock, SystemClock } from '../../core/clock.js';
import { CORE_TOKENS } from '../../core/core-tokens.js';
import type { LoadedRunConfig } from '../config/load-run-config.js';
import { RUNTIME_TOKENS, type RunOptions } from '../runtime-tokens.js';

export function coreModule(loaded: LoadedRunConfig, options: RunOptions, clock: Clock = new SystemClock()): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(CORE_TOKENS.Clock).toConstantValue(clock);
    bind(RUNTIME_TOKENS.LoadedConfig).toConstantValue(loaded);
    bind(RUNTIME_TOKENS.RunOptions).toConstantValue(options);
    bind(RUNTIME_TOKENS.Logger).toConstantValue(options.logger);
  });
}
