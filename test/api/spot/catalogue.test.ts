import { expect } from 'chai';
import type { z } from 'zod';
import { weightOf, type EndpointDef, type HttpMethod } from '../../../src/api/endpoint.js';
import { spotCatalogue, SPOT_METHODS } from '../../../src/api/spot/catalogue.js';
import { describeParams, issueReason } from '../../../src/api/spot/params.js';
import { parseOk, specText } from './spot-test-kit.js';

interface SpecRow {
  section: string;
  /** undefined where the document does not settle the method (the add-UID row). */
  method: HttpMethod | undefined;
  path: string;
}

/**
 * Every endpoint row of §4: table rows whose first cell names a path (4.1 rows are GET by the section
 * title), `- METHOD /path:` bullets (4.3) and `**METHOD /path**` headings (4.4). Prose that merely mentions
 * an endpoint ("the parameters are those of POST /api/v3/order") is not a row.
 */
function specRows(md: string): SpecRow[] {
  const start = md.indexOf('## 4. Endpoints');
  const end = md.indexOf('## 5.', start);
  const rows: SpecRow[] = [];
  let section = '';
  for (const line of md.slice(start, end).split('\n')) {
    const heading = /^### (4\.\d)/.exec(line);
    if (heading) {
      section = heading[1]!;
      continue;
    }
    const m =
      /^\|\s*(?:[^|]*?\s)??(?:(GET|POST|DELETE)\s+)?(\/api\/v3\/[^\s|]+)\s*\|/.exec(line) ??
      /^-\s+(GET|POST|DELETE)\s+(\/api\/v3\/\S+?):/.exec(line) ??
      /^\*\*(GET|POST|DELETE)\s+(\/api\/v3\/\S+?)\*\*/.exec(line);
    if (!m) continue;
    const method = (m[1] as HttpMethod | undefined) ?? (section === '4.1' ? 'GET' : undefined);
    rows.push({ section, method, path: m[2]! });
  }
  return rows;
}

const entries = Object.entries(spotCatalogue) as [string, EndpointDef][];
/** Entries of the document; the others must say where they come from (beyondDocuments). */
const documentEntries = entries.filter(([, e]) => e.beyondDocuments === undefined);

