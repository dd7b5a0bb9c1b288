/**
 * Catalogue entry + caller input → the exact request to send. Validation runs first and throws
 * ValidationError, so nothing is built (and nothing can be sent) for an invalid request.
 *
 * Spot: every parameter travels in the query string (what ccxt and the venue's SDK do, with an empty
 * body), in the order the request schema produces them, then `recvWindow`, `timestamp`, and the
 * `signature` last. Contract: GET/DELETE parameters sorted by key in the query (the same string is
 * signed), POST parameters as a JSON body (object or bare array) signed exactly as sent.
 */
import { expandPath, type EndpointDef } from '../api/endpoint.js';
import { ConfigError, ValidationError } from '../core/errors.js';
import { stringifyJson } from '../core/json-codec.js';
import { encodeQuery, encodeSortedQuery } from './percent-encode.js';
import type { SpotSigner } from './spot-signer.js';
import type { ContractSigner } from './contract-signer.js';
import { validationErrorFrom } from './zod-issues.js';

export interface PreparedRequest {
  readonly endpointId: string;
  readonly method: EndpointDef['method'];
  /** Path and query string as sent. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Business parameters after validation (for weights and logging; never holds secrets). */
  readonly params: Readonly<Record<string, unknown>>;
  /** Client order ids found in the request (spot newClientOrderId(s), contract externalOid). */
  readonly clientOrderIds: readonly string[];
}

export interface BuildContext {
  /** Server-aligned time in ms (the TimeSync view of the clock). */
  readonly now: number;
  /** Spot `recvWindow` (ms) when the request does not set its own; contract `Recv-Window` (s, rounded up). */
  readonly recvWindowMs?: number;
  readonly spotSigner?: SpotSigner;
  readonly contractSigner?: ContractSigner;
  /** Extra headers from the call (e.g. `timezone-login` for the export endpoint). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Runs the entry's request schema; zod issues → ValidationError naming the field. */
export function validateRequest(def: EndpointDef, input: unknown): unknown {
  const result = def.request.safeParse(input === undefined ? {} : input);
  if (!result.success) throw validationErrorFrom(result.error, input, def.id);
  return result.data;
}

/** Keys whose values identify orders by our own id: what OutcomeUnknown must carry so the caller can query. */
export const CLIENT_ID_KEYS: ReadonlySet<string> = new Set(['newClientOrderId', 'externalOid', 'origClientOrderId']);

/** Client order ids of a validated request, in request order (batch lists included, JSON strings too). */
export function clientOrderIdsOf(value: unknown, keys: ReadonlySet<string> = CLIENT_ID_KEYS): string[] {
  const out: string[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 4 || v === null || v === undefined) return;
    if (typeof v === 'string') {
      const t = v.trim();
      if ((t.startsWith('[') || t.startsWith('{')) && t.length < 100_000) {
        try {
          visit(JSON.parse(t), depth + 1);
        } catch {
          /* not JSON: an ordinary string value */
        }
      }
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    if (typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (keys.has(k) && (typeof x === 'string' || typeof x === 'number') && String(x) !== '') out.push(String(x));
        else if (k === 'newClientOrderIds' && Array.isArray(x)) for (const id of x) out.push(String(id));
        else if (typeof x === 'object' || (typeof x === 'string' && (k === 'batchOrders' || k === 'orders'))) visit(x, depth + 1);
      }
    }
  };
  visit(value, 0);
  return out;
}

const SPOT_RESERVED = new Set(['timestamp', 'signature', 'recvWindow']);

function asParams(def: EndpointDef, value: unknown): { params: Record<string, unknown>; list: unknown[] | undefined } {
  if (Array.isArray(value)) return { params: {}, list: value };
  if (value === undefined || value === null) return { params: {}, list: undefined };
  if (typeof value !== 'object')
    throw new ValidationError('(request)', 'an object of parameters', value, `${def.id}: the request schema produced a ${typeof value}`);
  return { params: { ...(value as Record<string, unknown>) }, list: undefined };
}

/** The checks `buildValidated` would fail on, without signing: run before a request waits in a queue. */
export function assertBuildable(
  def: EndpointDef,
  value: unknown,
  ctx: { hasSigner: boolean; headers?: Readonly<Record<string, string>> },
): void {
  if (def.auth === 'signed' && !ctx.hasSigner)
    throw new ConfigError('credentials', `${def.id} is a signed endpoint and no credentials were configured`);
  const params = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  for (const name of def.pathParams) {
    const v = params[name];
    if (v === undefined || v === null || v === '')
      throw new ValidationError(name, 'a value (path parameter)', v, `${def.id}: ${name}: expected a value (path parameter)`);
  }
  for (const h of def.requiredHeaders ?? []) {
    const given = findHeader(ctx.headers, h);
    if (given === undefined || given === '')
      throw new ValidationError(
        `header ${h}`,
        'a value (required header)',
        undefined,
        `${def.id}: header ${h}: expected a value (required header)`,
      );
  }
}

