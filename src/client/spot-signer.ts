/**
 * Spot (/api/v3) request signing, exactly as wire-protocol.md: HMAC-SHA256 (lower-case hex) with the
 * secret key over `totalParams` = the query string followed directly by the request body (no `&`
 * between them), sent as the parameter `signature`, placed last; the key travels in `X-MEXC-APIKEY`.
 * The verification helpers are for the emulator, so both sides share one definition of the string.
 */
import { hexEqual, hmacSha256Hex, secretKeyOf, type SecretKey } from './hmac.js';
import type { Credentials } from './credentials.js';

export const SPOT_API_KEY_HEADER = 'X-MEXC-APIKEY';

/** Signature of a spot `totalParams` string. */
export function spotSignature(secret: SecretKey | string, totalParams: string): string {
  return hmacSha256Hex(secret, totalParams);
}

export interface SignedSpotRequest {
  /** The query string with `signature` appended last. */
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
}

export class SpotSigner {
  readonly #apiKey: string;
  readonly #key: SecretKey;

  constructor(credentials: Credentials) {
    this.#apiKey = credentials.apiKey;
    this.#key = secretKeyOf(credentials.secretKey);
  }

  /** Signs `query + body` and returns the query to send (signature last) and the key header. */
  sign(query: string, body = ''): SignedSpotRequest {
    const signature = spotSignature(this.#key, query + body);
    return {
      query: query ? `${query}&signature=${signature}` : `signature=${signature}`,
      headers: { [SPOT_API_KEY_HEADER]: this.#apiKey },
    };
  }
}

function withoutSignature(raw: string): { rest: string; signature: string | undefined } {
  if (!raw) return { rest: raw, signature: undefined };
  let signature: string | undefined;
  const kept: string[] = [];
  for (const part of raw.split('&')) {
    if (part.startsWith('signature=')) signature = decodeURIComponent(part.slice('signature='.length));
    else kept.push(part);
  }
  return { rest: signature === undefined ? raw : kept.join('&'), signature };
}

/**
 * Emulator side: the string the client signed, from the raw (still encoded) query string and raw body,
 * and the signature it sent (from the query; from a form body when the query has none).
 */
export function spotSignedPayload(rawQuery: string, rawBody: string): { totalParams: string; signature: string | undefined } {
  const q = withoutSignature(rawQuery);
  if (q.signature !== undefined) return { totalParams: q.rest + rawBody, signature: q.signature };
  const b = withoutSignature(rawBody);
  return { totalParams: rawQuery + b.rest, signature: b.signature };
}

/** Emulator side: does the request carry a valid signature for this secret? Constant-time compare. */
export function verifySpotSignature(secret: SecretKey | string, rawQuery: string, rawBody: string): boolean {
  const { totalParams, signature } = spotSignedPayload(rawQuery, rawBody);
  if (!signature) return false;
  return hexEqual(spotSignature(secret, totalParams), signature);
}
