/**
 * Error handling shared by the MEXC gateways. The client already maps venue codes onto the taxonomy
 * (client/venue-error-map.ts); here we only add what a gateway decides on top of that:
 *  - which answers mean "the venue has no such order" (queryOrder returns undefined for them);
 *  - per-element codes of batch answers (spot batchOrders, contract cancel / submit_batch), which
 *    arrive inside a successful HTTP answer and so never went through the client's mapping.
 */
import type { ApiKind } from '../../api/endpoint.js';
import { OrderNotFound, PerpetuaError } from '../../core/errors.js';
import { venueError } from '../../client/venue-error-map.js';

/** spot −2013 "order does not exist" (query), −2011 "unknown order" (cancel); contract 2040. */
export const NOT_FOUND_CODES: Readonly<Record<ApiKind, ReadonlySet<number>>> = {
  spot: new Set([-2013, -2011]),
  contract: new Set([2040]),
};

export function isOrderNotFound(e: unknown, api: ApiKind): boolean {
  return e instanceof OrderNotFound && (e.venueCode === undefined || NOT_FOUND_CODES[api].has(e.venueCode));
}

/** The taxonomy error for one element of a batch answer. */
export function elementError(api: ApiKind, endpoint: string, code: number, message: string | undefined): PerpetuaError {
  return venueError(api, code, message ?? '', { venueCode: code, endpoint }).error;
}

/** BatchItem errors are PerpetuaErrors; anything else (a bug) is rethrown rather than disguised. */
export function asPerpetua(e: unknown): PerpetuaError {
  if (e instanceof PerpetuaError) return e;
  throw e;
}
