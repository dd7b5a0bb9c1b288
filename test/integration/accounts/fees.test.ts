import { expect } from 'chai';
import type { ContractClient } from '../../../src/client/contract-client.js';
import type { SpotClient } from '../../../src/client/spot-client.js';
import { CONTRACT_PRESETS } from '../../../src/emulator/config/instrument-presets.js';
import { startAccountsKit, type AccountsKit } from './support/accounts-kit.js';

/**
 * Fees over HTTP. BTC_USDT is TIERED: below 10 000 USDT of 30-day traded amount taker 0.0006 / maker
 * 0.0002, from 10 000 taker 0.0004 / maker 0.0001. At 87 500 one contract (0.0001 BTC) trades 8.75 USDT,
 * so 600 contracts = 5250 USDT. ETH_USDT is LEVERAGE (1–20×: taker 0.0002, 21× up: taker 0.0008);
 * SOL_USDT (a BTC_USDT copy) charges nothing.
 */
const CONFIG = {
  instruments: {
    spot: [
      'BTCUSDT',
      {
        symbol: 'MXUSDT',
        baseAsset: 'MX',
        quoteAsset: 'USDT',
        baseAssetPrecision: 2,
        quotePrecision: 4,
        minQuantity: '0.01',
        minQuoteAmount: '1',
        maxQuoteAmount: '1000000',
        makerCommission: '0.001',
        takerCommission: '0.002',
      },
    ],
    contract: [
      'BTC_USDT',
      'ETH_USDT',
      {
        ...CONTRACT_PRESETS.BTC_USDT!,
        symbol: 'SOL_USDT',
        id: 12,
        baseCoin: 'SOL',
        displayName: 'SOL_USDT',
        displayNameEn: 'SOL_USDT PERPETUAL',
        takerFeeRate: '0',
        makerFeeRate: '0',
      },
    ],
  },
  market: { source: 'synthetic' as const, underlyings: { MX: { price: '2.5' }, SOL: { price: '87500' } } },
  fees: {
    contractSchedules: {
      BTC_USDT: {
        feeRateMode: 'TIERED' as const,
        tieredFeeRates: [
          { takerFeeRate: '0.0006', makerFeeRate: '0.0002', minTieredDealAmount: '0', maxTieredDealAmount: '10000' },
          { takerFeeRate: '0.0004', makerFeeRate: '0.0001', minTieredDealAmount: '10000' },
        ],
        statisticType: 'ROLLING' as const,
        tieredEffectiveDay: 30,
      },
      ETH_USDT: {
        feeRateMode: 'LEVERAGE' as const,
        leverageFeeRates: [
          { minLeverage: 1, maxLeverage: 20, takerFeeRate: '0.0002', makerFeeRate: '0' },
          { minLeverage: 21, takerFeeRate: '0.0008', makerFeeRate: '0.0001' },
        ],
      },
    },
    contractDiscounts: [
      { currency: 'USDT', levels: [{ level: 1, volMin: '1000000000', day: 30, discount: '0.1' }], excludedSymbols: ['SOL_USDT'] },
    ],
  },
};

