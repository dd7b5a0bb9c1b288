/**
 * Which compiled CLI `bin/perpetua.js` starts: the bundled one (scripts/bundle-cli.mjs, built by `npm run
 * build`, starts in a third of the time) while it was built from the dist/ that is there (a later bare
 * `tsc` makes it stale) and PERPETUA_NO_BUNDLE is not 1; else dist/src/app/cli.js. Plain JavaScript: the
 * launcher runs it before anything is compiled; the backtest bench asks it which one it timed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The entry file under `root` (the project folder) and whether it is the bundle. */
export function cliEntry(root) {
  const cli = join(root, 'dist', 'src', 'app', 'cli.js');
  const bundle = join(root, 'dist', 'cli-bundle', 'cli.js');
  return freshBundle(root, cli, bundle) ? { path: bundle, bundled: true } : { path: cli, bundled: false };
}

function freshBundle(root, cli, bundle) {
  if (process.env.PERPETUA_NO_BUNDLE === '1') return false;
  try {
    const stamp = JSON.parse(readFileSync(join(root, 'dist', 'cli-bundle', 'built-from.json'), 'utf8'));
    return existsSync(bundle) && stamp.cliMtimeMs === statSync(cli).mtimeMs;
  } catch {
    return false;
  }
}
