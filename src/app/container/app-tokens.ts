/**
 * DI tokens of the app layer (the layers' own tokens are in src/core/tokens.ts). The app binds the
 * loaded config, the venue it talks to and the assembled runtime.
 */
import type { Container, ServiceIdentifier } from 'inversify';
import type { ContractClient } from '../../client/contract-client.js';
import type { ClientLogger } from '../../client/catalogue-client.js';
import type { SpotClient } from '../../client/spot-client.js';
import type { InstrumentRegistry } from '../../domain/instrument-registry.js';
import type { PositionModeName } from '../../domain/intent.js';
import type { SqliteJournal } from '../../persistence/sqlite-journal.js';
import type { LoadedRunConfig } from '../config/load-run-config.js';
import type { ExecutionVenue, TradingRuntime } from '../runtime/trading-runtime.js';
import type { VenueAccess } from '../venue/venue-access.js';

/** What the command line adds to the file. */
export interface RunOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly logger: ClientLogger;
  /** `--no-cancel-on-exit` (false) or undefined (the config decides). */
  readonly cancelOnExit?: boolean;
  /** `--journal <path>` overrides journal.path. */
  readonly journalPath?: string;
}

export const APP_TOKENS = {
  Container: Symbol.for('perpetua.app.Container') as ServiceIdentifier<Container>,
  LoadedConfig: Symbol.for('perpetua.app.LoadedConfig') as ServiceIdentifier<LoadedRunConfig>,
  RunOptions: Symbol.for('perpetua.app.RunOptions') as ServiceIdentifier<RunOptions>,
  Logger: Symbol.for('perpetua.app.Logger') as ServiceIdentifier<ClientLogger>,
  Journal: Symbol.for('perpetua.app.Journal') as ServiceIdentifier<SqliteJournal>,
  VenueAccess: Symbol.for('perpetua.app.VenueAccess') as ServiceIdentifier<VenueAccess>,
  SpotClient: Symbol.for('perpetua.app.SpotClient') as ServiceIdentifier<SpotClient | undefined>,
  ContractClient: Symbol.for('perpetua.app.ContractClient') as ServiceIdentifier<ContractClient | undefined>,
  InstrumentRegistry: Symbol.for('perpetua.app.InstrumentRegistry') as ServiceIdentifier<InstrumentRegistry>,
  PositionMode: Symbol.for('perpetua.app.PositionMode') as ServiceIdentifier<PositionModeName | undefined>,
  Venues: Symbol.for('perpetua.app.Venues') as ServiceIdentifier<readonly ExecutionVenue[]>,
  Runtime: Symbol.for('perpetua.app.Runtime') as ServiceIdentifier<TradingRuntime>,
} as const;
