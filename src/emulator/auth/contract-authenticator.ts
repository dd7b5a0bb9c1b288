/**
 * Contract private-request checks (wire-protocol.md): `ApiKey`, `Request-Time` and `Signature` headers
 * present and the key known (401), Request-Time an integer within the window — 10 s by default,
 * `Recv-Window` seconds when given, capped at 60 — (513), signature over apiKey + Request-Time +
 * paramString (602), then the key's permission (701 account read, 703 order read, 704 place orders).
 *
 * paramString of a GET/DELETE is the business parameters sorted by key: clients differ in whether they
 * sign the values percent-encoded as sent (our client, the venue's Java SDK) or raw (ccxt, pymexc), so
 * both spellings verify; they only differ for values that need escaping.
 */
import type { EndpointDef } from '../../api/endpoint.js';
import { contractParamStringFromRawQuery, contractSignature } from '../../client/contract-signer.js';
import { signatureEquals } from './constant-time.js';
import type { ContractPermission } from '../../domain/contract-enums.js';
import { ContractError, type WireError } from '../http/wire-error.js';
import type { AccountRegistry, EmulatorAccount } from './account-registry.js';

export const CONTRACT_DEFAULT_WINDOW_SEC = 10;
export const CONTRACT_MAX_WINDOW_SEC = 60;

const INTEGER = /^\d{1,16}$/;

export interface ContractAuthRequest {
  readonly method: string;
  readonly apiKey: string | undefined;
  readonly requestTime: string | undefined;
  readonly signature: string | undefined;
  readonly recvWindow: string | undefined;
  readonly rawQuery: string;
  /** Decoded query parameters (GET/DELETE), in the order received. */
  readonly query: ReadonlyMap<string, string>;
  readonly rawBody: string;
  readonly now: number;
}

const PERMISSION_ERROR: Record<ContractPermission, () => WireError> = {
  ACCOUNT_READ: ContractError.noAccountRead,
  ORDER_READ: ContractError.noOrderRead,
  ORDER_PLACE: ContractError.noOrderWrite,
};

export function authenticateContract(def: EndpointDef, req: ContractAuthRequest, accounts: AccountRegistry): EmulatorAccount {
  const apiKey = req.apiKey?.trim();
  if (!apiKey || !req.requestTime || !req.signature) throw ContractError.unauthorized();
  const account = accounts.byApiKey(apiKey);
  if (!account) throw ContractError.unauthorized();

  const rt = req.requestTime.trim();
  if (!INTEGER.test(rt)) throw ContractError.invalidRequestTime();
  let windowSec = CONTRACT_DEFAULT_WINDOW_SEC;
  if (req.recvWindow !== undefined && req.recvWindow.trim() !== '') {
    const w = req.recvWindow.trim();
    if (!INTEGER.test(w) || Number(w) === 0) throw ContractError.invalidRequestTime();
    windowSec = Math.min(Number(w), CONTRACT_MAX_WINDOW_SEC);
  }
  if (Math.abs(req.now - Number(rt)) > windowSec * 1000) throw ContractError.invalidRequestTime();

  const sig = req.signature.trim();
  const verifies = (ps: string): boolean => signatureEquals(contractSignature(apiKey, account.secret, rt, ps), sig);
  // A POST is signed over its body as sent: one candidate, checked without building a list of them.
  if (!(req.method === 'POST' ? verifies(req.rawBody) : paramStringCandidates(req.rawQuery, req.query).some(verifies)))
    throw ContractError.badSignature();

  if (def.permission && !account.contractPermissions.has(def.permission as ContractPermission)) {
    throw PERMISSION_ERROR[def.permission as ContractPermission]?.() ?? ContractError.unauthorized();
  }
  return account;
}

function paramStringCandidates(rawQuery: string, query: ReadonlyMap<string, string>): string[] {
  const asSent = contractParamStringFromRawQuery(rawQuery);
  const keys = [...query.keys()].sort();
  const decoded = keys.map((k) => `${k}=${query.get(k)!}`).join('&');
  return decoded === asSent ? [asSent] : [asSent, decoded];
}
