import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal, libraryCmp } from '../../src/core/decimal.js';

/**
 * core/decimal.ts replaces decimal.js's comparison with one that reads a Decimal argument in place
 * instead of copying it. The library's own comparison is the reference: on every pair the two must
 * agree, and eq / gt / gte / lt / lte (which call cmp) must agree with it too.
 */
describe('Decimal comparison in place', () => {
  // Values the engine meets (prices, quantities, money with up to 18 decimals, tiny and huge
  // magnitudes, both zeros) and the special ones the in-place path hands back to the library.
  const digits = fc.stringMatching(/^[0-9]{1,30}$/);
  const plain = fc
    .tuple(fc.boolean(), digits, fc.option(digits, { nil: undefined }))
    .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac !== undefined ? `.${frac}` : ''}`);
  const scientific = fc.tuple(fc.boolean(), digits, fc.integer({ min: -400, max: 400 })).map(([neg, m, e]) => `${neg ? '-' : ''}${m}e${e}`);
  const special = fc.constantFrom('0', '-0', 'NaN', 'Infinity', '-Infinity', '1e9000000000000000', '1e-9000000000000000');
  const value = fc.oneof({ weight: 6, arbitrary: plain }, { weight: 3, arbitrary: scientific }, { weight: 1, arbitrary: special });

  it('agrees_with_the_library_comparison_on_every_pair', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const x = new Decimal(a);
        const y = new Decimal(b);
        const want = libraryCmp(x, y);
        const got = x.cmp(y);
        expect(Number.isNaN(got) ? 'NaN' : got, `${a} cmp ${b}`).to.equal(Number.isNaN(want) ? 'NaN' : want);
        expect(x.eq(y)).to.equal(want === 0);
        expect(x.gt(y)).to.equal(want > 0);
        expect(x.gte(y)).to.equal(want >= 0);
        expect(x.lt(y)).to.equal(want < 0);
        expect(x.lte(y)).to.equal(want <= 0);
        // The argument is not changed by being compared.
        expect(y.toString()).to.equal(new Decimal(b).toString());
      }),
      { numRuns: 5000 },
    );
  });

  it('compares_equal_values_of_different_form_and_orders_near_values', () => {
    expect(new Decimal('1.50').cmp(new Decimal('1.5'))).to.equal(0);
    expect(new Decimal('-0').cmp(new Decimal('0'))).to.equal(0);
    expect(new Decimal('0.30000000000000000001').cmp(new Decimal('0.3'))).to.equal(1);
    expect(new Decimal('-2').cmp(new Decimal('-10'))).to.equal(1);
    expect(new Decimal('12345678.9').cmp(new Decimal('12345679'))).to.equal(-1);
    // Strings and numbers still go through the library.
    expect(new Decimal('2').cmp('10')).to.equal(-1);
    expect(new Decimal('2').cmp(2)).to.equal(0);
  });
});
