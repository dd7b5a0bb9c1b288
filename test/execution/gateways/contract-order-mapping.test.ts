import { expect } from 'chai';
import { contractCatalogue } from '../../../src/api/contract/catalogue.js';
import { contractOrderSchema, contractPositionSchema, type ContractOrder } from '../../../src/api/contract/order-schemas.js';
import { D } from '../../../src/core/decimal.js';
import { ValidationError } from '../../../src/core/errors.js';
import { clientOrderId, contractSymbol } from '../../../src/core/ids.js';
import { OpenType, PositionMode } from '../../../src/domain/contract-enums.js';
import { syntheticTradeId } from '../../../src/domain/fill.js';
import type { OrderSide, OrderSpec, PositionSide } from '../../../src/domain/order.js';
import {
  contractOrderParams,
  contractOrderStatus,
  contractOrderType,
  contractSide,
  fillFromContractOrder,
  positionFromContract,
  venueOrderFromContract,
  type ContractOrderContext,
} from '../../../src/execution/gateways/contract-order-mapping.js';
import type { PlaceRequest } from '../../../src/execution/exchange-gateway.js';
import { btcUsdtContract, contractFixtureData, ethUsdtContract } from './support/fixtures.js';

const BTC = contractSymbol('BTC_USDT');
const CID = clientOrderId('ppperp_p_000000001aa');
const inst = btcUsdtContract(); // priceUnit 0.1, volUnit 1, leverage 1..500
const HEDGED = PositionMode.HEDGED;
const ONE_WAY = PositionMode.ONE_WAY;
const ctx = (over: Partial<ContractOrderContext> = {}): ContractOrderContext => ({
  positionMode: HEDGED,
  leverage: 10,
  openType: OpenType.CROSS,
  ...over,
});

