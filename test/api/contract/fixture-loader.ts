/** Locates `test/fixtures/` from the compiled test file (tests run from dist/ or .build/<dir>/). */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonKeepingLongInts } from '../../../src/core/json-codec.js';

function findFixturesRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 10; i++) {
    const candidate = join(dir, 'test', 'fixtures');
    if (existsSync(join(candidate, 'mexc')) && existsSync(join(candidate, 'spec'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error('test/fixtures not found above ' + fileURLToPath(import.meta.url));
}

export const FIXTURES = findFixturesRoot();

export const readText = (relative: string): string => readFileSync(join(FIXTURES, relative), 'utf8');

/** A MEXC fixture parsed losslessly (long integers stay exact strings). */
export const mexc = (file: string): unknown => parseJsonKeepingLongInts(readText(join('mexc', file)));

/** The `data` of a MEXC contract fixture. */
export const mexcData = (file: string): unknown => (mexc(file) as { data?: unknown }).data;

export const contractFixtureFiles = (): string[] =>
  readdirSync(join(FIXTURES, 'mexc'))
    .filter((f) => f.startsWith('contract_') && f.endsWith('.json'))
    .sort();
