/**
 * The ContractVenue methods of the trigger orders that change state. A host that journals the
 * venue's commands to replay them (the emulator's persistence) must journal these too: the orders
 * triggers place are internal to the venue and replay by themselves from the replayed prices.
 */
import type { ContractVenue } from '../../../src/venue/contract/contract-venue.js';

export const TRIGGER_COMMANDS = [
  'placeStopOrder',
  'changeStopPrice',
  'changeStopPlanPrice',
  'cancelStopOrders',
  'cancelAllStopOrders',
  'placePlanOrder',
  'changePlanStopOrder',
  'cancelPlanOrders',
  'cancelAllPlanOrders',
  'placeTrackOrder',
  'changeTrackOrder',
  'cancelTrackOrders',
] as const satisfies readonly (keyof ContractVenue)[];
