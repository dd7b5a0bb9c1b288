import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder per test, removed by cleanup(). */
export class TempDirs {
  private readonly made: string[] = [];

  make(prefix = 'perpetua-store-'): string {
    const d = mkdtempSync(join(tmpdir(), prefix));
    this.made.push(d);
    return d;
  }

  cleanup(): void {
    for (const d of this.made.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}
