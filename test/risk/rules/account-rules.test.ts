import { expect } from 'chai';
import { freeBalanceRule } from '../../../src/risk/rules/free-balance-rule.js';
import { leverageRule, tierFor } from '../../../src/risk/rules/leverage-rule.js';
import { maxOpenOrdersRule } from '../../../src/risk/rules/max-open-orders-rule.js';
import { positionSideRule } from '../../../src/risk/rules/position-side-rule.js';
import { reduceOnlyRule } from '../../../src/risk/rules/reduce-only-rule.js';
import { InstrumentRegistry } from '../../../src/domain/instrument-registry.js';
import {
  account,
  balance,
  BTC_USDT,
  BTCUSDT,
  contractInstrument,
  ETHUSDT,
  order,
  position,
  spotInstrument,
} from '../../domain/support/builders.js';
import { cBuy, contractState, cSell, D, f, quotes, spotBuy, spotSell, spotState } from '../support.js';

const live = (n: number, over: Parameters<typeof order>[0] = {}) => Array.from({ length: n }, () => order(over));

describe('rule leverage', () => {
  const inst = contractInstrument();
  it('denies_leverage_above_the_contract_maximum', () => {
    expect(leverageRule(cBuy('100', '1', { leverage: 501 }), inst, contractState())?.reason).to.equal(
      "buy 1: leverage 501 is outside BTC_USDT's 1–500",
    );
  });
  it('passes_the_top_tier_leverage_at_exactly_the_tier_size', () => {
    // 50 000 contracts fits tier 1 (maxVol 50 000, max leverage 500)
    expect(tierFor(inst, D(50000))!.level).to.equal(1);
    expect(leverageRule(cBuy('100', '50000', { leverage: 500 }), inst, contractState())).to.equal(undefined);
  });
  it('denies_when_the_resulting_position_falls_in_a_tier_with_lower_max_leverage', () => {
    // 49 001 held + 1 000 = 50 001 → tier 2 (max 200)
    const s = contractState({ positions: [position(BTC_USDT, '49001', '100')] });
    expect(leverageRule(cBuy('100', '1000', { leverage: 500 }), inst, s)?.reason).to.match(
      /leverage 500 is above 200, the maximum of risk tier 2 .* 50001 contracts/,
    );
    expect(leverageRule(cBuy('100', '1000', { leverage: 200 }), inst, s)).to.equal(undefined);
  });
  it('counts_open_orders_of_the_same_direction_as_filled', () => {
    const s = contractState({ openOrders: [order({ symbol: BTC_USDT, quantity: D(49500), price: D(100) })] });
    expect(leverageRule(cBuy('100', '501', { leverage: 500 }), inst, s)?.rule).to.equal('leverage');
  });
  it('denies_a_position_beyond_the_last_tier', () => {
    const s = contractState({ positions: [position(BTC_USDT, '8400000', '100')] });
    expect(leverageRule(cBuy('100', '100001', { leverage: 10 }), inst, s)?.reason).to.match(
      /exceeds the largest risk tier \(maxVol 8500000\)/,
    );
  });
  it('denies_an_opening_order_with_no_leverage_known', () => {
    expect(leverageRule(cBuy('100', '1'), inst, contractState({ leverage: {} }))?.reason).to.match(/no leverage given and none known/);
  });
  it('ignores_closing_orders', () => {
    const s = contractState({ leverage: {}, positions: [position(BTC_USDT, '5', '100')] });
    expect(leverageRule(cSell('100', '5', { reduceOnly: true }), inst, s)).to.equal(undefined);
  });
  it('checks_a_set_leverage_against_the_current_position_tier', () => {
    // 250 001 contracts → tier 4 (max 50)
    const s = contractState({ positions: [position(BTC_USDT, '250001', '100')] });
    expect(leverageRule(f.leverage(BTC_USDT, 100), inst, s)?.rule).to.equal('leverage');
    expect(leverageRule(f.leverage(BTC_USDT, 50), inst, s)).to.equal(undefined);
  });
});

