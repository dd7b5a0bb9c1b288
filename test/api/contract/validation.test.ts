/**
 * Each request rule refuses a bad value BEFORE anything is sent, with an issue whose path names the
 * field and whose message states the expected value.
 */
import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { contractCatalogue as C, type ContractMethod } from '../../../src/api/contract/catalogue.js';

type Issue = { path: PropertyKey[]; message: string; code: string };

function issues(method: ContractMethod, input: unknown): Issue[] {
  const r = C[method].request.safeParse(input);
  return r.success ? [] : (r.error.issues as Issue[]);
}

/** Asserts the request fails with exactly one issue at `path` whose message contains `expected`. */
function refuses(method: ContractMethod, input: unknown, path: PropertyKey[], expected: string): void {
  const found = issues(method, input);
  expect(
    found,
    `${method} accepted ${JSON.stringify(input, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`,
  ).to.have.length.greaterThan(0);
  expect(found.map((i) => i.path)).to.deep.include(path);
  const at = found.find((i) => JSON.stringify(i.path) === JSON.stringify(path))!;
  expect(at.message).to.contain(expected);
}

function accepts(method: ContractMethod, input: unknown): unknown {
  const r = C[method].request.safeParse(input);
  expect(r.success, `${method}: ${JSON.stringify(r.error?.issues)}`).to.equal(true);
  return r.data;
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => String(100000000000000000n + BigInt(i)));
const DAY = 86_400_000;
const T0 = 1767204000000;
const order = { symbol: 'BTC_USDT', price: '87000', vol: 1, side: 1, type: 1, openType: 1, leverage: 20 };

