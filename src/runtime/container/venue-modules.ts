/**
 * One module per way of reaching a venue (docs/architecture.md rule 2: the mode selects modules). Each binds
 * RUNTIME_TOKENS.VenueAccess; everything downstream (exchange-module.ts) is the same for all of them.
 */
import { ContainerModule } from 'inversify';
import type { RunConfig } from '../config/run-config-schema.js';
import { embeddedEmulatorAccess, liveVenueAccess, runningEmulatorAccess } from '../venue/venue-access.js';
import { RUNTIME_TOKENS } from '../runtime-tokens.js';
import { plainMessageOf } from '../../core/message-of.js';

/** The real exchange at the configured URLs, keys from the environment. */
export function liveVenueModule(config: RunConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(RUNTIME_TOKENS.VenueAccess)
      .toDynamicValue((ctx) => liveVenueAccess(config, ctx.get(RUNTIME_TOKENS.RunOptions).env))
      .inSingletonScope();
  });
}

/** An emulator started in this process from paper.emulatorConfig, with its synthetic market. */
export function embeddedEmulatorModule(config: RunConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(RUNTIME_TOKENS.VenueAccess)
      .toDynamicValue((ctx) => {
        const { env, logger, emulatorPort } = ctx.get(RUNTIME_TOKENS.RunOptions);
        return embeddedEmulatorAccess(
          config,
          env,
          (err, id) => logger.error(`emulator: internal error in ${id ?? 'request'}`, { error: plainMessageOf(err) }),
          emulatorPort,
        );
      })
      .inSingletonScope();
  });
}

/** An emulator already running at paper.emulatorUrl. */
export function runningEmulatorModule(config: RunConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(RUNTIME_TOKENS.VenueAccess)
      .toDynamicValue((ctx) => runningEmulatorAccess(config, ctx.get(RUNTIME_TOKENS.RunOptions).env))
      .inSingletonScope();
  });
}
