/**
 * The console API over real HTTP against a paper run on the emulator: the token is required, the
 * answers are the run's true orders and positions (compared with what the venue itself says, read
 * with our own clients), control actions take effect on the venue and are journaled, /metrics parses
 * as Prometheus text (an independent strict parser) and agrees with the journal.
 */
import { expect } from 'chai';
import { ContractClient } from '../../src/client/contract-client.js';
import { SpotClient } from '../../src/client/spot-client.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import { clock, IT_ACCOUNT, waitFor } from '../integration/support/paper-harness.js';
import { call, PERP, until, startConsoleRun, TOKEN, type ConsoleRunKit } from './support/console-run.js';
import { parsePromText, sampleValue } from './support/prom-text.js';

type Row = Record<string, unknown>;
const CONFIRM = { token: TOKEN, body: { confirm: true } };

describe('console API against a paper run', function () {
  this.timeout(120_000);
  let kit: ConsoleRunKit;
  let base: string;
  let spot: SpotClient;
  let fut: ContractClient;

  const events = (): ExecutionEvent[] => kit.run.journal.events();
  const submitted = (sid: string): number => events().filter((e) => e.type === 'OrderSubmitted' && e.strategyId === sid).length;
  /** The venue's net BTC_USDT position of the test account, from its open-positions answer (long +, short −). */
  const venuePosition = async (): Promise<number> =>
    (await fut.openPositions({ symbol: PERP })).reduce((n, p) => n + (p.positionType === 1 ? 1 : -1) * Number(p.holdVol), 0);

  before(async () => {
    kit = await startConsoleRun('console-api');
    base = kit.web.url;
    const credentials = { apiKey: IT_ACCOUNT.apiKey, secretKey: IT_ACCOUNT.secretKey };
    const opts = { baseUrl: kit.emu.url, clock, rateLimits: false as const, timeSync: false as const, credentials };
    spot = new SpotClient(opts);
    fut = new ContractClient(opts);
  });
  after(async () => {
    await spot?.close();
    await fut?.close();
    await kit?.dispose();
  });

  it('binds_loopback_and_refuses_requests_without_the_token', async () => {
    expect(base).to.match(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    for (const path of ['/api/status', '/api/orders', '/metrics', '/api/stream', '/api/openapi.json']) {
      const none = await call(base, path, { token: undefined });
      expect(none.status, path).to.equal(401);
      expect(none.headers['www-authenticate']).to.match(/^Bearer/);
      const wrong = await call(base, path, { token: `${TOKEN}x` });
      expect(wrong.status, path).to.equal(401);
    }
    // A refused control action does nothing.
    const refused = await call(base, '/api/strategies/mm1/pause', { token: 'nope', body: { confirm: true } });
    expect(refused.status).to.equal(401);
    expect(refused.text).to.not.include(TOKEN);
    expect(kit.run.runtime.isPaused('mm1')).to.equal(false);
    // The page itself holds no data: it loads without the token, locked to this origin.
    const page = await call(base, '/', { token: undefined });
    expect(page.status).to.equal(200);
    expect(page.headers['content-security-policy']).to.include("connect-src 'self'");
    expect((await call(base, '/vendor/lightweight-charts.js', { token: undefined })).text).to.include('LightweightCharts');
  });

  it('answers_with_the_runs_true_positions_and_orders', async () => {
    // pos1 bought 10 contracts at market and rests two orders; the venue and the API must agree on both.
    await until(async () => (await venuePosition()) === 10, 20_000, 'the venue to hold the 10-contract long');
    await waitFor(
      async () => {
        const pos = (await call<{ account: Row[]; strategies: Record<string, Row[]> }>(base, '/api/positions')).json();
        const acct = pos.account.find((p) => p.symbol === PERP && p.leg === 'long');
        const mine = pos.strategies.pos1?.find((p) => p.symbol === PERP);
        return acct?.quantity === '10' && mine?.quantity === '10';
      },
      20_000,
      'the API to show the account and pos1 long 10 BTC_USDT',
    );
    // The script's three intents go out one after another: the position can stand before the second
    // resting order is placed (CI read the venue between the two and saw one).
    const venueOrders = async (): Promise<string[]> =>
      (await fut.openOrders({})).filter((o) => o.symbol === PERP).map((o) => `${o.externalOid} ${Number(o.price)} ${Number(o.vol)}`);
    await waitFor(async () => (await venueOrders()).length === 2, 20_000, 'both resting BTC_USDT orders of pos1 at the venue');
    const apiLines = async (): Promise<string[]> =>
      (await call<Row[]>(base, '/api/orders'))
        .json()
        .filter((o) => o.symbol === PERP)
        .map((o) => `${o.clientOrderId} ${Number(o.price)} ${Number(o.quantity)}`);
    // Read back to back until they agree (an ack may be on its way), then compared once more.
    await waitFor(
      async () => JSON.stringify((await apiLines()).sort()) === JSON.stringify((await venueOrders()).sort()),
      10_000,
      'the API and the venue to list the same BTC_USDT orders',
    ).catch(() => undefined);
    expect((await apiLines()).sort()).to.deep.equal((await venueOrders()).sort());

    // The market maker requotes all the time: the two answers are read back to back until they agree.
    await waitFor(
      async () => {
        const api = (await call<Row[]>(base, '/api/orders')).json().filter((o) => o.symbol === 'BTCUSDT');
        const apiIds = api.map((o) => o.clientOrderId).sort();
        const venue = (await spot.openOrders({ symbol: 'BTCUSDT' })).map((o) => o.clientOrderId).sort();
        return apiIds.length > 0 && JSON.stringify(apiIds) === JSON.stringify(venue);
      },
      30_000,
      'the API and the venue to list the same BTCUSDT orders',
    );
    const status = (await call<Row>(base, '/api/status')).json();
    expect(status.mode).to.equal('paper');
    expect(status.killSwitch).to.equal(null);
    const strategies = (await call<Row[]>(base, '/api/strategies')).json();
    expect(strategies.map((s) => [s.id, s.state])).to.deep.equal([
      ['mm1', 'running'],
      ['pos1', 'running'],
    ]);
  });

  it('says_which_field_is_wrong', async () => {
    const noConfirm = await call<{ message: string }>(base, '/api/strategies/mm1/pause', { token: TOKEN, body: {} });
    expect(noConfirm.status).to.equal(400);
    expect(noConfirm.json().message).to.match(/^body\.confirm: /);
    const unknown = await call<{ message: string }>(base, '/api/strategies/nobody/pause', { token: TOKEN, body: { confirm: true } });
    expect(unknown.status).to.equal(404);
    expect(unknown.json().message).to.include('nobody');
    const badLimit = await call<{ message: string }>(base, '/api/fills?limit=0', { token: TOKEN });
    expect(badLimit.status).to.equal(400);
    expect(badLimit.json().message).to.match(/^query\.limit: /);
    expect(kit.run.runtime.isPaused('mm1')).to.equal(false);
  });

  it('pauses_a_strategy_it_places_nothing_more', async () => {
    // First see it act: the market maker places (requotes) within a few seconds while running.
    const before = submitted('mm1');
    await waitFor(() => submitted('mm1') > before, 30_000, 'mm1 to place an order while running');
    const res = await call<{ paused: boolean; done: string[] }>(base, '/api/strategies/mm1/pause', CONFIRM);
    expect(res.status).to.equal(200);
    expect(res.json().paused).to.equal(true);
    expect(res.json().done).to.deep.equal(['mm1 paused']);
    const atPause = submitted('mm1');
    // Twenty snapshots reach the paused run (what 4 s of polls at 300 + 500 ms bring), each one the
    // market maker would have requoted on: counted, not slept on.
    const snapshots = kit.run.runtime.stats.snapshots;
    await waitFor(() => kit.run.runtime.stats.snapshots >= snapshots + 20, 30_000, 'twenty snapshots while paused');
    expect(submitted('mm1')).to.equal(atPause);
    expect((await call<Row[]>(base, '/api/strategies')).json().find((s) => s.id === 'mm1')!.state).to.equal('paused');
    expect(kit.run.journal.controlActions().map((c) => `${c.action} ${c.strategyId}`)).to.deep.equal(['pause mm1']);
  });

  it('cancels_a_strategys_orders_at_the_venue', async () => {
    // pos1's two resting orders are 5 % away from the market: they stay until cancelled.
    const venueOrders = async (): Promise<string[]> =>
      (await fut.openOrders({}))
        .filter((o) => o.symbol === PERP)
        .map((o) => o.externalOid ?? '')
        .sort();
    const resting = await venueOrders();
    expect(resting).to.have.length(2);
    const res = await call<{ done: string[]; intents: Row[] }>(base, '/api/strategies/pos1/cancel-orders', CONFIRM);
    expect(res.status).to.equal(200);
    expect(res.json().intents.map((i) => i.kind)).to.deep.equal(['cancel-all']);
    expect(
      res
        .json()
        .done.filter((l) => l.startsWith('cancelled '))
        .sort(),
    ).to.deep.equal(resting.map((cid) => `cancelled ${cid} (user)`));
    expect(await venueOrders()).to.deep.equal([]);
    expect((await call<Row[]>(base, '/api/orders')).json().filter((o) => o.strategyId === 'pos1')).to.deep.equal([]);
  });

  it('flattens_a_position_through_risk_and_the_order_manager', async () => {
    const res = await call<{ done: string[]; intents: Row[] }>(base, '/api/strategies/pos1/flatten', CONFIRM);
    expect(res.status).to.equal(200);
    const body = res.json();
    // No order left to cancel: one market sell on the long leg (hedged mode closes a leg so) of its 10 contracts.
    expect(body.intents.map((i) => i.kind)).to.deep.equal(['place']);
    expect(body.intents[0]!.order).to.include({ side: 'sell', type: 'market', quantity: '10', positionSide: 'long' });
    expect(body.done).to.include('asked market sell 10 BTC_USDT');
    expect(body.done.some((l) => /^placed \S+ sell 10 BTC_USDT$/.test(l))).to.equal(true);
    await until(async () => (await venuePosition()) === 0, 10_000, 'the venue position to be flat');
    await until(
      async () => (await call<{ account: Row[] }>(base, '/api/positions')).json().account.every((p) => p.symbol !== PERP),
      10_000,
      'the API to show no BTC_USDT position',
    );
    const journaled = kit.run.journal.controlActions().map((c) => `${c.action} ${c.strategyId}`);
    expect(journaled).to.deep.equal(['pause mm1', 'cancel-orders pos1', 'flatten pos1']);
  });

  it('serves_prometheus_text_that_agrees_with_the_journal', async () => {
    // The flattening sell's fill reaches the journal when the order manager next reads the order.
    const isFill = (e: ExecutionEvent): e is Extract<ExecutionEvent, { type: 'OrderFilled' | 'OrderPartiallyFilled' }> =>
      e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled';
    const fills = (sid: string, sym: string): number =>
      events().filter((e) => isFill(e) && e.strategyId === sid && e.fill.symbol === sym).length;
    await waitFor(() => fills('pos1', PERP) >= 2, 10_000, 'the fill of the flattening sell');
    // At least one status request of its own (the metric below counts them), whatever the tests before did.
    expect((await call(base, '/api/status')).status).to.equal(200);
    const res = await call(base, '/metrics');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
    const { types, samples } = parsePromText(res.text);
    expect(types.get('perpetua_orders_total')).to.equal('counter');
    expect(types.get('perpetua_console_request_duration_seconds')).to.equal('histogram');
    // Counted independently from the journal's events.
    expect(sampleValue(samples, 'perpetua_fills_total', { strategy: 'pos1', symbol: PERP })).to.equal(fills('pos1', PERP));
    expect(fills('pos1', PERP)).to.be.greaterThan(1); // the opening buy and the flattening sell
    expect(sampleValue(samples, 'perpetua_orders_total', { strategy: 'pos1', symbol: PERP, action: 'placed' })).to.equal(submitted('pos1'));
    expect(sampleValue(samples, 'perpetua_strategy_paused', { strategy: 'mm1' })).to.equal(1);
    expect(sampleValue(samples, 'perpetua_strategy_paused', { strategy: 'pos1' })).to.equal(0);
    expect(sampleValue(samples, 'perpetua_position', { symbol: PERP, leg: 'long' }) ?? 0).to.equal(0);
    const route = { route: '/api/status', method: 'GET', status: '200' };
    const statusCalls = sampleValue(samples, 'perpetua_console_request_duration_seconds_count', route);
    expect(statusCalls).to.be.greaterThan(0);
    // Exchange requests, from the client transport's observer hook: every order the journal says was
    // submitted went out in a request of a catalogue endpoint (batch places carry several), so the
    // requests counted by endpoint are at least one and weigh at least their count (every weight ≥ 1).
    expect(types.get('perpetua_exchange_request_duration_seconds')).to.equal('histogram');
    expect(types.get('perpetua_exchange_weight_total')).to.equal('counter');
    const counts = samples.filter((s) => s.name === 'perpetua_exchange_request_duration_seconds_count');
    const weights = samples.filter((s) => s.name === 'perpetua_exchange_weight_total');
    const endpoints = new Set(counts.map((s) => s.labels.endpoint!));
    expect(
      [...endpoints].every((e) => /^(spot|contract)\.[A-Za-z0-9]+$/.test(e)),
      [...endpoints].join(' '),
    ).to.equal(true);
    const placed = counts.filter((s) => /^(spot|contract)\.(newOrder|batchOrders|createOrder|submitBatch)$/.test(s.labels.endpoint!));
    expect(placed.length, [...endpoints].join(' ')).to.be.greaterThan(0);
    for (const e of endpoints) {
      const n = counts.filter((s) => s.labels.endpoint === e).reduce((a, s) => a + s.value, 0);
      const w = weights.filter((s) => s.labels.endpoint === e).reduce((a, s) => a + s.value, 0);
      expect(w, `weight of ${e}`).to.be.at.least(n);
    }
    // Bounded labels: only configured strategies and symbols (or `none` / `other`) appear.
    for (const s of samples) {
      if (s.labels.strategy !== undefined) expect(['mm1', 'pos1', 'none', 'other']).to.include(s.labels.strategy);
      if (s.labels.symbol !== undefined) expect(['BTCUSDT', 'BTC_USDT', 'other']).to.include(s.labels.symbol);
    }
  });

  it('resumes_then_stops_the_run_on_request', async () => {
    const resumed = await call<{ paused: boolean }>(base, '/api/strategies/mm1/resume', { token: TOKEN, body: { confirm: true } });
    expect(resumed.json().paused).to.equal(false);
    const at = submitted('mm1');
    await waitFor(() => submitted('mm1') > at, 30_000, 'mm1 to quote again after resume');
    const body = { confirm: true, reason: 'done testing' };
    const stop = await call<{ stopping: boolean; reason: string }>(base, '/api/stop', { token: TOKEN, body });
    expect(stop.status).to.equal(200);
    expect(stop.json()).to.deep.equal({ stopping: true, reason: 'console: done testing' });
    expect(await kit.stopRequested).to.equal('console: done testing');
  });
});
