import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointRows, renderEndpointsMarkdown } from '../../src/app/endpoints-report.js';
import { renderAllConfigReference } from '../../src/app/write-docs.js';
import { servedEndpointIds } from '../../src/emulator/served-endpoints.js';

// Tests run from the project root (npm test); the CLI is the compiled one beside this test.
const ROOT = process.cwd();
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'app', 'cli.js');

describe('generated documents', () => {
  it('docs_endpoints_md_is_what_the_catalogue_generates', () => {
    const committed = readFileSync(join(ROOT, 'docs', 'endpoints.md'), 'utf8');
    expect(committed, 'run `npm run docs` and commit docs/endpoints.md').to.equal(renderEndpointsMarkdown(endpointRows(), servedEndpointIds()));
  });

  it('docs_config_reference_md_is_what_the_schemas_generate', () => {
    const committed = readFileSync(join(ROOT, 'docs', 'config-reference.md'), 'utf8');
    expect(committed, 'run `npm run docs` and commit docs/config-reference.md').to.equal(renderAllConfigReference());
  });

  it('every_endpoint_of_both_documents_has_a_client_method_and_is_served', () => {
    const rows = endpointRows();
    const served = servedEndpointIds();
    expect(rows.filter((r) => r.api === 'spot')).to.have.length(34);
    expect(rows.filter((r) => !served.has(r.id)).map((r) => r.id)).to.deep.equal([]);
    expect(new Set(rows.map((r) => r.clientMethod)).size).to.equal(rows.length);
  });

  it('perpetua_endpoints_json_lists_the_catalogue', function () {
    // The CLI as a user runs it; only when the build output exists (npm test builds it first).
    let out: string;
    try {
      out = execFileSync(process.execPath, [CLI, 'endpoints', '--json'], { encoding: 'utf8' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || String(e).includes('Cannot find module')) this.skip();
      throw e;
    }
    const rows = JSON.parse(out) as { id: string; method: string; path: string }[];
    expect(rows.map((r) => r.id)).to.deep.equal(endpointRows().map((r) => r.id));
    expect(rows.find((r) => r.id === 'spot.newOrder')).to.include({ method: 'POST', path: '/api/v3/order' });
  });
});
