/**
 * Transport limits of the emulator's HTTP front (issue 10, defect 5), tried with raw sockets on
 * 127.0.0.1: before them a POST announcing 50 bytes and sending 3 was held open for 70 s, and 300
 * slow-drip sockets all stayed open. The limits are configured short so each case takes about a second.
 */
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { SystemClock } from '../../src/core/clock.js';
import { ConfigError } from '../../src/core/errors.js';
import { parseEmulatorConfig } from '../../src/emulator/emulator-config.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { testConfig } from './support/emulator-kit.js';

const clock = new SystemClock();

interface Probe {
  readonly socket: Socket;
  /** Everything the server sent. */
  received(): string;
  /** Resolves with ms from open to close, or 'open' if still open after `ms`. */
  closedWithin(ms: number): Promise<number | 'open'>;
}

function open(port: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const t0 = clock.now();
    let data = '';
    let closedAt: number | undefined;
    const socket = connect(port, '127.0.0.1');
    socket.on('data', (b) => (data += b.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => (closedAt = clock.now()));
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => data,
        async closedWithin(ms) {
          const until = clock.now() + ms;
          while (closedAt === undefined && clock.now() < until) await clock.sleep(20);
          return closedAt === undefined ? 'open' : closedAt - t0;
        },
      }),
    );
    socket.once('error', reject);
  });
}

/** Writes one byte every `everyMs` until the socket closes (a slow-drip client). */
function drip(s: Socket, everyMs: number): void {
  const tick = (): void => {
    if (s.destroyed || !s.writable) return;
    s.write('a');
    void clock.sleep(everyMs).then(tick);
  };
  tick();
}

describe('emulator transport limits', function () {
  this.timeout(20_000);
  let emu: RunningEmulator;
  const sockets: Socket[] = [];
  const probe = async (): Promise<Probe> => {
    const p = await open(emu.port);
    sockets.push(p.socket);
    return p;
  };

  before(async () => {
    emu = await startEmulator(
      testConfig({
        clock: { mode: 'system' },
        rateLimits: { enabled: false },
        limits: { headersTimeoutMs: 400, requestTimeoutMs: 1200, bodyTimeoutMs: 300, maxConnectionsPerClient: 50 },
      }),
      { marketStopped: true },
    );
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.destroy();
  });
  after(async () => {
    await emu.stop();
  });

  it('answers_408_and_closes_a_post_that_announces_50_bytes_and_sends_3', async () => {
    const p = await probe();
    p.socket.write(
      'POST /api/v3/order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 50\r\n\r\nsym',
    );
    // The body stalls: cut after bodyTimeoutMs (300), give or take the event loop; before: open for 70 s.
    const ms = await p.closedWithin(3000);
    expect(ms, 'closed').to.not.equal('open');
    expect(p.received()).to.match(/^HTTP\/1\.1 408 /);
    expect(p.received()).to.match(/[Cc]onnection: close/);
  });

  it('closes_a_connection_whose_headers_drip_in', async () => {
    const p = await probe();
    p.socket.write('GET /api/v3/time HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    // A byte every 100 ms: never idle, never done. Cut after headersTimeoutMs (400) plus node's check interval.
    drip(p.socket, 100);
    const ms = await p.closedWithin(3000);
    expect(ms, 'closed').to.not.equal('open');
    expect(ms as number).to.be.below(2500);
  });

  it('closes_a_request_whose_body_drips_in_for_longer_than_the_request_deadline', async () => {
    const p = await probe();
    p.socket.write(
      'POST /api/v3/order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n',
    );
    // A byte every 100 ms is never idle for the 300 ms body limit; the whole request (1200 ms) still ends it.
    drip(p.socket, 100);
    const ms = await p.closedWithin(5000);
    expect(ms, 'closed').to.not.equal('open');
    expect(ms as number).to.be.at.least(1000);
  });

  it('closes_a_connection_that_never_sends_a_byte', async () => {
    const p = await probe();
    // Silent from the start: closed after headersTimeoutMs (400) instead of held for ever.
    const ms = await p.closedWithin(3000);
    expect(ms, 'closed').to.not.equal('open');
    expect(ms as number).to.be.at.least(350);
  });

  it('holds_at_most_the_cap_of_connections_per_client_and_serves_again_when_some_close', async () => {
    // Long deadlines here, so what closes the sockets can only be the cap.
    const capped = await startEmulator(
      testConfig({
        clock: { mode: 'system' },
        rateLimits: { enabled: false },
        limits: { headersTimeoutMs: 10_000, requestTimeoutMs: 20_000, maxConnectionsPerClient: 50 },
      }),
      { marketStopped: true },
    );
    try {
      const at = async (): Promise<Probe> => {
        const p = await open(capped.port);
        sockets.push(p.socket);
        return p;
      };
      // 300 slow-drip sockets from one address: 50 are admitted, the other 250 are closed at once.
      const all = await Promise.all(
        Array.from({ length: 300 }, async () => {
          const p = await at();
          p.socket.write('GET /api/v3/time HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
          drip(p.socket, 200);
          return p;
        }),
      );
      const closedCount = async (): Promise<number> =>
        (await Promise.all(all.map((p) => p.closedWithin(0)))).filter((s) => s !== 'open').length;
      const until = clock.now() + 5000;
      while ((await closedCount()) < 250 && clock.now() < until) await clock.sleep(50);
      await clock.sleep(300);
      expect(await closedCount(), 'closed by the cap').to.equal(250);
      // A new connection while 50 are held is refused too.
      const extra = await at();
      expect(await extra.closedWithin(2000)).to.not.equal('open');
      // Once ours close, the same address is served again.
      for (const p of all) p.socket.destroy();
      await clock.sleep(200);
      const p = await at();
      p.socket.write('GET /api/v3/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      const deadline = clock.now() + 3000;
      while (!/\r\n\r\n\{\}/.test(p.received()) && clock.now() < deadline) await clock.sleep(20);
      expect(p.received()).to.match(/^HTTP\/1\.1 200 /);
    } finally {
      for (const s of sockets.splice(0)) s.destroy();
      await capped.stop();
    }
  });

  it('refuses_a_header_deadline_beyond_the_request_deadline_naming_the_field', () => {
    expect(() => parseEmulatorConfig({ limits: { headersTimeoutMs: 5000, requestTimeoutMs: 1000 } }))
      .to.throw(ConfigError)
      .that.satisfies((e: ConfigError) => e.path === 'limits.headersTimeoutMs' && /at most requestTimeoutMs \(1000\)/.test(e.message));
  });
});
