import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { ContractClient } from '../../../src/client/contract-client.js';
import type { ContractOrder } from '../../../src/api/contract/order-schemas.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/start-emulator.js';
import { ALICE, T0, testConfig } from '../../emulator/support/emulator-kit.js';

const CAROL = { apiKey: 'mx0vglCarolKey01', secret: 'carol-secret-0123456789abcdef' } as const;
const SYMBOL = 'BTC_USDT';

/** The TP/SL fields of an order record as our client parsed them. */
const tpsl = (o: ContractOrder | undefined) => [o?.takeProfitPrice?.toFixed(), o?.stopLossPrice?.toFixed(), o?.profitTrend, o?.lossTrend];

/**
 * Order records (order/get, open_orders, history_orders, batch queries) carry the take-profit /
 * stop-loss of the order: its prices and price types, as contract-api.md §2.5 lists them. Market
 * model stopped; fair and index pinned at 87 500.
 */
describe('contract order records show their TP/SL over HTTP', () => {
  let emu: RunningEmulator;
  let clock: VirtualClock;
  let alice: ContractClient;
  let carol: ContractClient;
  const clients: ContractClient[] = [];

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
    emu.contract.venue.setFairPrice(SYMBOL, '87500');
    emu.contract.venue.setIndexPrice(SYMBOL, '87500');
    const client = (key: { apiKey: string; secret: string }) => {
      const c = new ContractClient({
        baseUrl: emu.url,
        clock,
        rateLimits: false,
        timeSync: false,
        credentials: { apiKey: key.apiKey, secretKey: key.secret },
      });
      clients.push(c);
      return c;
    };
    alice = client(ALICE);
    carol = client(CAROL);
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    expect(emu.checkInvariants()).to.deep.equal([]);
    await emu.stop();
  });

  it('shows_the_prices_and_price_types_placed_with_the_order_and_leaves_them_out_without', async () => {
    const { orderId } = await alice.createOrder({
      symbol: SYMBOL,
      price: 87000,
      vol: 5,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      takeProfitPrice: 90000,
      stopLossPrice: 85000,
      profitTrend: 2,
      lossTrend: 3,
    });
    const { orderId: plainId } = await alice.createOrder({
      symbol: SYMBOL,
      price: 86000,
      vol: 5,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
    });

    expect(tpsl(await alice.getOrder({ orderId }))).to.deep.equal(['90000', '85000', 2, 3]);
    expect(tpsl(await alice.getOrder({ orderId: plainId }))).to.deep.equal([undefined, undefined, undefined, undefined]);
    const open = new Map((await alice.openOrders({ page_num: 1, page_size: 20 })).map((o) => [o.orderId, o]));
    expect([tpsl(open.get(orderId)), tpsl(open.get(plainId))]).to.deep.equal([
      ['90000', '85000', 2, 3],
      [undefined, undefined, undefined, undefined],
    ]);
    expect((await alice.batchQuery({ order_ids: [orderId] })).map(tpsl)).to.deep.equal([['90000', '85000', 2, 3]]);
  });

  it('follows_changes_of_the_tp_sl_and_drops_it_once_cancelled', async () => {
    const { orderId } = await alice.createOrder({
      symbol: SYMBOL,
      price: 87000,
      vol: 5,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      takeProfitPrice: 90000,
      stopLossPrice: 85000,
      profitTrend: 2,
      lossTrend: 3,
    });
    // change_price without a take-profit cancels that leg; the stop-loss keeps its price type (3).
    await alice.changeStopPrice({ orderId, stopLossPrice: 84000 });
    expect(tpsl(await alice.getOrder({ orderId }))).to.deep.equal([undefined, '84000', 2, 3]);
    // Both 0: the TP/SL is cancelled on purpose, and the order no longer carries one.
    await alice.changeStopPrice({ orderId, stopLossPrice: 0, takeProfitPrice: 0 });
    expect(tpsl(await alice.getOrder({ orderId }))).to.deep.equal([undefined, undefined, undefined, undefined]);
  });

  it('keeps_the_tp_sl_on_the_record_of_a_filled_order_and_of_an_order_cancelled_unfilled', async () => {
    await carol.createOrder({ symbol: SYMBOL, price: 87500, vol: 5, leverage: 10, side: 3, type: 1, openType: 1 });
    const { orderId: filled } = await alice.createOrder({
      symbol: SYMBOL,
      price: 87500,
      vol: 5,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      takeProfitPrice: 91000,
      stopLossPrice: 86000,
      lossTrend: 2,
    });
    const { orderId: cancelled } = await alice.createOrder({
      symbol: SYMBOL,
      price: 87000,
      vol: 2,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      takeProfitPrice: 92000,
    });
    await alice.cancelOrders([cancelled]);

    // Omitted price types are 1 (latest price).
    const history = await alice.historyOrders({ symbol: SYMBOL, page_num: 1, page_size: 20 });
    const byId = new Map(history.map((o) => [o.orderId, o]));
    expect([byId.get(filled)?.state, ...tpsl(byId.get(filled))]).to.deep.equal([3, '91000', '86000', 1, 2]);
    expect([byId.get(cancelled)?.state, ...tpsl(byId.get(cancelled))]).to.deep.equal([4, '92000', undefined, 1, 1]);
  });
});
