/**
 * Request building blocks for the contract catalogue.
 *
 * Every primitive accepts BOTH what a caller naturally passes (Decimal, number, bigint, Date, arrays)
 * and the wire form the emulator sees (query values are strings; JSON bodies are parsed JSON), and
 * outputs the exact wire value. Each one reports a single issue whose message is the expected value,
 * so the client can turn `issue.path` + `issue.message` into `ValidationError(field, expected)`.
 *
 * These wrap `decParam` / `decParamNonNeg` / `contractSymbolParam` from `../wire.js` (which give zod's
 * generic union messages and output decimal strings) because contract JSON bodies carry decimals as
 * JSON numbers and callers need messages that say what was expected.
 */
import { z } from 'zod';
import { Decimal } from '../../core/decimal.js';
import { CONTRACT_INTERVAL_SECONDS, CONTRACT_KLINE_INTERVALS, type ContractKlineInterval } from '../../domain/contract-enums.js';
import { NUMERIC_PATTERN, contractSymbolParam, decParam, decParamNonNeg } from '../wire.js';

/** Input type of a decimal parameter. */
export type DecimalInput = Decimal | number | string;
/** Input type of an integer parameter. */
export type IntInput = number | string;
/** Input type of a long id (contract ids exceed 2^53: pass strings or bigints). */
export type LongIdInput = string | number | bigint;
/** Input type of a time parameter. */
export type TimeInput = number | string | Date;

/**
 * A parameter whose input type is `I` and whose wire output is `O`. `parse` returns undefined for a
 * value it cannot accept; the issue then carries `expected` as its message.
 */
export function param<I, O>(expected: string, parse: (v: unknown) => O | undefined) {
  return z
    .custom<I>(() => true)
    .transform((v, ctx): O => {
      const out = v === undefined || v === null ? undefined : parse(v);
      if (out === undefined) {
        ctx.addIssue({ code: 'custom', message: expected, input: v });
        return z.NEVER;
      }
      return out;
    });
}

// ---------- scalars ----------

/** Significant digits a double carries exactly (DBL_DIG): more would change in JSON.stringify. */
const JSON_SAFE_DIGITS = 15;

function decimalOf(v: unknown, nonNegative: boolean): Decimal | undefined {
  const r = (nonNegative ? decParamNonNeg : decParam).safeParse(v);
  return r.success ? new Decimal(r.data) : undefined;
}

function jsonNumberOf(d: Decimal): number | undefined {
  if (d.sd() > JSON_SAFE_DIGITS) return undefined;
  const n = Number(d.toFixed());
  return Number.isFinite(n) ? n : undefined;
}

/** Decimal > 0 sent as a JSON number (the request fixtures carry price and vol as numbers). */
export const jsonDec = param<DecimalInput, number>(`a decimal number > 0 with at most ${JSON_SAFE_DIGITS} significant digits`, (v) => {
  const d = decimalOf(v, false);
  return d === undefined ? undefined : jsonNumberOf(d);
});

/** Decimal ≥ 0 sent as a JSON number (a TP/SL price of 0 cancels it). */
export const jsonDecNonNeg = param<DecimalInput, number>(
  `a decimal number >= 0 with at most ${JSON_SAFE_DIGITS} significant digits`,
  (v) => {
    const d = decimalOf(v, true);
    return d === undefined ? undefined : jsonNumberOf(d);
  },
);

/** TP/SL price that may be null (null or 0 cancels): null is kept on the wire. */
export const jsonDecNullable = z
  .custom<DecimalInput | null>(() => true)
  .transform((v, ctx): number | null => {
    if (v === null) return null;
    const d = v === undefined ? undefined : decimalOf(v, true);
    const n = d === undefined ? undefined : jsonNumberOf(d);
    if (n === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `null or a decimal number >= 0 with at most ${JSON_SAFE_DIGITS} significant digits`,
        input: v,
      });
      return z.NEVER;
    }
    return n;
  });

/** Decimal > 0 sent as a plain decimal string (query parameters). */
export const queryDec = param<DecimalInput, string>('a decimal number > 0', (v) => decimalOf(v, false)?.toFixed());

function intOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^[+-]?\d{1,16}$/.test(v.trim())) {
    const n = Number(v.trim());
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** Integer within [lo, hi], named in the message. */
export function intIn(lo: number, hi: number = Number.MAX_SAFE_INTEGER, expected?: string) {
  const msg = expected ?? (hi === Number.MAX_SAFE_INTEGER ? `an integer >= ${lo}` : `an integer from ${lo} to ${hi}`);
  return param<IntInput, number>(msg, (v) => {
    const n = intOf(v);
    return n !== undefined && n >= lo && n <= hi ? n : undefined;
  });
}

/** An integer enumeration code; the caller may pass the number or its string form. */
export function code<const T extends number>(values: readonly T[], meaning: string) {
  const list = values.length === 1 ? `${values[0]}` : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
  return param<T | `${T}`, T>(`${list} (${meaning})`, (v) => {
    const n = intOf(v);
    return n !== undefined && (values as readonly number[]).includes(n) ? (n as T) : undefined;
  });
}

/** Boolean given as true/false or "true"/"false". */
export const boolParam = param<boolean | 'true' | 'false', boolean>('true or false', (v) =>
  v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined,
);

/** Contract symbol `BASE_QUOTE`. */
export const symbol = param<string, string>('a contract symbol like BTC_USDT', (v) => {
  const r = contractSymbolParam.safeParse(v);
  return r.success ? r.data : undefined;
});

/** Currency code like USDT. */
export const currency = param<string, string>('a currency code like USDT', (v) =>
  typeof v === 'string' && /^[A-Z0-9]{1,20}$/.test(v) ? v : undefined,
);

/** Free text of bounded length (external order ids, config names). */
export function text(min: number, max: number) {
  return param<string, string>(`a string of ${min} to ${max} characters`, (v) =>
    typeof v === 'string' && v.length >= min && v.length <= max ? v : undefined,
  );
}

function longIdOf(v: unknown): string | undefined {
  if (typeof v === 'bigint') return v > 0n && v < 10n ** 19n ? v.toString() : undefined;
  if (typeof v === 'number') return Number.isSafeInteger(v) && v > 0 ? String(v) : undefined;
  if (typeof v === 'string' && /^\d{1,19}$/.test(v) && /[1-9]/.test(v)) return v;
  return undefined;
}

const LONG_ID_EXPECTED = 'a positive id as a digit string or bigint (a JSON number above 2^53 has already lost precision)';

/**
 * Long id (order, position, stop-order ids). Sent as a digit string: ids exceed 2^53, and the venue
 * reads `"orderId": "739204819784386560"` (chase fixture) as readily as a number.
 */
export const longId = param<LongIdInput, string>(LONG_ID_EXPECTED, longIdOf);

/** Long id list, as an array or a comma-separated string, sent comma-separated (query parameters). */
export function idCsv(max: number, what: string) {
  return param<readonly LongIdInput[] | string, string>(`a list of 1 to ${max} ${what} (array or comma-separated digit strings)`, (v) => {
    const items = typeof v === 'string' ? v.split(',').map((s) => s.trim()) : Array.isArray(v) ? (v as unknown[]) : undefined;
    if (items === undefined || items.length < 1 || items.length > max) return undefined;
    const out: string[] = [];
    for (const item of items) {
      const id = longIdOf(item);
      if (id === undefined) return undefined;
      out.push(id);
    }
    return out.join(',');
  });
}

/** Integer-code list, as an array or comma-separated string, sent comma-separated (`states=2,3`). */
export function codeCsv<const T extends number>(values: readonly T[], meaning: string) {
  return param<readonly (T | `${T}`)[] | string, string>(
    `a non-empty list of ${values.join(', ')} (${meaning}), array or comma-separated`,
    (v) => {
      const items = typeof v === 'string' ? v.split(',').map((s) => s.trim()) : Array.isArray(v) ? (v as unknown[]) : undefined;
      if (items === undefined || items.length === 0) return undefined;
      const out: number[] = [];
      for (const item of items) {
        const n = intOf(item);
        if (n === undefined || !(values as readonly number[]).includes(n)) return undefined;
        if (!out.includes(n)) out.push(n);
      }
      return out.join(',');
    },
  );
}

function msOf(v: unknown): number | undefined {
  if (v instanceof Date) {
    const t = v.getTime();
    return Number.isSafeInteger(t) && t >= 0 ? t : undefined;
  }
  const n = intOf(v);
  return n !== undefined && n >= 0 ? n : undefined;
}

/** Millisecond timestamp (number, digit string or Date). */
export const msTime = param<TimeInput, number>('a time in milliseconds since the epoch (integer >= 0 or Date)', msOf);

/**
 * Second timestamp for klines. Values of 10^11 or more are milliseconds by mistake (10^11 s is the
 * year 5138), so they are refused rather than silently asking for the far future.
 */
export const secTime = param<TimeInput, number>('a time in SECONDS since the epoch (integer below 10^11; a Date is converted)', (v) => {
  if (v instanceof Date) {
    const t = v.getTime();
    return Number.isSafeInteger(t) && t >= 0 ? Math.floor(t / 1000) : undefined;
  }
  const n = intOf(v);
  return n !== undefined && n >= 0 && n < 1e11 ? n : undefined;
});

// ---------- paging ----------

/** page_num ≥ 1, default 1 (the doc lists it as required with a default: we always send it). */
export const pageNum = intIn(1, Number.MAX_SAFE_INTEGER, 'an integer >= 1').optional().default(1);

/** page_size 1..max, default 20. */
export const pageSize = (max = 100) => intIn(1, max, `an integer from 1 to ${max}`).optional().default(20);

// ---------- cross-field checks ----------

export const DAY_MS = 86_400_000;

/** Adds an issue on `endKey` when both times are present and end < start or the span exceeds `maxDays`. */
export function checkSpan(
  ctx: z.RefinementCtx,
  start: number | undefined,
  end: number | undefined,
  endKey: string,
  maxDays?: number,
): void {
  if (start === undefined || end === undefined) return;
  if (end < start) {
    ctx.addIssue({ code: 'custom', path: [endKey], message: `a time at or after the start time (${start})`, input: end });
    return;
  }
  if (maxDays !== undefined && end - start > maxDays * DAY_MS) {
    ctx.addIssue({
      code: 'custom',
      path: [endKey],
      message: `at most ${maxDays} days after the start time (end - start <= ${maxDays * DAY_MS} ms)`,
      input: end,
    });
  }
}

// ---------- klines ----------

export const KLINE_MAX_POINTS = 2000;

/** Length of one candle in seconds; Month1 counts as 31 days (the longest month). */
export function klineIntervalSeconds(interval: ContractKlineInterval): number {
  return interval === 'Month1' ? 31 * 86_400 : CONTRACT_INTERVAL_SECONDS[interval];
}

/**
 * Largest number of candles a [start, end] range (seconds) can hold: floor((end - start) / len) + 1
 * (both ends inclusive, start on a candle boundary is the worst case).
 */
export function klinePoints(interval: ContractKlineInterval, start: number, end: number): number {
  return Math.floor((end - start) / klineIntervalSeconds(interval)) + 1;
}

export const klineInterval = param<ContractKlineInterval, ContractKlineInterval>(`one of ${CONTRACT_KLINE_INTERVALS.join(', ')}`, (v) =>
  typeof v === 'string' && (CONTRACT_KLINE_INTERVALS as readonly string[]).includes(v) ? (v as ContractKlineInterval) : undefined,
);

export { NUMERIC_PATTERN };

// ---------- bare-array bodies ----------

/**
 * A bare JSON array body of 1..max items. The body has no field name, so a count issue carries the
 * list's name from the document as its path (`orderIds` for order/cancel), for ValidationError.
 */
export function bodyList<T extends z.ZodType>(item: T, max: number, name: string, what: string) {
  const expected = `a list of 1 to ${max} ${what}`;
  return z
    .custom<readonly z.input<T>[]>(() => true)
    .superRefine((v, ctx) => {
      if (!Array.isArray(v) || v.length < 1 || v.length > max) ctx.addIssue({ code: 'custom', path: [name], message: expected, input: v });
    })
    .pipe(z.array(item));
}

/** A 0/1 flag (priceProtect); booleans are accepted and sent as 1 / 0. */
export const flag01 = param<0 | 1 | '0' | '1' | boolean, 0 | 1>('0 or 1 (or false / true)', (v) => {
  if (v === true || v === 1 || v === '1') return 1;
  if (v === false || v === 0 || v === '0') return 0;
  return undefined;
});

/** A non-empty list of numeric UIDs (numbers or digit strings), sent as JSON numbers. */
export const uidList = param<readonly (number | string)[], number[]>('a non-empty list of numeric UIDs', (v) => {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const out: number[] = [];
  for (const item of v as unknown[]) {
    const n = intOf(item);
    if (n === undefined || n <= 0) return undefined;
    out.push(n);
  }
  return out;
});
