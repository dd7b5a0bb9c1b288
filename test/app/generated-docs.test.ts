import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointRows, renderEndpointsMarkdown } from '../../src/app/endpoints-report.js';
import { renderAllConfigReference } from '../../src/app/write-docs.js';

// Tests run from the project root (npm test); the CLI is the compiled one beside this test.
const ROOT = process.cwd();
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'app', 'cli.js');

describe('generated documents', () => {
  it('docs_endpoints_md_is_what_the_catalogue_generates', () => {
    const committed = readFileSync(join(ROOT, 'docs', 'endpoints.md'), 'utf8');
    expect(committed, 'run `npm run docs` and commit docs/endpoints.md').to.equal(renderEndpointsMarkdown(endpointRows()));
  });

  it('docs_config_reference_md_is_what_the_schemas_generate', () => {
    const committed = readFileSync(join(ROOT, 'docs', 'config-reference.md'), 'utf8');
    expect(committed, 'run `npm run docs` and commit docs/config-reference.md').to.equal(renderAllConfigReference());
  });

  it('every_endpoint_of_both_documents_has_a_client_method', () => {
    // That each one is served (has an emulator handler) is asserted by the catalogue conformance test.
    const rows = endpointRows();
    // 34 rows of spot-api.md §4 + GET /api/v3/historicalTrades beyond it (issue 14).
    expect(rows.filter((r) => r.api === 'spot' && r.beyondDocuments === null)).to.have.length(34);
    expect(rows.filter((r) => r.api === 'spot')).to.have.length(35);
    expect(new Set(rows.map((r) => r.clientMethod)).size).to.equal(rows.length);
  });

  it('marks_every_endpoint_beyond_the_documents_and_says_which_side_each_divergence_follows', () => {
    const md = renderEndpointsMarkdown(endpointRows());
    const beyond = md.slice(md.indexOf('## Beyond the two documents'), md.indexOf('## Where the documents and the real exchange differ'));
    const extras = endpointRows().filter((r) => r.beyondDocuments !== null);
    // issue 14 item 7: the three real-client endpoints are among them, with a client method each.
    for (const path of [
      '/api/v3/historicalTrades',
      '/api/v1/private/order/list/order_deals',
      '/api/v1/private/order/deal_details/{order_id}',
    ]) {
      const row = extras.find((r) => r.path === path);
      expect(row, path).to.not.equal(undefined);
      expect(beyond).to.contain(`\`${path}\` | \`${row!.clientMethod}\``);
    }
    expect(beyond.split('\n').filter((l) => l.startsWith('| GET') || l.startsWith('| POST'))).to.have.length(extras.length);
    const differ = md.slice(md.indexOf('## Where the documents and the real exchange differ'));
    const lines = differ.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| place'));
    expect(lines.length).to.be.at.least(10);
    for (const l of lines) expect(l.split(' | ')[3], l).to.be.oneOf(['real exchange', 'document', 'both']);
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
