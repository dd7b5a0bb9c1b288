/**
 * Reads a zod 4 schema as data: what a value at a path must look like, in words a user understands
 * ("an integer 1..60000", "one of live, paper, backtest"), which keys an object accepts, its default
 * and its description. One walker serves both the config error messages and the generated config
 * reference, so the two can never disagree.
 *
 * zod keeps its definition under `_zod.def`; that shape is the documented introspection surface of
 * zod 4 (the JSON-schema generator reads the same fields), typed loosely here on purpose.
 */
import type { z } from 'zod';

/** The loose view of a zod definition this module reads. */
interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly entries?: Record<string, string | number>;
  readonly values?: readonly unknown[];
  readonly innerType?: z.ZodType;
  readonly defaultValue?: unknown;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly keyType?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDef } }[];
  readonly format?: string;
  readonly catchall?: z.ZodType;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
}

interface CheckDef {
  readonly check: string;
  readonly value?: unknown;
  readonly inclusive?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: string;
  readonly pattern?: RegExp;
}

/** Metadata a schema may carry (`.meta({ expected })`) to word its own expectation. */
export interface FieldMeta {
  /** Replaces the generated "expected …" wording. */
  readonly expected?: string;
  /** Replaces the generated type column of the reference. */
  readonly typeName?: string;
}

export const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

function metaOf(s: z.ZodType): FieldMeta & { description?: string } {
  const m = (s as unknown as { meta?: () => unknown }).meta?.();
  return (m && typeof m === 'object' ? m : {}) as FieldMeta & { description?: string };
}

export function descriptionOf(s: z.ZodType): string | undefined {
  const d = (s as unknown as { description?: string }).description;
  return d ?? metaOf(s).description;
}

export interface Unwrapped {
  /** The schema with optional / default / pipe layers peeled off. */
  readonly inner: z.ZodType;
  readonly optional: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue?: unknown;
  /** The first description met on the way in. */
  readonly description?: string;
  /** The first `expected` / `typeName` met on the way in. */
  readonly meta: FieldMeta;
}

/** Peels optional, nullable, default, prefault, readonly and pipe (its input side) layers. */
export function unwrap(schema: z.ZodType): Unwrapped {
  let s = schema;
  let optional = false;
  let hasDefault = false;
  let defaultValue: unknown;
  let description: string | undefined;
  let meta: FieldMeta = {};
  for (let i = 0; i < 20; i++) {
    description ??= descriptionOf(s);
    const m = metaOf(s);
    if (meta.expected === undefined && m.expected !== undefined) meta = { ...meta, expected: m.expected };
    if (meta.typeName === undefined && m.typeName !== undefined) meta = { ...meta, typeName: m.typeName };
    const d = defOf(s);
    if (d.type === 'optional' || d.type === 'nullable' || d.type === 'readonly' || d.type === 'nonoptional') {
      if (d.type === 'optional') optional = true;
      s = d.innerType!;
    } else if (d.type === 'default' || d.type === 'prefault') {
      if (!hasDefault) {
        hasDefault = true;
        defaultValue = d.defaultValue;
      }
      s = d.innerType!;
    } else if (d.type === 'pipe') {
      // A transform is a pipe whose input side is what the user writes.
      const input = d.in!;
      s = defOf(input).type === 'transform' ? d.out! : input;
    } else break;
  }
  return {
    inner: s,
    optional,
    hasDefault,
    ...(hasDefault ? { defaultValue } : {}),
    ...(description !== undefined ? { description } : {}),
    meta,
  };
}

/** Fields of an object schema (after unwrapping), or undefined when it is not an object. */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const d = defOf(unwrap(schema).inner);
  if (d.type === 'object') return d.shape;
  if (d.type === 'intersection') {
    const l = d.left ? objectShape(d.left) : undefined;
    const r = d.right ? objectShape(d.right) : undefined;
    return l || r ? { ...(l ?? {}), ...(r ?? {}) } : undefined;
  }
  return undefined;
}

/** The schema of the value at `path` below `schema`, when it can be found. */
export function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (const key of path) {
    if (!s) return undefined;
    s = childOf(s, key);
  }
  return s;
}

