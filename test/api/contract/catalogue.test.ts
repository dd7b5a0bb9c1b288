/** Shape of every contract catalogue entry, its example, and the wire form of its request. */
import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { CONTRACT_PERMISSIONS } from '../../../src/domain/contract-enums.js';
import { expandPath, type EndpointDef } from '../../../src/api/endpoint.js';
import {
  contractCatalogue,
  contractEndpoints,
  type ContractMethod,
  type ContractRequestInput,
  type ContractResponse,
  type ContractWireRequest,
} from '../../../src/api/contract/catalogue.js';

const entries = Object.entries(contractCatalogue) as [ContractMethod, EndpointDef][];
const keysWhere = (pred: (d: EndpointDef) => boolean) =>
  entries
    .filter(([, d]) => pred(d))
    .map(([k]) => k)
    .sort();

/** Query strings carry text only: every value becomes its string form. */
const asQueryStrings = (o: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );

// ---- compile-time checks: the catalogue keeps precise types per entry ----
const createInput: ContractRequestInput<'createOrder'> = {
  symbol: 'BTC_USDT',
  price: new Decimal('1'),
  vol: '2',
  side: 1,
  type: 5,
  openType: '2',
  leverage: 3,
};
// @ts-expect-error side 9 is not a side
const badSide: ContractRequestInput<'createOrder'> = { symbol: 'BTC_USDT', price: 1, vol: 1, side: 9, type: 1, openType: 1 };
const wireCreate: ContractWireRequest<'createOrder'> = { symbol: 'BTC_USDT', price: 1, vol: 2, side: 1, type: 5, openType: 2 };
const cancelBody: ContractWireRequest<'cancelOrders'> = ['1', '2'];
const createdId: ContractResponse<'createOrder'>['orderId'] = 'x';
const orderPrice = (o: ContractResponse<'getOrder'>): Decimal => o.price;
void [createInput, badSide, wireCreate, cancelBody, createdId, orderPrice];

