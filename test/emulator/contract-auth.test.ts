import { expect } from 'chai';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, BOB, READER, T0, contractSigned, hmac, raw, testConfig, type ContractSignOptions } from './support/emulator-kit.js';

const NOBODY = { apiKey: 'mx0vglNobodyKey1', secret: 'nobody-secret-0123456789abcdef' } as const;

/**
 * Contract private requests over real HTTP: headers ApiKey / Request-Time / Signature, the ±10 s
 * window (Recv-Window seconds, at most 60), signature over apiKey + Request-Time + paramString,
 * permissions 701 / 703 / 704. Virtual clock at T0, not stepping.
 */
describe('emulator contract authentication', () => {
  let emu: RunningEmulator;
  before(async () => {
    const base = testConfig();
    emu = await startEmulator(
      {
        ...base,
        accounts: [
          ...(base.accounts ?? []),
          { name: 'nobody', apiKey: NOBODY.apiKey, secretKey: NOBODY.secret, contract: { permissions: [], balances: {} } },
        ],
      },
      { marketStopped: true },
    );
  });
  after(async () => {
    await emu.stop();
  });

  const assets = (o: ContractSignOptions & { requestTime?: number } = {}) =>
    contractSigned(emu.url, 'GET', '/api/v1/private/account/assets', undefined, { requestTime: T0, ...o });
  const codeOf = (r: { json: unknown }) => (r.json as { code: number }).code;

  it('accepts_a_signed_request_and_answers_in_the_contract_envelope', async () => {
    const res = await assets();
    expect(res.status).to.equal(200);
    const body = res.json as { success: boolean; code: number; data: { currency: string; availableBalance: number }[] };
    expect(body.success).to.equal(true);
    expect(body.code).to.equal(0);
    expect(body.data.map((a) => [a.currency, a.availableBalance])).to.deep.equal([['USDT', 100000]]);
  });

  for (const header of ['ApiKey', 'Request-Time', 'Signature'] as const) {
    it(`answers_401_when_${header.replace('-', '_')}_is_missing`, async () => {
      const res = await assets({ omit: header });
      expect(res.json).to.deep.equal({ success: false, code: 401, message: 'Not logged in or login has expired' });
    });
  }

  it('answers_401_for_an_unknown_key', async () => {
    expect(codeOf(await assets({ key: { apiKey: 'mx0vglUnknownKey', secret: ALICE.secret } }))).to.equal(401);
  });

  it('answers_602_for_a_wrong_signature_with_the_captured_body', async () => {
    const res = await assets({ signature: '0'.repeat(64) });
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.equal({ success: false, code: 602, message: 'Signature verification failed!' });
  });

  it('answers_3001_for_a_stop_price_with_a_bad_price_type', async () => {
    // change_stop_order rule 1: stopLossPrice > 0 needs lossTrend 1, 2 or 3, else 3001 (not 600).
    const res = await contractSigned(
      emu.url,
      'POST',
      '/api/v1/private/planorder/change_stop_order',
      { symbol: 'BTC_USDT', orderId: '1', stopLossPrice: 86000, lossTrend: 7 },
      { requestTime: T0 },
    );
    expect(res.json).to.deep.equal({ success: false, code: 3001, message: 'Price type error' });
  });

  it('answers_513_for_a_request_time_that_is_not_an_integer', async () => {
    const res = await raw(emu.url, 'GET', '/api/v1/private/account/assets', {
      headers: { ApiKey: ALICE.apiKey, 'Request-Time': 'soon', Signature: hmac(ALICE.secret, `${ALICE.apiKey}soon`) },
    });
    expect(codeOf(res)).to.equal(513);
  });

  it('accepts_request_times_exactly_10_s_either_side_and_refuses_one_ms_more', async () => {
    expect(codeOf(await assets({ requestTime: T0 - 10_000 }))).to.equal(0);
    expect(codeOf(await assets({ requestTime: T0 + 10_000 }))).to.equal(0);
    expect(codeOf(await assets({ requestTime: T0 - 10_001 }))).to.equal(513);
    expect(codeOf(await assets({ requestTime: T0 + 10_001 }))).to.equal(513);
  });

  it('uses_recv_window_seconds_and_caps_them_at_60', async () => {
    expect(codeOf(await assets({ requestTime: T0 - 30_000, recvWindow: '30' }))).to.equal(0);
    expect(codeOf(await assets({ requestTime: T0 - 30_001, recvWindow: '30' }))).to.equal(513);
    expect(codeOf(await assets({ requestTime: T0 - 60_000, recvWindow: '120' }))).to.equal(0);
    expect(codeOf(await assets({ requestTime: T0 - 60_001, recvWindow: '120' }))).to.equal(513);
  });

  it('signs_get_parameters_sorted_by_key_whatever_order_they_are_sent_in', async () => {
    // Sent as page_size, page_num; signed as page_num=1&page_size=5.
    const sig = hmac(ALICE.secret, `${ALICE.apiKey}${T0}page_num=1&page_size=5`);
    const res = await raw(emu.url, 'GET', '/api/v1/private/order/list/open_orders?page_size=5&page_num=1', {
      headers: { ApiKey: ALICE.apiKey, 'Request-Time': String(T0), Signature: sig },
    });
    expect(res.json).to.deep.equal({ success: true, code: 0, data: [] });
  });

  it('signs_a_post_body_exactly_as_sent_and_refuses_it_changed', async () => {
    const body = '{ "symbol" : "BTC_USDT" }';
    const ok = await contractSigned(emu.url, 'POST', '/api/v1/private/order/cancel_all', body, { requestTime: T0 });
    expect(ok.json).to.deep.equal({ success: true, code: 0 });
    const sig = hmac(ALICE.secret, `${ALICE.apiKey}${T0}${body}`);
    const tampered = await raw(emu.url, 'POST', '/api/v1/private/order/cancel_all', {
      headers: { ApiKey: ALICE.apiKey, 'Request-Time': String(T0), Signature: sig, 'Content-Type': 'application/json' },
      body: '{"symbol":"ETH_USDT"}',
    });
    expect(codeOf(tampered)).to.equal(602);
  });

  it('takes_a_bare_json_array_body_and_answers_per_order_2040', async () => {
    const res = await contractSigned(emu.url, 'POST', '/api/v1/private/order/cancel', ['101716841474621953'], { requestTime: T0 });
    // The id is above 2^53: it comes back as the digit string, not a rounded number.
    expect(res.json).to.deep.equal({
      success: true,
      code: 0,
      data: [{ orderId: '101716841474621953', errorCode: 2040, errorMsg: 'order not exist' }],
    });
  });

  describe('permissions', () => {
    it('answers_701_without_account_read', async () => {
      expect(codeOf(await assets({ key: NOBODY }))).to.equal(701);
    });

    it('answers_703_without_order_read', async () => {
      const res = await contractSigned(emu.url, 'GET', '/api/v1/private/position/open_positions', undefined, {
        requestTime: T0,
        key: READER,
      });
      expect(codeOf(res)).to.equal(703);
    });

    it('answers_704_without_place_orders', async () => {
      const res = await contractSigned(
        emu.url,
        'POST',
        '/api/v1/private/order/create',
        { symbol: 'BTC_USDT', price: 87000, vol: 1, leverage: 10, side: 1, type: 1, openType: 1 },
        { requestTime: T0, key: READER },
      );
      expect(codeOf(res)).to.equal(704);
    });

    it('answers_1002_when_the_account_may_not_trade_contracts', async () => {
      const res = await contractSigned(
        emu.url,
        'POST',
        '/api/v1/private/order/create',
        { symbol: 'BTC_USDT', price: 87000, vol: 1, leverage: 10, side: 1, type: 1, openType: 1 },
        { requestTime: T0, key: BOB },
      );
      expect(res.json).to.deep.equal({ success: false, code: 1002, message: 'Contract not allow place order!' });
    });

    it('refuses_market_maker_endpoints_to_ordinary_accounts', async () => {
      const res = await contractSigned(
        emu.url,
        'POST',
        '/api/v1/private/order/submit_batch',
        [{ symbol: 'BTC_USDT', price: 87000, vol: 1, leverage: 10, side: 1, type: 1, openType: 1, stpMode: 0 }],
        { requestTime: T0 },
      );
      expect((res.json as { success: boolean }).success).to.equal(false);
      expect(codeOf(res)).to.equal(704);
    });

    it('always_answers_8817_to_change_risk_level', async () => {
      const res = await contractSigned(emu.url, 'POST', '/api/v1/private/account/change_risk_level', undefined, { requestTime: T0 });
      expect(codeOf(res)).to.equal(8817);
    });
  });

  it('answers_1001_for_a_symbol_in_the_wrong_format_as_the_capture_shows', async () => {
    const res = await raw(emu.url, 'GET', '/api/v1/contract/depth/BTCUSDT');
    // test/fixtures/mexc/contract_ERROR_1001_GET_api_v1_contract_depth_BTCUSDT.json
    expect(res.json).to.deep.equal({ success: false, code: 1001, message: 'Contract does not exist' });
  });
});
