/**
 * The contract's grids without decimal.js in the hot path (step-grid.ts, ContractSpec's conversions,
 * money-cell's decimalOfUnits) against the Decimal formulas they replace, which are written out here
 * independently: `toUnits(D(v), step, 'exact')` behind a positivity check (parseTicks / parseLots
 * before), `step.mul(n.toString())`, `tick.mul(units).div(lots)`, `toDecimalPlaces(places, HALF_UP)`
 * and ledger-units' `unitsToDecimal`. Decimals are compared field by field (sign, exponent, digit
 * words), not only by value: the venue's views are deep-compared, so the canonical form must match too.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { D, Decimal, toUnits } from '../../../src/core/decimal.js';
import { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import { decimalOfUnits } from '../../../src/venue/contract/money-cell.js';
import { parseLots, parseTicks } from '../../../src/venue/contract/order-validation.js';
import { StepGrid } from '../../../src/venue/contract/step-grid.js';
import { unitsToDecimal } from '../../../src/venue/ledger/ledger-units.js';
import { testInstrument } from './contract-test-kit.js';

const STEPS = ['0.1', '0.5', '0.25', '1', '5', '2.5', '10', '0.001', '0.00001', '0.0000001', '0.000025', '0.3'];

/** decimal.js's own fields, in their order: two Decimals are the same canonical value when these match. */
const fields = (x: Decimal): string => JSON.stringify(Object.entries(x));

/** parseTicks / parseLots as they were: the exact Decimal division, undefined for anything not a positive multiple. */
function exactSteps(v: unknown, step: Decimal): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  let p: Decimal;
  try {
    p = D(v as Decimal | string | number);
  } catch {
    return undefined;
  }
  if (!p.isFinite() || !p.gt(0)) return undefined;
  try {
    return toUnits(p, step, 'exact');
  } catch {
    return undefined;
  }
}

/** A value near n steps: on the grid as a Decimal or as a number (the double nearest to it), or just off it. */
const inputOf = (step: Decimal) =>
  fc
    .tuple(
      fc.oneof(fc.integer({ min: -3, max: 3_000_000 }), fc.integer({ min: 1, max: 2 ** 53 - 1 }), fc.constantFrom(0, 1, 2, 999_999)),
      fc.constantFrom('decimal', 'number', 'string', 'off-decimal', 'off-number', 'double', 'off-tiny', 'scaled'),
      fc.double({ noNaN: false }),
    )
    .map(([n, kind, x]): unknown => {
      const exact = step.mul(n);
      switch (kind) {
        case 'decimal':
          return exact;
        case 'number':
          return exact.toNumber();
        case 'string':
          return exact.toString();
        case 'off-decimal':
          return exact.add(step.div(7));
        case 'off-number':
          return exact.toNumber() * (1 + 2 ** -52);
        case 'off-tiny':
          // Off the grid by one unit of the 20th or 30th decimal (digit words far below the step's).
          return exact.add(new Decimal(n % 2 === 0 ? '1e-20' : '1e-30'));
        case 'scaled':
          // On the grid or not, with digit words above the step's (n · 10^k steps, and 10^k steps plus a tenth).
          return exact.mul(new Decimal(10).pow(Math.abs(n) % 9)).add(n % 3 === 0 ? step.div(10) : 0);
        default:
          return x;
      }
    });

