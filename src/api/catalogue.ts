/**
 * Both catalogues as one list: what the CLI prints, the docs generator renders, and the emulator routes.
 */
import type { EndpointDef } from './endpoint.js';
import { spotCatalogue } from './spot/catalogue.js';
import { contractCatalogue } from './contract/catalogue.js';

export { spotCatalogue, contractCatalogue };

export const allEndpoints: readonly EndpointDef[] = Object.freeze([
  ...(Object.values(spotCatalogue) as EndpointDef[]),
  ...(Object.values(contractCatalogue) as EndpointDef[]),
]);

export function endpointById(id: string): EndpointDef | undefined {
  return allEndpoints.find((e) => e.id === id);
}
