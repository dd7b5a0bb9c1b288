import { expect } from 'chai';
import { notionalBoundsRule } from '../../../src/risk/rules/notional-bounds-rule.js';
import { priceTickRule } from '../../../src/risk/rules/price-tick-rule.js';
import { quantityBoundsRule } from '../../../src/risk/rules/quantity-bounds-rule.js';
import { quantityStepRule } from '../../../src/risk/rules/quantity-step-rule.js';
import { BTCUSDT, contractInstrument, snapshot, spotInstrument } from '../../domain/support/builders.js';
import { cBuy, contractState, D, f, NOW, quotes, spotBuy, spotState } from '../support.js';

describe('rule price-tick', () => {
  it('denies_when_price_off_tick', () => {
    const d = priceTickRule(spotBuy('100.005', '0.1'), spotInstrument(), spotState());
    expect(d).to.deep.equal({ rule: 'price-tick', reason: 'price 100.005 is not a multiple of the tick 0.01 (nearest: 100 or 100.01)' });
  });
  it('passes_on_tick', () => {
    expect(priceTickRule(spotBuy('100.01', '0.1'), spotInstrument(), spotState())).to.equal(undefined);
  });
  it('checks_contract_price_unit_and_tp_sl_prices', () => {
    expect(priceTickRule(cBuy('100.05', '1'), contractInstrument(), contractState())?.rule).to.equal('price-tick');
    expect(priceTickRule(cBuy('100', '1', { stopLossPrice: '95.05' }), contractInstrument(), contractState())?.reason).to.match(
      /^stop-loss price 95.05/,
    );
  });
  it('names_the_quote_slot', () => {
    const d = priceTickRule(
      quotes(BTCUSDT, [
        { slot: 'b0', side: 'buy', price: '99.99', quantity: '0.1' },
        { slot: 'b1', side: 'buy', price: '99.985', quantity: '0.1' },
      ]),
      spotInstrument(),
      spotState(),
    );
    expect(d?.slot).to.equal('b1');
  });
});

describe('rule quantity-step', () => {
  it('denies_a_quantity_between_steps', () => {
    expect(quantityStepRule(spotBuy('100', '0.0000015'), spotInstrument(), spotState())?.reason).to.equal(
      'quantity 0.0000015 is not a multiple of the step 0.000001 (truncated: 0.000001)',
    );
  });
  it('passes_whole_steps', () => {
    expect(quantityStepRule(spotBuy('100', '0.000002'), spotInstrument(), spotState())).to.equal(undefined);
  });
  it('denies_fractional_contracts', () => {
    expect(quantityStepRule(cBuy('100', '1.5'), contractInstrument(), contractState())?.rule).to.equal('quantity-step');
  });
  it('denies_a_quote_amount_finer_than_the_quote_precision', () => {
    expect(quantityStepRule(f.marketBuyQuote(BTCUSDT, '10.001'), spotInstrument(), spotState())?.rule).to.equal('quantity-step');
  });
});

describe('rule quantity-bounds', () => {
  it('passes_at_exact_min_quantity_and_denies_below', () => {
    const inst = spotInstrument({ minQuantity: D('0.001') });
    expect(quantityBoundsRule(spotBuy('100', '0.001'), inst, spotState())).to.equal(undefined);
    expect(quantityBoundsRule(spotBuy('100', '0.000999'), inst, spotState())?.reason).to.equal(
      'buy 0.000999 @ 100: quantity 0.000999 is below the minimum 0.001 BTC',
    );
  });
  it('keeps_contract_volume_within_min_and_max_vol', () => {
    const inst = contractInstrument({ minVol: D(10) });
    expect(quantityBoundsRule(cBuy('100', '9'), inst, contractState())?.reason).to.match(/below minVol 10/);
    expect(quantityBoundsRule(cBuy('100', '10'), inst, contractState())).to.equal(undefined);
    expect(quantityBoundsRule(cBuy('100', '400000'), inst, contractState())).to.equal(undefined);
    expect(quantityBoundsRule(cBuy('100', '400001'), inst, contractState())?.reason).to.match(/above maxVol 400000/);
  });
});

describe('rule notional-bounds', () => {
  const inst = spotInstrument({ minQuoteAmount: D(5), maxQuoteAmount: D(1000) });
  it('passes_at_exact_min_notional', () => {
    // 0.05 × 100 = 5
    expect(notionalBoundsRule(spotBuy('100', '0.05'), inst, spotState())).to.equal(undefined);
  });
  it('denies_below_min_notional_with_the_arithmetic', () => {
    // 0.049999 × 100 = 4.9999
    expect(notionalBoundsRule(spotBuy('100', '0.049999'), inst, spotState())?.reason).to.equal(
      'buy 0.049999 @ 100: amount 4.9999 USDT (0.049999 × 100) is below the minimum 5 USDT',
    );
  });
  it('passes_at_exact_max_and_denies_above', () => {
    expect(notionalBoundsRule(spotBuy('100', '10'), inst, spotState())).to.equal(undefined);
    expect(notionalBoundsRule(spotBuy('100', '10.000001'), inst, spotState())?.reason).to.match(/above the maximum 1000 USDT/);
  });
  it('estimates_a_market_order_by_walking_the_book', () => {
    // asks 100.01 × 0.01 and 100.05 × 1: 0.02 costs 1.0001 + 1.0005 = 2.0006
    const s = spotState({
      snapshot: snapshot(BTCUSDT, {
        asks: [
          ['100.01', '0.01'],
          ['100.05', '1'],
        ],
        last: '100',
        pollTime: NOW,
      }),
    });
    expect(notionalBoundsRule(f.market(BTCUSDT, 'buy', '0.02'), spotInstrument({ minQuoteAmountMarket: D('2.0006') }), s)).to.equal(
      undefined,
    );
    expect(notionalBoundsRule(f.market(BTCUSDT, 'buy', '0.02'), spotInstrument({ minQuoteAmountMarket: D('2.0007') }), s)?.rule).to.equal(
      'notional-bounds',
    );
  });
  it('denies_a_market_order_it_cannot_value', () => {
    const s = spotState({ snapshot: { symbol: BTCUSDT, kind: 'spot', pollTime: NOW } });
    expect(notionalBoundsRule(f.market(BTCUSDT, 'buy', '0.02'), inst, s)?.reason).to.match(/no book or ticker.*fail closed/);
  });
  it('uses_the_quote_amount_of_a_market_buy_by_amount', () => {
    expect(
      notionalBoundsRule(f.marketBuyQuote(BTCUSDT, '4.99'), spotInstrument({ minQuoteAmountMarket: D(5) }), spotState())?.rule,
    ).to.equal('notional-bounds');
  });
});
