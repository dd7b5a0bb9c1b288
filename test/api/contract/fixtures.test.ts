/**
 * Every captured contract fixture parses through the catalogue schema of its endpoint (responses:
 * the `data` payload; `*.request.json`: the request schema), with exact value checks.
 */
import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import {
  contractCatalogue as C,
  type ContractMethod,
  type ContractResponse,
  type ContractWireRequest,
} from '../../../src/api/contract/catalogue.js';
import { contractEnvelopeSchema } from '../../../src/api/contract/response-primitives.js';
import { contractFixtureFiles, mexc, mexcData, readText } from './fixture-loader.js';

/** Fixture file → the catalogue entry whose schema reads it. Error bodies go through the envelope. */
const FIXTURE_ENDPOINT: Record<string, ContractMethod | 'envelope'> = {
  'contract_ERROR_1001_GET_api_v1_contract_depth_BTCUSDT.json': 'envelope',
  'contract_ERROR_2009_position_not_exist.json': 'envelope',
  'contract_ERROR_602_signature_verification_failed.json': 'envelope',
  'contract_GET_api_v1_contract_deals_BTC_USDT.json': 'deals',
  'contract_GET_api_v1_contract_depth_BTC_USDT.json': 'depth',
  'contract_GET_api_v1_contract_depth_commits_BTC_USDT_10.json': 'depthCommits',
  'contract_GET_api_v1_contract_detail.json': 'contractDetail',
  'contract_GET_api_v1_contract_detail_all.json': 'contractDetail',
  'contract_GET_api_v1_contract_fair_price_BTC_USDT.json': 'fairPrice',
  'contract_GET_api_v1_contract_funding_rate_BTC_USDT.json': 'fundingRate',
  'contract_GET_api_v1_contract_funding_rate_history.json': 'fundingRateHistory',
  'contract_GET_api_v1_contract_index_price_BTC_USDT.json': 'indexPrice',
  'contract_GET_api_v1_contract_kline_BTC_USDT.json': 'kline',
  'contract_GET_api_v1_contract_kline_BTC_USDT_empty.json': 'kline',
  'contract_GET_api_v1_contract_support_currencies.json': 'supportCurrencies',
  'contract_GET_api_v1_contract_ticker.json': 'ticker',
  'contract_GET_api_v1_contract_ticker_all.json': 'ticker',
  'contract_GET_api_v1_private_account_assets.json': 'assets',
  'contract_GET_api_v1_private_order_get.json': 'getOrder',
  'contract_GET_api_v1_private_order_list_history_orders.json': 'historyOrders',
  'contract_GET_api_v1_private_planorder_list_orders.json': 'planOrders',
  'contract_GET_api_v1_private_position_open_positions.json': 'openPositions',
  'contract_POST_api_v1_private_order_cancel.json': 'cancelOrders',
  'contract_POST_api_v1_private_order_cancel.request.json': 'cancelOrders',
  'contract_POST_api_v1_private_order_cancel_all.json': 'cancelAll',
  'contract_POST_api_v1_private_order_change_limit_order.json': 'changeLimitOrder',
  'contract_POST_api_v1_private_order_chase_limit_order.json': 'chaseLimitOrder',
  'contract_POST_api_v1_private_order_chase_limit_order.request.json': 'chaseLimitOrder',
  'contract_POST_api_v1_private_order_create.json': 'createOrder',
  'contract_POST_api_v1_private_order_create.request.json': 'createOrder',
  'contract_POST_api_v1_private_planorder_place.json': 'placePlanOrder',
  'contract_POST_api_v1_private_planorder_place.request.json': 'placePlanOrder',
  'contract_POST_api_v1_private_planorder_place_v2.json': 'placePlanOrderV2',
  'contract_POST_api_v1_private_planorder_place_v2.request.json': 'placePlanOrderV2',
  'contract_POST_api_v1_private_stoporder_place.request.json': 'placeStopOrder',
  'contract_POST_api_v1_private_trackorder_place.json': 'placeTrackOrder',
  'contract_POST_api_v1_private_trackorder_place.request.json': 'placeTrackOrder',
};

