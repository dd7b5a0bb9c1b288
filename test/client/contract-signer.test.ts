import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import {
  CONTRACT_HEADERS,
  ContractSigner,
  contractParamString,
  contractParamStringFromRawQuery,
  contractSignature,
  verifyContractSignature,
} from '../../src/client/contract-signer.js';

const API_KEY = 'mx0vglContractKey';
const SECRET = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const TIME = 1767204000123;

/** Independent reference: HMAC-SHA256 hex of apiKey + Request-Time + paramString (wire-protocol.md). */
const reference = (paramString: string): string => createHmac('sha256', SECRET).update(`${API_KEY}${TIME}${paramString}`).digest('hex');

describe('client/contract-signer', () => {
  it('signs_get_params_sorted_by_key_with_nulls_left_out', () => {
    // Business params given unsorted, one null: the documented layout is "page_num=1&page_size=20&symbol=BTC_USDT".
    const paramString = contractParamString('GET', { symbol: 'BTC_USDT', page_size: 20, state: null, page_num: 1 });
    expect(paramString).to.equal('page_num=1&page_size=20&symbol=BTC_USDT');
    expect(contractSignature(API_KEY, SECRET, TIME, paramString)).to.equal(reference('page_num=1&page_size=20&symbol=BTC_USDT'));
  });

  it('signs_an_empty_param_string_when_there_are_no_params', () => {
    expect(contractParamString('GET', {})).to.equal('');
    expect(contractSignature(API_KEY, SECRET, TIME, '')).to.equal(reference(''));
  });

  it('signs_a_post_body_exactly_as_sent_including_a_bare_array', () => {
    const body = '[218699511659380224,218699511659380225]';
    expect(contractParamString('POST', body)).to.equal(body);
    expect(contractSignature(API_KEY, SECRET, TIME, body)).to.equal(reference('[218699511659380224,218699511659380225]'));
    // an object body is not re-sorted: key order is the order sent
    const objBody = '{"symbol":"BTC_USDT","price":"30000","vol":1}';
    expect(contractSignature(API_KEY, SECRET, TIME, objBody)).to.equal(reference('{"symbol":"BTC_USDT","price":"30000","vol":1}'));
  });

  it('builds_the_four_headers_and_recv_window_only_when_given', () => {
    const signer = new ContractSigner({ apiKey: API_KEY, secretKey: SECRET });
    const h = signer.headers(TIME, 'symbol=BTC_USDT');
    expect(h).to.deep.equal({
      [CONTRACT_HEADERS.apiKey]: API_KEY,
      [CONTRACT_HEADERS.requestTime]: String(TIME),
      [CONTRACT_HEADERS.signature]: reference('symbol=BTC_USDT'),
      'Content-Type': 'application/json',
    });
    expect(signer.headers(TIME, '', 30)[CONTRACT_HEADERS.recvWindow]).to.equal('30');
  });

  it('resorts_a_raw_query_for_verification', () => {
    expect(contractParamStringFromRawQuery('symbol=BTC_USDT&page_num=1&order_ids=1%2C2')).to.equal(
      'order_ids=1%2C2&page_num=1&symbol=BTC_USDT',
    );
    expect(contractParamStringFromRawQuery('')).to.equal('');
  });

  it('verifies_a_signature_in_constant_time_and_rejects_others', () => {
    const sig = reference('a=1');
    expect(
      verifyContractSignature({ apiKey: API_KEY, secret: SECRET, requestTime: String(TIME), paramString: 'a=1', signature: sig }),
    ).to.equal(true);
    expect(
      verifyContractSignature({ apiKey: API_KEY, secret: SECRET, requestTime: String(TIME + 1), paramString: 'a=1', signature: sig }),
    ).to.equal(false);
    expect(
      verifyContractSignature({ apiKey: API_KEY, secret: SECRET, requestTime: String(TIME), paramString: 'a=1', signature: 'zz' }),
    ).to.equal(false);
  });

  it('does_not_expose_the_secret_when_inspected', () => {
    const signer = new ContractSigner({ apiKey: API_KEY, secretKey: SECRET });
    expect(inspect(signer, { depth: 10, showHidden: true })).to.not.include(SECRET);
  });
});
