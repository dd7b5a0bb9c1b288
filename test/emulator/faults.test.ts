import { expect } from 'chai';
import { request } from 'undici';
import { VirtualClock } from '../../src/core/clock.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, T0, hmac, raw, spotSigned, testConfig } from './support/emulator-kit.js';

/**
 * Fault injection for the runtime's integration tests: delay, an order accepted but never answered
 * (the client times out), a reset connection, 5xx before or after the effect, 429, from the config and
 * through the test hook.
 */
describe('emulator fault injection', () => {
  let clock: VirtualClock;
  let emu: RunningEmulator;

  beforeEach(async () => {
    clock = new VirtualClock(T0);
    emu = await startEmulator(testConfig({ faults: { rules: [{ match: 'spot.serverTime', kind: 'delay', delayMs: 300 }] } }), {
      clock,
      marketStopped: true,
    });
  });
  afterEach(async () => {
    await emu.stop();
  });

  const orderQuery = (clientId: string) => {
    const q = `symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=87000&newClientOrderId=${clientId}&timestamp=${clock.now()}`;
    return `/api/v3/order?${q}&signature=${hmac(ALICE.secret, q)}`;
  };
  const findOrder = (clientId: string) =>
    spotSigned(emu.url, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: clientId }, { timestamp: clock.now() });

  it('delays_the_answer_as_the_config_says', async () => {
    const t0 = performance.now();
    const res = await raw(emu.url, 'GET', '/api/v3/time');
    // A lower bound only: the rule holds the answer back at least delayMs on the wall clock.
    expect(performance.now() - t0).to.be.at.least(290);
    expect(res.json).to.deep.equal({ serverTime: T0 });
  });

  it('drops_the_answer_after_accepting_the_order_so_the_client_times_out', async () => {
    emu.faults.inject({ match: 'spot.newOrder', kind: 'drop', times: 1 });
    let failure: unknown;
    try {
      await request(`${emu.url}${orderQuery('lost-1')}`, {
        method: 'POST',
        headers: { 'X-MEXC-APIKEY': ALICE.apiKey },
        signal: AbortSignal.timeout(400),
      });
    } catch (e) {
      failure = e;
    }
    expect(failure).to.be.instanceOf(Error);
    // The effect happened: the order is on the book.
    expect(((await findOrder('lost-1')).json as { status: string }).status).to.equal('NEW');
  });

  it('resets_the_connection_after_accepting_the_order', async () => {
    emu.faults.inject({ match: '/api/v3/order', method: 'POST', kind: 'reset' });
    let failure: unknown;
    try {
      await request(`${emu.url}${orderQuery('reset-1')}`, { method: 'POST', headers: { 'X-MEXC-APIKEY': ALICE.apiKey } });
    } catch (e) {
      failure = e;
    }
    expect(failure).to.be.instanceOf(Error);
    expect(((await findOrder('reset-1')).json as { status: string }).status).to.equal('NEW');
  });

  it('answers_5xx_before_the_effect_without_placing', async () => {
    emu.faults.inject({ match: 'spot.newOrder', kind: 'error5xx', status: 503, phase: 'before' });
    const res = await raw(emu.url, 'POST', orderQuery('before-1'), { headers: { 'X-MEXC-APIKEY': ALICE.apiKey } });
    expect(res.status).to.equal(503);
    expect((res.json as { code: number }).code).to.equal(503);
    emu.faults.clear();
    expect(((await findOrder('before-1')).json as { code: number }).code).to.equal(-2013);
  });

  it('answers_5xx_after_the_effect_with_the_order_placed', async () => {
    emu.faults.inject({ match: 'spot.newOrder', kind: 'error5xx', status: 502, phase: 'after' });
    const res = await raw(emu.url, 'POST', orderQuery('after-1'), { headers: { 'X-MEXC-APIKEY': ALICE.apiKey } });
    expect(res.status).to.equal(502);
    emu.faults.clear();
    expect(((await findOrder('after-1')).json as { status: string }).status).to.equal('NEW');
  });

  it('answers_429_with_retry_after_in_the_contract_shape', async () => {
    emu.faults.inject({ match: 'contract.ping', kind: 'rateLimit', retryAfterSec: 7 });
    const res = await raw(emu.url, 'GET', '/api/v1/contract/ping');
    expect(res.status).to.equal(429);
    expect(res.headers['retry-after']).to.equal('7');
    expect(res.json).to.deep.equal({ success: false, code: 510, message: 'Request frequency too high' });
  });

  it('skips_then_fires_a_limited_number_of_times', async () => {
    const remove = emu.faults.inject({ match: 'spot.ping', kind: 'error5xx', skip: 1, times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await raw(emu.url, 'GET', '/api/v3/ping')).status);
    expect(statuses).to.deep.equal([200, 503, 503, 200]);
    remove();
    expect(emu.faults.active).to.equal(1);
  });

  it('fires_with_a_seeded_probability', async () => {
    emu.faults.inject({ match: 'spot.ping', kind: 'error5xx', probability: 0.5 });
    const hits: boolean[] = [];
    for (let i = 0; i < 40; i++) hits.push((await raw(emu.url, 'GET', '/api/v3/ping')).status === 503);
    const n = hits.filter(Boolean).length;
    expect(n).to.be.within(5, 35);
  });
});
