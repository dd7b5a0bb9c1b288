/**
 * Building blocks for spot REST request schemas.
 *
 * Every spot request travels as query parameters, so a request schema OUTPUTS the exact wire strings and
 * ACCEPTS both what a caller naturally passes (Decimal | number | string, arrays) and the all-string wire
 * form (the emulator runs incoming parameters through the same schema). Each issue carries a path naming
 * the parameter and a message stating the expected value, which the client turns into
 * `ValidationError(field, expected)`.
 */
import { z } from 'zod';
import { decParam, intInRange, msParam, spotSymbolParam } from '../wire.js';
import { SPOT_KLINE_INTERVALS, SPOT_ORDER_TYPES, SPOT_SIDES, SPOT_STP_MODES } from '../../domain/spot-enums.js';

/**
 * Transport parameters the signer adds (spot-api.md §5). They are not part of any request schema; when the
 * emulator parses a raw incoming query they are tolerated and stripped, anywhere else they are harmless.
 */
export const SPOT_TRANSPORT_PARAMS = ['timestamp', 'signature'] as const;
const TRANSPORT = new Set<string>(SPOT_TRANSPORT_PARAMS);

/**
 * Wraps a strict primitive so that any failure (including a missing value) becomes ONE issue whose
 * message is `expected`: zod's own texts ("Invalid input: expected string, received undefined") are not
 * what a ValidationError should show.
 */
export function wireParam<T extends z.ZodType>(schema: T, expected: string, invalidReason: SpotIssueReason = 'invalid') {
  const param = z
    .custom<z.input<T>>(() => true)
    .transform((value, ctx): z.output<T> => {
      const r = schema.safeParse(value);
      if (r.success) return r.data as z.output<T>;
      ctx.addIssue({
        code: 'custom',
        message: expected,
        input: value,
        params: { reason: value === undefined ? 'missing' : invalidReason },
      });
      return z.NEVER;
    });
  EXPECTED.set(param, expected);
  return param;
}

/**
 * Why a request issue was raised, in `issue.params.reason`: the emulator maps `missing` to 700004
 * (mandatory parameter), `combination` to -1128, `range` (a value outside a numeric range, such as a
 * negative limit) to a parameter error naming the parameter and the range; the client may ignore it.
 */
export type SpotIssueReason = 'missing' | 'invalid' | 'unknown' | 'combination' | 'range';

const REASONS: ReadonlySet<string> = new Set<SpotIssueReason>(['missing', 'invalid', 'unknown', 'combination', 'range']);

export function issueReason(iss: object): SpotIssueReason | undefined {
  const reason = (iss as { params?: { reason?: unknown } }).params?.reason;
  return typeof reason === 'string' && REASONS.has(reason) ? (reason as SpotIssueReason) : undefined;
}

/** One parameter of a request schema, for docs and for the emulator's "mandatory parameter" checks. */
export interface SpotParamDoc {
  readonly name: string;
  readonly required: boolean;
  readonly expected: string;
}

const EXPECTED = new WeakMap<z.ZodType, string>();
const PARAM_DOCS = new WeakMap<z.ZodType, readonly SpotParamDoc[]>();

/** Records what a hand-built parameter schema expects (wireParam does this itself). */
export function withExpected<T extends z.ZodType>(schema: T, expected: string): T {
  EXPECTED.set(schema, expected);
  return schema;
}

/** The parameters of a spot request schema in wire order (undefined for a schema not built here). */
export function describeParams(schema: z.ZodType): readonly SpotParamDoc[] | undefined {
  return PARAM_DOCS.get(schema);
}

type Shape = Record<string, z.ZodType>;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;
type In<S extends Shape> = z.input<z.ZodObject<S>>;
export type ParamCheck<S extends Shape> = (params: Out<S>, ctx: z.RefinementCtx) => void;

/**
 * A parameter object: unknown keys are reported under their own name, cross-field rules run on the parsed
 * values, and absent/undefined parameters are removed so the output serialises as is.
 */
export function paramsObject<S extends Shape>(shape: S, check?: ParamCheck<S>, options: { transport?: boolean } = {}) {
  const known = Object.keys(shape);
  const allowTransport = options.transport ?? true;
  const unknownMessage =
    known.length === 0 ? 'no parameter (this endpoint takes none)' : `no such parameter (expected one of ${known.join(', ')})`;
  const base = z.object(shape);
  const checked = check ? base.superRefine((v, ctx) => check(v, ctx)) : base;
  const schema = z
    .custom<In<S>>(() => true)
    .superRefine((raw, ctx) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        ctx.addIssue({ code: 'custom', message: 'an object of parameters', input: raw });
        return;
      }
      for (const key of Object.keys(raw)) {
        if (Object.hasOwn(shape, key)) continue;
        if (allowTransport && TRANSPORT.has(key)) continue;
        ctx.addIssue({ code: 'custom', path: [key], message: unknownMessage, params: { reason: 'unknown' } });
      }
    })
    .pipe(checked.transform((v) => dropUndefined(v) as Out<S>));
  PARAM_DOCS.set(
    schema,
    known.map((name) => {
      const field = shape[name]!;
      const inner = field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field;
      return {
        name,
        required: !(field instanceof z.ZodOptional),
        expected: EXPECTED.get(inner) ?? EXPECTED.get(field) ?? 'see the catalogue',
      };
    }),
  );
  return schema;
}

