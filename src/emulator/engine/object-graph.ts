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

/** A reference to node `n` of the table, a kept value, or a Decimal (immutable: written inline). */
type Ref = { r: number } | { k: 1 } | { d: string };
type Value = Ref | number | string | boolean | null | undefined | bigint | ArrayBufferView;

type Node =
  | { t: 'o'; c: string | null; k: string[]; v: Value[] }
  | { t: 'a'; v: Value[] }
  | { t: 'm'; k: Value[]; v: Value[] }
  | { t: 's'; v: Value[] }
  /** Kept from the fresh graph; `fns`: the functions a kept container held (listeners), checked on restore. */
  | { t: 'keep'; fns?: number };

interface Table {
  readonly version: 2;
  readonly nodes: Node[];
  readonly root: Value;
}

const KEEP: Ref = { k: 1 };

function isRef(v: Value): v is Ref {
  return v !== null && typeof v === 'object' && !ArrayBuffer.isView(v);
}
const isKept = (v: Value): boolean => isRef(v) && 'k' in v;

/** Encodes the graph under `root`; `keep` are external objects (the clock, the journal). */
export function encodeGraph(root: object, codec: GraphCodec, keep: ReadonlySet<object>): Buffer {
  const nodes: Node[] = [];
  const ids = new Map<object, number>();
  const pending: object[] = [];
  // Where each node was reached from (parent node, key): the path of an error, built only then.
  const from: [number, string][] = [];
  // Per prototype: the class name (null: plain), 'keep', or an error message.
  const protos = new Map<object | null, string | null | { keep: true } | { error: string }>();
  const pathOf = (id: number): string => {
    const [up, k] = from[id]!;
    return up < 0 ? '$' : `${pathOf(up)}.${k}`;
  };

  const kindOf = (proto: object | null): string | null | { keep: true } | { error: string } => {
    let k = protos.get(proto);
    if (k !== undefined) return k;
    if (proto === null || proto === Object.prototype) k = null;
    else {
      const ctor = (proto as { constructor?: Ctor }).constructor;
      if (codec.keepClasses.some((c) => proto === c.prototype || Object.prototype.isPrototypeOf.call(c.prototype, proto)))
        k = { keep: true };
      else if (ctor && codec.classes.get(ctor.name) === ctor) k = ctor.name;
      else
        k = { error: `is a ${ctor?.name ?? 'class-less object'}, which the snapshot registry does not know (engine/snapshot-classes.ts)` };
    }
    protos.set(proto, k);
    return k;
  };

  let parent = -1;
  let key = '';
  const ref = (v: unknown): Value => {
    if (v === null || v === undefined || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint')
      return v;
    if (typeof v === 'function' || typeof v === 'symbol') return KEEP;
    const o = v as object;
    if (ArrayBuffer.isView(o)) return o;
    if (o instanceof Decimal) return { d: o.toString() };
    if (keep.has(o) || types.isProxy(o) || o instanceof WeakMap || o instanceof WeakSet) return KEEP;
    const seen = ids.get(o);
    if (seen !== undefined) return { r: seen };
    const id = nodes.length;
    ids.set(o, id);
    nodes.push({ t: 'keep' });
    from.push([parent, key]);
    pending.push(o);
    return { r: id };
  };

  const rootRef = ref(root);
  for (let id = 0; id < pending.length; id++) {
    const o = pending[id]!;
    parent = id;
    let kept = false;
    const val = (x: unknown, k: string): Value => {
      key = k;
      const r = ref(x);
      if (r === KEEP) kept = true;
      return r;
    };
    if (Array.isArray(o)) {
      const v = o.map((x, i) => val(x, String(i)));
      nodes[id] = kept ? { t: 'keep', fns: functionsIn(o) } : { t: 'a', v };
    } else if (o instanceof Map) {
      const k: Value[] = [];
      const v: Value[] = [];
      for (const [mk, mv] of o) {
        k.push(val(mk, 'key'));
        v.push(val(mv, `get(${String(mk)})`));
      }
      nodes[id] = kept ? { t: 'keep', fns: functionsIn(o.values()) } : { t: 'm', k, v };
    } else if (o instanceof Set) {
      const v: Value[] = [];
      for (const x of o) v.push(val(x, 'item'));
      nodes[id] = kept ? { t: 'keep', fns: functionsIn(o) } : { t: 's', v };
    } else {
      const kind = kindOf(Object.getPrototypeOf(o) as object | null);
      if (kind !== null && typeof kind === 'object') {
        if ('error' in kind) throw new Error(`snapshot: ${pathOf(id)} ${kind.error}`);
        nodes[id] = { t: 'keep' };
        continue;
      }
      const k = Object.keys(o);
      const v = k.map((x) => val((o as Record<string, unknown>)[x], x));
      nodes[id] = { t: 'o', c: kind, k, v };
    }
  }
  const table: Table = { version: 2, nodes, root: rootRef };
  return serialize(table);
}

function functionsIn(items: Iterable<unknown>): number {
  let n = 0;
  for (const x of items) if (typeof x === 'function') n++;
  return n;
}

/**
 * A class whose instances install wiring lazily (a listener added on first use, remembered by a flag in
 * its data) implements this: after a restore its data says the wiring exists, the fresh graph's does
 * not, and this re-installs it. Restore checks afterwards that every listener list holds as many
 * functions as it did when the snapshot was taken, so wiring left out fails loudly instead of silently.
 */
export const REVIVE = 'reviveAfterSnapshot';

/** A decoded snapshot, checked before anything of the running graph is touched. */
export interface DecodedGraph {
  readonly table: Table;
}

/** Decodes and checks a snapshot (format, classes known to the codec); throws on a damaged one. */
export function decodeGraph(data: Buffer, codec: GraphCodec): DecodedGraph {
  const table = deserialize(data) as Table;
  if (!table || table.version !== 2 || !Array.isArray(table.nodes) || !isRef(table.root) || !('r' in table.root))
    throw new Error('snapshot: unknown format');
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

  // 1. Pair snapshot nodes with the fresh objects at the same places, depth first in field order: the
  //    first path wins, and an object's owning container (a venue's `markets`) is declared before the
  //    caches that point into it (`lastMarket`), whose fresh value may be another object. A work list,
  //    not recursion: linked lists (open orders, book levels) are thousands of links deep.
  const work: [number, unknown][] = [[root.r, fresh]];
  while (work.length > 0) {
    const [id, f] = work.pop()!;
    if (target[id] !== undefined || f === null || typeof f !== 'object' || taken.has(f)) continue;
    const n = nodes[id]!;
    if (n.t !== 'keep' && !sameKind(n, f, codec)) continue;
    target[id] = f;
    taken.add(f);
    const children: [number, unknown][] = [];
    const walk = (v: Value, x: unknown) => {
      if (isRef(v) && 'r' in v) children.push([v.r, x]);
    };
    if (n.t === 'o') n.k.forEach((k, i) => walk(n.v[i]!, (f as Record<string, unknown>)[k]));
    else if (n.t === 'a') n.v.forEach((v, i) => walk(v, (f as unknown[])[i]));
    else if (n.t === 'm') n.k.forEach((k, i) => isRef(k) || walk(n.v[i]!, (f as Map<unknown, unknown>).get(k)));
    for (let i = children.length - 1; i >= 0; i--) work.push(children[i]!);
  }
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
      case 'keep':
        throw new Error(`snapshot: node ${id} was kept from the running graph, but the fresh graph has nothing at its place`);
    }
  });

  // 3. Check before writing anything: a created object cannot take a kept value (it has no fresh one).
  nodes.forEach((n, id) => {
    if (n.t !== 'o' || paired.has(id)) return;
    const kept = n.v.findIndex(isKept);
    if (kept >= 0) {
      throw new Error(
        `snapshot: ${n.c ?? 'object'}.${n.k[kept]!} holds a function or an external object, and the freshly built graph has no ${n.c ?? 'object'} at its place to take it from`,
      );
    }
  });

  // 4. Fill them in.
  const value = (v: Value, current: unknown): unknown => {
    if (!isRef(v)) return v;
    if ('k' in v) return current;
    if ('d' in v) return new Decimal(v.d);
    return target[v.r];
  };
  nodes.forEach((n, id) => {
    const o = target[id]!;
    switch (n.t) {
      case 'o': {
        if (Object.isFrozen(o)) return; // built from the config, as in the snapshot
        const rec = o as Record<string, unknown>;
        const keys = new Set<string>(n.k);
        n.k.forEach((k, i) => {
          const next = value(n.v[i]!, rec[k]);
          if (rec[k] !== next) rec[k] = next;
        });
        for (const k of Object.keys(o)) if (!keys.has(k)) delete rec[k];
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
        n.k.forEach((k, i) => m.set(value(k, undefined), value(n.v[i]!, undefined)));
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

  // 5. Re-install lazily made wiring, then check every listener list against the snapshot's.
  for (const o of target) {
    const revive = (o as Record<string, unknown>)[REVIVE];
    if (typeof revive === 'function') (revive as () => void).call(o);
  }
  nodes.forEach((n, id) => {
    if (n.t !== 'keep' || n.fns === undefined) return;
    const o = target[id]!;
    const have = functionsIn(o instanceof Map ? o.values() : (o as Iterable<unknown>));
    if (have !== n.fns)
      throw new Error(
        `snapshot: a listener list held ${n.fns} function(s) when written and holds ${have} after the restore (wiring made lazily, without ${REVIVE})`,
      );
  });
}

function sameKind(n: Node, f: object, codec: GraphCodec): boolean {
  switch (n.t) {
    case 'o': {
      if (Array.isArray(f) || f instanceof Map || f instanceof Set || f instanceof Decimal) return false;
      const proto = Object.getPrototypeOf(f) as object | null;
      return n.c === null
        ? proto === Object.prototype || proto === null
        : proto === (codec.classes.get(n.c)?.prototype as object | undefined);
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
