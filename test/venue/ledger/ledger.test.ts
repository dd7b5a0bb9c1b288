import { expect } from 'chai';
import { Ledger, type BalanceChangeReason } from '../../../src/venue/ledger/ledger.js';
import { amountToUnits, unitsToDecimal } from '../../../src/venue/ledger/ledger-units.js';

const U = (s: string) => amountToUnits(s);

describe('Ledger', () => {
  it('moves_funds_between_free_and_locked', () => {
    const l = new Ledger();
    l.deposit('a', 'USDT', U('100'));
    expect(l.lock('a', 'USDT', U('30.5'))).to.equal(true);
    expect([l.free('a', 'USDT'), l.locked('a', 'USDT')]).to.deep.equal([U('69.5'), U('30.5')]);
    l.unlock('a', 'USDT', U('0.5'));
    expect([l.free('a', 'USDT'), l.locked('a', 'USDT')]).to.deep.equal([U('70'), U('30')]);
    expect(l.checkInvariants()).to.deep.equal([]);
  });

  it('refuses_to_lock_or_withdraw_more_than_is_free', () => {
    const l = new Ledger();
    l.deposit('a', 'BTC', U('1'));
    l.lock('a', 'BTC', U('0.6'));
    expect(l.lock('a', 'BTC', U('0.5'))).to.equal(false);
    expect(l.withdraw('a', 'BTC', U('0.5'))).to.equal(false);
    expect(l.withdraw('a', 'BTC', U('0.4'))).to.equal(true);
    expect(l.lock('nobody', 'BTC', 1n)).to.equal(false);
    expect([l.free('a', 'BTC'), l.locked('a', 'BTC')]).to.deep.equal([0n, U('0.6')]);
    expect(l.checkInvariants()).to.deep.equal([]);
  });

  it('throws_on_unlocking_more_than_is_locked', () => {
    const l = new Ledger();
    l.deposit('a', 'BTC', U('1'));
    l.lock('a', 'BTC', U('0.5'));
    expect(() => l.unlock('a', 'BTC', U('0.6'))).to.throw(Error, /unlocks/);
    expect(() => l.deposit('a', 'BTC', 0n)).to.throw(RangeError);
  });

  it('settles_a_trade_with_refund_and_fees_from_what_each_side_receives', () => {
    const l = new Ledger();
    l.deposit('buyer', 'USDT', U('1000'));
    l.deposit('seller', 'BTC', U('2'));
    // buyer reserved 1 × 101 = 101, fills 1 @ 100: pays 100, gets 1 back; buyer fee 0.002 BTC, seller fee 0.1 USDT
    l.lock('buyer', 'USDT', U('101'));
    l.lock('seller', 'BTC', U('1'));
    l.settleTrade({
      buyer: 'buyer',
      seller: 'seller',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      baseUnits: U('1'),
      quoteUnits: U('100'),
      buyerLockedQuote: U('101'),
      buyerFee: U('0.002'),
      sellerFee: U('0.1'),
    });
    expect([l.free('buyer', 'USDT'), l.locked('buyer', 'USDT')]).to.deep.equal([U('900'), 0n]);
    expect(l.free('buyer', 'BTC')).to.equal(U('0.998'));
    expect([l.free('seller', 'BTC'), l.locked('seller', 'BTC')]).to.deep.equal([U('1'), 0n]);
    expect(l.free('seller', 'USDT')).to.equal(U('99.9'));
    expect([l.feesCollected('BTC'), l.feesCollected('USDT')]).to.deep.equal([U('0.002'), U('0.1')]);
    expect([l.feesPaid('buyer', 'BTC'), l.feesPaid('seller', 'USDT')]).to.deep.equal([U('0.002'), U('0.1')]);
    expect(l.checkInvariants()).to.deep.equal([]);
  });

  it('settles_a_self_trade_and_reports_each_balance_once', () => {
    const l = new Ledger();
    l.deposit('a', 'USDT', U('100'));
    l.deposit('a', 'BTC', U('1'));
    l.lock('a', 'USDT', U('100'));
    l.lock('a', 'BTC', U('1'));
    const seen: string[] = [];
    l.setListener((acct, asset, _b, reason: BalanceChangeReason) => seen.push(`${acct}:${asset}:${reason}`));
    l.settleTrade({
      buyer: 'a',
      seller: 'a',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      baseUnits: U('1'),
      quoteUnits: U('100'),
      buyerLockedQuote: U('100'),
      buyerFee: 0n,
      sellerFee: 0n,
    });
    expect(seen).to.deep.equal(['a:USDT:trade', 'a:BTC:trade']);
    expect([l.free('a', 'USDT'), l.free('a', 'BTC')]).to.deep.equal([U('100'), U('1')]);
  });

  it('refuses_settlement_from_funds_that_were_never_locked', () => {
    const l = new Ledger();
    l.deposit('buyer', 'USDT', U('1000'));
    l.deposit('seller', 'BTC', U('2'));
    l.lock('seller', 'BTC', U('1'));
    expect(() =>
      l.settleTrade({
        buyer: 'buyer',
        seller: 'seller',
        baseAsset: 'BTC',
        quoteAsset: 'USDT',
        baseUnits: U('1'),
        quoteUnits: U('100'),
        buyerLockedQuote: U('100'),
        buyerFee: 0n,
        sellerFee: 0n,
      }),
    ).to.throw(Error, /locked/);
    // nothing moved
    expect(l.locked('seller', 'BTC')).to.equal(U('1'));
    expect(l.checkInvariants()).to.deep.equal([]);
  });

  it('detects_a_conservation_break', () => {
    const l = new Ledger();
    l.deposit('a', 'USDT', U('10'));
    // corrupt a balance behind the ledger's back
    (l.balance('a', 'USDT') as { free: bigint }).free += 1n;
    expect(l.checkInvariants()).to.have.length(1);
  });

  it('lists_decimal_balances_sorted_without_zeros', () => {
    const l = new Ledger();
    l.deposit('a', 'USDT', U('1.5'));
    l.deposit('a', 'BTC', U('0.25'));
    l.deposit('a', 'ETH', U('1'));
    l.withdraw('a', 'ETH', U('1'));
    expect(l.balances('a').map((b) => [b.asset, b.free.toFixed(), b.locked.toFixed()])).to.deep.equal([
      ['BTC', '0.25', '0'],
      ['USDT', '1.5', '0'],
    ]);
    expect(l.balances('a', true).map((b) => b.asset)).to.deep.equal(['BTC', 'ETH', 'USDT']);
    expect(l.balances('nobody')).to.deep.equal([]);
  });
});

describe('ledger units', () => {
  it('converts_exactly_at_18_decimals', () => {
    expect(amountToUnits('88.120131350620957006')).to.equal(88_120_131_350_620_957_006n);
    expect(unitsToDecimal(88_120_131_350_620_957_006n).toFixed()).to.equal('88.120131350620957006');
    expect(() => amountToUnits('0.0000000000000000001')).to.throw(RangeError);
  });

  it('keeps_amounts_beyond_2_pow_53_exact', () => {
    // 4 000 000.0000000001 USDT = 4·10^24 + 10^8 units: a double would lose the tail
    const u = amountToUnits('4000000.0000000001');
    expect(u).to.equal(4_000_000_000_000_000_100_000_000n);
    expect(unitsToDecimal(u).toFixed()).to.equal('4000000.0000000001');
  });
});
