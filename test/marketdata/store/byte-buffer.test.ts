import { expect } from 'chai';
import fc from 'fast-check';
import { ByteReader, ByteWriter, TruncatedPayload } from '../../../src/marketdata/store/byte-buffer.js';

describe('byte buffer varints', () => {
  it('round_trips_unsigned_and_signed_safe_integers', () => {
    fc.assert(
      fc.property(fc.array(fc.maxSafeNat()), fc.array(fc.maxSafeInteger()), (us, ss) => {
        const w = new ByteWriter(1);
        for (const u of us) w.uv(u);
        for (const s of ss) w.sv(s);
        const r = new ByteReader(w.finish());
        expect(us.map(() => r.uv())).to.deep.equal(us);
        expect(ss.map(() => r.sv())).to.deep.equal(ss);
        expect(r.done).to.equal(true);
      }),
    );
  });

  it('uses_one_byte_below_64_magnitude_for_signed_values', () => {
    // Sign-magnitude: bit 0 sign, 6 bits of magnitude in the first byte.
    const w = new ByteWriter();
    w.sv(63);
    w.sv(-63);
    w.sv(64);
    expect(w.pos).to.equal(1 + 1 + 2);
  });

  it('keeps_extreme_values_exact', () => {
    const values = [0, 1, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
    const w = new ByteWriter();
    for (const v of values) w.sv(v);
    const r = new ByteReader(w.finish());
    expect(values.map(() => r.sv())).to.deep.equal(values);
  });

  it('throws_on_a_varint_cut_short', () => {
    const w = new ByteWriter();
    w.uv(2 ** 40);
    const bytes = w.finish();
    expect(() => new ByteReader(bytes.subarray(0, bytes.length - 1)).uv()).to.throw(TruncatedPayload);
    expect(() => new ByteReader(bytes.subarray(0, 0)).sv()).to.throw(TruncatedPayload);
  });
});