const req = (o: Partial<OrderSpec>): PlaceRequest => ({
  clientOrderId: CID,
  order: { symbol: BTC, kind: 'contract', side: 'buy', type: 'limit', timeInForce: 'gtc', price: D('87000.1'), quantity: D('3'), ...o },
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

describe('contract order mapping', () => {
  describe('side codes', () => {
    // [mode, side, positionSide, reduceOnly, expected code]
    const rows: [PositionMode, OrderSide, PositionSide | undefined, boolean, number][] = [
      [HEDGED, 'buy', 'long', false, 1],
      [HEDGED, 'sell', 'long', false, 4],
      [HEDGED, 'sell', 'long', true, 4],
      [HEDGED, 'sell', 'short', false, 3],
      [HEDGED, 'buy', 'short', false, 2],
      [HEDGED, 'buy', 'short', true, 2],
      [HEDGED, 'buy', undefined, false, 1],
      [HEDGED, 'sell', undefined, false, 3],
      [HEDGED, 'buy', undefined, true, 2],
      [HEDGED, 'sell', undefined, true, 4],
      [ONE_WAY, 'buy', undefined, false, 1],
      [ONE_WAY, 'sell', undefined, false, 3],
      [ONE_WAY, 'buy', undefined, true, 2],
      [ONE_WAY, 'sell', undefined, true, 4],
    ];
    for (const [mode, side, positionSide, reduceOnly, code] of rows) {
      it(`maps_${mode === HEDGED ? 'hedged' : 'one_way'}_${side}_${positionSide ?? 'none'}${reduceOnly ? '_reduce_only' : ''}_to_${code}`, () => {
        expect(contractSide({ side, ...(positionSide ? { positionSide } : {}), reduceOnly }, mode)).to.equal(code);
      });
    }

    it('refuses_reduce_only_on_a_leg_the_order_would_open', () => {
      expect(validationOf(() => contractSide({ side: 'buy', positionSide: 'long', reduceOnly: true }, HEDGED)).field).to.equal(
        'order.reduceOnly',
      );
    });

    it('refuses_a_position_side_in_one_way_mode', () => {
      expect(validationOf(() => contractSide({ side: 'buy', positionSide: 'long' }, ONE_WAY)).field).to.equal('order.positionSide');
    });
  });

  describe('type codes', () => {
    it('maps_every_type_and_time_in_force', () => {
      expect([
        contractOrderType('limit', 'gtc'),
        contractOrderType('limit', 'post-only'),
        contractOrderType('limit', 'ioc'),
        contractOrderType('limit', 'fok'),
        contractOrderType('market', 'gtc'),
        contractOrderType('market', 'ioc', 6),
      ]).to.deep.equal([1, 2, 3, 4, 5, 6]);
      expect(validationOf(() => contractOrderType('market', 'post-only')).field).to.equal('order.timeInForce');
    });
  });

  describe('wire parameters', () => {
    it('sends_an_opening_hedged_limit_buy_exactly', () => {
      const params = contractOrderParams(req({}), inst, ctx());
      expect(params).to.deep.equal({
        symbol: 'BTC_USDT',
        price: '87000.1',
        vol: '3',
        leverage: 10,
        side: 1,
        type: 1,
        openType: 2,
        externalOid: CID,
        positionMode: 1,
      });
      // what the client puts in the JSON body: decimals as JSON numbers
      expect(contractCatalogue.createOrder.request.parse(params)).to.deep.equal({
        symbol: 'BTC_USDT',
        price: 87000.1,
        vol: 3,
        leverage: 10,
        side: 1,
        type: 1,
        openType: 2,
        externalOid: CID,
        positionMode: 1,
      });
    });

    it('rounds_a_buy_price_down_and_a_sell_price_up_to_the_tick', () => {
      // 87000.19 / 0.1 = 870001.9 → buy floor → 87000.1; sell ceil 870002 → 87000.2
      expect(contractOrderParams(req({ price: D('87000.19') }), inst, ctx()).price).to.equal('87000.1');
      expect(contractOrderParams(req({ side: 'sell', price: D('87000.11') }), inst, ctx()).price).to.equal('87000.2');
    });

    it('truncates_the_volume_to_the_volume_unit_and_refuses_zero', () => {
      expect(contractOrderParams(req({ quantity: D('3.9') }), inst, ctx()).vol).to.equal('3');
      const e = validationOf(() => contractOrderParams(req({ quantity: D('0.9') }), inst, ctx()));
      expect([e.field, e.received]).to.deep.equal(['order.quantity', '0.9']);
    });

    it('sends_a_one_way_reduce_only_sell_without_leverage', () => {
      const params = contractOrderParams(
        req({ side: 'sell', reduceOnly: true }),
        inst,
        ctx({ positionMode: ONE_WAY, leverage: undefined, openType: OpenType.ISOLATED }),
      );
      expect(params).to.deep.equal({
        symbol: 'BTC_USDT',
        price: '87000.1',
        vol: '3',
        side: 4,
        type: 1,
        openType: 1,
        externalOid: CID,
        positionMode: 2,
        reduceOnly: true,
      });
      expect(contractCatalogue.createOrder.request.parse(params)).to.include({ reduceOnly: true, positionMode: 2, side: 4 });
    });

    it('leaves_reduce_only_off_the_wire_in_hedged_mode', () => {
      const params = contractOrderParams(req({ side: 'sell', reduceOnly: true }), inst, ctx({ leverage: undefined }));
      expect(params.side).to.equal(4);
      expect(params).not.to.have.property('reduceOnly');
    });

    it('sends_market_orders_with_price_zero_and_the_configured_type', () => {
      const { price: _p, ...spec } = req({ type: 'market', timeInForce: 'ioc', side: 'sell', positionSide: 'short' }).order;
      expect(contractOrderParams({ clientOrderId: CID, order: spec }, inst, ctx())).to.include({ price: '0', type: 5, side: 3 });
      expect(contractOrderParams({ clientOrderId: CID, order: spec }, inst, ctx({ marketType: 6 }))).to.include({ price: '0', type: 6 });
      expect(contractCatalogue.createOrder.request.parse(contractOrderParams({ clientOrderId: CID, order: spec }, inst, ctx()))).to.include(
        { price: 0 },
      );
    });

    it('maps_every_limit_time_in_force', () => {
      const types = (['gtc', 'post-only', 'ioc', 'fok'] as const).map(
        (tif) => contractOrderParams(req({ timeInForce: tif }), inst, ctx()).type,
      );
      expect(types).to.deep.equal([1, 2, 3, 4]);
    });

    it('puts_tp_and_sl_on_the_nearest_tick_with_the_trigger_price_type', () => {
      // 95000.04 → 95000.0 (nearest), 80000.06 → 80000.1; fair price → trend 2
      const params = contractOrderParams(
        req({ takeProfitPrice: D('95000.04'), stopLossPrice: D('80000.06'), triggerPriceType: 'fair' }),
        inst,
        ctx(),
      );
      expect(params).to.include({ takeProfitPrice: '95000', profitTrend: 2, stopLossPrice: '80000.1', lossTrend: 2 });
      const last = contractOrderParams(req({ stopLossPrice: D('80000') }), inst, ctx());
      expect(last).to.include({ stopLossPrice: '80000', lossTrend: 1 });
      expect(last).not.to.have.property('takeProfitPrice');
    });

    it('prefers_the_order_leverage_and_requires_one_when_opening', () => {
      expect(contractOrderParams(req({ leverage: 25 }), inst, ctx()).leverage).to.equal(25);
      expect(validationOf(() => contractOrderParams(req({}), inst, ctx({ leverage: undefined }))).field).to.equal('order.leverage');
      expect(validationOf(() => contractOrderParams(req({ leverage: 501 }), inst, ctx())).field).to.equal('order.leverage');
    });

    it('adds_the_configured_stp_mode', () => {
      expect(contractOrderParams(req({}), inst, ctx({ stpMode: 2 })).stpMode).to.equal(2);
    });

    it('refuses_spot_only_fields', () => {
      expect(validationOf(() => contractOrderParams(req({ quoteQuantity: D('10') }), inst, ctx())).field).to.equal('order.quoteQuantity');
      expect(validationOf(() => contractOrderParams(req({ kind: 'spot' }), inst, ctx())).field).to.equal('order.kind');
    });
  });

  describe('venue records', () => {
    const captured = (): ContractOrder => contractOrderSchema.parse(contractFixtureData('contract_GET_api_v1_private_order_get.json'));
    const order = (over: Record<string, unknown>): ContractOrder =>
      contractOrderSchema.parse({
        orderId: '5',
        symbol: 'BTC_USDT',
        price: 100,
        vol: 4,
        side: 1,
        orderType: 1,
        state: 2,
        dealVol: 0,
        externalOid: CID,
        createTime: 10,
        updateTime: 20,
        ...over,
      });

    it('maps_order_states', () => {
      const rows: [number, number, number, string][] = [
        [1, 1, 0, 'submitted'],
        [2, 1, 0, 'accepted'],
        [2, 1, 1, 'partially-filled'],
        [3, 1, 4, 'filled'],
        [4, 1, 1, 'cancelled'],
        [4, 3, 1, 'expired'],
        [4, 5, 0, 'expired'],
        [5, 1, 0, 'rejected'],
      ];
      for (const [state, orderType, dealVol, expected] of rows) {
        expect(
          contractOrderStatus({
            state: state as ContractOrder['state'],
            orderType: orderType as ContractOrder['orderType'],
            dealVol: D(dealVol),
          }),
          `${state}/${orderType}/${dealVol}`,
        ).to.equal(expected);
      }
    });

    it('maps_the_captured_order_query_answer', () => {
      // side 2 = close short, market (type 5), completed, in hedged mode
      const v = venueOrderFromContract(captured(), HEDGED);
      expect(v).to.deep.include({
        venueOrderId: '102015012431820288',
        clientOrderId: '_m_f95eb99b061d4eef8f64a04e9ac4dad3',
        symbol: 'ETH_USDT',
        kind: 'contract',
        side: 'buy',
        type: 'market',
        timeInForce: 'ioc',
        status: 'filled',
        positionSide: 'short',
        reduceOnly: true,
        createdAt: 1609992674000,
      });
      expect(v.price).to.equal(undefined); // a market order's price is not a limit
      expect(v.leverage).to.equal(undefined); // the venue reports 0
      expect([v.quantity!.toString(), v.filledQty.toString(), v.avgFillPrice!.toString()]).to.deep.equal(['1', '1', '1208.35']);
    });

    it('leaves_out_the_position_side_in_one_way_mode', () => {
      const v = venueOrderFromContract(order({ positionMode: 2, side: 3 }), HEDGED);
      expect(v.positionSide).to.equal(undefined);
      expect(v.side).to.equal('sell');
      expect(v.reduceOnly).to.equal(undefined);
    });

    it('turns_an_order_with_fills_into_one_synthetic_cumulative_fill_with_reconciles_trade_id', () => {
      const f = fillFromContractOrder(captured(), 'USDT', HEDGED)!;
      expect(f.tradeId).to.equal(syntheticTradeId('102015012431820288', D(1)));
      expect(f).to.deep.include({
        venueOrderId: '102015012431820288',
        side: 'buy',
        feeAsset: 'USDT',
        liquidity: 'taker',
        time: 1609992674000,
        positionSide: 'short',
        reduceOnly: true,
        synthetic: true,
      });
      // no totalFee in the answer: takerFee 0.0072501 + makerFee 0
      expect([f.price.toString(), f.quantity.toString(), f.fee.toString()]).to.deep.equal(['1208.35', '1', '0.0072501']);
      expect(fillFromContractOrder(order({ dealVol: 0 }), 'USDT', HEDGED)).to.equal(undefined);
    });

    it('maps_the_captured_open_position_with_a_signed_quantity', () => {
      const [p] = (contractFixtureData('contract_GET_api_v1_private_position_open_positions.json') as unknown[]).map((x) =>
        contractPositionSchema.parse(x),
      );
      const pos = positionFromContract(p!, ethUsdtContract(), HEDGED, 99)!;
      expect(pos).to.deep.include({
        symbol: 'ETH_USDT',
        kind: 'contract',
        leg: 'long',
        leverage: 100,
        marginMode: 'isolated',
        settleAsset: 'USDT',
        updatedAt: 1609991676000,
      });
      expect(
        [pos.quantity, pos.entryPrice, pos.multiplier, pos.realizedPnl, pos.liquidationPrice!, pos.margin!].map((d) => d.toString()),
      ).to.deep.equal(['1', '1217.3', '0.01', '-0.0073', '1211.2', '0.1290338']);
      const short = positionFromContract({ ...p!, positionType: 2 }, ethUsdtContract(), ONE_WAY, 99)!;
      expect([short.leg, short.quantity.toString()]).to.deep.equal(['net', '-1']);
      expect(positionFromContract({ ...p!, state: 3 }, ethUsdtContract(), HEDGED, 99)).to.equal(undefined);
    });
  });
});
