import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { spotCatalogue } from '../../src/api/spot/catalogue.js';
import { ConfigError, ValidationError } from '../../src/core/errors.js';
import { ContractSigner } from '../../src/client/contract-signer.js';
import { buildRequest, clientOrderIdsOf } from '../../src/client/request-builder.js';
import { SpotSigner } from '../../src/client/spot-signer.js';
import { percentEncode } from '../../src/client/percent-encode.js';
import { cancelDef, createDef, depthDef, historyDef } from './support/synthetic-contract-defs.js';

const SECRET = '45d0b3c26f2644f19bfb98b07741b2f5';
const spotSigner = new SpotSigner({ apiKey: 'spot-key', secretKey: SECRET });
const contractSigner = new ContractSigner({ apiKey: 'ckey', secretKey: SECRET });
const hmac = (msg: string): string => createHmac('sha256', SECRET).update(msg).digest('hex');

describe('client/request-builder', () => {
  it('builds_a_signed_spot_order_with_recv_window_timestamp_and_signature_last', () => {
    const req = buildRequest(
      spotCatalogue.newOrder,
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: 1, price: 11 },
      { now: 1644489390087, recvWindowMs: 5000, spotSigner },
    );
    // same parameters and order as the published vector → the published signature
    expect(req.path).to.equal(
      '/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=11&recvWindow=5000&timestamp=1644489390087&signature=fd3e4e8543c5188531eb7279d68ae7d26a573d0fc5ab0d18eb692451654d837a',
    );
    expect(req.method).to.equal('POST');
    expect(req.body).to.equal(undefined);
    expect(req.headers).to.deep.equal({ 'X-MEXC-APIKEY': 'spot-key', 'Content-Type': 'application/json' });
  });

  it('uses_the_request_recv_window_over_the_configured_one', () => {
    const req = buildRequest(spotCatalogue.account, { recvWindow: 10000 }, { now: 7, recvWindowMs: 5000, spotSigner });
    expect(req.path).to.equal(`/api/v3/account?recvWindow=10000&timestamp=7&signature=${hmac('recvWindow=10000&timestamp=7')}`);
  });

  it('percent_encodes_batch_orders_json_upper_case_and_collects_client_ids', () => {
    const req = buildRequest(spotCatalogue.batchOrders, spotCatalogue.batchOrders.example, { now: 1, recvWindowMs: 5000, spotSigner });
    const q = req.path.slice(req.path.indexOf('?') + 1);
    expect(q.startsWith('batchOrders=%5B%7B%22symbol%22%3A%22BTCUSDT%22')).to.equal(true);
    expect(req.clientOrderIds).to.deep.equal(['pp-s1-i2', 'pp-s1-i3']);
    const signed = q.slice(0, q.lastIndexOf('&signature='));
    expect(q.slice(q.lastIndexOf('=') + 1)).to.equal(hmac(signed));
  });

  it('sends_public_spot_requests_unsigned', () => {
    const req = buildRequest(spotCatalogue.depth, { symbol: 'BTCUSDT', limit: 5 }, { now: 1 });
    expect(req.path).to.equal('/api/v3/depth?symbol=BTCUSDT&limit=5');
    expect(req.headers).to.deep.equal({});
  });

  it('expands_contract_path_params_and_neither_sends_nor_signs_them', () => {
    const req = buildRequest(depthDef, { symbol: 'BTC_USDT', limit: 5 }, { now: 1 });
    expect(req.path).to.equal('/api/v1/contract/depth/BTC_USDT?limit=5');
  });

  it('sorts_and_signs_contract_get_params', () => {
    const req = buildRequest(historyDef, { symbol: 'BTC_USDT', page_size: 20, page_num: 1 }, { now: 1000, contractSigner });
    expect(req.path).to.equal('/api/v1/private/order/list/history_orders?page_num=1&page_size=20&symbol=BTC_USDT');
    expect(req.headers['Signature']).to.equal(hmac('ckey1000page_num=1&page_size=20&symbol=BTC_USDT'));
    expect(req.headers['Request-Time']).to.equal('1000');
    expect(req.headers['Content-Type']).to.equal('application/json');
  });

  it('signs_a_contract_json_body_exactly_as_sent', () => {
    const req = buildRequest(createDef, createDef.example, { now: 5, contractSigner, recvWindowMs: 9_500 });
    expect(req.body).to.equal('{"symbol":"BTC_USDT","price":"30000","vol":1,"side":1,"type":1,"openType":1,"externalOid":"pp-c1-i1"}');
    expect(req.headers['Signature']).to.equal(hmac(`ckey5${req.body}`));
    // 9500 ms → Recv-Window in whole seconds, rounded up: 10
    expect(req.headers['Recv-Window']).to.equal('10');
    expect(req.clientOrderIds).to.deep.equal(['pp-c1-i1']);
  });

  it('sends_a_bare_json_array_body', () => {
    const req = buildRequest(cancelDef, ['218699511659380224', 5], { now: 5, contractSigner });
    expect(req.body).to.equal('["218699511659380224","5"]');
    expect(req.headers['Signature']).to.equal(hmac('ckey5["218699511659380224","5"]'));
  });

  it('refuses_an_invalid_request_naming_the_field', () => {
    const err = (() => {
      try {
        buildRequest(spotCatalogue.newOrder, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1' }, { now: 1, spotSigner });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).to.be.instanceOf(ValidationError);
    expect((err as ValidationError).field).to.equal('price');
    expect((err as ValidationError).expected).to.match(/decimal/);
  });

  it('refuses_a_signed_request_without_credentials', () => {
    expect(() => buildRequest(spotCatalogue.account, {}, { now: 1 })).to.throw(ConfigError);
  });

  it('percent_encodes_reserved_characters_upper_case', () => {
    expect(percentEncode("a b,[x]!'()*")).to.equal('a%20b%2C%5Bx%5D%21%27%28%29%2A');
  });

  it('finds_client_order_ids_in_objects_arrays_and_json_strings', () => {
    expect(clientOrderIdsOf({ newClientOrderId: 'a' })).to.deep.equal(['a']);
    expect(clientOrderIdsOf([{ symbol: 'X', externalOid: 'b' }, { externalOid: 'c' }])).to.deep.equal(['b', 'c']);
    expect(clientOrderIdsOf({ batchOrders: '[{"newClientOrderId":"d"}]' })).to.deep.equal(['d']);
    expect(clientOrderIdsOf({ symbol: 'X' })).to.deep.equal([]);
  });
});
