import Database from 'better-sqlite3';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { VirtualClock } from '../../src/core/clock.js';
import { ResponseBatch } from '../../src/emulator/http/response-batch.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, T0, hmac, testConfig } from './support/emulator-kit.js';

/**
 * Group commit (engine/command-journal.ts, http/response-batch.ts): the commands of one event-loop turn
 * are committed together, and no answer of the turn leaves before that commit — an acknowledged request
 * is durable. What another SQLite connection sees is the independent check: it reads only what is
 * committed, as a restart after a SIGKILL would.
 */
describe('emulator group commit', () => {
  let dir: string;
  let path: string;
  let clock: VirtualClock;
  let emu: RunningEmulator;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emu-group-commit-'));
    path = join(dir, 'paper.sqlite');
    clock = new VirtualClock(T0);
    emu = await startEmulator(testConfig({ persistence: { path }, rateLimits: { enabled: false } }), { clock, marketStopped: true });
  });
  afterEach(async () => {
    await emu.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const orderQuery = (clientId: string) => {
    const q = `symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=80000&newClientOrderId=${clientId}&timestamp=${clock.now()}`;
    return `/api/v3/order?${q}&signature=${hmac(ALICE.secret, q)}`;
  };
  /** Committed spot placements, read through a second connection. */
  const committedPlacements = (): number => {
    const db = new Database(path, { readonly: true });
    try {
      const row = db.prepare("SELECT COUNT(*) AS n FROM commands WHERE target = 'spot' AND method LIKE 'placeOrder%'").get() as {
        n: number;
      };
      return row.n;
    } finally {
      db.close();
    }
  };

  it('has_every_acknowledged_placement_committed_when_its_answer_arrives_sixteen_at_a_time', async () => {
    const before = committedPlacements();
    // 16 requests in flight at once: several are handled in the same turn and committed together.
    const seen = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const res = await request(`${emu.url}${orderQuery(`gc-${i}`)}`, { method: 'POST', headers: { 'X-MEXC-APIKEY': ALICE.apiKey } });
        expect(res.statusCode).to.equal(200);
        await res.body.text();
        // Read at once, before any other request can make the server commit again.
        return committedPlacements();
      }),
    );
    // Each answer found at least the placements answered so far; at the end, all 16 are there.
    const sorted = [...seen].sort((a, b) => a - b);
    sorted.forEach((n, i) => expect(n - before, `answer ${i + 1}`).to.be.at.least(i + 1));
    expect(committedPlacements() - before).to.equal(16);
  });

  it('commits_a_placement_whose_answer_a_fault_drops_without_waiting_for_another_request', async () => {
    emu.faults.inject({ match: 'spot.newOrder', kind: 'drop', times: 1 });
    const before = committedPlacements();
    const controller = new AbortController();
    const pending = request(`${emu.url}${orderQuery('dropped-1')}`, {
      method: 'POST',
      headers: { 'X-MEXC-APIKEY': ALICE.apiKey },
      signal: controller.signal,
    }).catch((e: unknown) => e);
    // Condition wait (no other request to the emulator meanwhile: it would commit for us).
    const deadline = performance.now() + 3000;
    let committed = 0;
    while (performance.now() < deadline && (committed = committedPlacements() - before) === 0) await new Promise((r) => setImmediate(r));
    controller.abort();
    expect(await pending).to.be.instanceOf(Error);
    expect(committed).to.equal(1);
  });
});

describe('emulator response batch', () => {
  let server: Server;
  let port: number;
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function serve(batch: ResponseBatch, onRequest?: (res: ServerResponse) => void): Promise<void> {
    server = createServer((req, res) => {
      req.resume();
      onRequest?.(res);
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 2 });
      batch.end(res, 'ok');
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  }
  const get = (): Promise<{ status: number; body: string } | Error> =>
    new Promise((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', (e) => resolve(e));
      });
      req.on('error', (e) => resolve(e));
      req.end();
    });

  it('runs_beforeEnd_before_any_answer_of_the_turn_is_ended', async () => {
    const responses: ServerResponse[] = [];
    const endedAtCommit: boolean[] = [];
    // Each commit looks at the answers queued since the previous one: none of them may be ended yet.
    let checked = 0;
    const batch = new ResponseBatch({
      beforeEnd: () => {
        endedAtCommit.push(...responses.slice(checked).map((r) => r.writableEnded));
        checked = responses.length;
      },
    });
    await serve(batch, (res) => responses.push(res));
    port = (server.address() as { port: number }).port;
    const answers = await Promise.all([get(), get(), get(), get()]);
    expect(answers).to.deep.equal(Array.from({ length: 4 }, () => ({ status: 200, body: 'ok' })));
    expect(endedAtCommit).to.have.length.at.least(4);
    expect(endedAtCommit.every((ended) => !ended)).to.equal(true);
  });

  it('sends_no_answer_of_the_turn_when_beforeEnd_fails_and_reports_it', async () => {
    const failures: unknown[] = [];
    const batch = new ResponseBatch({
      beforeEnd: () => {
        throw new Error('disk full');
      },
      onFailure: (e) => failures.push(e),
    });
    await serve(batch);
    port = (server.address() as { port: number }).port;
    const answers = await Promise.all([get(), get()]);
    for (const a of answers) expect(a).to.be.instanceOf(Error);
    expect(failures.length).to.be.at.least(1);
    expect((failures[0] as Error).message).to.equal('disk full');
  });
});
