import { expect } from 'chai';
import { FundingAccumulator, fundingRateOf, nextSettleTime, resolveFundingConfig } from '../../../src/venue/market/funding-rate.js';

const cfg = resolveFundingConfig({}); // I 0.0001, c 0.0005, bounds ±0.0018, 8 h, 6 decimals
const H = 3_600_000;

describe('funding-rate', () => {
  it('pays_the_interest_rate_while_the_premium_is_within_the_band', () => {
    // P 0.0003: I − P = −0.0002, inside ±0.0005 → F = 0.0003 − 0.0002 = 0.0001
    expect(fundingRateOf(0.0003, cfg).toString()).to.equal('0.0001');
    // P −0.0002: I − P = 0.0003 → F = 0.0001
    expect(fundingRateOf(-0.0002, cfg).toString()).to.equal('0.0001');
  });

  it('damps_a_large_premium_by_the_band', () => {
    // P 0.002: I − P = −0.0019 → −0.0005 → F = 0.0015
    expect(fundingRateOf(0.002, cfg).toString()).to.equal('0.0015');
    // P −0.001: I − P = 0.0011 → 0.0005 → F = −0.0005
    expect(fundingRateOf(-0.001, cfg).toString()).to.equal('-0.0005');
  });

  it('clamps_to_the_min_and_max_funding_rate', () => {
    // P 0.003 → 0.0025 → max 0.0018; P −0.004 → −0.0035 → min −0.0018
    expect(fundingRateOf(0.003, cfg).toString()).to.equal('0.0018');
    expect(fundingRateOf(-0.004, cfg).toString()).to.equal('-0.0018');
  });

  it('settles_on_utc_multiples_of_the_cycle', () => {
    expect(nextSettleTime(Date.UTC(2025, 11, 31, 19, 48), 8)).to.equal(1767225600000); // the capture's nextSettleTime
    expect(nextSettleTime(Date.UTC(2026, 0, 1, 8), 8)).to.equal(Date.UTC(2026, 0, 1, 16));
  });

  it('averages_the_premium_over_time_and_settles_each_cycle', () => {
    const acc = new FundingAccumulator(cfg);
    const t0 = Date.UTC(2026, 0, 1, 4); // cycle runs to 08:00
    expect(acc.sample(t0, 0.002)).to.deep.equal([]);
    // 0.002 for 1 h, then 0.004 for 3 h: P̄ = (0.002·1 + 0.004·3) / 4 = 0.0035 → 0.0035 − 0.0005 = 0.003 → max 0.0018
    expect(acc.sample(t0 + H, 0.004)).to.deep.equal([]);
    // Estimate after 1 h of 0.002 only: 0.002 − 0.0005 = 0.0015
    expect(acc.estimate().toString()).to.equal('0.0015');
    const settled = acc.sample(t0 + 5 * H, 0);
    expect(settled.map((x) => [x.settleTime, x.rate.toString()])).to.deep.equal([[Date.UTC(2026, 0, 1, 8), '0.0018']]);
    // Next cycle: 0.004 from 08:00 to 09:00 (the last sample before it), then 0: P̄ = 0.004 → F = 0.0018 estimate.
    expect(acc.averagePremium()).to.be.closeTo(0.004, 1e-15);
    expect(acc.nextSettleTime()).to.equal(Date.UTC(2026, 0, 1, 16));
  });

  it('settles_every_cycle_a_long_gap_crosses', () => {
    const acc = new FundingAccumulator(cfg);
    acc.sample(Date.UTC(2026, 0, 1, 7), 0.0003);
    const settled = acc.sample(Date.UTC(2026, 0, 2, 1), 0.0003);
    expect(settled.map((x) => [new Date(x.settleTime).toISOString(), x.rate.toString()])).to.deep.equal([
      ['2026-01-01T08:00:00.000Z', '0.0001'],
      ['2026-01-01T16:00:00.000Z', '0.0001'],
      ['2026-01-02T00:00:00.000Z', '0.0001'],
    ]);
  });
});
