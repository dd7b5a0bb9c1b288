import { expect } from 'chai';
import { FeatureDisabled } from '../../../src/core/errors.js';
import type { ContractClient } from '../../../src/client/contract-client.js';
import { SPOT_PRESETS } from '../../../src/emulator/config/instrument-presets.js';
import { KEYS, T0, startAccountsKit, type AccountsKit } from './support/accounts-kit.js';
import { rejects } from './support/rejects.js';

/**
 * Account and position history over HTTP, every answer parsed by the client with the catalogue's
 * response schema. BTC_USDT preset: contractSize 0.0001, taker 0.0001, maker 0; at 87 500 ten contracts
 * are worth 10 × 0.0001 × 87 500 = 87.5 USDT.
 */
describe('account and position history over HTTP', () => {
  let kit: AccountsKit;
  let master: ContractClient;
  let outsider: ContractClient;

  beforeEach(async () => {
    kit = await startAccountsKit({
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
          },
          { ...SPOT_PRESETS.ETHUSDT!, status: '3', apiTradable: false },
        ],
        contract: ['BTC_USDT', 'ETH_USDT'],
      },
    });
    kit.emu.contract.venue.setFairPrice('BTC_USDT', '87500');
    kit.emu.contract.venue.setIndexPrice('BTC_USDT', '87500');
    master = kit.contract('master');
    outsider = kit.contract('outsider');
  });

  afterEach(async () => {
    expect(kit.emu.checkInvariants()).to.deep.equal([]);
    await kit.close();
  });

  it('records_transfers_funding_and_closed_positions', async () => {
    const transfers = await master.transferRecord({});
    expect(transfers.resultList.map((t) => [t.type, t.state, t.currency, t.amount.toFixed()])).to.deep.equal([
      ['IN', 'SUCCESS', 'USDT', '100000'],
    ]);

    await outsider.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 10, leverage: 10, side: 3, type: 1, openType: 1 });
    await master.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 10, leverage: 10, side: 1, type: 1, openType: 1 });
    kit.clock.advanceBy(3_600_000);
    kit.emu.contract.venue.setFundingRate('BTC_USDT', '0.0001');
    kit.emu.contract.venue.settleFunding('BTC_USDT');
    // value 87.5, funding 87.5 × 0.0001 = 0.00875 paid by the long
    const funding = await master.fundingRecords({ position_type: 1, start_time: T0, end_time: T0 + 7_200_000 });
    expect(
      funding.resultList.map((r) => [r.symbol, r.positionType, r.positionValue?.toFixed(), r.rate?.toFixed(), r.funding?.toFixed()]),
    ).to.deep.equal([['BTC_USDT', 1, '87.5', '0.0001', '-0.00875']]);

    await outsider.createOrder({ symbol: 'BTC_USDT', price: 88000, vol: 10, side: 2, type: 1, openType: 1 });
    await master.createOrder({ symbol: 'BTC_USDT', price: 88000, vol: 10, side: 4, type: 1, openType: 1 });
    expect(await master.openPositions({})).to.deep.equal([]);
    const history = await master.historyPositions({ symbol: 'BTC_USDT' });
    // (88 000 − 87 500) × 10 × 0.0001 = 0.5 close PnL
    expect(history.resultList.map((p) => [p.positionType, p.state, p.closeProfitLoss?.toFixed(), p.holdFee?.toFixed()])).to.deep.equal([
      [1, 3, '0.5', '-0.00875'],
    ]);
  });

  it('counts_and_finds_open_orders_by_id_and_external_id_and_keeps_history', async () => {
    const a = await master.createOrder({
      symbol: 'BTC_USDT',
      price: 80000,
      vol: 1,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      externalOid: 'h-1',
    });
    const b = await master.createOrder({
      symbol: 'BTC_USDT',
      price: 80001,
      vol: 2,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      externalOid: 'h-2',
    });
    const count = await master.openOrderTotalCount({});
    expect([count.sumCount, count.limitOrderCount]).to.deep.equal([2, 2]);
    const batch = await master.batchQuery({ order_ids: [a.orderId, b.orderId] });
    expect(batch.map((o) => o.externalOid).sort()).to.deep.equal(['h-1', 'h-2']);
    const ext = await master.batchQueryWithExternal([{ symbol: 'BTC_USDT', externalOid: 'h-1' }]);
    expect(ext.map((o) => o.orderId)).to.deep.equal([a.orderId]);
    expect((await master.orderByExternalOid({ symbol: 'BTC_USDT', external_oid: 'h-2' })).vol?.toFixed()).to.equal('2');
    await master.cancelOrders([a.orderId]);
    const hist = await master.historyOrders({ symbol: 'BTC_USDT', states: [4] });
    expect(hist.map((o) => [o.orderId, o.state])).to.deep.equal([[a.orderId, 4]]);
    expect((await master.openOrderTotalCount({})).sumCount).to.equal(1);
  });

  it('answers_risk_limits_and_leverage_tiers_by_symbol', async () => {
    const limits = await master.riskLimit({ symbol: 'BTC_USDT' });
    expect(Object.keys(limits)).to.deep.equal(['BTC_USDT']);
    // BTC preset tier 1: 50 000 contracts, mmr 0.001, imr 0.002, 500×
    expect(limits['BTC_USDT']!.map((r) => [r.positionType, r.level, r.maxVol.toFixed(), r.mmr.toFixed(), r.imr.toFixed()])).to.deep.equal([
      [1, 1, '50000', '0.001', '0.002'],
      [2, 1, '50000', '0.001', '0.002'],
    ]);
    const all = await master.riskLimit({});
    expect(Object.keys(all).sort()).to.deep.equal(['BTC_USDT', 'ETH_USDT']);
    const lev = await master.positionLeverage({ symbol: 'BTC_USDT' });
    expect(lev.map((r) => [r.positionType, r.maxLeverageView])).to.deep.equal([
      [1, 500],
      [2, 500],
    ]);
  });

  it('refuses_change_risk_level_with_8817', async () => {
    const e = await rejects(master.changeRiskLevel());
    expect([e instanceof FeatureDisabled, e.venueCode]).to.deep.equal([true, 8817]);
  });

  it('answers_kyc_uid_and_the_symbol_lists', async () => {
    const spot = kit.spot('master');
    expect(await spot.kycStatus()).to.deep.equal({ status: '3' });
    expect(await spot.uid()).to.deep.equal({ uid: KEYS.master.uid });
    expect(await spot.selfSymbols()).to.deep.equal(['BTCUSDT', 'MXUSDT']);
    expect(await spot.defaultSymbols()).to.deep.equal(['BTCUSDT', 'MXUSDT']);
    const offline = await spot.offlineSymbols();
    expect(offline.data.map((o) => [o.symbol, o.state])).to.deep.equal([['ETHUSDT', 3]]);
  });
});
