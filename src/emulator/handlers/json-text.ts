/**
 * An answer a handler has already written as JSON text, which the envelope takes as it is instead of
 * running JSON.stringify. Only the placement answers use it (spot newOrder, contract order/create):
 * JSON.stringify of the spot placement answer was the largest single cost left in the emulator's own
 * code per signed placement (about 40 % of emulator-server.ts's self time in an in-process CPU
 * profile, issue 12), and a template over the same fields is about a third of its time. A handler
 * writes the text only when every string is `jsonVerbatim` and every number finite, where the template
 * gives JSON.stringify's bytes; otherwise it returns the object as before.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A string JSON.stringify writes between quotes unchanged: printable ASCII without `"` and `\`. */
export function jsonVerbatim(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** A number JSON.stringify writes as String(n) (not NaN or ±Infinity, which it writes as null). */
export const jsonFinite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
