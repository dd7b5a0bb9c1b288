import { expect } from 'chai';
import fc from 'fast-check';
import { spotCatalogue } from '../../../src/api/spot/catalogue.js';
import { myTradesSchema } from '../../../src/api/spot/account.js';
import { spotOrderListSchema, spotOrderSchema, type SpotOrder } from '../../../src/api/spot/orders.js';
import { D } from '../../../src/core/decimal.js';
import { ValidationError } from '../../../src/core/errors.js';
import { clientOrderId, spotSymbol } from '../../../src/core/ids.js';
import type { OrderSpec, OrderType, TimeInForce } from '../../../src/domain/order.js';
import {
  fillFromSpotTrade,
  spotOrderCounts,
  spotOrderParams,
  spotOrderStatus,
  spotOrderType,
  venueOrderFromSpot,
} from '../../../src/execution/gateways/spot-order-mapping.js';
import type { PlaceRequest } from '../../../src/execution/exchange-gateway.js';
import { btcusdt, spotFixture } from './support/fixtures.js';

const BTC = spotSymbol('BTCUSDT');
const CID = clientOrderId('ppmm_p_000000001aa');
const inst = btcusdt(); // tick 0.01, step 0.00000001, quote precision 2

const req = (o: Partial<OrderSpec>): PlaceRequest => ({
  clientOrderId: CID,
  order: { symbol: BTC, kind: 'spot', side: 'buy', type: 'limit', timeInForce: 'gtc', price: D('87000'), quantity: D('0.001'), ...o },
});

function validationOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  throw new Error('expected a ValidationError');
}

