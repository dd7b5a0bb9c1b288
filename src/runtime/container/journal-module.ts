/**
 * The SQLite journal. When the venue is fresh (an embedded emulator without persistence) the old
 * journal describes orders and trade ids of a venue that no longer exists — trade ids even repeat —
 * so it is moved aside to `<path>.prev` and the run starts a new one.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { ContainerModule } from 'inversify';
import { EXECUTION_TOKENS } from '../../execution/execution-tokens.js';
import { SqliteJournal } from '../../persistence/sqlite-journal.js';
import { RUNTIME_TOKENS } from '../runtime-tokens.js';

export function journalModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(RUNTIME_TOKENS.Journal)
      .toDynamicValue(async (ctx) => {
        const loaded = ctx.get(RUNTIME_TOKENS.LoadedConfig);
        const options = ctx.get(RUNTIME_TOKENS.RunOptions);
        const venue = await ctx.getAsync(RUNTIME_TOKENS.VenueAccess);
        const path = options.journalPath ?? loaded.config.journal.path;
        if (venue.fresh && path !== ':memory:' && existsSync(path)) {
          rotate(path);
          options.logger.info(`fresh venue: previous journal moved to ${path}.prev`);
        }
        return new SqliteJournal({ path });
      })
      .inSingletonScope()
      .onDeactivation((j) => j.close());
    bind(EXECUTION_TOKENS.OrderJournal).toService(RUNTIME_TOKENS.Journal);
  });
}

function rotate(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    const from = `${path}${suffix}`;
    const to = `${path}.prev${suffix}`;
    rmSync(to, { force: true });
    if (existsSync(from)) renameSync(from, to);
  }
}
