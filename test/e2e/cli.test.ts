/**
 * The CLI as a user runs it, from the repository root: `perpetua validate` on every shipped run
 * config, and `perpetua run config/default.yaml` (what `npm start` runs), which must place orders
 * and get filled, then stop cleanly on Ctrl-C (SIGINT) with nothing left open.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { SqliteJournal } from '../../src/persistence/sqlite-journal.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The CLI compiled next to this test (…/test/e2e/ → …/src/app/cli.js). */
const CLI = join(HERE, '../../src/app/cli.js');

/** The repository root: the nearest folder above the compiled test with perpetua's package.json. */
function repoRoot(): string {
  let dir = HERE;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'perpetua') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no perpetua package.json above ${HERE}`);
    dir = up;
  }
}

const ROOT = repoRoot();
/** Shipped run configs: the YAML files under config/ with a top-level `mode`. */
const RUN_CONFIGS = readdirSync(join(ROOT, 'config'))
  .filter((f) => f.endsWith('.yaml'))
  .filter((f) => {
    const doc = parse(readFileSync(join(ROOT, 'config', f), 'utf8')) as Record<string, unknown> | null;
    return doc !== null && typeof doc === 'object' && 'mode' in doc;
  })
  .map((f) => `config/${f}`);
/** Every shipped config, whatever its kind: `validate` must accept them all. */
const ALL_CONFIGS = readdirSync(join(ROOT, 'config'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => `config/${f}`);

const perpetua = (args: string[], timeoutMs: number) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: timeoutMs });

describe('e2e: the perpetua CLI', function () {
  this.timeout(90_000);

  it('ships_run_configs_including_the_default', () => {
    expect(RUN_CONFIGS).to.include.members(['config/default.yaml', 'config/perp-paper.yaml']);
  });

  for (const file of ALL_CONFIGS) {
    it(`validates_${file.replace(/[^a-z0-9]+/gi, '_')}`, () => {
      const r = perpetua(['validate', file], 30_000);
      expect(r.status, `${r.stdout}${r.stderr}`).to.equal(0);
    });
  }

  it('validate_exits_1_on_a_broken_config', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-e2e-'));
    try {
      const bad = join(dir, 'bad.yaml');
      writeFileSync(bad, 'mode: paper\ninstruments: [BTCUSDT]\nstrategies: []\nbogus: 1\n');
      const r = perpetua(['validate', bad], 30_000);
      expect(r.status).to.equal(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('npm_start_config_places_and_fills_orders_then_stops_cleanly_on_ctrl_c', async () => {
    // What `npm start` runs, stopped the way a user stops it. The run is watched, not timed: it is
    // stopped once its log shows a fill (a loaded machine gets up to 60 s for that), instead of
    // hoping fills come within a fixed 8 real seconds.
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-e2e-'));
    const journalPath = join(dir, 'default.sqlite');
    const child = spawn(process.execPath, [CLI, 'run', 'config/default.yaml', '--journal', journalPath], { cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      // The runtime's log line for a fill of the market maker's (runtime/event-describer.ts).
      const filled = /\binfo (?:partly )?filled mm1 BTCUSDT (?:buy|sell) /;
      await new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no fill logged within 60 s:\n${err}`)), 60_000);
        const seen = (): void => {
          if (!filled.test(err)) return;
          clearTimeout(deadline);
          resolve();
        };
        child.stderr.on('data', seen);
        void exited.then(() => {
          clearTimeout(deadline);
          reject(new Error(`the run ended before a fill:\n${out}${err}`));
        });
      });
      child.kill('SIGINT');
      expect(await exited, `${out}${err}`).to.equal(0);
    } finally {
      child.kill('SIGKILL');
    }
    try {
      expect(out).to.match(/run #1 stopped \(SIGINT\)/);
      const journal = new SqliteJournal({ path: journalPath });
      try {
        const orders = journal.orders();
        expect(orders.length, 'orders placed').to.be.greaterThan(0);
        expect(journal.fillCount(), 'fills').to.be.greaterThan(0);
        expect(
          orders.filter((o) => !['filled', 'cancelled', 'rejected', 'expired'].includes(o.status)),
          'orders left open',
        ).to.deep.equal([]);
        const runs = journal.runs();
        expect(runs).to.have.length(1);
        expect(runs[0]!.exitReason).to.equal('SIGINT');
      } finally {
        journal.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
