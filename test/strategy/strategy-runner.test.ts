import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { D } from '../../src/core/decimal.js';
import { ValidationError } from '../../src/core/errors.js';
import { clientOrderId, strategyId } from '../../src/core/ids.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { Intent } from '../../src/domain/intent.js';
import { IntentFactory } from '../../src/strategy/intent-factory.js';
import type { Strategy } from '../../src/strategy/strategy.js';
import type { StrategyContext, TradingStateView } from '../../src/strategy/strategy-context.js';
import { StrategyRunner } from '../../src/strategy/strategy-runner.js';
import { balance, BTC_USDT, BTCUSDT, order, position, S1, snapshot, spotInstrument } from '../domain/support/builders.js';

const mine = order({ strategyId: S1 });
const theirs = order({ strategyId: strategyId('other') });
const view: TradingStateView = {
  instrument: (s) => (s === BTCUSDT ? spotInstrument() : undefined),
  positions: (id) => (id === S1 ? [position(BTCUSDT, '0.5', '100')] : []),
  balances: () => [balance('USDT', '100')],
  openOrders: (id) => [mine, theirs].filter((o) => o.strategyId === id),
  order: (cid) => [mine, theirs].find((o) => o.clientOrderId === cid),
  lastSnapshot: (s) => snapshot(s, { last: '100' }),
};

class Scripted implements Strategy {
  seen: string[] = [];
  onStart(ctx: StrategyContext) {
    ctx.emit(ctx.intents.cancelAll(BTCUSDT));
    return undefined;
  }
  onSnapshot(_s: unknown, ctx: StrategyContext) {
    ctx.emit(ctx.intents.limit(BTCUSDT, 'buy', '99', '0.1'));
    return [ctx.intents.limit(BTCUSDT, 'sell', '101', '0.1')];
  }
  onExecution(e: ExecutionEvent) {
    this.seen.push(e.type);
    return [];
  }
}

describe('StrategyRunner', () => {
  it('collects_emitted_then_returned_intents_with_ids_and_the_strategy_id', async () => {
    const r = new StrategyRunner(S1, new Scripted(), view, new VirtualClock(0));
    const start = await r.start();
    const out = r.onSnapshot(snapshot(BTCUSDT));
    expect(start.map((i) => i.kind)).to.deep.equal(['cancel-all']);
    expect(out.map((i) => (i.kind === 'place' ? i.order.side : i.kind))).to.deep.equal(['buy', 'sell']);
    expect(out.map((i) => i.intentId)).to.deep.equal(['mm1:2', 'mm1:3']);
    expect(out.every((i) => i.strategyId === S1)).to.equal(true);
  });

  it('does_nothing_before_start_or_after_stop', async () => {
    const r = new StrategyRunner(S1, new Scripted(), view, new VirtualClock(0));
    expect(r.onSnapshot(snapshot(BTCUSDT))).to.deep.equal([]);
    await r.start();
    await r.stop();
    expect(r.onSnapshot(snapshot(BTCUSDT))).to.deep.equal([]);
  });

  it('refuses_an_intent_made_for_another_strategy', async () => {
    const rogue: Strategy = { onSnapshot: () => [new IntentFactory(strategyId('other')).cancelAll()] };
    const r = new StrategyRunner(S1, rogue, view, new VirtualClock(0));
    await r.start();
    expect(() => r.onSnapshot(snapshot(BTCUSDT))).to.throw(ValidationError);
  });

  it('passes_only_its_own_strategys_events', async () => {
    const s = new Scripted();
    const r = new StrategyRunner(S1, s, view, new VirtualClock(0));
    await r.start();
    r.onExecution({ type: 'OrderCancelled', ts: 1, strategyId: S1, clientOrderId: mine.clientOrderId, symbol: BTCUSDT, reason: 'user' });
    r.onExecution({
      type: 'OrderCancelled',
      ts: 1,
      strategyId: strategyId('other'),
      clientOrderId: theirs.clientOrderId,
      symbol: BTCUSDT,
      reason: 'user',
    });
    r.onExecution({ type: 'KillSwitchTripped', ts: 1, rule: 'kill-switch', reason: 'x' });
    expect(s.seen).to.deep.equal(['OrderCancelled', 'KillSwitchTripped']);
  });

  it('shows_a_read_only_view_of_its_own_orders_and_positions', async () => {
    const clock = new VirtualClock(42);
    const r = new StrategyRunner(S1, new Scripted(), view, clock);
    const ctx = r.context;
    expect(ctx.openOrders().map((o) => o.clientOrderId)).to.deep.equal([mine.clientOrderId]);
    expect(ctx.order(theirs.clientOrderId)).to.equal(undefined);
    expect(ctx.position(BTCUSDT)!.quantity.toFixed()).to.equal('0.5');
    expect(ctx.balance('USDT')!.free.toFixed()).to.equal('100');
    expect(ctx.clock.now()).to.equal(42);
    expect(Object.isFrozen(ctx)).to.equal(true);
    expect('setTimer' in ctx.clock).to.equal(false);
  });
});

describe('IntentFactory', () => {
  const f = new IntentFactory(S1);
  it('builds_contract_orders_with_their_kind_and_options', () => {
    const i = f.limit(BTC_USDT, 'sell', '100', '5', { reduceOnly: true, leverage: 10, stopLossPrice: '110' }) as Extract<
      Intent,
      { kind: 'place' }
    >;
    expect(i.order).to.deep.include({ kind: 'contract', side: 'sell', reduceOnly: true, leverage: 10, timeInForce: 'gtc' });
    expect(i.order.stopLossPrice!.toFixed()).to.equal('110');
  });
  it('builds_a_quote_set_with_decimal_prices', () => {
    const q = f.quotes(BTCUSDT, [{ slot: 'b0', side: 'buy', price: 99.5, quantity: '0.1', timeInForce: 'post-only' }]) as Extract<
      Intent,
      { kind: 'desired-quotes' }
    >;
    expect(q.quotes[0]!.price.eq(D('99.5'))).to.equal(true);
    expect(q.quotes[0]!.timeInForce).to.equal('post-only');
  });
  it('builds_amend_chase_and_tpsl_intents', () => {
    const cid = clientOrderId('c');
    expect(f.amend(BTCUSDT, cid, { price: '1' })).to.deep.include({ kind: 'amend', clientOrderId: cid });
    expect(f.chase(BTCUSDT, cid, 3, '101')).to.deep.include({ kind: 'chase', maxReprices: 3 });
    expect(f.tpsl(BTC_USDT, { positionSide: 'long' }, { takeProfit: '120', trigger: 'fair' })).to.deep.include({
      kind: 'attach-tpsl',
      positionSide: 'long',
      triggerPriceType: 'fair',
    });
  });
});
