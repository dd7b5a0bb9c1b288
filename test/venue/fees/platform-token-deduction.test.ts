import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { spotSymbol } from '../../../src/core/ids.js';
import { PlatformTokenDeduction } from '../../../src/venue/fees/platform-token-deduction.js';
import { btcUsdt, harness, str } from '../spot/spot-fixtures.js';

/**
 * BTCUSDT maker 0.1 %, taker 0.2 %; MXUSDT last price 2.5. Deduction 20 %: a fee worth F USDT costs
 * F / 2.5 × 0.8 MX.
 */
function arrange(enabled: ReadonlySet<string>) {
  const mx = btcUsdt({ symbol: spotSymbol('MXUSDT'), baseAsset: 'MX' });
  const h = harness({}, [btcUsdt(), mx]);
  const deduction = new PlatformTokenDeduction({ token: 'MX', discount: '0.2', enabled: (a) => enabled.has(a), prices: h.venue });
  h.venue.setFeePayer(deduction);
  h.venue.setReferencePrice('MXUSDT', '2.5');
  h.venue.setReferencePrice('BTCUSDT', '50000');
  for (const a of ['alice', 'bob']) {
    h.venue.deposit(a, 'USDT', '100000');
    h.venue.deposit(a, 'BTC', '1');
  }
  return { ...h, deduction };
}

describe('PlatformTokenDeduction', () => {
  it('charges_the_fee_in_the_platform_token_at_the_discount', () => {
    const { venue } = arrange(new Set(['alice']));
    venue.deposit('alice', 'MX', '100');
    venue.placeOrder({ accountId: 'bob', symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.1', price: '50000' });
    venue.placeOrder({ accountId: 'alice', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.1', price: '50000' });
    // alice (taker, buyer) would pay 0.1 × 0.002 = 0.0002 BTC = 10 USDT → 10 / 2.5 × 0.8 = 3.2 MX
    expect(str(venue.balance('alice', 'MX').free)).to.equal('96.8');
    expect(str(venue.balance('alice', 'BTC').free)).to.equal('1.1');
    const t = venue.myTrades('alice', 'BTCUSDT').map((x) => venue.ownTradeView(x))[0]!;
    expect([str(t.commission), t.commissionAsset]).to.deep.equal(['3.2', 'MX']);
    // bob (maker, seller, no deduction) pays 5000 × 0.001 = 5 USDT in kind: 100000 + 5000 − 5
    expect(str(venue.balance('bob', 'USDT').free)).to.equal('104995');
    expect(venue.checkInvariants()).to.deep.equal([]);
    expect(venue.ledger.feesPaid('alice', 'MX').toString()).to.equal(String(32n * 10n ** 17n));
  });

  it('falls_back_to_the_fee_in_kind_when_the_token_balance_is_short', () => {
    const { venue } = arrange(new Set(['alice']));
    venue.deposit('alice', 'MX', '1');
    venue.placeOrder({ accountId: 'bob', symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.1', price: '50000' });
    venue.placeOrder({ accountId: 'alice', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.1', price: '50000' });
    // 3.2 MX needed, 1 held: 0.1 − 0.0002 BTC fee in kind
    expect(str(venue.balance('alice', 'MX').free)).to.equal('1');
    expect(str(venue.balance('alice', 'BTC').free)).to.equal('1.0998');
  });

  it('charges_in_kind_when_deduction_is_off', () => {
    const { venue } = arrange(new Set());
    venue.deposit('alice', 'MX', '100');
    venue.placeOrder({ accountId: 'bob', symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.1', price: '50000' });
    venue.placeOrder({ accountId: 'alice', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.1', price: '50000' });
    expect(str(venue.balance('alice', 'MX').free)).to.equal('100');
  });

  it('prices_through_a_bridge_quote_and_rounds_up', () => {
    const { deduction } = arrange(new Set());
    // 0.0001 BTC = 5 USDT = 2 MX, × 0.8 = 1.6
    expect(deduction.tokenAmount('BTC', D('0.0001'))!.toFixed()).to.equal('1.6');
    // 1 USDT / 2.5 × 0.8 = 0.32; 0.000000013 USDT → 0.00000000416 MX → up to 8 dp 0.00000001
    expect(deduction.tokenAmount('USDT', D('0.000000013'))!.toFixed()).to.equal('0.00000001');
    expect(deduction.tokenAmount('ETH', D(1))).to.equal(undefined);
  });
});
