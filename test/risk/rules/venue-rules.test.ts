import { expect } from 'chai';
import { apiPermissionRule } from '../../../src/risk/rules/api-permission-rule.js';
import { contractPriceLimitRule } from '../../../src/risk/rules/contract-price-limit-rule.js';
import { instrumentStatusRule } from '../../../src/risk/rules/instrument-status-rule.js';
import { orderTypeRule } from '../../../src/risk/rules/order-type-rule.js';
import { maxBuyPrice, minSellPrice, percentPriceRule } from '../../../src/risk/rules/percent-price-rule.js';
import { tradeSideTypeRule } from '../../../src/risk/rules/trade-side-type-rule.js';
import { BTCUSDT, contractInstrument, snapshot, spotInstrument } from '../../domain/support/builders.js';
import { cBuy, contractState, cSell, D, f, NOW, spotBuy, spotSell, spotState } from '../support.js';

describe('rule instrument-status', () => {
  it('denies_when_spot_symbol_is_paused', () => {
    const d = instrumentStatusRule(spotBuy('100', '0.1'), spotInstrument({ status: '2' }), spotState());
    expect(d).to.deep.equal({ rule: 'instrument-status', reason: 'BTCUSDT status is 2 (pause); trading needs 1 (online)' });
  });
  it('denies_when_contract_is_not_enabled', () => {
    expect(instrumentStatusRule(cBuy('100', '1'), contractInstrument({ state: 4 }), contractState())?.reason).to.match(
      /state is 4 \(paused\)/,
    );
  });
  it('passes_online_and_always_passes_cancels', () => {
    expect(instrumentStatusRule(spotBuy('100', '0.1'), spotInstrument(), spotState())).to.equal(undefined);
    expect(instrumentStatusRule(f.cancelAll(BTCUSDT), spotInstrument({ status: '3' }), spotState())).to.equal(undefined);
  });
});

describe('rule api-trading-permission', () => {
  it('denies_a_spot_symbol_outside_default_symbols', () => {
    expect(apiPermissionRule(spotBuy('100', '0.1'), spotInstrument({ apiTradable: false }), spotState())?.rule).to.equal(
      'api-trading-permission',
    );
  });
  it('ignores_is_spot_trading_allowed_which_the_venue_reports_false_for_btcusdt', () => {
    expect(
      apiPermissionRule(spotBuy('100', '0.1'), spotInstrument({ isSpotTradingAllowed: false, apiTradable: true }), spotState()),
    ).to.equal(undefined);
  });
  it('denies_a_contract_without_api_allowed', () => {
    expect(apiPermissionRule(cBuy('100', '1'), contractInstrument({ apiAllowed: false }), contractState())?.reason).to.match(
      /apiAllowed=false/,
    );
  });
});

describe('rule order-type', () => {
  it('denies_a_market_order_on_a_limit_only_symbol', () => {
    const d = orderTypeRule(f.market(BTCUSDT, 'buy', '0.1'), spotInstrument({ orderTypes: ['LIMIT'] }), spotState());
    expect(d?.reason).to.equal('BTCUSDT does not take MARKET orders (allowed: LIMIT)');
  });
  it('denies_post_only_without_limit_maker', () => {
    expect(
      orderTypeRule(spotBuy('100', '0.1', { timeInForce: 'post-only' }), spotInstrument({ orderTypes: ['LIMIT', 'MARKET'] }), spotState())
        ?.rule,
    ).to.equal('order-type');
  });
  it('passes_listed_types', () => {
    expect(orderTypeRule(spotBuy('100', '0.1'), spotInstrument(), spotState())).to.equal(undefined);
  });
});

