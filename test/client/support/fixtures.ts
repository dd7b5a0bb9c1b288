/** Reads `test/fixtures/mexc/*` wherever the compiled test runs from (dist/ or a private build dir). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function fixturesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'test', 'fixtures', 'mexc');
    if (existsSync(join(candidate, 'SOURCES.md'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('test/fixtures/mexc not found above the compiled test');
}

const DIR = fixturesDir();

export function fixtureText(name: string): string {
  return readFileSync(join(DIR, name), 'utf8');
}

export function fixtureExists(name: string): boolean {
  return existsSync(join(DIR, name));
}