describe('step-grid', () => {
  for (const text of STEPS) {
    const step = new Decimal(text);

    it(`exactSteps_answers_only_what_the_exact_division_answers_step_${text}`, () => {
      const grid = new StepGrid(step);
      let answered = 0;
      let onGrid = 0;
      fc.assert(
        fc.property(inputOf(step), (v) => {
          const fast = grid.exactSteps(v);
          const exact = exactSteps(v, step);
          if (fast !== undefined) expect(fast, String(v)).to.equal(exact);
          if (exact !== undefined && exact < 1e12 && typeof v !== 'string') {
            onGrid++;
            if (fast !== undefined) answered++;
          }
        }),
        { numRuns: 3000 },
      );
      // Not vacuous: the division-free answer covers nearly every on-grid Decimal and number of ordinary size.
      expect(answered / onGrid).to.be.greaterThan(0.95);
    });

    it(`valueOf_is_the_decimal_product_field_by_field_step_${text}`, () => {
      const grid = new StepGrid(step);
      fc.assert(
        fc.property(fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 2 ** 53 - 1 })), (n) => {
          expect(fields(grid.valueOf(n))).to.equal(fields(step.mul(n.toString())));
          // Remembered: the same Decimal again.
          expect(grid.valueOf(n)).to.equal(grid.valueOf(n));
          // Its double, as decimal.js gives it (the liquidation ladders' key of a last-trade mark).
          expect(grid.numberOf(n)).to.equal(step.mul(n.toString()).toNumber());
        }),
        { numRuns: 6000 },
      );
    });
  }

  it('exactSteps_of_decimal_text_answers_what_the_exact_division_answers', () => {
    // Text as wire requests carry it (plain digits and a point: toFixed, leading and trailing zeros), on the
    // grid, off it by a digit past the step's, and forms the text shortcut leaves to the exact path (sign,
    // exponent, spaces, a bare point, 16 or more digits).
    const textOf = fc.tuple(
      fc.oneof(fc.integer({ min: -3, max: 3_000_000 }), fc.integer({ min: 1, max: 2 ** 53 - 1 })),
      fc.constantFrom('fixed', 'zeros', 'off', 'sign', 'exp', 'space', 'point', 'bare'),
    );
    let answered = 0;
    let onGrid = 0;
    for (const text of STEPS) {
      const step = new Decimal(text);
      const grid = new StepGrid(step);
      fc.assert(
        fc.property(textOf, ([n, kind]) => {
          const exact = step.mul(n);
          const v =
            kind === 'fixed'
              ? exact.toFixed()
              : kind === 'zeros'
                ? `00${exact.toFixed(exact.decimalPlaces() + 2)}`
                : kind === 'off'
                  ? exact.add(step.div(10 ** (1 + (Math.abs(n) % 3)))).toFixed()
                  : kind === 'sign'
                    ? `+${exact.toFixed()}`
                    : kind === 'exp'
                      ? exact.toExponential()
                      : kind === 'space'
                        ? ` ${exact.toFixed()}`
                        : kind === 'point'
                          ? `${exact.toFixed()}.`
                          : `.${Math.abs(n)}`;
          const fast = grid.exactSteps(v);
          const slow = exactSteps(v, step);
          if (fast !== undefined) expect(fast, v).to.equal(slow);
          if (slow !== undefined && (kind === 'fixed' || kind === 'zeros') && v.length <= 15) {
            onGrid++;
            if (fast !== undefined) answered++;
          }
        }),
        { numRuns: 1500 },
      );
    }
    // Not vacuous: short on-grid text is answered without decimal.js.
    expect(answered / onGrid).to.be.greaterThan(0.95);
  });

  it('a_grid_restored_from_a_snapshot_written_before_its_exponent_field_answers_the_same', () => {
    // The emulator's snapshot restores a grid's own fields without running its constructor: one written
    // before `exponent` existed has none, and exactSteps must give the same answers through its older test.
    for (const text of STEPS) {
      const step = new Decimal(text);
      const grid = new StepGrid(step);
      const old = Object.create(StepGrid.prototype) as StepGrid;
      for (const [k, v] of Object.entries(grid)) if (k !== 'exponent') (old as unknown as Record<string, unknown>)[k] = v;
      expect(Object.keys(grid)).to.include('exponent');
      fc.assert(
        fc.property(inputOf(step), (v) => {
          expect(old.exactSteps(v), String(v)).to.equal(grid.exactSteps(v));
        }),
        { numRuns: 1000 },
      );
    }
  });

  it('parseTicks_and_parseLots_agree_with_the_exact_division', () => {
    for (const [tick, lot] of [
      ['0.1', '1'],
      ['0.5', '0.001'],
      ['0.00001', '10'],
    ] as const) {
      const spec = new ContractSpec(testInstrument({ priceUnit: D(tick), volUnit: D(lot) }));
      fc.assert(
        fc.property(inputOf(spec.tick), inputOf(spec.lot), (price, vol) => {
          expect(parseTicks(spec, price as Decimal), `price ${String(price)}`).to.equal(exactSteps(price, spec.tick));
          expect(parseLots(spec, vol as Decimal), `vol ${String(vol)}`).to.equal(exactSteps(vol, spec.lot));
        }),
        { numRuns: 2000 },
      );
    }
  });

  it('averagePrice_and_displayPrice_are_the_decimal_formulas_field_by_field', () => {
    const spec = new ContractSpec(testInstrument({ priceUnit: D('0.5'), priceScale: 1 }));
    const places = Math.max(spec.instrument.priceScale, spec.tick.decimalPlaces());
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.boolean(),
        (ticks, lots, extra, onePrice) => {
          // One price (the usual order) or two, so the average is off the tick as often as on it.
          const units = BigInt(ticks) * BigInt(lots) + (onePrice ? 0n : BigInt(extra));
          const avg = spec.averagePrice(units, lots);
          expect(fields(avg)).to.equal(fields(spec.tick.mul(units.toString()).div(lots)));
          expect(fields(spec.displayPrice(avg))).to.equal(fields(avg.toDecimalPlaces(places, Decimal.ROUND_HALF_UP)));
        },
      ),
      { numRuns: 3000 },
    );
    expect(fields(spec.averagePrice(0n, 0))).to.equal(fields(new Decimal(0)));
  });

  it('decimalOfUnits_is_unitsToDecimal_field_by_field', () => {
    const units = fc
      .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: 0, max: 30 }), fc.bigInt({ min: -99n, max: 99n }))
      .map(([a, zeros, b]) => [a, a * 10n ** BigInt(zeros), a * 10n ** BigInt(zeros) + b, BigInt(zeros) - 15n]);
    fc.assert(
      fc.property(units, (values) => {
        for (const u of values) expect(fields(decimalOfUnits(u)), String(u)).to.equal(fields(unitsToDecimal(u)));
      }),
      { numRuns: 5000 },
    );
    // Every word boundary: 1 and 10^k ± 1 around the 10^-18 point and the 10^7 words.
    for (let k = 0n; k <= 40n; k++)
      for (const u of [10n ** k, 10n ** k - 1n, 10n ** k + 1n, -(10n ** k)])
        expect(fields(decimalOfUnits(u))).to.equal(fields(unitsToDecimal(u)));
  });
});
