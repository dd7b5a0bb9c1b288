/**
 * `perpetua new-strategy <name> [--dir my-strategies]`: writes a documented strategy, its unit test
 * and a paper config that loads it through `strategyModules` — a working start that needs no edit of
 * the framework. Existing files are never overwritten.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { PROJECT_DIR } from '../../runtime/plugins/strategy-plugins.js';
import { CONFIG_TEMPLATE, STRATEGY_TEMPLATE, TEST_TEMPLATE } from './strategy-template.js';

export interface NewStrategyResult {
  readonly files: readonly string[];
  readonly next: readonly string[];
}

const NAME = /^[a-z][a-z0-9-]{0,40}$/;

/** `dip-buyer` → `DipBuyer`. */
const pascal = (name: string): string =>
  name
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
const camel = (name: string): string => pascal(name)[0]!.toLowerCase() + pascal(name).slice(1);
const posix = (p: string): string => p.split('\\').join('/');

export function newStrategy(name: string, opts: { dir?: string; cwd?: string } = {}): NewStrategyResult {
  if (!NAME.test(name))
    throw new ConfigError(
      'name',
      `expected lowercase letters, digits and dashes starting with a letter (a strategyName), received ${JSON.stringify(name)}`,
    );
  const cwd = opts.cwd ?? process.cwd();
  const dir = resolve(cwd, opts.dir ?? 'my-strategies');
  const fromRoot = relative(PROJECT_DIR, dir);
  if (fromRoot.startsWith('..') || isAbsolute(fromRoot)) {
    throw new ConfigError(
      '--dir',
      `expected a folder inside the project (${PROJECT_DIR}): a TypeScript strategy is compiled with it and imports it; received ${dir}`,
    );
  }
  const files = { strategy: join(dir, `${name}.ts`), test: join(dir, `${name}.test.ts`), config: join(dir, `${name}.paper.yaml`) };
  for (const f of Object.values(files))
    if (existsSync(f)) throw new ConfigError('name', `${f} already exists; choose another name or remove it`);
  // Imports of the framework, relative from the strategy's folder to the project root.
  const up = posix(relative(dir, PROJECT_DIR)) || '.';
  const moduleFromCwd = posix(relative(cwd, files.strategy));
  const configFromCwd = posix(relative(cwd, files.config));
  const dirFromCwd = posix(relative(cwd, dir)) || '.';
  const fill = (t: string): string =>
    t
      .replaceAll('__PARAMS__', `${camel(name)}Params`)
      .replaceAll('__CLASS__', pascal(name))
      .replaceAll('__NAME__', name)
      .replaceAll('__IMPORT__', up)
      .replaceAll('__DIR__', dirFromCwd)
      .replaceAll('__MODULE__', moduleFromCwd)
      .replaceAll('__CONFIG__', configFromCwd)
      .replaceAll('__ID__', `${name.replace(/[^a-z0-9]/g, '').slice(0, 6) || 's'}1`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(files.strategy, fill(STRATEGY_TEMPLATE));
  writeFileSync(files.test, fill(TEST_TEMPLATE));
  writeFileSync(files.config, fill(CONFIG_TEMPLATE));
  return {
    files: Object.values(files).map((f) => posix(relative(cwd, f))),
    next: [
      `npx perpetua test ${dirFromCwd}`,
      `npx perpetua validate ${configFromCwd}`,
      `npx perpetua run ${configFromCwd} --duration 60`,
      `npx perpetua strategies --config ${configFromCwd}`,
    ],
  };
}
