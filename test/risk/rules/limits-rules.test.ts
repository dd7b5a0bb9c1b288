import { expect } from 'chai';
import { accountKnownRule } from '../../../src/risk/rules/account-known-rule.js';
import { instrumentKnownRule } from '../../../src/risk/rules/instrument-known-rule.js';
import { intentShapeRule } from '../../../src/risk/rules/intent-shape-rule.js';
import { killSwitchRule } from '../../../src/risk/rules/kill-switch-rule.js';
import { marketDataRule } from '../../../src/risk/rules/market-data-rule.js';
import { orderKnownRule } from '../../../src/risk/rules/order-known-rule.js';
import { positionModeRule } from '../../../src/risk/rules/position-mode-rule.js';
import { strategyLimitsRule } from '../../../src/risk/rules/strategy-limits-rule.js';
import { tpslRule } from '../../../src/risk/rules/tpsl-rule.js';
import { clientOrderId, strategyId } from '../../../src/core/ids.js';
import { BTC_USDT, BTCUSDT, contractInstrument, order, position, S1, snapshot, spotInstrument } from '../../domain/support/builders.js';
import { cBuy, contractState, cSell, D, f, limits, NOW, quotes, spotBuy, spotSell, spotState } from '../support.js';

describe('rule intent-shape', () => {
  it('denies_a_quote_set_with_a_repeated_slot', () => {
    const set = quotes(BTCUSDT, [
      { slot: 'b0', side: 'buy', price: '99', quantity: '1' },
      { slot: 'b0', side: 'buy', price: '98', quantity: '1' },
    ]);
    expect(intentShapeRule(set, spotInstrument(), spotState())?.reason).to.equal('quote slot b0 appears twice');
  });
  it('denies_a_bad_slot_name_and_zero_quantities', () => {
    expect(
      intentShapeRule(quotes(BTCUSDT, [{ slot: 'BID', side: 'buy', price: '99', quantity: '1' }]), spotInstrument(), spotState())?.rule,
    ).to.equal('intent-shape');
    expect(
      intentShapeRule(quotes(BTCUSDT, [{ slot: 'b0', side: 'buy', price: '99', quantity: '0' }]), spotInstrument(), spotState())?.rule,
    ).to.equal('intent-shape');
  });
  it('denies_a_malformed_order_and_an_empty_amend', () => {
    const bad = { ...f.limit(BTCUSDT, 'buy', '1', '1') };
    const { price: _p, ...noPrice } = (bad as { order: object }).order as Record<string, unknown>;
    expect(intentShapeRule({ ...bad, order: noPrice } as never, spotInstrument(), spotState())?.reason).to.match(/order.price/);
    expect(intentShapeRule(f.amend(BTCUSDT, clientOrderId('x'), {}), spotInstrument(), spotState())?.rule).to.equal('intent-shape');
  });
  it('passes_a_well_formed_quote_set', () => {
    expect(
      intentShapeRule(quotes(BTCUSDT, [{ slot: 'b0', side: 'buy', price: '99', quantity: '1' }]), spotInstrument(), spotState()),
    ).to.equal(undefined);
  });
});

describe('fail-closed rules', () => {
  it('denies_an_intent_about_an_unknown_instrument', () => {
    expect(instrumentKnownRule(spotBuy('100', '1'), undefined, spotState())?.rule).to.equal('instrument-known');
    expect(instrumentKnownRule(f.cancel(BTCUSDT, clientOrderId('x')), undefined, spotState())).to.equal(undefined);
  });
  it('denies_a_new_order_without_account_balances', () => {
    const { account: _a, ...noAccount } = spotState();
    expect(accountKnownRule(spotBuy('100', '1'), spotInstrument(), noAccount)?.rule).to.equal('account-known');
    expect(accountKnownRule(f.cancelAll(BTCUSDT), spotInstrument(), noAccount)).to.equal(undefined);
  });
  it('denies_without_a_snapshot', () => {
    const { snapshot: _s, ...noSnap } = spotState();
    expect(marketDataRule(spotBuy('100', '1'), spotInstrument(), noSnap)?.reason).to.equal('no market snapshot for BTCUSDT (fail closed)');
  });
  it('passes_a_snapshot_exactly_at_the_age_limit_and_denies_one_ms_older', () => {
    const lim = limits({ maxSnapshotAgeMs: 5_000 });
    const at = spotState({ limits: lim, snapshot: snapshot(BTCUSDT, { last: '100', pollTime: NOW - 5_000 }) });
    expect(marketDataRule(spotBuy('100', '1'), spotInstrument(), at)).to.equal(undefined);
    const older = spotState({ limits: lim, snapshot: snapshot(BTCUSDT, { last: '100', pollTime: NOW - 5_001 }) });
    expect(marketDataRule(spotBuy('100', '1'), spotInstrument(), older)?.reason).to.equal(
      'the BTCUSDT snapshot is 5001 ms old; the limit is 5000 ms',
    );
  });
  it('denies_a_snapshot_of_another_symbol', () => {
    const s = spotState({ snapshot: snapshot(BTC_USDT, { pollTime: NOW }) });
    expect(marketDataRule(spotBuy('100', '1'), spotInstrument(), s)?.rule).to.equal('market-data');
  });
});

