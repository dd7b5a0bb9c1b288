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
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

// The bundled CLI (scripts/bundle-cli.mjs, built by `npm run build`) starts in a third of the time; it
// is used only while it was built from the dist/ that is there (a later bare `tsc` makes it stale).
const bundle = join(root, 'dist', 'cli-bundle', 'cli.js');
await import(pathToFileURL(freshBundle() ? bundle : cli).href);

function freshBundle() {
  if (process.env.PERPETUA_NO_BUNDLE === '1') return false;
  try {
    const stamp = JSON.parse(readFileSync(join(root, 'dist', 'cli-bundle', 'built-from.json'), 'utf8'));
    return existsSync(bundle) && stamp.cliMtimeMs === statSync(cli).mtimeMs;
  } catch {
    return false;
  }
}
