import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal, libraryToNumber } from '../../src/core/decimal.js';

/**
 * core/decimal.ts replaces decimal.js's toNumber (a string built and parsed) with a conversion from the
 * digit words (Clinger's fast path: M·10^k or M / 10^−k, both exact doubles, one correctly rounded
 * operation). The library's own conversion is the reference: on every value the two must give the same
 * double (Object.is: −0 and NaN included).
 */
describe('Decimal to number from the digit words', () => {
  const digits = (max: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9]{1,${max}}$`));
  const plain = fc
    .tuple(fc.boolean(), digits(20), fc.option(digits(20), { nil: undefined }))
    .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac !== undefined ? `.${frac}` : ''}`);
  // Exponents around the fast path's edges (|k| ≤ 22, M ≤ 2^53) and far beyond them.
  const scientific = fc
    .tuple(fc.boolean(), digits(18), fc.oneof(fc.integer({ min: -40, max: 40 }), fc.integer({ min: -400, max: 400 })))
    .map(([neg, m, e]) => `${neg ? '-' : ''}${m}e${e}`);
  // Prices on a tick and money on the ledger's scale, as the venue makes them.
  const onGrid = fc
    .tuple(fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }), fc.constantFrom('0.1', '0.01', '0.5', '0.00000001', '1', '25'))
    .map(([n, step]) => new Decimal(step).mul(n).toString());
  const special = fc.constantFrom('0', '-0', 'NaN', 'Infinity', '-Infinity', '9007199254740992', '9007199254740993', '1e22', '1e23');
  const value = fc.oneof(
    { weight: 4, arbitrary: plain },
    { weight: 3, arbitrary: scientific },
    { weight: 3, arbitrary: onGrid },
    { weight: 1, arbitrary: special },
  );
  const same = (got: number, want: number, what: string): void => {
    expect(Object.is(got, want), `${what}: got ${got}, want ${want}`).to.equal(true);
  };

  it('gives_the_library_double_for_every_value', () => {
    fc.assert(
      fc.property(value, (s) => {
        const x = new Decimal(s);
        same(x.toNumber(), libraryToNumber(x), s);
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives_the_library_double_for_results_of_arithmetic', () => {
    // Quotients and products carry up to the 40 significant digits of the configured precision.
    fc.assert(
      fc.property(value, value, (a, b) => {
        const x = new Decimal(a);
        const y = new Decimal(b);
        for (const r of [x.mul(y), x.div(y), x.add(y), x.sub(y)]) same(r.toNumber(), libraryToNumber(r), `${a} ∘ ${b} = ${r.toString()}`);
      }),
      { numRuns: 5_000 },
    );
  });

  it('converts_the_values_at_the_fast_paths_edges', () => {
    // Worked out by hand: each is a double exactly or the nearest one to the decimal.
    same(new Decimal('94095.1').toNumber(), 94095.1, '94095.1');
    same(new Decimal('-0').toNumber(), -0, '-0');
    same(new Decimal('0.0005').toNumber(), 0.0005, '0.0005');
    same(new Decimal('9007199254740993').toNumber(), 9007199254740992, '2^53 + 1 (to even)');
    same(new Decimal('1e23').toNumber(), 1e23, '1e23');
    same(new Decimal('123456789.12345678').toNumber(), 123456789.12345678, 'money on 8 decimals');
    expect(Number.isNaN(new Decimal('NaN').toNumber())).to.equal(true);
  });
});
