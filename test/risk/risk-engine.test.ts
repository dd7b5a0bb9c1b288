import { expect } from 'chai';
import { clientOrderId } from '../../src/core/ids.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import { RiskEngine } from '../../src/risk/risk-engine.js';
import type { RiskRule } from '../../src/risk/risk-rule.js';
import { childClientId, encodeClientId } from '../../src/domain/client-id-codec.js';
import { account, balance, BTCUSDT, order, S1, spotInstrument } from '../domain/support/builders.js';
import { D, f, limits, NOW, quotes, spotBuy, spotState } from './support.js';

const types = (es: readonly ExecutionEvent[]) => es.map((e) => e.type);

describe('RiskEngine', () => {
  it('approves_a_valid_intent_unchanged', () => {
    const intent = spotBuy('100', '0.1');
    const d = new RiskEngine().evaluate(intent, spotInstrument(), spotState());
    expect(d.approved).to.equal(intent);
    expect(d.denials).to.deep.equal([]);
  });

  it('turns_a_denial_into_an_intent_denied_event_naming_rule_and_reason', () => {
    const intent = spotBuy('100.005', '0.1');
    const d = new RiskEngine().evaluate(intent, spotInstrument(), spotState());
    expect(d.approved).to.equal(undefined);
    expect(d.events).to.have.length(1);
    expect(d.events[0]).to.deep.include({ type: 'IntentDenied', rule: 'price-tick', strategyId: S1, intent, ts: NOW });
  });

  it('fails_closed_without_instrument_account_or_snapshot', () => {
    const e = new RiskEngine();
    expect(e.evaluate(spotBuy('100', '0.1'), undefined, spotState()).denials[0]!.rule).to.equal('instrument-known');
    const { account: _a, ...noAccount } = spotState();
    expect(e.evaluate(spotBuy('100', '0.1'), spotInstrument(), noAccount).denials[0]!.rule).to.equal('account-known');
    const { snapshot: _s, ...noSnapshot } = spotState();
    expect(e.evaluate(spotBuy('100', '0.1'), spotInstrument(), noSnapshot).denials[0]!.rule).to.equal('market-data');
  });

  it('lets_a_cancel_through_even_with_nothing_known', () => {
    const { account: _a, snapshot: _s, ...bare } = spotState();
    const cancel = f.cancel(BTCUSDT, clientOrderId('x'));
    expect(new RiskEngine().evaluate(cancel, undefined, bare).approved).to.equal(cancel);
  });

  it('drops_only_the_quote_a_rule_denies', () => {
    const set = quotes(BTCUSDT, [
      { slot: 'b0', side: 'buy', price: '99.99', quantity: '0.1' },
      { slot: 'b1', side: 'buy', price: '99.985', quantity: '0.1' },
      { slot: 'a0', side: 'sell', price: '100.01', quantity: '0.1' },
    ]);
    const d = new RiskEngine().evaluate(set, spotInstrument(), spotState());
    expect(d.approved?.kind).to.equal('desired-quotes');
    expect((d.approved as Extract<typeof set, { kind: 'desired-quotes' }>).quotes.map((q) => q.slot)).to.deep.equal(['b0', 'a0']);
    expect(d.denials.map((x) => [x.rule, x.slot])).to.deep.equal([['price-tick', 'b1']]);
  });

  it('drops_quotes_until_the_rest_fits_the_balance', () => {
    // 200 USDT free: b0 0.5 × 100 = 50, + b1 1 × 99.5 = 149.5 fits, + b2 1 × 99 = 248.5 does not → b2 dropped
    const set = quotes(BTCUSDT, [
      { slot: 'b0', side: 'buy', price: '100', quantity: '0.5' },
      { slot: 'b1', side: 'buy', price: '99.5', quantity: '1' },
      { slot: 'b2', side: 'buy', price: '99', quantity: '1' },
    ]);
    const d = new RiskEngine().evaluate(set, spotInstrument(), spotState({ account: account('spot', balance('USDT', '200')) }));
    expect((d.approved as Extract<typeof set, { kind: 'desired-quotes' }>).quotes.map((q) => q.slot)).to.deep.equal(['b0', 'b1']);
    expect(d.denials.map((x) => x.slot)).to.deep.equal(['b2']);
  });

  it('keeps_an_algorithms_resting_child_held_when_judging_a_quote_set', () => {
    // A TWAP child buys 1 @ 100 (100 USDT locked, 100 free). The quote set replaces the strategy's quotes,
    // not the child (the order manager's quote diff leaves children alone), so only the 100 free count:
    // b0 0.5 × 100 = 50 fits, + b1 1 × 99.5 = 149.5 does not. Releasing the child as if it were a quote
    // counted its 100 as free again and let both through.
    const parent = encodeClientId('mm1', 'twap', NOW - 1_000, 0);
    const child = order({ clientOrderId: childClientId(parent, 1), price: D(100), quantity: D(1), status: 'accepted' });
    const set = quotes(BTCUSDT, [
      { slot: 'b0', side: 'buy', price: '100', quantity: '0.5' },
      { slot: 'b1', side: 'buy', price: '99.5', quantity: '1' },
    ]);
    const state = spotState({ account: account('spot', balance('USDT', '100', '100')), openOrders: [child] });
    const d = new RiskEngine().evaluate(set, spotInstrument(), state);
    expect((d.approved as Extract<typeof set, { kind: 'desired-quotes' }>).quotes.map((q) => q.slot)).to.deep.equal(['b0']);
    expect(d.denials.map((x) => x.slot)).to.deep.equal(['b1']);
  });

  it('withdraws_a_quote_set_it_cannot_vouch_for', () => {
    const set = quotes(BTCUSDT, [{ slot: 'b0', side: 'buy', price: '99.99', quantity: '0.1' }]);
    const d = new RiskEngine().evaluate(set, spotInstrument({ status: '2' }), spotState());
    // denied as a whole → carried out as an empty set, which cancels the resting quotes
    expect(d.approved).to.deep.include({ kind: 'desired-quotes', quotes: [] });
    expect(d.denials[0]!.rule).to.equal('instrument-status');
  });

  it('latches_the_kill_switch_until_reset', () => {
    const engine = new RiskEngine();
    const lim = limits({ killSwitch: { rejectWindowMs: 60_000, maxDrawdown: D('0.1') } });
    const bad = spotState({ limits: lim, metrics: { equity: D(80), peakEquity: D(100), rejectTimes: [] } });
    const first = engine.evaluate(spotBuy('100', '0.1'), spotInstrument(), bad);
    expect(types(first.events)).to.deep.equal(['KillSwitchTripped', 'IntentDenied']);
    const recovered = spotState({ limits: lim, metrics: { equity: D(100), peakEquity: D(100), rejectTimes: [] } });
    const later = engine.evaluate(spotBuy('100', '0.1'), spotInstrument(), recovered);
    expect(later.denials[0]!.rule).to.equal('kill-switch');
    expect(types(later.events)).to.deep.equal(['IntentDenied']);
    expect(engine.evaluate(f.cancelAll(BTCUSDT), spotInstrument(), recovered).approved?.kind).to.equal('cancel-all');
    engine.resetKillSwitch();
    expect(engine.evaluate(spotBuy('100', '0.1'), spotInstrument(), recovered).approved).to.not.equal(undefined);
  });

  it('counts_venue_rejections_it_observes_toward_the_reject_kill_switch', () => {
    const engine = new RiskEngine();
    const lim = limits({ killSwitch: { rejectWindowMs: 10_000, maxRejects: 2 } });
    const reject = (ts: number): ExecutionEvent => ({
      type: 'OrderRejected',
      ts,
      clientOrderId: clientOrderId('x'),
      symbol: BTCUSDT,
      reason: 'no',
    });
    engine.observe(reject(NOW - 20_000));
    engine.observe(reject(NOW - 5_000));
    expect(engine.evaluate(spotBuy('100', '0.1'), spotInstrument(), spotState({ limits: lim })).approved).to.not.equal(undefined);
    engine.observe(reject(NOW - 1));
    expect(engine.evaluate(spotBuy('100', '0.1'), spotInstrument(), spotState({ limits: lim })).denials[0]!.reason).to.equal(
      '2 venue rejections in the last 10000 ms reached the limit 2',
    );
  });

  it('trips_outside_an_intent_check_once', () => {
    const engine = new RiskEngine();
    const bad = spotState({
      limits: limits({ killSwitch: { rejectWindowMs: 1, maxDailyLoss: D(10) } }),
      metrics: { equity: D(80), dayStartEquity: D(100), rejectTimes: [] },
    });
    expect(engine.checkKillSwitch(bad)?.type).to.equal('KillSwitchTripped');
    expect(engine.checkKillSwitch(bad)).to.equal(undefined);
    expect(engine.killSwitch?.rule).to.equal('kill-switch');
  });

  it('denies_when_a_rule_throws', () => {
    const broken: RiskRule = function brokenRule() {
      throw new Error('boom');
    };
    const d = new RiskEngine([broken]).evaluate(spotBuy('100', '0.1'), spotInstrument(), spotState());
    expect(d.denials[0]).to.deep.equal({ rule: 'brokenRule', reason: 'rule failed: boom (fail closed)' });
  });
});
