/**
 * Contract (/api/v1/private) request signing, exactly as wire-protocol.md: headers `ApiKey`,
 * `Request-Time` (ms), `Signature`, `Content-Type: application/json` and optionally `Recv-Window`
 * (seconds); Signature = HMAC-SHA256 hex of `apiKey + Request-Time + paramString`, where paramString is
 *   GET/DELETE: the business parameters sorted by key, `k=v` joined by `&`, nulls left out, path
 *               parameters not included ('' when there are none) — values percent-encoded as in the
 *               venue's reference client (URLEncoder with %20), which is also what we put on the wire;
 *   POST:       the raw JSON body exactly as sent (not re-sorted; bare arrays included).
 */
import type { HttpMethod } from '../api/endpoint.js';
import { hexEqual, hmacSha256Hex, secretKeyOf, type SecretKey } from './hmac.js';
import { encodeSortedQuery } from './percent-encode.js';
import { stringifyJson } from '../core/json-codec.js';
import type { Credentials } from './credentials.js';

export const CONTRACT_HEADERS = {
  apiKey: 'ApiKey',
  requestTime: 'Request-Time',
  signature: 'Signature',
  recvWindow: 'Recv-Window',
} as const;

/**
 * The paramString for a request: for GET/DELETE pass the business parameters (path parameters already
 * removed), for POST pass the body string exactly as it will be sent.
 */
export function contractParamString(method: HttpMethod, paramsOrBody: Record<string, unknown> | string | undefined): string {
  if (paramsOrBody === undefined) return '';
  if (method === 'POST') return typeof paramsOrBody === 'string' ? paramsOrBody : stringifyJson(paramsOrBody);
  return typeof paramsOrBody === 'string' ? contractParamStringFromRawQuery(paramsOrBody) : encodeSortedQuery(paramsOrBody);
}

/**
 * Emulator side: paramString of a GET/DELETE from the raw query string as received. Pairs keep their
 * encoding as sent and are re-sorted by key, so a client that sent them unsorted still verifies.
 */
export function contractParamStringFromRawQuery(rawQuery: string): string {
  if (!rawQuery) return '';
  const pairs = rawQuery.split('&').filter((p) => p.length > 0);
  const keyOf = (p: string): string => {
    const i = p.indexOf('=');
    return decodeURIComponent(i < 0 ? p : p.slice(0, i));
  };
  return pairs
    .map((p) => [keyOf(p), p] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, p]) => p)
    .join('&');
}

export function contractSignature(apiKey: string, secret: SecretKey | string, requestTime: string | number, paramString: string): string {
  return hmacSha256Hex(secret, `${apiKey}${requestTime}${paramString}`);
}

export class ContractSigner {
  readonly #apiKey: string;
  readonly #key: SecretKey;

  constructor(credentials: Credentials) {
    this.#apiKey = credentials.apiKey;
    this.#key = secretKeyOf(credentials.secretKey);
  }

  /** The auth headers for one request. `recvWindowSec` is sent only when given. */
  headers(requestTime: number, paramString: string, recvWindowSec?: number): Record<string, string> {
    const h: Record<string, string> = {
      [CONTRACT_HEADERS.apiKey]: this.#apiKey,
      [CONTRACT_HEADERS.requestTime]: String(requestTime),
      [CONTRACT_HEADERS.signature]: contractSignature(this.#apiKey, this.#key, requestTime, paramString),
      'Content-Type': 'application/json',
    };
    if (recvWindowSec !== undefined) h[CONTRACT_HEADERS.recvWindow] = String(recvWindowSec);
    return h;
  }
}

/** Emulator side: constant-time check of a contract signature. */
export function verifyContractSignature(args: {
  apiKey: string;
  secret: SecretKey | string;
  requestTime: string;
  paramString: string;
  signature: string;
}): boolean {
  return hexEqual(contractSignature(args.apiKey, args.secret, args.requestTime, args.paramString), args.signature);
}
