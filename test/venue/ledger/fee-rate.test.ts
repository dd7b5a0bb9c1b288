import { expect } from 'chai';
import { feeOn, feeRate } from '../../../src/venue/ledger/fee-rate.js';

describe('feeRate', () => {
  it('takes_an_exact_fraction', () => {
    // 0.0005 × 123456 = 61.728 → rounded up to 62 units
    expect(feeOn(123_456n, feeRate('0.0005'))).to.equal(62n);
    // 0.001 × 50·10^18 = 5·10^16 exactly
    expect(feeOn(50n * 10n ** 18n, feeRate('0.001'))).to.equal(5n * 10n ** 16n);
  });

  it('charges_nothing_at_a_zero_rate_or_on_nothing', () => {
    expect(feeOn(1000n, feeRate('0'))).to.equal(0n);
    expect(feeOn(0n, feeRate('0.002'))).to.equal(0n);
  });

  it('never_takes_more_than_the_amount', () => {
    // 0.999 × 1 = 0.999 → ceil 1: capped at the amount itself
    expect(feeOn(1n, feeRate('0.999'))).to.equal(1n);
  });

  it('refuses_rates_outside_zero_to_one', () => {
    expect(() => feeRate('-0.001')).to.throw(RangeError);
    expect(() => feeRate('1')).to.throw(RangeError);
  });
});