describe('spot order mapping', () => {
  describe('type and time in force', () => {
    const cases: [OrderType, TimeInForce, string][] = [
      ['limit', 'gtc', 'LIMIT'],
      ['limit', 'post-only', 'LIMIT_MAKER'],
      ['limit', 'ioc', 'IMMEDIATE_OR_CANCEL'],
      ['limit', 'fok', 'FILL_OR_KILL'],
      ['market', 'gtc', 'MARKET'],
      ['market', 'ioc', 'MARKET'],
    ];
    for (const [type, tif, wire] of cases) {
      it(`maps_${type}_${tif}_to_${wire}`, () => expect(spotOrderType(type, tif)).to.equal(wire));
    }
    for (const tif of ['post-only', 'fok'] as const) {
      it(`refuses_a_market_${tif}_order`, () =>
        expect(validationOf(() => spotOrderType('market', tif)).field).to.equal('order.timeInForce'));
    }
  });

  describe('wire parameters', () => {
    it('sends_an_on_tick_limit_buy_exactly', () => {
      expect(spotOrderParams(req({ price: D('87000.12'), quantity: D('0.00123456') }), inst)).to.deep.equal({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        newClientOrderId: CID,
        quantity: '0.00123456',
        price: '87000.12',
      });
    });

    it('rounds_a_buy_price_down_and_a_sell_price_up_to_the_tick', () => {
      // 87000.129 / 0.01 = 8700012.9 → buy floor 8700012 → 87000.12; sell ceil 8700013 → 87000.13
      expect(spotOrderParams(req({ side: 'buy', price: D('87000.129') }), inst).price).to.equal('87000.12');
      expect(spotOrderParams(req({ side: 'sell', price: D('87000.121') }), inst).price).to.equal('87000.13');
    });

    it('truncates_the_quantity_to_the_step', () => {
      // 0.001234567 / 0.00000001 = 123456.7 → 123456 steps → 0.00123456 (never more than asked)
      expect(spotOrderParams(req({ quantity: D('0.001234567') }), inst).quantity).to.equal('0.00123456');
    });

    it('refuses_a_quantity_that_truncates_to_zero', () => {
      const e = validationOf(() => spotOrderParams(req({ quantity: D('0.000000009') }), inst));
      expect(e.field).to.equal('order.quantity');
      expect(e.received).to.equal('0.000000009');
    });

    it('refuses_a_buy_price_that_rounds_down_to_zero', () => {
      expect(validationOf(() => spotOrderParams(req({ price: D('0.009') }), inst)).field).to.equal('order.price');
    });

    it('maps_every_limit_time_in_force_with_price_and_quantity', () => {
      const types = (['gtc', 'post-only', 'ioc', 'fok'] as const).map((tif) =>
        spotOrderParams(req({ timeInForce: tif, side: 'sell' }), inst),
      );
      expect(types.map((p) => [p.type, p.side, p.price, p.quantity])).to.deep.equal([
        ['LIMIT', 'SELL', '87000', '0.001'],
        ['LIMIT_MAKER', 'SELL', '87000', '0.001'],
        ['IMMEDIATE_OR_CANCEL', 'SELL', '87000', '0.001'],
        ['FILL_OR_KILL', 'SELL', '87000', '0.001'],
      ]);
    });

    it('sends_a_market_order_by_quantity_without_price', () => {
      expect(spotOrderParams(req({ type: 'market', timeInForce: 'ioc', side: 'sell', price: D('1') }), inst)).to.deep.equal({
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'MARKET',
        newClientOrderId: CID,
        quantity: '0.001',
      });
    });

    it('sends_a_market_buy_by_quote_amount_truncated_to_the_quote_precision', () => {
      // quoteAssetPrecision 2: 100.129 → 100.12 (never spend more than asked)
      const { quantity: _q, ...rest } = req({ type: 'market', quoteQuantity: D('100.129') }).order;
      expect(spotOrderParams({ clientOrderId: CID, order: rest }, inst)).to.deep.equal({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'MARKET',
        newClientOrderId: CID,
        quoteOrderQty: '100.12',
      });
    });

    it('refuses_a_market_sell_by_quote_amount', () => {
      const { quantity: _q, ...rest } = req({ type: 'market', side: 'sell', quoteQuantity: D('100') }).order;
      expect(validationOf(() => spotOrderParams({ clientOrderId: CID, order: rest }, inst)).field).to.equal('order.quoteQuantity');
    });

    it('adds_the_configured_stp_mode', () => {
      expect(spotOrderParams(req({}), inst, 'cancel_maker').stpMode).to.equal('cancel_maker');
    });

    for (const [field, over] of [
      ['order.reduceOnly', { reduceOnly: true }],
      ['order.positionSide', { positionSide: 'long' }],
      ['order.leverage', { leverage: 5 }],
      ['order.marginMode', { marginMode: 'cross' }],
      ['order.takeProfitPrice', { takeProfitPrice: D('90000') }],
      ['order.kind', { kind: 'contract' }],
    ] as const) {
      it(`refuses_${field.replace('order.', '')}_on_spot`, () => {
        expect(validationOf(() => spotOrderParams(req(over as Partial<OrderSpec>), inst)).field).to.equal(field);
      });
    }

    it('refuses_a_client_id_the_venue_would_not_take', () => {
      expect(validationOf(() => spotOrderParams({ ...req({}), clientOrderId: clientOrderId('x'.repeat(33)) }, inst)).field).to.equal(
        'clientOrderId',
      );
    });

    it('produces_parameters_the_catalogue_request_schema_sends_unchanged', () => {
      const params = spotOrderParams(req({ price: D('87000.129'), quantity: D('0.001234567'), timeInForce: 'post-only' }), inst);
      expect(spotCatalogue.newOrder.request.parse(params)).to.deep.equal(params);
    });
  });

  describe('venue orders', () => {
    const order = (over: Record<string, unknown>): SpotOrder =>
      spotOrderSchema.parse({
        symbol: 'BTCUSDT',
        orderId: '7',
        clientOrderId: CID,
        price: '100',
        origQty: '2',
        executedQty: '0',
        cummulativeQuoteQty: '0',
        status: 'NEW',
        type: 'LIMIT',
        side: 'BUY',
        time: 1,
        ...over,
      });

    it('maps_statuses_including_partial_cancels_and_expired_immediate_orders', () => {
      const rows: [string, string, string, string][] = [
        ['NEW', 'LIMIT', '0', 'accepted'],
        ['NEW', 'LIMIT', '1', 'partially-filled'],
        ['PARTIALLY_FILLED', 'LIMIT', '1', 'partially-filled'],
        ['FILLED', 'LIMIT', '2', 'filled'],
        ['CANCELED', 'LIMIT', '0', 'cancelled'],
        ['PARTIALLY_CANCELED', 'LIMIT_MAKER', '1', 'cancelled'],
        ['CANCELED', 'IMMEDIATE_OR_CANCEL', '1', 'expired'],
        ['CANCELED', 'FILL_OR_KILL', '0', 'expired'],
        ['PARTIALLY_CANCELED', 'MARKET', '1', 'expired'],
      ];
      for (const [status, type, executed, expected] of rows) {
        expect(
          spotOrderStatus(status as SpotOrder['status'], type as SpotOrder['type'], D(executed)),
          `${status} ${type} ${executed}`,
        ).to.equal(expected);
      }
    });

    it('derives_the_average_fill_price_from_the_cumulative_quote', () => {
      // 250.5 quote for 1.5 base → 167
      const v = venueOrderFromSpot(order({ status: 'PARTIALLY_CANCELED', executedQty: '1.5', cummulativeQuoteQty: '250.5' }));
      expect([v.status, v.filledQty.toString(), v.filledNotional!.toString(), v.avgFillPrice!.toString()]).to.deep.equal([
        'cancelled',
        '1.5',
        '250.5',
        '167',
      ]);
      expect([v.type, v.timeInForce, v.clientOrderId, v.venueOrderId]).to.deep.equal(['limit', 'gtc', CID, '7']);
    });

    it('maps_the_captured_single_order_query_answer', () => {
      const v = venueOrderFromSpot(spotOrderSchema.parse(spotFixture('spot_GET_api_v3_order.json')));
      expect(v).to.deep.include({
        venueOrderId: '133734823834147272',
        symbol: 'BTCUSDT',
        kind: 'spot',
        side: 'buy',
        type: 'limit',
        timeInForce: 'gtc',
        status: 'cancelled',
        createdAt: 1647667102000,
        updatedAt: 1647708567000,
      });
      expect(v.clientOrderId).to.equal(undefined); // the venue sent null: a manual order
      expect(v.quoteQuantity).to.equal(undefined); // origQuoteOrderQty of a limit order is not its size
      expect(v.price!.toString()).to.equal('30000');
    });

    it('maps_the_captured_open_orders_answer', () => {
      const [v] = spotOrderListSchema.parse(spotFixture('spot_GET_api_v3_openOrders.json')).map(venueOrderFromSpot);
      expect([v!.side, v!.status, v!.quantity!.toString(), v!.clientOrderId]).to.deep.equal(['sell', 'accepted', '0.0002', undefined]);
    });

    it('maps_a_market_buy_by_quote_amount', () => {
      const v = venueOrderFromSpot(
        order({
          type: 'MARKET',
          price: '0',
          origQty: '0',
          origQuoteOrderQty: '100',
          status: 'FILLED',
          executedQty: '0.001',
          cummulativeQuoteQty: '99.5',
        }),
      );
      expect([v.type, v.price, v.quantity, v.quoteQuantity!.toString(), v.status]).to.deep.equal([
        'market',
        undefined,
        undefined,
        '100',
        'filled',
      ]);
    });
  });

  it('maps_the_captured_own_trade_to_a_fill', () => {
    const [t] = myTradesSchema.parse(spotFixture('spot_GET_api_v3_myTrades.json'));
    const f = fillFromSpotTrade(t!);
    expect(f).to.deep.include({
      tradeId: 'dd44f79dda764c2e927a190ac5e7a1e5',
      venueOrderId: 'C02__385413065019117569043',
      symbol: 'ATLASUSDT',
      kind: 'spot',
      side: 'sell',
      feeAsset: 'USDT',
      liquidity: 'taker',
      time: 1707671871000,
    });
    expect([f.price.toString(), f.quantity.toString(), f.fee.toString()]).to.deep.equal(['0.004542', '1220', '0']);
    expect(f.clientOrderId).to.equal(undefined);
  });
  describe("counts (the simulated venue's path)", () => {
    /** What a call gave: its value, or the error's class and message. */
    const outcome = <T>(fn: () => T): { value: T } | { error: string } => {
      try {
        return { value: fn() };
      } catch (e) {
        return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
      }
    };
    // Mantissas and decimal places around the tick (0.01) and step of BTCUSDT: on and off the grid,
    // rounding to zero, negative, and the odd spec the spot venue cannot express.
    const decimal = fc
      .tuple(fc.integer({ min: -3, max: 3_000_000_000 }), fc.integer({ min: 0, max: 12 }))
      .map(([m, places]) => D(m).div(D(10).pow(places)));
    const spec = fc.record(
      {
        side: fc.constantFrom('buy', 'sell'),
        type: fc.constantFrom('limit', 'market'),
        timeInForce: fc.constantFrom('gtc', 'post-only', 'ioc', 'fok'),
        price: decimal,
        quantity: decimal,
        quoteQuantity: decimal,
        reduceOnly: fc.constant(true),
        symbol: fc.constantFrom(BTC, spotSymbol('ETHUSDT')),
      },
      { requiredKeys: ['side', 'type', 'timeInForce'] },
    );

    it('counts_the_ticks_and_steps_spotOrderParams_writes_and_refuses_what_it_refuses_with_the_same_words', () => {
      fc.assert(
        fc.property(spec, fc.constantFrom(CID, clientOrderId('bad id')), (o, cid) => {
          const r: PlaceRequest = { clientOrderId: cid, order: { symbol: BTC, kind: 'spot', ...o } as OrderSpec };
          const wire = outcome(() => spotOrderParams(r, inst));
          // As the simulated venue uses it: a market buy by quote amount (no count) goes by the wire text.
          const counts = outcome(() => spotOrderCounts(r, inst) ?? { wire: spotOrderParams(r, inst) });
          if ('error' in wire) return void expect(counts).to.deep.equal(wire);
          const w = wire.value;
          const expected =
            w.quoteOrderQty !== undefined
              ? { wire: w }
              : {
                  side: w.side,
                  type: w.type,
                  priceTicks: w.price === undefined ? undefined : D(w.price).div(inst.tick).toNumber(),
                  lots: D(w.quantity!).div(inst.step).toNumber(),
                };
          expect(counts).to.deep.equal({ value: expected });
        }),
        { numRuns: 2000 },
      );
    });
  });
});
