/**
 * Spot STP strategy groups (spot-api.md §4.5) are served by spot-account-ext-handlers.ts; nothing is
 * left unserved here.
 */
import type { SpotEngine } from '../engine/spot-engine.js';
import type { EmulatorContext } from '../emulator-context.js';
import type { EndpointHandler } from './handler.js';

export const SPOT_NOT_YET: readonly string[] = [];

export function spotStpHandlers(_ctx: EmulatorContext, _engine: SpotEngine): Record<string, EndpointHandler> {
  return {};
}
