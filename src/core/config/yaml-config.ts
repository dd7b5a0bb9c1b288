/**
 * The one way a YAML config is read and checked, whatever its kind (run, backtest, sweep, emulator,
 * record): the file is read, parsed as YAML (duplicate keys refused, the line and column of a syntax
 * error named), a `kind:` of another command refused, and the document checked against a zod schema.
 * Every problem comes back at once as a ConfigInvalid, one line per problem with its YAML path and the
 * expected value (`accounts[0].spot.permissions[1]: expected one of SPOT_ACCOUNT_READ, …, received
 * "SPOT_TRADE"`), so `perpetua validate` and every command word a broken file the same way.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import type { ConfigKind } from '../config-kind.js';
import { ConfigError } from '../errors.js';
import { ConfigInvalid, issuesFromZod, stripKind } from './config-issues.js';

/** A parsed YAML document, or a ConfigInvalid naming the line and column of the syntax error. */
export function parseYamlDocument(text: string, source: string): unknown {
  try {
    return parseYaml(text, { prettyErrors: true, uniqueKeys: true });
  } catch (e) {
    const where = e instanceof YAMLParseError && e.linePos ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
    throw new ConfigInvalid(source, [{ path: '', message: `not valid YAML${where}: ${(e as Error).message.split('\n')[0]}` }]);
  }
}

/** Reads and parses a YAML file; an unreadable file is a ConfigError naming the file and the reason. */
export async function readYamlDocument(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ConfigError(file, `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseYamlDocument(text, file);
}

/** Reads a YAML file and hands the document to the kind's own parser (which throws ConfigInvalid). */
export async function loadYamlConfig<T>(file: string, parse: (doc: unknown, source: string) => T): Promise<T> {
  return parse(await readYamlDocument(file), file);
}

/**
 * `doc` checked against `schema` after dropping a `kind:` of one of `kinds` (an empty document is an
 * empty mapping: every key has its default). Throws ConfigInvalid listing every problem.
 */
export function parseWithSchema<S extends z.ZodType>(schema: S, doc: unknown, kinds: readonly ConfigKind[], source: string): z.output<S> {
  const input = stripKind(doc ?? {}, kinds, source);
  const r = schema.safeParse(input, { reportInput: true });
  if (r.success) return r.data;
  throw new ConfigInvalid(source, issuesFromZod(r.error.issues, schema, input));
}
