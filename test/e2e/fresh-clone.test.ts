/**
 * What a new user does, on a fresh copy of the repository with no ../shared next to it:
 * the committed tree (`git archive HEAD`, what a clone checks out) in a temp folder, whose
 * node_modules is a link to this checkout's (standing in for `npm ci`, which needs the network and
 * minutes), then — through the installed bin, bin/perpetua.js — the first command compiles the project,
 * `new-strategy`, its test, `validate` of the new and of every shipped config, a paper run of the new
 * strategy against the embedded emulator, `orders` / `fills` on its journal, and a backtest of the
 * shipped sample data (one day of it, one fill model, to keep the suite fast).
 *
 * It exercises the COMMITTED state (HEAD), not uncommitted edits; it skips when this checkout is not a
 * git work tree.
 */
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { PROJECT_ROOT } from '../support/project-root.js';

describe('e2e: a fresh clone, from new-strategy to paper and backtest', function () {
  this.timeout(600_000);
  let base: string;
  let clone: string;

  before(function () {
    const git = spawnSync('git', ['-C', PROJECT_ROOT, 'rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' });
    if (git.status !== 0 || git.stdout.trim() !== 'true') {
      console.log(`      (skipped: ${PROJECT_ROOT} is not a git work tree, so there is nothing to clone)`);
      this.skip();
    }
    base = mkdtempSync(join(tmpdir(), 'perpetua-clone-'));
    clone = join(base, 'perpetua');
    execFileSync('mkdir', [clone]);
    const tar = execFileSync('git', ['-C', PROJECT_ROOT, 'archive', '--format=tar', 'HEAD'], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', clone], { input: tar });
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  });
  after(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  const perpetua = (args: string[], timeoutMs = 180_000) => {
    const r = spawnSync(process.execPath, [join(clone, 'bin', 'perpetua.js'), ...args], {
      cwd: clone,
      encoding: 'utf8',
      timeout: timeoutMs,
    });
    return { ...r, out: `${r.stdout}${r.stderr}` };
  };

  it('has_no_shared_data_and_no_build', () => {
    expect(existsSync(join(base, 'shared'))).to.equal(false);
    expect(existsSync(join(clone, 'dist'))).to.equal(false);
  });

  it('first_command_compiles_then_prints_the_version', () => {
    const r = perpetua(['--version'], 300_000);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout.trim()).to.equal((JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { version: string }).version);
    expect(r.stderr).to.contain('compiling');
  });

  it('new_strategy_then_its_test_passes', () => {
    const r = perpetua(['new-strategy', 'grid-bot']);
    expect(r.status, r.out).to.equal(0);
    for (const f of ['grid-bot.ts', 'grid-bot.test.ts', 'grid-bot.paper.yaml'])
      expect(existsSync(join(clone, 'my-strategies', f)), f).to.equal(true);
    const t = perpetua(['test', 'my-strategies']);
    expect(t.status, t.out).to.equal(0);
    expect(t.out).to.match(/# pass 1/);
  });

  it('validates_the_new_config_and_the_shipped_backtests', () => {
    // The rest of the shipped configs are validated in place by cli.test.ts; here: the new one, and the
    // backtest configs, whose data must be in the clone.
    for (const f of [
      'my-strategies/grid-bot.paper.yaml',
      'config/backtest-perp.yaml',
      'config/backtest-spot-mm.yaml',
      'config/backtest-spot-grid.yaml',
      'config/backtest-perp-as-maker.yaml',
    ]) {
      const r = perpetua(['validate', f]);
      expect(r.status, r.out).to.equal(0);
      expect(r.stdout).to.contain(': ok');
    }
  });

  it('paper_runs_the_new_strategy_and_reads_its_journal', () => {
    const journal = join(base, 'grid.sqlite');
    const r = perpetua(['run', 'my-strategies/grid-bot.paper.yaml', '--duration', '8', '--journal', journal], 120_000);
    expect(r.status, r.out).to.equal(0);
    const orders = JSON.parse(perpetua(['orders', '--journal', journal, '--format', 'json']).stdout) as {
      strategy: string;
      status: string;
    }[];
    expect(
      orders.length,
      'orders placed in 8 s (the strategy buys a 1 bp dip of a market moving ~1 bp every few seconds)',
    ).to.be.greaterThan(0);
    expect(new Set(orders.map((o) => o.strategy))).to.deep.equal(new Set(['gridbo1']));
    const fills = perpetua(['fills', '--journal', journal, '--format', 'csv']);
    expect(fills.status, fills.out).to.equal(0);
    const filled = orders.filter((o) => o.status === 'filled' || o.status === 'partially-filled').length;
    // One CSV line per fill after the header; an order filled at least once has at least one line.
    const lines = fills.stdout.trim() === '' ? 0 : fills.stdout.trim().split('\n').length - 1;
    expect(lines).to.be.at.least(filled);
  });

  it('backtests_the_shipped_sample', () => {
    const doc = parse(readFileSync(join(clone, 'config', 'backtest-perp.yaml'), 'utf8')) as { backtest: Record<string, unknown> };
    doc.backtest.to = '2025-05-06T00:00:00Z';
    doc.backtest.fillModels = ['neutral'];
    writeFileSync(join(clone, 'config', 'backtest-day.yaml'), stringify(doc));
    const r = perpetua(['backtest', 'config/backtest-day.yaml', '--out', join(base, 'report')], 300_000);
    expect(r.status, r.out).to.equal(0);
    expect(existsSync(join(base, 'report', 'report.html'))).to.equal(true);
    expect(r.stdout).to.match(/backtest perp-trend on BTC_USDT: \d+ records/);
  });
});