describe('spot catalogue', () => {
  describe('coverage of spot-api.md §4', () => {
    const rows = specRows(specText('spot-api.md'));

    it('extracts_every_endpoint_row_of_section_4', () => {
      // Counted by hand in the document: 13 market rows, 6 account rows, 2 deduction bullets,
      // 8 order headings, 5 STP rows = 34.
      const perSection = (s: string) => rows.filter((r) => r.section === s).length;
      expect([perSection('4.1'), perSection('4.2'), perSection('4.3'), perSection('4.4'), perSection('4.5')]).to.deep.equal([
        13, 6, 2, 8, 5,
      ]);
    });

    it('has_exactly_one_entry_per_row_and_none_outside_the_document', () => {
      const unmatched = new Set(documentEntries.map(([k]) => k));
      const take = (row: SpecRow, method: HttpMethod | undefined): string => {
        const hits = documentEntries.filter(
          ([k, e]) => unmatched.has(k) && e.path === row.path && (method === undefined || e.method === method),
        );
        expect(
          hits.map(([k]) => k),
          `row ${row.method ?? '?'} ${row.path}`,
        ).to.have.length(1);
        const [key, def] = hits[0]!;
        expect(def.section, `${key} section`).to.equal(row.section);
        unmatched.delete(key);
        return key;
      };
      // Rows with a settled method first, then the open one takes what remains on its path.
      for (const row of rows.filter((r) => r.method !== undefined)) take(row, row.method);
      for (const row of rows.filter((r) => r.method === undefined)) {
        const key = take(row, undefined);
        expect(spotCatalogue[key as keyof typeof spotCatalogue].notes, `${key} must say which method was chosen`).to.match(/POST/);
      }
      expect([...unmatched], 'entries not in the document').to.deep.equal([]);
      expect(documentEntries).to.have.length(rows.length);
    });

    it('serves_beyond_the_document_only_what_real_clients_call_and_says_where_it_comes_from', () => {
      // issue 14: GET /api/v3/historicalTrades (ccxt fetchTrades, the official SDK) is the only extra.
      const extras = entries.filter(([, e]) => e.beyondDocuments !== undefined);
      expect(extras.map(([, e]) => `${e.method} ${e.path}`)).to.deep.equal(['GET /api/v3/historicalTrades']);
      for (const [, e] of extras) expect(e.beyondDocuments).to.match(/ccxt/);
    });

    it('chooses_post_for_add_uid_as_in_the_request_example', () => {
      expect(spotCatalogue.addStpGroupUid.method).to.equal('POST');
      expect(spotCatalogue.addStpGroupUid.path).to.equal('/api/v3/strategy/group/uid');
    });
  });

  describe('entry declarations', () => {
    it('names_ids_and_client_methods_after_the_key', () => {
      for (const [key, e] of entries) {
        expect(e.id, key).to.equal(`spot.${key}`);
        expect(e.clientMethod, key).to.equal(key);
        expect(e.api, key).to.equal('spot');
      }
      expect(SPOT_METHODS).to.deep.equal(entries.map(([k]) => k));
    });

    it('sends_every_spot_request_in_the_query_string', () => {
      for (const [key, e] of entries) {
        expect(e.encoding, key).to.equal('query');
        expect(e.pathParams, key).to.deep.equal([]);
      }
    });

    it('marks_public_and_signed_endpoints_as_the_document_does', () => {
      for (const [key, e] of entries) {
        if (e.section === '4.1') {
          expect(e.auth, key).to.equal('public');
          expect(e.permission, key).to.equal(undefined);
        } else {
          expect(e.auth, key).to.equal('signed');
          expect(e.permission, key).to.match(/^SPOT_(ACCOUNT|DEAL)_(READ|WRITE)$/);
        }
      }
    });

    it('uses_the_wrapped_envelope_exactly_for_the_E_endpoints', () => {
      const wrapped = entries.filter(([, e]) => e.envelope === 'spot-wrapped').map(([k]) => k);
      expect(wrapped).to.have.members([
        'defaultSymbols',
        'selfSymbols',
        'tradeFee',
        'enablePlatformDeduct',
        'platformDeductStatus',
        'createStpGroup',
        'queryStpGroups',
        'deleteStpGroup',
        'addStpGroupUid',
        'deleteStpGroupUid',
      ]);
      for (const [key, e] of entries) if (!wrapped.includes(key)) expect(e.envelope, key).to.equal('bare');
    });

    it('meters_order_traffic_and_account_reads_in_their_buckets', () => {
      const bucketsOf = (k: keyof typeof spotCatalogue) => [...spotCatalogue[k].buckets].sort();
      expect(bucketsOf('newOrder')).to.deep.equal(['ip-weight', 'spot-orders']);
      expect(bucketsOf('cancelOrder')).to.deep.equal(['ip-weight', 'spot-orders']);
      expect(bucketsOf('cancelOpenOrders')).to.deep.equal(['ip-weight', 'spot-orders']);
      expect(bucketsOf('batchOrders')).to.deep.equal(['ip-weight', 'spot-batch', 'spot-orders']);
      expect(bucketsOf('account')).to.deep.equal(['ip-weight', 'spot-account']);
      const special = new Set(['newOrder', 'cancelOrder', 'cancelOpenOrders', 'batchOrders', 'account']);
      for (const [key, e] of entries) if (!special.has(key)) expect([...e.buckets], key).to.deep.equal(['ip-weight']);
    });

    it('flags_only_order_creating_endpoints_as_placement', () => {
      const placing = entries.filter(([, e]) => e.placement === true).map(([k]) => k);
      expect(placing).to.have.members(['newOrder', 'batchOrders']);
      expect(placing).to.have.length(2);
    });

    it('takes_weights_from_the_document', () => {
      const w = (k: keyof typeof spotCatalogue, p: Record<string, unknown> = {}) => weightOf(spotCatalogue[k], p);
      expect([w('ping'), w('serverTime'), w('defaultSymbols'), w('offlineSymbols'), w('exchangeInfo')]).to.deep.equal([1, 1, 1, 10, 10]);
      expect([w('depth'), w('trades'), w('aggTrades'), w('klines'), w('avgPrice')]).to.deep.equal([1, 5, 1, 1, 1]);
      expect([w('kycStatus'), w('uid'), w('selfSymbols'), w('account'), w('myTrades'), w('tradeFee')]).to.deep.equal([1, 1, 1, 10, 10, 20]);
      expect([w('enablePlatformDeduct'), w('platformDeductStatus'), w('testNewOrder')]).to.deep.equal([1, 1, 1]);
      expect([w('queryOrder'), w('openOrders'), w('allOrders'), w('cancelOpenOrders')]).to.deep.equal([2, 3, 10, 1]);
      for (const k of ['createStpGroup', 'queryStpGroups', 'deleteStpGroup', 'addStpGroupUid', 'deleteStpGroupUid'] as const)
        expect(w(k), k).to.equal(20);
    });

    it('charges_tickers_more_without_a_symbol', () => {
      expect(weightOf(spotCatalogue.ticker24hr, { symbol: 'BTCUSDT' })).to.equal(1);
      expect(weightOf(spotCatalogue.ticker24hr, {})).to.equal(40);
      expect(weightOf(spotCatalogue.tickerPrice, { symbol: 'BTCUSDT' })).to.equal(1);
      expect(weightOf(spotCatalogue.tickerPrice, {})).to.equal(2);
      expect(weightOf(spotCatalogue.bookTicker, { symbol: 'BTCUSDT' })).to.equal(1);
      expect(weightOf(spotCatalogue.bookTicker, { symbol: '' })).to.equal(2);
    });
  });

  describe('request schemas of every entry', () => {
    for (const [key, e] of entries) {
      it(`accepts_its_own_example_${key}`, () => {
        const out = parseOk(e.request, e.example) as Record<string, unknown>;
        for (const [k, v] of Object.entries(out)) expect(v, `${key}.${k}`).to.be.a('string');
      });

      it(`accepts_the_all_string_wire_form_${key}`, () => {
        // The output is the wire form; fed back with the transport parameters the signer adds, it must
        // parse to itself (the emulator parses incoming queries with the same schema).
        const wire = parseOk(e.request, e.example) as Record<string, string>;
        const again = parseOk(e.request, { ...wire, timestamp: '1767205878625', signature: 'ab12' });
        expect(again).to.deep.equal(wire);
      });

      it(`names_an_unknown_parameter_${key}`, () => {
        const r = e.request.safeParse({ ...(e.example as object), quantiy: '1' });
        expect(r.success).to.equal(false);
        expect(r.error!.issues.map((i) => i.path.join('.'))).to.include('quantiy');
      });
    }

    for (const [key, e] of entries.filter(([, d]) => d.auth === 'signed')) {
      it(`limits_recvWindow_to_60000_${key}`, () => {
        const base = e.example as Record<string, unknown>;
        const ok = parseOk(e.request, { ...base, recvWindow: 60000 }) as Record<string, unknown>;
        expect(ok.recvWindow).to.equal('60000');
        const r = e.request.safeParse({ ...base, recvWindow: 60001 });
        expect(r.success).to.equal(false);
        const at = r.error!.issues.find((i) => i.path.join('.') === 'recvWindow');
        expect(at?.message).to.match(/60000/);
      });
    }

    for (const [key, e] of entries.filter(([, d]) => d.auth === 'public')) {
      it(`takes_no_recvWindow_on_public_${key}`, () => {
        const r = e.request.safeParse({ ...(e.example as object), recvWindow: 5000 });
        expect(r.success).to.equal(false);
      });
    }
  });

  describe('typing', () => {
    it('keeps_method_names_and_io_types_precise', () => {
      // Compile-time checks: the lines below would not type-check if the catalogue lost its literal keys or
      // its schema types; at run time they only confirm the values used.
      type NewOrderIn = z.input<typeof spotCatalogue.newOrder.request>;
      type NewOrderOut = z.output<typeof spotCatalogue.newOrder.request>;
      const input: NewOrderIn = { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: 1 };
      // @ts-expect-error the wire output carries strings, not numbers
      const wrong: NewOrderOut = { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: 1 };
      const key: keyof typeof spotCatalogue = 'deleteStpGroupUid';
      // @ts-expect-error not a spot method
      const notKey: keyof typeof spotCatalogue = 'cancelAllOrders';
      expect(spotCatalogue[key].method).to.equal('DELETE');
      expect(parseOk(spotCatalogue.newOrder.request, input)).to.deep.equal({
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'MARKET',
        quantity: '1',
      });
      expect([wrong, notKey]).to.have.length(2);
    });
  });
});

