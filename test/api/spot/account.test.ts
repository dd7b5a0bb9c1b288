import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { spotCatalogue as c } from '../../../src/api/spot/catalogue.js';
import { expectIssue, fixture, parseOk, unwrapSpot, wrapSpot } from './spot-test-kit.js';

const s = (d: Decimal | undefined) => d?.toFixed();

describe('spot account (4.2) and platform-token deduction (4.3)', () => {
  describe('responses', () => {
    it('parses_the_account_fixture_with_null_update_time', () => {
      const a = parseOk(c.account.response, fixture('spot_GET_api_v3_account.json'));
      expect([s(a.makerCommission), s(a.takerCommission), s(a.buyerCommission)]).to.deep.equal(['20', '20', '0']);
      expect([a.canTrade, a.canWithdraw, a.canDeposit]).to.deep.equal([true, true, true]);
      expect(a.updateTime).to.equal(undefined);
      expect(a.accountType).to.equal('SPOT');
      expect(a.permissions).to.deep.equal(['SPOT']);
      expect(a.balances.map((b) => b.asset)).to.deep.equal(['BTC', 'USDT']);
      // 21 significant digits survive: Decimal, not float
      expect(s(a.balances[1]!.free)).to.equal('88.120131350620957006');
      expect(s(a.balances[0]!.locked)).to.equal('0');
      expect(a.balances[0]!.available).to.equal(undefined);
    });

    it('parses_own_trades_with_string_times_and_opaque_ids', () => {
      const t = parseOk(c.myTrades.response, fixture('spot_GET_api_v3_myTrades.json'));
      expect(t).to.have.length(1);
      const x = t[0]!;
      expect([x.id, x.orderId, x.orderListId]).to.deep.equal(['dd44f79dda764c2e927a190ac5e7a1e5', 'C02__385413065019117569043', -1]);
      expect([s(x.price), s(x.qty), s(x.quoteQty), s(x.commission)]).to.deep.equal(['0.004542', '1220', '5.54124', '0']);
      expect(x.time).to.equal(1707671871000);
      expect([x.isBuyer, x.isMaker, x.isBestMatch, x.isSelfTrade]).to.deep.equal([false, false, true, false]);
      expect(x.clientOrderId).to.equal(undefined);
    });

    it('parses_self_symbols_after_unwrapping', () => {
      expect(parseOk(c.selfSymbols.response, unwrapSpot(wrapSpot(['BTCUSDT', 'ETHUSDT'])))).to.deep.equal(['BTCUSDT', 'ETHUSDT']);
    });

    it('parses_trade_fee_rates_as_decimals', () => {
      const f = parseOk(c.tradeFee.response, unwrapSpot(wrapSpot({ makerCommission: 0.002, takerCommission: '0.0005' })));
      expect([s(f.makerCommission), s(f.takerCommission)]).to.deep.equal(['0.002', '0.0005']);
    });

    it('parses_kyc_status_and_uid', () => {
      expect(parseOk(c.kycStatus.response, { status: '3' }).status).to.equal('3');
      expect(parseOk(c.kycStatus.response, { status: 2 }).status).to.equal('2');
      expect(parseOk(c.uid.response, { uid: 49910594 }).uid).to.equal('49910594');
    });

    it('parses_platform_deduction_state', () => {
      expect(parseOk(c.enablePlatformDeduct.response, unwrapSpot(wrapSpot({ platformDeductEnable: true }))).platformDeductEnable).to.equal(
        true,
      );
      expect(parseOk(c.platformDeductStatus.response, { platformDeductEnable: 'false' }).platformDeductEnable).to.equal(false);
    });

    it('rejects_a_balance_with_a_non_numeric_amount', () => {
      const a = fixture('spot_GET_api_v3_account.json') as { balances: Record<string, unknown>[] };
      a.balances[1]!.free = 'lots';
      expectIssue(c.account.response, a, ['balances', 1, 'free']);
    });

    it('rejects_an_own_trade_without_order_id', () => {
      const t = fixture('spot_GET_api_v3_myTrades.json') as Record<string, unknown>[];
      delete t[0]!.orderId;
      expectIssue(c.myTrades.response, t, [0, 'orderId']);
    });

    it('rejects_an_unknown_kyc_status', () => {
      expectIssue(c.kycStatus.response, { status: '7' }, ['status']);
    });
  });

  describe('request validation', () => {
    it('clamps_myTrades_limit_above_100_and_refuses_nonsense', () => {
      expect(parseOk(c.myTrades.request, { symbol: 'BTCUSDT', limit: 100 }).limit).to.equal('100');
      // The official spot SDK sends limit=500 by default (issue 14): served as the documented maximum.
      expect(parseOk(c.myTrades.request, { symbol: 'BTCUSDT', limit: 500 }).limit).to.equal('100');
      expectIssue(c.myTrades.request, { symbol: 'BTCUSDT', limit: -1 }, ['limit'], /1\.\.100\b/);
      expectIssue(c.myTrades.request, { symbol: 'BTCUSDT', limit: 'lots' }, ['limit'], /1\.\.100\b/);
    });

    it('refuses_myTrades_orderId_without_symbol', () => {
      expectIssue(c.myTrades.request, { orderId: 'C02__385413065019117569043' }, ['symbol'], /spot symbol/);
      expect(parseOk(c.myTrades.request, { symbol: 'ATLASUSDT', orderId: 'C02__385413065019117569043' }).orderId).to.equal(
        'C02__385413065019117569043',
      );
    });

    it('requires_tradeFee_symbol', () => {
      expectIssue(c.tradeFee.request, {}, ['symbol']);
    });

    it('serialises_platformDeductEnable_as_true_or_false', () => {
      expect(parseOk(c.enablePlatformDeduct.request, { platformDeductEnable: false })).to.deep.equal({ platformDeductEnable: 'false' });
      expect(parseOk(c.enablePlatformDeduct.request, { platformDeductEnable: 'true' })).to.deep.equal({ platformDeductEnable: 'true' });
      expectIssue(c.enablePlatformDeduct.request, { platformDeductEnable: 'yes' }, ['platformDeductEnable'], /true or false/);
      expectIssue(c.enablePlatformDeduct.request, {}, ['platformDeductEnable']);
    });

    it('refuses_recvWindow_zero_and_non_integers', () => {
      expectIssue(c.account.request, { recvWindow: 0 }, ['recvWindow']);
      expectIssue(c.account.request, { recvWindow: '5000.5' }, ['recvWindow']);
      expect(parseOk(c.account.request, { recvWindow: '5000' })).to.deep.equal({ recvWindow: '5000' });
    });
  });
});
