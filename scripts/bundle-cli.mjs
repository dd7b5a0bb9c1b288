#!/usr/bin/env node
/**
 * The bundled `perpetua` command (issue 13, fixed costs): the tsc output of the CLI and the pure
 * JavaScript packages it loads, joined by esbuild into a few files in dist/cli-bundle/ (one chunk per
 * lazily loaded command, as the dispatcher splits them). Node then reads a handful of files instead
 * of about 1,100 modules (inversify, rxjs, zod, trading-signals and our own ~270): importing the
 * backtest command cost 1.4–1.6 s of CPU from dist, about a third of that bundled.
 *
 * Optional on purpose: `npm run build` runs it after tsc; without esbuild (an install without dev
 * dependencies) it says so and stops, and bin/perpetua.js runs dist/src/app/cli.js as before. It also
 * does when the bundle is older than the tsc output (built-from.json), so a bare `tsc` never leaves a
 * stale bundle in use.
 *
 * What stays exactly as in dist:
 *  - `import.meta.url` in each of our modules is rewritten to that module's own dist URL, so paths
 *    made from it (package.json, the fill-model and sweep workers, the console's assets, PROJECT_DIR)
 *    point where they do unbundled; worker threads run the unbundled dist files;
 *  - only the packages in BUNDLED are joined; every other one (native, or reading its own files at
 *    run time: better-sqlite3, bullmq's Lua scripts, fastify, undici, winston …) is imported from
 *    node_modules as before, when a command needs it;
 *  - a run that loads strategy modules from outside (strategyModules, --module) must share one copy of
 *    the framework with them: the bundle hands such a command to the unbundled CLI (cli.ts).
 * Plain JavaScript: it runs after tsc, on its output.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
const entry = join(dist, 'src', 'app', 'cli.js');
const outdir = join(dist, 'cli-bundle');

/** Pure JavaScript packages the CLI loads on most commands, and what they load. */
const BUNDLED = new Set([
  'inversify',
  'reflect-metadata',
  'rxjs',
  'zod',
  'yaml',
  'decimal.js',
  'commander',
  'trading-signals',
  'cli-progress',
  'string-width',
  'strip-ansi',
  'ansi-regex',
  'emoji-regex',
  'is-fullwidth-code-point',
]);
const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const bundled = (spec) => BUNDLED.has(packageOf(spec)) || packageOf(spec).startsWith('@inversifyjs/');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  process.stderr.write('perpetua: esbuild is not installed: no bundled CLI (bin/perpetua.js runs dist/src/app/cli.js)\n');
  rmSync(outdir, { recursive: true, force: true });
  process.exit(0);
}

const keepPackagesOutside = {
  name: 'perpetua-externals',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      return bundled(args.path) ? undefined : { path: args.path, external: true };
    });
  },
};

/** Each dist module keeps its own import.meta.url (the chunks all sit in outdir). */
const ownImportMetaUrl = {
  name: 'perpetua-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(dist + sep)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = relative(outdir, args.path).split(sep).join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js' };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const started = performance.now();
await esbuild.build({
  entryPoints: { cli: entry },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [keepPackagesOutside, ownImportMetaUrl],
  // CommonJS packages (rxjs, yaml) bundled into ESM call require() for node's own modules; the flag
  // tells cli.ts it runs bundled (strategy-plugins.ts hands plugin runs to the unbundled CLI).
  banner: {
    js: [
      "import { createRequire as __perpetuaRequire } from 'node:module';",
      'const require = __perpetuaRequire(import.meta.url);',
      "globalThis[Symbol.for('perpetua.bundled')] = true;",
    ].join(' '),
  },
});
writeFileSync(join(outdir, 'built-from.json'), `${JSON.stringify({ cliMtimeMs: statSync(entry).mtimeMs })}\n`);
process.stderr.write(`perpetua: bundled CLI in ${relative(root, outdir)} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
