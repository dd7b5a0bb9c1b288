import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { PositionType } from '../../../src/domain/contract-enums.js';
import { nextFundingTime, positionFunding } from '../../../src/venue/contract/funding-schedule.js';

describe('funding-schedule', () => {
  it('aligns_settle_times_to_multiples_of_the_cycle', () => {
    const h8 = 8 * 3_600_000;
    expect(nextFundingTime(0, h8)).to.equal(h8);
    expect(nextFundingTime(h8 - 1, h8)).to.equal(h8);
    // exactly on a settle time: the next one
    expect(nextFundingTime(h8, h8)).to.equal(2 * h8);
  });

  it('makes_longs_pay_and_shorts_receive_on_a_positive_rate', () => {
    // value 5000 · 0.0001 = 0.5
    expect(positionFunding(PositionType.LONG, new Decimal(5000), new Decimal('0.0001')).toString()).to.equal('-0.5');
    expect(positionFunding(PositionType.SHORT, new Decimal(5000), new Decimal('0.0001')).toString()).to.equal('0.5');
    expect(positionFunding(PositionType.LONG, new Decimal(5000), new Decimal('-0.0001')).toString()).to.equal('0.5');
  });

  it('refuses_a_non_positive_interval', () => {
    expect(() => nextFundingTime(0, 0)).to.throw(RangeError);
  });
});
