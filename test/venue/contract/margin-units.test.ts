import { expect } from 'chai';
import fc from 'fast-check';
import { feeUnits, marginAndFeeUnits, perNumberOf, unitTerms } from '../../../src/venue/contract/margin-units.js';

/** The bigint formula, written out here (not through initialMarginUnits): ⌊ or ⌈ tl·uv / (L·step) ⌉·step + tl·per. */
function reference(
  ticks: number,
  lots: number,
  leverage: number,
  uv: bigint,
  step: bigint,
  per: bigint,
  rounding: 'floor' | 'ceil',
): bigint {
  const tl = BigInt(ticks) * BigInt(lots);
  const n = tl * uv;
  const d = BigInt(leverage) * step;
  let q = n / d;
  if (rounding === 'ceil' && q * d !== n) q += 1n;
  return q * step + tl * per;
}

const SAFE = Number.MAX_SAFE_INTEGER; // 2^53 − 1

describe('margin-units (hot-path margin and fees in doubles, bigints past 2^53)', () => {
  it('books_the_bench_contracts_margin_and_fee_worked_by_hand', () => {
    // BTC_USDT: tick 0.1 × lot 1 × contract 0.0001 = 0.00001 USDT per tick·lot = 10^13 units; 8-place step = 10^10 units;
    // reserve fee 0.0006 → 0.0006 × 0.00001 = 6·10^-9 USDT = 6·10^9 units per tick·lot.
    // 10 lots at 50000.0 (500000 ticks): notional 5·10^6 tick·lots = 50 USDT; /20 = 2.5 USDT; fee 0.03 USDT.
    const t = unitTerms(10n ** 13n, 10n ** 10n, 6n * 10n ** 9n);
    expect(marginAndFeeUnits(500000, 10, 20, t, 'ceil')).to.equal(2_530_000_000_000_000_000n);
    // 7 lots at 50000.1 over 3x: 3500007 tick·lots = 35.00007 USDT; /3 = 11.66669 exactly; ceil = floor.
    expect(marginAndFeeUnits(500001, 7, 3, unitTerms(10n ** 13n, 10n ** 10n, 0n), 'ceil')).to.equal(11_666_690_000_000_000_000n);
    // 1 lot at 0.1 over 3x: 10^-5 / 3 = 0.0000033333… → floor 0.00000333, ceil 0.00000334 (in 10^10-unit steps).
    const m = unitTerms(10n ** 13n, 10n ** 10n, 0n);
    expect(marginAndFeeUnits(1, 1, 3, m, 'floor')).to.equal(333n * 10n ** 10n);
    expect(marginAndFeeUnits(1, 1, 3, m, 'ceil')).to.equal(334n * 10n ** 10n);
  });

  it('equals_the_bigint_formula_on_both_sides_of_2^53', () => {
    // Notional steps n = ticks · lots · valueSteps picked within a few thousand of 2^53, so the double path
    // runs just below it and the bigint path just above; margin + fee sums cross it the same way.
    const edge = fc
      .record({
        valueSteps: fc.integer({ min: 1, max: 2000 }),
        lots: fc.integer({ min: 1, max: 64 }),
        delta: fc.integer({ min: -5000, max: 5000 }),
        leverage: fc.integer({ min: 1, max: 125 }),
        stepPow: fc.integer({ min: 0, max: 18 }),
        perSteps: fc.bigInt({ min: -50n, max: 50n }),
        perExtra: fc.constantFrom(0n, 1n, 3n, 7n),
      })
      .map(({ valueSteps, lots, delta, leverage, stepPow, perSteps, perExtra }) => {
        const step = 10n ** BigInt(stepPow);
        const ticks = Math.max(0, Math.floor((SAFE + delta) / (lots * valueSteps)));
        return { ticks, lots, leverage, uv: BigInt(valueSteps) * step, step, per: perSteps * step + perExtra };
      });
    const anywhere = fc.record({
      ticks: fc.integer({ min: 0, max: 2 ** 40 }),
      lots: fc.integer({ min: 0, max: 2 ** 24 }),
      leverage: fc.integer({ min: 1, max: 10000 }),
      uv: fc.bigInt({ min: 1n, max: 10n ** 20n }),
      step: fc.constantFrom(1n, 10n, 10n ** 8n, 10n ** 10n, 10n ** 18n, 3n),
      per: fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
    });
    fc.assert(
      fc.property(fc.oneof(edge, anywhere), fc.constantFrom<'floor' | 'ceil'>('floor', 'ceil'), (c, rounding) => {
        const t = unitTerms(c.uv, c.step, c.per);
        expect(marginAndFeeUnits(c.ticks, c.lots, c.leverage, t, rounding)).to.equal(
          reference(c.ticks, c.lots, c.leverage, c.uv, c.step, c.per, rounding),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('takes_the_bigint_path_with_the_same_errors_for_what_doubles_cannot_hold', () => {
    const t = unitTerms(10n ** 13n, 10n ** 10n, 0n);
    // ticks·lots past 2^53: the double product would round; the exact product is used.
    const big = marginAndFeeUnits(2 ** 40 + 1, 2 ** 20 + 3, 7, t, 'floor');
    expect(big).to.equal(reference(2 ** 40 + 1, 2 ** 20 + 3, 7, 10n ** 13n, 10n ** 10n, 0n, 'floor'));
    // A leverage of 0 divides by zero and a negative notional is refused, as initialMarginUnits did.
    expect(() => marginAndFeeUnits(10, 1, 0, t, 'ceil')).to.throw(RangeError);
    expect(() => marginAndFeeUnits(-10, 1, 5, t, 'ceil')).to.throw(RangeError, /notional must be ≥ 0/);
  });

  it('charges_fees_exactly_below_and_above_2^53', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 0, max: 2 ** 22 }),
        fc.oneof(fc.bigInt({ min: -(10n ** 10n), max: 10n ** 10n }), fc.constantFrom(2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n)),
        (ticks, lots, per) => {
          expect(feeUnits(ticks, lots, per, perNumberOf(per))).to.equal(BigInt(ticks) * BigInt(lots) * per);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