describe('rule max-open-orders', () => {
  const inst = contractInstrument();
  it('passes_the_last_order_the_one_way_limit_allows_and_denies_the_next', () => {
    // maxNumOrders [200 hedged, 50 one-way]
    expect(maxOpenOrdersRule(cBuy('100', '1'), inst, contractState({ openOrders: live(49, { symbol: BTC_USDT }) }))).to.equal(undefined);
    expect(maxOpenOrdersRule(cBuy('100', '1'), inst, contractState({ openOrders: live(50, { symbol: BTC_USDT }) }))?.reason).to.equal(
      '51 open orders on BTC_USDT (one-way) would exceed the limit of 50 (now 50)',
    );
  });
  it('uses_the_hedged_limit_in_hedged_mode_and_the_smaller_when_unknown', () => {
    expect(
      maxOpenOrdersRule(cBuy('100', '1'), inst, contractState({ positionMode: 'hedged', openOrders: live(50, { symbol: BTC_USDT }) })),
    ).to.equal(undefined);
    const unknown = contractState({ openOrders: live(50, { symbol: BTC_USDT }) });
    const { positionMode: _m, ...noMode } = unknown;
    expect(maxOpenOrdersRule(cBuy('100', '1'), inst, noMode)?.rule).to.equal('max-open-orders');
  });
  it('counts_orders_pending_cancel', () => {
    expect(
      maxOpenOrdersRule(cBuy('100', '1'), inst, contractState({ openOrders: live(50, { symbol: BTC_USDT, status: 'pending-cancel' }) }))
        ?.rule,
    ).to.equal('max-open-orders');
  });
  it('caps_spot_at_500_per_account_counting_orders_not_ours', () => {
    expect(maxOpenOrdersRule(spotBuy('100', '0.1'), spotInstrument(), spotState({ venueOpenOrderCount: 499 }))).to.equal(undefined);
    expect(maxOpenOrdersRule(spotBuy('100', '0.1'), spotInstrument(), spotState({ venueOpenOrderCount: 500 }))?.reason).to.match(
      /501 open orders on the spot account would exceed the limit of 500/,
    );
  });
  it('lets_a_quote_set_replace_its_own_orders_and_denies_the_farthest_extra_quote', () => {
    const mine = live(2, { symbol: BTC_USDT });
    const s = contractState({ openOrders: [...live(48, { symbol: BTC_USDT, strategyId: 'x' as never }), ...mine] });
    const set = quotes(BTC_USDT, [
      { slot: 'b0', side: 'buy', price: '99', quantity: '1' },
      { slot: 'b1', side: 'buy', price: '98', quantity: '1' },
      { slot: 'b2', side: 'buy', price: '97', quantity: '1' },
    ]);
    // 50 − 2 released + 3 = 51: the farthest bid (97, b2) is the one denied
    expect(maxOpenOrdersRule(set, inst, s)?.slot).to.equal('b2');
  });
});

