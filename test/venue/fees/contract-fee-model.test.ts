import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import type { ContractInstrument } from '../../../src/domain/instrument.js';
import { ContractFeeModel, type ContractFeeModelOptions } from '../../../src/venue/fees/contract-fee-model.js';
import type { ContractFeeOverride } from '../../../src/venue/fees/contract-fee-schedule.js';
import { makeKit, placed, S, SYMBOL, testInstrument, type Kit } from '../contract/contract-test-kit.js';

const DAY = 86_400_000;
const d = (v: string | number) => new Decimal(v);

/**
 * BTC_USDT of the contract kit: contractSize 0.0001, base taker 0.0006 / maker 0.0002. At 50 000 one
 * contract trades 0.0001 × 50 000 = 5 USDT, so 1000 contracts = 5000 USDT of traded amount.
 */
function arrange(
  override: ContractFeeOverride,
  extra: Partial<ContractFeeModelOptions> = {},
  instrument: ContractInstrument = testInstrument(),
): { kit: Kit; model: ContractFeeModel } {
  let model!: ContractFeeModel;
  const kit = makeKit({ autoFunding: false, feeRates: (a, i) => model.feeRates(a, i) }, instrument);
  model = new ContractFeeModel({
    clock: kit.clock,
    instruments: [instrument],
    overrides: { [SYMBOL]: override },
    leverageOf: (a, s) => Math.max(...kit.venue.leverage(a, s).map((r) => r.leverage)),
    ...extra,
  });
  kit.venue.on(model.observe);
  for (const a of ['alice', 'bob', 'carol']) kit.venue.deposit(a, 'USDT', 100000);
  kit.venue.setFairPrice(SYMBOL, 50000);
  return { kit, model };
}

/** bob rests a short of `vol` at 50 000, alice takes it with a long; answers both orders' fees. */
function trade(kit: Kit, vol: number, taker = 'alice', leverage = 10): { takerFee: string; makerFee: string } {
  const maker = placed(kit.venue, 'bob', { side: S.OPEN_SHORT, vol, price: 50000 });
  const t = placed(kit.venue, taker, { side: S.OPEN_LONG, vol, price: 50000, leverage });
  return { takerFee: t.takerFee.toFixed(), makerFee: kit.venue.getOrder('bob', maker.orderId)!.makerFee.toFixed() };
}

const TIERS: ContractFeeOverride = {
  feeRateMode: 'TIERED',
  tieredFeeRates: [
    { takerFeeRate: d('0.0006'), makerFeeRate: d('0.0002'), minTieredDealAmount: d(0), maxTieredDealAmount: d(10000) },
    { takerFeeRate: d('0.0004'), makerFeeRate: d('0.0001'), minTieredDealAmount: d(10000) },
  ],
};