function dropUndefined<T extends object>(v: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) if (val !== undefined) out[k] = val;
  return out as T;
}

// ---------- parameters ----------

export const symbolP = wireParam(spotSymbolParam, 'a spot symbol like BTCUSDT');

/** One or more symbols, given as an array or a comma-separated string; sent comma-separated. */
export const symbolListP = (max: number) =>
  wireParam(
    z
      .union([z.string(), z.array(z.string()).readonly()])
      .transform((v) => (typeof v === 'string' ? v.split(',') : [...v]).map((s) => s.trim()))
      .pipe(z.array(spotSymbolParam).min(1).max(max))
      .transform((list) => list.join(',')),
    max === Infinity
      ? 'spot symbols like BTCUSDT,ETHUSDT (comma-separated)'
      : `1..${max} spot symbols like BTCUSDT,ETHUSDT (comma-separated)`,
  );

/** Decimal > 0; sent as a plain decimal string (no exponent). */
export const decimalP = wireParam(decParam, 'a decimal number > 0');

/**
 * Integer limit; sent as a string. Above the documented maximum it is clamped to the maximum rather than
 * refused: the official spot SDK's myTrades sends limit=500 by default against a documented 100, and a
 * default of the exchange's own SDK cannot fail on the real exchange. Below `lo` or not an integer is
 * refused, naming the range.
 */
export const limitP = (lo: number, hi: number) =>
  wireParam(
    intInRange(lo, Number.MAX_SAFE_INTEGER).transform((v) => String(Math.min(v, hi))),
    `an integer ${lo}..${hi} (larger values are served as ${hi})`,
    'range',
  );

export const timeP = wireParam(msParam.transform(String), 'a millisecond timestamp (integer >= 0)');

/** spot-api.md §5: at most 60000 ms. */
export const RECV_WINDOW_MAX = 60_000;
export const recvWindowP = wireParam(intInRange(1, RECV_WINDOW_MAX).transform(String), `an integer 1..${RECV_WINDOW_MAX} (ms)`);

export const sideP = wireParam(z.enum(SPOT_SIDES), `one of ${SPOT_SIDES.join(', ')}`);
export const orderTypeP = wireParam(z.enum(SPOT_ORDER_TYPES), `one of ${SPOT_ORDER_TYPES.join(', ')}`);
export const stpModeP = wireParam(z.enum(SPOT_STP_MODES), `one of "", ${SPOT_STP_MODES.filter((m) => m !== '').join(', ')}`);
export const intervalP = wireParam(z.enum(SPOT_KLINE_INTERVALS), `one of ${SPOT_KLINE_INTERVALS.join(', ')} (no 1h: the hour is 60m)`);

/**
 * Spot order ids are opaque strings on the venue (digits, hex, or `C02__…`), so a numeric-only pattern
 * would refuse real ids; numbers are accepted and sent as digits.
 */
const SPOT_ORDER_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const orderIdP = wireParam(
  z.union([z.string().regex(SPOT_ORDER_ID), z.number().int().nonnegative(), z.bigint().nonnegative()]).transform((v) => String(v)),
  'an order id (1..64 of A-Z a-z 0-9 _ -)',
);

/**
 * Client order ids: the characters other venues of this family allow (letters, digits, `. : / _ -`); the
 * doc does not give a set, and anything else risks error 700008 (illegal characters).
 */
const CLIENT_ORDER_ID = /^[A-Za-z0-9.:/_-]{1,64}$/;
export const clientOrderIdP = wireParam(z.string().regex(CLIENT_ORDER_ID), 'a client order id (1..64 of A-Z a-z 0-9 . : / _ -)');

export const boolP = wireParam(
  z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => (v === true || v === 'true' ? 'true' : 'false')),
  'true or false',
);

/** Adds one issue at `field` (the helper keeps messages in the "expected value" form). */
export function issue(
  ctx: z.RefinementCtx,
  field: string | readonly (string | number)[],
  expected: string,
  reason: SpotIssueReason = 'invalid',
): void {
  ctx.addIssue({ code: 'custom', path: typeof field === 'string' ? [field] : [...field], message: expected, params: { reason } });
}

/** startTime ≤ endTime when both are present. */
export function checkTimeOrder(p: { startTime?: string; endTime?: string }, ctx: z.RefinementCtx): void {
  if (p.startTime !== undefined && p.endTime !== undefined && Number(p.startTime) > Number(p.endTime)) {
    issue(ctx, 'endTime', 'a time >= startTime');
  }
}

/** spot-api.md §4.1 rule 1: startTime and endTime must be sent together. */
export function checkTimePair(p: { startTime?: string; endTime?: string }, ctx: z.RefinementCtx): void {
  if ((p.startTime === undefined) !== (p.endTime === undefined)) {
    issue(ctx, p.startTime === undefined ? 'startTime' : 'endTime', 'startTime and endTime together (both or neither)', 'combination');
    return;
  }
  checkTimeOrder(p, ctx);
}
