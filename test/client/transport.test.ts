import { expect } from 'chai';
import { SystemClock, VirtualClock } from '../../src/core/clock.js';
import { type ExchangeCall, HttpTransport, TransportFailure, observeTransport, sharedPoolCount } from '../../src/client/transport.js';
import { FakeVenue, reply, settle } from './support/fake-venue.js';
import { rejectionOf } from './support/drive.js';

describe('client/transport', () => {
  let venue: FakeVenue;
  before(async () => {
    venue = await FakeVenue.start();
  });
  after(async () => {
    await venue.close();
  });

  it('returns_status_lower_case_headers_and_the_raw_body', async () => {
    const clock = new VirtualClock(1_000);
    const t = new HttpTransport({ baseUrl: venue.baseUrl, clock });
    venue.reset((_h, res) => reply(res, 418, '{"x": 12345678901234567890}', { 'X-Custom': 'v' }));
    try {
      const res = await t.send({ method: 'POST', path: '/a?b=1', headers: { 'Content-Type': 'application/json' }, body: '[1]' });
      expect(res.status).to.equal(418);
      expect(res.headers['x-custom']).to.equal('v');
      expect(res.body).to.equal('{"x": 12345678901234567890}');
      expect([res.sentAt, res.receivedAt]).to.deep.equal([1_000, 1_000]);
      expect(venue.hits[0]!).to.include({ method: 'POST', path: '/a', rawQuery: 'b=1', body: '[1]' });
    } finally {
      await t.close();
    }
  });

  it('keeps_the_connection_alive_between_requests', async () => {
    const t = new HttpTransport({ baseUrl: venue.baseUrl, clock: new SystemClock(), connections: 1 });
    venue.reset((_h, res) => reply(res, 200, '{}'));
    try {
      await t.send({ method: 'GET', path: '/one', headers: {} });
      await t.send({ method: 'GET', path: '/two', headers: {} });
      expect(venue.hits.map((h) => h.remotePort)).to.have.length(2);
      expect(venue.hits[0]!.remotePort).to.equal(venue.hits[1]!.remotePort);
    } finally {
      await t.close();
    }
  });

  it('shares_one_pool_per_base_url_and_closes_it_with_the_last_user', async () => {
    const before = sharedPoolCount();
    const clock = new VirtualClock(0);
    const a = new HttpTransport({ baseUrl: venue.baseUrl, clock, connections: 3 });
    const b = new HttpTransport({ baseUrl: `${venue.baseUrl}/`, clock, connections: 3 });
    expect(sharedPoolCount()).to.equal(before + 1);
    await a.close();
    expect(sharedPoolCount()).to.equal(before + 1);
    await b.close();
    expect(sharedPoolCount()).to.equal(before);
    expect(((await rejectionOf(a.send({ method: 'GET', path: '/', headers: {} }))) as TransportFailure).kind).to.equal('connect');
  });

  it('classifies_a_refused_connection_as_never_sent', async () => {
    const dead = await FakeVenue.start();
    const url = dead.baseUrl;
    await dead.close();
    const t = new HttpTransport({ baseUrl: url, clock: new VirtualClock(0) });
    try {
      const err = (await rejectionOf(t.send({ method: 'POST', path: '/x', headers: {} }))) as TransportFailure;
      expect(err).to.be.instanceOf(TransportFailure);
      expect([err.kind, err.maybeSent]).to.deep.equal(['connect', false]);
    } finally {
      await t.close();
    }
  });

  it('fires_the_deadline_on_the_injected_clock_as_a_timeout_after_sending', async () => {
    const clock = new VirtualClock(0);
    const t = new HttpTransport({ baseUrl: venue.baseUrl, clock, timeouts: { requestMs: 500 } });
    const held: import('node:http').ServerResponse[] = [];
    venue.reset((_h, res) => void held.push(res));
    try {
      const call = rejectionOf(t.send({ method: 'GET', path: '/slow', headers: {} }));
      while (venue.hits.length === 0) await settle();
      clock.advanceBy(499);
      await settle();
      clock.advanceBy(1);
      const err = (await call) as TransportFailure;
      expect([err.kind, err.maybeSent]).to.deep.equal(['timeout', true]);
      expect(clock.pendingTimers()).to.equal(0);
    } finally {
      for (const r of held) r.destroy();
      await t.close();
    }
  });

  it('classifies_a_reset_after_sending_as_maybe_sent', async () => {
    const t = new HttpTransport({ baseUrl: venue.baseUrl, clock: new VirtualClock(0) });
    venue.reset((_h, res) => {
      res.socket?.destroy();
    });
    try {
      const err = (await rejectionOf(t.send({ method: 'POST', path: '/x', headers: {}, body: '{}' }))) as TransportFailure;
      expect([err.kind, err.maybeSent]).to.deep.equal(['reset', true]);
    } finally {
      await t.close();
    }
  });
});

describe("client/transport observers (the console's exchange metrics)", () => {
  let venue: FakeVenue;
  before(async () => {
    venue = await FakeVenue.start();
  });
  after(async () => {
    await venue.close();
  });

  it('tells_observers_each_request_with_its_endpoint_outcome_latency_and_weight', async () => {
    const clock = new VirtualClock(5_000);
    const t = new HttpTransport({ baseUrl: venue.baseUrl, clock });
    // The fake venue answers after the test has moved the virtual clock by 40 ms: that is the latency.
    venue.reset((_h, res) => {
      clock.advanceBy(40);
      reply(res, 429, '{}');
    });
    const seen: ExchangeCall[] = [];
    const stop = observeTransport((c) => seen.push(c));
    const broken = observeTransport(() => {
      throw new Error('an observer bug');
    });
    try {
      const res = await t.send({
        method: 'POST',
        path: '/api/v3/order?symbol=X&signature=s3cr3t',
        headers: {},
        endpoint: 'spot.placeOrder',
        weight: 2,
      });
      expect(res.status).to.equal(429); // a throwing observer does not fail the request it watched
      await t.send({ method: 'GET', path: '/api/v3/time?x=1', headers: {} });
      expect(seen).to.deep.equal([
        { endpoint: 'spot.placeOrder', method: 'POST', outcome: 429, ms: 40, weight: 2 },
        // No id given: method and path, never the query (it can hold a signature).
        { endpoint: 'GET /api/v3/time', method: 'GET', outcome: 429, ms: 40, weight: 1 },
      ]);
    } finally {
      stop();
      broken();
      await t.close();
    }
    // A refused connection is told as `connect`, and a removed observer hears nothing more.
    const dead = await FakeVenue.start();
    const deadUrl = dead.baseUrl;
    await dead.close();
    const refused = new HttpTransport({ baseUrl: deadUrl, clock: new SystemClock() });
    const again: ExchangeCall[] = [];
    const off = observeTransport((c) => again.push(c));
    try {
      await rejectionOf(refused.send({ method: 'GET', path: '/x', headers: {}, endpoint: 'spot.ping' }));
      expect(again.map((c) => [c.endpoint, c.outcome])).to.deep.equal([['spot.ping', 'connect']]);
      expect(seen).to.have.length(2);
    } finally {
      off();
      await refused.close();
    }
  });
});