describe('rule free-balance', () => {
  const inst = spotInstrument();
  it('passes_a_buy_that_uses_exactly_the_free_quote', () => {
    const s = spotState({ account: account('spot', balance('USDT', '100')) });
    expect(freeBalanceRule(spotBuy('100', '1'), inst, s)).to.equal(undefined);
  });
  it('denies_a_buy_one_step_beyond_the_free_quote', () => {
    const s = spotState({ account: account('spot', balance('USDT', '100')) });
    // 1.000001 × 100 = 100.0001 > 100
    expect(freeBalanceRule(spotBuy('100', '1.000001'), inst, s)?.reason).to.match(
      /^needs 100.0001 USDT \(1 order\) but 100 USDT is available/,
    );
  });
  it('keeps_counting_an_order_pending_cancel_until_the_venue_confirms', () => {
    // the venue balance is stale (free 100, locked 0) but our pending-cancel buy 0.3 @ 100 still holds 30 → 70 available
    const pending = order({ status: 'pending-cancel', price: D(100), quantity: D('0.3') });
    const s = spotState({ account: account('spot', balance('USDT', '100')), openOrders: [pending] });
    expect(freeBalanceRule(spotBuy('100', '0.7'), inst, s)).to.equal(undefined);
    const d = freeBalanceRule(spotBuy('100', '0.700001'), inst, s);
    expect(d?.reason).to.equal(
      'needs 70.0001 USDT (1 order) but 70 USDT is available (free 100, locked 0, held by our orders 30 incl. 1 pending cancel, released by this intent 0)',
    );
  });
  it('needs_base_for_a_spot_sell', () => {
    const s = spotState({ account: account('spot', balance('BTC', '0.5')) });
    expect(freeBalanceRule(spotSell('100', '0.5'), inst, s)).to.equal(undefined);
    expect(freeBalanceRule(spotSell('100', '0.500001'), inst, s)?.reason).to.match(/BTC/);
  });
  it('credits_the_orders_a_quote_set_replaces', () => {
    // free 40, our resting quote holds 60 (locked): available 40 + released 60 = 100
    const resting = order({ slot: 'b0', price: D(100), quantity: D('0.6') });
    const s = spotState({ account: account('spot', balance('USDT', '40', '60')), openOrders: [resting] });
    expect(freeBalanceRule(quotes(BTCUSDT, [{ slot: 'b0', side: 'buy', price: '100', quantity: '1' }]), inst, s)).to.equal(undefined);
    expect(freeBalanceRule(quotes(BTCUSDT, [{ slot: 'b0', side: 'buy', price: '100', quantity: '1.000001' }]), inst, s)?.rule).to.equal(
      'free-balance',
    );
  });
  it('denies_the_farthest_quote_that_does_not_fit', () => {
    const s = spotState({ account: account('spot', balance('USDT', '150')) });
    const set = quotes(BTCUSDT, [
      { slot: 'b1', side: 'buy', price: '99', quantity: '1' },
      { slot: 'b0', side: 'buy', price: '100', quantity: '0.5' },
    ]);
    // nearest first: b0 needs 50, then b1 adds 99 → 149 ≤ 150 passes; with 148 free b1 is denied
    expect(freeBalanceRule(set, inst, s)).to.equal(undefined);
    expect(freeBalanceRule(set, inst, spotState({ account: account('spot', balance('USDT', '148')) }))?.slot).to.equal('b1');
  });
  it('prices_contract_margin_as_notional_over_leverage_plus_the_taker_fee', () => {
    // 1000 contracts × 0.0001 BTC × 100 = 10 USDT notional; /10 = 1; fee 10 × 0.0001 = 0.001 → 1.001
    const c = contractInstrument();
    expect(freeBalanceRule(cBuy('100', '1000'), c, contractState({ account: account('contract', balance('USDT', '1.001')) }))).to.equal(
      undefined,
    );
    expect(
      freeBalanceRule(cBuy('100', '1000'), c, contractState({ account: account('contract', balance('USDT', '1.000999')) }))?.reason,
    ).to.match(/^needs 1.001 USDT/);
  });
  it('values_the_same_resting_order_again_when_its_leg_leverage_changes', () => {
    // The rule keeps a resting limit order's reservation per order object; the leg's leverage is part
    // of it. Resting buy 1000 @ 100 with no leverage of its own: 10 USDT notional. At leverage 10 it
    // holds 1 + 0.001 fee = 1.001; available min(2, 2 + 1 − 1.001) = 1.999 covers the new order's
    // 1.001 (it carries leverage 10 itself). At leverage 2 the same object holds 5 + 0.001 = 5.001:
    // available min(2, 3 − 5.001) < 0, so the same new order is denied.
    const c = contractInstrument();
    const resting = order({ symbol: BTC_USDT, price: D('100'), quantity: D('1000') });
    const acct = account('contract', balance('USDT', '2', '1'));
    const at = (lev: number) =>
      contractState({
        account: acct,
        openOrders: [resting],
        leverage: { 'BTC_USDT|net': lev, 'BTC_USDT|long': lev, 'BTC_USDT|short': lev },
      });
    expect(freeBalanceRule(cBuy('100', '1000', { leverage: 10 }), c, at(10))).to.equal(undefined);
    expect(freeBalanceRule(cBuy('100', '1000', { leverage: 10 }), c, at(2))?.reason).to.match(/held by our orders 5.001/);
    expect(freeBalanceRule(cBuy('100', '1000', { leverage: 10 }), c, at(10))).to.equal(undefined);
  });
  it('needs_no_margin_to_close', () => {
    const s = contractState({ account: account('contract', balance('USDT', '0')), positions: [position(BTC_USDT, '5', '100')] });
    expect(freeBalanceRule(cSell('100', '5', { reduceOnly: true }), contractInstrument(), s)).to.equal(undefined);
  });
  it('denies_when_an_order_on_another_symbol_cannot_be_valued', () => {
    const s = spotState({ openOrders: [order({ symbol: ETHUSDT })] });
    expect(freeBalanceRule(spotBuy('100', '1'), inst, s)?.reason).to.match(/no instrument rules for ETHUSDT/);
    const eth = spotInstrument({ symbol: ETHUSDT, baseAsset: 'ETH' });
    // ETH buy 1 @ 100 holds 100 USDT: 10 000 − 100 = 9 900 left
    const withLookup = spotState({ openOrders: [order({ symbol: ETHUSDT })], instruments: new InstrumentRegistry([eth]) });
    expect(freeBalanceRule(spotBuy('100', '99'), inst, withLookup)).to.equal(undefined);
    expect(freeBalanceRule(spotBuy('100', '99.000001'), inst, withLookup)?.rule).to.equal('free-balance');
  });
  it('leaves_missing_balances_to_the_account_known_rule', () => {
    const { account: _a, ...noAccount } = spotState();
    // without balances the account-known rule denies; this rule alone has nothing to compare
    expect(freeBalanceRule(spotBuy('100', '1'), inst, noAccount)).to.equal(undefined);
  });
});

