/**
 * What a position view reads from ContractPosition, now partly without decimal.js (issue 12: the
 * position views of a fill were half of a listened maker+taker cycle): `realised()` summed in ledger
 * units, and the three average prices remembered between fills. Each against the Decimal formula it
 * replaced, written out here (closePnl − totalFee + holdFee; tick · cost / lots), field by field,
 * after every step of random opens, closes and amounts — including amounts finer than the units
 * (the cells' Decimal form) and sums too long for 40 digits, where the Decimal path must decide.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal } from '../../../src/core/decimal.js';
import { positionId } from '../../../src/core/ids.js';
import { OpenType, PositionType } from '../../../src/domain/contract-enums.js';
import { ContractPosition } from '../../../src/venue/contract/contract-position.js';
import { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import { testInstrument } from './contract-test-kit.js';

const spec = new ContractSpec(testInstrument());
const fields = (x: Decimal): string => JSON.stringify(Object.entries(x));

/** An amount: whole units mostly, sometimes finer than 10^-18 (a Decimal cell), sometimes huge. */
const amount = fc.oneof(
  fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }).map((u) => new Decimal(`${u}e-18`)),
  fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }).map((u) => new Decimal(`${u}e-21`)),
  fc.bigInt({ min: -(10n ** 45n), max: 10n ** 45n }).map((u) => new Decimal(`${u}e-18`)),
);

const step = fc.record({
  open: fc.boolean(),
  lots: fc.constantFrom(1, 2, 5, 10),
  ticks: fc.integer({ min: 1, max: 2_000_000 }),
  pnl: amount,
  fee: amount,
  funding: amount,
  /** Whether the averages are read after this step (not always: a remembered one must survive fills it did not see). */
  look: fc.boolean(),
});

describe('position-views', () => {
  it('realised_and_average_prices_are_the_decimal_formulas', function () {
    this.timeout(20_000);
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const p = new ContractPosition(positionId(1), spec, PositionType.LONG, OpenType.CROSS, 10, 0);
        for (const s of steps) {
          if (s.open || p.holdLots === 0) p.open(s.lots, s.ticks);
          else p.close(Math.min(s.lots, p.holdLots), s.ticks);
          p.closePnl = s.pnl;
          p.totalFeeCell.set(s.fee);
          p.holdFee = s.funding;
          expect(fields(p.realised())).to.equal(fields(s.pnl.sub(s.fee).add(s.funding)));
          const avg = (cost: bigint, lots: number): string =>
            fields(lots === 0 ? new Decimal(0) : spec.tick.mul(cost.toString()).div(lots));
          // Twice each: the second answer is the remembered one.
          for (let i = 0; s.look && i < 2; i++) {
            expect(fields(p.holdAvgPrice())).to.equal(avg(p.holdCost, p.holdLots));
            expect(fields(p.openAvgPrice())).to.equal(avg(p.openCost, p.openedLots));
            expect(fields(p.closeAvgPrice())).to.equal(avg(p.closeCost, p.closedLots));
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
