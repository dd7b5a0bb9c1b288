/**
 * Which catalogue endpoints the emulator implements (docs/endpoints.md marks them). Every endpoint of
 * both documents has its handler now (one each: handlers/handler-registry.ts refuses a second), so
 * nothing is left unserved; an endpoint added to the catalogue without a handler answers the venue's
 * "not supported" error in the API's own shape (emulator-server.ts) until one is written.
 */
import { allEndpoints } from '../api/catalogue.js';

export const NOT_YET_SERVED: ReadonlySet<string> = new Set<string>();

export function servedEndpointIds(): ReadonlySet<string> {
  return new Set(allEndpoints.map((e) => e.id).filter((id) => !NOT_YET_SERVED.has(id)));
}
