/**
 * Response-side pieces shared by the spot sections: enums that may arrive as numbers, comma lists, and the
 * spot error / envelope bodies (the client unwraps envelopes; these schemas document their shape).
 */
import { z } from 'zod';
import { int, str, opt } from '../wire.js';

/** An enum the venue may send as a string or as a number ("1" or 1). */
export function wireEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return str.pipe(z.enum(values));
}

/** Comma-separated list (or already a list) of non-empty items. */
export const commaList = z
  .union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])
  .transform((v) => (Array.isArray(v) ? v.map(String) : String(v).split(',')).map((s) => s.trim()).filter((s) => s !== ''));

/** Error body of a spot request: `{code, msg}` (wire-protocol.md), sometimes with `_extend`. */
export const spotErrorBodySchema = z.looseObject({ code: int, msg: z.string() });
export type SpotErrorBody = z.output<typeof spotErrorBodySchema>;

/**
 * The (E) envelope `{code, msg, data, timestamp}`: success is code 0 or 200. `msg` may be null
 * (defaultSymbols), `data` may be absent (a bare acknowledgement such as `DELETE /api/v3/order/all`).
 */
export const spotWrappedEnvelopeSchema = z.looseObject({
  code: int,
  msg: opt(z.string()),
  data: z.unknown().optional(),
  timestamp: opt(int),
});
export type SpotWrappedEnvelope = z.output<typeof spotWrappedEnvelopeSchema>;

/** Codes of the (E) envelope that mean success (spot-api.md §7 rule 2). */
export const SPOT_WRAPPED_SUCCESS_CODES: ReadonlySet<number> = new Set([0, 200]);

/**
 * Parses `value` with `schema` inside a transform and re-reports its issues at their own paths (relative
 * to the current position), so a dispatching schema names the failing field instead of reporting an
 * opaque union failure.
 */
export function forwardParse<T extends z.ZodType>(schema: T, value: unknown, ctx: z.RefinementCtx): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data as z.output<T>;
  forwardIssues(r.error, ctx);
  return z.NEVER;
}

/** Re-reports the issues of a nested parse at their own paths, relative to the current position. */
export function forwardIssues(error: z.ZodError, ctx: z.RefinementCtx): void {
  for (const iss of error.issues) {
    const params = (iss as { params?: Record<string, unknown> }).params;
    ctx.addIssue({ code: 'custom', path: [...iss.path], message: iss.message, input: iss.input, ...(params ? { params } : {}) });
  }
}

/**
 * "One object, or an array of all" (tickers without a symbol): always parsed into an array, so callers do
 * not narrow a union; the field paths stay precise.
 */
export function oneOrMany<T extends z.ZodType>(schema: T) {
  const many = z.array(schema);
  return z
    .custom<z.input<T> | z.input<T>[]>(() => true)
    .transform((v, ctx): z.output<T>[] => {
      if (Array.isArray(v)) return forwardParse(many, v, ctx);
      // On failure the issues are recorded and zod discards the value returned here.
      return [forwardParse(schema, v, ctx)];
    });
}
