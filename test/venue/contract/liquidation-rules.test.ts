import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { positionId } from '../../../src/core/ids.js';
import { OpenType, PositionType } from '../../../src/domain/contract-enums.js';
import { ContractPosition } from '../../../src/venue/contract/contract-position.js';
import { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import {
  autoAddAmount,
  bankruptcyCloseTicks,
  crossMargin,
  crossSettlement,
  isCrossBreached,
  markCloseTicks,
  splitByWeight,
} from '../../../src/venue/contract/liquidation-rules.js';
import { testInstrument } from './contract-test-kit.js';

const d = (v: string | number): Decimal => new Decimal(v);
const spec = new ContractSpec(testInstrument());

/** 1000 contracts at 50000 with margin `im`. */
function position(type: PositionType, im: string, leverage = 10): ContractPosition {
  const p = new ContractPosition(positionId(1), spec, type, OpenType.ISOLATED, leverage, 0);
  p.open(1000, 500000);
  p.im = d(im);
  return p;
}

describe('liquidation-rules', () => {
  it('rounds_the_bankruptcy_price_towards_the_account', () => {
    // long: (5000 − 714.28571428)/0.1 = 42857.1428572 → up to 42857.2 (428572 ticks)
    expect(bankruptcyCloseTicks(position(PositionType.LONG, '714.28571428', 7))).to.equal(428572);
    // short: (5000 + 714.28571428)/0.1 = 57142.8571428 → down to 57142.8
    expect(bankruptcyCloseTicks(position(PositionType.SHORT, '714.28571428', 7))).to.equal(571428);
    // a fully margined long goes bankrupt at 0: the floor is one tick
    expect(bankruptcyCloseTicks(position(PositionType.LONG, '5000', 1))).to.equal(1);
  });

  it('rounds_the_mark_to_the_nearest_tick', () => {
    expect(markCloseTicks(spec, d('40190.74'))).to.equal(401907);
    expect(markCloseTicks(spec, d('40190.75'))).to.equal(401908);
  });

  it('sums_cross_equity_and_maintenance', () => {
    const p = position(PositionType.LONG, '500');
    // free 497 + im 500 + (0.1·40190.7 − 5000) = 16.07; maintenance 0.004·4019.07 = 16.07628
    const c = crossMargin(
      [p],
      d(497),
      d(0),
      () => d('40190.7'),
      () => d('0.004'),
    );
    expect(c.equity.toString()).to.equal('16.07');
    expect(c.maintenance.toString()).to.equal('16.07628');
    expect(isCrossBreached(c)).to.equal(true);
    expect(
      isCrossBreached(
        crossMargin(
          [],
          d(0),
          d(0),
          () => d(1),
          () => d(1),
        ),
      ),
    ).to.equal(false);
  });

  it('tops_up_to_the_initial_margin_at_the_fair_price', () => {
    // target 4518.07/10 = 451.807; balance 500 + 4518.07 − 5000 = 18.07 → 433.737
    expect(autoAddAmount(position(PositionType.LONG, '500'), d('45180.7'), d(10000), 8).toString()).to.equal('433.737');
    expect(autoAddAmount(position(PositionType.LONG, '500'), d('45180.7'), d(100), 8).toString()).to.equal('100');
    expect(autoAddAmount(position(PositionType.LONG, '500'), d(50000), d(10000), 8).toString()).to.equal('0');
  });

  it('settles_a_cross_liquidation_as_fee_or_cover', () => {
    expect(crossSettlement(d('16.07'), d('16.07628'))).to.deep.include({ cover: d(0) });
    expect(crossSettlement(d('16.07'), d('16.07628')).fee.toString()).to.equal('16.07');
    expect(crossSettlement(d(50), d(20)).fee.toString()).to.equal('20');
    expect(crossSettlement(d(-1003), d(20)).cover.toString()).to.equal('1003');
  });

  it('splits_an_amount_by_weight_exactly', () => {
    // 10 over weights 1:2 → 3.33333333 and the rest 6.66666667
    const parts = splitByWeight(d(10), [d(1), d(2)], 8);
    expect(parts.map((p) => p.toString())).to.deep.equal(['3.33333333', '6.66666667']);
    expect(splitByWeight(d(5), [d(0), d(0)], 8).map((p) => p.toString())).to.deep.equal(['5', '0']);
  });
});
