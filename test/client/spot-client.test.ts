import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { spotCatalogue } from '../../src/api/spot/catalogue.js';
import type { EndpointDef } from '../../src/api/endpoint.js';
import { VirtualClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import {
  ExchangeUnavailable,
  InsufficientFunds,
  OutcomeUnknown,
  RateLimited,
  RequestTimeout,
  ValidationError,
} from '../../src/core/errors.js';
import { SpotClient } from '../../src/client/spot-client.js';
import { FakeVenue, reply, settle, type Hit } from './support/fake-venue.js';
import { drive, FAR_DEADLINE_MS, rejectionOf } from './support/drive.js';
import { SPOT_PAYLOADS, spotBody } from './support/spot-payloads.js';

const API_KEY = 'mx0vglSpotTestKey';
const SECRET = 'spot-secret-5d41402abc4b2a76b9719d911017c592';
const T0 = 1_767_204_000_000;

/** Independent check of a spot signature: HMAC-SHA256(secret, query-before-signature + body). */
function expectValidSpotSignature(hit: Hit): void {
  expect(hit.headers['x-mexc-apikey']).to.equal(API_KEY);
  expect(hit.rawQuery).to.match(/&signature=[0-9a-f]{64}$/);
  const cut = hit.rawQuery.lastIndexOf('&signature=');
  const expected = createHmac('sha256', SECRET)
    .update(hit.rawQuery.slice(0, cut) + hit.body)
    .digest('hex');
  expect(hit.rawQuery.slice(cut + '&signature='.length)).to.equal(expected);
}

/** The validated wire form of a request, as the query values it must produce. */
function wireParams(def: EndpointDef, input: unknown): Record<string, string> {
  const out = def.request.parse(input) as Record<string, unknown>;
  const r: Record<string, string> = {};
  for (const [k, v] of Object.entries(out)) if (v !== undefined && v !== null) r[k] = Array.isArray(v) ? v.join(',') : String(v);
  return r;
}

describe('client/spot-client', () => {
  let venue: FakeVenue;
  const clients: SpotClient[] = [];
  const newClient = (clock: VirtualClock, extra: Partial<ConstructorParameters<typeof SpotClient>[0]> = {}): SpotClient => {
    const c = new SpotClient({
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
    for (const [method, def] of Object.entries(spotCatalogue) as [string, EndpointDef][]) {
      it(`sends_${method}_as_documented_and_parses_the_answer`, async () => {
        // arrange
        const clock = new VirtualClock(T0);
        const client = newClient(clock);
        const { body, payload } = spotBody(method, def.envelope, T0);
        venue.reset((_hit, res) => reply(res, 200, body));
        // act
        const fn = (client as unknown as Record<string, (req: unknown) => Promise<unknown>>)[method]!;
        const result = await fn(def.example);
        // assert: one request, right method and path
        expect(venue.hits.length).to.equal(1);
        const hit = venue.hits[0]!;
        expect(hit.method).to.equal(def.method);
        expect(hit.path).to.equal(def.path);
        expect(hit.body).to.equal('');
        const expected = wireParams(def, def.example);
        const got = Object.fromEntries(hit.query);
        if (def.auth === 'signed') {
          expectValidSpotSignature(hit);
          expect(got['timestamp']).to.equal(String(T0));
          expect(got['recvWindow']).to.equal(expected['recvWindow'] ?? '5000');
          delete got['timestamp'];
          delete got['recvWindow'];
          delete got['signature'];
          delete expected['recvWindow'];
        } else {
          expect(hit.headers['x-mexc-apikey']).to.equal(undefined);
          expect(got['signature']).to.equal(undefined);
        }
        expect(got).to.deep.equal(expected);
        // the answer went through the envelope and the entry's response schema
        expect(result).to.deep.equal(def.response.parse(payload));
      });
    }

    it('has_an_answer_for_every_entry', () => {
      expect(Object.keys(SPOT_PAYLOADS).sort()).to.deep.equal(Object.keys(spotCatalogue).sort());
    });
  });

  describe('validation before sending', () => {
    // One case per rule family; none may reach the venue.
    const cases: [string, string, unknown, string][] = [
      ['missing_required', 'depth', {}, 'symbol'],
      ['bad_format', 'depth', { symbol: 'btc-usdt' }, 'symbol'],
      ['out_of_range', 'depth', { symbol: 'BTCUSDT', limit: 0 }, 'limit'],
      ['bad_enum', 'newOrder', { symbol: 'BTCUSDT', side: 'HOLD', type: 'LIMIT', quantity: '1', price: '1' }, 'side'],
      ['non_positive_decimal', 'newOrder', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '-1', price: '1' }, 'quantity'],
      ['conditional_rule', 'newOrder', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1' }, 'price'],
      ['either_or_rule', 'cancelOrder', { symbol: 'BTCUSDT' }, 'orderId'],
      ['paired_params', 'aggTrades', { symbol: 'BTCUSDT', startTime: 1 }, 'endTime'],
      ['unknown_param', 'depth', { symbol: 'BTCUSDT', depth: 5 }, 'depth'],
      ['recv_window_too_large', 'account', { recvWindow: 60001 }, 'recvWindow'],
      [
        'batch_mixed_symbols',
        'batchOrders',
        {
          batchOrders: [
            { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1' },
            { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1' },
          ],
        },
        'batchOrders[1].symbol',
      ],
    ];
    for (const [family, method, input, field] of cases) {
      it(`refuses_${family}_without_sending`, async () => {
        const client = newClient(new VirtualClock(T0));
        venue.reset((_h, res) => reply(res, 200, {}));
        const err = await rejectionOf((client as unknown as Record<string, (r: unknown) => Promise<unknown>>)[method]!(input));
        expect(err).to.be.instanceOf(ValidationError);
        expect((err as ValidationError).field).to.equal(field);
        expect(venue.hits.length).to.equal(0);
      });
    }
  });

  describe('answers', () => {
    it('parses_the_captured_depth_into_decimals', async () => {
      const client = newClient(new VirtualClock(T0));
      venue.reset((_h, res) => reply(res, 200, spotBody('depth', 'bare', T0).body));
      const depth = await client.depth({ symbol: 'BTCUSDT', limit: 5 });
      expect(depth.lastUpdateId).to.equal(56217769552);
      const { price, qty } = depth.asks[0]!;
      expect(price).to.be.instanceOf(Decimal);
      expect([price.toString(), qty.toString()]).to.deep.equal(['87903.98', '5.121816']);
    });

    it('maps_a_venue_code_to_the_taxonomy', async () => {
      const client = newClient(new VirtualClock(T0));
      venue.reset((_h, res) => reply(res, 400, { code: 10101, msg: 'Insufficient balance' }));
      const err = await rejectionOf(client.newOrder(spotCatalogue.newOrder.example));
      expect(err).to.be.instanceOf(InsufficientFunds);
      expect((err as InsufficientFunds).venueCode).to.equal(10101);
      expect(venue.hits.length).to.equal(1);
    });
  });

  describe('retry policy', () => {
    it('turns_a_5xx_on_a_placement_into_outcome_unknown_without_retrying', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock);
      venue.reset((_h, res) => reply(res, 502, 'bad gateway'));
      const err = await rejectionOf(drive(clock, client.newOrder(spotCatalogue.newOrder.example)));
      expect(err).to.be.instanceOf(OutcomeUnknown);
      expect((err as OutcomeUnknown).clientOrderIds).to.deep.equal(['pp-s1-i1']);
      expect((err as OutcomeUnknown).endpoint).to.equal('spot.newOrder');
      expect(venue.hits.length).to.equal(1);
    });

    it('carries_every_client_id_of_a_batch_in_outcome_unknown', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock);
      venue.reset((_h, res) => reply(res, 500, { code: 500, msg: 'internal' }));
      const err = await rejectionOf(drive(clock, client.batchOrders(spotCatalogue.batchOrders.example)));
      expect(err).to.be.instanceOf(OutcomeUnknown);
      expect((err as OutcomeUnknown).clientOrderIds).to.deep.equal(['pp-s1-i2', 'pp-s1-i3']);
      expect(venue.hits.length).to.equal(1);
    });

    it('turns_a_timeout_on_a_placement_into_outcome_unknown_without_retrying', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock, { timeouts: { requestMs: 2_000 } });
      const held: import('node:http').ServerResponse[] = [];
      venue.reset((_h, res) => void held.push(res));
      const call = rejectionOf(client.newOrder(spotCatalogue.newOrder.example));
      while (venue.hits.length === 0) await settle();
      clock.advanceBy(2_000); // the clock-driven deadline fires
      const err = await call;
      expect(err).to.be.instanceOf(OutcomeUnknown);
      expect((err as OutcomeUnknown).clientOrderIds).to.deep.equal(['pp-s1-i1']);
      await settle(5);
      expect(venue.hits.length).to.equal(1);
      for (const r of held) r.destroy();
    });

    it('turns_a_connection_reset_on_a_cancel_into_outcome_unknown', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock);
      venue.reset((_h, res) => {
        res.socket?.destroy();
      });
      const err = await rejectionOf(drive(clock, client.cancelOrder({ symbol: 'BTCUSDT', origClientOrderId: 'pp-s1-i9' })));
      expect(err).to.be.instanceOf(OutcomeUnknown);
      expect((err as OutcomeUnknown).clientOrderIds).to.deep.equal(['pp-s1-i9']);
      expect(venue.hits.length).to.equal(1);
    });

    it('retries_a_get_with_exponential_backoff_and_seeded_jitter', async () => {
      const clock = new VirtualClock(T0);
      // jitter draw fixed at 0.5: delay n = base·2ⁿ·(0.5 + 0.5·0.5) → 100·0.75 = 75, then 200·0.75 = 150
      const client = newClient(clock, { random: { next: () => 0.5 }, retry: { baseDelayMs: 100, maxRetries: 3 } });
      const at: number[] = [];
      venue.reset((_h, res) => {
        at.push(clock.now());
        if (at.length < 3) reply(res, 503, 'unavailable');
        else reply(res, 200, spotBody('depth', 'bare', T0).body);
      });
      const depth = await drive(clock, client.depth({ symbol: 'BTCUSDT' }));
      expect(depth.lastUpdateId).to.equal(56217769552);
      expect(at.map((t) => t - T0)).to.deep.equal([0, 75, 225]);
    });

    it('gives_up_on_a_get_after_the_configured_retries', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock, { retry: { maxRetries: 2 } });
      venue.reset((_h, res) => reply(res, 503, 'unavailable'));
      const err = await rejectionOf(drive(clock, client.depth({ symbol: 'BTCUSDT' })));
      expect(err).to.be.instanceOf(ExchangeUnavailable);
      expect(venue.hits.length).to.equal(3);
    });

    it('retries_a_get_that_timed_out_and_reports_request_timeout_at_the_end', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock, { timeouts: { requestMs: 1_000 }, retry: { maxRetries: 1, baseDelayMs: 10 } });
      const held: import('node:http').ServerResponse[] = [];
      venue.reset((_h, res) => void held.push(res));
      const call = rejectionOf(client.depth({ symbol: 'BTCUSDT' }));
      while (venue.hits.length === 0) await settle();
      clock.advanceBy(1_000);
      while (venue.hits.length === 1) {
        await settle();
        const t = clock.nextTimerAt();
        if (t !== undefined && t - clock.now() < 1_000) clock.advanceTo(t);
      }
      clock.advanceBy(1_000);
      const err = await call;
      expect(err).to.be.instanceOf(RequestTimeout);
      expect(venue.hits.length).to.equal(2);
      for (const r of held) r.destroy();
    });

    it('honours_retry_after_on_429', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock);
      const at: number[] = [];
      venue.reset((_h, res) => {
        at.push(clock.now() - T0);
        if (at.length === 1) reply(res, 429, { code: 429, msg: 'Too many requests' }, { 'retry-after': '2' });
        else reply(res, 200, spotBody('tickerPrice', 'bare', T0).body);
      });
      await drive(clock, client.tickerPrice({ symbol: 'BTCUSDT' }));
      expect(at).to.deep.equal([0, 2_000]);
    });

    it('waits_1_2_5_10_seconds_on_429_without_retry_after', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock, { rateLimits: false });
      const at: number[] = [];
      venue.reset((_h, res) => {
        at.push(clock.now() - T0);
        reply(res, 429, '');
      });
      const err = await rejectionOf(drive(clock, client.tickerPrice({ symbol: 'BTCUSDT' })));
      expect(err).to.be.instanceOf(RateLimited);
      // waits 1000, 2000, 5000, 10000 → sends at 0, 1000, 3000, 8000, 18000, then gives up
      expect(at).to.deep.equal([0, 1_000, 3_000, 8_000, 18_000]);
    });

    it('sends_a_placement_again_after_a_429_because_the_venue_refused_it', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock);
      venue.reset((_h, res) => {
        if (venue.hits.length === 1) reply(res, 429, '', { 'retry-after': '1' });
        else reply(res, 200, spotBody('newOrder', 'bare', T0).body);
      });
      const placed = await drive(clock, client.newOrder(spotCatalogue.newOrder.example));
      expect(placed.orderId).to.equal('06a480e69e604477bfb48dddd5f0b750');
      expect(venue.hits.length).to.equal(2);
    });

    it('does_not_send_a_write_again_after_a_connect_failure', async () => {
      const clock = new VirtualClock(T0);
      const closed = await FakeVenue.start();
      const url = closed.baseUrl;
      await closed.close();
      const client = newClient(clock, { baseUrl: url });
      const err = await rejectionOf(drive(clock, client.newOrder(spotCatalogue.newOrder.example)));
      // never left the process: a plain (retryable) NetworkError, not OutcomeUnknown
      expect(err).to.be.instanceOf(ExchangeUnavailable);
    });
  });

  describe('client-side rate limiting', () => {
    it('holds_the_third_order_until_the_order_bucket_has_room_instead_of_sending_into_a_429', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock, { rateLimits: { spotOrders: { limit: 2, windowMs: 1_000 } } });
      venue.reset((_h, res) => reply(res, 200, spotBody('newOrder', 'bare', T0).body));
      const order = (id: string) => client.newOrder({ ...spotCatalogue.newOrder.example, newClientOrderId: id });
      await drive(clock, Promise.all([order('o1'), order('o2'), order('o3')]));
      // 2 per 1000 ms: o1, o2 built and signed at T0, o3 only once the window slid, at T0+1000
      const stamps = Object.fromEntries(venue.hits.map((h) => [h.query.get('newClientOrderId'), Number(h.query.get('timestamp')) - T0]));
      expect(stamps).to.deep.equal({ o1: 0, o2: 0, o3: 1_000 });
    });
  });

  describe('server time', () => {
    it('aligns_timestamp_with_a_skewed_server_clock', async () => {
      const clock = new VirtualClock(T0);
      const skew = 1_500;
      const client = newClient(clock, { timeSync: {} });
      venue.reset((hit, res) => {
        if (hit.path === '/api/v3/time') reply(res, 200, { serverTime: clock.now() + skew });
        else reply(res, 200, { uid: '1' });
      });
      await client.uid();
      const signed = venue.hits.filter((h) => h.path === '/api/v3/uid');
      // three samples, each serverTime − midpoint = 1500 → offset 1500
      expect(venue.hitsTo('/api/v3/time').length).to.equal(3);
      expect(client.serverTimeOffset()).to.equal(skew);
      expect(signed[0]!.query.get('timestamp')).to.equal(String(T0 + skew));
      expectValidSpotSignature(signed[0]!);
    });

    it('resyncs_and_sends_again_after_700003', async () => {
      const clock = new VirtualClock(T0);
      let skew = 1_000;
      const client = newClient(clock, { timeSync: {} });
      venue.reset((hit, res) => {
        if (hit.path === '/api/v3/time') return reply(res, 200, { serverTime: clock.now() + skew });
        if (venue.hitsTo('/api/v3/uid').length === 1) {
          skew = 4_000; // the venue's clock jumped
          return reply(res, 400, { code: 700003, msg: 'Timestamp for this request is outside of the recvWindow.' });
        }
        reply(res, 200, { uid: '1' });
      });
      await client.uid();
      const signed = venue.hitsTo('/api/v3/uid');
      expect(signed.map((h) => h.query.get('timestamp'))).to.deep.equal([String(T0 + 1_000), String(T0 + 4_000)]);
      expect(venue.hitsTo('/api/v3/time').length).to.equal(6);
    });

    it('resyncs_periodically_in_the_background', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock, { timeSync: { resyncIntervalMs: 60_000, samplesPerSync: 1 } });
      venue.reset((hit, res) =>
        hit.path === '/api/v3/time' ? reply(res, 200, { serverTime: clock.now() }) : reply(res, 200, { uid: '1' }),
      );
      await client.uid();
      await client.uid();
      expect(venue.hitsTo('/api/v3/time').length).to.equal(1);
      clock.advanceBy(60_000);
      await client.uid();
      while (venue.hitsTo('/api/v3/time').length < 2) await settle();
      expect(venue.hitsTo('/api/v3/time').length).to.equal(2);
    });
  });

  describe('typed surface', () => {
    it('exposes_one_method_per_catalogue_entry', () => {
      const client = newClient(new VirtualClock(T0));
      for (const name of Object.keys(spotCatalogue))
        expect(typeof (client as unknown as Record<string, unknown>)[name]).to.equal('function');
    });

    it('works_without_credentials_for_public_entries_and_refuses_signed_ones', async () => {
      const clock = new VirtualClock(T0);
      const client = newClient(clock, { credentials: undefined });
      venue.reset((_h, res) => reply(res, 200, { serverTime: T0 }));
      expect((await client.serverTime()).serverTime).to.equal(T0);
      venue.reset();
      const err = await rejectionOf(client.account());
      expect(err.name).to.equal('ConfigError');
      expect(venue.hits.length).to.equal(0);
    });
  });
});
