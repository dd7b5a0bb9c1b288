import { expect } from 'chai';
import { spotCatalogue } from '../../../src/api/spot/catalogue.js';
import { venueError } from '../../../src/client/venue-error-map.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { D } from '../../../src/core/decimal.js';
import { ExchangeUnavailable, InvalidOrder, OrderNotFound, OutcomeUnknown, ValidationError } from '../../../src/core/errors.js';
import { clientOrderId, orderId, spotSymbol, type ClientOrderId } from '../../../src/core/ids.js';
import type { OrderSpec } from '../../../src/domain/order.js';
import type { PlaceRequest } from '../../../src/execution/exchange-gateway.js';
import { MexcSpotGateway, type SpotTradingClient } from '../../../src/execution/gateways/mexc-spot-gateway.js';
import { registry } from './support/fixtures.js';
import { StubClient } from './support/stub-client.js';

const BTC = spotSymbol('BTCUSDT');
const cid = (n: number): ClientOrderId => clientOrderId(`ppmm_q${n}_00000000${n}aa`);
const place = (n: number, o: Partial<OrderSpec> = {}): PlaceRequest => ({
  clientOrderId: cid(n),
  order: { symbol: BTC, kind: 'spot', side: 'buy', type: 'limit', timeInForce: 'gtc', price: D('87000'), quantity: D('0.001'), ...o },
});
const spotErr = (code: number, msg: string, endpoint: string) => venueError('spot', code, msg, { venueCode: code, endpoint }).error;
const wireOrder = (over: Record<string, unknown> = {}) => ({
  symbol: 'BTCUSDT',
  orderId: '11',
  clientOrderId: cid(1),
  price: '87000',
  origQty: '0.001',
  executedQty: '0',
  cummulativeQuoteQty: '0',
  status: 'NEW',
  type: 'LIMIT',
  side: 'BUY',
  time: 5,
  ...over,
});