describe('contract catalogue: request validation', () => {
  describe('id lists', () => {
    it('refuses_more_than_50_ids_in_cancel', () => {
      expect(accepts('cancelOrders', ids(50))).to.have.length(50);
      refuses('cancelOrders', ids(51), ['orderIds'], 'a list of 1 to 50 order ids');
    });

    it('refuses_an_empty_cancel_list', () => {
      refuses('cancelOrders', [], ['orderIds'], 'a list of 1 to 50 order ids');
    });

    it('refuses_more_than_50_ids_in_batch_query', () => {
      // 50 ids travel comma-separated
      expect((accepts('batchQuery', { order_ids: ids(50) }) as { order_ids: string }).order_ids.split(',')).to.have.length(50);
      refuses('batchQuery', { order_ids: ids(51) }, ['order_ids'], '1 to 50 order ids');
      refuses('batchQuery', { order_ids: ids(51).join(',') }, ['order_ids'], '1 to 50 order ids');
    });

    it('refuses_more_than_20_fill_ids_in_fee_details', () => {
      accepts('feeDetails', { symbol: 'BTC_USDT', ids: ids(20) });
      refuses('feeDetails', { symbol: 'BTC_USDT', ids: ids(21) }, ['ids'], '1 to 20 fill ids');
    });

    it('refuses_a_number_id_above_2_pow_53', () => {
      // 2^53 + 2 is a double, but not the id the caller meant
      refuses('chaseLimitOrder', { orderId: 2 ** 53 + 2 }, ['orderId'], 'digit string or bigint');
      expect(accepts('chaseLimitOrder', { orderId: 739204819784386560n })).to.deep.equal({ orderId: '739204819784386560' });
    });

    it('refuses_a_non_numeric_id_in_a_cancel_list', () => {
      refuses('cancelOrders', ['12', 'abc'], [1], 'digit string');
    });
  });

  describe('time ranges', () => {
    it('refuses_a_fee_details_span_over_90_days', () => {
      // 90 days = 7 776 000 000 ms is allowed, one ms more is not
      accepts('feeDetails', { symbol: 'BTC_USDT', start_time: T0, end_time: T0 + 90 * DAY });
      refuses('feeDetails', { symbol: 'BTC_USDT', start_time: T0, end_time: T0 + 90 * DAY + 1 }, ['end_time'], 'at most 90 days');
    });

    it('refuses_a_history_orders_span_over_90_days', () => {
      refuses('historyOrders', { start_time: T0, end_time: T0 + 91 * DAY }, ['end_time'], 'at most 90 days');
    });

    it('refuses_an_end_before_the_start', () => {
      refuses('feeDetails', { symbol: 'BTC_USDT', start_time: T0, end_time: T0 - 1 }, ['end_time'], 'at or after the start');
      refuses('fundingRecords', { position_type: 1, start_time: T0, end_time: T0 - 1 }, ['end_time'], 'at or after the start');
    });

    it('requires_start_and_end_for_a_custom_analysis_range', () => {
      refuses('assetAnalysis', { type: 4, currency: 'USDT', endTime: T0 }, ['startTime'], 'required with type 4');
      accepts('assetAnalysis', { type: 1, currency: 'USDT' });
    });
  });

  describe('klines', () => {
    const S = 1767204000;

    it('refuses_an_unknown_interval', () => {
      refuses('kline', { symbol: 'BTC_USDT', interval: 'Min2' }, ['interval'], 'Min1, Min5');
      refuses('kline', { symbol: 'BTC_USDT', interval: '1m' }, ['interval'], 'Month1');
    });

    it('refuses_milliseconds_where_seconds_are_expected', () => {
      refuses('kline', { symbol: 'BTC_USDT', start: S * 1000 }, ['start'], 'SECONDS');
      refuses('fairPriceKline', { symbol: 'BTC_USDT', end: S * 1000 }, ['end'], 'SECONDS');
    });

    it('accepts_2000_candles_and_refuses_2001', () => {
      // Min1: floor((end - start) / 60) + 1 candles; end = start + 1999·60 → 2000, start + 2000·60 → 2001
      accepts('kline', { symbol: 'BTC_USDT', interval: 'Min1', start: S, end: S + 1999 * 60 });
      accepts('kline', { symbol: 'BTC_USDT', interval: 'Min1', start: S, end: S + 2000 * 60 - 1 });
      refuses('kline', { symbol: 'BTC_USDT', interval: 'Min1', start: S, end: S + 2000 * 60 }, ['end'], 'at most 2000 Min1 candles');
    });

    it('uses_min1_when_no_interval_is_given', () => {
      refuses('indexPriceKline', { symbol: 'BTC_USDT', start: S, end: S + 2000 * 60 }, ['end'], 'end - start < 120000 seconds');
    });

    it('counts_hour4_candles_by_their_length', () => {
      // Hour4 = 14 400 s; 2000 candles span < 28 800 000 s
      accepts('kline', { symbol: 'BTC_USDT', interval: 'Hour4', start: 0, end: 1999 * 14400 });
      refuses('kline', { symbol: 'BTC_USDT', interval: 'Hour4', start: 0, end: 2000 * 14400 }, ['end'], 'end - start < 28800000 seconds');
    });

    it('counts_a_month_as_31_days', () => {
      // 31 d = 2 678 400 s; 1999 such months hold 2000 candles, 2000 months hold 2001
      accepts('kline', { symbol: 'BTC_USDT', interval: 'Month1', start: 0, end: 1999 * 2678400 });
      refuses('kline', { symbol: 'BTC_USDT', interval: 'Month1', start: 0, end: 2000 * 2678400 }, ['end'], 'Month1');
    });

    it('refuses_an_end_before_the_start', () => {
      refuses('kline', { symbol: 'BTC_USDT', start: S, end: S - 60 }, ['end'], 'at or after start');
    });

    it('converts_dates_to_seconds', () => {
      const out = accepts('kline', { symbol: 'BTC_USDT', interval: 'Min5', start: new Date(S * 1000), end: new Date((S + 600) * 1000) });
      expect(out).to.deep.equal({ symbol: 'BTC_USDT', interval: 'Min5', start: S, end: S + 600 });
    });
  });

  describe('paging and limits', () => {
    it('bounds_page_size_to_1_100', () => {
      accepts('transferRecord', { page_size: 100 });
      refuses('transferRecord', { page_size: 101 }, ['page_size'], 'from 1 to 100');
      refuses('historyOrders', { page_size: 0 }, ['page_size'], 'from 1 to 100');
      refuses('riskReverseHistory', { symbol: 'BTC_USDT', page_size: '101' }, ['page_size'], 'from 1 to 100');
    });

    it('bounds_funding_history_page_size_to_1_1000', () => {
      accepts('fundingRateHistory', { symbol: 'BTC_USDT', page_size: 1000 });
      refuses('fundingRateHistory', { symbol: 'BTC_USDT', page_size: 1001 }, ['page_size'], 'from 1 to 1000');
    });

    it('refuses_page_num_below_1', () => {
      refuses('openOrders', { page_num: 0 }, ['page_num'], '>= 1');
      refuses('trackOrders', { states: [1], pageIndex: 0 }, ['pageIndex'], '>= 1');
    });

    it('sends_the_default_page', () => {
      expect(accepts('historyPositions', {})).to.deep.equal({ page_num: 1, page_size: 20 });
    });

    it('bounds_deals_limit_to_1_100', () => {
      accepts('deals', { symbol: 'BTC_USDT', limit: 1 });
      refuses('deals', { symbol: 'BTC_USDT', limit: 101 }, ['limit'], 'from 1 to 100');
      refuses('deals', { symbol: 'BTC_USDT', limit: 0 }, ['limit'], 'from 1 to 100');
    });
  });

  describe('order/create', () => {
    it('refuses_side_outside_1_4', () => {
      refuses('createOrder', { ...order, side: 5 }, ['side'], '1, 2, 3 or 4');
    });

    it('refuses_type_outside_1_6', () => {
      refuses('createOrder', { ...order, type: 7 }, ['type'], '1, 2, 3, 4, 5 or 6');
      refuses('createOrder', { ...order, type: 0 }, ['type'], '1, 2, 3, 4, 5 or 6');
    });

    it('refuses_open_type_outside_1_2', () => {
      refuses('createOrder', { ...order, openType: 3 }, ['openType'], '1 or 2');
    });

    it('requires_a_price', () => {
      const { price: _omitted, ...noPrice } = order;
      refuses('createOrder', noPrice, ['price'], 'decimal number');
    });

    it('requires_a_positive_price_for_limit_types', () => {
      refuses('createOrder', { ...order, price: 0 }, ['price'], '> 0');
      refuses('createOrder', { ...order, type: 4, price: '0' }, ['price'], '> 0');
    });

    it('accepts_price_0_for_market_types', () => {
      expect((accepts('createOrder', { ...order, type: 5, price: 0 }) as { price: number }).price).to.equal(0);
      accepts('createOrder', { ...order, type: 6, price: 0 });
    });

    it('refuses_a_negative_price', () => {
      refuses('createOrder', { ...order, type: 5, price: -1 }, ['price'], '>= 0');
    });

    it('refuses_vol_of_0', () => {
      refuses('createOrder', { ...order, vol: 0 }, ['vol'], '> 0');
    });

    it('requires_leverage_when_opening', () => {
      const { leverage: _omitted, ...noLeverage } = order;
      refuses('createOrder', noLeverage, ['leverage'], 'required when opening');
      refuses('createOrder', { ...noLeverage, side: 3 }, ['leverage'], 'required when opening');
      accepts('createOrder', { ...noLeverage, side: 4 });
    });

    it('refuses_a_fractional_leverage', () => {
      refuses('createOrder', { ...order, leverage: 1.5 }, ['leverage'], 'integer');
    });

    it('allows_reduce_only_in_one_way_mode_only', () => {
      refuses('createOrder', { ...order, side: 4, reduceOnly: true }, ['reduceOnly'], 'positionMode is 2');
      refuses('createOrder', { ...order, side: 4, reduceOnly: true, positionMode: 1 }, ['reduceOnly'], 'positionMode is 2');
      expect(
        (accepts('createOrder', { ...order, side: 4, reduceOnly: true, positionMode: 2 }) as { reduceOnly: boolean }).reduceOnly,
      ).to.equal(true);
    });

    it('leaves_reduce_only_false_out_of_a_hedged_body', () => {
      const out = accepts('createOrder', { ...order, reduceOnly: false }) as Record<string, unknown>;
      expect('reduceOnly' in out).to.equal(false);
    });

    it('refuses_float_noise_that_json_would_not_carry_exactly', () => {
      // 0.1 + 0.2 = 0.30000000000000004: 17 significant digits
      refuses('createOrder', { ...order, price: 0.1 + 0.2 }, ['price'], 'at most 15 significant digits');
    });

    it('sends_decimals_from_decimal_string_and_number_as_the_same_json_number', () => {
      for (const price of [new Decimal('87000.5'), '87000.5', 87000.5]) {
        expect((accepts('createOrder', { ...order, price }) as { price: number }).price).to.equal(87000.5);
      }
    });

    it('refuses_an_unknown_field', () => {
      const found = issues('createOrder', { ...order, quantity: 1 });
      expect(found.map((i) => i.code)).to.include('unrecognized_keys');
    });

    it('refuses_a_spot_symbol', () => {
      refuses('createOrder', { ...order, symbol: 'BTCUSDT' }, ['symbol'], 'like BTC_USDT');
    });

    it('refuses_a_trend_outside_1_3', () => {
      refuses('createOrder', { ...order, stopLossPrice: 80000, lossTrend: 4 }, ['lossTrend'], '1, 2 or 3');
    });
  });

  describe('submit_batch', () => {
    it('requires_stp_mode_on_every_order', () => {
      refuses('submitBatch', [{ ...order, stpMode: 1 }, order], [1, 'stpMode'], '0, 1, 2 or 3');
    });

    it('applies_the_create_rules_to_each_order', () => {
      const { leverage: _omitted, ...noLeverage } = order;
      refuses('submitBatch', [{ ...noLeverage, stpMode: 0 }], [0, 'leverage'], 'required when opening');
    });

    it('refuses_more_than_50_orders', () => {
      refuses(
        'submitBatch',
        Array.from({ length: 51 }, () => ({ ...order, stpMode: 1 })),
        ['orders'],
        'a list of 1 to 50 orders',
      );
    });

    it('refuses_tp_sl_fields_in_a_batch_order', () => {
      const found = issues('submitBatch', [{ ...order, stpMode: 1, stopLossPrice: 80000 }]);
      expect(found.map((i) => i.code)).to.include('unrecognized_keys');
    });
  });

  describe('stop and trigger orders', () => {
    it('refuses_a_loss_trend_outside_1_3_when_a_stop_loss_is_set', () => {
      // the venue would answer 3001 (price type error)
      refuses('changeStopOrder', { symbol: 'BTC_USDT', orderId: '1', stopLossPrice: 80000, lossTrend: 4 }, ['lossTrend'], '1, 2 or 3');
      refuses(
        'changeStopOrder',
        { symbol: 'BTC_USDT', orderId: '1', takeProfitPrice: 95000, profitTrend: 0 },
        ['profitTrend'],
        '1, 2 or 3',
      );
    });

    it('ignores_the_trend_when_the_price_cancels', () => {
      accepts('changeStopOrder', { symbol: 'BTC_USDT', orderId: '1', stopLossPrice: 0, lossTrend: 0 });
      const out = accepts('changeStopOrder', { symbol: 'BTC_USDT', orderId: '1', stopLossPrice: null, takeProfitPrice: null });
      expect(out).to.deep.equal({ symbol: 'BTC_USDT', orderId: '1', stopLossPrice: null, takeProfitPrice: null });
    });

    it('requires_a_positive_price_to_change_a_plan_price', () => {
      refuses('changePlanPrice', { stopPlanOrderId: '1' }, ['stopLossPrice'], 'at least one');
      refuses('changePlanPrice', { stopPlanOrderId: '1', stopLossPrice: 0, takeProfitPrice: 0 }, ['stopLossPrice'], 'at least one');
      accepts('changePlanPrice', { stopPlanOrderId: '1', takeProfitPrice: 0.2 });
    });

    it('requires_a_trigger_price_for_a_stop_order', () => {
      refuses('placeStopOrder', { positionId: '1', vol: 1 }, ['stopLossPrice'], 'at least one');
    });

    it('requires_the_limit_price_of_a_limit_stop_leg', () => {
      refuses(
        'placeStopOrder',
        { positionId: '1', vol: 1, stopLossPrice: 0.19, stopLossType: 1 },
        ['stopLossOrderPrice'],
        'stopLossType 1',
      );
    });

    it('requires_an_execution_price_for_a_non_market_trigger', () => {
      refuses(
        'placePlanOrder',
        { symbol: 'ADA_USDT', vol: 1, side: 4, openType: 2, triggerPrice: 0.7, triggerType: 1, executeCycle: 1, orderType: 1, trend: 1 },
        ['price'],
        'unless orderType is 5',
      );
    });

    it('requires_leverage_for_an_isolated_opening_trigger', () => {
      refuses(
        'placePlanOrderV2',
        { symbol: 'DOGE_USDT', vol: 1, side: 1, openType: 1, triggerPrice: 0.06, triggerType: 2, executeCycle: 1, orderType: 5, trend: 1 },
        ['leverage'],
        'opening isolated',
      );
    });

    it('refuses_more_than_50_plan_cancels', () => {
      refuses(
        'cancelPlanOrders',
        Array.from({ length: 51 }, (_, i) => ({ symbol: 'BTC_USDT', orderId: String(i + 1) })),
        ['orders'],
        '1 to 50',
      );
    });
  });

  describe('positions', () => {
    it('requires_symbol_open_type_and_position_type_without_a_position_id', () => {
      refuses('changeLeverage', { leverage: 20 }, ['symbol'], 'required when no positionId');
      refuses('changeLeverage', { leverage: 20, symbol: 'BTC_USDT', openType: 1 }, ['positionType'], 'required when no positionId');
      accepts('changeLeverage', { leverage: 20, positionId: '1394650' });
    });

    it('refuses_a_margin_change_type_other_than_add_or_sub', () => {
      refuses('changeMargin', { positionId: '1', amount: 1, type: 'MORE' }, ['type'], 'ADD');
    });

    it('refuses_a_position_mode_outside_1_2', () => {
      refuses('changePositionMode', { positionMode: 3 }, ['positionMode'], '1 or 2');
    });
  });

  describe('wire form', () => {
    it('accepts_query_values_as_strings', () => {
      const out = accepts('historyOrders', {
        symbol: 'BTC_USDT',
        states: '2,3',
        category: '1',
        side: '4',
        start_time: String(T0),
        end_time: String(T0 + DAY),
        page_num: '2',
        page_size: '50',
      });
      expect(out).to.deep.equal({
        symbol: 'BTC_USDT',
        states: '2,3',
        category: 1,
        side: 4,
        start_time: T0,
        end_time: T0 + DAY,
        page_num: 2,
        page_size: 50,
      });
    });

    it('accepts_booleans_as_strings', () => {
      expect(accepts('changeAutoAddIm', { positionId: '1', isEnabled: 'false' })).to.deep.equal({ positionId: '1', isEnabled: false });
    });

    it('refuses_a_non_boolean_flag', () => {
      refuses('changeAutoAddIm', { positionId: '1', isEnabled: 'yes' }, ['isEnabled'], 'true or false');
    });

    it('sends_cancel_all_with_an_empty_symbol_for_every_contract', () => {
      expect(accepts('cancelAll', {})).to.deep.equal({ symbol: '' });
      expect(accepts('cancelAll', { symbol: '' })).to.deep.equal({ symbol: '' });
      refuses('cancelAll', { symbol: 'btc' }, ['symbol'], '"" for all contracts');
    });
  });
});
