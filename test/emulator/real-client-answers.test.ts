import { expect } from 'chai';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, BOB, contractSigned, raw, spotSigned, T0, testConfig } from './support/emulator-kit.js';

/**
 * What real clients send and read, answered as the real exchange answers it (issue 14), checked over
 * HTTP with the kit's own signer (not our client). Market model stopped, virtual clock: the books and
 * the tape hold only what the tests put there.
 */
describe('emulator answers real clients as the real exchange does', () => {
  let emu: RunningEmulator;
  const DAY = 86_400_000;
  const c = (method: 'GET' | 'POST', path: string, params?: Record<string, unknown> | unknown[], key = ALICE) =>
    contractSigned(emu.url, method, path, params, { key, requestTime: emu.clock.now() });

  beforeEach(async () => {
    const cfg = testConfig();
    cfg.accounts = cfg.accounts!.map((a) => (a.name === 'bob' ? { ...a, contract: { balances: { USDT: '50000' } } } : a));
    emu = await startEmulator(cfg, { marketStopped: true });
  });

  afterEach(async () => {
    expect(emu.checkInvariants()).to.deep.equal([]);
    await emu.stop();
  });

  /** bob sells and alice buys `vol` contracts at `price` (limit against limit). */
  const trade = async (price: number, vol = 1) => {
    const ask = await c(
      'POST',
      '/api/v1/private/order/create',
      { symbol: 'BTC_USDT', price, vol, side: 3, type: 1, openType: 1, leverage: 10 },
      BOB,
    );
    expect(ask.json, ask.text).to.include({ success: true });
    const bid = await c('POST', '/api/v1/private/order/create', {
      symbol: 'BTC_USDT',
      price,
      vol,
      side: 1,
      type: 1,
      openType: 1,
      leverage: 10,
    });
    expect(bid.json, bid.text).to.include({ success: true });
  };

  it('accepts_market_orders_without_price_and_still_requires_it_for_limit_types', async () => {
    await c(
      'POST',
      '/api/v1/private/order/create',
      { symbol: 'BTC_USDT', price: 87500, vol: 2, side: 3, type: 1, openType: 1, leverage: 10 },
      BOB,
    );
    // What ccxt sends for a market buy (mexc.ts createSwapOrder): type 6, no price.
    const market = await c('POST', '/api/v1/private/order/create', {
      symbol: 'BTC_USDT',
      vol: 2,
      side: 1,
      type: 6,
      openType: 1,
      leverage: 10,
    });
    expect(market.json, market.text).to.include({ success: true, code: 0 });
    const limit = await c('POST', '/api/v1/private/order/create', {
      symbol: 'BTC_USDT',
      vol: 1,
      side: 1,
      type: 1,
      openType: 1,
      leverage: 10,
    });
    expect(limit.json).to.include({ success: false, code: 600 });
    expect((limit.json as { message: string }).message).to.match(/^Param error! price: .*required for types 1-4/);
  });

  it('answers_funding_records_asked_with_symbol_only', async () => {
    // ccxt fetchFundingHistory sends symbol (and paging) only.
    const r = await c('GET', '/api/v1/private/position/funding_records', { symbol: 'BTC_USDT' });
    expect(r.json, r.text).to.deep.include({ success: true, code: 0 });
    expect((r.json as { data: { resultList: unknown[] } }).data.resultList).to.deep.equal([]);
  });

  it('answers_history_positions_as_a_bare_list', async () => {
    await trade(87500);
    // alice closes her long against bob's new bid: one closed position in her history.
    await c(
      'POST',
      '/api/v1/private/order/create',
      { symbol: 'BTC_USDT', price: 87400, vol: 1, side: 2, type: 1, openType: 1, leverage: 10 },
      BOB,
    );
    await c('POST', '/api/v1/private/order/create', {
      symbol: 'BTC_USDT',
      price: 87400,
      vol: 1,
      side: 4,
      type: 1,
      openType: 1,
      leverage: 10,
    });
    const r = await c('GET', '/api/v1/private/position/list/history_positions', { symbol: 'BTC_USDT', page_num: 1, page_size: 20 });
    const data = (r.json as { data: unknown }).data as { positionType: number; closeAvgPrice: number; state: number }[];
    expect(Array.isArray(data), r.text).to.equal(true);
    expect(data.map((p) => [p.positionType, p.closeAvgPrice, p.state])).to.deep.equal([[1, 87400, 3]]);
  });

  it('words_2009_as_the_real_exchange_does', async () => {
    const r = await c('POST', '/api/v1/private/position/change_margin', { positionId: '999999', amount: 1, type: 'ADD' });
    // test/fixtures/mexc contract_ERROR_2009_position_not_exist.json
    expect(r.json).to.deep.equal({ success: false, code: 2009, message: 'Position is not exists or closed.' });
  });

  it('serves_limits_above_the_maximum_as_the_maximum_and_names_the_range_of_nonsense', async () => {
    // The official spot SDK's myTrades sends limit=500 (documented maximum 100).
    const ok = await spotSigned(emu.url, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', limit: '500' }, { timestamp: emu.clock.now() });
    expect(ok.status, ok.text).to.equal(200);
    expect(ok.json).to.deep.equal([]);
    const depth = await raw(emu.url, 'GET', '/api/v3/depth?symbol=BTCUSDT&limit=6000');
    expect(depth.status, depth.text).to.equal(200);
    for (const bad of ['-5', 'abc']) {
      const r = await spotSigned(emu.url, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', limit: bad }, { timestamp: emu.clock.now() });
      expect(r.status).to.equal(400);
      expect(r.json).to.deep.equal({
        code: 33333,
        msg: 'Parameter error: limit must be an integer 1..100 (larger values are served as 100)',
      });
    }
  });

  it('carries_the_fields_of_live_detail_and_exchangeInfo_answers', async () => {
    const detail = (await raw(emu.url, 'GET', '/api/v1/contract/detail?symbol=BTC_USDT')).json as { data: Record<string, unknown> };
    const names = [
      'appraisal',
      'automaticDelivery',
      'baseCoinIconUrl',
      'baseCoinId',
      'countryConfigContractMaxLeverage',
      'isMaxLeverage',
      'liquidationFeeRate',
    ];
    names.push(
      'marketOrderPriceLimitRate1',
      'marketOrderPriceLimitRate2',
      'openingCountdownOption',
      'preMarket',
      'showAppraisalCountdown',
      'showBeforeOpen',
    );
    names.push('threshold', 'triggerProtect', 'vid');
    expect(names.filter((n) => !(n in detail.data))).to.deep.equal([]);
    // Same type as in the live answer (test/fixtures/mexc contract_GET_api_v1_contract_detail.json).
    expect([typeof detail.data.vid, typeof detail.data.preMarket, typeof detail.data.threshold]).to.deep.equal([
      'string',
      'boolean',
      'number',
    ]);
    const info = (await raw(emu.url, 'GET', '/api/v3/exchangeInfo?symbol=BTCUSDT')).json as { symbols: Record<string, unknown>[] };
    expect(info.symbols[0]!.conceptPlateIds).to.deep.equal([]);
  });

  it('derives_rise_fall_rates_over_days_from_the_price_history', async () => {
    // Prints: 87 500 at T0, 88 000 on day 3, 89 760 on day 10 (02:00). At that moment:
    //   r7: the day that held now − 7 days is day 3, closing at 88 000 → (89 760 − 88 000) / 88 000 = 0.02.
    //   r30 … r365: the tape is 10 days old → from the first print, (89 760 − 87 500) / 87 500 = 0.025828… → 0.0258.
    await trade(87500);
    emu.advance(3 * DAY + 3_600_000);
    await trade(88000);
    emu.advance(7 * DAY + 3_600_000);
    await trade(89760);
    expect(emu.clock.now()).to.equal(T0 + 10 * DAY + 2 * 3_600_000);
    const t = (await raw(emu.url, 'GET', '/api/v1/contract/ticker?symbol=BTC_USDT')).json as {
      data: { lastPrice: number; riseFallRates: Record<string, number> };
    };
    expect(t.data.lastPrice).to.equal(89760);
    const { r7, r30, r90, r180, r365 } = t.data.riseFallRates;
    expect([r7, r30, r90, r180, r365]).to.deep.equal([0.02, 0.0258, 0.0258, 0.0258, 0.0258]);
  });

  it('serves_the_fills_endpoints_real_clients_call', async () => {
    await trade(87500, 3);
    const deals = await c('GET', '/api/v1/private/order/list/order_deals', { symbol: 'BTC_USDT' });
    const rows = (deals.json as { data: Record<string, unknown>[] }).data;
    // 3 × 0.0001 × 87 500 × 0.0001 (taker) = 0.002625 USDT; alice's buy opened a long in hedged mode (positionMode 1).
    expect(rows.map((d) => [d.side, d.vol, d.price, d.fee, d.feeCurrency, d.taker, d.positionMode, d.category])).to.deep.equal([
      [1, 3, 87500, 0.002625, 'USDT', true, 1, 1],
    ]);
    const details = await c('GET', `/api/v1/private/order/deal_details/${String(rows[0]!.orderId)}`);
    expect((details.json as { data: unknown[] }).data).to.deep.equal(rows);
    const none = await c('GET', '/api/v1/private/order/deal_details/123456789');
    expect((none.json as { data: unknown[] }).data).to.deep.equal([]);
    const hist = await raw(emu.url, 'GET', '/api/v3/historicalTrades?symbol=BTCUSDT&limit=10');
    expect([hist.status, hist.json]).to.deep.equal([200, []]);
  });
});
