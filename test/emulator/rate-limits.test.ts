import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, BOB, T0, contractSigned, raw, spotSigned, testConfig } from './support/emulator-kit.js';

/**
 * The venue's limits answered with HTTP 429 and Retry-After. Virtual time starts on a window edge
 * (T0 is a whole second), so windows are exact: orders 12 per 1 s per account, account information
 * 2 per 1 s, contract 20 per 2 s per endpoint, and a per-IP weight budget (set small here).
 */
describe('emulator rate limits', () => {
  let clock: VirtualClock;
  let emu: RunningEmulator;

  beforeEach(async () => {
    clock = new VirtualClock(T0);
    emu = await startEmulator(testConfig({ rateLimits: { ipWeight: { limit: 100, windowMs: 10_000 } } }), { clock, marketStopped: true });
  });
  afterEach(async () => {
    await emu.stop();
  });

  const place = (key = ALICE, i = 0) =>
    spotSigned(
      emu.url,
      'POST',
      '/api/v3/order',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: String(87000 - i) },
      { key, timestamp: clock.now() },
    );

  it('refuses_the_13th_order_in_one_second_with_429_and_retry_after', async () => {
    for (let i = 0; i < 12; i++) expect((await place(ALICE, i)).status, `order ${i + 1}`).to.equal(200);
    const refused = await place(ALICE, 12);
    expect(refused.status).to.equal(429);
    expect(refused.headers['retry-after']).to.equal('1');
    expect(refused.json).to.deep.include({ code: 429 });
    // Another account has its own bucket.
    expect((await place(BOB, 0)).status).to.equal(200);
    clock.advanceBy(1000);
    expect((await place(ALICE, 13)).status).to.equal(200);
  });

  it('counts_cancels_in_the_same_order_bucket', async () => {
    for (let i = 0; i < 12; i++) await place(ALICE, i);
    const cancel = await spotSigned(emu.url, 'DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' }, { timestamp: clock.now() });
    expect(cancel.status).to.equal(429);
  });

  it('allows_two_account_requests_per_second', async () => {
    const account = () => spotSigned(emu.url, 'GET', '/api/v3/account', {}, { timestamp: clock.now() });
    expect((await account()).status).to.equal(200);
    expect((await account()).status).to.equal(200);
    expect((await account()).status).to.equal(429);
  });

  it('meters_request_weight_per_ip', async () => {
    // exchangeInfo weighs 10: ten calls spend the 100 budget, the eleventh waits for the 10 s window.
    for (let i = 0; i < 10; i++) expect((await raw(emu.url, 'GET', '/api/v3/exchangeInfo')).status).to.equal(200);
    const refused = await raw(emu.url, 'GET', '/api/v3/exchangeInfo');
    expect(refused.status).to.equal(429);
    expect(refused.headers['retry-after']).to.equal('10');
  });

  it('limits_contract_calls_per_endpoint_in_the_contract_shape', async () => {
    for (let i = 0; i < 20; i++) expect((await raw(emu.url, 'GET', '/api/v1/contract/ping')).status).to.equal(200);
    const refused = await raw(emu.url, 'GET', '/api/v1/contract/ping');
    expect(refused.status).to.equal(429);
    expect(refused.json).to.deep.equal({ success: false, code: 510, message: 'Request frequency too high' });
    expect(refused.headers['retry-after']).to.equal('2');
    // Per endpoint: another path is not affected; a signed call is metered per account.
    expect((await raw(emu.url, 'GET', '/api/v1/contract/support_currencies')).status).to.equal(200);
    expect(
      (await contractSigned(emu.url, 'GET', '/api/v1/private/account/assets', undefined, { requestTime: clock.now() })).status,
    ).to.equal(200);
    clock.advanceBy(2000);
    expect((await raw(emu.url, 'GET', '/api/v1/contract/ping')).status).to.equal(200);
  });

  it('lets_everything_through_when_switched_off', async () => {
    emu.limits.enabled = false;
    for (let i = 0; i < 15; i++) expect((await place(ALICE, i)).status).to.equal(200);
  });
});
