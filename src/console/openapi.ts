/**
 * The OpenAPI 3.1 description of the console API, built from the route table: request parameters,
 * query and body come from the very zod schemas that validate them (zod's own JSON Schema output).
 */
import { z } from 'zod';
import { API_ROUTES, errorAnswer, type ApiRoute } from './api-routes.js';

type JsonSchema = Record<string, unknown>;

const toJson = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

function parameters(route: ApiRoute): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = toJson(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      const required = where === 'path' || (json.required ?? []).includes(name);
      out.push({ name, in: where, required, ...(prop.description ? { description: prop.description } : {}), schema: prop });
    }
  }
  return out;
}

/** The API's own version (not the package's): bumped when a route or schema changes incompatibly. */
export const CONSOLE_API_VERSION = '1';

/** docs/console-openapi.json, as `npm run docs` writes it. */
export function renderConsoleOpenApi(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

export function openApiDocument(version = CONSOLE_API_VERSION): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const text = (type: string): JsonSchema => ({ description: type, content: { [type]: { schema: { type: 'string' } } } });
  const error = { description: 'Refused', content: { 'application/json': { schema: toJson(errorAnswer, 'output') } } };
  for (const r of API_ROUTES) {
    const op: JsonSchema = {
      summary: r.summary,
      operationId: r.method.toLowerCase() + r.path.replace(/[{}]/g, '').replace(/(^|[/-])([a-z])/g, (_m, _s, c: string) => c.toUpperCase()),
      parameters: parameters(r),
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: toJson(r.body, 'input') } } } } : {}),
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: toJson(r.response, 'output') } } },
        400: error,
        401: error,
        ...(r.params ? { 404: error } : {}),
      },
    };
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  paths['/api/stream'] = {
    get: {
      summary: 'Server-sent events: `event` (an execution event in short) and `sample` (equity, drawdown, mids each second).',
      operationId: 'getApiStream',
      responses: { 200: text('text/event-stream'), 401: error },
    },
  };
  paths['/metrics'] = {
    get: {
      summary: 'Prometheus metrics (text exposition format).',
      operationId: 'getMetrics',
      responses: { 200: text('text/plain'), 401: error },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Perpetua console API',
      version,
      description: 'Watching and steering a running bot. Every /api and /metrics request carries `Authorization: Bearer <token>`.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
}
