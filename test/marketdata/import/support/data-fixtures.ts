/** Locates `test/fixtures/data/` (and `../shared/data`) from the compiled test, and small helpers. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

import { PROJECT_ROOT } from '../../../support/project-root.js';

export { PROJECT_ROOT };

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