function rig() {
  const stub = new StubClient<SpotTradingClient>(spotCatalogue);
  const gw = new MexcSpotGateway({ client: stub.client, instruments: registry(), clock: new VirtualClock(1_000) });
  return { stub, gw };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('MexcSpotGateway', () => {
  it('states_its_capabilities_truthfully', () => {
    expect(rig().gw.capabilities).to.deep.equal({
      kind: 'spot',
      amend: 'cancel-replace',
      chase: 'emulated',
      batchPlaceMax: 20,
      batchCancelMax: 1,
      clientIdMaxLength: 32,
      orderCallsPerSecond: 12,
      leverage: false,
      positionMode: false,
      tpsl: false,
    });
  });

  describe('placement', () => {
    it('places_with_the_client_id_and_acknowledges_the_venue_id', async () => {
      const { stub, gw } = rig();
      stub.on('newOrder', { symbol: 'BTCUSDT', orderId: '777', transactTime: 1234 });
      const ack = await gw.placeOrder(place(1, { price: D('87000.129') }));
      expect(ack).to.deep.equal({ clientOrderId: cid(1), venueOrderId: '777', time: 1234 });
      expect(stub.callsOf('newOrder')).to.deep.equal([
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', newClientOrderId: cid(1), quantity: '0.001', price: '87000.12' },
      ]);
    });

    it('lets_an_unknown_outcome_through_and_never_resends', async () => {
      const { stub, gw } = rig();
      stub.on('newOrder', () => {
        throw new OutcomeUnknown('spot.newOrder: outcome unknown after a timeout', 'spot.newOrder', [cid(1)]);
      });
      const e = await rejection(gw.placeOrder(place(1)));
      expect(e).to.be.instanceOf(OutcomeUnknown);
      expect(stub.callsOf('newOrder')).to.have.length(1);
    });

    it('refuses_an_unknown_symbol_without_calling_the_venue', async () => {
      const { stub, gw } = rig();
      const e = await rejection(gw.placeOrder(place(1, { symbol: spotSymbol('DOGEUSDT') })));
      expect(e).to.be.instanceOf(ValidationError);
      expect(stub.calls).to.have.length(0);
    });

    it('maps_a_mixed_batch_answer_to_items_by_client_id', async () => {
      const { stub, gw } = rig();
      // The venue answers in request order: 1 ok, 2 refused (30002), 4 ok without an id (position 2 of the sent list)
      stub.on('batchOrders', [
        { symbol: 'BTCUSDT', orderId: '101', newClientOrderId: cid(1), orderListId: -1 },
        { newClientOrderId: cid(2), code: 30002, msg: 'The minimum transaction volume cannot be less than:0.5USDT' },
        { symbol: 'BTCUSDT', orderId: '104', orderListId: -1 },
      ]);
      // order 3 truncates to zero quantity: refused here, not sent
      const items = await gw.placeOrders([place(1), place(2), place(3, { quantity: D('0.000000001') }), place(4)]);
      expect(items.map((i) => (i.ok ? ['ok', i.value.venueOrderId] : ['failed', i.clientOrderId, i.error.name]))).to.deep.equal([
        ['ok', '101'],
        ['failed', cid(2), 'InvalidOrder'],
        ['failed', cid(3), 'ValidationError'],
        ['ok', '104'],
      ]);
      const sent = (stub.callsOf('batchOrders')[0] as { batchOrders: { newClientOrderId: string }[] }).batchOrders;
      expect(sent.map((o) => o.newClientOrderId)).to.deep.equal([cid(1), cid(2), cid(4)]);
      expect((items[1] as unknown as { error: InvalidOrder }).error.venueCode).to.equal(30002);
    });

    it('gives_every_sent_item_the_unknown_outcome_of_a_lost_batch_answer', async () => {
      const { stub, gw } = rig();
      stub.on('batchOrders', () => {
        throw new OutcomeUnknown('spot.batchOrders: outcome unknown after HTTP 503', 'spot.batchOrders', [cid(1), cid(2)]);
      });
      const items = await gw.placeOrders([place(1), place(2), place(3, { price: D('0.001') })]);
      expect(items.map((i) => (i.ok ? 'ok' : i.error.name))).to.deep.equal(['OutcomeUnknown', 'OutcomeUnknown', 'ValidationError']);
      expect(stub.callsOf('batchOrders')).to.have.length(1);
    });

    it('sends_a_lone_valid_order_of_a_batch_through_the_single_endpoint', async () => {
      const { stub, gw } = rig();
      stub.on('newOrder', { symbol: 'BTCUSDT', orderId: '9' });
      const items = await gw.placeOrders([place(1), place(2, { quantity: D('0.000000001') })]);
      expect(items.map((i) => i.ok)).to.deep.equal([true, false]);
      expect(stub.callsOf('batchOrders')).to.have.length(0);
    });

    it('refuses_a_batch_of_two_symbols_or_over_twenty', async () => {
      const { gw } = rig();
      expect(await rejection(gw.placeOrders([place(1), place(2, { symbol: spotSymbol('ETHUSDT') })]))).to.be.instanceOf(ValidationError);
      expect(await rejection(gw.placeOrders(Array.from({ length: 21 }, (_, i) => place(i + 1))))).to.be.instanceOf(ValidationError);
    });
  });

  describe('cancel and query', () => {
    it('cancels_by_venue_id_when_known_and_by_client_id_otherwise', async () => {
      const { stub, gw } = rig();
      stub.on('cancelOrder', (req) => ({
        symbol: 'BTCUSDT',
        orderId: '11',
        executedQty: (req as { orderId?: string }).orderId ? '0.0004' : '0',
        status: 'CANCELED',
      }));
      const a = await gw.cancelOrder({ symbol: BTC, clientOrderId: cid(1), venueOrderId: orderId('11') });
      const b = await gw.cancelOrder({ symbol: BTC, clientOrderId: cid(2) });
      expect(stub.callsOf('cancelOrder')).to.deep.equal([
        { symbol: 'BTCUSDT', orderId: '11' },
        { symbol: 'BTCUSDT', origClientOrderId: cid(2) },
      ]);
      expect([a.filledQty!.toString(), b.filledQty!.toString()]).to.deep.equal(['0.0004', '0']);
    });

    it('reports_each_cancel_of_a_list_separately', async () => {
      const { stub, gw } = rig();
      stub.on('cancelOrder', (_req, n) => {
        if (n === 2) throw spotErr(-2011, 'Unknown order sent.', 'spot.cancelOrder');
        return { symbol: 'BTCUSDT', orderId: String(n) };
      });
      const items = await gw.cancelOrders([1, 2, 3].map((n) => ({ symbol: BTC, clientOrderId: cid(n) })));
      expect(items.map((i) => (i.ok ? 'ok' : i.error.name))).to.deep.equal(['ok', 'OrderNotFound', 'ok']);
    });

    it('cancels_all_symbols_with_open_orders_when_no_symbol_is_given', async () => {
      const { stub, gw } = rig();
      stub.on('openOrders', [
        wireOrder({ symbol: 'BTCUSDT' }),
        wireOrder({ symbol: 'ETHUSDT', orderId: '12' }),
        wireOrder({ symbol: 'BTCUSDT', orderId: '13' }),
      ]);
      stub.on('cancelOpenOrders', []);
      await gw.cancelAll();
      expect(stub.callsOf('cancelOpenOrders')).to.deep.equal([{ symbol: 'BTCUSDT' }, { symbol: 'ETHUSDT' }]);
    });

    it('answers_undefined_for_an_order_the_venue_does_not_know', async () => {
      const { stub, gw } = rig();
      stub.on('queryOrder', () => {
        throw spotErr(-2013, 'Order does not exist.', 'spot.queryOrder');
      });
      expect(await gw.queryOrder(BTC, cid(1))).to.equal(undefined);
      expect(stub.callsOf('queryOrder')).to.deep.equal([{ symbol: 'BTCUSDT', origClientOrderId: cid(1) }]);
    });

    it('passes_other_query_failures_through', async () => {
      const { stub, gw } = rig();
      stub.on('queryOrder', () => {
        throw new ExchangeUnavailable('spot.queryOrder: venue failed (HTTP 503)');
      });
      expect(await rejection(gw.queryOrder(BTC, cid(1)))).to.be.instanceOf(ExchangeUnavailable);
    });

    it('maps_a_queried_order', async () => {
      const { stub, gw } = rig();
      stub.on('queryOrder', wireOrder({ status: 'PARTIALLY_FILLED', executedQty: '0.0004', cummulativeQuoteQty: '34.8' }));
      const v = (await gw.queryOrder(BTC, cid(1)))!;
      // 34.8 / 0.0004 = 87000
      expect([v.status, v.filledQty.toString(), v.avgFillPrice!.toString(), v.clientOrderId]).to.deep.equal([
        'partially-filled',
        '0.0004',
        '87000',
        cid(1),
      ]);
    });

    it('refuses_native_amend_chase_and_contract_settings', async () => {
      const { gw } = rig();
      for (const p of [
        gw.amendOrder({ symbol: BTC, clientOrderId: cid(1), price: D(1), quantity: D(1) }),
        gw.chaseOrder({ symbol: BTC, clientOrderId: cid(1) }),
        gw.setLeverage({ symbol: BTC, leverage: 2 }),
        gw.setPositionMode('hedged'),
        gw.attachTpSl({ symbol: BTC, takeProfitPrice: D(1) }),
      ]) {
        expect(await rejection(p)).to.be.instanceOf(ValidationError);
      }
    });
  });

  describe('fills, positions and balances', () => {
    const trade = (id: number, time: number) => ({
      symbol: 'BTCUSDT',
      id: `t${id}`,
      orderId: '11',
      price: '87000',
      qty: '0.001',
      commission: '0.0435',
      commissionAsset: 'USDT',
      time,
      isBuyer: true,
      isMaker: true,
      clientOrderId: cid(1),
    });

    it('pages_own_trades_backwards_and_dedupes_by_trade_id', async () => {
      const { stub, gw } = rig();
      // 150 trades at t = 1000 … 1149; the venue returns the latest 100 of [start, end].
      const all = Array.from({ length: 150 }, (_, i) => trade(i, 1000 + i));
      stub.on('myTrades', (req) => {
        const r = req as { startTime: number; endTime?: number; limit: number };
        const inRange = all.filter((t) => t.time >= r.startTime && t.time <= (r.endTime ?? Infinity));
        return inRange.slice(-r.limit);
      });
      const fills = await gw.fillsSince(BTC, 1000);
      expect(fills).to.have.length(150);
      expect(fills[0]!.tradeId).to.equal('t0');
      expect(fills[149]!.tradeId).to.equal('t149');
      // first page [1000, ∞) → t50..t149; second page endTime 1050 → t0..t50 (t50 seen twice, kept once)
      expect(stub.callsOf('myTrades')).to.deep.equal([
        { symbol: 'BTCUSDT', startTime: 1000, limit: 100 },
        { symbol: 'BTCUSDT', startTime: 1000, endTime: 1050, limit: 100 },
      ]);
      expect(fills[0]).to.deep.include({ side: 'buy', liquidity: 'maker', feeAsset: 'USDT', clientOrderId: cid(1) });
    });

    it('pages_forwards_when_the_venue_answers_the_oldest_trades_first', async () => {
      const { stub, gw } = rig();
      const all = Array.from({ length: 150 }, (_, i) => trade(i, 1000 + i));
      stub.on('myTrades', (req) => {
        const r = req as { startTime: number; endTime?: number; limit: number };
        return all.filter((t) => t.time >= r.startTime && t.time <= (r.endTime ?? Infinity)).slice(0, r.limit);
      });
      const fills = await gw.fillsSince(BTC, 1000);
      expect(fills.map((f) => f.tradeId)).to.deep.equal(all.map((t) => t.id));
    });

    it('reports_balances_and_the_base_asset_inventory', async () => {
      const { stub, gw } = rig();
      stub.on('account', {
        canTrade: true,
        canWithdraw: true,
        canDeposit: true,
        balances: [
          { asset: 'BTC', free: '1.5', locked: '0.25' },
          { asset: 'USDT', free: '100', locked: '5' },
        ],
      });
      const snap = await gw.balances();
      expect(snap.kind).to.equal('spot');
      expect(snap.time).to.equal(1_000);
      expect([snap.balances.BTC!.free.toString(), snap.balances.USDT!.locked.toString()]).to.deep.equal(['1.5', '5']);
      const [pos] = await gw.positions(BTC);
      // inventory = free + locked = 1.75 BTC
      expect(pos).to.deep.include({ symbol: BTC, kind: 'spot', leg: 'net', settleAsset: 'USDT' });
      expect([pos!.quantity.toString(), pos!.entryPrice.toString(), pos!.multiplier.toString()]).to.deep.equal(['1.75', '0', '1']);
      expect((await gw.positions()).map((p) => p.symbol)).to.deep.equal([BTC]);
    });
  });

  it('refuses_a_lost_order_as_not_found_only_for_the_venue_not_found_codes', async () => {
    const { stub, gw } = rig();
    stub.on('queryOrder', () => {
      throw new OrderNotFound('other', { venueCode: 12345 });
    });
    expect(await rejection(gw.queryOrder(BTC, cid(1)))).to.be.instanceOf(OrderNotFound);
  });
});
