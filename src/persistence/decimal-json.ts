/**
 * JSON that keeps Decimal values as Decimals across a round trip through the journal. Decimals are
 * written as `{"$d":"1.23"}` so a string field that looks numeric (a client id) is never revived by
 * mistake.
 */
import { Decimal } from '../core/decimal.js';

export function encodeJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const original = key === '' ? value : this[key];
    return original instanceof Decimal ? { $d: original.toFixed() } : v;
  });
}

export function decodeJson<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.$d === 'string' && Object.keys(o).length === 1) return new Decimal(o.$d);
    }
    return v;
  }) as T;
}
