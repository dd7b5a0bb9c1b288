/**
 * MexcSpotGateway against the in-process emulator over real HTTP: place, batch, cancel, query, open
 * orders, fills, inventory and balances round trips.
 */
import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { OrderNotFound, ValidationError } from '../../../src/core/errors.js';
import { clientOrderId, spotSymbol, type ClientOrderId } from '../../../src/core/ids.js';
import type { OrderSpec } from '../../../src/domain/order.js';
import type { PlaceRequest } from '../../../src/execution/exchange-gateway.js';
import { MexcSpotGateway } from '../../../src/execution/gateways/mexc-spot-gateway.js';
import { startRig, T0, type EmulatorRig } from './support/emulator-rig.js';

const BTC = spotSymbol('BTCUSDT');
let seq = 0;
const nextCid = (): ClientOrderId => clientOrderId(`ppit_p_${(T0 + ++seq).toString(36).padStart(9, '0')}00`);

describe('MexcSpotGateway over HTTP (emulator)', function () {
  this.timeout(30_000);
  let rig: EmulatorRig;
  let gw: MexcSpotGateway;
  let bid: ReturnType<typeof D>;
  let ask: ReturnType<typeof D>;

  before(async () => {
    rig = await startRig();
    gw = new MexcSpotGateway({ client: rig.spot, instruments: rig.instruments, clock: rig.clock });
    const [t] = await rig.spot.bookTicker({ symbol: BTC });
    bid = t!.bidPrice!;
    ask = t!.askPrice!;
  });
  after(async () => {
    await rig?.close();
  });

  const limit = (o: Partial<OrderSpec> = {}): PlaceRequest => ({
    clientOrderId: nextCid(),
    order: { symbol: BTC, kind: 'spot', side: 'buy', type: 'limit', timeInForce: 'gtc', price: bid.minus(500), quantity: D('0.001'), ...o },
  });

  it('places_queries_lists_and_cancels_a_resting_order_by_client_id', async () => {
    // 0.0012345678 truncates to 0.00123456 at step 1e-8; the off-tick price rounds down for a buy
    const req = limit({ price: bid.minus('500.005'), quantity: D('0.0012345678') });
    const ack = await gw.placeOrder(req);
    expect(ack.clientOrderId).to.equal(req.clientOrderId);
    expect(ack.venueOrderId).to.be.a('string').and.not.equal('');

    const v = (await gw.queryOrder(BTC, req.clientOrderId))!;
    expect(v).to.deep.include({
      venueOrderId: ack.venueOrderId,
      clientOrderId: req.clientOrderId,
      status: 'accepted',
      side: 'buy',
      type: 'limit',
      timeInForce: 'gtc',
    });
    expect(v.price!.toString()).to.equal(bid.minus('500.01').toString());
    expect(v.quantity!.toString()).to.equal('0.00123456');

    expect((await gw.openOrders(BTC)).map((o) => o.clientOrderId)).to.include(req.clientOrderId);

    const cancelled = await gw.cancelOrder({ symbol: BTC, clientOrderId: req.clientOrderId });
    expect(cancelled.filledQty!.toString()).to.equal('0');
    expect((await gw.queryOrder(BTC, req.clientOrderId))!.status).to.equal('cancelled');
    let err: unknown;
    try {
      await gw.cancelOrder({ symbol: BTC, clientOrderId: req.clientOrderId, venueOrderId: ack.venueOrderId });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(OrderNotFound);
  });

  it('answers_undefined_for_a_client_id_the_venue_never_saw', async () => {
    expect(await gw.queryOrder(BTC, nextCid())).to.equal(undefined);
  });

  it('places_a_post_only_order_as_limit_maker', async () => {
    const req = limit({ timeInForce: 'post-only' });
    await gw.placeOrder(req);
    const v = (await gw.queryOrder(BTC, req.clientOrderId))!;
    expect([v.type, v.timeInForce, v.status]).to.deep.equal(['limit', 'post-only', 'accepted']);
    await gw.cancelOrder({ symbol: BTC, clientOrderId: req.clientOrderId });
  });

  it('reports_a_mixed_batch_per_order_and_cancels_all', async () => {
    const good1 = limit();
    const tooSmall = limit({ quantity: D('0.0000001') }); // below the venue's minimum: refused by the venue
    const good2 = limit({ price: bid.minus(600) });
    const items = await gw.placeOrders([good1, tooSmall, good2]);
    expect(items.map((i) => (i.ok ? 'ok' : i.error.name))).to.deep.equal(['ok', 'InvalidOrder', 'ok']);
    const open = await gw.openOrders(BTC);
    expect(open.map((o) => o.clientOrderId)).to.include.members([good1.clientOrderId, good2.clientOrderId]);
    await gw.cancelAll(BTC);
    expect(await gw.openOrders(BTC)).to.have.length(0);
  });

  it('fills_a_market_buy_and_reports_the_fill_inventory_and_balances', async () => {
    const before = await gw.balances();
    const req: PlaceRequest = {
      clientOrderId: nextCid(),
      order: { symbol: BTC, kind: 'spot', side: 'buy', type: 'market', timeInForce: 'ioc', quantity: D('0.002') },
    };
    await gw.placeOrder(req);
    const v = (await gw.queryOrder(BTC, req.clientOrderId))!;
    expect([v.status, v.filledQty.toString()]).to.deep.equal(['filled', '0.002']);
    const fills = (await gw.fillsSince(BTC, T0)).filter((f) => f.clientOrderId === req.clientOrderId);
    expect(fills.length).to.be.greaterThan(0);
    const qty = fills.reduce((s, f) => s.plus(f.quantity), D(0));
    expect(qty.toString()).to.equal('0.002');
    expect(fills.every((f) => f.side === 'buy' && f.liquidity === 'taker' && f.venueOrderId === v.venueOrderId)).to.equal(true);
    expect(fills[0]!.price.gte(ask)).to.equal(true); // a taker buy pays the ask or more
    const after = await gw.balances();
    expect(after.balances.BTC!.free.gt(before.balances.BTC!.free)).to.equal(true);
    const [inventory] = await gw.positions(BTC);
    expect(inventory!.quantity.toString()).to.equal(after.balances.BTC!.free.plus(after.balances.BTC!.locked).toString());
  });

  it('fills_an_aggressive_ioc_sell_within_the_price_band', async () => {
    const req = limit({ side: 'sell', timeInForce: 'ioc', price: bid.minus(100), quantity: D('0.001') });
    await gw.placeOrder(req);
    const v = (await gw.queryOrder(BTC, req.clientOrderId))!;
    expect([v.type, v.timeInForce, v.status, v.filledQty.toString()]).to.deep.equal(['limit', 'ioc', 'filled', '0.001']);
  });

  it('reports_both_sides_of_a_self_trade_as_two_fills', async () => {
    // Our resting sell one tick under the best ask, then our own IOC buy at that price: the venue books
    // one trade with two own-trade records sharing its id (maker and taker). Both are fills of ours: the
    // buy's and the sell's, each with its own fee; deduplicating by the trade id alone lost one of them.
    const [t] = await rig.spot.bookTicker({ symbol: BTC });
    const price = t!.askPrice!.minus('0.01');
    expect(price.gt(t!.bidPrice!)).to.equal(true); // the spread leaves room for our level
    const sell = limit({ side: 'sell', price, quantity: D('0.001') });
    const buy = limit({ side: 'buy', timeInForce: 'ioc', price, quantity: D('0.001') });
    await gw.placeOrder(sell);
    await gw.placeOrder(buy);
    const records = (await rig.spot.myTrades({ symbol: BTC, startTime: T0, limit: 100 })).filter(
      (r) => r.clientOrderId === sell.clientOrderId || r.clientOrderId === buy.clientOrderId,
    );
    expect(records.map((r) => [r.isMaker, r.isSelfTrade])).to.have.deep.members([
      [true, true],
      [false, true],
    ]);
    expect(records[0]!.id).to.equal(records[1]!.id);
    const fills = (await gw.fillsSince(BTC, T0)).filter(
      (f) => f.clientOrderId === sell.clientOrderId || f.clientOrderId === buy.clientOrderId,
    );
    const id = records[0]!.id;
    expect(
      fills.map((f) => [f.clientOrderId, f.side, f.liquidity, f.tradeId, f.quantity.toString(), f.price.toString()]),
    ).to.have.deep.members([
      [sell.clientOrderId, 'sell', 'maker', `${id}-m`, '0.001', price.toString()],
      [buy.clientOrderId, 'buy', 'taker', id, '0.001', price.toString()],
    ]);
  });

  it('refuses_contract_only_settings_without_a_request', async () => {
    const sent = rig.spotWire.sent.length;
    let err: unknown;
    try {
      await gw.setLeverage({ symbol: BTC, leverage: 3 });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ValidationError);
    expect(rig.spotWire.sent.length).to.equal(sent);
  });
});
