/** Contract detail → ContractInstrument, tiers checked by hand against the BTC_USDT fixture. */
import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { contractCatalogue } from '../../../src/api/contract/catalogue.js';
import type { ContractDetail } from '../../../src/api/contract/market-schemas.js';
import { deriveRiskTiers, toContractInstrument } from '../../../src/api/contract/to-contract-instrument.js';
import type { RiskTier } from '../../../src/domain/instrument.js';
import { mexcData } from './fixture-loader.js';

const detailOf = (file: string): ContractDetail => {
  const parsed = contractCatalogue.contractDetail.response.parse(mexcData(file));
  if (Array.isArray(parsed)) throw new Error('expected one object');
  return parsed;
};
const allDetails = (): ContractDetail[] => {
  const parsed = contractCatalogue.contractDetail.response.parse(mexcData('contract_GET_api_v1_contract_detail_all.json'));
  if (!Array.isArray(parsed)) throw new Error('expected an array');
  return parsed;
};

/** Tiers as plain strings so deep-equal compares values, not Decimal internals. */
const plain = (tiers: readonly RiskTier[]) =>
  tiers.map((t) => [t.level, t.maxVol.toFixed(), t.mmr.toFixed(), t.imr.toFixed(), t.maxLeverage]);

describe('toContractInstrument', () => {
  it('takes_btc_usdt_tiers_from_risk_limit_custom', () => {
    const btc = toContractInstrument(detailOf('contract_GET_api_v1_contract_detail.json'));
    // riskLimitCustom of the fixture; riskLevelLimit 1 and riskBaseVol 11 500 000 are NOT used when it is present
    expect(plain(btc.riskTiers)).to.deep.equal([
      [1, '50000', '0.001', '0.002', 500],
      [2, '120000', '0.004', '0.005', 200],
      [3, '250000', '0.005', '0.01', 100],
      [4, '2000000', '0.01', '0.02', 50],
      [5, '8500000', '0.02', '0.05', 20],
    ]);
  });

  it('copies_the_trading_rules_of_btc_usdt', () => {
    const btc = toContractInstrument(detailOf('contract_GET_api_v1_contract_detail.json'));
    expect([btc.kind, btc.symbol, btc.displayName, btc.baseCoin, btc.quoteCoin, btc.settleCoin]).to.deep.equal([
      'contract',
      'BTC_USDT',
      'BTC_USDT PERPETUAL',
      'BTC',
      'USDT',
      'USDT',
    ]);
    expect([
      btc.contractSize.toFixed(),
      btc.priceUnit.toFixed(),
      btc.volUnit.toFixed(),
      btc.minVol.toFixed(),
      btc.maxVol.toFixed(),
    ]).to.deep.equal(['0.0001', '0.1', '1', '1', '400000']);
    expect([btc.minLeverage, btc.maxLeverage, btc.priceScale, btc.volScale, btc.amountScale]).to.deep.equal([1, 500, 1, 0, 4]);
    expect([
      btc.takerFeeRate.toFixed(),
      btc.makerFeeRate.toFixed(),
      btc.maintenanceMarginRate.toFixed(),
      btc.initialMarginRate.toFixed(),
    ]).to.deep.equal(['0.0001', '0', '0.001', '0.002']);
    expect([btc.positionOpenType, btc.state, btc.apiAllowed, btc.riskLimitType, btc.feeRateMode, btc.isZeroFee]).to.deep.equal([
      3,
      0,
      false,
      'BY_VOLUME',
      'NORMAL',
      false,
    ]);
    expect(btc.maxNumOrders).to.deep.equal([200, 50]);
    expect([btc.leverageFeeRates, btc.tieredFeeRates]).to.deep.equal([[], []]);
  });

  it('derives_one_tier_for_light_usdt_without_custom_tiers', () => {
    const light = toContractInstrument(allDetails().find((d) => d.symbol === 'LIGHT_USDT')!);
    // riskLevelLimit 1 → only tier 1: base vol 30 000, mmr 0.005, imr 0.02, leverage min(50, floor(1/0.02) = 50)
    expect(plain(light.riskTiers)).to.deep.equal([[1, '30000', '0.005', '0.02', 50]]);
  });

  it('derives_silver_usdt_tier_from_its_margin_rates', () => {
    const silver = toContractInstrument(allDetails().find((d) => d.symbol === 'SILVER_USDT')!);
    // imr 0.05 → 1/0.05 = 20 = maxLeverage
    expect(plain(silver.riskTiers)).to.deep.equal([[1, '130000', '0.02', '0.05', 20]]);
  });

  it('derives_incremental_tiers_when_the_level_limit_allows_more', () => {
    const light = allDetails().find((d) => d.symbol === 'LIGHT_USDT')!;
    // base 30 000 + (i−1)·30 000; mmr 0.005 + (i−1)·0.005; imr 0.02 + (i−1)·0.005;
    // leverage: floor(1/0.025) = 40, floor(1/0.03) = 33
    expect(plain(deriveRiskTiers({ ...light, riskLevelLimit: 3 }))).to.deep.equal([
      [1, '30000', '0.005', '0.02', 50],
      [2, '60000', '0.01', '0.025', 40],
      [3, '90000', '0.015', '0.03', 33],
    ]);
  });

  it('sorts_custom_tiers_by_level', () => {
    const btc = detailOf('contract_GET_api_v1_contract_detail.json');
    const shuffled = { ...btc, riskLimitCustom: [...btc.riskLimitCustom!].reverse() };
    expect(toContractInstrument(shuffled).riskTiers.map((t) => t.level)).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('refuses_an_unknown_fee_rate_mode', () => {
    const btc = detailOf('contract_GET_api_v1_contract_detail.json');
    expect(() => toContractInstrument({ ...btc, feeRateMode: 'MYSTERY' })).to.throw(RangeError, /feeRateMode/);
  });

  it('refuses_an_unknown_contract_state', () => {
    const btc = detailOf('contract_GET_api_v1_contract_detail.json');
    expect(() => toContractInstrument({ ...btc, state: 9 })).to.throw(RangeError, /state/);
  });

  it('keeps_fee_tiers', () => {
    const btc = detailOf('contract_GET_api_v1_contract_detail.json');
    const tiered = toContractInstrument({
      ...btc,
      feeRateMode: 'TIERED',
      tieredFeeRates: [
        {
          takerFeeRate: new Decimal('0.0004'),
          makerFeeRate: new Decimal('0.0001'),
          minTieredDealAmount: new Decimal(0),
          maxTieredDealAmount: new Decimal(1000000),
        },
        { takerFeeRate: new Decimal('0.0003'), makerFeeRate: new Decimal('0'), minTieredDealAmount: new Decimal(1000000) },
      ],
    });
    expect(tiered.feeRateMode).to.equal('TIERED');
    expect(tiered.tieredFeeRates.map((t) => [t.takerFeeRate.toFixed(), t.maxTieredDealAmount?.toFixed()])).to.deep.equal([
      ['0.0004', '1000000'],
      ['0.0003', undefined],
    ]);
  });
});
