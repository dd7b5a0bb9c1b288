/**
 * A Redis for the distributed-sweep tests: the one CI started (PERPETUA_TEST_REDIS, see .ci/run), or
 * a private redis-server on a free 127.0.0.1 port when the binary is installed, or nothing (the
 * tests skip and say why: a user's machine without Redis).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export interface TestRedis {
  readonly url: string;
  stop(): Promise<void>;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

const answersPing = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('error', () => resolve(false));
    c.once('connect', () => c.write('PING\r\n'));
    c.once('data', (d) => {
      c.destroy();
      resolve(String(d).startsWith('+PONG'));
    });
  });

/** Why there is no Redis to test with, or the Redis. */
export async function startTestRedis(): Promise<TestRedis | string> {
  const given = process.env['PERPETUA_TEST_REDIS'];
  if (given) return { url: given, stop: async () => {} };
  if (spawnSync('redis-server', ['--version']).status !== 0)
    return 'no redis-server binary (apt-get install -y redis-server); .ci/run installs one';
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  // A condition wait: redis-server takes a few milliseconds to listen.
  for (let i = 0; i < 100 && !(await answersPing(port)); i++) await delay(50);
  if (!(await answersPing(port))) {
    child.kill('SIGKILL');
    return `redis-server did not answer on 127.0.0.1:${port}`;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
