import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { ContractClient } from '../../../src/client/contract-client.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/start-emulator.js';
import { ALICE, T0, testConfig } from '../../emulator/support/emulator-kit.js';

const CAROL = { apiKey: 'mx0vglCarolKey01', secret: 'carol-secret-0123456789abcdef' } as const;
const SYMBOL = 'BTC_USDT';

/**
 * The trigger scenarios over real HTTP: our ContractClient against the in-process emulator,
 * market model stopped, fair and index prices set by the test through the emulator's contract engine
 * (the same command the market model issues). BTC_USDT: contractSize 0.0001, tick 0.1, taker fee
 * 0.0001, maker 0. alice holds 100 000 USDT, carol (the counterparty) 50 000.
 */
describe('trigger orders over HTTP', () => {
  let emu: RunningEmulator;
  let alice: ContractClient;
  let carol: ContractClient;

  beforeEach(async () => {
    const clock = new VirtualClock(T0);
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
    fair('87500');
    index('87500');
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

  const fair = (p: string) => emu.contract.venue.setFairPrice(SYMBOL, p);
  const index = (p: string) => emu.contract.venue.setIndexPrice(SYMBOL, p);
  const available = async (c: ContractClient) => (await c.assets({})).find((a) => a.currency === 'USDT')!.availableBalance.toFixed();
  /** carol rests a short of 10 at 87 500, alice takes it as a long (10×, isolated): fee 87.5·0.0001 = 0.00875, im 8.75. */
  const aliceLong = async () => {
    await carol.createOrder({ symbol: SYMBOL, price: 87500, vol: 10, leverage: 10, side: 3, type: 1, openType: 1 });
    await alice.createOrder({ symbol: SYMBOL, price: 87500, vol: 10, leverage: 10, side: 1, type: 1, openType: 1 });
    const [p] = await alice.openPositions({});
    return p!;
  };

  it('closes_a_long_on_its_stop_loss_when_the_fair_price_falls_to_it', async () => {
    await carol.createOrder({ symbol: SYMBOL, price: 87500, vol: 10, leverage: 10, side: 3, type: 1, openType: 1 });
    const created = await alice.createOrder({
      symbol: SYMBOL,
      price: 87500,
      vol: 10,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      stopLossPrice: 86000,
      lossTrend: 2,
      takeProfitPrice: 90000,
      profitTrend: 1,
    });
    const [pos] = await alice.openPositions({});
    const [armed] = await alice.openStopOrders({});
    expect([
      armed!.orderId,
      armed!.positionId,
      armed!.vol?.toFixed(),
      armed!.state,
      armed!.lossTrend,
      armed!.stopLossPrice?.toFixed(),
      armed!.profitTrend,
      armed!.takeProfitPrice?.toFixed(),
    ]).to.deep.equal([created.orderId, pos!.positionId, '10', 1, 2, '86000', 1, '90000']);
    await carol.createOrder({ symbol: SYMBOL, price: 86000, vol: 10, side: 2, type: 1, openType: 1 });
    index('85000'); // another trend: no trigger
    fair('86000.1');
    expect(await alice.openStopOrders({})).to.have.length(1);
    fair('86000');

    expect(await alice.openPositions({})).to.deep.equal([]);
    expect(await alice.openStopOrders({})).to.deep.equal([]);
    const [done] = await alice.stopOrders({ symbol: SYMBOL, is_finished: 1 });
    expect([done!.state, done!.triggerSide, done!.realityVol?.toFixed(), done!.isFinished, done!.errorCode]).to.deep.equal([
      3,
      2,
      '10',
      1,
      0,
    ]);
    const close = await alice.getOrder({ orderId: done!.placeOrderId! });
    expect([close.side, close.orderType, close.state, close.dealVol?.toFixed(), close.dealAvgPrice?.toFixed()]).to.deep.equal([
      4,
      5,
      3,
      '10',
      '86000',
    ]);
    const history = await alice.historyPositions({ symbol: SYMBOL });
    // (86000 − 87500)·10·0.0001 = −1.5
    expect(history.resultList.map((h) => h.closeProfitLoss?.toFixed())).to.deep.equal(['-1.5']);
    // 100000 − 0.00875 (open fee) − 1.5 − 0.0086 (close fee 86·0.0001) = 99998.48265
    expect(await available(alice)).to.equal('99998.48265');
    // carol made 1.5 as maker both times (maker fee 0).
    expect(await available(carol)).to.equal('50001.5');
  });

  it('reverses_the_position_after_its_take_profit', async () => {
    const pos = await aliceLong();
    const id = await alice.placeStopOrder({
      symbol: SYMBOL,
      positionId: pos.positionId,
      vol: 10,
      takeProfitPrice: 88000,
      profitTrend: 2,
      takeProfitReverse: 1,
    });
    expect(id).to.be.a('string');
    // carol bids to close her short and to open a long: liquidity for the close and for the reverse.
    await carol.createOrder({ symbol: SYMBOL, price: 88000, vol: 10, side: 2, type: 1, openType: 1 });
    await carol.createOrder({ symbol: SYMBOL, price: 88000, vol: 10, leverage: 10, side: 1, type: 1, openType: 1 });
    fair('87999.9');
    expect((await alice.openStopOrders({})).map((s) => s.id)).to.deep.equal([id]);
    fair('88000');

    const [s] = await alice.stopOrders({});
    expect([
      s!.id,
      s!.state,
      s!.triggerSide,
      s!.realityVol?.toFixed(),
      s!.takeProfitReverse,
      s!.reverseTryTimes,
      s!.reverseErrorCode,
    ]).to.deep.equal([id, 3, 1, '10', 1, 1, 0]);
    const positions = await alice.openPositions({});
    expect(
      positions.map((p) => [p.positionType, p.holdVol.toFixed(), p.openAvgPrice?.toFixed(), p.im?.toFixed(), p.leverage]),
    ).to.deep.equal([[2, '10', '88000', '8.8', 10]]);
    // 100000 − 0.00875 + 0.5 ((88000−87500)·10·0.0001) − 0.0088 (close fee) − 0.0088 (reverse fee)
    // − 8.8 (short im 88/10) = 99991.67365
    expect(await available(alice)).to.equal('99991.67365');
    expect((await carol.openPositions({})).map((p) => [p.positionType, p.holdVol.toFixed()])).to.deep.equal([[1, '10']]);
  });

  it('trails_the_high_after_activation_and_fires_on_a_1_percent_callback', async () => {
    await aliceLong();
    const id = await alice.placeTrackOrder({
      symbol: SYMBOL,
      leverage: 10,
      side: 4,
      vol: 10,
      openType: 1,
      trend: 2,
      backType: 1,
      backValue: 0.01,
      positionMode: 1,
      activePrice: 88000,
    });
    const all = [0, 1, 2, 3, 4] as const;
    let [t] = await alice.trackOrders({ states: all });
    expect([t!.id, t!.state, t!.markPrice, t!.triggerPrice, t!.triggerType]).to.deep.equal([id, 0, undefined, undefined, 2]);
    await carol.createOrder({ symbol: SYMBOL, price: 88100, vol: 10, side: 2, type: 1, openType: 1 });
    fair('87800');
    fair('88000');
    [t] = await alice.trackOrders({ states: [1] });
    // Active at 88000: trigger 88000·0.99 = 87120.
    expect([t!.state, t!.markPrice?.toFixed(), t!.triggerPrice?.toFixed()]).to.deep.equal([1, '88000', '87120']);
    fair('89000');
    fair('88500');
    fair('88110.1');
    [t] = await alice.trackOrders({ states: all });
    // Highest 89000: trigger 89000·0.99 = 88110; 88500 and 88110.1 are above it.
    expect([t!.state, t!.markPrice?.toFixed(), t!.triggerPrice?.toFixed()]).to.deep.equal([1, '89000', '88110']);
    fair('88110');

    [t] = await alice.trackOrders({ states: [2] });
    expect([t!.id, t!.state, t!.errorCode]).to.deep.equal([id, 2, 0]);
    const o = await alice.getOrder({ orderId: t!.orderId! });
    expect([o.side, o.orderType, o.dealVol?.toFixed(), o.dealAvgPrice?.toFixed()]).to.deep.equal([4, 5, '10', '88100']);
    expect(await alice.openPositions({})).to.deep.equal([]);
    // 100000 − 0.00875 + 0.6 ((88100−87500)·10·0.0001) − 0.00881 (88.1·0.0001) = 100000.58244
    expect(await available(alice)).to.equal('100000.58244');
  });

  it('places_its_order_when_the_index_price_reaches_the_trigger', async () => {
    const id = await alice.placePlanOrderV2({
      symbol: SYMBOL,
      price: 88000,
      vol: 10,
      leverage: 10,
      side: 1,
      openType: 1,
      triggerPrice: 88000,
      triggerType: 1,
      executeCycle: 1,
      orderType: 1,
      trend: 3,
      stopLossPrice: 86000,
      lossTrend: 2,
    });
    let [p] = await alice.planOrders({ states: [1] });
    expect([
      p!.id,
      p!.state,
      p!.executeCycle,
      p!.trend,
      p!.triggerType,
      p!.triggerPrice.toFixed(),
      p!.stopLossPrice?.toFixed(),
    ]).to.deep.equal([id, 1, 24, 3, 1, '88000', '86000']);
    // No margin while it waits.
    expect(await available(alice)).to.equal('100000');
    await carol.createOrder({ symbol: SYMBOL, price: 88000, vol: 10, leverage: 10, side: 3, type: 1, openType: 1 });
    fair('88500'); // another trend
    index('87999.9');
    expect((await alice.planOrders({ states: [1] })).map((x) => x.id)).to.deep.equal([id]);
    index('88000');

    [p] = await alice.planOrders({ states: [3] });
    expect([p!.id, p!.state, p!.errorCode]).to.deep.equal([id, 3, 0]);
    const o = await alice.getOrder({ orderId: p!.orderId! });
    expect([o.side, o.orderType, o.price.toFixed(), o.state, o.dealVol?.toFixed()]).to.deep.equal([1, 1, '88000', 3, '10']);
    const [pos] = await alice.openPositions({});
    expect([pos!.positionType, pos!.holdVol.toFixed(), pos!.openAvgPrice?.toFixed(), pos!.im?.toFixed()]).to.deep.equal([
      1,
      '10',
      '88000',
      '8.8',
    ]);
    // The plan order's stop-loss now guards the position it opened.
    const [s] = await alice.openStopOrders({ symbol: SYMBOL });
    expect([s!.orderId, s!.positionId, s!.vol?.toFixed(), s!.stopLossPrice?.toFixed(), s!.lossTrend]).to.deep.equal([
      p!.orderId,
      pos!.positionId,
      '10',
      '86000',
      2,
    ]);
    // 100000 − 8.8 (im) − 0.0088 (taker fee 88·0.0001) = 99991.1912
    expect(await available(alice)).to.equal('99991.1912');
  });
});
