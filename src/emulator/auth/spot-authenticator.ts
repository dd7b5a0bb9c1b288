/**
 * Spot signed-request checks in the venue's order (wire-protocol.md): key header present and well
 * formed (400 / 700001), key known (10072), `signature` and `timestamp` sent (700004), recvWindow at
 * most 60000 (700005), timestamp inside the window (700003), signature over totalParams (700002),
 * then the key's permission for the endpoint (700007).
 *
 * The window rule: accept when timestamp < serverTime + 1000 and serverTime − timestamp ≤ recvWindow.
 */
import type { EndpointDef } from '../../api/endpoint.js';
import { spotSignature, spotSignedPayload } from '../../client/spot-signer.js';
import { signatureEquals } from './constant-time.js';
import type { SpotPermission } from '../../domain/spot-enums.js';
import { API_KEY_PATTERN } from '../emulator-config.js';
import { SpotError } from '../http/wire-error.js';
import type { AccountRegistry, EmulatorAccount } from './account-registry.js';

export const SPOT_DEFAULT_RECV_WINDOW = 5000;
export const SPOT_MAX_RECV_WINDOW = 60_000;
/** How far ahead of the server a timestamp may be. */
export const SPOT_FUTURE_TOLERANCE_MS = 1000;

const INTEGER = /^\d{1,16}$/;
/** Accounts whose API key has passed API_KEY_PATTERN. */
const wellFormedKey = new WeakSet<EmulatorAccount>();

export interface SpotAuthRequest {
  readonly apiKey: string | undefined;
  /** The query string as received, without `?`. */
  readonly rawQuery: string;
  /** The body as received (UTF-8 text). */
  readonly rawBody: string;
  /** Decoded parameters, query first. */
  readonly params: ReadonlyMap<string, string>;
  readonly now: number;
}

export function authenticateSpot(def: EndpointDef, req: SpotAuthRequest, accounts: AccountRegistry): EmulatorAccount {
  const key = req.apiKey?.trim();
  if (!key) throw SpotError.apiKeyRequired();
  const account = accounts.byApiKey(key);
  // The key's form is tested once per account (a well-formed key stays well formed), and always before
  // an unknown key is refused: a malformed key is 700001 whether or not an account has it.
  if (account === undefined || !wellFormedKey.has(account)) {
    if (!API_KEY_PATTERN.test(key)) throw SpotError.apiKeyFormat();
    if (!account) throw SpotError.invalidAccessKey();
    wellFormedKey.add(account);
  }

  const signature = req.params.get('signature');
  if (!signature) throw SpotError.mandatory('signature');
  const ts = req.params.get('timestamp');
  if (!ts || !INTEGER.test(ts)) throw SpotError.mandatory('timestamp');
  const rwText = req.params.get('recvWindow');
  let recvWindow = SPOT_DEFAULT_RECV_WINDOW;
  if (rwText !== undefined) {
    if (!INTEGER.test(rwText)) throw SpotError.mandatory('recvWindow');
    recvWindow = Number(rwText);
    if (recvWindow > SPOT_MAX_RECV_WINDOW) throw SpotError.recvWindowTooLarge();
  }
  const timestamp = Number(ts);
  if (!(timestamp < req.now + SPOT_FUTURE_TOLERANCE_MS) || req.now - timestamp > recvWindow) throw SpotError.outsideRecvWindow();

  // A signature that is not 64 hex digits is refused by the check itself, with the same 700002 that a
  // test of its form here gave (one scan of the text fewer on every request).
  let totalParams: string;
  try {
    totalParams = totalParamsOf(req.rawQuery, req.rawBody);
  } catch {
    throw SpotError.badSignature();
  }
  if (!signatureEquals(spotSignature(account.secret, totalParams), signature)) throw SpotError.badSignature();

  if (def.permission && !account.spotPermissions.has(def.permission as SpotPermission)) throw SpotError.noPermission();
  return account;
}

/**
 * totalParams of the usual request (no body, signature last in the query) by slicing; any other
 * placement goes through the client's general definition (client/spot-signer.ts).
 */
function totalParamsOf(rawQuery: string, rawBody: string): string {
  if (rawBody === '') {
    const i = rawQuery.lastIndexOf('&signature=');
    if (i >= 0 && rawQuery.length - i === '&signature='.length + 64 && rawQuery.indexOf('signature=') === i + 1)
      return rawQuery.slice(0, i);
  }
  return spotSignedPayload(rawQuery, rawBody).totalParams;
}