describe('rule trade-side-type', () => {
  it('denies_a_sell_on_a_buy_only_symbol_and_passes_the_buy', () => {
    const inst = spotInstrument({ tradeSideType: 2 });
    expect(tradeSideTypeRule(spotSell('100', '0.1'), inst, spotState())?.rule).to.equal('trade-side-type');
    expect(tradeSideTypeRule(spotBuy('100', '0.1'), inst, spotState())).to.equal(undefined);
  });
  it('denies_a_buy_on_a_sell_only_symbol', () => {
    expect(tradeSideTypeRule(spotBuy('100', '0.1'), spotInstrument({ tradeSideType: 3 }), spotState())?.rule).to.equal('trade-side-type');
  });
  it('denies_everything_on_a_closed_symbol', () => {
    expect(tradeSideTypeRule(spotBuy('100', '0.1'), spotInstrument({ tradeSideType: 4 }), spotState())?.reason).to.match(
      /no orders \(closed\)/,
    );
  });
});

describe('rule percent-price-by-side', () => {
  // last 100, bidMultiplierUp 0.005 → buy ≤ 100 × 1.005 = 100.5; askMultiplierDown 0.005 → sell ≥ 100 × 0.995 = 99.5
  const inst = spotInstrument();
  it('passes_a_buy_at_exactly_the_band_edge', () => {
    expect(percentPriceRule(spotBuy('100.5', '0.1'), inst, spotState())).to.equal(undefined);
  });
  it('denies_a_buy_one_tick_above_the_band', () => {
    const d = percentPriceRule(spotBuy('100.51', '0.1'), inst, spotState());
    expect(d?.reason).to.equal('buy 0.1 @ 100.51: buy price 100.51 is above 100.5 (last 100, bidMultiplierUp 0.005)');
  });
  it('passes_a_sell_at_the_floor_and_denies_one_tick_below', () => {
    expect(percentPriceRule(spotSell('99.5', '0.1'), inst, spotState())).to.equal(undefined);
    expect(percentPriceRule(spotSell('99.49', '0.1'), inst, spotState())?.rule).to.equal('percent-price-by-side');
  });
  it('reads_values_of_one_or_more_as_plain_multipliers', () => {
    // up 1.1 → buy ≤ 110; down 1.0 reads as sell ≥ 100 × 1.0 = 100 (not 100 × 0 = 0)
    expect(maxBuyPrice(D(100), D('1.1')).toFixed()).to.equal('110');
    expect(minSellPrice(D(100), D('1')).toFixed()).to.equal('100');
    const wide = spotInstrument({ percentPriceBySide: { bidMultiplierUp: D('1.1'), askMultiplierDown: D('0.9') } });
    expect(percentPriceRule(spotBuy('110', '0.1'), wide, spotState())).to.equal(undefined);
    expect(percentPriceRule(spotBuy('110.01', '0.1'), wide, spotState())?.rule).to.equal('percent-price-by-side');
  });
  it('denies_without_a_last_price', () => {
    const s = spotState({ snapshot: snapshot(BTCUSDT, { bids: [['99', '1']], pollTime: NOW }) });
    expect(percentPriceRule(spotBuy('100', '0.1'), inst, s)?.reason).to.match(/no last price.*fail closed/);
  });
});

describe('rule contract-price-limit', () => {
  // fair 100, rates 0.1 → buy ≤ 110, sell ≥ 90
  const inst = contractInstrument();
  it('passes_at_the_limits_and_denies_one_tick_beyond', () => {
    expect(contractPriceLimitRule(cBuy('110', '1'), inst, contractState())).to.equal(undefined);
    expect(contractPriceLimitRule(cBuy('110.1', '1'), inst, contractState())?.reason).to.equal(
      'buy 1 @ 110.1: buy price 110.1 is above 110 (fair 100, bidLimitPriceRate 0.1)',
    );
    expect(contractPriceLimitRule(cSell('90', '1'), inst, contractState())).to.equal(undefined);
    expect(contractPriceLimitRule(cSell('89.9', '1'), inst, contractState())?.rule).to.equal('contract-price-limit');
  });
  it('denies_without_a_fair_price', () => {
    const s = contractState({ snapshot: snapshot(contractInstrument().symbol, { pollTime: NOW }) });
    expect(contractPriceLimitRule(cBuy('100', '1'), inst, s)?.reason).to.match(/no fair price/);
  });
});
