/**
 * The emulator's whole handler table: every handler module registered once into a HandlerRegistry,
 * which refuses a second handler for an id and ids the catalogue does not list.
 */
import { allEndpoints } from '../../api/catalogue.js';
import type { ContractEngine } from '../engine/contract-engine.js';
import type { SpotEngine } from '../engine/spot-engine.js';
import type { EmulatorContext } from '../emulator-context.js';
import type { AccountExtServices } from './account-ext-services.js';
import { contractAccountExtHandlers } from './contract-account-ext-handlers.js';
import { contractMarketHandlers, type ContractPriceSource } from './contract-market-handlers.js';
import { contractTradeHandlers } from './contract-trade-handlers.js';
import { contractTriggerHandlers } from './contract-trigger-handlers.js';
import { HandlerRegistry } from './handler-registry.js';
import { spotAccountExtHandlers } from './spot-account-ext-handlers.js';
import { spotMarketHandlers } from './spot-market-handlers.js';
import { spotReferenceHandlers } from './spot-reference-handlers.js';
import { spotTradeHandlers } from './spot-trade-handlers.js';

export interface EmulatorHandlerDeps {
  readonly context: EmulatorContext;
  readonly spot: SpotEngine;
  readonly contract: ContractEngine;
  readonly prices: ContractPriceSource;
  readonly accountExt: AccountExtServices;
}

export function emulatorHandlers(d: EmulatorHandlerDeps): HandlerRegistry {
  return new HandlerRegistry(new Set(allEndpoints.map((e) => e.id)))
    .add('spot-reference-handlers', spotReferenceHandlers(d.context))
    .add('spot-market-handlers', spotMarketHandlers(d.context, d.spot))
    .add('spot-trade-handlers', spotTradeHandlers(d.context, d.spot))
    .add('spot-account-ext-handlers', spotAccountExtHandlers(d.context, d.spot, d.accountExt))
    .add('contract-market-handlers', contractMarketHandlers(d.context, d.contract, d.prices))
    .add('contract-trade-handlers', contractTradeHandlers(d.context, d.contract))
    .add('contract-trigger-handlers', contractTriggerHandlers(d.context, d.contract))
    .add('contract-account-ext-handlers', contractAccountExtHandlers(d.context, d.contract, d.accountExt));
}
