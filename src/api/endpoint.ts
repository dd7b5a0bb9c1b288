/**
 * The shape of one catalogue entry. The client, the emulator, the docs generator and the tests are all
 * driven by these declarations (docs/architecture.md: api/).
 */
import type { z } from 'zod';
import type { SpotPermission } from '../domain/spot-enums.js';
import type { ContractPermission } from '../domain/contract-enums.js';

export type ApiKind = 'spot' | 'contract';
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * bare: the payload is the body (most spot endpoints);
 * spot-wrapped: `{code, msg, data, timestamp}` (spot endpoints marked (E));
 * contract: `{success, code, data, message?}`.
 */
export type Envelope = 'bare' | 'spot-wrapped' | 'contract';

/**
 * Where the parameters travel.
 * query: the query string (spot GET/POST/DELETE, contract GET/DELETE);
 * json: a JSON object body (contract POST);
 * json-array: a bare JSON array body (contract order/cancel, planorder/cancel, batch endpoints);
 * none: no parameters.
 */
export type Encoding = 'query' | 'json' | 'json-array' | 'none';

/**
 * Rate buckets the client-side limiter and the emulator both meter.
 * ip-weight: the per-IP weight budget (spot public and signed);
 * spot-orders: 12/s per account, shared by place, batch, cancel, cancel-all;
 * spot-account: 2/s (account information, batch placement);
 * contract-endpoint: about 20 per 2 s per endpoint.
 */
export type RateBucket = 'ip-weight' | 'spot-orders' | 'spot-account' | 'spot-batch' | 'contract-endpoint';

export type Permission = SpotPermission | ContractPermission;

export interface EndpointDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  /** Stable id, `<api>.<clientMethod>`, e.g. `spot.newOrder`, `contract.cancelOrders`. */
  readonly id: string;
  readonly api: ApiKind;
  /** Name of the client method that calls this endpoint. */
  readonly clientMethod: string;
  readonly method: HttpMethod;
  /** Path with `{name}` placeholders for path parameters. */
  readonly path: string;
  /** Section of the API document the row comes from, e.g. `4.4`. */
  readonly section: string;
  readonly summary: string;
  readonly auth: 'public' | 'signed';
  readonly permission?: Permission;
  /** Request weight; a function when it depends on the parameters (ticker without symbol costs more). */
  readonly weight: number | ((params: Record<string, unknown>) => number);
  readonly buckets: readonly RateBucket[];
  readonly pathParams: readonly string[];
  readonly encoding: Encoding;
  readonly envelope: Envelope;
  /** The wire request: validates and serialises what the caller gives into what is sent. */
  readonly request: Req;
  /** The payload after the envelope is removed, parsed into domain-friendly values. */
  readonly response: Res;
  /** A valid request, used by docs and by the test that exercises every entry. */
  readonly example: z.input<Req>;
  /** The request creates orders: a timeout or 5xx after sending is OutcomeUnknown. */
  readonly placement?: boolean;
  /** Only market-maker accounts may call it. */
  readonly marketMakerOnly?: boolean;
  /** Extra header the endpoint requires (export: timezone-login). */
  readonly requiredHeaders?: readonly string[];
  /** Where the document leaves something open and what we chose, in one line. */
  readonly notes?: string;
  /**
   * Set on endpoints neither spot-api.md nor contract-api.md lists, served because real clients call
   * them: where their request and answer were established (docs/endpoints.md marks them).
   */
  readonly beyondDocuments?: string;
}

export function endpoint<Req extends z.ZodType, Res extends z.ZodType>(def: EndpointDef<Req, Res>): EndpointDef<Req, Res> {
  return Object.freeze(def);
}

/** Weight of a call with the given parameters. */
export function weightOf(def: EndpointDef, params: Record<string, unknown>): number {
  return typeof def.weight === 'function' ? def.weight(params) : def.weight;
}

/** Expands `{name}` placeholders; missing values throw (the request schema should have caught it). */
export function expandPath(def: EndpointDef, params: Record<string, unknown>): string {
  return def.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw new Error(`${def.id}: path parameter ${name} missing`);
    return encodeURIComponent(String(v));
  });
}