describe('spot request issue reasons and parameter docs', () => {
  const reasons = (schema: z.ZodType, input: unknown) => {
    const r = schema.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${issueReason(i) ?? '?'}`);
  };

  it('tags_a_missing_mandatory_parameter_as_missing', () => {
    expect(reasons(spotCatalogue.depth.request, {})).to.deep.equal(['symbol:missing']);
    expect(reasons(spotCatalogue.cancelOrder.request, { symbol: 'BTCUSDT' })).to.deep.equal(['orderId:missing']);
    expect(reasons(spotCatalogue.batchOrders.request, {})).to.deep.equal(['batchOrders:missing']);
  });

  it('tags_a_market_order_without_amount_as_a_combination_error', () => {
    expect(reasons(spotCatalogue.newOrder.request, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET' })).to.deep.equal([
      'quantity:combination',
    ]);
  });

  it('tags_bad_values_and_unknown_keys', () => {
    // A limit outside its range is a `range` issue: the emulator answers it naming the parameter and range.
    expect(reasons(spotCatalogue.depth.request, { symbol: 'BTCUSDT', limit: 'ten' })).to.deep.equal(['limit:range']);
    expect(reasons(spotCatalogue.depth.request, { symbol: 'BTCUSDT', side: 'x' })).to.deep.equal(['side:unknown']);
    expect(
      reasons(spotCatalogue.newOrder.request, { symbol: 'BTCUSDT', side: 'UP', type: 'LIMIT', quantity: '1', price: '1' }),
    ).to.deep.equal(['side:invalid']);
    expect(reasons(spotCatalogue.ping.request, { symbol: 'BTCUSDT' })).to.deep.equal(['symbol:unknown']);
  });

  it('keeps_the_reason_of_an_issue_inside_a_batch_element', () => {
    const batch = [{ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1' }];
    expect(reasons(spotCatalogue.batchOrders.request, { batchOrders: batch })).to.deep.equal(['batchOrders.0.price:missing']);
  });

  it('describes_the_parameters_of_every_entry_in_wire_order', () => {
    for (const [key, e] of entries) {
      const docs = describeParams(e.request);
      expect(docs, key).to.not.equal(undefined);
      for (const d of docs!) expect(d.expected, `${key}.${d.name}`).to.not.equal('see the catalogue');
      if (e.auth === 'signed') expect(docs!.find((d) => d.name === 'recvWindow')?.required, key).to.equal(false);
    }
    expect(
      describeParams(spotCatalogue.newOrder.request)!
        .filter((d) => d.required)
        .map((d) => d.name),
    ).to.deep.equal(['symbol', 'side', 'type']);
    expect(describeParams(spotCatalogue.ping.request)).to.deep.equal([]);
  });
});
