/**
 * A generic snapshot of an object graph (the emulator's engines), restored INTO a freshly built graph.
 *
 * Why generic: the engines keep their state private in class instances and change often; a walk of the
 * graph stays in sync with them by itself, where per-class serialisers would have to be kept in step
 * with every field. Why into a fresh graph: the engines are wired by their constructors — listener
 * closures, journaled proxies, the clock — and none of that can be written down. So restoring builds the
 * emulator as a start-up does, pairs the snapshot's objects with the fresh objects at the same places,
 * and overwrites their data in place; the wiring stays the fresh graph's, and points at the same objects.
 *
 * What is written for each value:
 *   primitives, bigint, typed arrays     as they are (v8 serialisation carries them)
 *   Decimal                              its exact string
 *   Map / Set / Array / plain object     their entries, by reference (cycles and sharing survive)
 *   instance of a registered class       the class name and its own data properties
 *   function, Proxy, WeakMap / WeakSet,  KEEP: the fresh graph's value at the same place is kept. A
 *   a `keep` object (clock, journal),    container holding one is kept whole (a listener list).
 *   an instance of a `keepClasses` class
 * An instance of a class the registry does not know fails the snapshot with its path, so a new engine
 * class is registered (snapshot-classes.ts) rather than silently lost.
 */
import { deserialize, serialize } from 'node:v8';
import { types } from 'node:util';
import { Decimal } from '../../core/decimal.js';

type Ctor = abstract new (...args: never[]) => object;

export interface GraphCodec {
  /** Every class whose instances may be in the graph, by its (unique) name. */
  readonly classes: ReadonlyMap<string, Ctor>;
  /** Instances kept from the fresh graph (secrets, native handles). */
  readonly keepClasses: readonly Ctor[];
}

/** Builds a codec; two registered classes of one name are refused (their snapshots would mix). */
export function graphCodec(classes: readonly Ctor[], keepClasses: readonly Ctor[] = []): GraphCodec {
  const byName = new Map<string, Ctor>();
  for (const c of classes) {
    const prev = byName.get(c.name);
    if (prev && prev !== c) throw new Error(`snapshot registry: two classes named ${c.name}`);
    byName.set(c.name, c);
  }
  return { classes: byName, keepClasses };
}

/** A reference to node `n` of the table, or a kept value. */
type Ref = { r: number } | { k: 1 };
type Value = Ref | number | string | boolean | null | undefined | bigint | ArrayBufferView;

type Node =
  | { t: 'o'; c: string | null; p: [string, Value][] }
  | { t: 'a'; v: Value[] }
  | { t: 'm'; e: [Value, Value][] }
  | { t: 's'; v: Value[] }
  | { t: 'd'; v: string }
  | { t: 'keep' };

interface Table {
  readonly version: 1;
  readonly nodes: Node[];
  readonly root: Value;
}

const KEEP: Ref = { k: 1 };

function isRef(v: Value): v is Ref {
  return v !== null && typeof v === 'object' && !ArrayBuffer.isView(v);
}

