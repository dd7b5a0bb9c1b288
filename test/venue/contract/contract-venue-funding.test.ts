import { expect } from 'chai';
import { OpenType, PositionType } from '../../../src/domain/contract-enums.js';
import type { FundingSettled } from '../../../src/venue/contract/contract-events.js';
import { makeKit, placed, S, SYMBOL, type Kit } from './contract-test-kit.js';

const money = (v: { toString(): string }): string => v.toString();

function assertClean(kit: Kit): void {
  expect(kit.problems).to.deep.equal([]);
  expect(kit.venue.checkInvariants()).to.deep.equal([]);
}

/** alice long 1000 @ 50000 isolated 10x, bob short the same, cross; fair 50000; funding every hour. */
function arrange(): Kit {
  const kit = makeKit({ fundingIntervalMs: 3_600_000 });
  const { venue } = kit;
  venue.deposit('alice', 'USDT', 10000);
  venue.deposit('bob', 'USDT', 10000);
  venue.setFairPrice(SYMBOL, 50000);
  placed(venue, 'bob', { side: S.OPEN_SHORT, vol: 1000, price: 50000, openType: OpenType.CROSS });
  placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000 });
  return kit;
}

describe('ContractVenue funding', () => {
  it('settles_on_the_clock_longs_paying_shorts_on_a_positive_rate', () => {
    const kit = arrange();
    const { venue, clock } = kit;
    venue.setFundingRate(SYMBOL, '0.0001');
    // the clock starts at 1000 ms: first settle time is the next whole hour, 3 600 000
    expect(venue.fundingRate(SYMBOL).nextSettleTime).to.equal(3_600_000);
    clock.advanceTo(3_599_999);
    expect(kit.events.some((e) => e.type === 'FundingSettled')).to.equal(false);
    clock.advanceTo(3_600_000);
    // value 1000 · 0.0001 · 50000 = 5000; funding 5000 · 0.0001 = 0.5
    const long = venue.openPositions('alice')[0]!;
    expect(money(long.holdFee)).to.equal('-0.5');
    expect(money(long.im)).to.equal('499.5'); // isolated: paid from the position margin
    const short = venue.openPositions('bob')[0]!;
    expect(money(short.holdFee)).to.equal('0.5');
    // bob (cross, maker) had 10000 − 500 − maker fee 1 = 9499 free; receives 0.5 into it
    expect(money(venue.asset('bob', 'USDT')!.availableBalance)).to.equal('9499.5');
    const rec = venue.fundingRecords('alice').resultList[0]!;
    expect(rec.positionType).to.equal(PositionType.LONG);
    expect(money(rec.positionValue)).to.equal('5000');
    expect(money(rec.funding)).to.equal('-0.5');
    expect(money(rec.rate)).to.equal('0.0001');
    expect(rec.settleTime).to.equal(3_600_000);
    expect(venue.fundingRate(SYMBOL).nextSettleTime).to.equal(7_200_000);
    const settled = kit.events.filter((e): e is FundingSettled => e.type === 'FundingSettled');
    expect(settled.length).to.equal(1);
    expect(settled[0]!.records.length).to.equal(2);
    // realised on the position includes funding: −fee 3 − 0.5
    expect(money(long.realised)).to.equal('-3.5');
    assertClean(kit);
  });

  it('makes_shorts_pay_on_a_negative_rate_at_the_current_fair_price', () => {
    const kit = arrange();
    const { venue, clock } = kit;
    venue.setFundingRate(SYMBOL, '-0.0002');
    venue.setFairPrice(SYMBOL, 51000);
    clock.advanceTo(3_600_000);
    // value 0.1 · 51000 = 5100; 5100 · 0.0002 = 1.02: alice receives into im, bob pays from free
    expect(money(venue.openPositions('alice')[0]!.im)).to.equal('501.02');
    // bob: 9499 − 1.02 = 9497.98 free; availableBalance also subtracts his cross loss (51000 − 50000)·0.1 = 100
    expect(money(venue.openPositions('bob')[0]!.holdFee)).to.equal('-1.02');
    expect(money(venue.asset('bob', 'USDT')!.availableBalance)).to.equal('9397.98');
    expect(venue.fundingHistory(SYMBOL).resultList[0]!.fundingRate.toString()).to.equal('-0.0002');
    assertClean(kit);
  });

  it('settles_every_cycle_and_clamps_the_rate', () => {
    const kit = arrange();
    const { venue, clock } = kit;
    venue.setFundingRate(SYMBOL, '0.5'); // clamped to maxFundingRate 0.0018
    expect(money(venue.fundingRate(SYMBOL).fundingRate)).to.equal('0.0018');
    clock.advanceTo(3 * 3_600_000);
    // three settlements of 5000 · 0.0018 = 9 each
    expect(venue.fundingRecords('alice').totalCount).to.equal(3);
    expect(money(venue.openPositions('alice')[0]!.holdFee)).to.equal('-27');
    assertClean(kit);
  });

  it('pays_the_insurance_fund_for_positions_it_holds', () => {
    const kit = arrange();
    const { venue, clock } = kit;
    venue.setFairPrice(SYMBOL, 45000); // alice liquidated → the fund is long 1000 @ 45000
    venue.setFairPrice(SYMBOL, 46000);
    venue.setFundingRate(SYMBOL, '0.0001');
    clock.advanceTo(3_600_000);
    // the fund pays 0.1 · 46000 · 0.0001 = 0.46 from its balance of 1000
    expect(money(venue.insuranceFund('USDT').available)).to.equal('999.54');
    assertClean(kit);
  });

  it('can_run_without_timers_and_settle_on_demand', () => {
    const kit = makeKit({ autoFunding: false });
    const { venue, clock } = kit;
    venue.deposit('alice', 'USDT', 10000);
    venue.deposit('bob', 'USDT', 10000);
    venue.setFairPrice(SYMBOL, 50000);
    placed(venue, 'bob', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000 });
    venue.setFundingRate(SYMBOL, '0.0001');
    clock.advanceTo(10 * 3_600_000);
    expect(venue.fundingRecords('alice').totalCount).to.equal(0);
    expect(venue.settleFunding(SYMBOL).length).to.equal(2);
    assertClean(kit);
  });
});
