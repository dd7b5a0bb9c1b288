import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { riskTiersOf, tierForLeverage, tierForVol } from '../../../src/venue/contract/risk-tiers.js';
import { testInstrument } from './contract-test-kit.js';

const d = (v: string | number): Decimal => new Decimal(v);

describe('risk-tiers', () => {
  it('picks_the_first_tier_holding_the_size', () => {
    const tiers = riskTiersOf(testInstrument());
    expect(tierForVol(tiers, 1)!.level).to.equal(1);
    expect(tierForVol(tiers, 10000)!.level).to.equal(1);
    expect(tierForVol(tiers, 10001)!.level).to.equal(2);
    expect(tierForVol(tiers, 50000)!.level).to.equal(3);
    expect(tierForVol(tiers, 50001)).to.equal(undefined);
  });

  it('finds_the_leverage_level', () => {
    const tiers = riskTiersOf(testInstrument());
    expect(tierForLeverage(tiers, 100)!.level).to.equal(1);
    expect(tierForLeverage(tiers, 50)!.level).to.equal(2);
    expect(tierForLeverage(tiers, 20)!.level).to.equal(3);
    expect(tierForLeverage(tiers, 126)).to.equal(undefined);
  });

  it('derives_tiers_from_base_and_increment_when_none_are_listed', () => {
    const tiers = riskTiersOf(testInstrument({ riskTiers: [] }));
    // tier i: maxVol 10000 + (i−1)·10000, mmr 0.004 + (i−1)·0.006, imr 0.008 + (i−1)·0.012,
    // maxLeverage min(125, floor(1/imr)): 1/0.008 = 125, 1/0.02 = 50, 1/0.032 = 31.25 → 31
    expect(tiers.map((t) => t.maxVol.toString())).to.deep.equal(['10000', '20000', '30000']);
    expect(tiers.map((t) => t.mmr.toString())).to.deep.equal(['0.004', '0.01', '0.016']);
    expect(tiers.map((t) => t.maxLeverage)).to.deep.equal([125, 50, 31]);
    expect(tiers[2]!.imr.eq(d('0.032'))).to.equal(true);
  });
});
