import { expect } from 'chai';
import type { z } from 'zod';
import { spotCatalogue as c } from '../../../src/api/spot/catalogue.js';
import { spotErrorBodySchema, spotWrappedEnvelopeSchema } from '../../../src/api/spot/common.js';
import { fixture, parseOk, spotFixtureNames, unwrapSpot } from './spot-test-kit.js';

/** Which schema reads each captured spot body; wrapped bodies are unwrapped first. */
const READERS: Record<string, { schema: z.ZodType; wrapped?: boolean }> = {
  'spot_DELETE_api_v3_openOrders.json': { schema: c.cancelOpenOrders.response },
  'spot_DELETE_api_v3_order.json': { schema: c.cancelOrder.response },
  // DELETE /api/v3/order/all is not a row of spot-api.md §4: only its envelope is read.
  'spot_DELETE_api_v3_order_all.json': { schema: spotWrappedEnvelopeSchema },
  'spot_ERROR_700002_invalid_signature.json': { schema: spotErrorBodySchema },
  'spot_ERROR_700003_timestamp_outside_recvWindow.json': { schema: spotErrorBodySchema },
  'spot_ERROR_700004_mandatory_param_signature.json': { schema: spotErrorBodySchema },
  'spot_ERROR_minus1128_param_combination.json': { schema: spotErrorBodySchema },
  'spot_GET_api_v3_account.json': { schema: c.account.response },
  'spot_GET_api_v3_aggTrades.json': { schema: c.aggTrades.response },
  'spot_GET_api_v3_allOrders.json': { schema: c.allOrders.response },
  'spot_GET_api_v3_avgPrice.json': { schema: c.avgPrice.response },
  'spot_GET_api_v3_defaultSymbols.json': { schema: c.defaultSymbols.response, wrapped: true },
  'spot_GET_api_v3_depth.json': { schema: c.depth.response },
  'spot_GET_api_v3_exchangeInfo.json': { schema: c.exchangeInfo.response },
  'spot_GET_api_v3_exchangeInfo_all.json': { schema: c.exchangeInfo.response },
  'spot_GET_api_v3_klines.json': { schema: c.klines.response },
  'spot_GET_api_v3_myTrades.json': { schema: c.myTrades.response },
  'spot_GET_api_v3_openOrders.json': { schema: c.openOrders.response },
  'spot_GET_api_v3_order.json': { schema: c.queryOrder.response },
  'spot_GET_api_v3_ticker_24hr.json': { schema: c.ticker24hr.response },
  'spot_GET_api_v3_ticker_24hr_all.json': { schema: c.ticker24hr.response },
  'spot_GET_api_v3_ticker_bookTicker.json': { schema: c.bookTicker.response },
  'spot_GET_api_v3_ticker_bookTicker_all.json': { schema: c.bookTicker.response },
  'spot_GET_api_v3_ticker_price.json': { schema: c.tickerPrice.response },
  'spot_GET_api_v3_ticker_price_all.json': { schema: c.tickerPrice.response },
  'spot_GET_api_v3_time.json': { schema: c.serverTime.response },
  'spot_GET_api_v3_trades.json': { schema: c.trades.response },
  'spot_POST_api_v3_batchOrders.json': { schema: c.batchOrders.response },
  'spot_POST_api_v3_order.json': { schema: c.newOrder.response },
};

describe('spot fixtures', () => {
  it('has_a_reader_for_every_captured_spot_body', () => {
    expect(Object.keys(READERS).sort()).to.deep.equal(spotFixtureNames());
  });

  for (const [name, { schema, wrapped }] of Object.entries(READERS)) {
    it(`parses_${name.replace(/\.json$/, '')}`, () => {
      const body = fixture(name);
      parseOk(schema, wrapped ? unwrapSpot(body) : body);
    });
  }

  it('reads_error_codes_including_negative_ones', () => {
    expect(parseOk(spotErrorBodySchema, fixture('spot_ERROR_700003_timestamp_outside_recvWindow.json')).code).to.equal(700003);
    expect(parseOk(spotErrorBodySchema, fixture('spot_ERROR_minus1128_param_combination.json')).code).to.equal(-1128);
  });

  it('reads_a_bare_acknowledgement_envelope_without_data', () => {
    const env = parseOk(spotWrappedEnvelopeSchema, fixture('spot_DELETE_api_v3_order_all.json'));
    expect([env.code, env.msg, env.data, env.timestamp]).to.deep.equal([200, 'success', undefined, 1778744778528]);
  });
});
