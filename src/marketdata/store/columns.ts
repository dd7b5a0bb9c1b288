/**
 * Column codecs shared by every stream of the chunk payload: integers (delta + signed varint),
 * optional values (a presence map written only when the column is mixed), trade ids (integers when
 * every id is a canonical number, else strings), tri-state booleans and plain numbers.
 */
import { ValidationError } from '../../core/errors.js';
import type { ByteReader, ByteWriter } from './byte-buffer.js';
import { readDecimalColumn, readDecimalNumbers, writeDecimalColumn } from './decimal-column.js';

const P_NONE = 0;
const P_ALL = 1;
const P_MIXED = 2;

export function checkInt(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ValidationError(field, 'a safe integer', v);
  return v;
}

/**
 * Delta-coded safe integers (the first delta is from 0). Two safe integers of opposite sign can
 * differ by 2^53 or more, which a double does not hold exactly: such a column is written raw.
 */
export function writeIntColumn(w: ByteWriter, values: ArrayLike<number>, field: string): void {
  let prev = 0;
  let deltaOk = true;
  for (let i = 0; i < values.length; i++) {
    const v = checkInt(values[i], field);
    if (!Number.isSafeInteger(v - prev)) deltaOk = false;
    prev = v;
  }
  w.u8(deltaOk ? 0 : 1);
  prev = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    w.sv(deltaOk ? v - prev : v);
    prev = v;
  }
}

export function readIntColumn(r: ByteReader, n: number): number[] {
  const raw = r.u8() === 1;
  const out = new Array<number>(n);
  let v = 0;
  for (let i = 0; i < n; i++) {
    v = raw ? r.sv() : v + r.sv();
    out[i] = v;
  }
  return out;
}

/** Unsigned varints, no delta (counts). */
export function writeCountColumn(w: ByteWriter, values: ArrayLike<number>): void {
  for (let i = 0; i < values.length; i++) w.uv(values[i]!);
}

export function readCountColumn(r: ByteReader, n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = r.uv();
  return out;
}

/** Writes the presence header of an optional column; returns the present values in order. */
function writePresence<T>(w: ByteWriter, values: readonly (T | undefined)[]): T[] {
  const present: T[] = [];
  for (const v of values) if (v !== undefined) present.push(v);
  if (present.length === 0) w.u8(P_NONE);
  else if (present.length === values.length) w.u8(P_ALL);
  else {
    w.u8(P_MIXED);
    w.bits(values.map((v) => v !== undefined));
  }
  return present;
}

/** null: every value absent; undefined: every value present; else the map. */
function readPresence(r: ByteReader, n: number): boolean[] | null | undefined {
  const mode = r.u8();
  if (mode === P_NONE) return null;
  if (mode === P_ALL) return undefined;
  if (mode !== P_MIXED) throw new RangeError(`bad presence mode ${mode}`);
  return r.bits(n);
}

function spread<T>(n: number, map: boolean[] | undefined, present: readonly T[]): (T | undefined)[] {
  if (map === undefined) return present as (T | undefined)[];
  const out = new Array<T | undefined>(n);
  let k = 0;
  for (let i = 0; i < n; i++) out[i] = map[i] ? present[k++] : undefined;
  return out;
}

export function writeOptIntColumn(w: ByteWriter, values: readonly (number | undefined)[], field: string): void {
  const present = writePresence(w, values);
  if (present.length) writeIntColumn(w, present, field);
}

export function readOptIntColumn(r: ByteReader, n: number): (number | undefined)[] | null {
  const map = readPresence(r, n);
  if (map === null) return null;
  const count = map === undefined ? n : map.reduce((a, b) => a + (b ? 1 : 0), 0);
  return spread(n, map, readIntColumn(r, count));
}

export function writeDecimals(w: ByteWriter, values: readonly string[], field: string): void {
  writeDecimalColumn(w, values, field);
}

export const readDecimals = readDecimalColumn;
export { readDecimalNumbers } from './decimal-column.js';

export function writeOptDecimalColumn(w: ByteWriter, values: readonly (string | undefined)[], field: string): void {
  const present = writePresence(w, values);
  if (present.length) writeDecimalColumn(w, present, field);
}

export function readOptDecimalColumn(r: ByteReader, n: number): (string | undefined)[] | null {
  const map = readPresence(r, n);
  if (map === null) return null;
  const count = map === undefined ? n : map.reduce((a, b) => a + (b ? 1 : 0), 0);
  return spread(n, map, readDecimalColumn(r, count));
}

