/**
 * A column of decimal strings (prices, quantities, rates) stored as integers, restored byte for byte.
 *
 * Each value `-?\d+(\.\d+)?` is split into an integer mantissa, its WIDTH (decimals as written,
 * trailing zeros included) and its SIGNIFICANT decimals (trailing zeros dropped). The column scale E
 * is the largest significant count, so Binance's "61837.63000000" is stored as 6183763 at E = 2 with
 * width 8, and neighbouring levels one tick apart differ by 1: one byte after delta coding, instead
 * of the 1000000 a plain "max decimals" scale would give. Widths are written once when uniform (the
 * usual case: a venue pads to a fixed width), else one small varint per value.
 *
 * Values that do not fit that model stay exact as EXCEPTIONS (raw strings with their index): leading
 * zeros ("007.5"), negative zero ("-0.00"), or a mantissa beyond 2^53 at scale E.
 *
 * Layout: u8 flags (1 uniform width, 2 has exceptions) · uv E · (uv W | uv w[n]) · sv delta[n] ·
 * [uv count · (uv index delta · str raw)[count]]
 */
import { ValidationError } from '../../core/errors.js';
import type { ByteReader, ByteWriter } from './byte-buffer.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Powers of ten exact as doubles (10^22 is the last one). */
const P10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
const ZEROS = Array.from({ length: 64 }, (_, k) => '0'.repeat(k));
const zeros = (k: number): string => (k < 64 ? ZEROS[k]! : '0'.repeat(k));

const F_UNIFORM = 1;
const F_EXCEPTIONS = 2;

// Parse results of the last parseDecimal call (module scratch keeps the hot loop allocation-free).
let pMant = 0;
let pWidth = 0;
let pSig = 0;
/** false: valid decimal that the integer model cannot hold exactly (stored as an exception). */
let pRegular = true;

/** Returns false when `s` is not a decimal string at all. */
function parseDecimal(s: string): boolean {
  const len = s.length;
  let i = 0;
  let neg = false;
  if (len > 0 && s.charCodeAt(0) === 45) {
    neg = true;
    i = 1;
  }
  const intStart = i;
  let m = 0;
  while (i < len) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    m = m * 10 + c;
    i++;
  }
  const intDigits = i - intStart;
  if (intDigits === 0) return false;
  let width = 0;
  let sig = 0;
  if (i < len) {
    if (s.charCodeAt(i) !== 46) return false;
    i++;
    const fracStart = i;
    while (i < len) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return false;
      m = m * 10 + c;
      i++;
      if (c !== 0) sig = i - fracStart;
    }
    width = i - fracStart;
    if (width === 0) return false;
  }
  pRegular = !(intDigits > 1 && s.charCodeAt(intStart) === 48) && !(neg && m === 0) && m <= MAX_SAFE;
  pMant = neg ? -m : m;
  pWidth = width;
  pSig = sig;
  return true;
}

/** `m / 10^scale` as a plain decimal string with exactly `scale` decimals. */
export function formatScaled(m: number, scale: number): string {
  if (scale === 0) return String(m);
  const neg = m < 0;
  let d = String(neg ? -m : m);
  if (d.length <= scale) d = zeros(scale - d.length + 1) + d;
  const k = d.length - scale;
  const s = `${d.slice(0, k)}.${d.slice(k)}`;
  return neg ? `-${s}` : s;
}

export function isDecimalString(s: string): boolean {
  return parseDecimal(s);
}

export function writeDecimalColumn(w: ByteWriter, values: readonly string[], field: string): void {
  const n = values.length;
  const mant = new Float64Array(n);
  const width = new Uint16Array(n);
  const sig = new Uint16Array(n);
  const regular = new Uint8Array(n);
  let E = 0;
  for (let i = 0; i < n; i++) {
    const s = values[i]!;
    if (typeof s !== 'string' || !parseDecimal(s)) throw new ValidationError(field, 'a decimal string', s);
    if (!pRegular || pWidth > 0xffff) continue;
    regular[i] = 1;
    mant[i] = pMant;
    width[i] = pWidth;
    sig[i] = pSig;
    if (pSig > E) E = pSig;
  }
  if (E > 22) E = 22;
  // Normalise to scale E; whatever does not fit exactly becomes an exception.
  const norm = new Float64Array(n);
  let exceptions = 0;
  let uniform = true;
  let W = -1;
  for (let i = 0; i < n; i++) {
    if (regular[i]) {
      const wi = width[i]!;
      let v: number;
      if (wi <= E) v = mant[i]! * P10[E - wi]!;
      else if (sig[i]! <= E && wi - E <= 22) v = mant[i]! / P10[wi - E]!;
      else v = NaN;
      if (Number.isSafeInteger(v)) {
        norm[i] = v;
        if (W === -1) W = wi;
        else if (wi !== W) uniform = false;
        continue;
      }
      regular[i] = 0;
    }
    exceptions++;
  }
  if (W === -1) W = 0;
  w.u8((uniform ? F_UNIFORM : 0) | (exceptions ? F_EXCEPTIONS : 0));
  w.uv(E);
  if (uniform) w.uv(W);
  else for (let i = 0; i < n; i++) w.uv(regular[i] ? width[i]! : 0);
  let prev = 0;
  for (let i = 0; i < n; i++) {
    if (!regular[i]) {
      w.sv(0);
      continue;
    }
    const v = norm[i]!;
    const d = v - prev;
    // Two safe integers of opposite sign can differ by more than 2^53; such a delta is not exact.
    if (!Number.isSafeInteger(d)) {
      regular[i] = 0;
      exceptions++;
      w.sv(0);
      continue;
    }
    w.sv(d);
    prev = v;
  }
  // The exception count is always written; the flag bit is only a hint (a late exception from an
  // inexact delta can appear after the flags were written).
  if (exceptions) {
    let last = 0;
    let count = 0;
    for (let i = 0; i < n; i++) if (!regular[i]) count++;
    w.uv(count);
    for (let i = 0; i < n; i++) {
      if (regular[i]) continue;
      w.uv(i - last);
      last = i;
      w.str(values[i]!);
    }
  } else {
    w.uv(0);
  }
}