describe('rule reduce-only', () => {
  const inst = contractInstrument();
  it('denies_reduce_only_on_spot', () => {
    expect(reduceOnlyRule(spotSell('100', '1', { reduceOnly: true }), spotInstrument(), spotState())?.reason).to.equal(
      'spot orders cannot be reduce-only',
    );
  });
  it('denies_reduce_only_in_hedged_mode', () => {
    expect(reduceOnlyRule(cSell('100', '1', { reduceOnly: true }), inst, contractState({ positionMode: 'hedged' }))?.rule).to.equal(
      'reduce-only',
    );
  });
  it('passes_a_close_of_the_whole_position_and_denies_one_more_contract', () => {
    const s = contractState({ positions: [position(BTC_USDT, '5', '100')] });
    expect(reduceOnlyRule(cSell('100', '5', { reduceOnly: true }), inst, s)).to.equal(undefined);
    expect(reduceOnlyRule(cSell('100', '6', { reduceOnly: true }), inst, s)?.reason).to.equal(
      'closing sell orders would total 6 (this 6 + 0 already open) but the net position is 5',
    );
  });
  it('counts_closing_orders_already_open', () => {
    const s = contractState({
      positions: [position(BTC_USDT, '5', '100')],
      openOrders: [order({ symbol: BTC_USDT, side: 'sell', reduceOnly: true, quantity: D(2) })],
    });
    expect(reduceOnlyRule(cSell('100', '3', { reduceOnly: true }), inst, s)).to.equal(undefined);
    expect(reduceOnlyRule(cSell('100', '4', { reduceOnly: true }), inst, s)?.rule).to.equal('reduce-only');
  });
  it('denies_a_reduce_only_order_on_the_wrong_side_or_without_position', () => {
    const s = contractState({ positions: [position(BTC_USDT, '5', '100')] });
    expect(reduceOnlyRule(cBuy('100', '1', { reduceOnly: true }), inst, s)?.reason).to.match(/closes nothing/);
    expect(reduceOnlyRule(cSell('100', '1', { reduceOnly: true }), inst, contractState())?.reason).to.match(/closes nothing/);
  });
  it('checks_a_hedged_close_against_its_leg', () => {
    const s = contractState({ positionMode: 'hedged', positions: [position(BTC_USDT, '10', '100', 'long')] });
    expect(reduceOnlyRule(cSell('100', '10', { positionSide: 'long' }), inst, s)).to.equal(undefined);
    expect(reduceOnlyRule(cSell('100', '11', { positionSide: 'long' }), inst, s)?.rule).to.equal('reduce-only');
  });
});

describe('rule position-side', () => {
  const inst = contractInstrument();
  it('denies_a_hedged_order_without_a_leg_and_a_one_way_order_with_one', () => {
    expect(positionSideRule(cBuy('100', '1'), inst, contractState({ positionMode: 'hedged' }))?.rule).to.equal('position-side');
    expect(positionSideRule(cBuy('100', '1', { positionSide: 'long' }), inst, contractState())?.rule).to.equal('position-side');
    expect(positionSideRule(cBuy('100', '1', { positionSide: 'long' }), inst, contractState({ positionMode: 'hedged' }))).to.equal(
      undefined,
    );
  });
  it('denies_when_the_mode_is_unknown', () => {
    const { positionMode: _m, ...noMode } = contractState();
    expect(positionSideRule(cBuy('100', '1'), inst, noMode)?.reason).to.match(/unknown \(fail closed\)/);
  });
  it('denies_a_position_side_on_spot', () => {
    expect(positionSideRule(spotBuy('100', '1', { positionSide: 'long' }), spotInstrument(), spotState())?.rule).to.equal('position-side');
  });
});
