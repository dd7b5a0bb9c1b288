/**
 * Strategies from outside the framework source: a config's `strategyModules` names module files or
 * folders, and every exported class with a static `strategyName` and `paramsSchema` in them is
 * registered next to the reference strategies — no edit of strategies/index.ts.
 *
 * JavaScript modules (.js / .mjs) are imported as they are. TypeScript files are compiled first with
 * the project's own tsc and tsconfig (decorator metadata included, which inversify needs) into dist/,
 * at the same relative place as their source, so their imports of the framework (`../src/…`) load the
 * very modules the CLI runs — one TOKENS, one container. They are compiled when their output is
 * missing or older than the source; a TypeScript file must therefore sit inside the project folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConfigError } from '../../core/errors.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import { parse as parseYaml } from 'yaml';
import { addPluginStrategies } from '../container/strategy-module.js';

/** The project folder: this file is dist/src/runtime/plugins/strategy-plugins.js. */
export const PROJECT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const DIST_DIR = join(PROJECT_DIR, 'dist');
const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.ts']);

const isModuleFile = (f: string): boolean =>
  MODULE_EXTENSIONS.has(extname(f)) && !/\.(test|spec)\.[mc]?[jt]s$/.test(f) && !f.endsWith('.d.ts');

/** The module files a path names: the file itself, or the module files directly inside a folder. */
function moduleFiles(path: string, configPath: string, shown: string): string[] {
  if (!existsSync(path)) throw new ConfigError(configPath, `${shown} does not exist (${path})`);
  if (statSync(path).isDirectory()) {
    const files = readdirSync(path)
      .filter(isModuleFile)
      .sort()
      .map((f) => join(path, f));
    if (files.length === 0) throw new ConfigError(configPath, `${shown} holds no .ts / .js strategy module`);
    return files;
  }
  if (!MODULE_EXTENSIONS.has(extname(path)))
    throw new ConfigError(configPath, `expected a .ts, .js or .mjs module or a folder of them, received ${shown}`);
  return [path];
}

/** Where tsc puts the compiled form of a TypeScript file of the project. */
export function compiledPath(tsFile: string): string {
  return join(DIST_DIR, relative(PROJECT_DIR, tsFile)).replace(/\.ts$/, '.js');
}

/** Compiles the TypeScript files whose output is missing or stale, in one tsc run. */
function compileTypeScript(files: readonly string[], configPath: string): void {
  for (const f of files) {
    const rel = relative(PROJECT_DIR, f);
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new ConfigError(
        configPath,
        `${f} is outside the project folder (${PROJECT_DIR}): put TypeScript strategies inside it (e.g. my-strategies/), or name a compiled .js module`,
      );
    }
  }
  const stale = files.filter((f) => {
    const out = compiledPath(f);
    return !existsSync(out) || statSync(out).mtimeMs < statSync(f).mtimeMs;
  });
  if (stale.length === 0) return;
  const tsc = join(PROJECT_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc))
    throw new ConfigError(configPath, `TypeScript is not installed (${tsc}): run \`npm install\`, or name compiled .js modules`);
  // A tsconfig of its own so only these files (and what they import) are compiled, with the project's options.
  const tsconfig = join(DIST_DIR, '.strategy-plugins.tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { rootDir: '..', outDir: '.' }, files: stale, include: [] }),
  );
  const r = spawnSync(process.execPath, [tsc, '-p', tsconfig], { cwd: PROJECT_DIR, encoding: 'utf8' });
  if (r.status !== 0) {
    const errors = `${r.stdout}${r.stderr}`.trim().split('\n').slice(0, 20).join('\n    ');
    throw new ConfigError(
      configPath,
      `the TypeScript of ${stale.map((f) => relative(PROJECT_DIR, f)).join(', ')} does not compile:\n    ${errors}`,
    );
  }
}

const isStrategyClass = (v: unknown): v is StrategyClass =>
  typeof v === 'function' &&
  typeof (v as { strategyName?: unknown }).strategyName === 'string' &&
  typeof (v as { paramsSchema?: { safeParse?: unknown } }).paramsSchema?.safeParse === 'function';

/**
 * The strategy classes exported by the modules `paths` name (relative paths resolve against `cwd`).
 * `configPath` is where the paths were written, for messages (`strategyModules[0]`).
 */
