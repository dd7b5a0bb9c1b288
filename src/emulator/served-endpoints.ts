/**
 * Which catalogue endpoints the emulator implements (docs/endpoints.md marks them). Everything in the
 * catalogue is routed; the endpoints of the next issue (trigger orders, STP groups, tiered fees, PnL
 * analysis) answer the venue's "not supported yet" error in the API's own shape.
 */
import { allEndpoints } from '../api/catalogue.js';
import { CONTRACT_NOT_YET } from './handlers/contract-trade-handlers.js';
import { SPOT_NOT_YET } from './handlers/spot-stp-handlers.js';

export const NOT_YET_SERVED: ReadonlySet<string> = new Set<string>([...SPOT_NOT_YET, ...CONTRACT_NOT_YET]);

export function servedEndpointIds(): ReadonlySet<string> {
  return new Set(allEndpoints.map((e) => e.id).filter((id) => !NOT_YET_SERVED.has(id)));
}