function childOf(schema: z.ZodType, key: PropertyKey): z.ZodType | undefined {
  const inner = unwrap(schema).inner;
  const d = defOf(inner);
  switch (d.type) {
    case 'object':
      return typeof key === 'string' ? (d.shape?.[key] ?? d.catchall) : undefined;
    case 'array':
      return typeof key === 'number' ? d.element : undefined;
    case 'record':
      return d.valueType;
    case 'union': {
      for (const o of d.options ?? []) {
        const c = childOf(o, key);
        if (c) return c;
      }
      return undefined;
    }
    case 'intersection':
      return (d.left && childOf(d.left, key)) ?? (d.right && childOf(d.right, key));
    default:
      return undefined;
  }
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

function numberBounds(checks: Def['checks']): { lo?: string; hi?: string; int: boolean } {
  let lo: string | undefined;
  let hi: string | undefined;
  let int = false;
  for (const c of checks ?? []) {
    const cd = c._zod.def;
    if (cd.check === 'greater_than') lo = `${cd.inclusive ? '>=' : '>'} ${String(cd.value)}`;
    else if (cd.check === 'less_than') hi = `${cd.inclusive ? '<=' : '<'} ${String(cd.value)}`;
    else if (cd.check === 'number_format' && (cd.format === 'safeint' || cd.format === 'int32' || cd.format === 'uint32')) int = true;
  }
  return { ...(lo !== undefined ? { lo } : {}), ...(hi !== undefined ? { hi } : {}), int };
}

function lengthBounds(checks: Def['checks']): string {
  let min: number | undefined;
  let max: number | undefined;
  for (const c of checks ?? []) {
    const cd = c._zod.def;
    if (cd.check === 'min_length') min = cd.minimum;
    else if (cd.check === 'max_length') max = cd.maximum;
  }
  if (min !== undefined && max !== undefined) return ` of ${min}..${max}`;
  if (min !== undefined) return min === 1 ? ' (not empty)' : ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

/** Short type name for the reference table (`integer`, `string`, `list of string`, `live | paper`). */
export function typeNameOf(schema: z.ZodType): string {
  const u = unwrap(schema);
  if (u.meta.typeName) return u.meta.typeName;
  const d = defOf(u.inner);
  switch (d.type) {
    case 'number':
      return numberBounds(d.checks).int || d.format === 'safeint' ? 'integer' : 'number';
    case 'int':
      return 'integer';
    case 'string':
      return d.format === 'url' ? 'URL' : 'string';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return Object.values(d.entries ?? {})
        .map(String)
        .join(' | ');
    case 'literal':
      return (d.values ?? []).map((v) => JSON.stringify(v)).join(' | ');
    case 'array':
      return `list of ${d.element ? typeNameOf(d.element) : 'any'}`;
    case 'record':
      return `map of ${d.valueType ? typeNameOf(d.valueType) : 'any'}`;
    case 'object':
      return 'object';
    case 'union':
      return (d.options ?? []).map(typeNameOf).join(' or ');
    default:
      return d.type;
  }
}

/** "an integer 1..60000", "one of live, paper, backtest", "true or false" … */
export function describeExpected(schema: z.ZodType): string {
  const u = unwrap(schema);
  if (u.meta.expected) return u.meta.expected;
  const d = defOf(u.inner);
  switch (d.type) {
    case 'number':
    case 'int': {
      const b = numberBounds(d.checks);
      const word = b.int || d.format === 'safeint' || d.type === 'int' ? 'integer' : 'number';
      const parts = [b.lo, b.hi].filter((x): x is string => x !== undefined);
      return `${article(word)}${parts.length ? ` ${parts.join(' and ')}` : ''}`;
    }
    case 'string': {
      if (d.format === 'url') return 'a URL (http:// or https://)';
      const pattern = (d.checks ?? []).map((c) => c._zod.def).find((c) => c.check === 'string_format' && c.format === 'regex');
      return `a string${lengthBounds(d.checks)}${pattern?.pattern ? ` matching ${String(pattern.pattern)}` : ''}`;
    }
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of ${Object.values(d.entries ?? {})
        .map(String)
        .join(', ')}`;
    case 'literal':
      return (d.values ?? []).length === 1
        ? JSON.stringify(d.values![0])
        : `one of ${(d.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'array':
      return `a list${lengthBounds(d.checks)}${d.element ? ` of ${stripArticle(describeExpected(d.element))}` : ''}`;
    case 'record':
      return 'a map (key: value)';
    case 'object': {
      const keys = Object.keys(d.shape ?? {});
      return keys.length ? `an object with keys ${keys.join(', ')}` : 'an empty object';
    }
    case 'union':
      return (d.options ?? []).map(describeExpected).join(' or ');
    default:
      return `a ${d.type}`;
  }
}

/** "a number > 0" → "numbers > 0" would need grammar; "list of a number" reads fine as "list of number > 0". */
function stripArticle(s: string): string {
  return s.replace(/^(a|an) /, '');
}

/** Keys an object schema at `path` accepts (for "unknown key" messages). */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  const s = schemaAt(schema, path);
  if (!s) return undefined;
  const inner = unwrap(s).inner;
  const d = defOf(inner);
  if (d.type === 'union') {
    const keys = new Set<string>();
    for (const o of d.options ?? []) for (const k of Object.keys(objectShape(o) ?? {})) keys.add(k);
    return keys.size ? [...keys] : undefined;
  }
  const shape = objectShape(inner);
  return shape ? Object.keys(shape) : undefined;
}
