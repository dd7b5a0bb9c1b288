/**
 * Query-string encoding shared by both signers. The venue signs the string exactly as sent, so the
 * client and the emulator must agree on one encoding: RFC 3986 unreserved characters stay, everything
 * else is percent-encoded with UPPER-CASE hex (`%5B`, `%2C`, as wire-protocol.md requires), and a
 * space is `%20`, never `+`.
 */

// encodeURIComponent already emits upper-case hex but leaves !'()* alone; RFC 3986 reserves them.
const EXTRA = /[!'()*]/g;
const HAS_EXTRA = /[!'()*]/;
// Most values (symbols, sides, decimals, ids) need no encoding at all: skip the work for them.
const UNRESERVED_ONLY = /^[A-Za-z0-9_.~-]*$/;

export function percentEncode(value: string): string {
  if (UNRESERVED_ONLY.test(value)) return value;
  const e = encodeURIComponent(value);
  return HAS_EXTRA.test(e) ? e.replace(EXTRA, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) : e;
}

/** A wire value as it travels in a query string: arrays of scalars comma-joined, objects as JSON. */
export function queryValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.map((v) => String(v)).join(',');
  return JSON.stringify(value);
}

/** `k=v&k=v` in the given order, nulls and undefined left out, keys and values percent-encoded. */
export function encodeQuery(entries: Iterable<readonly [string, unknown]>): string {
  let out = '';
  for (const [k, raw] of entries) {
    const v = queryValue(raw);
    if (v === undefined) continue;
    if (out) out += '&';
    out += `${percentEncode(k)}=${percentEncode(v)}`;
  }
  return out;
}

/** Same, keys sorted by code unit (the contract GET/DELETE signing order). */
export function encodeSortedQuery(params: Record<string, unknown>): string {
  const keys = Object.keys(params).sort();
  return encodeQuery(keys.map((k) => [k, params[k]] as const));
}
