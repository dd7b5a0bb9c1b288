/**
 * Response building blocks shared by the contract schemas (on top of the tolerant primitives in
 * `../wire.js`). Objects keep the venue's field names and unknown fields; only tuples and columnar
 * payloads are reshaped into named records.
 */
import { z } from 'zod';
import { bool, dec, int, num, obj, str } from '../wire.js';

export { bool, dec, int, num, obj, str };

/**
 * Optional-and-nullable field: absent, null and "" all become undefined. Same reading as `opt` in
 * `../wire.js`, but the key is optional in the OUTPUT type too (wire.ts's pipe makes it a required
 * key of type `T | undefined`), so parsed records can be written without listing every field.
 */
export function opt<T extends z.ZodType>(schema: T) {
  return z
    .union([z.null(), z.literal(''), schema])
    .transform((v) => (v === null || v === '' ? undefined : (v as z.output<T>)))
    .optional();
}

/**
 * A venue id (order, position, trade, stop-order id) as a string. Small ids arrive as JSON numbers,
 * large ones as strings; an integer JSON number above 2^53 has already been rounded by `JSON.parse`
 * (the cancel fixture's 101716841474621953 parses as ...952), so such a number is refused instead of
 * silently naming another order: parse bodies with `parseJsonKeepingLongInts` (core/json-codec.ts, the
 * client's parser), which keeps long integers as strings.
 */
export const venueId = z.union([z.string().min(1), z.number(), z.bigint()]).transform((v, ctx): string => {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'an id as a string or a safe integer (a JSON number above 2^53 lost precision in JSON.parse: parse the body with parseJsonKeepingLongInts)',
      input: v,
    });
    return z.NEVER;
  }
  return String(v);
});

/** An integer code restricted to known values (side, state, order type): an unknown code is malformed. */
export function codeOf<const T extends number>(values: readonly T[], what: string) {
  return int
    .refine((v) => (values as readonly number[]).includes(v), { message: `${what}: one of ${values.join(', ')}` })
    .transform((v) => v as T);
}

export const enumValues = <T extends Record<string, number>>(e: T): T[keyof T][] => Object.values(e) as T[keyof T][];

/** Page object of paged lists. */
export interface Page<T> {
  readonly pageSize?: number;
  readonly totalCount?: number;
  readonly totalPage?: number;
  readonly currentPage?: number;
  readonly resultList: T[];
}

const pageMeta = {
  pageSize: opt(int),
  totalCount: opt(int),
  totalPage: opt(int),
  currentPage: opt(int),
};

const isPageLike = (v: unknown): v is { resultList?: unknown } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'resultList' in v;

/**
 * A page (`{pageSize, totalCount, totalPage, currentPage, resultList}`). Some paged endpoints answer
 * with the bare list in practice (history_positions in the real docs); that is wrapped as a page
 * without the counters.
 */
export function page<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (v) => (Array.isArray(v) ? { resultList: v } : v),
    obj({ ...pageMeta, resultList: z.preprocess((v) => v ?? [], z.array(item)) }),
  ) as unknown as z.ZodType<Page<z.output<T>>, unknown>;
}

/**
 * A list. Endpoints the document calls "list of …" yet pages with page_num / page_size may answer
 * with a page object; its resultList is taken. A null list is empty.
 */
export function list<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (v) => (v === null || v === undefined ? [] : isPageLike(v) ? (v.resultList ?? []) : v),
    z.array(item),
  ) as unknown as z.ZodType<z.output<T>[], unknown>;
}

/** One object, or a list of them, always returned as a list. */
export function oneOrMany<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]), z.array(item)) as unknown as z.ZodType<
    z.output<T>[],
    unknown
  >;
}

/**
 * Common response: `{success, code}` without data (or data the document does not describe). The
 * payload, if any, is passed through untouched.
 */
export const common = z.unknown();

/** A list of strings that may arrive as numbers (UIDs, ids). */
export const strList = z.preprocess((v) => v ?? [], z.array(str));

/**
 * The contract envelope `{success, code, data?, message?}` (code may arrive as "0" from some
 * sources). The client removes it before the catalogue's response schema sees `data`; the emulator
 * writes it. Failure: success false, data null or absent, `message` (not `msg`).
 */
export const contractEnvelopeSchema = obj({
  success: bool,
  code: int,
  data: z.unknown().optional(),
  message: opt(z.string()),
});
export type ContractEnvelope = z.output<typeof contractEnvelopeSchema>;

/**
 * One object or an array of them, shape kept (detail and ticker answer an object with a symbol and
 * an array without). The branch is chosen by shape, so an issue points at the bad field instead of
 * reporting that neither union branch matched.
 */
export function objectOrArray<T extends z.ZodType>(item: T) {
  const many = z.array(item);
  return z.unknown().transform((v, ctx): z.output<T> | z.output<T>[] => {
    const r = Array.isArray(v) ? many.safeParse(v) : item.safeParse(v);
    if (r.success) return r.data as z.output<T> | z.output<T>[];
    for (const issue of r.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as PropertyKey[], input: v });
    return z.NEVER;
  });
}
