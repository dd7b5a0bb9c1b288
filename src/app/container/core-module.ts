/** Clock, config and logger: what every mode shares. */
import { ContainerModule } from 'inversify';
import { type Clock, SystemClock } from '../../core/clock.js';
import { TOKENS } from '../../core/tokens.js';
import type { LoadedRunConfig } from '../config/load-run-config.js';
import { APP_TOKENS, type RunOptions } from './app-tokens.js';

export function coreModule(loaded: LoadedRunConfig, options: RunOptions, clock: Clock = new SystemClock()): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.Clock).toConstantValue(clock);
    bind(APP_TOKENS.LoadedConfig).toConstantValue(loaded);
    bind(APP_TOKENS.RunOptions).toConstantValue(options);
    bind(APP_TOKENS.Logger).toConstantValue(options.logger);
  });
}
