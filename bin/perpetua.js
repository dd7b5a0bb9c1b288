#!/usr/bin/env node
/**
 * The `perpetua` command as installed by npm (`npx perpetua`, `npm link`, a global install).
 *
 * A fresh clone after `npm install` / `npm ci` has no dist/: instead of a `prepare` build on every
 * install (which would also run, twice, in CI before `npm test` builds again), the first command
 * compiles the project once and then runs. Plain JavaScript on purpose: it must run before anything
 * is compiled.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliEntry } from './cli-entry.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'dist', 'src', 'app', 'cli.js');

if (!existsSync(cli)) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) {
    process.stderr.write(`perpetua: ${cli} is missing and TypeScript is not installed: run \`npm install\` in ${root} first\n`);
    process.exit(1);
  }
  process.stderr.write('perpetua: first run in this checkout: compiling (tsc -p tsconfig.json) …\n');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0 || !existsSync(cli)) {
    process.stderr.write(`perpetua: the build failed (exit ${r.status ?? r.signal}); fix the errors above or run \`npm run build\`\n`);
    process.exit(1);
  }
}

// The bundled CLI when it is fresh, else the tsc output (cli-entry.js).
await import(pathToFileURL(cliEntry(root).path).href);
