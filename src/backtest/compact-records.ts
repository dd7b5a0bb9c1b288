/**
 * Flat records held compactly (issue 13, flat memory): a record whose every value is a number,
 * boolean, string or Decimal is kept as a shape id and ONE string holding its values; reading it back
 * rebuilds an equal record with the same keys in the same order. As objects, a kline record (15
 * fields, five decimal strings) costs about 350 bytes and a fill (12 fields, three Decimals) about
 * 900; here both cost about 100. Anything else (a depth event with its level arrays, a value holding
 * the separator) is kept as the object it is.
 *
 * Low-variety strings (stream, market, instrument, interval, side, fee asset…: SHAPE_KEYS) belong to
 * the shape: they cost nothing per record and come back as the same string each time. Numbers come
 * back exactly (String() of a number is its shortest round-trip form; -0 as '-0'), Decimals through
 * their exact string (a negative zero as '-0').
 */
import { Decimal } from '../core/decimal.js';

/** Keys whose string value belongs to the shape (few distinct values in a run). */
const SHAPE_KEYS = new Set([
  's',
  'm',
  'i',
  'iv',
  'key',
  'ts',
  'takerSide',
  'symbol',
  'kind',
  'side',
  'feeAsset',
  'liquidity',
  'positionSide',
]);
const SEP = '\u0000';
/** The shape id of a record kept as its object. */
const OBJECT = 0xffff;

type Field =
  | { readonly key: string; readonly kind: 'const'; readonly value: string }
  | { readonly key: string; readonly kind: 'num' | 'bool' | 'str' | 'dec' };

const decimalText = (d: Decimal): string => (d.isZero() && d.isNegative() ? '-0' : d.toString());

/** The fields of a flat record, or undefined when it is not one. */
function fieldsOf(rec: Record<string, unknown>): { fields: Field[]; sig: string } | undefined {
  const fields: Field[] = [];
  let sig = '';
  for (const key in rec) {
    const v = rec[key];
    if (typeof v === 'string') {
      if (v.includes(SEP)) return undefined;
      if (SHAPE_KEYS.has(key)) {
        fields.push({ key, kind: 'const', value: v });
        sig += `${key}=${v}${SEP}`;
        continue;
      }
      fields.push({ key, kind: 'str' });
    } else if (typeof v === 'number') fields.push({ key, kind: 'num' });
    else if (typeof v === 'boolean') fields.push({ key, kind: 'bool' });
    else if (v instanceof Decimal) fields.push({ key, kind: 'dec' });
    else return undefined;
    sig += `${key}:${fields[fields.length - 1]!.kind}${SEP}`;
  }
  return { fields, sig };
}

export class CompactRecords<T extends object> implements Iterable<T> {
  private readonly shapes: (readonly Field[])[] = [];
  private readonly bySig = new Map<string, number>();
  private ids = new Uint16Array(1024);
  /** Per record: its values joined by SEP, or the record itself (shape OBJECT). */
  private readonly payloads: (string | T)[] = [];

  static of<T extends object>(records: Iterable<T>): CompactRecords<T> {
    const out = new CompactRecords<T>();
    for (const r of records) out.push(r);
    return out;
  }

  get length(): number {
    return this.payloads.length;
  }

  push(rec: T): void {
    const n = this.payloads.length;
    if (n === this.ids.length) {
      const grown = new Uint16Array(n * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    const found = fieldsOf(rec as Record<string, unknown>);
    let id = found === undefined ? OBJECT : this.bySig.get(found.sig);
    if (id === undefined) {
      id = this.shapes.length < OBJECT ? this.shapes.length : OBJECT;
      if (id !== OBJECT) {
        this.shapes.push(found!.fields);
        this.bySig.set(found!.sig, id);
      }
    }
    this.ids[n] = id;
    if (id === OBJECT) {
      this.payloads.push(rec);
      return;
    }
    const r = rec as Record<string, unknown>;
    const values: string[] = [];
    for (const f of this.shapes[id]!) {
      if (f.kind === 'const') continue;
      const v = r[f.key];
      values.push(f.kind === 'dec' ? decimalText(v as Decimal) : f.kind === 'bool' ? (v ? '1' : '0') : Object.is(v, -0) ? '-0' : String(v));
    }
    // join() makes one flat string (a chain of `+` would keep the pieces alive as a rope).
    this.payloads.push(values.join(SEP));
  }

  /** The record at `i` (0 ≤ i < length), rebuilt. `decimals` shares equal Decimals across calls. */
  at(i: number, decimals?: Map<string, Decimal>): T {
    const id = this.ids[i]!;
    const p = this.payloads[i]!;
    if (id === OBJECT) return p as T;
    const values = (p as string).split(SEP);
    const rec: Record<string, unknown> = {};
    let k = 0;
    for (const f of this.shapes[id]!) {
      if (f.kind === 'const') {
        rec[f.key] = f.value;
        continue;
      }
      const s = values[k++]!;
      if (f.kind === 'str') rec[f.key] = s;
      else if (f.kind === 'num') rec[f.key] = Number(s);
      else if (f.kind === 'bool') rec[f.key] = s === '1';
      else if (decimals) {
        let d = decimals.get(s);
        if (d === undefined) decimals.set(s, (d = new Decimal(s)));
        rec[f.key] = d;
      } else rec[f.key] = new Decimal(s);
    }
    return rec as T;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.payloads.length; i++) yield this.at(i);
  }

  /** Every record rebuilt, equal Decimals shared (Decimals are immutable). */
  toArray(): T[] {
    const decimals = new Map<string, Decimal>();
    const out = new Array<T>(this.payloads.length);
    for (let i = 0; i < out.length; i++) out[i] = this.at(i, decimals);
    return out;
  }
}
