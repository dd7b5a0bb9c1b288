/** Reads test/fixtures/mexc from wherever the compiled test runs (dist/ or a private build dir). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonKeepingLongInts } from '../../../../src/core/json-codec.js';

function fixturesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 10; i++) {
    const candidate = join(dir, 'test', 'fixtures', 'mexc');
    if (existsSync(join(candidate, 'SOURCES.md'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('test/fixtures/mexc not found above the compiled test');
}

const DIR = fixturesDir();

/** A spot fixture: the bare body. */
export const spotFixture = (name: string): unknown => JSON.parse(readFileSync(join(DIR, name), 'utf8'));

/** A contract fixture's `data` (long integers kept exact). */
export const contractFixtureData = (name: string): unknown =>
  (parseJsonKeepingLongInts(readFileSync(join(DIR, name), 'utf8')) as { data: unknown }).data;
