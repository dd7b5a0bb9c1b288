/**
 * Answer → payload: status and envelope checks, venue error mapping, then the entry's response schema.
 * Returns a value or a mapped error with a disposition; the caller (CatalogueClient) decides about
 * retries and OutcomeUnknown, so this module stays pure and benchmarkable.
 */
import type { EndpointDef } from '../api/endpoint.js';
import { MalformedResponse } from '../core/errors.js';
import { parseJsonKeepingLongInts } from '../core/json-codec.js';
import { malformedResponseFrom } from './zod-issues.js';
import { httpStatusError, venueError, type MappedError } from './venue-error-map.js';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type Decoded<T> = { readonly ok: true; readonly value: T } | ({ readonly ok: false } & MappedError);

/** Retry-After as ms: delta-seconds or an HTTP date (relative to `now`). */
export function retryAfterMs(headers: Readonly<Record<string, string>>, now: number): number | undefined {
  const raw = headers['retry-after'];
  if (raw === undefined || raw.trim() === '') return undefined;
  const s = Number(raw.trim());
  if (Number.isFinite(s) && s >= 0) return Math.round(s * 1000);
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function codeOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return undefined;
}

/** A spot error body: `{code, msg}` with a non-success code (a bare payload never has both). */
function spotErrorShape(body: Record<string, unknown>): number | undefined {
  const code = codeOf(body['code']);
  if (code === undefined || code === 0 || code === 200) return undefined;
  return typeof body['msg'] === 'string' || body['msg'] === null ? code : undefined;
}

type Unwrapped = { ok: true; payload: unknown } | ({ ok: false } & MappedError);

function unwrap(def: EndpointDef, answer: RawAnswer, parsed: unknown, retryAfter: number | undefined): Unwrapped {
  const info = { endpoint: def.id, httpStatus: answer.status };
  if (def.api === 'contract' || def.envelope === 'contract') {
    if (isObject(parsed) && ('success' in parsed || 'code' in parsed)) {
      const code = codeOf(parsed['code']);
      const success = parsed['success'] === true || (parsed['success'] === undefined && code === 0);
      if (success && answer.status < 400) return { ok: true, payload: def.envelope === 'contract' ? parsed['data'] : parsed };
      if (code !== undefined && code !== 0) {
        const msg = typeof parsed['message'] === 'string' ? parsed['message'] : typeof parsed['msg'] === 'string' ? parsed['msg'] : '';
        return { ok: false, ...venueError('contract', code, msg, { ...info, venueCode: code }, retryAfter) };
      }
    }
    if (answer.status >= 400) return { ok: false, ...httpStatusError(answer.status, def.id, retryAfter) };
    if (def.envelope !== 'contract') return { ok: true, payload: parsed };
    return { ok: false, error: new MalformedResponse(def.id, '(envelope)', 'expected {success, code, data}'), disposition: 'final' };
  }

  // spot: a `{code, msg}` error can come with any status and in either envelope
  if (isObject(parsed)) {
    const code = spotErrorShape(parsed);
    if (code !== undefined) {
      const msg = typeof parsed['msg'] === 'string' ? parsed['msg'] : '';
      return { ok: false, ...venueError('spot', code, msg, { ...info, venueCode: code }, retryAfter) };
    }
  }
  if (answer.status >= 400) return { ok: false, ...httpStatusError(answer.status, def.id, retryAfter) };
  if (def.envelope === 'spot-wrapped') {
    if (!isObject(parsed) || !('data' in parsed || 'code' in parsed)) {
      return { ok: false, error: new MalformedResponse(def.id, '(envelope)', 'expected {code, msg, data}'), disposition: 'final' };
    }
    return { ok: true, payload: parsed['data'] };
  }
  return { ok: true, payload: parsed };
}

/** Decodes one answer for `def`. `now` is only used to turn an HTTP-date Retry-After into a delay. */
export function decodeResponse<T>(def: EndpointDef, answer: RawAnswer, now: number): Decoded<T> {
  const retryAfter =
    answer.status === 429 || answer.status === 418 || answer.status === 403 || answer.status === 503
      ? retryAfterMs(answer.headers, now)
      : undefined;
  if (answer.status === 429 || answer.status === 418) return { ok: false, ...httpStatusError(answer.status, def.id, retryAfter) };

  let parsed: unknown;
  const text = answer.body;
  if (text.trim() === '') {
    parsed = undefined;
  } else {
    try {
      parsed = parseJsonKeepingLongInts(text);
    } catch {
      if (answer.status >= 400) return { ok: false, ...httpStatusError(answer.status, def.id, retryAfter) };
      return { ok: false, error: new MalformedResponse(def.id, '(body)', `not JSON (${text.length} bytes)`), disposition: 'final' };
    }
  }
  // A 5xx is ambiguous whatever its body says: the venue may have acted before failing.
  if (answer.status >= 500) return { ok: false, ...httpStatusError(answer.status, def.id, retryAfter) };
  if (parsed === undefined && answer.status < 400 && def.envelope !== 'bare') {
    return { ok: false, error: new MalformedResponse(def.id, '(body)', 'empty body'), disposition: 'final' };
  }

  const unwrapped = unwrap(def, answer, parsed, retryAfter);
  if (!unwrapped.ok) return unwrapped;
  const result = def.response.safeParse(unwrapped.payload);
  if (!result.success) return { ok: false, error: malformedResponseFrom(result.error, def.id), disposition: 'final' };
  return { ok: true, value: result.data as T };
}