describe('rule order-known', () => {
  it('denies_an_amend_of_an_order_we_do_not_have_or_of_another_strategy', () => {
    expect(orderKnownRule(f.amend(BTCUSDT, clientOrderId('nope'), { price: '1' }), spotInstrument(), spotState())?.reason).to.equal(
      'order nope is not a live order of ours',
    );
    const theirs = order({ strategyId: strategyId('other') });
    expect(
      orderKnownRule(f.amend(BTCUSDT, theirs.clientOrderId, { price: '1' }), spotInstrument(), spotState({ openOrders: [theirs] }))?.reason,
    ).to.match(/belongs to strategy other/);
  });
  it('denies_chasing_an_order_that_is_being_cancelled', () => {
    const leaving = order({ status: 'pending-cancel' });
    expect(
      orderKnownRule(f.chase(BTCUSDT, leaving.clientOrderId, 3), spotInstrument(), spotState({ openOrders: [leaving] }))?.reason,
    ).to.match(/is pending-cancel/);
  });
  it('passes_a_resting_order_of_ours', () => {
    const mine = order();
    expect(
      orderKnownRule(f.amend(BTCUSDT, mine.clientOrderId, { price: '1' }), spotInstrument(), spotState({ openOrders: [mine] })),
    ).to.equal(undefined);
  });
});

describe('rule strategy-limits', () => {
  const lim = limits({ strategies: { [S1]: { maxPositionQty: D(1), maxNotional: D(150) } } });
  it('passes_at_exactly_the_position_limit_and_denies_one_step_more', () => {
    const s = spotState({ limits: lim, strategyPositions: [position(BTCUSDT, '0.5', '100')] });
    expect(strategyLimitsRule(spotBuy('100', '0.5'), spotInstrument(), s)).to.equal(undefined);
    expect(strategyLimitsRule(spotBuy('100', '0.500001'), spotInstrument(), s)?.reason).to.equal(
      'strategy mm1 could reach a position of 1.000001 on BTCUSDT (position 0.5, open buys 0.500001, sells 0); its limit is 1',
    );
  });
  it('counts_open_sells_toward_the_short_side', () => {
    const s = spotState({ limits: lim, openOrders: [order({ side: 'sell', quantity: D('0.8') })] });
    expect(strategyLimitsRule(spotSell('100', '0.2'), spotInstrument(), s)).to.equal(undefined);
    expect(strategyLimitsRule(spotSell('100', '0.3'), spotInstrument(), s)?.rule).to.equal('strategy-limits');
  });
  it('values_the_worst_position_at_the_mark', () => {
    // mark = mid 100; 1.5 × 100 = 150 passes; the qty limit of 1 is lifted for this case
    const wide = limits({ strategies: { [S1]: { maxNotional: D(150) } } });
    expect(strategyLimitsRule(spotBuy('100', '1.5'), spotInstrument(), spotState({ limits: wide }))).to.equal(undefined);
    expect(strategyLimitsRule(spotBuy('100', '1.500001'), spotInstrument(), spotState({ limits: wide }))?.reason).to.match(
      /notional of 150.0001/,
    );
  });
  it('includes_the_contract_size_for_contracts', () => {
    // 10 000 contracts × 100 × 0.0001 = 100 ≤ 150
    const c = limits({ strategies: { [S1]: { maxNotional: D(150) } } });
    expect(strategyLimitsRule(cBuy('100', '10000'), contractInstrument(), contractState({ limits: c }))).to.equal(undefined);
    expect(strategyLimitsRule(cBuy('100', '15001'), contractInstrument(), contractState({ limits: c }))?.rule).to.equal('strategy-limits');
  });
  it('passes_strategies_without_limits', () => {
    expect(strategyLimitsRule(spotBuy('100', '1000'), spotInstrument(), spotState())).to.equal(undefined);
  });
});

