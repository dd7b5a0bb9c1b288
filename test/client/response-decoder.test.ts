import { expect } from 'chai';
import { spotCatalogue } from '../../src/api/spot/catalogue.js';
import {
  AuthenticationError,
  BadRequest,
  ExchangeError,
  ExchangeUnavailable,
  FeatureDisabled,
  InsufficientFunds,
  InvalidOrder,
  MalformedResponse,
  OrderNotCancellable,
  OrderNotFound,
  PermissionDenied,
  PositionNotFound,
  RateLimited,
  SymbolNotTradable,
} from '../../src/core/errors.js';
import { decodeResponse, retryAfterMs, type RawAnswer } from '../../src/client/response-decoder.js';
import type { Disposition } from '../../src/client/venue-error-map.js';
import { fixtureText } from './support/fixtures.js';
import { cancelAllDef, cancelDef, createDef } from './support/synthetic-contract-defs.js';

const fixture = fixtureText;
const answer = (status: number, body: unknown, headers: Record<string, string> = {}): RawAnswer => ({
  status,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

type Cls = abstract new (...args: never[]) => Error;

function expectError(decoded: ReturnType<typeof decodeResponse>, cls: Cls, disposition: Disposition): Error {
  expect(decoded.ok, 'expected an error').to.equal(false);
  if (decoded.ok) throw new Error('unreachable');
  expect(decoded.error).to.be.instanceOf(cls);
  expect(decoded.error.constructor.name).to.equal(cls.name);
  expect(decoded.disposition).to.equal(disposition);
  return decoded.error;
}

describe('client/response-decoder', () => {
  describe('envelopes', () => {
    it('passes_a_bare_spot_payload_through_the_response_schema', () => {
      const d = decodeResponse<{ lastUpdateId: number; bids: unknown[] }>(
        spotCatalogue.depth,
        answer(200, fixture('spot_GET_api_v3_depth.json')),
        0,
      );
      expect(d.ok).to.equal(true);
      if (d.ok) {
        expect(d.value.lastUpdateId).to.equal(56217769552);
        expect(d.value.bids.length).to.equal(5);
      }
    });

    it('unwraps_the_spot_wrapped_envelope_with_code_0_or_200', () => {
      const body = JSON.parse(fixture('spot_GET_api_v3_defaultSymbols.json')) as Record<string, unknown>;
      const d0 = decodeResponse<string[]>(spotCatalogue.defaultSymbols, answer(200, body), 0);
      const d200 = decodeResponse<string[]>(spotCatalogue.defaultSymbols, answer(200, { ...body, code: 200 }), 0);
      expect(d0.ok && d0.value[0]).to.equal('SNTUSDT');
      expect(d200.ok && d200.value.length).to.equal(10);
    });

    it('unwraps_the_contract_envelope_and_keeps_long_ids_exact', () => {
      const d = decodeResponse<{ orderId: string; errorCode: number }[]>(
        cancelDef,
        answer(200, fixture('contract_POST_api_v1_private_order_cancel.json')),
        0,
      );
      expect(d.ok).to.equal(true);
      if (d.ok) expect(d.value.map((r) => r.orderId)).to.deep.equal(['101716841474621953', '108885377779302912', '108886241042563584']);
    });

    it('accepts_a_contract_common_answer_without_data', () => {
      const d = decodeResponse(cancelAllDef, answer(200, fixture('contract_POST_api_v1_private_order_cancel_all.json')), 0);
      expect(d).to.deep.equal({ ok: true, value: undefined });
    });
  });

  describe('malformed answers', () => {
    it('names_the_endpoint_and_the_field_path', () => {
      const body = JSON.parse(fixture('spot_GET_api_v3_depth.json')) as { bids: unknown[][] };
      body.bids[2]![0] = 'not-a-price';
      const err = expectError(decodeResponse(spotCatalogue.depth, answer(200, body), 0), MalformedResponse, 'final') as MalformedResponse;
      expect(err.endpointId).to.equal('spot.depth');
      expect(err.field).to.equal('bids[2][0]');
    });

    it('names_a_field_inside_the_contract_data', () => {
      const err = expectError(
        decodeResponse(createDef, answer(200, { success: true, code: 0, data: { orderId: '1', ts: 'soon' } }), 0),
        MalformedResponse,
        'final',
      ) as MalformedResponse;
      expect([err.endpointId, err.field]).to.deep.equal(['contract.testCreate', 'ts']);
    });

    it('reports_a_body_that_is_not_json', () => {
      const err = expectError(
        decodeResponse(spotCatalogue.depth, answer(200, '<html>oops</html>'), 0),
        MalformedResponse,
        'final',
      ) as MalformedResponse;
      expect(err.field).to.equal('(body)');
    });
  });

  describe('spot error table', () => {
    // One row per family of wire-protocol.md's spot codes.
    const rows: [number, Cls, Disposition][] = [
      [700001, AuthenticationError, 'final'],
      [700002, AuthenticationError, 'final'],
      [10072, AuthenticationError, 'final'],
      [700003, AuthenticationError, 'resync'],
      [700004, BadRequest, 'final'],
      [700005, BadRequest, 'final'],
      [700008, BadRequest, 'final'],
      [-1128, BadRequest, 'final'],
      [700006, PermissionDenied, 'final'],
      [700007, PermissionDenied, 'final'],
      [10101, InsufficientFunds, 'final'],
      [30004, InsufficientFunds, 'final'],
      [30005, InsufficientFunds, 'final'],
      [30002, InvalidOrder, 'final'],
      [30087, InvalidOrder, 'final'],
      [10007, SymbolNotTradable, 'final'],
      [30016, SymbolNotTradable, 'final'],
      [30020, SymbolNotTradable, 'final'],
      [30019, FeatureDisabled, 'final'],
      [-2011, OrderNotFound, 'final'],
      [-2013, OrderNotFound, 'final'],
    ];
    for (const [code, cls, disposition] of rows) {
      it(`maps_spot_${code}_to_${cls.name}`, () => {
        const err = expectError(
          decodeResponse(spotCatalogue.newOrder, answer(400, { code, msg: 'venue text' }), 0),
          cls,
          disposition,
        ) as ExchangeError;
        expect(err.venueCode).to.equal(code);
        expect(err.httpStatus).to.equal(400);
        expect(err.endpoint).to.equal('spot.newOrder');
      });
    }

    it('maps_the_captured_error_fixtures', () => {
      expectError(
        decodeResponse(spotCatalogue.account, answer(400, fixture('spot_ERROR_700003_timestamp_outside_recvWindow.json')), 0),
        AuthenticationError,
        'resync',
      );
      expectError(
        decodeResponse(spotCatalogue.account, answer(400, fixture('spot_ERROR_700002_invalid_signature.json')), 0),
        AuthenticationError,
        'final',
      );
      expectError(
        decodeResponse(spotCatalogue.account, answer(400, fixture('spot_ERROR_700004_mandatory_param_signature.json')), 0),
        BadRequest,
        'final',
      );
      expectError(
        decodeResponse(spotCatalogue.newOrder, answer(400, fixture('spot_ERROR_minus1128_param_combination.json')), 0),
        BadRequest,
        'final',
      );
    });

    it('maps_an_error_inside_the_spot_wrapped_envelope', () => {
      expectError(
        decodeResponse(spotCatalogue.tradeFee, answer(200, { code: 700007, msg: 'no permission', data: null }), 0),
        PermissionDenied,
        'final',
      );
    });

    it('falls_back_to_exchange_error_for_an_unknown_code', () => {
      const err = expectError(
        decodeResponse(spotCatalogue.newOrder, answer(400, { code: 123456, msg: 'new' }), 0),
        ExchangeError,
        'final',
      ) as ExchangeError;
      expect(err.venueCode).to.equal(123456);
    });
  });

  describe('contract error table', () => {
    const rows: [number, Cls, Disposition][] = [
      [401, AuthenticationError, 'final'],
      [402, AuthenticationError, 'final'],
      [602, AuthenticationError, 'final'],
      [513, AuthenticationError, 'resync'],
      [406, PermissionDenied, 'final'],
      [701, PermissionDenied, 'final'],
      [704, PermissionDenied, 'final'],
      [500, ExchangeUnavailable, 'unavailable'],
      [501, ExchangeUnavailable, 'unavailable'],
      [510, RateLimited, 'rate-limited'],
      [600, BadRequest, 'final'],
      [603, BadRequest, 'final'],
      [1001, SymbolNotTradable, 'final'],
      [1002, FeatureDisabled, 'final'],
      [8817, FeatureDisabled, 'final'],
      [2005, InsufficientFunds, 'final'],
      [2009, PositionNotFound, 'final'],
      [2040, OrderNotFound, 'final'],
      [2041, OrderNotCancellable, 'final'],
      [3001, InvalidOrder, 'final'],
    ];
    for (const [code, cls, disposition] of rows) {
      it(`maps_contract_${code}_to_${cls.name}`, () => {
        const err = expectError(
          decodeResponse(createDef, answer(200, { success: false, code, message: 'venue text' }), 0),
          cls,
          disposition,
        );
        expect((err as { endpoint?: string }).endpoint).to.equal('contract.testCreate');
      });
    }

    it('maps_the_captured_contract_error_fixtures', () => {
      expectError(
        decodeResponse(createDef, answer(200, fixture('contract_ERROR_602_signature_verification_failed.json')), 0),
        AuthenticationError,
        'final',
      );
      expectError(
        decodeResponse(createDef, answer(200, fixture('contract_ERROR_2009_position_not_exist.json')), 0),
        PositionNotFound,
        'final',
      );
      expectError(
        decodeResponse(createDef, answer(200, fixture('contract_ERROR_1001_GET_api_v1_contract_depth_BTCUSDT.json')), 0),
        SymbolNotTradable,
        'final',
      );
    });
  });

  describe('http status', () => {
    it('maps_429_to_rate_limited_with_retry_after_seconds', () => {
      const err = expectError(
        decodeResponse(spotCatalogue.depth, answer(429, '', { 'retry-after': '3' }), 0),
        RateLimited,
        'rate-limited',
      ) as RateLimited;
      expect(err.retryAfterMs).to.equal(3_000);
    });

    it('maps_429_without_retry_after_to_an_unset_wait', () => {
      const err = expectError(
        decodeResponse(spotCatalogue.depth, answer(429, { code: 429, msg: 'Too many' }), 0),
        RateLimited,
        'rate-limited',
      ) as RateLimited;
      expect(err.retryAfterMs).to.equal(undefined);
    });

    it('reads_an_http_date_retry_after_relative_to_now', () => {
      // Date.parse('Thu, 01 Jan 2026 00:00:05 GMT') = 1767225605000; now 1767225600000 → 5000 ms
      expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, 1767225600000)).to.equal(5_000);
    });

    it('maps_403_to_the_firewall', () => {
      expectError(decodeResponse(spotCatalogue.depth, answer(403, '<html>blocked</html>'), 0), RateLimited, 'firewall');
    });

    it('maps_5xx_to_unavailable_whatever_the_body', () => {
      expectError(decodeResponse(spotCatalogue.newOrder, answer(502, 'bad gateway'), 0), ExchangeUnavailable, 'unavailable');
      expectError(
        decodeResponse(createDef, answer(503, { success: false, code: 600, message: 'x' }), 0),
        ExchangeUnavailable,
        'unavailable',
      );
    });
  });
});
