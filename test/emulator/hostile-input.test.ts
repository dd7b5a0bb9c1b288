import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { SeededRandom } from '../../src/core/random.js';
import { allEndpoints } from '../../src/api/catalogue.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, T0, contractSigned, hmac, raw, rawSocket, spotSigned, testConfig } from './support/emulator-kit.js';

/**
 * Input an attacker or a broken client might send: every case gets the venue's error code, nothing
 * crashes the server, and the engines' invariants hold afterwards. The fuzz part throws a few hundred
 * seeded malformed requests (valid signatures on garbage included, so they reach validation).
 */
describe('emulator hostile input', () => {
  let clock: VirtualClock;
  let emu: RunningEmulator;
  let internalErrors: unknown[];

  before(async () => {
    clock = new VirtualClock(T0);
    internalErrors = [];
    emu = await startEmulator(testConfig({ limits: { maxBodyBytes: 4096 }, rateLimits: { enabled: false } }), {
      clock,
      marketStopped: true,
      onInternalError: (e) => internalErrors.push(e),
    });
    emu.contract.venue.setFairPrice('BTC_USDT', '87500');
  });
  after(async () => {
    await emu.stop();
  });
  afterEach(() => {
    expect(internalErrors).to.deep.equal([]);
    expect(emu.checkInvariants()).to.deep.equal([]);
  });

  const spotOrder = (params: Record<string, string>) =>
    spotSigned(emu.url, 'POST', '/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', ...params }, { timestamp: clock.now() });
  const createContract = (body: unknown) =>
    contractSigned(emu.url, 'POST', '/api/v1/private/order/create', body as Record<string, unknown>, { requestTime: clock.now() });
  const code = (r: { json: unknown }) => (r.json as { code: number }).code;

  describe('spot', () => {
    for (const [name, quantity] of [
      ['negative', '-1'],
      ['nan', 'NaN'],
      ['infinity', 'Infinity'],
      ['text', 'abc'],
      ['empty', ''],
    ] as const) {
      it(`answers_700004_for_a_${name}_quantity`, async () => {
        const res = await spotOrder({ quantity, price: '87000' });
        expect(res.status).to.equal(400);
        expect(res.json).to.deep.equal({ code: 700004, msg: "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed." });
      });
    }

    it('refuses_an_off_tick_price_with_the_venue_scale_error', async () => {
      const res = await spotOrder({ quantity: '0.001', price: '87000.001' });
      expect(res.status).to.equal(400);
      expect(res.json).to.deep.equal({ code: 400, msg: 'price scale is invalid' });
    });

    it('answers_minus_1121_for_an_unknown_symbol', async () => {
      const res = await spotSigned(
        emu.url,
        'POST',
        '/api/v3/order',
        { symbol: 'DOGEUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.1' },
        { timestamp: clock.now() },
      );
      expect(code(res)).to.equal(-1121);
    });

    it('refuses_a_parameter_given_twice_in_one_place', async () => {
      const q = `symbol=BTCUSDT&symbol=ETHUSDT&timestamp=${clock.now()}`;
      const res = await raw(emu.url, 'GET', `/api/v3/openOrders?${q}&signature=${hmac(ALICE.secret, q)}`, {
        headers: { 'X-MEXC-APIKEY': ALICE.apiKey },
      });
      expect(res.status).to.equal(400);
      expect(res.json).to.deep.equal({ code: 33333, msg: "Duplicate values for parameter 'symbol'." });
    });

    it('answers_700008_for_an_escape_that_is_not_utf8', async () => {
      const res = await raw(emu.url, 'GET', '/api/v3/depth?symbol=%FF%FE');
      expect(code(res)).to.equal(700008);
    });

    it('answers_700008_for_a_broken_escape', async () => {
      const res = await raw(emu.url, 'GET', '/api/v3/depth?symbol=BTC%2');
      expect(code(res)).to.equal(700008);
    });

    it('answers_700008_for_raw_bytes_that_are_not_utf8_in_a_form_body', async () => {
      const res = await raw(emu.url, 'POST', '/api/v3/order', {
        headers: { 'X-MEXC-APIKEY': ALICE.apiKey, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: Buffer.from([0x73, 0x79, 0x6d, 0x3d, 0xc3, 0x28]),
      });
      expect(code(res)).to.equal(700008);
    });

    it('answers_bytes_outside_ascii_in_the_request_line_without_crashing', async () => {
      const res = await rawSocket(
        emu.port,
        Buffer.concat([
          Buffer.from('GET /api/v3/depth?symbol='),
          Buffer.from([0xff, 0xfe]),
          Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
        ]),
      );
      expect([400]).to.include(res.status);
    });

    it('answers_404_in_the_spot_shape_for_an_unknown_path_and_405_for_a_wrong_method', async () => {
      expect(await raw(emu.url, 'GET', '/api/v3/../../etc/passwd')).to.deep.include({ status: 404 });
      const res = await raw(emu.url, 'PUT', '/api/v3/order');
      expect(res.status).to.equal(405);
      expect(res.json).to.deep.equal({ code: 405, msg: 'Method Not Allowed' });
    });

    it('answers_413_for_a_chunked_body_that_grows_over_the_limit', async () => {
      const chunk = `symbol=${'B'.repeat(3000)}`;
      const size = chunk.length.toString(16);
      const res = await rawSocket(
        emu.port,
        Buffer.from(
          `POST /api/v3/order HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n${size}\r\n${chunk}\r\n${size}\r\n${chunk}\r\n0\r\n\r\n`,
        ),
      );
      expect(res.status).to.equal(413);
      expect(JSON.parse(res.body)).to.deep.include({ code: 413 });
    });

    it('answers_413_for_a_body_over_the_limit', async () => {
      const res = await raw(emu.url, 'POST', '/api/v3/order', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `symbol=${'A'.repeat(10_000)}`,
      });
      expect(res.status).to.equal(413);
      expect(code(res)).to.equal(413);
    });
  });

  describe('contract', () => {
    const order = { symbol: 'BTC_USDT', price: 87000, vol: 1, leverage: 10, side: 1, type: 1, openType: 1 };

    it('answers_600_for_a_body_that_is_not_json', async () => {
      const res = await createContract('{"symbol": "BTC_USDT", ');
      expect(res.json).to.deep.equal({ success: false, code: 600, message: 'Param error! the body is not valid JSON' });
    });

    it('answers_600_for_a_body_that_is_not_an_object', async () => {
      expect(code(await createContract('[1,2,3]'))).to.equal(600);
      expect(code(await createContract('"text"'))).to.equal(600);
    });

    for (const [name, vol] of [
      ['negative', -1],
      ['zero', 0],
      ['text', 'lots'],
      ['nested', { $gt: 0 }],
    ] as const) {
      it(`answers_600_for_a_${name}_vol`, async () => {
        const res = await createContract({ ...order, vol });
        expect(res.json).to.deep.include({ success: false, code: 600 });
      });
    }

    it('answers_600_for_an_infinite_vol_written_as_1e999', async () => {
      const res = await createContract(JSON.stringify(order).replace('"vol":1', '"vol":1e999'));
      expect(code(res)).to.equal(600);
    });

    it('answers_2015_for_an_off_tick_price', async () => {
      // priceUnit 0.1: 87000.05 is not on the grid.
      const res = await createContract({ ...order, price: 87000.05 });
      expect(code(res)).to.equal(2015);
    });

    it('answers_1001_for_an_unknown_contract', async () => {
      expect(code(await createContract({ ...order, symbol: 'DOGE_USDT' }))).to.equal(1001);
    });

    it('answers_600_for_deeply_nested_json', async () => {
      const deep = `${'['.repeat(2000)}${']'.repeat(2000)}`;
      const res = await contractSigned(emu.url, 'POST', '/api/v1/private/order/cancel', deep, { requestTime: clock.now() });
      expect(code(res)).to.equal(600);
      const deepObject = `{"symbol":"BTC_USDT","vol":${'{"a":'.repeat(600)}1${'}'.repeat(600)}}`;
      expect(code(await createContract(deepObject))).to.equal(600);
    });

    it('answers_600_for_a_body_that_is_not_utf8', async () => {
      const body = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]);
      const res = await raw(emu.url, 'POST', '/api/v1/private/order/create', {
        headers: { ApiKey: ALICE.apiKey, 'Request-Time': String(clock.now()), Signature: 'x', 'Content-Type': 'application/json' },
        body,
      });
      expect(code(res)).to.equal(600);
    });

    it('answers_600_for_a_query_parameter_given_twice', async () => {
      expect(code(await raw(emu.url, 'GET', '/api/v1/contract/deals/BTC_USDT?limit=5&limit=6'))).to.equal(600);
    });

    it('answers_404_in_the_contract_shape', async () => {
      expect((await raw(emu.url, 'GET', '/api/v1/contract/nothing/here')).json).to.deep.equal({
        success: false,
        code: 404,
        message: 'Not Found',
      });
    });
  });

  it('survives_a_seeded_storm_of_malformed_requests', async () => {
    const rng = new SeededRandom('hostile');
    const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)]!;
    const junk = [
      '',
      '-1',
      'NaN',
      'Infinity',
      '1e999',
      '0.0000000000000000001',
      '99999999999999999999999',
      'BTCUSDT',
      'BTC_USDT',
      '%00',
      '%ZZ',
      '%C3%28',
      '[]',
      '{}',
      'null',
      'true',
      "'; DROP TABLE",
      'A'.repeat(300),
    ];
    const names = [
      'symbol',
      'side',
      'type',
      'quantity',
      'price',
      'quoteOrderQty',
      'orderId',
      'origClientOrderId',
      'limit',
      'interval',
      'batchOrders',
      'recvWindow',
      'vol',
      'leverage',
      'page_num',
      '__proto__',
      'constructor',
    ];
    const bodies = [
      '{',
      '[]',
      '{"symbol":null}',
      `{"vol":${'['.repeat(500)}}`,
      '\u0000\u0001',
      JSON.stringify({ symbol: 'BTC_USDT', price: 'x', vol: -5, side: 9, type: 0, openType: 7 }),
      '{"__proto__":{"polluted":1}}',
    ];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const def = pick(allEndpoints);
      const path = def.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(pick(junk)));
      const params: Record<string, string> = {};
      const n = rng.int(0, 4);
      for (let k = 0; k < n; k++) params[pick(names)] = pick(junk);
      const method = rng.next() < 0.1 ? pick(['GET', 'POST', 'DELETE', 'PUT', 'PATCH']) : def.method;
      let res;
      if (def.api === 'spot') {
        res = await spotSigned(emu.url, method, path, params, {
          timestamp: clock.now(),
          ...(rng.next() < 0.2 ? { signature: 'deadbeef' } : {}),
          ...(rng.next() < 0.3 ? { placement: 'body' as const } : {}),
        });
      } else if (method === 'POST') {
        res = await contractSigned(emu.url, 'POST', path, rng.next() < 0.5 ? pick(bodies) : params, { requestTime: clock.now() });
      } else {
        res = await contractSigned(emu.url, method as 'GET', path, params, { requestTime: clock.now() });
      }
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, `${method} ${path} → ${res.text.slice(0, 200)}`).to.be.below(500);
      expect(res.json, `${method} ${path}: body is JSON`).to.not.equal(undefined);
    }
    // The storm did reach the handlers, not only the auth checks.
    expect(statuses.get(200) ?? 0).to.be.above(10);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect((await raw(emu.url, 'GET', '/api/v3/ping')).json).to.deep.equal({});
  });
});
