/** Locates `test/fixtures/data/` (and `../shared/data`) from the compiled test, and small helpers. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 10; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'test', 'fixtures'))) return dir;
    dir = dirname(dir);
  }
  throw new Error(`project root (package.json + test/fixtures) not found above ${fileURLToPath(import.meta.url)}`);
}

export const PROJECT_ROOT = projectRoot();

export const dataFixture = (name: string): string => join(PROJECT_ROOT, 'test', 'fixtures', 'data', name);

/** `../shared/data` relative to the project, or undefined when absent. */
export function sharedDataDir(): string | undefined {
  const d = resolve(PROJECT_ROOT, '..', 'shared', 'data');
  return existsSync(d) ? d : undefined;
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Temporary files for error-path tests; remove() deletes them all. */
export class TempFiles {
  private readonly dirs: string[] = [];

  write(name: string, text: string, gzip = false): string {
    const d = mkdtempSync(join(tmpdir(), 'perpetua-import-'));
    this.dirs.push(d);
    const path = join(d, name);
    writeFileSync(path, gzip ? gzipSync(text) : text);
    return path;
  }

  dir(): string {
    const d = mkdtempSync(join(tmpdir(), 'perpetua-import-'));
    this.dirs.push(d);
    return d;
  }

  remove(): void {
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}