/** Encodes the graph under `root`; `keep` are external objects (the clock, the journal). */
export function encodeGraph(root: object, codec: GraphCodec, keep: ReadonlySet<object>): Buffer {
  const nodes: Node[] = [];
  const ids = new Map<object, number>();
  const pending: [object, number, string][] = [];

  const ref = (v: unknown, path: string): Value => {
    if (v === null || v === undefined || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint') return v;
    if (typeof v === 'function' || typeof v === 'symbol') return KEEP;
    const o = v as object;
    if (ArrayBuffer.isView(o)) return o;
    if (keep.has(o) || types.isProxy(o) || o instanceof WeakMap || o instanceof WeakSet || codec.keepClasses.some((c) => o instanceof c)) return KEEP;
    const seen = ids.get(o);
    if (seen !== undefined) return { r: seen };
    const id = nodes.length;
    ids.set(o, id);
    nodes.push({ t: 'keep' });
    pending.push([o, id, path]);
    return { r: id };
  };

  const rootRef = ref(root, '$');
  while (pending.length > 0) {
    const [o, id, path] = pending.pop()!;
    nodes[id] = encodeNode(o, path, codec, ref);
  }
  const table: Table = { version: 1, nodes, root: rootRef };
  return serialize(table);
}

function encodeNode(o: object, path: string, codec: GraphCodec, ref: (v: unknown, path: string) => Value): Node {
  if (o instanceof Decimal) return { t: 'd', v: o.toString() };
  if (Array.isArray(o)) {
    const v = o.map((x, i) => ref(x, `${path}[${i}]`));
    return v.some((x) => x === KEEP) ? { t: 'keep' } : { t: 'a', v };
  }
  if (o instanceof Map) {
    const e: [Value, Value][] = [];
    for (const [k, x] of o) e.push([ref(k, `${path}.key`), ref(x, `${path}.get(${String(k)})`)]);
    return e.some(([k, x]) => k === KEEP || x === KEEP) ? { t: 'keep' } : { t: 'm', e };
  }
  if (o instanceof Set) {
    const v = [...o].map((x) => ref(x, `${path}.item`));
    return v.some((x) => x === KEEP) ? { t: 'keep' } : { t: 's', v };
  }
  const proto = Object.getPrototypeOf(o) as object | null;
  let c: string | null = null;
  if (proto !== null && proto !== Object.prototype) {
    const ctor = (proto as { constructor?: Ctor }).constructor;
    if (!ctor || codec.classes.get(ctor.name) !== ctor) {
      throw new Error(`snapshot: ${path} is a ${ctor?.name ?? 'class-less object'}, which the snapshot registry does not know (engine/snapshot-classes.ts)`);
    }
    c = ctor.name;
  }
  const p: [string, Value][] = [];
  for (const key of Object.getOwnPropertyNames(o)) {
    const d = Object.getOwnPropertyDescriptor(o, key)!;
    if (!('value' in d)) continue;
    p.push([key, ref(d.value, `${path}.${key}`)]);
  }
  return { t: 'o', c, p };
}

/** A decoded snapshot, checked before anything of the running graph is touched. */
export interface DecodedGraph {
  readonly table: Table;
}

/** Decodes and checks a snapshot (format, classes known to the codec); throws on a damaged one. */
export function decodeGraph(data: Buffer, codec: GraphCodec): DecodedGraph {
  const table = deserialize(data) as Table;
  if (!table || table.version !== 1 || !Array.isArray(table.nodes) || !isRef(table.root) || !('r' in table.root)) throw new Error('snapshot: unknown format');
  for (const n of table.nodes) {
    if (n.t === 'o' && n.c !== null && !codec.classes.has(n.c)) throw new Error(`snapshot: class ${n.c} is not known to this build`);
  }
  return { table };
}

/**
 * Restores the snapshot INTO `fresh` (the root of a graph built the way the snapshot's was): objects at
 * the same places are overwritten in place, the others are created from their class's prototype.
 */
export function restoreGraph(fresh: object, decoded: DecodedGraph, codec: GraphCodec): void {
  const table = decoded.table;
  const root = table.root as { r: number };
  const nodes = table.nodes;
  const target: (object | undefined)[] = new Array<object | undefined>(nodes.length);
  const taken = new Set<object>();

  // 1. Pair snapshot nodes with the fresh objects at the same places (first path wins).
  const pair = (id: number, f: unknown): void => {
    if (target[id] !== undefined || f === null || typeof f !== 'object' || taken.has(f)) return;
    const n = nodes[id]!;
    if (n.t === 'keep') {
      target[id] = f;
      taken.add(f);
      return;
    }
    if (!sameKind(n, f, codec)) return;
    target[id] = f;
    taken.add(f);
    const walk = (v: Value, x: unknown) => {
      if (isRef(v) && 'r' in v) pair(v.r, x);
    };
    if (n.t === 'o') for (const [k, v] of n.p) walk(v, (f as Record<string, unknown>)[k]);
    else if (n.t === 'a') n.v.forEach((v, i) => walk(v, (f as unknown[])[i]));
    else if (n.t === 'm') for (const [k, v] of n.e) if (!isRef(k)) walk(v, (f as Map<unknown, unknown>).get(k));
  };
  pair(root.r, fresh);
  const paired = new Set<number>(target.flatMap((o, id) => (o === undefined ? [] : [id])));

  // 2. Create what had no fresh counterpart.
  nodes.forEach((n, id) => {
    if (target[id] !== undefined) return;
    switch (n.t) {
      case 'o':
        target[id] = n.c === null ? {} : (Object.create(codec.classes.get(n.c)!.prototype as object) as object);
        break;
      case 'a':
        target[id] = [];
        break;
      case 'm':
        target[id] = new Map();
        break;
      case 's':
        target[id] = new Set();
        break;
      case 'd':
        target[id] = new Decimal(n.v);
        break;
      case 'keep':
        throw new Error(`snapshot: node ${id} was kept from the running graph, but the fresh graph has nothing at its place`);
    }
  });

  // 3. Check before writing anything: a created object cannot take a kept value (it has no fresh one).
  nodes.forEach((n, id) => {
    if (n.t !== 'o' || paired.has(id)) return;
    const kept = n.p.find(([, v]) => isRef(v) && 'k' in v);
    if (kept) {
      throw new Error(`snapshot: ${n.c ?? 'object'}.${kept[0]} holds a function or an external object, and the freshly built graph has no ${n.c ?? 'object'} at its place to take it from`);
    }
  });

  // 4. Fill them in.
  const value = (v: Value, current: unknown): unknown => {
    if (!isRef(v)) return v;
    if ('k' in v) return current;
    return target[v.r];
  };
  nodes.forEach((n, id) => {
    const o = target[id]!;
    switch (n.t) {
      case 'o': {
        if (Object.isFrozen(o)) return; // built from the config, as in the snapshot
        const rec = o as Record<string, unknown>;
        const keys = new Set<string>();
        for (const [k, v] of n.p) {
          keys.add(k);
          const next = value(v, rec[k]);
          if (rec[k] !== next) rec[k] = next;
        }
        for (const k of Object.getOwnPropertyNames(o)) if (!keys.has(k) && 'value' in Object.getOwnPropertyDescriptor(o, k)!) delete rec[k];
        return;
      }
      case 'a': {
        const a = o as unknown[];
        a.length = n.v.length;
        n.v.forEach((v, i) => (a[i] = value(v, undefined)));
        return;
      }
      case 'm': {
        const m = o as Map<unknown, unknown>;
        m.clear();
        for (const [k, v] of n.e) m.set(value(k, undefined), value(v, undefined));
        return;
      }
      case 's': {
        const s = o as Set<unknown>;
        s.clear();
        for (const v of n.v) s.add(value(v, undefined));
        return;
      }
      default:
        return;
    }
  });
}

function sameKind(n: Node, f: object, codec: GraphCodec): boolean {
  switch (n.t) {
    case 'o': {
      if (Array.isArray(f) || f instanceof Map || f instanceof Set || f instanceof Decimal) return false;
      const proto = Object.getPrototypeOf(f) as object | null;
      return n.c === null ? proto === Object.prototype || proto === null : proto === (codec.classes.get(n.c)?.prototype as object | undefined);
    }
    case 'a':
      return Array.isArray(f);
    case 'm':
      return f instanceof Map;
    case 's':
      return f instanceof Set;
    default:
      return false;
  }
}
