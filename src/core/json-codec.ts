/**
 * JSON in and out without losing long integer ids: the one lossless parser of venue bodies (the client's
 * responses, the emulator's request bodies, the tests' captured fixtures).
 *
 * In: contract order ids exceed 2^53 (`"orderId": 101716841474621953` in the cancel answer) and
 * JSON.parse would silently round them. Node 20 has no reviver access to the source text, so before
 * parsing we quote every integer literal outside strings that is not a safe integer; the response
 * schemas' `str` accepts the string and the id keeps every digit. Floats and safe integers are left
 * alone: a float is read to the nearest double (the venue's prices carry far fewer than 15 significant
 * digits). A cheap regex decides whether the exact scan is needed at all, so ordinary bodies pay only for
 * one regex test.
 *
 * Out: a `bigint` in a request value is written as a bare JSON number with all its digits (JSON.stringify
 * throws on bigint), so a catalogue can send a long id as a number, as the venue's own clients do.
 */

// A value-position integer of 16+ digits: after `:` `[` or `,`, before `,` `]` `}` or whitespace.
const LONG_INT_HINT = /[:[,]\s*-?\d{16,}\s*[,\]}]/;
const NUMBER_TOKEN = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** Quotes integer literals (outside strings) that are beyond Number.MAX_SAFE_INTEGER. */
export function quoteLongIntegers(text: string): string {
  if (!LONG_INT_HINT.test(text)) return text;
  let out = '';
  let last = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i += 2;
        else if (d === 0x22) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER_TOKEN.lastIndex = i;
      const m = NUMBER_TOKEN.exec(text);
      if (!m) {
        i++;
        continue;
      }
      const token = m[0];
      const isInteger = m[1] === undefined && m[2] === undefined;
      const digits = token.startsWith('-') ? token.length - 1 : token.length;
      if (isInteger && digits >= 16 && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(last, i)}"${token}"`;
        last = i + token.length;
      }
      i += token.length;
      continue;
    }
    i++;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** JSON.parse that keeps integers beyond 2^53 as digit strings. */
export function parseJsonKeepingLongInts(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

const BIG_MARK = '\u0000bigint:';
const BIG_MARK_PATTERN = /"\\u0000bigint:(-?\d+)"/g;

/** JSON.stringify that writes bigint values as bare integer literals with every digit. */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${BIG_MARK}${v.toString()}` : v));
    return text.replace(BIG_MARK_PATTERN, '$1');
  }
}
