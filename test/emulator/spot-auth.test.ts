import { expect } from 'chai';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, READER, T0, hmac, raw, spotSigned, testConfig } from './support/emulator-kit.js';

/**
 * Spot signed requests over real HTTP, every refusal code of wire-protocol.md "Spot signed requests".
 * Virtual clock at T0, not stepping: server time is T0 for every request.
 */
describe('emulator spot authentication', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator(testConfig());
  });
  after(async () => {
    await emu.stop();
  });

  const kyc = (o: Parameters<typeof spotSigned>[4] = {}) => spotSigned(emu.url, 'GET', '/api/v3/kyc/status', {}, { timestamp: T0, ...o });

  it('accepts_a_signed_request_with_timestamp_and_default_recv_window', async () => {
    const res = await kyc();
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.equal({ status: '2' });
  });

  it('answers_400_api_key_required_when_the_key_header_is_missing', async () => {
    const res = await kyc({ omitApiKey: true });
    expect(res.status).to.equal(400);
    expect(res.json).to.deep.equal({ code: 400, msg: 'api key required' });
  });

  it('answers_700001_for_a_malformed_api_key', async () => {
    const res = await kyc({ key: { apiKey: 'bad$key!', secret: ALICE.secret } });
    expect(res.status).to.equal(400);
    expect((res.json as { code: number }).code).to.equal(700001);
  });

  it('answers_10072_for_an_unknown_api_key', async () => {
    const res = await kyc({ key: { apiKey: 'mx0vglUnknownKey', secret: ALICE.secret } });
    expect(res.status).to.equal(400);
    expect((res.json as { code: number }).code).to.equal(10072);
  });

  it('answers_700004_naming_signature_when_it_is_missing', async () => {
    const res = await kyc({ omitSignature: true });
    expect(res.status).to.equal(400);
    // The captured body (test/fixtures/mexc/spot_ERROR_700004_mandatory_param_signature.json).
    expect(res.json).to.deep.equal({ code: 700004, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." });
  });

  it('answers_700004_naming_timestamp_when_it_is_missing', async () => {
    const res = await spotSigned(emu.url, 'GET', '/api/v3/kyc/status', {});
    expect(res.status).to.equal(400);
    expect(res.json).to.deep.equal({ code: 700004, msg: "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed." });
  });

  it('answers_700004_when_timestamp_is_not_an_integer', async () => {
    const res = await spotSigned(emu.url, 'GET', '/api/v3/kyc/status', { timestamp: '17e11' });
    expect((res.json as { code: number }).code).to.equal(700004);
  });

  it('answers_700002_for_a_wrong_signature', async () => {
    const res = await kyc({ signature: 'f'.repeat(64) });
    expect(res.status).to.equal(400);
    expect(res.json).to.deep.equal({ code: 700002, msg: 'Signature for this request is not valid.' });
  });

  it('answers_700002_when_a_parameter_was_changed_after_signing', async () => {
    const payload = `symbol=BTCUSDT&timestamp=${T0}`;
    const sig = hmac(ALICE.secret, payload);
    const res = await raw(emu.url, 'GET', `/api/v3/tradeFee?symbol=ETHUSDT&timestamp=${T0}&signature=${sig}`, {
      headers: { 'X-MEXC-APIKEY': ALICE.apiKey },
    });
    expect((res.json as { code: number }).code).to.equal(700002);
  });

  it('answers_700002_for_a_signature_made_with_another_secret', async () => {
    const res = await kyc({ key: { apiKey: ALICE.apiKey, secret: READER.secret } });
    expect((res.json as { code: number }).code).to.equal(700002);
  });

  describe('recvWindow', () => {
    it('accepts_a_timestamp_999_ms_ahead_of_the_server', async () => {
      expect((await kyc({ timestamp: T0 + 999 })).status).to.equal(200);
    });

    it('refuses_a_timestamp_1000_ms_ahead_of_the_server_with_700003', async () => {
      const res = await kyc({ timestamp: T0 + 1000 });
      expect(res.status).to.equal(400);
      // The captured body (spot_ERROR_700003_timestamp_outside_recvWindow.json).
      expect(res.json).to.deep.equal({ code: 700003, msg: 'Timestamp for this request is outside of the recvWindow.' });
    });

    it('accepts_a_timestamp_exactly_the_default_5000_ms_old', async () => {
      expect((await kyc({ timestamp: T0 - 5000 })).status).to.equal(200);
    });

    it('refuses_a_timestamp_5001_ms_old_under_the_default_window', async () => {
      expect((await kyc({ timestamp: T0 - 5001 })).json).to.deep.include({ code: 700003 });
    });

    it('widens_the_window_to_the_given_recv_window', async () => {
      expect((await kyc({ timestamp: T0 - 10_000, recvWindow: 10_000 })).status).to.equal(200);
      expect((await kyc({ timestamp: T0 - 10_001, recvWindow: 10_000 })).json).to.deep.include({ code: 700003 });
    });

    it('narrows_the_window_to_the_given_recv_window', async () => {
      expect((await kyc({ timestamp: T0 - 100, recvWindow: 100 })).status).to.equal(200);
      expect((await kyc({ timestamp: T0 - 101, recvWindow: 100 })).json).to.deep.include({ code: 700003 });
    });

    it('accepts_recv_window_60000_and_refuses_60001_with_700005', async () => {
      expect((await kyc({ timestamp: T0 - 60_000, recvWindow: 60_000 })).status).to.equal(200);
      const res = await kyc({ recvWindow: 60_001 });
      expect(res.status).to.equal(400);
      expect((res.json as { code: number }).code).to.equal(700005);
    });

    it('follows_the_server_clock_when_it_moves', async () => {
      // Server time moves 6 s on; a request stamped T0 is now 6000 ms old (> 5000).
      const local = await startEmulator(testConfig());
      try {
        local.advance(6000);
        expect((await spotSigned(local.url, 'GET', '/api/v3/kyc/status', {}, { timestamp: T0 })).json).to.deep.include({ code: 700003 });
        expect((await spotSigned(local.url, 'GET', '/api/v3/kyc/status', {}, { timestamp: T0 + 6000 })).status).to.equal(200);
      } finally {
        await local.stop();
      }
    });
  });

  describe('parameter placement', () => {
    it('verifies_parameters_sent_in_a_form_body', async () => {
      const res = await spotSigned(
        emu.url,
        'POST',
        '/api/v3/platformDeduct/enable',
        { platformDeductEnable: 'true' },
        { timestamp: T0, placement: 'body' },
      );
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.include({ code: 0, data: { platformDeductEnable: true } });
    });

    it('signs_the_query_followed_directly_by_the_body', async () => {
      // totalParams = "platformDeductEnable=false" + "timestamp=…" (no & in between).
      const query = 'platformDeductEnable=false';
      const body = `timestamp=${T0}`;
      const sig = hmac(ALICE.secret, query + body);
      const res = await raw(emu.url, 'POST', `/api/v3/platformDeduct/enable?${query}`, {
        headers: { 'X-MEXC-APIKEY': ALICE.apiKey, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `${body}&signature=${sig}`,
      });
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.include({ data: { platformDeductEnable: false } });
    });

    it('takes_a_parameter_given_in_both_places_from_the_query', async () => {
      const query = `platformDeductEnable=true&timestamp=${T0}`;
      const body = 'platformDeductEnable=false';
      const sig = hmac(ALICE.secret, query + body);
      const res = await raw(emu.url, 'POST', `/api/v3/platformDeduct/enable?${query}&signature=${sig}`, {
        headers: { 'X-MEXC-APIKEY': ALICE.apiKey, 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.include({ data: { platformDeductEnable: true } });
    });
  });

  describe('permissions', () => {
    it('refuses_a_key_without_the_endpoint_permission_with_700007', async () => {
      const res = await spotSigned(
        emu.url,
        'POST',
        '/api/v3/platformDeduct/enable',
        { platformDeductEnable: 'true' },
        { key: READER, timestamp: T0 },
      );
      expect(res.status).to.equal(400);
      expect((res.json as { code: number }).code).to.equal(700007);
    });

    it('lets_a_read_only_key_read', async () => {
      const res = await spotSigned(emu.url, 'GET', '/api/v3/platformDeduct/enable', {}, { key: READER, timestamp: T0 });
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.include({ code: 0, data: { platformDeductEnable: false } });
    });
  });
});
