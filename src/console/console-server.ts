/**
 * The console's HTTP server (fastify): the web page and its assets (public: they hold no data), the
 * JSON API, a server-sent-events stream and /metrics (all behind the bearer token).
 *
 * The token is compared in constant time through digests; it is never logged, echoed or put in an
 * error. Requests are validated by the route table's zod schemas; a bad one is answered 400 with the
 * field and what was expected, never a crash. The page is served with a Content-Security-Policy that
 * allows nothing outside this origin (inline styles excepted: the chart library sets some).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { IllegalTransition, ValidationError } from '../core/errors.js';
import { API_ROUTES, type RouteContext } from './api-routes.js';
import type { ConsoleMetrics } from './console-metrics.js';
import { openApiDocument } from './openapi.js';
import type { ConsoleReadModel } from './read-model.js';

export interface ConsoleServerOptions {
  readonly model: ConsoleReadModel;
  readonly metrics: ConsoleMetrics;
  readonly token: string;
  readonly control: RouteContext['control'];
  readonly stop: RouteContext['stop'];
  /** The webhook's view for the console's webhook section (absent: none configured). */
  readonly webhook?: RouteContext['webhook'];
}

interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

/** The page's files: shipped in src/console/web, the chart library from node_modules (no CDN). */
function loadAssets(): Map<string, Asset> {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/src/console → the package root holds src/console/web; a source run finds it beside this file.
  const web = [join(here, 'web'), join(here, '..', '..', '..', 'src', 'console', 'web')].find((d) => {
    try {
      readFileSync(join(d, 'index.html'));
      return true;
    } catch {
      return false;
    }
  });
  if (!web) throw new Error('console web files not found (src/console/web)');
  const chartsPackage = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
  const charts = join(dirname(chartsPackage), 'dist', 'lightweight-charts.standalone.production.js');
  return new Map<string, Asset>([
    ['/', { body: readFileSync(join(web, 'index.html')), type: 'text/html; charset=utf-8' }],
    ['/console.js', { body: readFileSync(join(web, 'console.js')), type: 'text/javascript; charset=utf-8' }],
    ['/console.css', { body: readFileSync(join(web, 'console.css')), type: 'text/css; charset=utf-8' }],
    ['/vendor/lightweight-charts.js', { body: readFileSync(charts), type: 'text/javascript; charset=utf-8' }],
  ]);
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function issuesText(where: string, e: z.ZodError): string {
  return e.issues.map((i) => `${[where, ...i.path].join('.')}: ${i.message}`).join('; ');
}

export function buildConsoleServer(o: ConsoleServerOptions): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 16 * 1024 });
  const want = digest(o.token);
  const assets = loadAssets();
  const ctx: RouteContext = { model: o.model, control: o.control, stop: o.stop, ...(o.webhook ? { webhook: o.webhook } : {}) };
  const openapi = openApiDocument();

  const authorised = (req: FastifyRequest): boolean => {
    const h = req.headers.authorization;
    if (typeof h !== 'string' || !h.startsWith('Bearer ')) return false;
    return timingSafeEqual(digest(h.slice('Bearer '.length)), want);
  };

  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0]!;
    if (!path.startsWith('/api/') && path !== '/metrics') return;
    if (!authorised(req)) {
      await reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="perpetua"')
        .send({ error: 'Unauthorized', message: 'expected an Authorization: Bearer <token> header with the console token' });
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    o.metrics.httpLatency.observe({ route, method: req.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.setErrorHandler(async (err: { statusCode?: number; message?: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    // 4xx from fastify itself (bad JSON, wrong content type) say what was wrong; a 5xx says nothing internal.
    const internal = status === 500;
    const message = internal ? 'internal error (see the run log)' : (err.message ?? 'bad request');
    await reply.code(status).send({ error: internal ? 'InternalError' : 'BadRequest', message });
  });
  app.setNotFoundHandler(async (req, reply) => {
    await reply.code(404).send({ error: 'NotFound', message: `no route ${req.method} ${req.url.split('?')[0]}` });
  });

  for (const [path, asset] of assets) {
    app.get(path, async (_req, reply) => {
      await reply
        .header('content-type', asset.type)
        .header('content-security-policy', CSP)
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(asset.body);
    });
  }

  for (const r of API_ROUTES) {
    app.route({
      method: r.method,
      url: r.path.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const input: Record<string, unknown> = {};
        for (const [where, schema, value] of [
          ['params', r.params, req.params],
          ['query', r.query, req.query],
          ['body', r.body, req.body],
        ] as const) {
          if (!schema) continue;
          const parsed = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
          if (!parsed.success) return reply.code(400).send({ error: 'ValidationError', message: issuesText(where, parsed.error) });
          input[where] = parsed.data;
        }
        try {
          return await r.handle(ctx, input as never);
        } catch (e) {
          if (e instanceof ValidationError && e.field === 'strategyId') {
            return reply.code(404).send({ error: 'NotFound', message: e.message });
          }
          if (e instanceof IllegalTransition) return reply.code(409).send({ error: 'Conflict', message: e.message });
          throw e;
        }
      },
    });
  }

  app.get('/api/openapi.json', async () => openapi);
  app.get('/metrics', async (_req, reply) => {
    await reply.header('content-type', o.metrics.contentType).send(await o.metrics.text());
  });
  app.get('/api/stream', (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(': perpetua console stream\n\n');
    const off = o.model.listen((batch) => {
      res.write(batch.map((u) => `event: ${u.kind}\ndata: ${JSON.stringify(u.kind === 'event' ? u.event : u.sample)}\n\n`).join(''));
    });
    req.raw.on('close', off);
  });
  return app;
}
