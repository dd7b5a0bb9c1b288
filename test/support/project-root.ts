/**
 * The project root, found from the compiled test's own location (dist/test/… for npm test, or a
 * private build folder), so fixtures resolve wherever the tests were compiled to.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 10; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'test', 'fixtures'))) return dir;
    dir = dirname(dir);
  }
  throw new Error(`project root (package.json + test/fixtures) not found above ${fileURLToPath(import.meta.url)}`);
}

export const PROJECT_ROOT = findProjectRoot();