describe('contract catalogue: entries', () => {
  it('has_88_entries_keyed_by_client_method', () => {
    // 78 rows of §4 + 8 trigger / stop endpoints + 2 fill queries from the real exchange (doc-coverage.test)
    expect(entries).to.have.length(88);
    expect(contractEndpoints).to.have.length(88);
    for (const [key, d] of entries) {
      expect(d.clientMethod, key).to.equal(key);
      expect(d.id, key).to.equal(`contract.${key}`);
      expect(d.api, key).to.equal('contract');
      expect(d.envelope, key).to.equal('contract');
      expect(d.weight, key).to.equal(1);
      expect(d.buckets, key).to.deep.equal(['contract-endpoint']);
      expect(d.summary.length, key).to.be.greaterThan(0);
    }
  });

  it('has_unique_method_and_path', () => {
    const seen = new Set(entries.map(([, d]) => `${d.method} ${d.path}`));
    expect(seen.size).to.equal(entries.length);
  });

  it('marks_public_and_signed_endpoints_by_path', () => {
    for (const [key, d] of entries) {
      if (d.path.startsWith('/api/v1/contract/')) {
        expect([d.auth, d.permission, d.method], key).to.deep.equal(['public', undefined, 'GET']);
      } else {
        expect(d.path.startsWith('/api/v1/private/'), key).to.equal(true);
        expect(d.auth, key).to.equal('signed');
        expect(CONTRACT_PERMISSIONS as readonly string[], key).to.include(d.permission);
      }
    }
  });

  it('gives_account_read_to_4_2_and_order_permissions_by_method_elsewhere', () => {
    for (const [key, d] of entries) {
      if (d.auth === 'public') continue;
      if (d.section === '4.2') expect(d.permission, key).to.equal('ACCOUNT_READ');
      else if (d.method === 'GET' || key === 'batchQueryWithExternal' || key === 'openOrderTotalCount')
        expect(d.permission, key).to.equal('ORDER_READ');
      else expect(d.permission, key).to.equal('ORDER_PLACE');
    }
  });

  it('encodes_get_as_query_and_post_as_json', () => {
    for (const [key, d] of entries) {
      if (d.method === 'GET' || d.method === 'DELETE') expect(['query', 'none'], key).to.include(d.encoding);
      else expect(['json', 'json-array', 'none'], key).to.include(d.encoding);
    }
  });

  it('sends_bare_arrays_exactly_where_the_venue_takes_them', () => {
    expect(keysWhere((d) => d.encoding === 'json-array')).to.deep.equal(
      [
        'batchCancelWithExternal',
        'batchQueryWithExternal',
        'cancelOrders',
        'cancelPlanOrders',
        'cancelStopOrders',
        'cancelWithExternal',
        'submitBatch',
      ].sort(),
    );
  });

  it('marks_every_order_creating_endpoint_as_placement', () => {
    expect(keysWhere((d) => d.placement === true)).to.deep.equal(
      [
        'closeAll',
        'createOrder',
        'placePlanOrder',
        'placePlanOrderV2',
        'placeStopOrder',
        'placeTrackOrder',
        'reversePosition',
        'submitBatch',
      ].sort(),
    );
  });

  it('marks_market_maker_only_endpoints', () => {
    expect(keysWhere((d) => d.marketMakerOnly === true)).to.deep.equal(
      ['createStpBlacklist', 'deleteStpBlacklist', 'searchStpBlacklist', 'stpBlacklist', 'submitBatch', 'updateStpBlacklist'].sort(),
    );
  });

  it('requires_the_timezone_header_on_export_only', () => {
    expect(keysWhere((d) => d.requiredHeaders !== undefined)).to.deep.equal(['exportAnalysis']);
    expect(contractCatalogue.exportAnalysis.requiredHeaders).to.deep.equal(['timezone-login']);
  });

  it('declares_path_params_as_the_placeholders_of_the_path', () => {
    for (const [key, d] of entries) {
      const placeholders = [...d.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect([...d.pathParams], key).to.deep.equal(placeholders);
    }
  });

  it('parses_every_example_with_its_own_request_schema', () => {
    for (const [key, d] of entries) {
      const r = d.request.safeParse(d.example);
      expect(r.success, `${key}: ${JSON.stringify(r.error?.issues)}`).to.equal(true);
    }
  });

  it('accepts_its_own_wire_output_again', () => {
    for (const [key, d] of entries) {
      const wire = d.request.parse(d.example) as unknown;
      // the emulator sees query values as strings and JSON bodies as parsed JSON
      const seen = d.encoding === 'query' ? asQueryStrings(wire as Record<string, unknown>) : (JSON.parse(JSON.stringify(wire)) as unknown);
      const again = d.request.safeParse(seen);
      expect(again.success, `${key}: ${JSON.stringify(again.error?.issues)}`).to.equal(true);
      expect(again.data, key).to.deep.equal(wire);
    }
  });

  it('outputs_flat_query_values_and_array_bodies', () => {
    for (const [key, d] of entries) {
      const wire = d.request.parse(d.example) as unknown;
      if (d.encoding === 'json-array') expect(Array.isArray(wire), key).to.equal(true);
      else expect(typeof wire === 'object' && wire !== null && !Array.isArray(wire), key).to.equal(true);
      if (d.encoding === 'query') {
        for (const [name, v] of Object.entries(wire as Record<string, unknown>)) {
          expect(['string', 'number', 'boolean'], `${key}.${name}`).to.include(typeof v);
        }
      }
      if (d.encoding === 'none') expect(wire, key).to.deep.equal({});
    }
  });

  it('takes_no_argument_for_parameterless_endpoints', () => {
    for (const [key, d] of entries) {
      if (d.encoding !== 'none') continue;
      expect(d.request.parse(undefined), key).to.deep.equal({});
      expect(d.request.safeParse({ unexpected: 1 }).success, key).to.equal(false);
    }
  });

  it('expands_path_params_from_the_wire_request', () => {
    expect(
      expandPath(contractCatalogue.depthCommits, contractCatalogue.depthCommits.request.parse({ symbol: 'BTC_USDT', limit: '10' })),
    ).to.equal('/api/v1/contract/depth_commits/BTC_USDT/10');
    expect(expandPath(contractCatalogue.getOrder, contractCatalogue.getOrder.request.parse({ orderId: 102015012431820288n }))).to.equal(
      '/api/v1/private/order/get/102015012431820288',
    );
    for (const [key, d] of entries) {
      if (d.pathParams.length === 0) continue;
      const path = expandPath(d, d.request.parse(d.example) as Record<string, unknown>);
      expect(path, key).to.not.contain('{');
    }
  });

  it('writes_a_note_wherever_the_document_is_open_or_not_followed_literally', () => {
    for (const key of [
      'historyOrders',
      'changeStopPrice',
      'createOrder',
      'submitBatch',
      'cancelOrders',
      'exportAnalysis',
      'kline',
      'openOrderTotalCount',
      'changeRiskLevel',
    ] as const) {
      expect(contractCatalogue[key].notes, key).to.be.a('string').and.not.equal('');
    }
  });
});
