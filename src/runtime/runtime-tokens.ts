/**
 * DI tokens of the runtime layer (each lower layer keeps its own beside its interfaces, e.g.
 * src/risk/risk-tokens.ts). The modes (live, paper, backtest) bind the loaded config, the venue they
 * talk to and the assembled runtime.
 */
import type { Container, ServiceIdentifier } from 'inversify';
import type { ContractClient } from '../client/contract-client.js';
import type { ClientLogger } from '../client/catalogue-client.js';
import type { SpotClient } from '../client/spot-client.js';
import type { InstrumentRegistry } from '../domain/instrument-registry.js';
import type { PositionModeName } from '../domain/intent.js';
import type { RunJournal } from '../persistence/run-journal.js';
import type { LoadedRunConfig } from './config/load-run-config.js';
import type { ExecutionVenue } from './runtime-options.js';
import type { TradingRuntime } from './trading-runtime.js';
import type { VenueAccess } from './venue/venue-access.js';

/** What the command line adds to the file. */
export interface RunOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly logger: ClientLogger;
  /** `--no-cancel-on-exit` (false) or undefined (the config decides). */
  readonly cancelOnExit?: boolean;
  /** `--journal <path>` overrides journal.path. */
  readonly journalPath?: string;
  /** `--emulator-port <n>`: the embedded emulator listens here instead of its config's port. */
  readonly emulatorPort?: number;
}

export const RUNTIME_TOKENS = {
  Container: Symbol.for('perpetua.runtime.Container') as ServiceIdentifier<Container>,
  LoadedConfig: Symbol.for('perpetua.runtime.LoadedConfig') as ServiceIdentifier<LoadedRunConfig>,
  RunOptions: Symbol.for('perpetua.runtime.RunOptions') as ServiceIdentifier<RunOptions>,
  Logger: Symbol.for('perpetua.runtime.Logger') as ServiceIdentifier<ClientLogger>,
  Journal: Symbol.for('perpetua.runtime.Journal') as ServiceIdentifier<RunJournal>,
  VenueAccess: Symbol.for('perpetua.runtime.VenueAccess') as ServiceIdentifier<VenueAccess>,
  SpotClient: Symbol.for('perpetua.runtime.SpotClient') as ServiceIdentifier<SpotClient | undefined>,
  ContractClient: Symbol.for('perpetua.runtime.ContractClient') as ServiceIdentifier<ContractClient | undefined>,
  InstrumentRegistry: Symbol.for('perpetua.runtime.InstrumentRegistry') as ServiceIdentifier<InstrumentRegistry>,
  PositionMode: Symbol.for('perpetua.runtime.PositionMode') as ServiceIdentifier<PositionModeName | undefined>,
  Venues: Symbol.for('perpetua.runtime.Venues') as ServiceIdentifier<readonly ExecutionVenue[]>,
  Runtime: Symbol.for('perpetua.runtime.Runtime') as ServiceIdentifier<TradingRuntime>,
} as const;
