/**
 * Reads §4 of the contract document and checks that every endpoint row has a catalogue entry, and
 * that the entries beyond the document are exactly the documented extras.
 */
import { expect } from 'chai';
import { contractCatalogue } from '../../../src/api/contract/catalogue.js';
import type { EndpointDef } from '../../../src/api/endpoint.js';
import { readText } from './fixture-loader.js';

interface DocRow {
  readonly method: string;
  readonly path: string;
  readonly section: string;
}

/** The two rows whose method and path the document does not show, and the real exchange's path. */
const NOT_SHOWN: readonly { readonly marker: RegExp; readonly method: string; readonly path: string }[] = [
  { marker: /^\|\s*history orders of the user\s*\|.*not shown/, method: 'GET', path: '/api/v1/private/order/list/history_orders' },
  {
    marker: /^Take-profit and stop-loss on an existing limit order: the method and path are not shown/,
    method: 'POST',
    path: '/api/v1/private/stoporder/change_price',
  },
];

/** Catalogue entries that are not rows of §4 (trigger and stop orders from the real exchange). */
const EXTRAS = [
  'POST /api/v1/private/planorder/place',
  'POST /api/v1/private/planorder/place/v2',
  'POST /api/v1/private/planorder/cancel',
  'POST /api/v1/private/planorder/cancel_all',
  'GET /api/v1/private/planorder/list/orders',
  'POST /api/v1/private/stoporder/place',
  'POST /api/v1/private/stoporder/cancel',
  'POST /api/v1/private/stoporder/cancel_all',
  // issue 14: ccxt's swap fetchMyTrades and fetchOrderTrades
  'GET /api/v1/private/order/list/order_deals',
  'GET /api/v1/private/order/deal_details/{order_id}',
].sort();

function endpointRows(markdown: string): { rows: DocRow[]; notShown: number } {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^## 4\. Endpoints/.test(l));
  if (start < 0) throw new Error('§4 not found');
  const endOffset = lines.slice(start + 1).findIndex((l) => /^## /.test(l));
  const body = lines.slice(start + 1, endOffset < 0 ? undefined : start + 1 + endOffset);
  const rows: DocRow[] = [];
  let section = '4';
  let notShown = 0;
  for (const line of body) {
    const heading = /^### (4\.\d+)/.exec(line);
    if (heading) {
      section = heading[1]!;
      continue;
    }
    // 4.1 table rows give only the path: every 4.1 endpoint is a GET
    const bare = /^\|\s*(\/api\/v1\/\S+?)\s*\|/.exec(line);
    if (bare) rows.push({ method: 'GET', path: bare[1]!, section });
    // tables with a method column, bold prose rows (**POST /api/…**) and bullets (- POST /api/…)
    for (const m of line.matchAll(/\b(GET|POST|DELETE) (\/api\/v1\/[A-Za-z0-9_/{}.-]+)/g))
      rows.push({ method: m[1]!, path: m[2]!, section });
    for (const ns of NOT_SHOWN) {
      if (ns.marker.test(line)) {
        rows.push({ method: ns.method, path: ns.path, section });
        notShown++;
      }
    }
  }
  return { rows, notShown };
}

const entries = Object.entries(contractCatalogue) as [string, EndpointDef][];
const byRoute = new Map(entries.map(([k, d]) => [`${d.method} ${d.path}`, { key: k, def: d }]));

describe('contract catalogue: coverage of contract-api.md §4', () => {
  const { rows, notShown } = endpointRows(readText('spec/contract-api.md'));

  it('finds_78_endpoint_rows_including_the_two_not_shown', () => {
    // 4.1: 16, 4.2: 20, 4.3: 8, 4.4: 12, 4.5: 13, 4.6: 4, 4.7: 5
    expect(notShown).to.equal(2);
    const perSection = rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.section]: (acc[r.section] ?? 0) + 1 }), {});
    expect(perSection).to.deep.equal({ '4.1': 16, '4.2': 20, '4.3': 8, '4.4': 12, '4.5': 13, '4.6': 4, '4.7': 5 });
    expect(new Set(rows.map((r) => `${r.method} ${r.path}`)).size).to.equal(78);
  });

  it('has_an_entry_for_every_row_in_the_same_section', () => {
    const missing = rows.filter((r) => !byRoute.has(`${r.method} ${r.path}`)).map((r) => `${r.method} ${r.path}`);
    expect(missing).to.deep.equal([]);
    for (const r of rows) expect(byRoute.get(`${r.method} ${r.path}`)!.def.section, `${r.method} ${r.path}`).to.equal(r.section);
  });

  it('adds_exactly_the_documented_extras', () => {
    const documented = new Set(rows.map((r) => `${r.method} ${r.path}`));
    const extras = [...byRoute.keys()].filter((route) => !documented.has(route)).sort();
    expect(extras).to.deep.equal(EXTRAS);
    for (const route of extras) {
      expect(byRoute.get(route)!.def.notes, route).to.contain("from the real exchange's documentation / fixtures, not a row of §4");
      expect(byRoute.get(route)!.def.beyondDocuments, `${route} says where it comes from`).to.be.a('string').and.not.equal('');
    }
    // …and no entry of the document claims to be beyond it.
    for (const r of rows) expect(byRoute.get(`${r.method} ${r.path}`)!.def.beyondDocuments, `${r.method} ${r.path}`).to.equal(undefined);
  });

  it('notes_the_real_path_of_the_not_shown_rows', () => {
    for (const ns of NOT_SHOWN) {
      const entry = byRoute.get(`${ns.method} ${ns.path}`);
      expect(entry, ns.path).to.not.equal(undefined);
      expect(entry!.def.notes, ns.path).to.contain('not shown').and.contain(ns.path);
    }
  });

  it('finds_bold_and_bullet_rows_too', () => {
    const found = new Set(rows.map((r) => `${r.method} ${r.path}`));
    // prose rows in 4.5, two on one line, and a bullet row in 4.6 / 4.7
    for (const route of [
      'POST /api/v1/private/order/create',
      'POST /api/v1/private/order/cancel_with_external',
      'POST /api/v1/private/order/batch_cancel_with_external',
      'POST /api/v1/private/trackorder/place',
      'GET /api/v1/private/market_maker/self_trade/blacklist/search',
    ]) {
      expect(found.has(route), route).to.equal(true);
    }
  });
});