const d = (s: string) => new Decimal(s);
const decEq = (actual: unknown, expected: string) => {
  expect(actual).to.be.instanceOf(Decimal);
  expect((actual as Decimal).eq(expected), `${String(actual)} = ${expected}`).to.equal(true);
};

function response<K extends ContractMethod>(method: K, file: string) {
  return C[method].response.parse(mexcData(file)) as ContractResponse<K>;
}
function request<K extends ContractMethod>(method: K, file: string) {
  return C[method].request.parse(mexc(file)) as ContractWireRequest<K>;
}

describe('contract catalogue: captured fixtures', () => {
  it('maps_every_contract_fixture_to_an_endpoint_and_parses_it', () => {
    const files = contractFixtureFiles();
    expect(files.length).to.equal(Object.keys(FIXTURE_ENDPOINT).length);
    for (const file of files) {
      const target = FIXTURE_ENDPOINT[file];
      expect(target, `${file} has no endpoint in the table`).to.not.equal(undefined);
      if (target === 'envelope') {
        const env = contractEnvelopeSchema.parse(mexc(file));
        expect(env.success, file).to.equal(false);
        expect(env.data, file).to.equal(undefined);
      } else if (file.endsWith('.request.json')) {
        const r = C[target!].request.safeParse(mexc(file));
        expect(r.success, `${file}: ${JSON.stringify(r.error?.issues)}`).to.equal(true);
      } else {
        const env = contractEnvelopeSchema.parse(mexc(file));
        expect(env.success, file).to.equal(true);
        expect(env.code, file).to.equal(0);
        const r = C[target!].response.safeParse(env.data);
        expect(r.success, `${file}: ${JSON.stringify(r.error?.issues)}`).to.equal(true);
      }
    }
  });

  it('reads_error_envelopes_with_code_and_message', () => {
    const e1001 = contractEnvelopeSchema.parse(mexc('contract_ERROR_1001_GET_api_v1_contract_depth_BTCUSDT.json'));
    expect([e1001.code, e1001.message]).to.deep.equal([1001, 'Contract does not exist']);
    expect(contractEnvelopeSchema.parse(mexc('contract_ERROR_2009_position_not_exist.json')).code).to.equal(2009);
    expect(contractEnvelopeSchema.parse(mexc('contract_ERROR_602_signature_verification_failed.json')).code).to.equal(602);
  });

  it('reads_history_orders_envelope_whose_code_is_the_string_0', () => {
    // ccxt stringified every value, "code": "0" included
    expect(contractEnvelopeSchema.parse(mexc('contract_GET_api_v1_private_order_list_history_orders.json')).code).to.equal(0);
  });

  describe('market data', () => {
    it('parses_deals_with_string_trade_ids', () => {
      const deals = response('deals', 'contract_GET_api_v1_contract_deals_BTC_USDT.json');
      expect(deals).to.have.length(5);
      decEq(deals[0]!.p, '87511.3');
      decEq(deals[0]!.v, '51');
      expect([deals[0]!.T, deals[0]!.O, deals[0]!.M, deals[0]!.t, deals[0]!.i]).to.deep.equal([2, 3, 2, 1767211407368, '12767059784']);
    });

    it('parses_depth_entries_as_price_vol_count', () => {
      const depth = response('depth', 'contract_GET_api_v1_contract_depth_BTC_USDT.json');
      expect(depth.asks).to.have.length(5);
      decEq(depth.asks[0]!.price, '87631.5');
      decEq(depth.asks[0]!.vol, '11008');
      expect(depth.asks[0]!.count).to.equal(1);
      decEq(depth.bids[0]!.price, '87631.4');
      expect(depth.bids[0]!.count).to.equal(2);
      expect([depth.version, depth.timestamp]).to.deep.equal([30094456680, 1767209914046]);
    });

    it('parses_depth_commits_snapshots', () => {
      const snaps = response('depthCommits', 'contract_GET_api_v1_contract_depth_commits_BTC_USDT_10.json');
      expect(snaps.map((s) => s.version)).to.deep.equal([30093377501, 30093377500, 30093377499, 30093377498, 30093377497]);
      expect(snaps[0]!.asks).to.deep.equal([]);
      decEq(snaps[0]!.bids[0]!.vol, '639');
    });

    it('parses_detail_with_symbol_as_one_object', () => {
      const detail = response('contractDetail', 'contract_GET_api_v1_contract_detail.json');
      expect(Array.isArray(detail)).to.equal(false);
      if (Array.isArray(detail)) return;
      expect(detail.symbol).to.equal('BTC_USDT');
      decEq(detail.contractSize, '0.0001');
      decEq(detail.priceUnit, '0.1');
      expect(detail.maxNumOrders).to.deep.equal([200, 50]);
      expect(detail.riskLimitCustom).to.have.length(5);
      // unknown fields are kept
      expect((detail as Record<string, unknown>)['vid']).to.equal('128f589271cb4951b03e71e6323eb7be');
    });

    it('parses_detail_without_symbol_as_an_array', () => {
      const all = response('contractDetail', 'contract_GET_api_v1_contract_detail_all.json');
      expect(Array.isArray(all)).to.equal(true);
      if (!Array.isArray(all)) return;
      expect(all.map((x) => x.symbol)).to.deep.equal(['BTC_USDT', 'ETH_USDT', 'LIGHT_USDT', 'SOL_USDT', 'SILVER_USDT']);
      expect(all[2]!.riskLimitCustom).to.equal(undefined);
      decEq(all[2]!.riskIncrVol, '30000');
    });

    it('parses_index_fair_and_funding', () => {
      const ip = response('indexPrice', 'contract_GET_api_v1_contract_index_price_BTC_USDT.json');
      decEq(ip.indexPrice, '87812.39');
      expect(ip.timestamp).to.equal(1767206846103);
      const fp = response('fairPrice', 'contract_GET_api_v1_contract_fair_price_BTC_USDT.json');
      decEq(fp.fairPrice, '87790.2');
      const fr = response('fundingRate', 'contract_GET_api_v1_contract_funding_rate_BTC_USDT.json');
      decEq(fr.fundingRate, '0.0001');
      decEq(fr.minFundingRate!, '-0.0018');
      expect([fr.collectCycle, fr.nextSettleTime]).to.deep.equal([8, 1767225600000]);
    });

    it('parses_funding_history_page_with_exponent_rates', () => {
      const p = response('fundingRateHistory', 'contract_GET_api_v1_contract_funding_rate_history.json');
      expect([p.currentPage, p.pageSize, p.totalCount, p.totalPage]).to.deep.equal([1, 10, 1618, 162]);
      // 3.7e-05 on the wire
      decEq(p.resultList[0]!.fundingRate, '0.000037');
      expect(p.resultList[0]!.settleTime).to.equal(1767196800000);
    });

    it('turns_columnar_klines_into_rows_with_ms_open_time', () => {
      const rows = response('kline', 'contract_GET_api_v1_contract_kline_BTC_USDT.json');
      expect(rows).to.have.length(3);
      // time 1767204000 s → 1767204000000 ms
      expect(rows.map((r) => r.openTime)).to.deep.equal([1767204000000, 1767204300000, 1767204600000]);
      decEq(rows[0]!.open, '87587.5');
      decEq(rows[0]!.realOpen!, '87591.2');
      decEq(rows[2]!.high, '87916.9');
      decEq(rows[1]!.vol, '3544088');
      decEq(rows[0]!.amount!, '14231867.8663');
    });

    it('parses_empty_klines_to_no_rows', () => {
      expect(response('kline', 'contract_GET_api_v1_contract_kline_BTC_USDT_empty.json')).to.deep.equal([]);
    });

    it('parses_support_currencies', () => {
      const list = response('supportCurrencies', 'contract_GET_api_v1_contract_support_currencies.json');
      expect(list).to.have.length(29);
      expect(list[0]).to.equal('STETH');
      expect(list).to.include('USDT');
    });

    it('parses_ticker_object_and_ticker_array', () => {
      const one = response('ticker', 'contract_GET_api_v1_contract_ticker.json');
      expect(Array.isArray(one)).to.equal(false);
      if (Array.isArray(one)) return;
      decEq(one.lastPrice, '87718.1');
      decEq(one.volume24, '1281215650');
      expect(one.riseFallRates?.zone).to.equal('UTC+8');
      const all = response('ticker', 'contract_GET_api_v1_contract_ticker_all.json');
      expect(Array.isArray(all)).to.equal(true);
      if (!Array.isArray(all)) return;
      expect(all).to.have.length(5);
      decEq(all[1]!.fundingRate!, '0.000074');
      // SILVER has no r7..r365 in riseFallRates
      expect(all[4]!.riseFallRates?.r7).to.equal(undefined);
    });
  });

  describe('private data', () => {
    it('parses_assets', () => {
      const assets = response('assets', 'contract_GET_api_v1_private_account_assets.json');
      expect(assets).to.have.length(1);
      expect(assets[0]!.currency).to.equal('USDT');
      decEq(assets[0]!.availableBalance, '0.03176562');
      decEq(assets[0]!.positionMargin, '0');
    });

    it('parses_order_with_string_id_and_number_position_id', () => {
      const o = response('getOrder', 'contract_GET_api_v1_private_order_get.json');
      expect([o.orderId, o.positionId, o.side, o.orderType, o.state]).to.deep.equal(['102015012431820288', '1394917', 2, 5, 3]);
      decEq(o.dealAvgPrice!, '1208.35');
      decEq(o.takerFee!, '0.0072501');
      expect(o.createTime).to.equal(1609992674000);
    });

    it('parses_history_orders_whose_values_are_all_strings', () => {
      const list = response('historyOrders', 'contract_GET_api_v1_private_order_list_history_orders.json');
      expect(list).to.have.length(1);
      const o = list[0]!;
      expect([o.orderId, o.positionId, o.leverage, o.side, o.state, o.positionMode, o.createTime]).to.deep.equal([
        '265230764677709315',
        '0',
        20,
        1,
        2,
        1,
        1648906342000,
      ]);
      decEq(o.price, '2.1');
      decEq(o.orderMargin!, '10.96704');
    });

    it('parses_plan_orders', () => {
      const list = response('planOrders', 'contract_GET_api_v1_private_planorder_list_orders.json');
      const p = list[0]!;
      expect([p.id, p.symbol, p.side, p.triggerType, p.state, p.executeCycle, p.trend]).to.deep.equal([
        '265557643326564352',
        'STEPN_USDT',
        1,
        1,
        1,
        87600,
        1,
      ]);
      decEq(p.triggerPrice, '3');
      decEq(p.price!, '2.9');
    });

    it('parses_open_positions', () => {
      const list = response('openPositions', 'contract_GET_api_v1_private_position_open_positions.json');
      const p = list[0]!;
      expect([p.positionId, p.positionType, p.openType, p.state, p.leverage, p.autoAddIm]).to.deep.equal(['1394650', 1, 1, 1, 100, false]);
      decEq(p.liquidatePrice!, '1211.2');
      decEq(p.realised!, '-0.0073');
    });

    it('keeps_long_cancel_result_ids_exact_when_parsed_losslessly', () => {
      const results = response('cancelOrders', 'contract_POST_api_v1_private_order_cancel.json');
      expect(results.map((r) => [r.orderId, r.errorCode])).to.deep.equal([
        ['101716841474621953', 2040],
        ['108885377779302912', 2041],
        ['108886241042563584', 0],
      ]);
      expect(results[1]!.errorMsg).to.equal('order state cannot be cancelled');
    });

    it('refuses_a_long_id_that_json_parse_already_rounded', () => {
      // plain JSON.parse turns 101716841474621953 into 101716841474621952 (doubles are 16 apart there)
      const lossy = (JSON.parse(readText('mexc/contract_POST_api_v1_private_order_cancel.json')) as { data: unknown }).data;
      const r = C.cancelOrders.response.safeParse(lossy);
      expect(r.success).to.equal(false);
      expect(r.error!.issues[0]!.path).to.deep.equal([0, 'orderId']);
    });

    it('parses_common_and_id_answers', () => {
      expect(C.cancelAll.response.parse(mexcData('contract_POST_api_v1_private_order_cancel_all.json'))).to.equal(undefined);
      expect(C.chaseLimitOrder.response.parse(mexcData('contract_POST_api_v1_private_order_chase_limit_order.json'))).to.equal(undefined);
      expect(response('changeLimitOrder', 'contract_POST_api_v1_private_order_change_limit_order.json')).to.equal('739204819784386560');
      expect(response('createOrder', 'contract_POST_api_v1_private_order_create.json')).to.deep.equal({
        orderId: '814218083416790528',
        ts: 1779795118533,
      });
      // data 259208506303929856 is a JSON number above 2^53
      expect(response('placePlanOrder', 'contract_POST_api_v1_private_planorder_place.json')).to.equal('259208506303929856');
      expect(response('placePlanOrderV2', 'contract_POST_api_v1_private_planorder_place_v2.json')).to.equal('739206374277809664');
      expect(response('placeTrackOrder', 'contract_POST_api_v1_private_trackorder_place.json')).to.equal('739218627261666816');
    });

    it('reads_older_create_answers_that_carry_only_the_id', () => {
      expect(C.createOrder.response.parse('2ff3163e8617443cb9c6fc19d42b1ca4')).to.deep.equal({
        orderId: '2ff3163e8617443cb9c6fc19d42b1ca4',
      });
      expect(C.createOrder.response.parse(102057569836905)).to.deep.equal({ orderId: '102057569836905' });
    });
  });

  describe('request bodies', () => {
    it('reads_the_cancel_body_as_a_bare_array_of_exact_ids', () => {
      expect(request('cancelOrders', 'contract_POST_api_v1_private_order_cancel.request.json')).to.deep.equal(['218699511659380224']);
    });

    it('reads_the_create_body_and_sends_price_as_a_json_number', () => {
      // fixture: "price": "461" (string), "vol": 10, "externalOid": ""
      expect(request('createOrder', 'contract_POST_api_v1_private_order_create.request.json')).to.deep.equal({
        symbol: 'BCH_USDT',
        price: 461,
        vol: 10,
        leverage: 10,
        side: 1,
        type: 2,
        openType: 2,
        externalOid: '',
        positionMode: 2,
      });
    });

    it('reads_the_chase_body_with_a_string_order_id', () => {
      expect(request('chaseLimitOrder', 'contract_POST_api_v1_private_order_chase_limit_order.request.json')).to.deep.equal({
        orderId: '739204819784386560',
      });
    });

    it('reads_the_plan_order_bodies', () => {
      const v1 = request('placePlanOrder', 'contract_POST_api_v1_private_planorder_place.request.json');
      expect([v1.triggerPrice, v1.price, v1.side, v1.openType, v1.leverage, v1.type]).to.deep.equal([0.7, 0.6, 3, 2, undefined, 1]);
      const v2 = request('placePlanOrderV2', 'contract_POST_api_v1_private_planorder_place_v2.request.json');
      expect([v2.price, v2.triggerPrice, v2.orderType, v2.triggerType, v2.leverage]).to.deep.equal([0.06, 0.06, 5, 2, 20]);
    });

    it('reads_the_stop_order_body_with_a_string_position_id', () => {
      const s = request('placeStopOrder', 'contract_POST_api_v1_private_stoporder_place.request.json');
      expect([s.positionId, s.vol, s.stopLossType, s.stopLossOrderPrice, s.stopLossPrice, s.takeProfitPrice]).to.deep.equal([
        '1110417836',
        1,
        1,
        0.19,
        0.19,
        undefined,
      ]);
    });

    it('reads_the_trailing_order_body', () => {
      const t = request('placeTrackOrder', 'contract_POST_api_v1_private_trackorder_place.request.json');
      expect([t.backType, t.backValue, t.positionMode, t.price, t.vol]).to.deep.equal([1, 0.02, 1, 0.06, 100]);
    });
  });

  describe('tolerance', () => {
    const ticker = () => structuredClone(mexcData('contract_GET_api_v1_contract_ticker.json')) as Record<string, unknown>;

    it('reads_numbers_sent_as_strings_and_nulls', () => {
      const t = { ...ticker(), lastPrice: '87718.1', bid1: null, timestamp: '1767209294795' };
      const parsed = C.ticker.response.parse(t);
      if (Array.isArray(parsed)) throw new Error('expected an object');
      decEq(parsed.lastPrice, '87718.1');
      expect([parsed.bid1, parsed.timestamp]).to.deep.equal([undefined, 1767209294795]);
    });

    it('names_the_bad_field_of_a_ticker_array_element', () => {
      const bad = [ticker(), { ...ticker(), lastPrice: 'n/a' }];
      const r = C.ticker.response.safeParse(bad);
      expect(r.success).to.equal(false);
      expect(r.error!.issues[0]!.path).to.deep.equal([1, 'lastPrice']);
    });

    it('refuses_klines_whose_columns_differ_in_length', () => {
      const k = structuredClone(mexcData('contract_GET_api_v1_contract_kline_BTC_USDT.json')) as Record<string, unknown[]>;
      k['close'] = k['close']!.slice(1);
      const r = C.kline.response.safeParse(k);
      expect(r.success).to.equal(false);
      expect(r.error!.issues[0]!.path).to.deep.equal(['close']);
    });

    it('refuses_an_unknown_order_side', () => {
      const o = { ...(mexcData('contract_GET_api_v1_private_order_get.json') as Record<string, unknown>), side: 7 };
      const r = C.getOrder.response.safeParse(o);
      expect(r.success).to.equal(false);
      expect(r.error!.issues[0]!.path).to.deep.equal(['side']);
    });

    it('reads_a_page_object_where_a_list_is_documented', () => {
      const order = mexcData('contract_GET_api_v1_private_order_get.json');
      const list = C.openOrders.response.parse({ pageSize: 20, totalCount: 1, totalPage: 1, currentPage: 1, resultList: [order] });
      expect(list.map((o) => o.orderId)).to.deep.equal(['102015012431820288']);
    });

    it('wraps_a_bare_list_where_a_page_is_documented', () => {
      const position = (mexcData('contract_GET_api_v1_private_position_open_positions.json') as unknown[])[0];
      const p = C.historyPositions.response.parse([position]);
      expect([p.resultList.length, p.totalCount]).to.deep.equal([1, undefined]);
    });

    it('reads_risk_reverse_as_one_object_or_a_list', () => {
      const one = { symbol: 'BTC_USDT', currency: 'USDT', available: '1234.5', timestamp: 1767209294795 };
      expect(C.riskReverse.response.parse(one).map((r) => r.available.toFixed())).to.deep.equal(['1234.5']);
      expect(C.riskReverse.response.parse([one, one])).to.have.length(2);
    });

    it('reads_the_discount_config_string_as_records', () => {
      const cfg = C.contractFeeDiscountConfig.response.parse([
        {
          currency: 'USDT',
          state: 'ENABLED',
          discountConfig: '[{"level":1,"volMin":0,"volMax":100000,"day":30,"discount":0.9}]',
          blackContractIdSet: [10, 11],
        },
      ]);
      expect(cfg[0]!.discountConfig![0]!.level).to.equal(1);
      decEq(cfg[0]!.discountConfig![0]!.discount!, '0.9');
      expect(cfg[0]!.blackContractIdSet).to.deep.equal(['10', '11']);
    });

    it('reads_position_mode_as_a_bare_code', () => {
      expect(C.positionMode.response.parse(2)).to.equal(2);
      expect(C.positionMode.response.parse({ positionMode: '1' })).to.equal(1);
    });
  });

  it('keeps_decimals_exact_through_the_schema', () => {
    // amount24 11316022274.28668 has 16 significant digits: read exactly, not via a rounded double
    const one = response('ticker', 'contract_GET_api_v1_contract_ticker.json');
    if (Array.isArray(one)) throw new Error('expected an object');
    expect(one.amount24!.eq(d('11316022274.28668'))).to.equal(true);
  });
});