describe('ContractFeeModel', () => {
  it('moves_a_tiered_fee_to_the_next_tier_once_the_30_day_amount_crosses_the_boundary', () => {
    const { kit, model } = arrange(TIERS);
    // 1st: amount before 0 → tier 1: taker 5000 × 0.0006 = 3, maker 5000 × 0.0002 = 1
    expect(trade(kit, 1000)).to.deep.equal({ takerFee: '3', makerFee: '1' });
    kit.clock.advanceBy(DAY);
    // 2nd: amount before 5000 < 10000 → still tier 1
    expect(trade(kit, 1000)).to.deep.equal({ takerFee: '3', makerFee: '1' });
    expect(model.dealAmount('alice', model.schedule(SYMBOL)!).toFixed()).to.equal('10000');
    kit.clock.advanceBy(DAY);
    // 3rd: amount before 10000 ≥ boundary → tier 2: taker 5000 × 0.0004 = 2, maker 5000 × 0.0001 = 0.5
    expect(trade(kit, 1000)).to.deep.equal({ takerFee: '2', makerFee: '0.5' });
    expect(model.quote('alice', SYMBOL).tier).to.equal(1);
    expect(kit.problems).to.deep.equal([]);
  });

  it('moves_a_tiered_fee_to_the_next_tier_within_one_millisecond_once_the_fills_cross_the_boundary', () => {
    // The clock does not move: only the fills themselves can change the rate the cache answers.
    const { kit } = arrange(TIERS);
    expect(trade(kit, 1000)).to.deep.equal({ takerFee: '3', makerFee: '1' });
    expect(trade(kit, 1000)).to.deep.equal({ takerFee: '3', makerFee: '1' });
    expect(trade(kit, 1000)).to.deep.equal({ takerFee: '2', makerFee: '0.5' });
  });

  it('falls_back_a_tier_when_old_fills_leave_the_rolling_window', () => {
    const { kit, model } = arrange(TIERS);
    const t0 = kit.clock.now();
    trade(kit, 1000);
    kit.clock.advanceTo(t0 + DAY);
    trade(kit, 1000);
    kit.clock.advanceTo(t0 + 2 * DAY);
    trade(kit, 1000);
    // at t0 + 31 days the window (t0 + 1 day, now] holds only the 3rd fill: 5000 → tier 1 again
    kit.clock.advanceTo(t0 + 31 * DAY);
    expect(model.dealAmount('alice', model.schedule(SYMBOL)!).toFixed()).to.equal('5000');
    expect(trade(kit, 1000).takerFee).to.equal('3');
  });

  it('counts_a_fixed_statistic_window_only', () => {
    const start = 1_000 + DAY;
    const { kit, model } = arrange({ ...TIERS, tiered: { statisticType: 'FIXED', fixedStartTime: start, fixedEndTime: start + 10 * DAY } });
    trade(kit, 2000); // before the window: not counted
    kit.clock.advanceTo(start);
    trade(kit, 1000); // 5000 counted
    expect(model.dealAmount('alice', model.schedule(SYMBOL)!).toFixed()).to.equal('5000');
  });

  it('charges_the_leverage_tier_of_the_account', () => {
    const { kit } = arrange({
      feeRateMode: 'LEVERAGE',
      leverageFeeRates: [
        { minLeverage: 1, maxLeverage: 20, takerFeeRate: d('0.0002'), makerFeeRate: d(0) },
        { minLeverage: 21, takerFeeRate: d('0.0008'), makerFeeRate: d('0.0001') },
      ],
    });
    kit.venue.changeLeverage('carol', { leverage: 50, symbol: SYMBOL, openType: 1, positionType: 1 });
    // alice at 10× (tier 1): 5000 × 0.0002 = 1; carol set 50× (tier 2): 5000 × 0.0008 = 4
    expect(trade(kit, 1000, 'alice', 10).takerFee).to.equal('1');
    expect(trade(kit, 1000, 'carol', 50).takerFee).to.equal('4');
  });

  it('charges_nothing_on_a_zero_fee_contract', () => {
    const { kit } = arrange(TIERS, {}, testInstrument({ takerFeeRate: d(0), makerFeeRate: d(0), isZeroFee: true }));
    expect(trade(kit, 1000)).to.deep.equal({ takerFee: '0', makerFee: '0' });
  });

  it('applies_the_deduction_discount_and_reports_what_it_saved', () => {
    const { kit, model } = arrange(
      {},
      { deductConfigs: [{ deductCoin: 'MX', settleCoin: 'USDT', discountRatio: d('0.2') }], deductEnabled: (a) => a === 'alice' },
    );
    // alice: 3 × (1 − 0.2) = 2.4; bob has no deduction: 1
    expect(trade(kit, 1000)).to.deep.equal({ takerFee: '2.4', makerFee: '1' });
    const totals = model.feeTotals('alice');
    expect([totals.totalFee.toFixed(), totals.saveFee.toFixed()]).to.deep.equal(['2.4', '0.6']);
    const fill = kit.venue.fills('alice').resultList[0]!;
    const ded = model.fillDeduction('alice', String(fill.tradeId), 'USDT');
    expect([ded.deductType, ded.deductFee.toFixed()]).to.deep.equal([1, '0.6']);
    expect(model.fillDeduction('bob', String(fill.tradeId), 'USDT').deductType).to.equal(0);
  });

  it('follows_the_deduction_switch_of_an_account_from_one_order_to_the_next', () => {
    let on = false;
    const { kit } = arrange(
      {},
      { deductConfigs: [{ deductCoin: 'MX', settleCoin: 'USDT', discountRatio: d('0.2') }], deductEnabled: (a) => a === 'alice' && on },
    );
    expect(trade(kit, 1000).takerFee).to.equal('3');
    on = true;
    // same millisecond: 3 × (1 − 0.2) = 2.4
    expect(trade(kit, 1000).takerFee).to.equal('2.4');
  });

  it('applies_a_volume_discount_level', () => {
    const { kit, model } = arrange(
      {},
      {
        discountConfigs: [
          {
            id: 1,
            currency: 'USDT',
            enabled: true,
            levels: [{ level: 1, volMin: d(4000), day: 30, discount: d('0.1') }],
            excludedSymbols: [],
            createTime: 0,
            updateTime: 0,
          },
        ],
      },
    );
    // no volume yet: level not reached → 3
    expect(trade(kit, 1000).takerFee).to.equal('3');
    // 5000 ≥ 4000 → 3 × 0.9 = 2.7
    expect(trade(kit, 1000).takerFee).to.equal('2.7');
    expect(model.quote('alice', SYMBOL).discountLevel).to.equal(1);
  });

  it('leaves_exempt_accounts_free', () => {
    const { model } = arrange(TIERS, { exempt: (a) => a.startsWith('crowd-') });
    const r = model.feeRates('crowd-x', testInstrument());
    expect([r.maker.toFixed(), r.taker.toFixed()]).to.deep.equal(['0', '0']);
  });
});
