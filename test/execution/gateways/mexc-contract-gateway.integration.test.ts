/**
 * MexcContractGateway against the in-process emulator over real HTTP: place, amend, chase, cancel,
 * query, open orders, fills, positions, leverage and position mode round trips.
 */
import { expect } from 'chai';
import { D, type Decimal } from '../../../src/core/decimal.js';
import { ExchangeError, OrderNotFound } from '../../../src/core/errors.js';
import { clientOrderId, contractSymbol, type ClientOrderId } from '../../../src/core/ids.js';
import type { ContractInstrument } from '../../../src/domain/instrument.js';
import type { OrderSpec } from '../../../src/domain/order.js';
import type { PlaceRequest } from '../../../src/execution/exchange-gateway.js';
import { MexcContractGateway } from '../../../src/execution/gateways/mexc-contract-gateway.js';
import { startRig, T0, type EmulatorRig } from './support/emulator-rig.js';

const BTC = contractSymbol('BTC_USDT');
let seq = 0;
const nextCid = (): ClientOrderId => clientOrderId(`ppit_c_${(T0 + ++seq).toString(36).padStart(9, '0')}00`);

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('MexcContractGateway over HTTP (emulator)', function () {
  this.timeout(30_000);
  let rig: EmulatorRig;
  let gw: MexcContractGateway;

  const top = async (): Promise<{ bid: Decimal; ask: Decimal }> => {
    const d = await rig.contract.depth({ symbol: BTC, limit: 1 });
    return { bid: d.bids[0]!.price, ask: d.asks[0]!.price };
  };
  const limit = async (o: Partial<OrderSpec> = {}): Promise<PlaceRequest> => ({
    clientOrderId: nextCid(),
    order: {
      symbol: BTC,
      kind: 'contract',
      side: 'buy',
      type: 'limit',
      timeInForce: 'gtc',
      price: (await top()).bid.minus(300),
      quantity: D('2'),
      ...o,
    },
  });

  before(async () => {
    rig = await startRig();
    gw = new MexcContractGateway({ client: rig.contract, instruments: rig.instruments, clock: rig.clock, defaultLeverage: 10 });
  });
  after(async () => {
    await rig?.close();
  });

  it('places_an_opening_order_with_the_sides_leverage_and_finds_it_by_client_id', async () => {
    const req = await limit({ price: (await top()).bid.minus('300.05') });
    const ack = await gw.placeOrder(req);
    const v = (await gw.queryOrder(BTC, req.clientOrderId))!;
    // off-tick buy rounds down: bid − 300.05 → bid − 300.1 (tick 0.1)
    expect(v).to.deep.include({
      venueOrderId: ack.venueOrderId,
      clientOrderId: req.clientOrderId,
      status: 'accepted',
      side: 'buy',
      positionSide: 'long',
      type: 'limit',
    });
    expect(v.price!.toString()).to.equal(req.order.price!.minus('0.05').toString());
    expect(v.leverage).to.be.a('number');
    expect((await gw.openOrders(BTC)).map((o) => o.clientOrderId)).to.include(req.clientOrderId);
    await gw.cancelOrder({ symbol: BTC, clientOrderId: req.clientOrderId, venueOrderId: ack.venueOrderId });
  });

  it('amends_natively_then_chases_to_the_best_bid_then_cancels_by_client_id', async () => {
    const req = await limit();
    const ack = await gw.placeOrder(req);
    const newPrice = req.order.price!.minus(10);
    const amended = await gw.amendOrder({
      symbol: BTC,
      clientOrderId: req.clientOrderId,
      venueOrderId: ack.venueOrderId,
      price: newPrice,
      quantity: D(5),
    });
    let v = (await gw.queryOrder(BTC, req.clientOrderId))!;
    expect([v.venueOrderId, v.price!.toString(), v.quantity!.toString()]).to.deep.equal([amended.venueOrderId, newPrice.toString(), '5']);

    await gw.chaseOrder({ symbol: BTC, clientOrderId: req.clientOrderId });
    const { bid } = await top();
    v = (await gw.queryOrder(BTC, req.clientOrderId))!;
    expect(v.price!.toString()).to.equal(bid.toString());

    await gw.cancelOrder({ symbol: BTC, clientOrderId: req.clientOrderId }); // no venue id: cancel_with_external
    expect((await gw.queryOrder(BTC, req.clientOrderId))!.status).to.equal('cancelled');
    expect(await rejection(gw.cancelOrder({ symbol: BTC, clientOrderId: req.clientOrderId }))).to.be.instanceOf(ExchangeError);
  });

  it('answers_undefined_for_an_unknown_client_id_and_order_not_found_on_amend', async () => {
    const cid = nextCid();
    expect(await gw.queryOrder(BTC, cid)).to.equal(undefined);
    expect(await rejection(gw.amendOrder({ symbol: BTC, clientOrderId: cid, price: D(80000), quantity: D(1) }))).to.be.instanceOf(
      OrderNotFound,
    );
  });

  it('cancels_a_list_by_id_and_by_client_id_and_reports_each', async () => {
    const a = await limit();
    const b = await limit({ price: a.order.price!.minus(20) });
    const ackA = await gw.placeOrder(a);
    await gw.placeOrder(b);
    const items = await gw.cancelOrders([
      { symbol: BTC, clientOrderId: a.clientOrderId, venueOrderId: ackA.venueOrderId },
      { symbol: BTC, clientOrderId: b.clientOrderId },
      { symbol: BTC, clientOrderId: nextCid() },
    ]);
    expect(items.map((i) => (i.ok ? 'ok' : i.error.name))).to.deep.equal(['ok', 'ok', 'OrderNotFound']);
  });

  it('opens_a_position_at_market_and_reports_fill_position_and_balance', async () => {
    const req: PlaceRequest = {
      clientOrderId: nextCid(),
      order: {
        symbol: BTC,
        kind: 'contract',
        side: 'buy',
        type: 'market',
        timeInForce: 'ioc',
        quantity: D(3),
        positionSide: 'long',
        leverage: 10,
      },
    };
    const ack = await gw.placeOrder(req);
    const v = (await gw.queryOrder(BTC, req.clientOrderId))!;
    expect([v.status, v.filledQty.toString(), v.type]).to.deep.equal(['filled', '3', 'market']);
    const fills = (await gw.fillsSince(BTC, T0)).filter((f) => f.clientOrderId === req.clientOrderId);
    expect(fills.map((f) => [f.venueOrderId, f.quantity.toString(), f.side, f.positionSide, f.synthetic])).to.deep.equal([
      [ack.venueOrderId, '3', 'buy', 'long', true],
    ]);
    expect(fills[0]!.price.toString()).to.equal(v.avgFillPrice!.toString());
    const positions = await gw.positions(BTC);
    const long = positions.find((p) => p.leg === 'long')!;
    const contractSize = (rig.instruments.instrument(BTC) as ContractInstrument).contractSize;
    expect([long.quantity.toString(), long.leverage, long.multiplier.toString()]).to.deep.equal(['3', 10, contractSize.toString()]);
    const b = await gw.balances();
    expect(b.balances.USDT!.positionMargin!.gt(0)).to.equal(true);
  });

  it('closes_part_of_the_position_with_a_reduce_order', async () => {
    const req: PlaceRequest = {
      clientOrderId: nextCid(),
      order: { symbol: BTC, kind: 'contract', side: 'sell', type: 'market', timeInForce: 'ioc', quantity: D(1), positionSide: 'long' },
    };
    await gw.placeOrder(req);
    const v = (await gw.queryOrder(BTC, req.clientOrderId))!;
    expect([v.status, v.reduceOnly, v.positionSide]).to.deep.equal(['filled', true, 'long']);
    const long = (await gw.positions(BTC)).find((p) => p.leg === 'long')!;
    expect(long.quantity.toString()).to.equal('2');
  });

  it('changes_leverage_of_the_open_leg_and_refuses_a_mode_switch_with_a_position', async () => {
    await gw.setLeverage({ symbol: BTC, leverage: 20, positionSide: 'long' });
    const long = (await gw.positions(BTC)).find((p) => p.leg === 'long')!;
    expect(long.leverage).to.equal(20);
    expect(await rejection(gw.setPositionMode('one-way'))).to.be.instanceOf(ExchangeError);
  });

  it('attaches_a_position_stop_loss_that_the_venue_then_lists', async () => {
    await gw.attachTpSl({ symbol: BTC, positionSide: 'long', stopLossPrice: D(50000) });
    const stops = await rig.contract.openStopOrders({ symbol: BTC });
    expect(stops.map((s) => [s.stopLossPrice?.toString(), s.positionType, s.state])).to.deep.equal([['50000', 1, 1]]);
  });

  it('switches_to_one_way_when_flat_and_places_reduce_only_there', async () => {
    await gw.placeOrder({
      clientOrderId: nextCid(),
      order: { symbol: BTC, kind: 'contract', side: 'sell', type: 'market', timeInForce: 'ioc', quantity: D(2), positionSide: 'long' },
    });
    await gw.cancelAll();
    expect(await gw.positions(BTC)).to.have.length(0);
    await gw.setPositionMode('one-way');
    const open: PlaceRequest = {
      clientOrderId: nextCid(),
      order: { symbol: BTC, kind: 'contract', side: 'buy', type: 'market', timeInForce: 'ioc', quantity: D(2), leverage: 5 },
    };
    await gw.placeOrder(open);
    const [net] = await gw.positions(BTC);
    expect([net!.leg, net!.quantity.toString()]).to.deep.equal(['net', '2']);
    const reduce = await limit({ side: 'sell', reduceOnly: true, price: (await top()).ask.plus(300), quantity: D(1) });
    await gw.placeOrder(reduce);
    const v = (await gw.queryOrder(BTC, reduce.clientOrderId))!;
    expect([v.status, v.reduceOnly, v.positionSide]).to.deep.equal(['accepted', true, undefined]);
    await gw.cancelAll(BTC);
  });
});