describe('rule kill-switch', () => {
  const ks = (over: object) => limits({ killSwitch: { rejectWindowMs: 60_000, ...over } });
  it('trips_at_exactly_the_max_drawdown', () => {
    // (1000 − 800) / 1000 = 0.2 ≥ 0.2
    const s = spotState({ limits: ks({ maxDrawdown: D('0.2') }), metrics: { equity: D(800), peakEquity: D(1000), rejectTimes: [] } });
    expect(killSwitchRule(spotBuy('100', '1'), spotInstrument(), s)?.reason).to.equal(
      'drawdown 20% (peak 1000, equity 800) reached the limit 20%',
    );
    const ok = spotState({ limits: ks({ maxDrawdown: D('0.2') }), metrics: { equity: D('800.01'), peakEquity: D(1000), rejectTimes: [] } });
    expect(killSwitchRule(spotBuy('100', '1'), spotInstrument(), ok)).to.equal(undefined);
  });
  it('trips_on_the_daily_loss', () => {
    const s = (eq: string) =>
      spotState({ limits: ks({ maxDailyLoss: D(50) }), metrics: { equity: D(eq), dayStartEquity: D(1000), rejectTimes: [] } });
    expect(killSwitchRule(spotBuy('100', '1'), spotInstrument(), s('950'))?.reason).to.match(/daily loss 50/);
    expect(killSwitchRule(spotBuy('100', '1'), spotInstrument(), s('950.01'))).to.equal(undefined);
  });
  it('trips_on_too_many_rejections_within_the_window', () => {
    const lim = ks({ maxRejects: 3 });
    const inWindow = spotState({ limits: lim, metrics: { rejectTimes: [NOW - 59_999, NOW - 10, NOW] } });
    expect(killSwitchRule(spotBuy('100', '1'), spotInstrument(), inWindow)?.reason).to.equal(
      '3 venue rejections in the last 60000 ms reached the limit 3',
    );
    const oneOld = spotState({ limits: lim, metrics: { rejectTimes: [NOW - 60_000, NOW - 10, NOW] } });
    expect(killSwitchRule(spotBuy('100', '1'), spotInstrument(), oneOld)).to.equal(undefined);
  });
  it('denies_when_equity_is_unknown_and_loss_limits_are_set', () => {
    expect(killSwitchRule(spotBuy('100', '1'), spotInstrument(), spotState({ limits: ks({ maxDailyLoss: D(1) }) }))?.reason).to.match(
      /equity unknown/,
    );
  });
  it('lets_cancels_and_reduce_only_orders_through', () => {
    const s = spotState({ limits: ks({ maxDrawdown: D('0.1') }), metrics: { equity: D(1), peakEquity: D(1000), rejectTimes: [] } });
    expect(killSwitchRule(f.cancelAll(BTCUSDT), spotInstrument(), s)).to.equal(undefined);
    expect(killSwitchRule(cSell('100', '1', { reduceOnly: true }), contractInstrument(), s)).to.equal(undefined);
  });
});

describe('rule position-mode-change', () => {
  it('denies_a_switch_with_open_orders_or_positions', () => {
    expect(
      positionModeRule(f.positionMode('hedged'), undefined, contractState({ openOrders: [order({ symbol: BTC_USDT })] }))?.reason,
    ).to.match(/1 open contract orders and 0 open positions/);
    expect(
      positionModeRule(f.positionMode('hedged'), undefined, contractState({ positions: [position(BTC_USDT, '1', '100')] }))?.rule,
    ).to.equal('position-mode-change');
  });
  it('passes_when_flat_or_already_in_that_mode', () => {
    expect(positionModeRule(f.positionMode('hedged'), undefined, contractState())).to.equal(undefined);
    expect(positionModeRule(f.positionMode('one-way'), undefined, contractState({ positions: [position(BTC_USDT, '1', '100')] }))).to.equal(
      undefined,
    );
  });
});

describe('rule tpsl', () => {
  const inst = contractInstrument();
  it('denies_a_take_profit_below_a_long_entry_and_a_stop_above_it', () => {
    expect(tpslRule(cBuy('100', '1', { takeProfitPrice: '99' }), inst, contractState())?.reason).to.equal(
      'buy 1: take-profit 99 must be above 100 for a long position',
    );
    expect(tpslRule(cBuy('100', '1', { stopLossPrice: '100' }), inst, contractState())?.rule).to.equal('tpsl');
    expect(tpslRule(cBuy('100', '1', { takeProfitPrice: '110', stopLossPrice: '95' }), inst, contractState())).to.equal(undefined);
  });
  it('reverses_for_shorts', () => {
    expect(tpslRule(cSell('100', '1', { takeProfitPrice: '90', stopLossPrice: '105' }), inst, contractState())).to.equal(undefined);
    expect(tpslRule(cSell('100', '1', { takeProfitPrice: '101' }), inst, contractState())?.rule).to.equal('tpsl');
  });
  it('checks_a_position_tpsl_against_the_entry', () => {
    const s = contractState({ positions: [position(BTC_USDT, '5', '100')] });
    expect(tpslRule(f.tpsl(BTC_USDT, {}, { stopLoss: '101' }), inst, s)?.reason).to.match(/stop-loss 101 must be below 100/);
    expect(tpslRule(f.tpsl(BTC_USDT, {}, { stopLoss: '99' }), inst, s)).to.equal(undefined);
    expect(tpslRule(f.tpsl(BTC_USDT, {}, { stopLoss: '99' }), inst, contractState())?.reason).to.match(/no open BTC_USDT net position/);
  });
  it('denies_tpsl_on_spot', () => {
    expect(tpslRule(f.tpsl(BTCUSDT, {}, { stopLoss: '99' }), spotInstrument(), spotState())?.rule).to.equal('tpsl');
  });
});