export function readDecimalColumn(r: ByteReader, n: number): string[] {
  const flags = r.u8();
  const E = r.uv();
  const out = new Array<string>(n);
  let v = 0;
  if (flags & F_UNIFORM) {
    const W = r.uv();
    if (W >= E) {
      const pad = W > E ? (E === 0 ? '.' : '') + zeros(W - E) : '';
      // Prices and sizes repeat (book levels, round lots): reuse one string per distinct value,
      // which spares the allocations (and the GC time) of rebuilding it.
      const seen = new Map<number, string>();
      for (let i = 0; i < n; i++) {
        v += r.sv();
        let s = seen.get(v);
        if (s === undefined) {
          s = pad ? formatScaled(v, E) + pad : formatScaled(v, E);
          seen.set(v, s);
        }
        out[i] = s;
      }
    } else {
      const div = P10[E - W]!;
      for (let i = 0; i < n; i++) {
        v += r.sv();
        out[i] = formatScaled(v / div, W);
      }
    }
  } else {
    const widths = new Uint16Array(n);
    for (let i = 0; i < n; i++) widths[i] = r.uv();
    for (let i = 0; i < n; i++) {
      v += r.sv();
      const wi = widths[i]!;
      if (wi >= E) out[i] = wi > E ? formatScaled(v, E) + (E === 0 ? '.' : '') + zeros(wi - E) : formatScaled(v, E);
      else out[i] = formatScaled(v / P10[E - wi]!, wi);
    }
  }
  const count = r.uv();
  let at = 0;
  for (let k = 0; k < count; k++) {
    at += r.uv();
    if (at >= n) throw new RangeError(`decimal exception index ${at} beyond column length ${n}`);
    out[at] = r.str();
  }
  return out;
}

/**
 * The column as numbers: entry i is Number(s) of the string readDecimalColumn would return, made
 * without the string (a replay turns prices and sizes into ticks and lots, and the strings were
 * most of the read path's cost). The usual column — one width W ≥ E — holds mantissas v at scale E,
 * and Number("<v at scale E><zeros>") is the double nearest to v·10^−E, which is exactly what the
 * division v / 10^E gives (both operands are exact doubles, and IEEE division rounds to nearest). The
 * other layouts and the exceptions go through the string itself.
 */
export function readDecimalNumbers(r: ByteReader, n: number): Float64Array {
  const flags = r.u8();
  const E = r.uv();
  const out = new Float64Array(n);
  let v = 0;
  if (flags & F_UNIFORM) {
    const W = r.uv();
    if (W >= E) {
      const scale = P10[E]!;
      for (let i = 0; i < n; i++) {
        v += r.sv();
        out[i] = v / scale;
      }
    } else {
      const div = P10[E - W]!;
      for (let i = 0; i < n; i++) {
        v += r.sv();
        out[i] = Number(formatScaled(v / div, W));
      }
    }
  } else {
    const widths = new Uint16Array(n);
    for (let i = 0; i < n; i++) widths[i] = r.uv();
    for (let i = 0; i < n; i++) {
      v += r.sv();
      const wi = widths[i]!;
      out[i] = Number(wi >= E ? formatScaled(v, E) : formatScaled(v / P10[E - wi]!, wi));
    }
  }
  const count = r.uv();
  let at = 0;
  for (let k = 0; k < count; k++) {
    at += r.uv();
    if (at >= n) throw new RangeError(`decimal exception index ${at} beyond column length ${n}`);
    out[at] = Number(r.str());
  }
  return out;
}
