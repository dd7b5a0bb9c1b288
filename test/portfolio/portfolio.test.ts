import { expect } from 'chai';
import { D, type Decimal } from '../../src/core/decimal.js';
import { type InstrumentSymbol, tradeId } from '../../src/core/ids.js';
import { InstrumentRegistry } from '../../src/domain/instrument-registry.js';
import { Portfolio } from '../../src/portfolio/portfolio.js';
import {
  account,
  balance,
  BTC_USDT,
  BTCUSDT,
  contractInstrument,
  fill,
  order,
  position,
  spotInstrument,
} from '../domain/support/builders.js';

const instruments = new InstrumentRegistry([spotInstrument(), contractInstrument()]);
const marks =
  (m: Record<string, string>) =>
  (s: InstrumentSymbol): Decimal | undefined =>
    m[s] ? D(m[s]) : undefined;

describe('Portfolio', () => {
  it('moves_spot_balances_and_charges_the_fee_in_its_asset', () => {
    const p = new Portfolio(instruments);
    p.setBalance('USDT', D(1000));
    const buy = order({ side: 'buy' });
    // buy 0.5 @ 100: USDT 1000 − 50 = 950; BTC +0.5 − fee 0.0005 = 0.4995
    p.applyFill(fill(buy, '0.5', '100', { fee: D('0.0005'), feeAsset: 'BTC' }));
    expect([p.balance('USDT').toFixed(), p.balance('BTC').toFixed()]).to.deep.equal(['950', '0.4995']);
    expect(p.fees().get('BTC')!.toFixed()).to.equal('0.0005');
  });

  it('counts_a_fill_once_by_trade_id', () => {
    const p = new Portfolio(instruments);
    const f = fill(order(), '0.5', '100', { tradeId: tradeId('same') });
    expect([p.applyFill(f), p.applyFill(f)]).to.deep.equal([true, false]);
    expect(p.position(BTCUSDT)!.quantity.toFixed()).to.equal('0.5');
  });

  it('counts_a_spot_and_a_perpetual_fill_sharing_a_trade_id_as_two_trades', () => {
    // Two venues number their trades independently: a spot trade 1 and a perpetual trade 1 are two
    // trades (the perpetual one was dropped as a repeat, and a funding carry's short leg with it).
    const p = new Portfolio(instruments);
    expect(p.applyFill(fill(order({ side: 'buy' }), '0.05', '100', { tradeId: tradeId('1') }))).to.equal(true);
    expect(p.applyFill(fill(order({ symbol: BTC_USDT, side: 'sell' }), '500', '100', { tradeId: tradeId('1') }))).to.equal(true);
    expect([p.position(BTCUSDT)!.quantity.toFixed(), p.position(BTC_USDT)!.quantity.toFixed()]).to.deep.equal(['0.05', '-500']);
  });

  it('realises_spot_pnl_on_a_partial_close', () => {
    const p = new Portfolio(instruments);
    p.applyFill(fill(order({ side: 'buy' }), '2', '100', { tradeId: tradeId('1') }));
    p.applyFill(fill(order({ side: 'sell' }), '0.5', '120', { tradeId: tradeId('2') }));
    // (120 − 100) × 0.5 = 10
    expect(p.realizedPnl().toFixed()).to.equal('10');
    expect(p.position(BTCUSDT)!.quantity.toFixed()).to.equal('1.5');
  });

  it('settles_contract_pnl_fees_and_funding_in_the_settle_coin', () => {
    const p = new Portfolio(instruments);
    p.setBalance('USDT', D(100));
    const sell = order({ symbol: BTC_USDT, side: 'sell' });
    const buy = order({ symbol: BTC_USDT, side: 'buy' });
    // short 1000 @ 60 000, fee 0.6; cover 400 @ 59 000, fee 0.236
    p.applyFill(fill(sell, '1000', '60000', { tradeId: tradeId('s'), fee: D('0.6') }));
    p.applyFill(fill(buy, '400', '59000', { tradeId: tradeId('b'), fee: D('0.236') }));
    // realised (60 000 − 59 000) × 400 × 0.0001 = 40
    expect(p.realizedPnl().toFixed()).to.equal('40');
    p.applyFunding(BTC_USDT, 'net', D('-1.5'), 'USDT', 5);
    // 100 + 40 − 0.6 − 0.236 − 1.5 = 137.664
    expect(p.balance('USDT').toFixed()).to.equal('137.664');
    const pos = p.position(BTC_USDT)!;
    expect([pos.quantity.toFixed(), pos.entryPrice.toFixed(), pos.fees.toFixed(), pos.funding.toFixed()]).to.deep.equal([
      '-600',
      '60000',
      '0.836',
      '-1.5',
    ]);
  });

  it('values_equity_with_spot_marks_and_contract_unrealised_pnl', () => {
    const p = new Portfolio(instruments);
    p.setBalance('USDT', D(1000));
    p.setBalance('BTC', D('0.01'));
    p.applyFill(fill(order({ symbol: BTC_USDT, side: 'buy' }), '100', '50000', { tradeId: tradeId('c') }));
    // 1000 + 0.01 × 51 000 (BTCUSDT mark) + (51 500 − 50 000) × 100 × 0.0001 (BTC_USDT mark) = 1000 + 510 + 15 = 1525
    expect(p.equity(marks({ BTCUSDT: '51000', BTC_USDT: '51500' }))!.toFixed()).to.equal('1525');
    expect(p.equity(marks({ BTC_USDT: '51500' }))).to.equal(undefined);
    const point = p.equityPoint(9, marks({ BTCUSDT: '51000', BTC_USDT: '51500' }));
    expect([point.time, point.equity!.toFixed(), point.unrealized.toFixed()]).to.deep.equal([9, '1525', '15']);
  });

  it('takes_venue_balances_and_positions_as_the_truth', () => {
    const p = new Portfolio(instruments);
    p.adoptBalances(account('spot', balance('USDT', '70', '30')));
    expect(p.balance('USDT').toFixed()).to.equal('100');
    p.adoptPosition(position(BTC_USDT, '-5', '60000'));
    expect(p.position(BTC_USDT)!.quantity.toFixed()).to.equal('-5');
  });

  it('takes_the_same_venue_snapshot_again_after_a_fill_or_funding_moved_a_balance', () => {
    // adoptBalances skips a snapshot it took last when no balance changed since: any change must end that.
    const p = new Portfolio(instruments);
    const venue = account('spot', balance('USDT', '70', '30'), balance('BTC', '1', '0'));
    p.adoptBalances(venue);
    p.adoptBalances(venue);
    expect(p.balance('USDT').toFixed()).to.equal('100');
    const o = order();
    p.applyFill(fill(o, '1', '100'));
    expect(p.balance('BTC').toFixed()).to.not.equal('1');
    p.adoptBalances(venue);
    expect([p.balance('USDT').toFixed(), p.balance('BTC').toFixed()]).to.deep.equal(['100', '1']);
    p.applyFunding(BTC_USDT, 'net', D('-2'), 'USDT', 5);
    expect(p.balance('USDT').toFixed()).to.equal('98');
    p.adoptBalances(venue);
    expect(p.balance('USDT').toFixed()).to.equal('100');
    p.setBalance('USDT', D('7'));
    p.adoptBalances(venue);
    expect(p.balance('USDT').toFixed()).to.equal('100');
  });

  it('takes_the_same_venue_balance_in_a_new_snapshot_again_after_a_fill_or_funding_moved_it', () => {
    // A backtest's venue hands the same Balance objects in a new snapshot while we are flat: adoptBalances
    // skips one it took last only while the asset's total is still the one it set from it.
    const p = new Portfolio(instruments);
    const usdt = balance('USDT', '70', '30');
    const btc = balance('BTC', '1', '0');
    p.adoptBalances(account('spot', usdt, btc));
    p.adoptBalances(account('spot', usdt, btc));
    expect([p.balance('USDT').toFixed(), p.balance('BTC').toFixed()]).to.deep.equal(['100', '1']);
    p.applyFill(fill(order(), '1', '100'));
    expect(p.balance('BTC').toFixed()).to.not.equal('1');
    p.adoptBalances(account('spot', usdt, btc));
    expect([p.balance('USDT').toFixed(), p.balance('BTC').toFixed()]).to.deep.equal(['100', '1']);
    p.applyFunding(BTC_USDT, 'net', D('-2'), 'USDT', 5);
    p.adoptBalances(account('spot', usdt, btc));
    expect(p.balance('USDT').toFixed()).to.equal('100');
    p.setBalance('USDT', D('7'));
    p.adoptBalances(account('spot', usdt, btc));
    expect(p.balance('USDT').toFixed()).to.equal('100');
    p.adoptBalances(account('spot', balance('USDT', '60', '30'), btc));
    expect(p.balance('USDT').toFixed()).to.equal('90');
  });

  it('applies_money_events_and_ignores_the_rest', () => {
    const p = new Portfolio(instruments);
    const o = order();
    p.onEvent({ type: 'OrderFilled', ts: 1, clientOrderId: o.clientOrderId, symbol: BTCUSDT, fill: fill(o, '1', '100') });
    p.onEvent({ type: 'OrderCancelled', ts: 1, clientOrderId: o.clientOrderId, symbol: BTCUSDT, reason: 'user' });
    expect(p.position(BTCUSDT)!.quantity.toFixed()).to.equal('1');
  });
});