/** Passes over an optional decimal column (a replay that does not use it makes no string of it). */
export function skipOptDecimalColumn(r: ByteReader, n: number): void {
  const map = readPresence(r, n);
  if (map === null) return;
  readDecimalNumbers(r, map === undefined ? n : map.reduce((a, b) => a + (b ? 1 : 0), 0));
}

const ID_INT = 1;
const ID_STR = 2;

/** Canonical non-negative integer text ("0", "123", never "0123"), safe as a double. */
function isCanonicalId(s: string): boolean {
  const len = s.length;
  if (len === 0 || len > 16) return false;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return (len === 1 || s.charCodeAt(0) !== 48) && Number(s) <= Number.MAX_SAFE_INTEGER;
}

/** Optional string ids: delta-coded integers when every id is numeric (Binance, MEXC), else text. */
export function writeIdColumn(w: ByteWriter, values: readonly (string | undefined)[], field: string): void {
  const present = writePresence(w, values);
  if (!present.length) return;
  for (const s of present) if (typeof s !== 'string') throw new ValidationError(field, 'a string id', s);
  if (present.every(isCanonicalId)) {
    w.u8(ID_INT);
    writeIntColumn(w, present.map(Number), field);
  } else {
    w.u8(ID_STR);
    for (const s of present) w.str(s);
  }
}

export function readIdColumn(r: ByteReader, n: number): (string | undefined)[] | null {
  const map = readPresence(r, n);
  if (map === null) return null;
  const count = map === undefined ? n : map.reduce((a, b) => a + (b ? 1 : 0), 0);
  const mode = r.u8();
  let present: string[];
  if (mode === ID_INT) present = readIntColumn(r, count).map(String);
  else if (mode === ID_STR) {
    present = new Array<string>(count);
    for (let i = 0; i < count; i++) present[i] = r.str();
  } else throw new RangeError(`bad id column mode ${mode}`);
  return spread(n, map, present);
}

/** Moves past an id column without making its strings (a reader that does not need the ids). */
export function skipIdColumn(r: ByteReader, n: number): void {
  const map = readPresence(r, n);
  if (map === null) return;
  const count = map === undefined ? n : map.reduce((a, b) => a + (b ? 1 : 0), 0);
  const mode = r.u8();
  if (mode === ID_INT) readIntColumn(r, count);
  else if (mode === ID_STR) for (let i = 0; i < count; i++) r.str();
  else throw new RangeError(`bad id column mode ${mode}`);
}

/** 0 absent, 1 false, 2 true: one byte each, which compresses to almost nothing when constant. */
export function writeOptBoolColumn(w: ByteWriter, values: readonly (boolean | undefined)[], field: string): void {
  for (const v of values) {
    if (v !== undefined && typeof v !== 'boolean') throw new ValidationError(field, 'a boolean', v);
    w.u8(v === undefined ? 0 : v ? 2 : 1);
  }
}

export function readOptBoolColumn(r: ByteReader, n: number): (boolean | undefined)[] {
  const out = new Array<boolean | undefined>(n);
  for (let i = 0; i < n; i++) {
    const b = r.u8();
    out[i] = b === 0 ? undefined : b === 2;
  }
  return out;
}

const NUM_INT = 1;
const NUM_F64 = 2;

/** Optional plain numbers (collect cycle hours): integers when they all are, else doubles. */
export function writeOptNumberColumn(w: ByteWriter, values: readonly (number | undefined)[], field: string): void {
  const present = writePresence(w, values);
  if (!present.length) return;
  for (const v of present) if (typeof v !== 'number' || !Number.isFinite(v)) throw new ValidationError(field, 'a finite number', v);
  if (present.every((v) => Number.isSafeInteger(v) && !Object.is(v, -0))) {
    w.u8(NUM_INT);
    writeIntColumn(w, present, field);
  } else {
    w.u8(NUM_F64);
    for (const v of present) w.f64(v);
  }
}

export function readOptNumberColumn(r: ByteReader, n: number): (number | undefined)[] | null {
  const map = readPresence(r, n);
  if (map === null) return null;
  const count = map === undefined ? n : map.reduce((a, b) => a + (b ? 1 : 0), 0);
  const mode = r.u8();
  let present: number[];
  if (mode === NUM_INT) present = readIntColumn(r, count);
  else if (mode === NUM_F64) {
    present = new Array<number>(count);
    for (let i = 0; i < count; i++) present[i] = r.f64();
  } else throw new RangeError(`bad number column mode ${mode}`);
  return spread(n, map, present);
}
