/**
 * Test helpers for the spot catalogue tests: fixture loading (resolved from the repository root, so the
 * compiled tests work from any output dir), a tiny envelope unwrapper (the real one lives in the client),
 * and issue assertions.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { z } from 'zod';

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'test', 'fixtures', 'mexc'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('test/fixtures/mexc not found above the test file');
    dir = up;
  }
  return dir;
}

const ROOT = repoRoot();
export const MEXC_FIXTURES = join(ROOT, 'test', 'fixtures', 'mexc');

export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(MEXC_FIXTURES, name), 'utf8')) as unknown;
}

export function spotFixtureNames(): string[] {
  return readdirSync(MEXC_FIXTURES)
    .filter((f) => f.startsWith('spot_') && f.endsWith('.json'))
    .sort();
}

export function specText(name: string): string {
  return readFileSync(join(ROOT, 'test', 'fixtures', 'spec', name), 'utf8');
}

/** `{code: 0|200, data}` → data; anything else throws (enough for fixtures; the client does the real work). */
export function unwrapSpot(body: unknown): unknown {
  const env = body as { code?: unknown; data?: unknown };
  if (env.code !== 0 && env.code !== 200) throw new Error(`not a success envelope: ${JSON.stringify(body)}`);
  return env.data;
}

/** Wraps a payload the way the venue does for (E) endpoints. */
export function wrapSpot(data: unknown): unknown {
  return { code: 0, msg: 'success', data, timestamp: 1767205878625 };
}

/** Parses and fails with the zod issues in the message (readable test failures). */
export function parseOk<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input);
  if (!r.success) expect.fail(`expected to parse, got ${JSON.stringify(r.error.issues)}`);
  return r.data as z.output<T>;
}

/** Asserts the parse fails with an issue at exactly `path`, whose message matches `message` when given. */
export function expectIssue(schema: z.ZodType, input: unknown, path: readonly (string | number)[], message?: RegExp): void {
  const r = schema.safeParse(input);
  expect(r.success, `expected a failure at ${path.join('.')}`).to.equal(false);
  const issues = r.error!.issues;
  const at = issues.filter((i) => JSON.stringify(i.path) === JSON.stringify(path));
  expect(at, `issues: ${JSON.stringify(issues)}`).to.not.be.empty;
  if (message) expect(at.map((i) => i.message).join(' | ')).to.match(message);
}
