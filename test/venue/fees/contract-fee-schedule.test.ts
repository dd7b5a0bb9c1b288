import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import {
  contractFeeSchedule,
  countsTowards,
  leverageTierIndex,
  scheduleRate,
  tierIndexForAmount,
  DEFAULT_TIERED_SETTINGS,
} from '../../../src/venue/fees/contract-fee-schedule.js';
import { testInstrument } from '../contract/contract-test-kit.js';

const d = (v: string | number) => new Decimal(v);
const tiers = [
  { takerFeeRate: d('0.0006'), makerFeeRate: d('0.0002'), minTieredDealAmount: d(1000), maxTieredDealAmount: d(10000) },
  { takerFeeRate: d('0.0004'), makerFeeRate: d('0.0001'), minTieredDealAmount: d(10000) },
];

describe('contract fee schedule', () => {
  it('picks_the_tier_with_min_inclusive_and_max_exclusive', () => {
    expect([d(999), d(1000), d(9999.99), d(10000), d(1e9)].map((a) => tierIndexForAmount(tiers, a))).to.deep.equal([-1, 0, 0, 1, 1]);
  });

  it('uses_the_base_rates_below_the_first_tier', () => {
    const s = contractFeeSchedule(testInstrument(), { feeRateMode: 'TIERED', tieredFeeRates: tiers });
    const r = scheduleRate(s, { dealAmount: d(10) });
    expect([r.tier, r.taker.toFixed(), r.maker.toFixed()]).to.deep.equal([-1, '0.0006', '0.0002']);
  });

  it('picks_the_leverage_tier_with_inclusive_bounds', () => {
    const lev = [
      { minLeverage: 1, maxLeverage: 20, takerFeeRate: d(1), makerFeeRate: d(1) },
      { minLeverage: 21, takerFeeRate: d(2), makerFeeRate: d(2) },
    ];
    expect([1, 20, 21, 125].map((l) => leverageTierIndex(lev, l))).to.deep.equal([0, 0, 1, 1]);
  });

  it('counts_turnover_by_the_appointed_and_excluded_contracts', () => {
    const only = { ...DEFAULT_TIERED_SETTINGS, appointContract: true, contracts: ['ETH_USDT'] };
    const except = { ...only, excludeContractIds: true };
    expect([
      countsTowards(only, 'ETH_USDT', false),
      countsTowards(only, 'BTC_USDT', false),
      countsTowards(except, 'ETH_USDT', false),
      countsTowards(except, 'BTC_USDT', false),
    ]).to.deep.equal([true, false, false, true]);
    expect(countsTowards(DEFAULT_TIERED_SETTINGS, 'SOL_USDT', true)).to.equal(false);
  });
});