describe('fees over HTTP', () => {
  let kit: AccountsKit;
  let master: ContractClient;
  let outsider: ContractClient;

  beforeEach(async () => {
    kit = await startAccountsKit(CONFIG, { sub1: { contract: { feeDeduct: true } } });
    for (const [s, p] of [
      ['BTC_USDT', '87500'],
      ['SOL_USDT', '87500'],
      ['ETH_USDT', '2950'],
    ] as const) {
      kit.emu.contract.venue.setFairPrice(s, p);
      kit.emu.contract.venue.setIndexPrice(s, p);
    }
    master = kit.contract('master');
    outsider = kit.contract('outsider');
  });

  afterEach(async () => {
    expect(kit.emu.checkInvariants()).to.deep.equal([]);
    await kit.close();
  });

  /** outsider rests a short of `vol`, `taker` lifts it with a long; answers the taker order's fee and the maker order's fee. */
  async function trade(taker: ContractClient, vol: number, symbol = 'BTC_USDT', price = 87500, leverage = 10): Promise<[string, string]> {
    const m = await outsider.createOrder({ symbol, price, vol, leverage: 10, side: 3, type: 1, openType: 1 });
    const t = await taker.createOrder({ symbol, price, vol, leverage, side: 1, type: 1, openType: 1 });
    const to = await taker.getOrder({ orderId: t.orderId });
    const mo = await outsider.getOrder({ orderId: m.orderId });
    return [to.takerFee!.toFixed(), mo.makerFee!.toFixed()];
  }

  it('moves_the_tiered_fee_to_the_next_tier_once_the_30_day_amount_crosses_the_boundary', async () => {
    // 5250 × 0.0006 = 3.15 taker, 5250 × 0.0002 = 1.05 maker, twice (amount before: 0, then 5250)
    expect(await trade(master, 600)).to.deep.equal(['3.15', '1.05']);
    expect(await trade(master, 600)).to.deep.equal(['3.15', '1.05']);
    const v2 = await master.tieredFeeRate({ symbol: 'BTC_USDT' });
    // 10 500 ≥ 10 000: the second tier, at its real rates
    expect([
      v2.dealAmount?.toFixed(),
      v2.level,
      v2.originalTakerFee?.toFixed(),
      v2.realTakerFee?.toFixed(),
      v2.realMakerFee?.toFixed(),
      v2.feeRateMode,
    ]).to.deep.equal(['10500', 2, '0.0004', '0.0004', '0.0001', 'TIERED']);
    expect(
      v2.tieredFeeRates?.map((t) => [t.minTieredDealAmount?.toFixed(), t.maxTieredDealAmount?.toFixed(), t.realTakerFee?.toFixed()]),
    ).to.deep.equal([
      ['0', '10000', '0.0006'],
      ['10000', undefined, '0.0004'],
    ]);
    // third trade: 5250 × 0.0004 = 2.1 taker, 5250 × 0.0001 = 0.525 maker
    expect(await trade(master, 600)).to.deep.equal(['2.1', '0.525']);
    const details = await master.feeDetails({ symbol: 'BTC_USDT' });
    expect(details.map((d) => d.fee.toFixed())).to.deep.equal(['2.1', '3.15', '3.15']);
    // 3.15 + 3.15 + 2.1
    const total = await master.orderDealFeeTotal();
    expect([total.totalFee.toFixed(), total.saveFee.toFixed()]).to.deep.equal(['8.4', '0']);
    const [rate] = await master.contractFeeRate({ symbol: 'BTC_USDT' });
    expect([
      rate!.feeRateMode,
      rate!.tieredDealAmount?.toFixed(),
      rate!.statisticType,
      rate!.tieredEffectiveDay,
      rate!.tieredFeeRates?.length,
      rate!.leverageFeeRates,
    ]).to.deep.equal(['TIERED', '15750', 'ROLLING', 30, 2, []]);
  });

  it('lists_the_schedules_in_the_contract_detail_too', async () => {
    const detail = (await master.contractDetail({ symbol: 'BTC_USDT' })) as unknown as Record<string, unknown> | Record<string, unknown>[];
    const btc = (Array.isArray(detail) ? detail[0] : detail) as {
      feeRateMode: string;
      tieredFeeRates: { takerFeeRate: { toFixed(): string } }[];
    };
    expect([btc.feeRateMode, btc.tieredFeeRates.map((t) => t.takerFeeRate.toFixed())]).to.deep.equal(['TIERED', ['0.0006', '0.0004']]);
  });

  it('charges_the_leverage_tier_and_lists_its_bounds', async () => {
    // ETH_USDT: 10 contracts × 0.01 × 2950 = 295 USDT; 10× → 295 × 0.0002 = 0.059; 50× → 295 × 0.0008 = 0.236
    expect((await trade(master, 10, 'ETH_USDT', 2950, 10))[0]).to.equal('0.059');
    expect((await trade(kit.contract('sub2'), 10, 'ETH_USDT', 2950, 50))[0]).to.equal('0.236');
    const [rate] = await master.contractFeeRate({ symbol: 'ETH_USDT' });
    expect(rate!.leverageFeeRates?.map((t) => [t.takerFeeRate.toFixed(), (t as { minLeverage?: number }).minLeverage])).to.deep.equal([
      ['0.0002', 1],
      ['0.0008', 21],
    ]);
    expect(rate!.tieredFeeRates).to.deep.equal([]);
  });

  it('charges_nothing_on_a_zero_fee_contract', async () => {
    expect(await trade(master, 100, 'SOL_USDT')).to.deep.equal(['0', '0']);
    const zero = await master.zeroFeeRate({});
    expect(zero.contracts.map((c) => c.contractId)).to.deep.equal([12]);
    const [sol] = await master.contractFeeRate({ symbol: 'SOL_USDT' });
    expect(sol!.isZeroFeeRate).to.equal(true);
  });

  it('discounts_contract_fees_of_an_account_with_deduction_and_reports_the_saving', async () => {
    const sub1 = kit.contract('sub1');
    expect(await sub1.discountType()).to.deep.equal({ useFeeDiscount: false, useFeeDeduct: true });
    expect(await master.discountType()).to.deep.equal({ useFeeDiscount: false, useFeeDeduct: false });
    // 3.15 × (1 − 0.2) = 2.52; saved 0.63
    expect((await trade(sub1, 600))[0]).to.equal('2.52');
    const total = await sub1.orderDealFeeTotal();
    expect([total.totalFee.toFixed(), total.saveFee.toFixed()]).to.deep.equal(['2.52', '0.63']);
    const [d] = await sub1.feeDetails({ symbol: 'BTC_USDT' });
    expect([d!.fee.toFixed(), d!.deductType, d!.deductFee?.toFixed(), d!.deductFeeCurrency]).to.deep.equal(['2.52', 1, '0.63', 'USDT']);
    const v2 = await sub1.tieredFeeRate({ symbol: 'BTC_USDT' });
    expect([v2.joinDeduct, v2.enjoyDeduct, v2.deductRate?.toFixed(), v2.realTakerFee?.toFixed()]).to.deep.equal([
      true,
      true,
      '0.2',
      '0.00048',
    ]);
  });

  it('lists_the_deduct_and_discount_configurations', async () => {
    const deduct = await master.feeDeductConfigs();
    expect(deduct.map((c) => [c.deductCoin, c.settleCoin, c.discountRatio?.toFixed()])).to.deep.equal([['MX', 'USDT', '0.2']]);
    const [cfg] = await master.contractFeeDiscountConfig();
    expect([
      cfg!.currency,
      cfg!.state,
      cfg!.blackContractIdSet,
      cfg!.discountConfig?.map((l) => [l.level, l.volMin?.toFixed(), l.day, l.discount?.toFixed()]),
    ]).to.deep.equal(['USDT', 'ENABLED', ['12'], [[1, '1000000000', 30, '0.1']]]);
    // the level is out of reach: joined, not enjoyed
    const v2 = await master.tieredFeeRate({ symbol: 'BTC_USDT' });
    expect([v2.joinDiscount, v2.enjoyDiscount]).to.deep.equal([true, false]);
  });

  describe('spot', () => {
    let sub1: SpotClient;
    let spotOutsider: SpotClient;
    beforeEach(() => {
      sub1 = kit.spot('sub1');
      spotOutsider = kit.spot('outsider');
    });

    it('answers_the_commission_rates_of_a_symbol', async () => {
      const fee = await sub1.tradeFee({ symbol: 'MXUSDT' });
      expect([fee.makerCommission.toFixed(), fee.takerCommission.toFixed()]).to.deep.equal(['0.001', '0.002']);
    });

    it('pays_the_fee_in_the_platform_token_at_a_20_percent_discount_while_deduction_is_on', async () => {
      expect(await sub1.enablePlatformDeduct({ platformDeductEnable: true })).to.deep.equal({ platformDeductEnable: true });
      expect(await sub1.platformDeductStatus()).to.deep.equal({ platformDeductEnable: true });
      expect((await kit.contract('sub1').discountType()).useFeeDiscount).to.equal(true);
      await spotOutsider.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '87500' });
      await sub1.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '87500' });
      // in kind: 0.01 × 0.0005 = 0.000005 BTC = 0.4375 USDT → 0.4375 / 2.5 × 0.8 = 0.14 MX
      const [t] = await sub1.myTrades({ symbol: 'BTCUSDT' });
      expect([t!.commission!.toFixed(), t!.commissionAsset]).to.deep.equal(['0.14', 'MX']);
      const bal = new Map((await sub1.account()).balances.map((b) => [b.asset, b.free.toFixed()]));
      expect([bal.get('MX'), bal.get('BTC')]).to.deep.equal(['999.86', '2.01']);

      await sub1.enablePlatformDeduct({ platformDeductEnable: false });
      await spotOutsider.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '87500' });
      await sub1.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '87500' });
      const trades = await sub1.myTrades({ symbol: 'BTCUSDT' });
      expect(trades.map((x) => [x.commission?.toFixed(), x.commissionAsset])).to.deep.include(['0.000005', 'BTC']);
    });
  });
});
