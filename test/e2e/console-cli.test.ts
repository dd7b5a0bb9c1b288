/**
 * `perpetua run` with a console, as a user starts it: the shipped default config plus a `console:`
 * section, the token in the environment. The printed URL answers with the run's status and its log
 * lines, the stop action ends the run cleanly (exit 0, the reason in the journal), and the token
 * appears in no output.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { parse, stringify } from 'yaml';
import { SystemClock } from '../../src/core/clock.js';
import { SqliteJournal } from '../../src/persistence/sqlite-journal.js';
import { PROJECT_ROOT } from '../support/project-root.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '../../src/app/cli.js');
const TOKEN = 'e2e-console-token-abcdef0123456789';
const clock = new SystemClock();

describe('e2e: perpetua run with the console', function () {
  this.timeout(90_000);

  it('serves_the_console_and_stops_the_run_when_asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-e2e-console-'));
    try {
      const doc = parse(readFileSync(join(PROJECT_ROOT, 'config', 'default.yaml'), 'utf8')) as Record<string, Record<string, unknown>>;
      doc.paper!.emulatorConfig = join(PROJECT_ROOT, 'config', 'paper-emulator.yaml');
      doc.console = { port: 0, tokenEnv: 'E2E_CONSOLE_TOKEN' };
      const file = join(dir, 'run.yaml');
      writeFileSync(file, stringify(doc));
      const journalPath = join(dir, 'run.sqlite');
      const child = spawn(process.execPath, [CLI, 'run', file, '--journal', journalPath, '--duration', '60'], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, E2E_CONSOLE_TOKEN: TOKEN },
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          const seen = (): void => {
            const m = /console: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
            if (m) resolve(m[1]!);
          };
          child.stderr.on('data', seen);
          void exited.then(() => reject(new Error(`the run ended before printing the console URL:\n${out}`)));
        });
        const auth = { authorization: `Bearer ${TOKEN}` };
        const status = await request(`${url}api/status`, { headers: auth });
        expect(status.statusCode).to.equal(200);
        expect(((await status.body.json()) as { mode: string }).mode).to.equal('paper');
        // The log view gets the run's own log lines (the market maker's first placements).
        let logs: { message: string }[] = [];
        for (let i = 0; i < 150 && !logs.some((l) => l.message.startsWith('placed ')); i++) {
          const r = await request(`${url}api/logs`, { headers: auth });
          logs = (await r.body.json()) as { message: string }[];
          if (!logs.some((l) => l.message.startsWith('placed '))) await clock.sleep(100);
        }
        expect(logs.map((l) => l.message).filter((m) => m.startsWith('placed '))).to.not.be.empty;
        const refused = await request(`${url}api/status`);
        expect(refused.statusCode).to.equal(401);
        await refused.body.dump();
        const headers = { ...auth, 'content-type': 'application/json' };
        const body = JSON.stringify({ confirm: true, reason: 'e2e stop' });
        const stop = await request(`${url}api/stop`, { method: 'POST', headers, body });
        expect(stop.statusCode).to.equal(200);
        await stop.body.dump();
        expect(await exited, out).to.equal(0);
      } finally {
        child.kill('SIGKILL');
      }
      expect(out).to.not.include(TOKEN);
      const journal = new SqliteJournal({ path: journalPath });
      try {
        expect(journal.runs().map((r) => r.exitReason)).to.deep.equal(['console: e2e stop']);
      } finally {
        journal.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
