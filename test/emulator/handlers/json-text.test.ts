/**
 * The placement answers written as JSON text (handlers/json-text.ts, issue 12) must be JSON.stringify's
 * bytes of the object they stand for, for any field values: the template is used only when every
 * string needs no escape and every number is finite; anything else (quotes, backslashes, control
 * characters, non-ASCII, a missing string, NaN, Infinity) is returned as the object and stringified as
 * before. End to end, the placement answers on the wire are the exact bytes of the objects.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { createdOrder } from '../../../src/emulator/handlers/contract-trade-handlers.js';
import { JsonText } from '../../../src/emulator/handlers/json-text.js';
import { orderAck } from '../../../src/emulator/handlers/spot-trade-handlers.js';
import { startEmulator } from '../../../src/emulator/start-emulator.js';
import { contractSigned, spotSigned, T0, testConfig } from '../support/emulator-kit.js';

const written = (v: unknown): string => (v instanceof JsonText ? v.text : JSON.stringify(v));

/** Strings JSON.stringify writes verbatim, and strings it escapes (or that are not strings at all). */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('"', '\\', '\u0000', '\n', '\u007f', 'é', '\ud800', '87500.5', 'BTCUSDT', ''),
);
const anyNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 1e21, T0));

describe('placement answers as JSON text', () => {
  it('writes_the_spot_placement_answer_as_json_stringify_writes_its_object', () => {
    fc.assert(
      fc.property(
        fc.record({
          symbol: anyString,
          orderId: anyString,
          price: anyString,
          origQty: anyString,
          type: anyString,
          side: anyString,
          stpMode: fc.oneof(anyString, fc.constant(undefined as unknown as string)),
          time: anyNumber,
        }),
        (o) => {
          const { symbol, orderId, price, origQty, type, side, stpMode, time } = o;
          const object = { symbol, orderId, orderListId: -1, price, origQty, type, side, stpMode, transactTime: time };
          expect(written(orderAck(o))).to.equal(JSON.stringify(object));
        },
      ),
      { numRuns: 2000 },
    );
    // The usual answer takes the template.
    const usual = orderAck({
      symbol: 'BTCUSDT',
      orderId: '7',
      price: '87500',
      origQty: '0.001',
      type: 'LIMIT',
      side: 'BUY',
      stpMode: '',
      time: T0,
    });
    expect(usual).to.be.instanceOf(JsonText);
  });

  it('writes_the_contract_placement_answer_as_json_stringify_writes_its_object', () => {
    fc.assert(
      fc.property(anyString, anyNumber, (orderId, ts) => {
        expect(written(createdOrder(orderId, ts))).to.equal(JSON.stringify({ orderId, ts }));
      }),
      { numRuns: 2000 },
    );
    expect(createdOrder('101716841474621953', T0)).to.be.instanceOf(JsonText);
  });

  it('answers_placements_on_the_wire_with_the_exact_bytes_of_their_objects', async () => {
    const emu = await startEmulator(testConfig(), { marketStopped: true });
    try {
      const spot = await spotSigned(emu.url, 'POST', '/api/v3/order', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.001',
        price: '1000',
        timestamp: String(T0),
      });
      const id = (spot.json as { orderId: string }).orderId;
      expect(spot.text).to.equal(
        JSON.stringify({
          symbol: 'BTCUSDT',
          orderId: id,
          orderListId: -1,
          price: '1000',
          origQty: '0.001',
          type: 'LIMIT',
          side: 'BUY',
          stpMode: '',
          transactTime: T0,
        }),
      );
      const body = { symbol: 'BTC_USDT', price: 1000, vol: 1, leverage: 10, side: 1, type: 1, openType: 1 };
      const contract = await contractSigned(emu.url, 'POST', '/api/v1/private/order/create', body, { requestTime: T0 });
      const data = (contract.json as { data: { orderId: string } }).data;
      expect(contract.text).to.equal(JSON.stringify({ success: true, code: 0, data: { orderId: data.orderId, ts: T0 } }));
    } finally {
      await emu.stop();
    }
  });
});
