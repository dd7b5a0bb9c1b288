/**
 * The bundled CLI (scripts/bundle-cli.mjs, built by `npm run build`): the launcher uses it only while it
 * was built from the dist/ that is there, it answers as the unbundled CLI does, and a command that loads
 * strategy modules from outside runs unbundled (one copy of the framework for the runtime and the plugin).
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { newStrategy } from '../../src/app/cli/new-strategy-command.js';
import { loadStrategyModules, RerunUnbundled } from '../../src/runtime/plugins/strategy-plugins.js';
import { PROJECT_ROOT } from '../support/project-root.js';

const BUNDLE = join(PROJECT_ROOT, 'dist', 'cli-bundle', 'cli.js');
const DIST_CLI = join(PROJECT_ROOT, 'dist', 'src', 'app', 'cli.js');
const node = (script: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [script, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', env: { ...process.env, ...env } });

describe('e2e: the bundled CLI', function () {
  this.timeout(120_000);

  it('the_launcher_runs_the_bundle_only_while_it_matches_dist', () => {
    // A project of four files: the launcher (two files), a "dist" CLI and a "bundle" CLI that say which they are.
    const root = mkdtempSync(join(tmpdir(), 'perpetua-launcher-'));
    try {
      mkdirSync(join(root, 'bin'));
      mkdirSync(join(root, 'dist', 'src', 'app'), { recursive: true });
      mkdirSync(join(root, 'dist', 'cli-bundle'));
      // The launcher and the rule it starts by (bin/cli-entry.js).
      for (const f of ['perpetua.js', 'cli-entry.js']) copyFileSync(join(PROJECT_ROOT, 'bin', f), join(root, 'bin', f));
      writeFileSync(join(root, 'package.json'), '{"type":"module"}');
      const cli = join(root, 'dist', 'src', 'app', 'cli.js');
      writeFileSync(cli, "process.stdout.write('dist');");
      writeFileSync(join(root, 'dist', 'cli-bundle', 'cli.js'), "process.stdout.write('bundle');");
      const stamp = (mtimeMs: number): void =>
        writeFileSync(join(root, 'dist', 'cli-bundle', 'built-from.json'), JSON.stringify({ cliMtimeMs: mtimeMs }));
      const run = (env: NodeJS.ProcessEnv = {}): string => node(join(root, 'bin', 'perpetua.js'), [], env).stdout;
      expect(run(), 'no stamp').to.equal('dist');
      stamp(statSync(cli).mtimeMs);
      expect(run(), 'built from this dist').to.equal('bundle');
      expect(run({ PERPETUA_NO_BUNDLE: '1' }), 'asked not to').to.equal('dist');
      stamp(statSync(cli).mtimeMs - 1000);
      expect(run(), 'dist rebuilt since (a bare tsc)').to.equal('dist');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('answers_as_the_unbundled_cli', function () {
    if (!existsSync(BUNDLE)) this.skip(); // built by `npm run build` (needs esbuild, a dev dependency); a bare tsc has none
    for (const args of [['--help'], ['endpoints', '--json'], ['validate', 'config/backtest-perp.yaml'], ['schema', 'backtest']]) {
      const bundled = node(BUNDLE, args);
      const unbundled = node(DIST_CLI, args);
      expect(bundled.status, `${args.join(' ')}: ${bundled.stderr}`).to.equal(unbundled.status);
      expect(bundled.stdout, args.join(' ')).to.equal(unbundled.stdout);
      expect(bundled.stderr, args.join(' ')).to.equal(unbundled.stderr);
    }
  });

  describe('strategy modules from outside', () => {
    const name = `bundle-${process.pid}`;
    const dir = join(PROJECT_ROOT, '.build', `bundle-test-${process.pid}`);
    after(() => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(join(PROJECT_ROOT, 'dist', '.build', `bundle-test-${process.pid}`), { recursive: true, force: true });
    });

    it('are_refused_by_a_bundled_process_and_listed_by_the_bundled_command_through_dist', async function () {
      const key = Symbol.for('perpetua.bundled');
      const g = globalThis as Record<symbol, unknown>;
      g[key] = true;
      try {
        await loadStrategyModules(['nowhere']).then(
          () => expect.fail('loaded'),
          (e: unknown) => expect(e).to.be.instanceOf(RerunUnbundled),
        );
      } finally {
        delete g[key];
      }
      if (!existsSync(BUNDLE)) this.skip();
      newStrategy(name, { dir: relative(PROJECT_ROOT, dir) });
      const r = node(BUNDLE, ['strategies', '--module', relative(PROJECT_ROOT, dir), '--json']);
      expect(r.status, r.stderr).to.equal(0);
      const listed = (JSON.parse(r.stdout) as { name: string }[]).map((s) => s.name);
      expect(listed).to.include(name);
      expect(listed).to.include('perp-trend');
    });
  });
});
