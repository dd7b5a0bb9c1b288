/**
 * Every contract endpoint, keyed by client method name. The client builds one typed method per key
 * (`ContractRequestInput<K>` → `ContractResponse<K>`); the emulator routes by method + path and runs
 * incoming requests through the same `request` schemas.
 */
import type { z } from 'zod';
import type { EndpointDef } from '../endpoint.js';
import { contractAccountEndpoints } from './account.js';
import { contractAnalysisEndpoints } from './analysis.js';
import { contractMarketMakerEndpoints } from './market-maker.js';
import { contractMarketEndpoints } from './market.js';
import { contractOrderQueryEndpoints } from './order-queries.js';
import { contractOrderEndpoints } from './orders.js';
import { contractPlanOrderEndpoints } from './plan-orders.js';
import { contractPositionEndpoints } from './positions.js';
import { contractStopOrderEndpoints } from './stop-orders.js';
import { contractTrackOrderEndpoints } from './track-orders.js';

export const contractCatalogue = {
  ...contractMarketEndpoints,
  ...contractAccountEndpoints,
  ...contractAnalysisEndpoints,
  ...contractOrderQueryEndpoints,
  ...contractPositionEndpoints,
  ...contractOrderEndpoints,
  ...contractStopOrderEndpoints,
  ...contractPlanOrderEndpoints,
  ...contractTrackOrderEndpoints,
  ...contractMarketMakerEndpoints,
} as const satisfies Record<string, EndpointDef>;

export type ContractCatalogue = typeof contractCatalogue;
/** Client method names, e.g. 'createOrder'. */
export type ContractMethod = keyof ContractCatalogue;
/** What the caller passes to a method (Decimal / number / string …). */
export type ContractRequestInput<K extends ContractMethod> = z.input<ContractCatalogue[K]['request']>;
/** What goes on the wire after validation (query values or the JSON body). */
export type ContractWireRequest<K extends ContractMethod> = z.output<ContractCatalogue[K]['request']>;
/** The parsed `data` payload. */
export type ContractResponse<K extends ContractMethod> = z.output<ContractCatalogue[K]['response']>;

/** All entries as a list (docs, emulator routing). */
export const contractEndpoints: readonly EndpointDef[] = Object.values(contractCatalogue);
