import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '../../../src/core/clock.js';
import { ExchangeError } from '../../../src/core/errors.js';
import { ContractClient } from '../../../src/client/contract-client.js';
import type { EmulatorConfigInput } from '../../../src/emulator/emulator-config.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/start-emulator.js';
import { ALICE, BOB, T0, testConfig } from '../../emulator/support/emulator-kit.js';

const CAROL = { apiKey: 'mx0vglCarolKey01', secret: 'carol-secret-0123456789abcdef' } as const;
const SYMBOL = 'BTC_USDT';

const withCarol = (base: EmulatorConfigInput): EmulatorConfigInput => ({
  ...base,
  accounts: [
    ...(base.accounts ?? []),
    { name: 'carol', apiKey: CAROL.apiKey, secretKey: CAROL.secret, contract: { balances: { USDT: '50000' } } },
  ],
});

async function venueCode(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ExchangeError) return e.venueCode;
    throw e;
  }
  return 0;
}

/**
 * The changing, cancelling and listing endpoints of the trigger orders through our ContractClient,
 * and their survival across an emulator restart. Market model stopped; fair and index pinned at 87 500.
 */
describe('trigger order endpoints over HTTP', () => {
  let emu: RunningEmulator;
  let clock: VirtualClock;
  let alice: ContractClient;
  let carol: ContractClient;
  const clients: ContractClient[] = [];
  const client = (url: string, key: { apiKey: string; secret: string }) => {
    const c = new ContractClient({
      baseUrl: url,
      clock,
      rateLimits: false,
      timeSync: false,
      credentials: { apiKey: key.apiKey, secretKey: key.secret },
    });
    clients.push(c);
    return c;
  };

  beforeEach(async () => {
    clock = new VirtualClock(T0);
    emu = await startEmulator(withCarol(testConfig()), { clock, marketStopped: true });
    emu.contract.venue.setFairPrice(SYMBOL, '87500');
    emu.contract.venue.setIndexPrice(SYMBOL, '87500');
    alice = client(emu.url, ALICE);
    carol = client(emu.url, CAROL);
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    expect(emu.checkInvariants()).to.deep.equal([]);
    await emu.stop();
  });

  const aliceLong = async () => {
    await carol.createOrder({ symbol: SYMBOL, price: 87500, vol: 10, leverage: 10, side: 3, type: 1, openType: 1 });
    await alice.createOrder({ symbol: SYMBOL, price: 87500, vol: 10, leverage: 10, side: 1, type: 1, openType: 1 });
    return (await alice.openPositions({}))[0]!;
  };

  it('sets_changes_and_cancels_the_tp_sl_of_a_resting_limit_order', async () => {
    const { orderId } = await alice.createOrder({ symbol: SYMBOL, price: 87000, vol: 5, leverage: 10, side: 1, type: 1, openType: 1 });
    await alice.changeStopPrice({ orderId, stopLossPrice: 85000, takeProfitPrice: 90000, lossTrend: 2, takeProfitReverse: 1 });
    let [s] = await alice.openStopOrders({});
    expect([
      s!.orderId,
      s!.positionId,
      s!.vol?.toFixed(),
      s!.stopLossPrice?.toFixed(),
      s!.lossTrend,
      s!.takeProfitPrice?.toFixed(),
      s!.takeProfitReverse,
    ]).to.deep.equal([orderId, '0', '0', '85000', 2, '90000', 1]);
    expect(await venueCode(alice.changeStopPrice({ orderId, takeProfitPrice: 86000 }))).to.equal(600);
    await alice.changePlanPrice({ stopPlanOrderId: s!.id, stopLossPrice: 84000 });
    [s] = await alice.openStopOrders({});
    // The refused change left it alone: version 1 at creation, 2 after change_plan_price.
    expect([s!.stopLossPrice?.toFixed(), s!.takeProfitPrice?.toFixed(), s!.version]).to.deep.equal(['84000', '90000', 2]);
    expect((await alice.openOrderTotalCount({})).stopOrderCount).to.equal(1);
    await alice.changeStopPrice({ orderId, stopLossPrice: null, takeProfitPrice: 0 });
    expect(await alice.openStopOrders({})).to.deep.equal([]);
    expect((await alice.stopOrders({ state: 2 })).map((x) => x.id)).to.deep.equal([s!.id]);
  });

  it('cancels_stop_orders_and_answers_2040_for_an_unknown_one', async () => {
    const pos = await aliceLong();
    const a = await alice.placeStopOrder({ symbol: SYMBOL, positionId: pos.positionId, vol: 5, stopLossPrice: 86000 });
    const b = await alice.placeStopOrder({
      symbol: SYMBOL,
      positionId: pos.positionId,
      vol: 5,
      takeProfitPrice: 89000,
      takeProfitType: 1,
      takeProfitOrderPrice: 89100,
    });
    const c = await alice.placeStopOrder({
      symbol: SYMBOL,
      positionId: pos.positionId,
      vol: 1,
      volType: 2,
      stopLossPrice: 85000,
      profitLossVolType: 'SAME',
    });
    expect((await alice.stopOrders({ is_finished: 0, type: 1 })).map((x) => [x.id, x.volType, x.vol?.toFixed()])).to.deep.equal([
      [c, 2, '10'],
      [b, 1, '5'],
      [a, 1, '5'],
    ]);
    await alice.cancelStopOrders([{ stopPlanOrderId: a! }]);
    expect(await venueCode(alice.cancelStopOrders([{ stopPlanOrderId: '123' }]))).to.equal(2040);
    expect(await venueCode(alice.cancelStopOrders([{ stopPlanOrderId: a! }]))).to.equal(2041);
    await alice.cancelAllStopOrders({ positionId: pos.positionId });
    expect((await alice.stopOrders({ state: 2 })).map((x) => x.id)).to.deep.equal([c, b, a]);
    // A position that is not alice's.
    expect(await venueCode(alice.placeStopOrder({ positionId: '999', vol: 1, stopLossPrice: 86000 }))).to.equal(2009);
  });

  it('changes_the_tp_sl_of_a_plan_order_by_the_documented_rules', async () => {
    const id = await alice.placePlanOrder({
      symbol: SYMBOL,
      price: 88000,
      vol: 2,
      leverage: 10,
      side: 1,
      openType: 1,
      triggerPrice: 88000,
      triggerType: 1,
      executeCycle: 2,
      trend: 1,
      orderType: 1,
    });
    let [p] = await alice.planOrders({});
    expect([p!.id, p!.executeCycle, p!.stopLossPrice]).to.deep.equal([id, 168, undefined]);
    await alice.changeStopOrder({ symbol: SYMBOL, orderId: id, stopLossPrice: 86000, takeProfitPrice: 90000, profitTrend: 3 });
    [p] = await alice.planOrders({});
    // Omitted lossTrend counts as 1.
    expect([p!.stopLossPrice?.toFixed(), p!.lossTrend, p!.takeProfitPrice?.toFixed(), p!.profitTrend]).to.deep.equal([
      '86000',
      1,
      '90000',
      3,
    ]);
    await alice.changeStopOrder({ symbol: SYMBOL, orderId: id, stopLossPrice: null, takeProfitPrice: 90000, profitTrend: 3 });
    [p] = await alice.planOrders({});
    expect([p!.stopLossPrice, p!.takeProfitPrice?.toFixed()]).to.deep.equal([undefined, '90000']);
    expect(await venueCode(alice.changeStopOrder({ symbol: SYMBOL, orderId: '1', stopLossPrice: 86000 }))).to.equal(2040);
    expect(await venueCode(alice.cancelPlanOrders([{ symbol: SYMBOL, orderId: '1' }]))).to.equal(2040);
    await alice.cancelPlanOrders([{ symbol: SYMBOL, orderId: id }]);
    const other = await alice.placePlanOrder({
      symbol: SYMBOL,
      vol: 2,
      leverage: 10,
      side: 3,
      openType: 1,
      triggerPrice: 86000,
      triggerType: 2,
      executeCycle: 1,
      trend: 2,
      orderType: 5,
    });
    await alice.cancelAllPlanOrders({ symbol: SYMBOL });
    expect((await alice.planOrders({ states: [2] })).map((x) => x.id)).to.deep.equal([other, id]);
  });

  it('changes_and_cancels_a_trailing_order', async () => {
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
    });
    let [t] = await alice.trackOrders({ states: [1] });
    // Active at once from the fair 87500: 87500·0.99 = 86625.
    expect([t!.id, t!.markPrice?.toFixed(), t!.triggerPrice?.toFixed()]).to.deep.equal([id, '87500', '86625']);
    await alice.changeTrackOrder({ symbol: SYMBOL, trackOrderId: id, trend: 2, backType: 2, backValue: 500, vol: 5 });
    [t] = await alice.trackOrders({ states: [1] });
    expect([t!.backType, t!.triggerPrice?.toFixed(), t!.vol?.toFixed()]).to.deep.equal([2, '87000', '5']);
    expect(await venueCode(alice.cancelTrackOrder({ symbol: SYMBOL, trackOrderId: '5' }))).to.equal(2040);
    await alice.cancelTrackOrder({ symbol: SYMBOL, trackOrderId: id });
    expect((await alice.trackOrders({ states: [4] })).map((x) => x.id)).to.deep.equal([id]);
    expect(
      await venueCode(alice.changeTrackOrder({ symbol: SYMBOL, trackOrderId: id, trend: 2, backType: 1, backValue: 0.01, vol: 5 })),
    ).to.equal(2041);
  });

  it('refuses_trigger_placements_to_an_account_without_contract_trading', async () => {
    const bob = client(emu.url, BOB);
    expect(
      await venueCode(
        bob.placeTrackOrder({
          symbol: SYMBOL,
          leverage: 10,
          side: 1,
          vol: 1,
          openType: 1,
          trend: 1,
          backType: 1,
          backValue: 0.01,
          positionMode: 1,
        }),
      ),
    ).to.equal(1002);
    expect(
      await venueCode(
        bob.placePlanOrder({
          symbol: SYMBOL,
          vol: 1,
          leverage: 10,
          side: 1,
          openType: 1,
          triggerPrice: 88000,
          triggerType: 1,
          executeCycle: 1,
          trend: 1,
          orderType: 5,
        }),
      ),
    ).to.equal(1002);
  });

  describe('with persistence', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'emu-triggers-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('keeps_trigger_orders_across_a_restart_and_still_fires_them', async () => {
      const config = withCarol(testConfig({ persistence: { path: join(dir, 'paper.sqlite') } }));
      const first = await startEmulator(config, { marketStopped: true });
      let stopId: string | undefined;
      let planId: string;
      try {
        first.contract.venue.setFairPrice(SYMBOL, '87500');
        first.contract.venue.setIndexPrice(SYMBOL, '87500');
        const a = client(first.url, ALICE);
        const c = client(first.url, CAROL);
        await c.createOrder({ symbol: SYMBOL, price: 87500, vol: 10, leverage: 10, side: 3, type: 1, openType: 1 });
        await a.createOrder({ symbol: SYMBOL, price: 87500, vol: 10, leverage: 10, side: 1, type: 1, openType: 1 });
        const pos = (await a.openPositions({}))[0]!;
        stopId = await a.placeStopOrder({ symbol: SYMBOL, positionId: pos.positionId, vol: 10, stopLossPrice: 86000, lossTrend: 2 });
        planId = await a.placePlanOrder({
          symbol: SYMBOL,
          vol: 1,
          leverage: 10,
          side: 1,
          openType: 1,
          triggerPrice: 90000,
          triggerType: 1,
          executeCycle: 1,
          trend: 3,
          orderType: 5,
        });
      } finally {
        await first.stop();
      }
      const second = await startEmulator(config, { marketStopped: true });
      try {
        const a = client(second.url, ALICE);
        const c = client(second.url, CAROL);
        expect((await a.openStopOrders({})).map((s) => s.id)).to.deep.equal([stopId]);
        expect((await a.planOrders({ states: [1] })).map((p) => p.id)).to.deep.equal([planId]);
        await c.createOrder({ symbol: SYMBOL, price: 86000, vol: 10, side: 2, type: 1, openType: 1 });
        second.contract.venue.setFairPrice(SYMBOL, '86000');
        expect(await a.openPositions({})).to.deep.equal([]);
        expect((await a.stopOrders({ state: 3 })).map((s) => s.id)).to.deep.equal([stopId]);
        expect(second.checkInvariants()).to.deep.equal([]);
      } finally {
        await second.stop();
      }
    });
  });
});
