import { expect } from 'chai';
import fc from 'fast-check';
import { ValidationError } from '../../../src/core/errors.js';
import { ByteReader, ByteWriter } from '../../../src/marketdata/store/byte-buffer.js';
import { formatScaled, readDecimalColumn, readDecimalNumbers, writeDecimalColumn } from '../../../src/marketdata/store/decimal-column.js';
import { decimalArb } from './support/record-arbitraries.js';

function encode(values: string[]): Uint8Array {
  const w = new ByteWriter(16);
  writeDecimalColumn(w, values, 'record.p');
  return w.finish();
}

function roundTrip(values: string[]): string[] {
  const r = new ByteReader(encode(values));
  const out = readDecimalColumn(r, values.length);
  expect(r.done).to.equal(true);
  return out;
}

describe('decimal column', () => {
  it('restores_every_decimal_string_exactly', () => {
    fc.assert(
      fc.property(fc.array(decimalArb, { maxLength: 60 }), (values) => {
        expect(roundTrip(values)).to.deep.equal(values);
      }),
      { numRuns: 400 },
    );
  });

  it('reads_as_numbers_exactly_what_Number_makes_of_the_restored_strings', () => {
    // Covers the uniform layout (v / 10^E), varying widths and exceptions: same doubles, bit for bit.
    const check = (values: string[]): void => {
      const r = new ByteReader(encode(values));
      const got = Array.from(readDecimalNumbers(r, values.length));
      expect(r.done).to.equal(true);
      expect(got.map((x) => (Object.is(x, -0) ? '-0' : String(x)))).to.deep.equal(
        values.map((v) => (Object.is(Number(v), -0) ? '-0' : String(Number(v)))),
      );
    };
    fc.assert(fc.property(fc.array(decimalArb, { maxLength: 60 }), check), { numRuns: 400 });
    check(Array.from({ length: 50 }, (_, k) => `${((6183763 - 7 * k) / 100).toFixed(2)}000000`));
    check(['0.1', '0.2', '0.30000000', '123456789.123456', '9007199254740991', '007.5', '-0.00', '1e5'.replace('e5', '00000')]);
  });

  it('restores_padded_venue_prices_with_one_byte_per_tick_step', () => {
    // Binance spot pads to 8 decimals; significant scale is 2, so 61837.63 → 6183763 and each next
    // level is one tick (delta −1 → 1 byte). Layout: flags 1 + E 1 + W 1 + first delta (6183763 <
    // 2^27 → 4 bytes) + 99 × 1 byte + exception count 1 = 107 bytes for 100 values.
    const values = Array.from({ length: 100 }, (_, k) => `${((6183763 - k) / 100).toFixed(2)}000000`);
    const bytes = encode(values);
    expect(bytes.length).to.equal(107);
    expect(roundTrip(values)).to.deep.equal(values);
  });

  it('keeps_varying_widths_of_plain_csv_numbers', () => {
    const values = ['105597.1', '105554.31', '105554', '0.5', '95478.0'];
    expect(roundTrip(values)).to.deep.equal(values);
  });

  it('keeps_non_canonical_values_as_exceptions', () => {
    const values = ['007.50', '-0', '-0.000', '123456789012345678901234567890.123456789', '1.5'];
    expect(roundTrip(values)).to.deep.equal(values);
  });

  it('rejects_a_non_decimal_naming_the_field', () => {
    for (const bad of ['1e-5', '.5', '5.', '', '1,5', ' 1', 'NaN']) {
      const err = (() => {
        try {
          encode(['1', bad]);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err, bad).to.be.instanceOf(ValidationError);
      expect((err as ValidationError).field).to.equal('record.p');
    }
  });

  it('formats_scaled_integers', () => {
    expect(formatScaled(5, 3)).to.equal('0.005');
    expect(formatScaled(-5, 3)).to.equal('-0.005');
    expect(formatScaled(6183763, 2)).to.equal('61837.63');
    expect(formatScaled(12, 0)).to.equal('12');
  });
});
