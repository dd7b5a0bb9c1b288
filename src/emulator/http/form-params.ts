/**
 * application/x-www-form-urlencoded parsing for the spot API, strict where the venue is strict: a
 * malformed escape or bytes that are not UTF-8 are "illegal characters" (700008), a name given twice in
 * the same place is refused, and a name given in both the query and the body is taken from the query
 * (wire-protocol.md).
 */
import { ContractError, SpotError, type WireError } from './wire-error.js';

/** How a parse failure is reported: spot 700008 / 33333, contract 600. */
export interface FormErrors {
  illegal(param: string): WireError;
  duplicate(param: string): WireError;
}

export const SPOT_FORM_ERRORS: FormErrors = { illegal: SpotError.illegalCharacters, duplicate: SpotError.duplicateParam };
export const CONTRACT_FORM_ERRORS: FormErrors = {
  illegal: (p) => ContractError.paramError(`illegal characters in ${p}`),
  duplicate: (p) => ContractError.paramError(`duplicate parameter ${p}`),
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes one form component: `+` is a space, `%XX` escapes must form valid UTF-8. */
export function decodeFormComponent(raw: string, paramForErrors: string, errors: FormErrors = SPOT_FORM_ERRORS): string {
  if (!raw.includes('%') && !raw.includes('+')) {
    if (/[^\x20-\x7e]/.test(raw)) throw errors.illegal(paramForErrors);
    return raw;
  }
  const s = raw.replace(/\+/g, ' ');
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 /* % */) {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw errors.illegal(paramForErrors);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c < 0x20 || c > 0x7e) {
      throw errors.illegal(paramForErrors);
    } else bytes.push(c);
  }
  let out: string;
  try {
    out = utf8.decode(Uint8Array.from(bytes));
  } catch {
    throw errors.illegal(paramForErrors);
  }
  // Control characters (NUL, newlines…) never belong in a parameter.
  // oxlint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(out)) throw errors.illegal(paramForErrors);
  return out;
}

/** Anything but printable ASCII other than `%` (0x25) and `+` (0x2b). */
const NOT_PLAIN = /[^\x20-\x24\x26-\x2a\x2c-\x7e]/;

/** Parses `a=1&b=2` into an ordered map; duplicate names throw. */
export function parseForm(raw: string, errors: FormErrors = SPOT_FORM_ERRORS): Map<string, string> {
  const out = new Map<string, string>();
  if (!raw) return out;
  // Printable ASCII without `%` or `+` (the usual signed query): every component decodes to itself,
  // which is what decodeFormComponent would return for each, without its per-component scans.
  const plain = !NOT_PLAIN.test(raw);
  // The pairs are cut out of `raw` by position rather than split into parts first (no array and no
  // part strings per request). `eq` is the first `=` at or after `start` (n: none): it is searched again
  // only once the scan has passed it, so a query of many pairs without `=` is still read in one pass.
  const n = raw.length;
  let eq = -1;
  for (let start = 0; start <= n;) {
    let end = raw.indexOf('&', start);
    if (end < 0) end = n;
    if (end > start) {
      if (eq < start) {
        eq = raw.indexOf('=', start);
        if (eq < 0) eq = n;
      }
      const hasEq = eq < end;
      const rawName = raw.slice(start, hasEq ? eq : end);
      const rawValue = hasEq ? raw.slice(eq + 1, end) : '';
      const name = plain ? rawName : decodeFormComponent(rawName, rawName.slice(0, 40), errors);
      const value = plain ? rawValue : decodeFormComponent(rawValue, name, errors);
      if (out.has(name)) throw errors.duplicate(name);
      out.set(name, value);
    }
    start = end + 1;
  }
  return out;
}

/** Query parameters, then body parameters not already given in the query. */
export function mergeQueryAndBody(query: Map<string, string>, body: Map<string, string>): Map<string, string> {
  if (body.size === 0) return query;
  const out = new Map(query);
  for (const [k, v] of body) if (!out.has(k)) out.set(k, v);
  return out;
}
