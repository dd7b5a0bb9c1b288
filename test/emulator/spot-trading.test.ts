import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { ExchangeError } from '../../src/core/errors.js';
import { SpotClient } from '../../src/client/spot-client.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, BOB, T0, raw, testConfig } from './support/emulator-kit.js';

/**
 * Spot trading through our own SpotClient against the emulator, market model stopped so the book holds
 * only the test's orders and every number can be worked out by hand. Reference price 87 500 (preset):
 * the PERCENT_PRICE_BY_SIDE band of 0.005 lets buys up to 87 937.50 and sells down to 87 062.50.
 */
describe('emulator spot trading', () => {
  let clock: VirtualClock;
  let emu: RunningEmulator;
  let alice: SpotClient;
  let bob: SpotClient;

  beforeEach(async () => {
    clock = new VirtualClock(T0);
    emu = await startEmulator(testConfig(), { clock, marketStopped: true });
    const opts = { baseUrl: emu.url, clock, rateLimits: false as const, timeSync: false as const };
    alice = new SpotClient({ ...opts, credentials: { apiKey: ALICE.apiKey, secretKey: ALICE.secret } });
    bob = new SpotClient({ ...opts, credentials: { apiKey: BOB.apiKey, secretKey: BOB.secret } });
  });

  afterEach(async () => {
    await alice.close();
    await bob.close();
    expect(emu.checkInvariants()).to.deep.equal([]);
    await emu.stop();
  });

  const balance = async (c: SpotClient, asset: string) => {
    const acct = await c.account({});
    const b = acct.balances.find((x) => x.asset === asset);
    return { free: b?.free.toFixed() ?? '0', locked: b?.locked.toFixed() ?? '0' };
  };

  it('rests_a_limit_order_and_locks_its_quote', async () => {
    const placed = await alice.newOrder({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.001',
      price: '87000',
      newClientOrderId: 'pp-t1',
    });
    expect(placed.symbol).to.equal('BTCUSDT');
    // 0.001 × 87000 = 87 USDT locked; 100000 − 87 = 99913 free.
    expect(await balance(alice, 'USDT')).to.deep.equal({ free: '99913', locked: '87' });
    const open = await alice.openOrders({ symbol: 'BTCUSDT' });
    expect(open.map((o) => o.orderId)).to.deep.equal([placed.orderId]);
    const q = await alice.queryOrder({ symbol: 'BTCUSDT', origClientOrderId: 'pp-t1' });
    expect(q.status).to.equal('NEW');
    expect(q.origQty.toFixed()).to.equal('0.001');
  });

  it('fills_two_accounts_against_each_other_with_fees_taken_from_what_each_receives', async () => {
    await bob.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '87100' });
    const taker = await alice.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.004', price: '87100' });
    // 0.004 × 87100 = 348.4 USDT. Alice (taker, 0.0005) pays 0.004 × 0.0005 = 0.000002 BTC; bob (maker, 0) nothing.
    expect(await balance(alice, 'USDT')).to.deep.equal({ free: '99651.6', locked: '0' });
    expect(await balance(alice, 'BTC')).to.deep.equal({ free: '2.003998', locked: '0' });
    expect(await balance(bob, 'USDT')).to.deep.equal({ free: '50348.4', locked: '0' });
    // 1 − 0.01 = 0.99 free; 0.01 − 0.004 = 0.006 still locked by the resting remainder.
    expect(await balance(bob, 'BTC')).to.deep.equal({ free: '0.99', locked: '0.006' });
    const filled = await alice.queryOrder({ symbol: 'BTCUSDT', orderId: taker.orderId });
    expect(filled.status).to.equal('FILLED');
    expect(filled.cummulativeQuoteQty.toFixed()).to.equal('348.4');
    const trades = await alice.myTrades({ symbol: 'BTCUSDT' });
    expect(trades).to.have.length(1);
    expect(trades[0]!.isBuyer).to.equal(true);
    expect(trades[0]!.isMaker).to.equal(false);
    expect(trades[0]!.commission?.toFixed()).to.equal('0.000002');
    const tape = await alice.trades({ symbol: 'BTCUSDT', limit: 5 });
    expect(tape[0]!.price.toFixed()).to.equal('87100');
    expect(tape[0]!.tradeType).to.equal('BID');
  });

  it('answers_a_batch_with_successes_and_failures_mixed_in_request_order', async () => {
    const res = await alice.batchOrders({
      batchOrders: [
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '87000', newClientOrderId: 'b1' },
        // 0.000001 × 87000 = 0.087 USDT < the 1 USDT minimum → 30002.
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.000001', price: '87000', newClientOrderId: 'b2' },
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.002', price: '86990', newClientOrderId: 'b3' },
      ],
    });
    expect(res.map((r) => r.ok)).to.deep.equal([true, false, true]);
    expect(res[1]).to.deep.include({ ok: false, code: 30002, newClientOrderId: 'b2' });
    expect((await alice.openOrders({ symbol: 'BTCUSDT' })).map((o) => o.clientOrderId)).to.deep.equal(['b1', 'b3']);
  });

  it('cancels_by_client_id_and_answers_2011_for_a_second_cancel', async () => {
    await alice.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '87000', newClientOrderId: 'c1' });
    const cancelled = await alice.cancelOrder({ symbol: 'BTCUSDT', origClientOrderId: 'c1' });
    expect(cancelled.status).to.equal('CANCELED');
    expect(await balance(alice, 'USDT')).to.deep.equal({ free: '100000', locked: '0' });
    let err: unknown;
    try {
      await alice.cancelOrder({ symbol: 'BTCUSDT', origClientOrderId: 'c1' });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ExchangeError);
    expect((err as ExchangeError).venueCode).to.equal(-2011);
  });

  it('cancels_all_open_orders_of_a_symbol', async () => {
    await alice.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '87000' });
    await alice.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '87900' });
    const out = await alice.cancelOpenOrders({ symbol: 'BTCUSDT' });
    expect(out.map((o) => o.status)).to.deep.equal(['CANCELED', 'CANCELED']);
    expect(await alice.openOrders({})).to.deep.equal([]);
  });

  it('answers_2013_for_an_unknown_order_and_minus_1121_for_an_unknown_symbol', async () => {
    const q = await raw(emu.url, 'GET', '/api/v3/depth?symbol=NOPEUSDT');
    expect(q.status).to.equal(400);
    expect(q.json).to.deep.equal({ code: -1121, msg: 'Invalid symbol.' });
    let err: unknown;
    try {
      await alice.queryOrder({ symbol: 'BTCUSDT', orderId: '999999' });
    } catch (e) {
      err = e;
    }
    expect((err as ExchangeError).venueCode).to.equal(-2013);
  });

  it('validates_a_test_order_without_touching_funds', async () => {
    expect(await alice.testNewOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '87000' })).to.deep.equal(
      {},
    );
    expect(await alice.openOrders({})).to.deep.equal([]);
    expect(await balance(alice, 'USDT')).to.deep.equal({ free: '100000', locked: '0' });
  });

  it('reports_history_in_all_orders', async () => {
    await alice.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '87000', newClientOrderId: 'h1' });
    await alice.cancelOrder({ symbol: 'BTCUSDT', origClientOrderId: 'h1' });
    await alice.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '87001', newClientOrderId: 'h2' });
    const all = await alice.allOrders({ symbol: 'BTCUSDT' });
    expect(all.map((o) => [o.clientOrderId, o.status])).to.deep.equal([
      ['h1', 'CANCELED'],
      ['h2', 'NEW'],
    ]);
  });
});

describe('emulator spot signature test vector', () => {
  it('accepts_the_documented_request_signed_with_the_documented_secret', async () => {
    // wire-protocol.md: secret 45d0b3c2…, message symbol=BTCUSDT&…&timestamp=1644489390087 → fd3e4e85….
    const secret = '45d0b3c26f2644f19bfb98b07741b2f5';
    const emu = await startEmulator(
      testConfig({
        clock: { mode: 'virtual', start: 1644489390087, stepMs: 0 },
        accounts: [{ name: 'vector', apiKey: 'mx0vglVectorKey1', secretKey: secret, spot: { balances: { USDT: '100' } } }],
      }),
      { marketStopped: true },
    );
    try {
      const message = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=11&recvWindow=5000&timestamp=1644489390087';
      const res = await raw(
        emu.url,
        'POST',
        `/api/v3/order/test?${message}&signature=fd3e4e8543c5188531eb7279d68ae7d26a573d0fc5ab0d18eb692451654d837a`,
        {
          headers: { 'X-MEXC-APIKEY': 'mx0vglVectorKey1' },
        },
      );
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.equal({});
    } finally {
      await emu.stop();
    }
  });
});
