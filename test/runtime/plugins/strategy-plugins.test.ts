/**
 * Strategies as plugins: `new-strategy` writes a template that compiles, passes its own test and is
 * loaded from a config's strategyModules — registered by name, listed with its parameters, validated
 * and built by the container — with no edit of the framework. The template is written into .build/
 * (inside the project, ignored by git) because TypeScript strategies import the framework relatively.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { validateConfig } from '../../../src/app/cli/validate-command.js';
import { newStrategy } from '../../../src/app/cli/new-strategy-command.js';
import { listStrategies } from '../../../src/app/cli/strategies-command.js';
import { availableStrategies, strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import { compiledPath, loadStrategyModules, PROJECT_DIR, testStrategies } from '../../../src/runtime/plugins/strategy-plugins.js';
import { ConfigError } from '../../../src/core/errors.js';
import { PROJECT_ROOT } from '../../support/project-root.js';

describe('strategy plugins', function () {
  this.timeout(120_000);
  const name = `tmpl-${process.pid}`;
  let dir: string;
  let cwd: string;
  before(() => {
    cwd = process.cwd();
    process.chdir(PROJECT_ROOT);
    dir = join(PROJECT_ROOT, '.build', `plugin-test-${process.pid}`);
  });
  after(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(PROJECT_DIR, 'dist', '.build', `plugin-test-${process.pid}`), { recursive: true, force: true });
  });

  it('project_dir_is_the_repository_root', () => {
    expect(PROJECT_DIR).to.equal(PROJECT_ROOT);
  });

  it('new_strategy_writes_a_template_that_passes_its_own_test', () => {
    const r = newStrategy(name, { dir: relative(PROJECT_ROOT, dir) });
    expect(r.files.map((f) => f.split('/').pop())).to.deep.equal([`${name}.ts`, `${name}.test.ts`, `${name}.paper.yaml`]);
    expect(() => newStrategy(name, { dir: relative(PROJECT_ROOT, dir) })).to.throw(ConfigError, /already exists/);
    expect(() => newStrategy('Bad_Name')).to.throw(ConfigError, /lowercase letters, digits and dashes/);
    // Compiles the test and the strategy it imports, then node --test: exit code 0 only if it passed.
    expect(testStrategies([dir], PROJECT_ROOT, 'ignore')).to.equal(0);
  });

  it('a_config_naming_the_module_registers_validates_and_lists_it', async () => {
    const config = join(dir, `${name}.paper.yaml`);
    const r = await validateConfig(config);
    expect(r.ok, r.lines.join('\n')).to.equal(true);
    expect(r.loaded!.strategies[0]!.name).to.equal(name);
    expect(availableStrategies().map((c) => c.strategyName)).to.include(name);
    expect(strategyCatalog().get(name)).to.not.equal(undefined);
    const listed = (await listStrategies()).find((s) => s.name === name)!;
    expect(listed.params.map((p) => [p.name, p.default ?? (p.required ? 'required' : '')])).to.deep.equal([
      ['size', 'required'],
      ['dropBps', '3'],
      ['takeProfitBps', '3'],
    ]);
  });

  it('a_folder_loads_its_modules_but_not_its_tests', async () => {
    const classes = await loadStrategyModules([relative(PROJECT_ROOT, dir)]);
    expect(classes.map((c) => c.strategyName)).to.deep.equal([name]);
  });

  it('recompiles_a_module_edited_after_its_output', async () => {
    const src = join(dir, `${name}.ts`);
    const { statSync, readFileSync } = await import('node:fs');
    const before = statSync(compiledPath(src)).mtimeMs;
    writeFileSync(src, readFileSync(src, 'utf8').replace("default(3).describe('Buy when", "default(4).describe('Buy when"));
    const { utimesSync } = await import('node:fs');
    utimesSync(src, new Date(before + 5000), new Date(before + 5000));
    await loadStrategyModules([relative(PROJECT_ROOT, src)]);
    expect(readFileSync(compiledPath(src), 'utf8')).to.contain('default(4)');
  });

  it('refuses_typescript_outside_the_project_and_modules_without_a_strategy', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'perpetua-plugin-'));
    try {
      writeFileSync(join(outside, 'x.ts'), 'export const x = 1;\n');
      let err: unknown;
      await loadStrategyModules([join(outside, 'x.ts')]).catch((e: unknown) => (err = e));
      expect((err as Error).message).to.match(/^strategyModules\[0\]: .*x\.ts is outside the project folder/);
      mkdirSync(join(outside, 'js'));
      writeFileSync(join(outside, 'js', 'none.mjs'), 'export const nothing = 1;\n');
      err = undefined;
      await loadStrategyModules([join(outside, 'js', 'none.mjs')]).catch((e: unknown) => (err = e));
      expect((err as Error).message).to.match(/exports no strategy class/);
      err = undefined;
      await loadStrategyModules(['no/such/module.ts']).catch((e: unknown) => (err = e));
      expect((err as Error).message).to.equal(
        `strategyModules[0]: no/such/module.ts does not exist (${join(PROJECT_ROOT, 'no/such/module.ts')})`,
      );
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
