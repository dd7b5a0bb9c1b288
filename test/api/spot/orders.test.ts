import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { spotCatalogue as c } from '../../../src/api/spot/catalogue.js';
import { parseBatchOrders, type SpotBatchOrderParams } from '../../../src/api/spot/orders.js';
import { expectIssue, fixture, parseOk } from './spot-test-kit.js';

const s = (d: Decimal | undefined) => d?.toFixed();

const limitBuy = (i: number, over: Partial<SpotBatchOrderParams> = {}): SpotBatchOrderParams => ({
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  quantity: '0.0002',
  price: String(30000 + i),
  newClientOrderId: `pp-${i}`,
  ...over,
});

describe('spot orders (4.4)', () => {
  describe('responses from the captured fixtures', () => {
    it('parses_the_placement_answer', () => {
      const o = parseOk(c.newOrder.response, fixture('spot_POST_api_v3_order.json'));
      expect([o.symbol, o.orderId, o.orderListId]).to.deep.equal(['MXUSDT', '06a480e69e604477bfb48dddd5f0b750', -1]);
      expect([s(o.price), s(o.origQty), o.type, o.side]).to.deep.equal(['0.1', '50', 'LIMIT', 'BUY']);
      expect(o.transactTime).to.equal(1666676533741);
    });

    it('parses_the_short_live_placement_answer', () => {
      const o = parseOk(c.newOrder.response, { symbol: 'BTCUSDT', orderId: '123738410679123456', orderListId: -1 });
      expect([o.orderId, o.price, o.transactTime]).to.deep.equal(['123738410679123456', undefined, undefined]);
    });

    it('parses_mixed_batch_results_in_request_order', () => {
      const r = parseOk(c.batchOrders.response, fixture('spot_POST_api_v3_batchOrders.json'));
      expect(r.map((x) => x.ok)).to.deep.equal([true, false, true]);
      const [first, second, third] = r;
      if (!first?.ok || second?.ok !== false || !third?.ok) return expect.fail('shape');
      expect([first.orderId, first.newClientOrderId, first.orderListId]).to.deep.equal(['1196315350023612316', 'hio8279hbdsds', -1]);
      expect([second.code, second.newClientOrderId]).to.deep.equal([30002, '123456']);
      expect(second.msg).to.contain('minimum transaction volume');
      expect([third.orderId, third.newClientOrderId]).to.deep.equal(['1196315350023612318', undefined]);
    });

    it('parses_the_cancel_answer', () => {
      const o = parseOk(c.cancelOrder.response, fixture('spot_DELETE_api_v3_order.json'));
      expect([o.symbol, o.orderId, s(o.price), s(o.origQty), o.type, o.side]).to.deep.equal([
        'BTCUSDT',
        '133734823834447872',
        '30000',
        '0.0002',
        'LIMIT',
        'BUY',
      ]);
      expect(o.status).to.equal(undefined);
    });

    it('parses_the_cancel_all_answer', () => {
      const list = parseOk(c.cancelOpenOrders.response, fixture('spot_DELETE_api_v3_openOrders.json'));
      expect(list.map((o) => o.orderId)).to.deep.equal(['133926492139692032']);
    });

    it('parses_the_single_order_query', () => {
      const o = parseOk(c.queryOrder.response, fixture('spot_GET_api_v3_order.json'));
      expect([o.orderId, o.status, o.type, o.side, o.orderListId]).to.deep.equal(['133734823834147272', 'CANCELED', 'LIMIT', 'BUY', -1]);
      expect([s(o.price), s(o.origQty), s(o.executedQty), s(o.cummulativeQuoteQty), s(o.origQuoteOrderQty)]).to.deep.equal([
        '30000',
        '0.0002',
        '0',
        '0',
        '6',
      ]);
      expect([o.time, o.updateTime]).to.deep.equal([1647667102000, 1647708567000]);
      expect([o.clientOrderId, o.timeInForce, o.stopPrice, o.icebergQty]).to.deep.equal([undefined, undefined, undefined, undefined]);
      expect(o.isWorking).to.equal(true);
    });

    it('reads_the_original_quantity_from_Qty', () => {
      const wire = fixture('spot_GET_api_v3_order.json') as Record<string, unknown>;
      delete wire.origQty;
      wire.Qty = '0.0003';
      const o = parseOk(c.queryOrder.response, wire);
      expect(s(o.origQty)).to.equal('0.0003');
      expect('Qty' in o).to.equal(false);
    });

    it('parses_open_orders_with_empty_client_id_and_null_update_time', () => {
      const list = parseOk(c.openOrders.response, fixture('spot_GET_api_v3_openOrders.json'));
      const o = list[0]!;
      expect([o.orderId, o.status, o.side, o.clientOrderId, o.updateTime]).to.deep.equal([
        '133949373632483328',
        'NEW',
        'SELL',
        undefined,
        undefined,
      ]);
      expect([s(o.price), s(o.origQuoteOrderQty)]).to.deep.equal(['45000', '9']);
      expect(o.time).to.equal(1647718255199);
    });

    it('parses_all_orders_with_stringified_numbers', () => {
      const list = parseOk(c.allOrders.response, fixture('spot_GET_api_v3_allOrders.json'));
      const o = list[0]!;
      expect([o.symbol, o.orderId, o.orderListId, o.status, o.type, o.side]).to.deep.equal([
        'ATLASUSDT',
        'C02__385413065019117569043',
        -1,
        'FILLED',
        'MARKET',
        'SELL',
      ]);
      expect([s(o.executedQty), s(o.cummulativeQuoteQty)]).to.deep.equal(['1220', '5.54124']);
      expect([o.time, o.updateTime]).to.deep.equal([1707671871000, 1707671871000]);
    });
  });

  describe('malformed responses', () => {
    it('rejects_an_order_without_orderId', () => {
      const wire = fixture('spot_GET_api_v3_order.json') as Record<string, unknown>;
      delete wire.orderId;
      expectIssue(c.queryOrder.response, wire, ['orderId']);
    });

    it('rejects_an_order_with_a_non_numeric_price', () => {
      const wire = fixture('spot_GET_api_v3_openOrders.json') as Record<string, unknown>[];
      wire[0]!.price = 'forty-five thousand';
      expectIssue(c.openOrders.response, wire, [0, 'price']);
    });

    it('rejects_an_order_with_neither_origQty_nor_Qty', () => {
      const wire = fixture('spot_GET_api_v3_order.json') as Record<string, unknown>;
      delete wire.origQty;
      expectIssue(c.queryOrder.response, wire, ['origQty']);
    });

    it('rejects_an_unknown_order_status', () => {
      const wire = fixture('spot_GET_api_v3_order.json') as Record<string, unknown>;
      wire.status = 'GONE';
      expectIssue(c.queryOrder.response, wire, ['status']);
    });

    it('rejects_a_placement_answer_without_orderId', () => {
      expectIssue(c.newOrder.response, { symbol: 'BTCUSDT', orderListId: -1 }, ['orderId']);
    });

    it('reports_a_batch_element_with_neither_orderId_nor_code_as_missing_orderId', () => {
      const wire = fixture('spot_POST_api_v3_batchOrders.json') as Record<string, unknown>[];
      delete wire[2]!.orderId;
      expectIssue(c.batchOrders.response, wire, [2, 'orderId']);
    });
  });

  describe('placement rules', () => {
    it('serialises_decimals_numbers_and_strings_to_plain_wire_strings', () => {
      const out = parseOk(c.newOrder.request, {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: new Decimal('0.00020'),
        price: 30000,
        newClientOrderId: 'pp-s1-i1',
        recvWindow: 5000,
      });
      // key order follows the schema: symbol, side, type, quantity, (quoteOrderQty), price, ..., recvWindow
      expect(Object.entries(out)).to.deep.equal([
        ['symbol', 'BTCUSDT'],
        ['side', 'BUY'],
        ['type', 'LIMIT'],
        ['quantity', '0.0002'],
        ['price', '30000'],
        ['newClientOrderId', 'pp-s1-i1'],
        ['recvWindow', '5000'],
      ]);
      // 1e-7 as a JS number must not go out as "1e-7"
      expect(parseOk(c.newOrder.request, { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: 1e-7 }).quantity).to.equal(
        '0.0000001',
      );
    });

    for (const type of ['LIMIT', 'LIMIT_MAKER', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'] as const) {
      it(`refuses_${type}_without_price`, () => {
        expectIssue(
          c.newOrder.request,
          { symbol: 'BTCUSDT', side: 'BUY', type, quantity: '1' },
          ['price'],
          new RegExp(`required for type ${type}`),
        );
      });

      it(`refuses_${type}_without_quantity`, () => {
        expectIssue(
          c.newOrder.request,
          { symbol: 'BTCUSDT', side: 'BUY', type, price: '1' },
          ['quantity'],
          new RegExp(`required for type ${type}`),
        );
      });
    }

    it('refuses_quoteOrderQty_on_a_limit_order', () => {
      expectIssue(
        c.newOrder.request,
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1', quoteOrderQty: '10' },
        ['quoteOrderQty'],
        /MARKET/,
      );
    });

    it('refuses_a_market_order_without_quantity_or_quoteOrderQty', () => {
      expectIssue(c.newOrder.request, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET' }, ['quantity'], /quantity or quoteOrderQty.*-1128/);
    });

    it('refuses_a_market_order_with_both_quantity_and_quoteOrderQty', () => {
      expectIssue(
        c.newOrder.request,
        { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1', quoteOrderQty: '10' },
        ['quoteOrderQty'],
        /only one/,
      );
    });

    it('accepts_a_market_order_by_quote_amount_or_by_quantity', () => {
      expect(parseOk(c.newOrder.request, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: 10 }).quoteOrderQty).to.equal(
        '10',
      );
      expect(parseOk(c.newOrder.request, { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.5' }).quantity).to.equal('0.5');
    });

    it('applies_the_same_rules_to_the_test_order', () => {
      expectIssue(c.testNewOrder.request, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1' }, ['price']);
    });

    it('refuses_non_positive_or_non_numeric_decimals', () => {
      expectIssue(
        c.newOrder.request,
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0' },
        ['price'],
        /decimal number > 0/,
      );
      expectIssue(
        c.newOrder.request,
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '-1', price: '1' },
        ['quantity'],
        /decimal number > 0/,
      );
      expectIssue(
        c.newOrder.request,
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: 'abc' },
        ['price'],
        /decimal number/,
      );
    });

    it('refuses_unknown_side_type_and_stp_mode', () => {
      expectIssue(c.newOrder.request, { symbol: 'BTCUSDT', side: 'buy', type: 'MARKET', quantity: '1' }, ['side'], /BUY, SELL/);
      expectIssue(c.newOrder.request, { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP', quantity: '1' }, ['type'], /LIMIT_MAKER/);
      expectIssue(
        c.newOrder.request,
        { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1', stpMode: 'cancel_all' },
        ['stpMode'],
        /cancel_both/,
      );
      expect(
        parseOk(c.newOrder.request, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1', stpMode: 'cancel_maker' }).stpMode,
      ).to.equal('cancel_maker');
    });

    it('refuses_a_client_order_id_with_illegal_characters', () => {
      expectIssue(c.newOrder.request, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1', newClientOrderId: 'a b' }, [
        'newClientOrderId',
      ]);
    });
  });

  describe('batch rules', () => {
    it('sends_the_batch_as_a_json_string_of_wire_orders', () => {
      const out = parseOk(c.batchOrders.request, { batchOrders: [limitBuy(1, { quantity: 0.0002 }), limitBuy(2)], recvWindow: 5000 });
      expect(out.recvWindow).to.equal('5000');
      expect(parseBatchOrders(out.batchOrders)).to.deep.equal([
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.0002', price: '30001', newClientOrderId: 'pp-1' },
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.0002', price: '30002', newClientOrderId: 'pp-2' },
      ]);
    });

    it('accepts_the_batch_as_it_arrives_on_the_wire', () => {
      const wire = JSON.stringify([{ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: 1 }]);
      const out = parseOk(c.batchOrders.request, { batchOrders: wire, recvWindow: '5000', timestamp: '1767205878625', signature: 'ab' });
      expect(out).to.deep.equal({ batchOrders: '[{"symbol":"BTCUSDT","side":"SELL","type":"MARKET","quantity":"1"}]', recvWindow: '5000' });
    });

    it('accepts_twenty_orders_and_refuses_twenty_one', () => {
      const twenty = Array.from({ length: 20 }, (_, i) => limitBuy(i));
      expect(parseBatchOrders(parseOk(c.batchOrders.request, { batchOrders: twenty }).batchOrders)).to.have.length(20);
      expectIssue(c.batchOrders.request, { batchOrders: [...twenty, limitBuy(20)] }, ['batchOrders'], /1\.\.20 orders/);
    });

    it('refuses_an_empty_batch', () => {
      expectIssue(c.batchOrders.request, { batchOrders: [] }, ['batchOrders'], /1\.\.20/);
    });

    it('refuses_a_batch_of_two_symbols_naming_the_odd_order', () => {
      expectIssue(
        c.batchOrders.request,
        { batchOrders: [limitBuy(0), limitBuy(1, { symbol: 'ETHUSDT' })] },
        ['batchOrders', 1, 'symbol'],
        /BTCUSDT.*one symbol/,
      );
    });

    it('applies_the_single_order_rules_to_each_element', () => {
      const { price: _omit, ...noPrice } = limitBuy(2);
      expectIssue(
        c.batchOrders.request,
        { batchOrders: [limitBuy(0), limitBuy(1), noPrice] },
        ['batchOrders', 2, 'price'],
        /required for type LIMIT/,
      );
      expectIssue(
        c.batchOrders.request,
        { batchOrders: [{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET' }] },
        ['batchOrders', 0, 'quantity'],
        /quoteOrderQty/,
      );
    });

    it('refuses_recvWindow_inside_an_element', () => {
      expectIssue(
        c.batchOrders.request,
        { batchOrders: [{ ...limitBuy(0), recvWindow: 5000 }] },
        ['batchOrders', 0, 'recvWindow'],
        /no such parameter/,
      );
    });

    it('refuses_a_duplicate_client_order_id_in_one_batch', () => {
      expectIssue(
        c.batchOrders.request,
        { batchOrders: [limitBuy(0), limitBuy(1, { newClientOrderId: 'pp-0' })] },
        ['batchOrders', 1, 'newClientOrderId'],
        /order 0/,
      );
    });

    it('refuses_a_batch_that_is_not_json', () => {
      expectIssue(c.batchOrders.request, { batchOrders: '[{"symbol":' }, ['batchOrders'], /JSON array/);
    });
  });

  describe('cancel and query rules', () => {
    it('requires_orderId_or_origClientOrderId_to_cancel', () => {
      expectIssue(c.cancelOrder.request, { symbol: 'BTCUSDT' }, ['orderId'], /orderId or origClientOrderId/);
      expect(parseOk(c.cancelOrder.request, { symbol: 'BTCUSDT', origClientOrderId: 'pp-1', newClientOrderId: 'pp-1-c' })).to.deep.equal({
        symbol: 'BTCUSDT',
        origClientOrderId: 'pp-1',
        newClientOrderId: 'pp-1-c',
      });
    });

    it('requires_orderId_or_origClientOrderId_to_query', () => {
      expectIssue(c.queryOrder.request, { symbol: 'BTCUSDT' }, ['orderId'], /orderId or origClientOrderId/);
      expect(parseOk(c.queryOrder.request, { symbol: 'MXUSDT', orderId: '06a480e69e604477bfb48dddd5f0b750' }).orderId).to.equal(
        '06a480e69e604477bfb48dddd5f0b750',
      );
    });

    it('accepts_up_to_five_open_order_symbols_and_refuses_six', () => {
      const five = ['BTCUSDT', 'ETHUSDT', 'MXUSDT', 'AOUSDT', 'RARIUSDT'];
      expect(parseOk(c.openOrders.request, { symbol: five }).symbol).to.equal(five.join(','));
      expect(parseOk(c.openOrders.request, { symbol: five.join(',') }).symbol).to.equal(five.join(','));
      expectIssue(c.openOrders.request, { symbol: [...five, 'PYTHUSDT'] }, ['symbol'], /1\.\.5 spot symbols/);
      expect(parseOk(c.openOrders.request, {})).to.deep.equal({});
    });

    it('clamps_allOrders_limit_above_1000_and_refuses_zero', () => {
      expect(parseOk(c.allOrders.request, { symbol: 'BTCUSDT', limit: '1000' }).limit).to.equal('1000');
      expect(parseOk(c.allOrders.request, { symbol: 'BTCUSDT', limit: 1001 }).limit).to.equal('1000');
      expectIssue(c.allOrders.request, { symbol: 'BTCUSDT', limit: 0 }, ['limit'], /1\.\.1000/);
    });

    it('requires_a_symbol_to_cancel_all', () => {
      expectIssue(c.cancelOpenOrders.request, {}, ['symbol'], /spot symbol/);
    });
  });
});
