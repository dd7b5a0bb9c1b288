import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { ExchangeError } from '../../src/core/errors.js';
import { ContractClient } from '../../src/client/contract-client.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, T0, testConfig } from './support/emulator-kit.js';

const CAROL = { apiKey: 'mx0vglCarolKey01', secret: 'carol-secret-0123456789abcdef' } as const;

/**
 * Perpetual trading through our ContractClient, market model stopped, fair price pinned at 87 500 so
 * margins and PnL can be worked out by hand. BTC_USDT: contractSize 0.0001, taker 0.0001, maker 0.
 */
describe('emulator contract trading', () => {
  let clock: VirtualClock;
  let emu: RunningEmulator;
  let alice: ContractClient;
  let carol: ContractClient;

  beforeEach(async () => {
    clock = new VirtualClock(T0);
    const base = testConfig();
    emu = await startEmulator(
      {
        ...base,
        accounts: [
          ...(base.accounts ?? []),
          { name: 'carol', apiKey: CAROL.apiKey, secretKey: CAROL.secret, contract: { balances: { USDT: '50000' } } },
        ],
      },
      { clock, marketStopped: true },
    );
    emu.contract.venue.setFairPrice('BTC_USDT', '87500');
    emu.contract.venue.setIndexPrice('BTC_USDT', '87500');
    const opts = { baseUrl: emu.url, clock, rateLimits: false as const, timeSync: false as const };
    alice = new ContractClient({ ...opts, credentials: { apiKey: ALICE.apiKey, secretKey: ALICE.secret } });
    carol = new ContractClient({ ...opts, credentials: { apiKey: CAROL.apiKey, secretKey: CAROL.secret } });
  });

  afterEach(async () => {
    await alice.close();
    await carol.close();
    expect(emu.checkInvariants()).to.deep.equal([]);
    await emu.stop();
  });

  const usdt = async (c: ContractClient) => (await c.assets({})).find((a) => a.currency === 'USDT')!;

  it('opens_a_long_against_a_resting_short_with_margin_and_fee_worked_out', async () => {
    await carol.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 10, leverage: 10, side: 3, type: 1, openType: 1 });
    const placed = await alice.createOrder({
      symbol: 'BTC_USDT',
      price: 87500,
      vol: 10,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      externalOid: 'pp-c1',
    });
    expect(placed.orderId).to.be.a('string');
    const positions = await alice.openPositions({});
    expect(positions).to.have.length(1);
    const p = positions[0]!;
    // notional 10 × 0.0001 × 87500 = 87.5; im at 10× = 8.75; taker fee 87.5 × 0.0001 = 0.00875.
    expect([p.positionType, p.holdVol.toFixed(), p.openAvgPrice?.toFixed(), p.im?.toFixed(), p.leverage]).to.deep.equal([
      1,
      '10',
      '87500',
      '8.75',
      10,
    ]);
    const a = await usdt(alice);
    expect(a.positionMargin.toFixed()).to.equal('8.75');
    // 100000 − 8.75 − 0.00875 = 99991.24125
    expect(a.availableBalance.toFixed()).to.equal('99991.24125');
    const order = await alice.orderByExternalOid({ symbol: 'BTC_USDT', external_oid: 'pp-c1' });
    expect([order.state, order.dealVol?.toFixed(), order.takerFee?.toFixed()]).to.deep.equal([3, '10', '0.00875']);
  });

  it('realises_pnl_when_the_long_is_closed_higher', async () => {
    await carol.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 10, leverage: 10, side: 3, type: 1, openType: 1 });
    await alice.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 10, leverage: 10, side: 1, type: 1, openType: 1 });
    await carol.createOrder({ symbol: 'BTC_USDT', price: 87600, vol: 10, side: 2, type: 1, openType: 1 });
    await alice.createOrder({ symbol: 'BTC_USDT', price: 87600, vol: 10, side: 4, type: 1, openType: 1 });
    expect(await alice.openPositions({})).to.deep.equal([]);
    const history = await alice.historyPositions({ symbol: 'BTC_USDT' });
    // (87600 − 87500) × 10 × 0.0001 = 0.1 realised before fees.
    expect(history.resultList.map((h) => h.closeProfitLoss?.toFixed())).to.deep.equal(['0.1']);
    // 100000 + 0.1 − 0.00875 (open fee) − 0.00876 (close fee: 87.6 × 0.0001) = 100000.08249
    expect((await usdt(alice)).availableBalance.toFixed()).to.equal('100000.08249');
  });

  it('answers_cancel_per_order_with_0_2040_and_2041', async () => {
    const resting = await alice.createOrder({ symbol: 'BTC_USDT', price: 87000, vol: 5, leverage: 10, side: 1, type: 1, openType: 1 });
    await carol.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 1, leverage: 10, side: 3, type: 1, openType: 1 });
    const filled = await alice.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 1, leverage: 10, side: 1, type: 1, openType: 1 });
    const res = await alice.cancelOrders([resting.orderId, '424242', filled.orderId]);
    expect(res.map((r) => [r.orderId, r.errorCode])).to.deep.equal([
      [resting.orderId, 0],
      ['424242', 2040],
      [filled.orderId, 2041],
    ]);
  });

  it('changes_and_chases_a_resting_limit_order', async () => {
    await carol.createOrder({ symbol: 'BTC_USDT', price: 87400, vol: 2, leverage: 10, side: 1, type: 1, openType: 1 });
    const mine = await alice.createOrder({ symbol: 'BTC_USDT', price: 87000, vol: 5, leverage: 10, side: 1, type: 1, openType: 1 });
    const changed = await alice.changeLimitOrder({ orderId: mine.orderId, price: 87100, vol: 4 });
    expect(String(changed)).to.equal(mine.orderId);
    let o = await alice.getOrder({ orderId: mine.orderId });
    expect([o.price.toFixed(), o.vol.toFixed()]).to.deep.equal(['87100', '4']);
    await alice.chaseLimitOrder({ orderId: mine.orderId });
    o = await alice.getOrder({ orderId: mine.orderId });
    // Chased to the best bid of its own side: carol's 87400.
    expect(o.price.toFixed()).to.equal('87400');
  });

  it('cancels_all_and_refuses_an_unknown_contract_with_1001', async () => {
    await alice.createOrder({ symbol: 'BTC_USDT', price: 87000, vol: 5, leverage: 10, side: 1, type: 1, openType: 1 });
    await alice.cancelAll({ symbol: '' });
    expect(await alice.openOrders({})).to.deep.equal([]);
    let err: unknown;
    try {
      await alice.createOrder({ symbol: 'DOGE_USDT', price: 1, vol: 1, leverage: 10, side: 1, type: 1, openType: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ExchangeError);
    expect((err as ExchangeError).venueCode).to.equal(1001);
  });

  it('serves_detail_and_ticker_as_arrays_without_a_symbol', async () => {
    const detail = await alice.contractDetail({});
    expect(Array.isArray(detail)).to.equal(true);
    expect((detail as { symbol: string }[]).map((d) => d.symbol)).to.deep.equal(['BTC_USDT', 'ETH_USDT']);
    const one = await alice.contractDetail({ symbol: 'ETH_USDT' });
    expect(Array.isArray(one)).to.equal(false);
    const tickers = await alice.ticker({});
    expect(Array.isArray(tickers)).to.equal(true);
  });
});