/** Builds the request for an already validated value (exposed for the bench; `buildRequest` validates first). */
export function buildValidated(def: EndpointDef, value: unknown, ctx: BuildContext): PreparedRequest {
  const { params, list } = asParams(def, value);

  // path parameters go into the path and are neither sent again nor signed
  for (const name of def.pathParams) {
    const v = params[name];
    if (v === undefined || v === null || v === '')
      throw new ValidationError(name, 'a value (path parameter)', v, `${def.id}: ${name}: expected a value (path parameter)`);
  }
  const path = def.pathParams.length ? expandPath(def, params) : def.path;
  for (const name of def.pathParams) delete params[name];

  const headers: Record<string, string> = {};
  for (const h of def.requiredHeaders ?? []) {
    const given = findHeader(ctx.headers, h);
    if (given === undefined || given === '')
      throw new ValidationError(
        `header ${h}`,
        'a value (required header)',
        undefined,
        `${def.id}: header ${h}: expected a value (required header)`,
      );
    headers[h] = given;
  }
  if (ctx.headers) {
    const have = new Set(Object.keys(headers).map((k) => k.toLowerCase()));
    for (const [k, v] of Object.entries(ctx.headers)) if (!have.has(k.toLowerCase())) headers[k] = v;
  }

  const clientOrderIds = clientOrderIdsOf(list ?? params);
  const signed = def.auth === 'signed';
  let query = '';
  let body: string | undefined;

  if (def.api === 'spot') {
    const business: [string, unknown][] = [];
    for (const [k, v] of Object.entries(params)) if (!SPOT_RESERVED.has(k)) business.push([k, v]);
    if (def.encoding === 'json' || def.encoding === 'json-array') {
      body = stringifyJson(list ?? Object.fromEntries(business));
      headers['Content-Type'] = 'application/json';
    } else {
      query = encodeQuery(business);
    }
    if (signed) {
      if (!ctx.spotSigner) throw new ConfigError('credentials', `${def.id} is a signed endpoint and no credentials were configured`);
      const recvWindow = params['recvWindow'] ?? ctx.recvWindowMs;
      const tail = encodeQuery([
        ['recvWindow', recvWindow],
        ['timestamp', Math.floor(ctx.now)],
      ]);
      query = query ? `${query}&${tail}` : tail;
      const s = ctx.spotSigner.sign(query, body ?? '');
      query = s.query;
      Object.assign(headers, s.headers);
      // The venue's SDK and ccxt send it on every signed write even with an empty body.
      if (def.method !== 'GET' && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
    }
  } else {
    let paramString = '';
    if (def.method === 'POST') {
      if (def.encoding === 'json-array') body = stringifyJson(list ?? singleArray(def, params));
      else if (def.encoding === 'json') body = stringifyJson(params);
      else if (def.encoding === 'query') query = encodeSortedQuery(params);
      paramString = body ?? query;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
    } else {
      query = encodeSortedQuery(params);
      paramString = query;
    }
    if (signed) {
      if (!ctx.contractSigner) throw new ConfigError('credentials', `${def.id} is a signed endpoint and no credentials were configured`);
      const recvWindowSec = ctx.recvWindowMs === undefined ? undefined : Math.ceil(ctx.recvWindowMs / 1000);
      Object.assign(headers, ctx.contractSigner.headers(Math.floor(ctx.now), paramString, recvWindowSec));
    }
  }

  return {
    endpointId: def.id,
    method: def.method,
    path: query ? `${path}?${query}` : path,
    headers,
    body,
    params,
    clientOrderIds,
  };
}

export function buildRequest(def: EndpointDef, input: unknown, ctx: BuildContext): PreparedRequest {
  return buildValidated(def, validateRequest(def, input), ctx);
}

function findHeader(headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** A json-array entry whose schema produced `{ ids: [...] }` sends that one array. */
function singleArray(def: EndpointDef, params: Record<string, unknown>): unknown[] {
  const arrays = Object.values(params).filter(Array.isArray);
  if (arrays.length === 1) return arrays[0] as unknown[];
  throw new ValidationError('(request)', 'a list', params, `${def.id}: expected the request to be a list`);
}