export async function loadStrategyModules(
  paths: readonly string[],
  cwd = process.cwd(),
  configPath = 'strategyModules',
): Promise<StrategyClass[]> {
  // Modules from outside import the framework from dist/: they must meet the same copy of it (its
  // tokens, classes, inversify) as the runtime, which the bundled CLI is not (scripts/bundle-cli.mjs).
  if (paths.length > 0 && runningBundled()) throw new RerunUnbundled();
  const named = paths.map((p, i) => ({
    at: `${configPath}[${i}]`,
    shown: p,
    files: moduleFiles(resolve(cwd, p), `${configPath}[${i}]`, p),
  }));
  for (const n of named)
    compileTypeScript(
      n.files.filter((f) => f.endsWith('.ts')),
      n.at,
    );
  const classes: StrategyClass[] = [];
  for (const n of named) {
    for (const f of n.files) {
      const target = f.endsWith('.ts') ? compiledPath(f) : f;
      let mod: Record<string, unknown>;
      try {
        mod = (await import(pathToFileURL(target).href)) as Record<string, unknown>;
      } catch (e) {
        throw new ConfigError(n.at, `cannot load ${relative(cwd, f) || f}: ${(e as Error).message}`);
      }
      const found = Object.values(mod).filter(isStrategyClass);
      if (found.length === 0 && n.files.length === 1)
        throw new ConfigError(n.at, `${n.shown} exports no strategy class (a class with static strategyName and paramsSchema)`);
      for (const c of found) if (!classes.includes(c)) classes.push(c);
    }
  }
  return classes;
}

/** The `strategyModules` a parsed config document names (not validated yet: the schema does that). */
export function strategyModulesOf(doc: unknown): string[] {
  const v = doc !== null && typeof doc === 'object' ? (doc as { strategyModules?: unknown }).strategyModules : undefined;
  return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string' && p.length > 0) : [];
}

/** Loads and registers (process-wide) the strategies a parsed config document names. */
export async function loadConfigStrategies(doc: unknown, cwd = process.cwd()): Promise<StrategyClass[]> {
  const modules = strategyModulesOf(doc);
  if (modules.length === 0) return [];
  const classes = await loadStrategyModules(modules, cwd);
  addPluginStrategies(classes);
  return classes;
}

/**
 * The same for a config file, read for its `strategyModules` only (the loaders validate it after):
 * every command that reads a run, backtest or sweep config calls this first. A file that cannot be
 * read or parsed is left to the loader, which says so with its own message.
 */
export async function loadConfigFileStrategies(file: string, cwd = process.cwd()): Promise<StrategyClass[]> {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  return loadConfigStrategies(doc, cwd);
}

/**
 * `perpetua test <paths…>`: compiles the *.test.ts files the paths name (files, or folders searched
 * one level deep) with their imports, then runs them with node's own test runner; the exit code is its.
 */
export function testStrategies(paths: readonly string[], cwd = process.cwd(), stdio: 'inherit' | 'ignore' = 'inherit'): number {
  const files = paths.flatMap((p, i) => {
    const abs = resolve(cwd, p);
    if (!existsSync(abs)) throw new ConfigError(`paths[${i}]`, `${p} does not exist`);
    return statSync(abs).isDirectory()
      ? readdirSync(abs)
          .filter((f) => /\.test\.ts$/.test(f))
          .sort()
          .map((f) => join(abs, f))
      : [abs];
  });
  if (files.length === 0) throw new ConfigError('paths', `no *.test.ts in ${paths.join(', ')}`);
  compileTypeScript(files, 'paths');
  const r = spawnSync(process.execPath, ['--test', ...files.map(compiledPath)], { cwd, stdio });
  return r.status ?? 1;
}

/** The bundled CLI sets this flag (scripts/bundle-cli.mjs); dist modules never do. */
const runningBundled = (): boolean => (globalThis as Record<symbol, unknown>)[Symbol.for('perpetua.bundled')] === true;

/** The bundled CLI met strategy modules from outside: cli.ts runs the same command line unbundled. */
export class RerunUnbundled extends Error {
  override readonly name = 'RerunUnbundled';
  constructor() {
    super('strategy modules from outside the framework load only into the unbundled CLI');
  }
}
