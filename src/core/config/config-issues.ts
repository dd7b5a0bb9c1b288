/**
 * Config errors as a user reads them: the YAML path, what was expected and what was found, one line
 * per problem, every problem at once (`strategies[0].params.spreadBps: expected a number > 0,
 * received "x"`). The expectation is worded from the schema at that path (schema-introspect.ts), so
 * it names the bound that failed rather than zod's generic "expected number".
 */
import type { z } from 'zod';
import { type ConfigKind, withoutKind } from '../config-kind.js';
import { ConfigError } from '../errors.js';
import { mask, SENSITIVE_NAMES } from '../redact.js';
import { describeExpected, knownKeysAt, schemaAt } from './schema-introspect.js';

export interface ConfigIssue {
  /** `strategies[0].params.spreadBps` (empty for the document itself). */
  readonly path: string;
  /** `expected a number > 0, received "x"`. */
  readonly message: string;
}

/** A config with one or more problems; `issues` lists them all, the message holds the first. */
export class ConfigInvalid extends ConfigError {
  constructor(
    readonly source: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    const first = issues[0];
    super(
      first?.path ?? '',
      `${first?.message ?? 'invalid'}${issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : ''} in ${source}`,
    );
  }

  /** Every issue, one per line. */
  lines(): string[] {
    return this.issues.map(formatIssue);
  }
}

export const formatIssue = (i: ConfigIssue): string => (i.path ? `${i.path}: ${i.message}` : i.message);

/** A ConfigError (path + message) as an issue, without the path repeated in the message. */
export const issueOf = (e: ConfigError): ConfigIssue => ({
  path: e.path,
  message: e.path && e.message.startsWith(`${e.path}: `) ? e.message.slice(e.path.length + 2) : e.message,
});

/** The document without a `kind:` of one of `accepted` kinds; another kind is a ConfigInvalid at `kind`. */
export function stripKind(doc: unknown, accepted: readonly ConfigKind[], source: string): unknown {
  try {
    return withoutKind(doc, accepted);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigInvalid(source, [issueOf(e)]);
    throw e;
  }
}

/** `a.b[0].c` from a path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** How a found value is shown: strings quoted, containers by kind, secrets masked. */
export function describeReceived(value: unknown, path: readonly PropertyKey[] = []): string {
  const last = path[path.length - 1];
  const sensitive = typeof last === 'string' && (SENSITIVE_NAMES.has(last.toLowerCase()) || /secret/i.test(last));
  if (typeof value === 'string') {
    if (sensitive) return JSON.stringify(mask(value));
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  }
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return sensitive ? '***' : String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

type Issue = z.core.$ZodIssue;

/** How zod's built-in messages begin ("Invalid input: expected number", "Too small: …"). */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Unrecognized)\b/;

/**
 * Issues of a failed parse, worded against `schema`. `prefix` is prepended to every path (strategy
 * params are parsed on their own and reported under `strategies[i].params`); `root` is the value that
 * was parsed, used to show what was found when zod did not keep the input.
 */
export function issuesFromZod(
  issues: readonly Issue[],
  schema: z.ZodType,
  root: unknown,
  prefix: readonly PropertyKey[] = [],
): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  const seen = new Set<string>();
  for (const one of zodIssueMessages(issues, schema, root)) {
    const p = formatPath([...prefix, ...one.path]);
    const key = `${p}\u0000${one.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: p, message: one.message });
  }
  return out;
}

/**
 * The one wording of zod issues (an issue may become several: one per unknown key), paths kept as
 * arrays so a schema refining a nested value with a second schema can re-raise them under its own path.
 */
export function zodIssueMessages(issues: readonly Issue[], schema: z.ZodType, root: unknown): { path: PropertyKey[]; message: string }[] {
  const out: { path: PropertyKey[]; message: string }[] = [];
  const push = (path: readonly PropertyKey[], message: string): void => {
    out.push({ path: [...path], message });
  };
  for (const iss of issues) {
    const path = iss.path as readonly PropertyKey[];
    if (iss.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, path);
      for (const k of iss.keys) push([...path, k], `unknown key${known?.length ? ` (expected one of: ${known.join(', ')})` : ''}`);
      continue;
    }
    if (iss.code === 'custom') {
      // Schemas below the app word some custom checks as the expectation alone ("a decimal number >= 0"):
      // those read "expected …, received …" like the rest; sentences of their own stay as written.
      if (!/^(a|an|one of) /.test(iss.message)) push(path, iss.message);
      else {
        const found = valueAt(root, path);
        push(path, `expected ${iss.message}${found === undefined ? '' : `, received ${describeReceived(found, path)}`}`);
      }
      continue;
    }
    const choices = (iss as { options?: unknown }).options;
    if (iss.code === 'invalid_union' && 'discriminator' in iss && Array.isArray(choices)) {
      // The discriminator's value matched no option: name them, and show the value, not the object.
      const found = valueAt(root, path);
      push(
        path,
        `expected one of ${choices.map(String).join(', ')}${found === undefined ? ' (missing)' : `, received ${describeReceived(found, path)}`}`,
      );
      continue;
    }
    // A message the schema's author wrote (`z.string().regex(re, 'an asset name like USDT')`) is the
    // expectation in the author's words; zod's own wording is replaced by one read from the schema.
    const authored = !ZOD_WORDING.test(iss.message);
    const at = authored ? undefined : schemaAt(schema, path);
    const expected = authored
      ? iss.message.replace(/^expected /, '')
      : at
        ? describeExpected(at)
        : iss.message.replace(/^Invalid (input|option): expected /, '');
    const found = 'input' in iss ? (iss as { input?: unknown }).input : valueAt(root, path);
    if (found === undefined) push(path, `expected ${expected} (missing)`);
    else push(path, `expected ${expected}, received ${describeReceived(found, path)}`);
  }
  return out;
}

/** The value at `path` inside `root`, or undefined. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}
