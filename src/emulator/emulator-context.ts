/**
 * What the handlers share: the clock, the accounts, the instruments as configured, and the engines.
 * Built once by startEmulator; handlers never reach outside it.
 */
import type { Clock } from '../core/clock.js';
import type { ContractInstrument, SpotInstrument } from '../domain/instrument.js';
import type { AccountRegistry } from './auth/account-registry.js';
import type { EmulatorConfig } from './emulator-config.js';
import { ContractError, SpotError } from './http/wire-error.js';

/** Account settings the API changes (journaled, so they survive a restart). */
export interface AccountSettingsCommands {
  setPlatformDeduct(accountId: string, enabled: boolean): boolean;
}

export interface EmulatorContext {
  readonly config: EmulatorConfig;
  readonly clock: Clock;
  readonly accounts: AccountRegistry;
  readonly accountSettings: AccountSettingsCommands;
  /**
   * When this venue first started (kept in the journal, so the same after a restart): the listing time
   * of the contracts and the creation time of configured fee discounts.
   */
  readonly startedAt: number;
  readonly spotInstruments: ReadonlyMap<string, SpotInstrument>;
  readonly contractInstruments: ReadonlyMap<string, ContractInstrument>;
  /** Numeric contract ids (ticker contractId, detail id). */
  readonly contractIds: ReadonlyMap<string, number>;
  /** Symbols the venue lists as delisted or suspended (GET /api/v3/symbol/offline). */
  readonly offlineSymbols: readonly { symbol: string; state: 2 | 3; offlineTime?: number }[];
}

/** The spot instrument of a symbol, or -1121 as the venue answers an unknown symbol. */
export function spotInstrumentOf(ctx: EmulatorContext, symbol: string): SpotInstrument {
  const i = ctx.spotInstruments.get(symbol);
  if (!i) throw SpotError.invalidSymbol();
  return i;
}

/** A symbol that may be traded through the API: known (-1121) and listed in defaultSymbols (10007). */
export function tradableSpotInstrumentOf(ctx: EmulatorContext, symbol: string): SpotInstrument {
  const i = spotInstrumentOf(ctx, symbol);
  if (!i.apiTradable) throw SpotError.symbolNotApi();
  return i;
}

/** The contract of a symbol, or 1001 "Contract does not exist". */
export function contractInstrumentOf(ctx: EmulatorContext, symbol: string): ContractInstrument {
  const i = ctx.contractInstruments.get(symbol);
  if (!i) throw ContractError.contractNotExist();
  return i;
}
