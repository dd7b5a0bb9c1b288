import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { contractCatalogue } from '../../src/api/contract/catalogue.js';
import { parseJsonKeepingLongInts } from '../../src/core/json-codec.js';
import { expandPath, type EndpointDef } from '../../src/api/endpoint.js';
import { VirtualClock } from '../../src/core/clock.js';
import { FeatureDisabled, OutcomeUnknown, PositionNotFound, ValidationError } from '../../src/core/errors.js';
import { ContractClient } from '../../src/client/contract-client.js';
import { FakeVenue, reply, type Hit } from './support/fake-venue.js';
import { drive, FAR_DEADLINE_MS, rejectionOf } from './support/drive.js';
import { CONTRACT_PAYLOADS, contractBody } from './support/contract-payloads.js';
import { fixtureText } from './support/fixtures.js';

const API_KEY = 'mx0vglContractTestKey';
const SECRET = 'contract-secret-7f1d9b3c2a4e6f8091a2b3c4d5e6f708';
const T0 = 1_767_204_000_000;

/** Independent paramString of a GET/DELETE: decoded query pairs, sorted by key, `k=v` joined by `&`. */
function paramStringOf(hit: Hit): string {
  if (hit.method === 'POST') return hit.body;
  return [...hit.query.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}

function expectValidContractSignature(hit: Hit, requestTime: number): void {
  expect(hit.headers['apikey']).to.equal(API_KEY);
  expect(hit.headers['request-time']).to.equal(String(requestTime));
  const expected = createHmac('sha256', SECRET)
    .update(`${API_KEY}${requestTime}${paramStringOf(hit)}`)
    .digest('hex');
  expect(hit.headers['signature']).to.equal(expected);
}

const queryForm = (v: unknown): string => (Array.isArray(v) ? v.join(',') : String(v));

const methodOf = (client: ContractClient, name: string) =>
  (client as unknown as Record<string, (req?: unknown, opts?: unknown) => Promise<unknown>>)[name]!;

describe('client/contract-client', () => {
  let venue: FakeVenue;
  const clients: ContractClient[] = [];
  const newClient = (clock: VirtualClock, extra: Partial<ConstructorParameters<typeof ContractClient>[0]> = {}): ContractClient => {
    const c = new ContractClient({
      baseUrl: venue.baseUrl,
      credentials: { apiKey: API_KEY, secretKey: SECRET },
      clock,
      timeSync: false,
      timeouts: { requestMs: FAR_DEADLINE_MS },
      ...extra,
    });
    clients.push(c);
    return c;
  };

  before(async () => {
    venue = await FakeVenue.start();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  after(async () => {
    await venue.close();
  });

  describe('every catalogue entry', () => {
    for (const [method, def] of Object.entries(contractCatalogue) as [string, EndpointDef][]) {
      it(`sends_${method}_as_documented_and_parses_the_answer`, async () => {
        // arrange
        const clock = new VirtualClock(T0);
        const client = newClient(clock);
        const body = contractBody(method);
        venue.reset((_hit, res) => reply(res, 200, body));
        const headers: Record<string, string> = {};
        for (const h of def.requiredHeaders ?? []) headers[h] = 'UTC+08:00';
        // act
        const result = await methodOf(client, method)(def.example, { headers });
        // assert: one request with the right method and path (path parameters expanded)
        expect(venue.hits.length).to.equal(1);
        const hit = venue.hits[0]!;
        const wire = def.request.parse(def.example) as unknown;
        const params = Array.isArray(wire) ? {} : { ...(wire as Record<string, unknown>) };
        expect(hit.method).to.equal(def.method);
        expect(hit.path).to.equal(def.pathParams.length ? expandPath(def, params) : def.path);
        for (const p of def.pathParams) delete params[p];
        for (const h of def.requiredHeaders ?? []) expect(hit.headers[h.toLowerCase()]).to.equal('UTC+08:00');
        // parameters where the encoding says
        if (def.method === 'GET') {
          const expected = Object.fromEntries(
            Object.entries(params)
              .filter(([, v]) => v !== undefined && v !== null)
              .map(([k, v]) => [k, queryForm(v)]),
          );
          expect(Object.fromEntries(hit.query)).to.deep.equal(expected);
          expect(hit.body).to.equal('');
        } else if (def.encoding === 'json' || def.encoding === 'json-array') {
          expect(hit.headers['content-type']).to.equal('application/json');
          expect(parseJsonKeepingLongInts(hit.body)).to.deep.equal(JSON.parse(JSON.stringify(Array.isArray(wire) ? wire : params)));
          expect(hit.rawQuery).to.equal('');
        } else {
          expect(hit.body).to.equal('');
        }
        if (def.auth === 'signed') expectValidContractSignature(hit, T0);
        else expect(hit.headers['apikey']).to.equal(undefined);
        // the data went through the entry's response schema, long ids intact
        const data = (parseJsonKeepingLongInts(body) as { data?: unknown }).data;
        expect(result).to.deep.equal(def.response.parse(data));
      });
    }

    it('has_an_answer_for_every_entry', () => {
      expect(Object.keys(CONTRACT_PAYLOADS).sort()).to.deep.equal(Object.keys(contractCatalogue).sort());
    });
  });

  describe('validation before sending', () => {
    const cases: [string, string, unknown, string, Record<string, string>?][] = [
      ['bad_symbol', 'depth', { symbol: 'BTCUSDT' }, 'symbol'],
      ['missing_path_param', 'getOrder', {}, 'orderId'],
      ['bad_enum_code', 'createOrder', { ...contractCatalogue.createOrder.example, side: 7 }, 'side'],
      ['non_positive_decimal', 'createOrder', { ...contractCatalogue.createOrder.example, price: '-1' }, 'price'],
      ['too_many_ids', 'cancelOrders', Array.from({ length: 51 }, (_, i) => String(1_000_000 + i)), 'orderIds'],
      ['unknown_param', 'openOrders', { page_num: 1, page_size: 20, pageNum: 1 }, 'pageNum'],
      ['missing_required_header', 'exportAnalysis', contractCatalogue.exportAnalysis.example, 'header timezone-login'],
    ];
    for (const [family, method, input, field] of cases) {
      it(`refuses_${family}_without_sending`, async () => {
        const client = newClient(new VirtualClock(T0));
        venue.reset((_h, res) => reply(res, 200, { success: true, code: 0 }));
        const err = await rejectionOf(methodOf(client, method)(input));
        expect(err).to.be.instanceOf(ValidationError);
        expect((err as ValidationError).field).to.equal(field);
        expect(venue.hits.length).to.equal(0);
      });
    }
  });

  describe('answers and errors', () => {
    it('keeps_long_order_ids_of_the_cancel_answer_exact', async () => {
      const client = newClient(new VirtualClock(T0));
      venue.reset((_h, res) => reply(res, 200, fixtureText('contract_POST_api_v1_private_order_cancel.json')));
      const results = await client.cancelOrders(['101716841474621953', '108885377779302912']);
      // JSON.parse would have turned 101716841474621953 into 101716841474621950
      expect(results.map((r) => String(r.orderId))).to.deep.equal(['101716841474621953', '108885377779302912', '108886241042563584']);
      expect(venue.hits[0]!.body).to.equal('["101716841474621953","108885377779302912"]');
    });

    it('maps_the_venue_code_of_a_failed_envelope', async () => {
      const client = newClient(new VirtualClock(T0));
      venue.reset((_h, res) => reply(res, 200, fixtureText('contract_ERROR_2009_position_not_exist.json')));
      const err = await rejectionOf(client.changeMargin(contractCatalogue.changeMargin.example));
      expect(err).to.be.instanceOf(PositionNotFound);
      expect((err as PositionNotFound).venueCode).to.equal(2009);
    });

    it('reports_1002_as_a_disabled_feature_without_retrying', async () => {
      const client = newClient(new VirtualClock(T0));
      venue.reset((_h, res) => reply(res, 200, { success: false, code: 1002, message: 'contract not allowed place order' }));
      const err = await rejectionOf(client.createOrder(contractCatalogue.createOrder.example));
      expect(err).to.be.instanceOf(FeatureDisabled);
      expect(venue.hits.length).to.equal(1);
    });
  });

  describe('retry policy', () => {
    it('turns_a_5xx_on_create_order_into_outcome_unknown_carrying_the_external_oid', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock);
      venue.reset((_h, res) => reply(res, 504, 'gateway timeout'));
      const err = await rejectionOf(drive(clock, client.createOrder(contractCatalogue.createOrder.example)));
      expect(err).to.be.instanceOf(OutcomeUnknown);
      expect((err as OutcomeUnknown).clientOrderIds).to.deep.equal(['perpetua-1']);
      expect(venue.hits.length).to.equal(1);
    });

    it('turns_venue_code_500_on_a_batch_into_outcome_unknown_with_every_external_oid', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock);
      venue.reset((_h, res) => reply(res, 200, { success: false, code: 500, message: 'System internal error!' }));
      const err = await rejectionOf(drive(clock, client.submitBatch(contractCatalogue.submitBatch.example)));
      expect(err).to.be.instanceOf(OutcomeUnknown);
      expect((err as OutcomeUnknown).clientOrderIds).to.deep.equal(['mm-1', 'mm-2']);
      expect(venue.hits.length).to.equal(1);
    });

    it('waits_and_sends_again_after_510', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock, { rateLimits: false });
      const at: number[] = [];
      venue.reset((_h, res) => {
        at.push(clock.now() - T0);
        if (at.length === 1) reply(res, 200, { success: false, code: 510, message: 'Request frequency too high' });
        else reply(res, 200, contractBody('ticker'));
      });
      await drive(clock, client.ticker({ symbol: 'BTC_USDT' }));
      // no Retry-After: the first rung of the ladder, 1000 ms
      expect(at).to.deep.equal([0, 1_000]);
    });
  });

  describe('server time', () => {
    it('aligns_request_time_with_a_skewed_server_clock_via_ping', async () => {
      const clock = new VirtualClock(T0);
      const skew = -2_500;
      const client = newClient(clock, { timeSync: {} });
      venue.reset((hit, res) => {
        if (hit.path === '/api/v1/contract/ping') reply(res, 200, { success: true, code: 0, data: clock.now() + skew });
        else reply(res, 200, contractBody('positionMode'));
      });
      await client.positionMode();
      const signed = venue.hitsTo('/api/v1/private/position/position_mode')[0]!;
      expect(client.serverTimeOffset()).to.equal(skew);
      expectValidContractSignature(signed, T0 + skew);
    });

    it('resyncs_and_sends_again_after_513', async () => {
      const clock = new VirtualClock(T0);
      let skew = 0;
      const client = newClient(clock, { timeSync: { samplesPerSync: 1 } });
      venue.reset((hit, res) => {
        if (hit.path === '/api/v1/contract/ping') return reply(res, 200, { success: true, code: 0, data: clock.now() + skew });
        if (venue.hitsTo(hit.path).length === 1) {
          skew = 30_000;
          return reply(res, 200, { success: false, code: 513, message: 'Invalid Request-Time' });
        }
        reply(res, 200, contractBody('positionMode'));
      });
      await client.positionMode();
      const signed = venue.hitsTo('/api/v1/private/position/position_mode');
      expect(signed.map((h) => h.headers['request-time'])).to.deep.equal([String(T0), String(T0 + 30_000)]);
      expectValidContractSignature(signed[1]!, T0 + 30_000);
    });
  });
});
