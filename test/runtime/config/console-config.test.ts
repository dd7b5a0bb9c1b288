/**
 * The console's configuration and description: off by default and bound to loopback when on, the
 * token taken from the environment (refused when missing or short, without echoing it), and the
 * OpenAPI document carrying the same constraints the zod schemas enforce on requests.
 */
import { expect } from 'chai';
import { consoleSchema } from '../../../src/runtime/config/console-config.js';
import { API_ROUTES, confirmBody, limitQuery } from '../../../src/console/api-routes.js';
import { openApiDocument, renderConsoleOpenApi } from '../../../src/console/openapi.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../support/project-root.js';
import { consoleToken } from '../../../src/console/start-console.js';
import { runConfigSchema } from '../../../src/runtime/config/run-config-schema.js';
import { ConfigError } from '../../../src/core/errors.js';

const baseDoc = {
  mode: 'paper',
  paper: { emulatorUrl: 'http://127.0.0.1:1' },
  venue: { apiKey: 'demo-key-0001', apiSecret: 'demo-secret-0001' },
  instruments: ['BTCUSDT'],
  strategies: [{ id: 'a', name: 'x', instruments: ['BTCUSDT'], params: {} }],
};

describe('console/console-config', () => {
  it('is_off_by_default_and_binds_loopback_when_on', () => {
    expect(runConfigSchema.parse(baseDoc).console).to.equal(undefined);
    const on = runConfigSchema.parse({ ...baseDoc, console: { port: 8080 } }).console!;
    expect(on).to.deep.equal({ port: 8080, host: '127.0.0.1', tokenEnv: 'PERPETUA_CONSOLE_TOKEN' });
    const bad = runConfigSchema.safeParse({ ...baseDoc, console: { port: 70000, tokenEnv: 'lower' } });
    expect(bad.success).to.equal(false);
    expect(bad.error!.issues.map((i) => i.path.join('.')).sort()).to.deep.equal(['console.port', 'console.tokenEnv']);
  });

  it('takes_the_token_from_the_environment_and_never_echoes_it', () => {
    const cfg = consoleSchema.parse({ port: 0, tokenEnv: 'MY_TOKEN' });
    expect(consoleToken(cfg, { MY_TOKEN: 'a-long-enough-token-1' })).to.equal('a-long-enough-token-1');
    expect(() => consoleToken(cfg, {}))
      .to.throw(ConfigError, 'console.tokenEnv: expected the environment variable MY_TOKEN')
      .and.match(/not set/);
    try {
      consoleToken(cfg, { MY_TOKEN: 'short-secret' });
      expect.fail('a short token was accepted');
    } catch (e) {
      expect((e as Error).message).to.include('too short');
      expect((e as Error).message).to.not.include('short-secret');
    }
  });

  it('describes_every_route_with_the_constraints_its_schemas_enforce', () => {
    const doc = openApiDocument('1.0') as { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(doc.openapi).to.equal('3.1.0');
    for (const r of API_ROUTES) expect(doc.paths[r.path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).to.be.an('object');
    type Body = { schema: { required: string[]; properties: Record<string, { const?: unknown }> } };
    type Param = { name: string; in: string; required: boolean; schema: { pattern: string; minimum: number; maximum: number } };
    type Op = { parameters: Param[] };
    const pause = doc.paths['/api/strategies/{id}/pause']!.post! as Op & { requestBody: { content: { 'application/json': Body } } };
    const body = pause.requestBody.content['application/json'].schema;
    expect(body.required).to.deep.equal(['confirm']);
    expect(body.properties.confirm!.const).to.equal(true);
    // The documented constraint and the validator agree on the edges.
    expect(confirmBody.safeParse({ confirm: true }).success).to.equal(true);
    expect(confirmBody.safeParse({ confirm: false }).success).to.equal(false);
    const id = pause.parameters.find((p) => p.name === 'id' && p.in === 'path')!;
    expect(new RegExp(id.schema.pattern).test('mm1')).to.equal(true);
    const fills = doc.paths['/api/fills']!.get! as Op;
    const limit = fills.parameters.find((p) => p.name === 'limit')!;
    expect(limit).to.include({ in: 'query', required: false });
    expect([limit.schema.minimum, limit.schema.maximum]).to.deep.equal([1, 1000]);
    expect(limitQuery.safeParse({ limit: '1000' }).success).to.equal(true);
    expect(limitQuery.safeParse({ limit: '1001' }).success).to.equal(false);
  });

  it('docs_console_openapi_json_is_what_the_routes_generate', () => {
    const committed = readFileSync(join(PROJECT_ROOT, 'docs', 'console-openapi.json'), 'utf8');
    expect(committed, 'run `npm run docs` and commit docs/console-openapi.json').to.equal(renderConsoleOpenApi());
  });
});
