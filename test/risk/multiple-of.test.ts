import { expect } from 'chai';
import fc from 'fast-check';
import { D } from '../../src/core/decimal.js';
import { isMultipleOf } from '../../src/risk/multiple-of.js';

describe('isMultipleOf', () => {
  it('agrees_with_the_remainder_for_powers_of_ten_and_other_units', () => {
    // Values with up to 10 decimals against units 10^-k and a few others (0.5, 0.25, 5, 0.0005).
    const units = ['1', '0.1', '0.01', '0.00001', '0.00000001', '10', '0.5', '0.25', '5', '0.0005'].map((u) => D(u));
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: units.length - 1 }),
        (m, scale, u) => {
          const value = D(m.toString()).div(D(10).pow(scale));
          const unit = units[u]!;
          expect(isMultipleOf(value, unit)).to.equal(value.mod(unit).isZero());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads_61837_63_as_whole_ticks_of_0_01_and_61837_635_as_not', () => {
    const tick = D('0.01');
    expect(isMultipleOf(D('61837.63'), tick)).to.equal(true);
    expect(isMultipleOf(D('61837.630000'), tick)).to.equal(true);
    expect(isMultipleOf(D('61837.635'), tick)).to.equal(false);
  });
});
