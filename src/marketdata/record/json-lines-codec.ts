/**
 * JSON-lines codec of market records (record.ts): one record per line, keys in a fixed order so equal
 * records give equal bytes, strict validation on the way in (a bad line names its line number and
 * field). Files ending in `.gz` are gunzipped on read.
 */
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { ValidationError } from '../../core/errors.js';
import { KLINE_INTERVALS } from '../../domain/kline-interval.js';
import { RECORD_FORMAT, type MarketRecord } from './record.js';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal string');
const time = z.number().int().nonnegative();
const seqId = z.number().int().nonnegative();
const level = z.union([z.tuple([decimal, decimal]), z.tuple([decimal, decimal, z.number().int().nonnegative()])]);
const head = {
  m: z.enum(['spot', 'contract']),
  i: z.string().min(1),
  et: time,
  lt: time,
};

const recordSchema = z.discriminatedUnion('s', [
  z.object({
    s: z.literal('meta'),
    format: z.literal(RECORD_FORMAT),
    v: z.number().int().positive(),
    source: z.string().optional(),
    note: z.string().optional(),
  }),
  z.object({ s: z.literal('depth.snapshot'), ...head, u: seqId, b: z.array(level), a: z.array(level) }),
  z.object({ s: z.literal('depth.diff'), ...head, U: seqId, u: seqId, pu: seqId.optional(), b: z.array(level), a: z.array(level) }),
  z.object({ s: z.literal('trade'), ...head, id: z.string().optional(), p: decimal, q: decimal, ts: z.enum(['buy', 'sell']) }),
  z.object({ s: z.literal('bookTicker'), ...head, u: seqId.optional(), bp: decimal, bq: decimal, ap: decimal, aq: decimal }),
  z.object({
    s: z.literal('kline'),
    ...head,
    iv: z.enum(KLINE_INTERVALS),
    ot: time,
    o: decimal,
    h: decimal,
    l: decimal,
    c: decimal,
    v: decimal,
    qv: decimal.optional(),
    n: z.number().int().nonnegative().optional(),
    x: z.boolean().optional(),
  }),
  z.object({
    s: z.literal('funding'),
    ...head,
    r: decimal,
    nt: time.optional(),
    min: decimal.optional(),
    max: decimal.optional(),
    cy: z.number().positive().optional(),
  }),
  z.object({ s: z.literal('index'), ...head, p: decimal }),
  z.object({ s: z.literal('fair'), ...head, p: decimal }),
  z.object({
    s: z.literal('ticker'),
    ...head,
    last: decimal,
    open: decimal.optional(),
    high: decimal.optional(),
    low: decimal.optional(),
    v: decimal.optional(),
    qv: decimal.optional(),
    n: z.number().int().nonnegative().optional(),
  }),
]);

const HEAD_KEYS = ['s', 'm', 'i', 'et', 'lt'] as const;
/** Field order per stream: part of the byte-identical output contract. */
const BODY_KEYS: Readonly<Record<MarketRecord['s'], readonly string[]>> = {
  meta: ['format', 'v', 'source', 'note'],
  'depth.snapshot': ['u', 'b', 'a'],
  'depth.diff': ['U', 'u', 'pu', 'b', 'a'],
  trade: ['id', 'p', 'q', 'ts'],
  bookTicker: ['u', 'bp', 'bq', 'ap', 'aq'],
  kline: ['iv', 'ot', 'o', 'h', 'l', 'c', 'v', 'qv', 'n', 'x'],
  funding: ['r', 'nt', 'min', 'max', 'cy'],
  index: ['p'],
  fair: ['p'],
  ticker: ['last', 'open', 'high', 'low', 'v', 'qv', 'n'],
};

/** One record as one line (no newline). */
export function encodeRecordLine(r: MarketRecord): string {
  const src = r as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const keys = r.s === 'meta' ? ['s', ...BODY_KEYS.meta] : [...HEAD_KEYS, ...BODY_KEYS[r.s]];
  for (const k of keys) if (src[k] !== undefined) out[k] = src[k];
  return JSON.stringify(out);
}

/** Parses and validates one line; `lineNo` (1-based) goes into the error's field name. */
export function decodeRecordLine(line: string, lineNo?: number): MarketRecord {
  const where = lineNo === undefined ? 'record' : `line ${lineNo}`;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new ValidationError(where, 'one JSON object per line', line);
  }
  const parsed = recordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    throw new ValidationError(path ? `${where}.${path}` : where, issue.message, undefined);
  }
  return parsed.data as MarketRecord;
}

/** Lazily decodes the non-blank lines of a JSON-lines text. */
export function* iterateRecordLines(text: string): Generator<MarketRecord> {
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    const line = text.slice(start, end).trim();
    if (line) yield decodeRecordLine(line, lineNo);
    start = end + 1;
  }
}

export function parseRecordLines(text: string): MarketRecord[] {
  return [...iterateRecordLines(text)];
}

export function encodeRecordLines(records: Iterable<MarketRecord>): string {
  let s = '';
  for (const r of records) s += `${encodeRecordLine(r)}\n`;
  return s;
}

/** Reads a whole recording (gunzipping `*.gz`). */
export function readRecordFile(path: string): MarketRecord[] {
  const buf = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8');
  return parseRecordLines(text);
}

/** Anything that accepts text: a file stream, process.stdout, a test array. */
export interface TextSink {
  write(chunk: string): unknown;
}

export interface RecordSink {
  write(record: MarketRecord): void;
}

export class JsonLinesRecordWriter implements RecordSink {
  count = 0;

  constructor(private readonly sink: TextSink) {}

  write(record: MarketRecord): void {
    this.sink.write(`${encodeRecordLine(record)}\n`);
    this.count++;
  }
}

/** Appends records to a file (created when missing); close() flushes. */
export class RecordFileWriter extends JsonLinesRecordWriter {
  private readonly stream: WriteStream;

  constructor(path: string) {
    const stream = createWriteStream(path, { flags: 'a' });
    super(stream);
    this.stream = stream;
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }
}
