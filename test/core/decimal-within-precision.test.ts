import { expect } from 'chai';
import fc from 'fast-check';
import { D, Decimal, withinPrecision, ZERO } from '../../src/core/decimal.js';
import { remainingQty } from '../../src/domain/order.js';
import { order } from '../domain/support/builders.js';

/**
 * remainingQty() and the quote diff's amend quantity hand a quantity on unchanged when nothing is filled,
 * instead of computing q − 0 or 0 + q. decimal.js rounds every result to the configured precision, so the
 * shortcut is only taken when withinPrecision() says the rounding would not change the value. The
 * reference here is the Decimal operation itself, over values with up to 60 digits (past the 40 of the
 * precision), both zeros and both signs.
 */
describe('withinPrecision shortcuts', () => {
  // Short mantissas (prices, quantities) and long ones around the 40 digits the precision keeps.
  const digits = fc.oneof(fc.stringMatching(/^[0-9]{1,20}$/), fc.stringMatching(/^[1-9][0-9]{36,56}$/));
  const value = fc.oneof(
    fc.tuple(fc.boolean(), digits, fc.integer({ min: -80, max: 80 })).map(([neg, m, e]) => new Decimal(`${neg ? '-' : ''}${m}e${e}`)),
    fc
      .constantFrom('0', '-0', '1', '0.1', '10', '1234567890123456789012345678901234567891', '12345678901234567890123456789012345678912')
      .map(D),
  );
  // The same value, the same sign (−0 and 0 differ here), the same digits.
  const same = (a: Decimal, b: Decimal): boolean => a.eq(b) && a.isNegative() === b.isNegative() && a.toString() === b.toString();

  it('says_a_value_survives_minus_zero_and_zero_plus_exactly_when_it_does', () => {
    fc.assert(
      fc.property(value, (d) => {
        if (withinPrecision(d)) {
          expect(same(d.minus(ZERO), d) || d.isZero(), `${d.toString()} − 0`).to.equal(true);
          if (!d.isZero()) expect(same(ZERO.plus(d), d), `0 + ${d.toString()}`).to.equal(true);
        } else expect(d.isFinite() && !same(d.minus(ZERO), d), `${d.toString()} is outside the precision`).to.equal(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('remainingQty_equals_quantity_minus_filled_clamped_at_zero', () => {
    const filled = fc.oneof(fc.constant(ZERO), fc.constant(D('-0')), value);
    fc.assert(
      fc.property(value, filled, (q, f) => {
        const o = order({ quantity: q, filledQty: f });
        const diff = q.minus(f);
        const want = diff.isNegative() ? ZERO : diff;
        expect(same(remainingQty(o)!, want), `${q.toString()} − ${f.toString()}`).to.equal(true);
      }),
      { numRuns: 5000 },
    );
  });
});
