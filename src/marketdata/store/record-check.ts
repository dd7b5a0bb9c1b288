/**
 * Validates a record at append time, so a bad record is refused with its field named BEFORE it joins
 * a chunk (a failure at flush time would take the good records buffered with it). Cheaper than the
 * JSON-lines zod schema: plain type checks and one character scan per decimal.
 */
import { ValidationError } from '../../core/errors.js';
import { KLINE_INTERVALS } from '../../domain/kline-interval.js';
import { RECORD_STREAMS, type DataRecord, type RecordLevel } from '../record/record.js';
import { isDecimalString } from './decimal-column.js';

const STREAMS = new Set<string>(RECORD_STREAMS);

const HEAD = ['s', 'm', 'i', 'et', 'lt'];
/**
 * Every field the chunk codec stores, per stream. A record with any other key is refused: the
 * store must never drop a field silently (if the record model grows, chunk-codec.ts must too).
 */
const FIELDS: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries({
    'depth.snapshot': ['u', 'b', 'a'],
    'depth.diff': ['U', 'u', 'pu', 'b', 'a'],
    trade: ['id', 'p', 'q', 'ts'],
    bookTicker: ['u', 'bp', 'bq', 'ap', 'aq'],
    kline: ['iv', 'ot', 'o', 'h', 'l', 'c', 'v', 'qv', 'n', 'x'],
    funding: ['r', 'nt', 'min', 'max', 'cy'],
    index: ['p'],
    fair: ['p'],
    ticker: ['last', 'open', 'high', 'low', 'v', 'qv', 'n'],
  }).map(([s, f]) => [s, new Set([...HEAD, ...f])]),
);
const INTERVALS = new Set<string>(KLINE_INTERVALS);

type Loose = Readonly<Record<string, unknown>>;

function int(r: Loose, f: string, optional = false): void {
  const v = r[f];
  if (v === undefined && optional) return;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ValidationError(`record.${f}`, 'a safe integer', v);
}

function dec(r: Loose, f: string, optional = false): void {
  const v = r[f];
  if (v === undefined && optional) return;
  if (typeof v !== 'string' || !isDecimalString(v)) throw new ValidationError(`record.${f}`, 'a decimal string', v);
}

function levels(r: Loose, f: 'b' | 'a'): void {
  const side = r[f];
  if (!Array.isArray(side)) throw new ValidationError(`record.${f}`, 'an array of levels', side);
  for (let k = 0; k < side.length; k++) {
    const l = side[k] as RecordLevel;
    if (!Array.isArray(l) || (l.length !== 2 && l.length !== 3))
      throw new ValidationError(`record.${f}.${k}`, '[price, qty] or [price, qty, orders]', l);
    if (typeof l[0] !== 'string' || !isDecimalString(l[0])) throw new ValidationError(`record.${f}.${k}.0`, 'a decimal string', l[0]);
    if (typeof l[1] !== 'string' || !isDecimalString(l[1])) throw new ValidationError(`record.${f}.${k}.1`, 'a decimal string', l[1]);
    if (l.length === 3 && !Number.isSafeInteger(l[2])) throw new ValidationError(`record.${f}.${k}.2`, 'a safe integer', l[2]);
  }
}

export function checkRecord(rec: DataRecord): void {
  const r = rec as unknown as Loose;
  if (typeof r.s !== 'string' || !STREAMS.has(r.s)) throw new ValidationError('record.s', `one of ${RECORD_STREAMS.join(', ')}`, r.s);
  if (r.m !== 'spot' && r.m !== 'contract') throw new ValidationError('record.m', "'spot' or 'contract'", r.m);
  if (typeof r.i !== 'string' || r.i.length === 0) throw new ValidationError('record.i', 'an instrument symbol', r.i);
  int(r, 'et');
  int(r, 'lt');
  const known = FIELDS[r.s]!;
  for (const k in r)
    if (!known.has(k) && r[k] !== undefined)
      throw new ValidationError(`record.${k}`, `no such field on ${r.s} records (the store keeps ${[...known].join(', ')})`, r[k]);
  switch (rec.s) {
    case 'depth.snapshot':
      int(r, 'u');
      levels(r, 'b');
      levels(r, 'a');
      return;
    case 'depth.diff':
      int(r, 'U');
      int(r, 'u');
      int(r, 'pu', true);
      levels(r, 'b');
      levels(r, 'a');
      return;
    case 'trade':
      if (r.id !== undefined && typeof r.id !== 'string') throw new ValidationError('record.id', 'a string', r.id);
      dec(r, 'p');
      dec(r, 'q');
      if (r.ts !== 'buy' && r.ts !== 'sell') throw new ValidationError('record.ts', "'buy' or 'sell'", r.ts);
      return;
    case 'bookTicker':
      int(r, 'u', true);
      for (const f of ['bp', 'bq', 'ap', 'aq']) dec(r, f);
      return;
    case 'kline':
      if (typeof r.iv !== 'string' || !INTERVALS.has(r.iv))
        throw new ValidationError('record.iv', `one of ${KLINE_INTERVALS.join(', ')}`, r.iv);
      int(r, 'ot');
      for (const f of ['o', 'h', 'l', 'c', 'v']) dec(r, f);
      dec(r, 'qv', true);
      int(r, 'n', true);
      if (r.x !== undefined && typeof r.x !== 'boolean') throw new ValidationError('record.x', 'a boolean', r.x);
      return;
    case 'funding':
      dec(r, 'r');
      int(r, 'nt', true);
      dec(r, 'min', true);
      dec(r, 'max', true);
      if (r.cy !== undefined && (typeof r.cy !== 'number' || !Number.isFinite(r.cy)))
        throw new ValidationError('record.cy', 'a finite number', r.cy);
      return;
    case 'index':
    case 'fair':
      dec(r, 'p');
      return;
    case 'ticker':
      dec(r, 'last');
      for (const f of ['open', 'high', 'low', 'v', 'qv']) dec(r, f, true);
      int(r, 'n', true);
      return;
  }
}
