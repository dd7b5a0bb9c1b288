import { expect } from 'chai';
import fc from 'fast-check';
import { createOrderRequest } from '../../src/api/contract/orders.js';
import { spotCatalogue } from '../../src/api/spot/catalogue.js';
import { fastContractOrderParams } from '../../src/emulator/http/fast-contract-order-params.js';
import { fastOrderParams } from '../../src/emulator/http/fast-order-params.js';

/**
 * The placement fast paths (emulator/http/fast-*-params.ts) skip the catalogue's request schema when the
 * input is already in the schema's output form. The independent method is the schema itself: for every
 * input a fast path accepts, the schema must accept it too and give a deep-equal value; and the fast
 * path must accept the plain requests real clients send (otherwise it saves nothing).
 */

/** Values that are sometimes canonical and often not: the fast path must fall back on the latter. */
const anyScalar = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 2, 3, 4, 5, 6, 7, 1.5, 87500, 0.1, 1e-7, 1e21, 123456789012345.6, 1234567890123456, NaN, Infinity),
  fc.constantFrom('', '1', '87500', ' 1', '1e3', 'BTC_USDT', 'btc_usdt', 'x'.repeat(65), '0', '007', '42'),
  fc.constantFrom(true, false, null, undefined, [], {}),
  fc.double({ noNaN: false }),
  // Small integers are the codes and leverages, where off-by-one mistakes live: drawn most often.
  { arbitrary: fc.integer({ min: -3, max: 7 }), weight: 4 },
);

const CONTRACT_KEYS = [
  'symbol',
  'price',
  'vol',
  'leverage',
  'side',
  'type',
  'openType',
  'externalOid',
  'positionId',
  'positionMode',
  'reduceOnly',
  'marketCeiling',
  'flashClose',
  'stopLossPrice',
  'takeProfitPrice',
  'lossTrend',
  'profitTrend',
  'priceProtect',
  'bboTypeNum',
  'stpMode',
  'unknownKey',
  '__proto__',
] as const;

/** A plain create body as our client and ccxt send it: numbers for prices, codes and leverage. */
const plainContractOrder = fc.record(
  {
    symbol: fc.constantFrom('BTC_USDT', 'ETH_USDT', 'DOGE_USDT'),
    price: fc.oneof(
      fc.integer({ min: 1, max: 10_000_000 }),
      fc.integer({ min: 1, max: 99_999_999 }).map((n) => n / 100),
    ),
    vol: fc.integer({ min: 1, max: 100_000 }),
    leverage: fc.integer({ min: 1, max: 125 }),
    side: fc.constantFrom(1, 2, 3, 4),
    type: fc.constantFrom(1, 2, 3, 4, 5, 6),
    openType: fc.constantFrom(1, 2),
    externalOid: fc.stringMatching(/^[a-z0-9-]{0,64}$/),
    positionMode: fc.constantFrom(1, 2),
    stpMode: fc.constantFrom(0, 1, 2, 3),
    stopLossPrice: fc.integer({ min: 1, max: 10_000_000 }),
  },
  { requiredKeys: ['symbol', 'price', 'vol', 'leverage', 'side', 'type', 'openType'] },
);

function schemaOutput(schema: { safeParse(v: unknown): { success: boolean; data?: unknown } }, input: unknown): unknown {
  const r = schema.safeParse(input);
  expect(r.success, `the schema refuses what the fast path accepted: ${JSON.stringify(input)}`).to.equal(true);
  return r.data;
}

describe('emulator placement fast paths agree with the catalogue schemas', () => {
  it('contract order/create: every body the fast path accepts parses to the same value', () => {
    const odd = fc.dictionary(fc.constantFrom(...CONTRACT_KEYS), anyScalar, { maxKeys: 10 });
    // A plain order with a few fields replaced by odd values: near misses of the fast path's checks.
    const nearMiss = fc
      .tuple(plainContractOrder, fc.dictionary(fc.constantFrom(...CONTRACT_KEYS), anyScalar, { minKeys: 1, maxKeys: 2 }))
      .map(([plain, changes]) => ({ ...plain, ...changes }));
    fc.assert(
      fc.property(fc.oneof(odd, { arbitrary: nearMiss, weight: 4 }, plainContractOrder), (input) => {
        // JSON.parse makes `__proto__` an own key, as the server's body parser does.
        const parsed = JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
        const fast = fastContractOrderParams(parsed);
        if (fast !== undefined) expect(fast).to.deep.equal(schemaOutput(createOrderRequest, parsed));
      }),
      { numRuns: 6000 },
    );
  });

  it('contract order/create: the plain bodies clients send take the fast path', () => {
    fc.assert(
      fc.property(plainContractOrder, (input) => {
        expect(fastContractOrderParams(input), JSON.stringify(input)).to.deep.equal(schemaOutput(createOrderRequest, input));
      }),
      { numRuns: 500 },
    );
    // Bodies it must leave to the schema (a wording of the error or a changed value is the schema's job).
    const base = { symbol: 'BTC_USDT', price: 87500, vol: 1, leverage: 10, side: 1, type: 1, openType: 2 };
    for (const odd of [
      { price: '87500' }, // a string: the schema outputs a number
      { side: '1' },
      { price: 0, type: 5 }, // zero price
      { reduceOnly: false }, // dropped by the schema outside one-way mode
      { positionId: 12 }, // the schema outputs a string
      { price: 1e-7 }, // exponent notation
      { vol: 1234567890123456 }, // 16 significant digits
      { leverage: undefined, side: 3 },
      { extra: 1 },
    ]) {
      expect(fastContractOrderParams({ ...base, ...odd }), JSON.stringify(odd)).to.equal(undefined);
    }
  });

  it('spot order: every parameter set the fast path accepts parses to the same value', () => {
    const schema = spotCatalogue.newOrder.request;
    const value = fc.oneof(
      fc.constantFrom('BTCUSDT', 'btcusdt', 'BUY', 'SELL', 'LIMIT', 'MARKET', 'LIMIT_MAKER', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'),
      fc.constantFrom('1', '0.001', '87500', '0.10', '00.1', '1e3', '0', '0.0', '-1', '', 'cid-1', 'cancel_maker', '60000', '60001'),
      fc.stringMatching(/^[0-9.]{1,8}$/),
    );
    const keys = ['symbol', 'side', 'type', 'quantity', 'quoteOrderQty', 'price', 'newClientOrderId', 'stpMode', 'recvWindow', 'x'];
    const plainOrder = fc.record({
      symbol: fc.constant('BTCUSDT'),
      side: fc.constantFrom('BUY', 'SELL'),
      type: fc.constantFrom('LIMIT', 'LIMIT_MAKER'),
      quantity: fc.constantFrom('0.001', '1', '2.5'),
      price: fc.constantFrom('87500', '0.01', '100.5'),
    });
    const nearMiss = fc
      .tuple(plainOrder, fc.dictionary(fc.constantFrom(...keys), value, { minKeys: 1, maxKeys: 3 }))
      .map(([plain, changes]) => ({ ...plain, ...changes }));
    fc.assert(
      fc.property(fc.oneof(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 8 }), nearMiss), (input) => {
        const fast = fastOrderParams(input);
        if (fast !== undefined) expect(fast).to.deep.equal(schemaOutput(schema, input));
      }),
      { numRuns: 3000 },
    );
    const plain = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '87500' };
    expect(fastOrderParams(plain)).to.deep.equal(schemaOutput(schema, plain));
  });
});
