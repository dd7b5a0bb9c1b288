/**
 * An in-process HTTP venue for client tests: listens on 127.0.0.1:0, records every hit, and lets each
 * test decide the answer. Closed in `after()`.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Hit {
  readonly method: string;
  readonly path: string;
  /** Query string as received (still encoded), without the `?`. */
  readonly rawQuery: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Client port of the connection (equal ports = a kept-alive connection was reused). */
  readonly remotePort: number | undefined;
}

export type Handler = (hit: Hit, res: ServerResponse) => void | Promise<void>;

export function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

export class FakeVenue {
  readonly hits: Hit[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    public handler: Handler,
  ) {}

  static async start(handler: Handler = (_h, res) => reply(res, 404, { code: 404, msg: 'no handler' })): Promise<FakeVenue> {
    const server = createServer();
    const venue = new FakeVenue(server, handler);
    server.on('connection', (s: Socket) => {
      venue.sockets.add(s);
      s.on('close', () => venue.sockets.delete(s));
    });
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const hit: Hit = {
          method: req.method ?? 'GET',
          path: q < 0 ? url : url.slice(0, q),
          rawQuery: q < 0 ? '' : url.slice(q + 1),
          query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          remotePort: req.socket.remotePort,
        };
        venue.hits.push(hit);
        Promise.resolve(venue.handler(hit, res)).catch((e: unknown) => {
          if (!res.headersSent) reply(res, 599, { code: -1, msg: `test handler threw: ${String(e)}` });
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return venue;
  }

  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  hitsTo(path: string): Hit[] {
    return this.hits.filter((h) => h.path === path);
  }

  reset(handler?: Handler): void {
    this.hits.length = 0;
    if (handler) this.handler = handler;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Lets pending I/O and promise callbacks run (real event-loop turns). */
export async function settle(turns = 3): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
}
