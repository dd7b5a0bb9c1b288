/**
 * JSON.parse that keeps long numbers exact.
 *
 * The contract venue sends ids as JSON numbers above 2^53 (cancel results, planorder/place:
 * `"data": 259208506303929856`); `JSON.parse` rounds them to the nearest double, which names a
 * different order. Node 20 has no reviver access to the source text, so this rewrites the text:
 * every number literal with more than 15 significant digits (everything a double cannot hold
 * exactly, which includes every integer above 2^53) becomes a JSON string of the same digits before
 * parsing. The catalogue's response schemas accept numeric strings wherever they accept numbers, and
 * its request schemas do too, so the client (responses) and the emulator (request bodies) can use it
 * in place of JSON.parse.
 */

const MAX_EXACT_DIGITS = 15;

function significantDigits(literal: string): number {
  let digits = 0;
  let leading = true;
  for (let i = 0; i < literal.length; i++) {
    const c = literal.charCodeAt(i);
    if (c === 101 || c === 69) break; // e / E: exponent digits do not count
    if (c < 48 || c > 57) continue; // sign and decimal point
    if (leading && c === 48) continue;
    leading = false;
    digits++;
  }
  return digits;
}

/** Rewrites long number literals into strings; the result is still valid JSON. */
export function quoteLongNumbers(text: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // skip a string literal, honouring escapes
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      const start = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) i++;
        else break;
      }
      const literal = text.slice(start, i);
      if (significantDigits(literal) > MAX_EXACT_DIGITS) {
        out += text.slice(last, start) + '"' + literal + '"';
        last = i;
      }
      continue;
    }
    i++;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** `JSON.parse` with long numbers kept as exact strings (see above). */
export function parseContractJson(text: string): unknown {
  return JSON.parse(quoteLongNumbers(text));
}
