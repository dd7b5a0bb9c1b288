/**
 * Finished runs survive Ctrl-C and `perpetua sweep --resume` continues the sweep: a real
 * `perpetua sweep` process (the CLI, spawned) is interrupted with SIGINT part-way; the resumed sweep
 * runs only what was missing and writes a report byte-identical to the same sweep run straight through.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { sweepCommand } from '../../src/app/cli/sweep-command.js';
import { perpTrendDoc } from './support/backtest-fixtures.js';
import { PROJECT_ROOT } from '../support/project-root.js';

const sink = (): Writable & { text: string } => {
  const w = new Writable({ write: (chunk, _e, cb) => ((w.text += String(chunk)), cb()) }) as Writable & { text: string };
  w.text = '';
  return w;
};

const CLI = join(PROJECT_ROOT, 'dist', 'src', 'app', 'cli.js');
/** 6 × 4 = 24 grid points and no band runs: 24 runs. */
const doc = perpTrendDoc({
  sweep: { parameters: { fastPeriod: [3, 4, 5, 6, 7, 8], slowPeriod: [20, 30, 40, 50] }, objective: 'sharpe', bestN: 0 },
});
const FILES = ['sweep.json', 'sweep.md', 'sweep.html'];
/** Complete run lines of a checkpoint (the first line is its header). */
const runLines = (path: string): number =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .slice(1)
        .filter((l) => l.endsWith('}')).length
    : 0;

describe('perpetua sweep: Ctrl-C and --resume', function () {
  this.timeout(600_000);
  let dir: string;
  let config: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpetua-sweep-resume-'));
    config = join(dir, 'grid24.yaml');
    writeFileSync(config, stringify(doc));
    // The reference: the whole sweep in one go.
    await sweepCommand({ config, out: join(dir, 'straight'), workers: 1, progress: false, output: sink() });
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps_the_finished_runs_of_an_interrupted_sweep_and_resumes_only_the_rest', async () => {
    const out = join(dir, 'interrupted');
    const checkpoint = join(out, 'checkpoint.jsonl');
    const child = spawn(process.execPath, [CLI, 'sweep', config, '--workers', '1', '--out', out], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      // Ctrl-C once two runs are on disk.
      for (let t = 0; runLines(checkpoint) < 2; t += 20) {
        if (t > 300_000 || child.exitCode !== null) throw new Error(`the sweep never wrote two runs: ${stderr}`);
        await delay(20);
      }
      child.kill('SIGINT');
      expect(await exited).to.equal(130);
    } finally {
      child.kill('SIGKILL');
    }
    const kept = runLines(checkpoint);
    expect(kept).to.be.at.least(2).and.below(24);
    expect(stderr).to.include(`sweep interrupted: ${kept} finished run(s) are kept in ${checkpoint}`);
    expect(stderr).to.include('--resume');
    expect(existsSync(join(out, 'sweep.json')), 'no report from an interrupted sweep').to.equal(false);
    // A run torn by a kill mid-write is dropped on resume, not read.
    appendFileSync(checkpoint, '{"key":"0123","run":{"hea');

    const text = sink();
    const r = await sweepCommand({ config, out, workers: 1, resume: true, progress: false, output: text });
    expect(r.resumed).to.equal(kept);
    expect(r.runs).to.equal(24);
    expect(text.text).to.include(`resumed: ${kept} finished runs from ${checkpoint}`);
    for (const f of FILES) expect(readFileSync(join(out, f), 'utf8'), f).to.equal(readFileSync(join(dir, 'straight', f), 'utf8'));
    // Every run is in the checkpoint once: the resumed sweep ran exactly the missing ones.
    expect(runLines(checkpoint)).to.equal(24);
  });

  it('refuses_to_resume_from_runs_made_on_other_data', async () => {
    const out = join(dir, 'other-data');
    cpSync(join(dir, 'straight'), out, { recursive: true });
    const path = join(out, 'checkpoint.jsonl');
    const [header, ...rest] = readFileSync(path, 'utf8').split('\n');
    const other = { ...(JSON.parse(header!) as Record<string, unknown>), dataHash: 'f'.repeat(64) };
    writeFileSync(path, [JSON.stringify(other), ...rest].join('\n'));
    let err: unknown;
    try {
      await sweepCommand({ config, out, workers: 1, resume: true, progress: false, output: sink() });
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(
      /--resume: the runs in .*checkpoint\.jsonl were made from other data \(content hash ffffffffffffffff…, now [0-9a-f]{16}…\)/,
    );
  });
});
