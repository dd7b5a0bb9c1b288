import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { SPOT_API_KEY_HEADER, SpotSigner, spotSignature, spotSignedPayload, verifySpotSignature } from '../../src/client/spot-signer.js';

// The published vector (wire-protocol.md, from the venue's documentation).
const VECTOR_SECRET = '45d0b3c26f2644f19bfb98b07741b2f5';
const VECTOR_MESSAGE = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=11&recvWindow=5000&timestamp=1644489390087';
const VECTOR_SIGNATURE = 'fd3e4e8543c5188531eb7279d68ae7d26a573d0fc5ab0d18eb692451654d837a';

describe('client/spot-signer', () => {
  it('signs_the_published_test_vector', () => {
    expect(spotSignature(VECTOR_SECRET, VECTOR_MESSAGE)).to.equal(VECTOR_SIGNATURE);
  });

  it('appends_the_signature_last_and_sends_the_key_header', () => {
    const signer = new SpotSigner({ apiKey: 'mx0vglKEY', secretKey: VECTOR_SECRET });
    const signed = signer.sign(VECTOR_MESSAGE);
    expect(signed.query).to.equal(`${VECTOR_MESSAGE}&signature=${VECTOR_SIGNATURE}`);
    expect(signed.headers).to.deep.equal({ [SPOT_API_KEY_HEADER]: 'mx0vglKEY' });
  });

  it('signs_query_followed_directly_by_body', () => {
    // totalParams = query + body with no '&' between them (wire-protocol.md)
    const signer = new SpotSigner({ apiKey: 'k', secretKey: VECTOR_SECRET });
    const query = 'symbol=BTCUSDT&timestamp=1';
    const body = 'side=BUY&type=MARKET';
    const expected = createHmac('sha256', VECTOR_SECRET).update('symbol=BTCUSDT&timestamp=1side=BUY&type=MARKET').digest('hex');
    expect(signer.sign(query, body).query).to.equal(`${query}&signature=${expected}`);
  });

  it('verifies_what_it_signs_and_rejects_a_tampered_query', () => {
    const signer = new SpotSigner({ apiKey: 'k', secretKey: VECTOR_SECRET });
    const { query } = signer.sign('symbol=BTCUSDT&quantity=1&timestamp=5');
    expect(verifySpotSignature(VECTOR_SECRET, query, '')).to.equal(true);
    expect(verifySpotSignature(VECTOR_SECRET, query.replace('quantity=1', 'quantity=2'), '')).to.equal(false);
    expect(verifySpotSignature('another-secret-0000', query, '')).to.equal(false);
    expect(verifySpotSignature(VECTOR_SECRET, 'symbol=BTCUSDT&timestamp=5', '')).to.equal(false);
  });

  it('extracts_the_signed_payload_from_a_raw_query', () => {
    const { totalParams, signature } = spotSignedPayload(`${VECTOR_MESSAGE}&signature=${VECTOR_SIGNATURE}`, '');
    expect(totalParams).to.equal(VECTOR_MESSAGE);
    expect(signature).to.equal(VECTOR_SIGNATURE);
  });

  it('does_not_expose_the_secret_when_inspected', () => {
    const signer = new SpotSigner({ apiKey: 'k', secretKey: VECTOR_SECRET });
    expect(inspect(signer, { depth: 10, showHidden: true })).to.not.include(VECTOR_SECRET);
    expect(JSON.stringify(signer)).to.not.include(VECTOR_SECRET);
  });
});
