/**
 * Zod building blocks for wire values. Responses are parsed tolerantly (the real venue sends numbers as
 * strings and strings as numbers, nulls, extra fields); requests are checked strictly and serialised to
 * the exact strings that go on the wire.
 */
import { z } from 'zod';
import { Decimal } from '../core/decimal.js';

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

// ---------- response side: tolerant ----------

/** A number that may arrive as a JSON number or a numeric string. */
export const num = z
  .union([z.number(), z.string().regex(NUMERIC, 'numeric string')])
  .transform((v) => (typeof v === 'number' ? v : Number(v)));

/** An integer (ms timestamps, ids that fit in a double, enum codes) as number or numeric string. */
export const int = num.refine((v) => Number.isInteger(v), 'integer');

/** A decimal amount as number or string; parsed to Decimal without passing through float for strings. */
export const dec = z
  .union([z.number(), z.string().regex(NUMERIC, 'numeric string')])
  .transform((v) => new Decimal(typeof v === 'number' ? v.toString() : v));

/** A string that may arrive as a number (ids above 2^53 arrive as strings, small ones as numbers). */
export const str = z.union([z.string(), z.number(), z.bigint()]).transform((v) => String(v));

/** Boolean that may arrive as true/false, "true"/"false" or 0/1. */
export const bool = z
  .union([z.boolean(), z.literal('true'), z.literal('false'), z.literal(0), z.literal(1)])
  .transform((v) => v === true || v === 'true' || v === 1);

/** Optional-and-nullable variant: absent, null and empty string all become undefined. */
export function opt<T extends z.ZodType>(schema: T) {
  return z
    .union([z.null(), z.literal(''), schema])
    .optional()
    .transform((v) => (v === null || v === '' || v === undefined ? undefined : (v as z.output<T>)));
}

/** An object that keeps unknown keys (the venue adds fields without notice). */
export function obj<T extends z.ZodRawShape>(shape: T) {
  return z.looseObject(shape);
}

// ---------- request side: strict ----------

/** A positive decimal given as Decimal, number or string, sent as a plain decimal string. */
export const decParam = z.union([z.instanceof(Decimal), z.number(), z.string()]).transform((v, ctx) => {
  const s = v instanceof Decimal ? v.toFixed() : typeof v === 'number' ? (Number.isFinite(v) ? new Decimal(v).toFixed() : 'NaN') : v.trim();
  if (!NUMERIC.test(s)) {
    ctx.addIssue({ code: 'custom', message: 'a decimal number' });
    return z.NEVER;
  }
  const d = new Decimal(s);
  if (!d.isFinite() || d.lte(0)) {
    ctx.addIssue({ code: 'custom', message: 'a decimal number > 0' });
    return z.NEVER;
  }
  return d.toFixed();
});

/** A non-negative decimal (0 allowed: TP/SL price 0 cancels). */
export const decParamNonNeg = z.union([z.instanceof(Decimal), z.number(), z.string()]).transform((v, ctx) => {
  const s = v instanceof Decimal ? v.toFixed() : typeof v === 'number' ? (Number.isFinite(v) ? new Decimal(v).toFixed() : 'NaN') : v.trim();
  if (!NUMERIC.test(s) || new Decimal(s).lt(0)) {
    ctx.addIssue({ code: 'custom', message: 'a decimal number >= 0' });
    return z.NEVER;
  }
  return new Decimal(s).toFixed();
});

/** Integer parameter given as number or numeric string. */
export const intParam = z
  .union([z.number(), z.string().regex(/^-?\d+$/, 'an integer')])
  .transform((v) => (typeof v === 'number' ? v : Number(v)))
  .pipe(z.number().int());

/** Millisecond timestamp parameter. */
export const msParam = intParam.pipe(z.number().int().min(0));

/** Boolean parameter, as boolean or "true"/"false". */
export const boolParam = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

/** Integer limited to a range, named in errors as `lo..hi`. */
export const intInRange = (lo: number, hi: number) => intParam.pipe(z.number().int().min(lo).max(hi));

/** Long id parameter (contract order ids exceed 2^53, so they travel as digit strings). */
export const idParam = z
  .union([z.string().regex(/^\d+$/, 'a numeric id'), z.number().int().nonnegative(), z.bigint()])
  .transform((v) => String(v));

export const spotSymbolParam = z.string().regex(/^[A-Z0-9]{2,30}$/, 'a spot symbol like BTCUSDT');
export const contractSymbolParam = z.string().regex(/^[A-Z0-9]{1,20}_[A-Z0-9]{2,10}$/, 'a contract symbol like BTC_USDT');

export { NUMERIC as NUMERIC_PATTERN };
