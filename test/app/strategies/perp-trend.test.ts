import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import type { Intent } from '../../../src/domain/intent.js';
import type { Kline, MarketSnapshot } from '../../../src/domain/snapshot.js';
import { PerpTrend, perpTrendParams } from '../../../strategies/perp-trend.js';
import { BTC_USDT, contractInstrument, position, S1 } from '../../domain/support/builders.js';
import { PlainState, started } from './strategy-kit.js';

const params = (over: Record<string, unknown> = {}) =>
  perpTrendParams.parse({ size: 20, fastPeriod: 2, slowPeriod: 3, leverage: 5, takeProfitPct: 1, stopLossPct: 0.5, ...over });

function klines(closes: number[]): Kline[] {
  return closes.map((c, i) => ({ openTime: i * 60_000, open: D(c), high: D(c), low: D(c), close: D(c), volume: D(1) }));
}
function snap(fair: number, closes?: number[]): MarketSnapshot {
  return {
    symbol: BTC_USDT,
    kind: 'contract',
    pollTime: 0,
    fairPrice: { price: D(fair) },
    book: { bids: [{ price: D(fair - 1), quantity: D(10) }], asks: [{ price: D(fair + 1), quantity: D(10) }] },
    ...(closes ? { klines: { Min1: klines(closes) } } : {}),
  };
}

async function trend(state: PlainState, over: Record<string, unknown> = {}) {
  state.instruments = [contractInstrument()];
  return started(S1, new PerpTrend(params(over), [BTC_USDT]), state);
}

describe('PerpTrend', () => {
  it('sets_position_mode_and_leverage_at_start', async () => {
    const { startIntents } = await trend(new PlainState());
    expect(startIntents.map((i) => i.kind)).to.deep.equal(['set-position-mode', 'set-leverage']);
    expect(startIntents[1]).to.include({ leverage: 5, marginMode: 'isolated', symbol: 'BTC_USDT' });
  });

  it('buys_at_market_on_a_cross_up_of_closed_bars_when_flat', async () => {
    const { runner } = await trend(new PlainState());
    // closed bars 10,10,10,10,9,12 cross up on the last one (see trend-signal.test.ts); 99 is still forming
    const intents = runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 99]));
    expect(intents).to.have.length(1);
    const o = (intents[0] as Extract<Intent, { kind: 'place' }>).order;
    expect(o).to.include({ side: 'buy', type: 'market', leverage: 5, marginMode: 'isolated' });
    expect(o.quantity!.toFixed()).to.equal('20');
    // the same bar is not judged twice
    expect(runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 99]))).to.deep.equal([]);
  });

  it('attaches_tp_and_sl_to_a_new_position_then_exits_itself_at_the_stop', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, 20, 100000)];
    const { runner } = await trend(state);
    // TP 100000 × 1.01 = 101000, SL 100000 × 0.995 = 99500
    const [tpsl] = runner.onSnapshot(snap(100000));
    expect(tpsl!.kind).to.equal('attach-tpsl');
    const t = tpsl as Extract<Intent, { kind: 'attach-tpsl' }>;
    expect([t.takeProfitPrice!.toFixed(), t.stopLossPrice!.toFixed(), t.triggerPriceType]).to.deep.equal(['101000', '99500', 'fair']);
    // fair 99400 ≤ SL: closed with a reduce-only market sell of the whole position
    const [close] = runner.onSnapshot(snap(99400));
    const o = (close as Extract<Intent, { kind: 'place' }>).order;
    expect(o).to.include({ side: 'sell', type: 'market', reduceOnly: true });
    expect(o.quantity!.toFixed()).to.equal('20');
  });

  it('arms_tpsl_again_when_told_it_is_gone_and_works_out_new_levels_when_the_position_changes_side', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, -20, 100000)];
    const { runner } = await trend(state);
    expect(runner.onSnapshot(snap(100000)).map((i) => i.kind)).to.deep.equal(['attach-tpsl']);
    expect(runner.onSnapshot(snap(100000))).to.deep.equal([]);
    // The venue lost the stop order: told, it attaches the same levels again (short: TP 99000, SL 100500).
    const told = { ts: 1, strategyId: S1, symbol: BTC_USDT, leg: 'net' as const, quantity: D(-20) };
    const [again] = runner.onExecution({ type: 'ProtectionMissing', ...told });
    const t = again as Extract<Intent, { kind: 'attach-tpsl' }>;
    expect([t.kind, t.takeProfitPrice!.toFixed(), t.stopLossPrice!.toFixed()]).to.deep.equal(['attach-tpsl', '99000', '100500']);
    // The venue reversed it to +20 at 101000: the short's levels no longer apply; long TP 102010, SL 100495.
    state.positionList = [position(BTC_USDT, 20, 101000)];
    const [flip] = runner.onSnapshot(snap(101000));
    const u = flip as Extract<Intent, { kind: 'attach-tpsl' }>;
    expect([u.kind, u.takeProfitPrice!.toFixed(), u.stopLossPrice!.toFixed()]).to.deep.equal(['attach-tpsl', '102010', '100495']);
  });

  it('sends_nothing_new_while_its_order_is_unsettled', async () => {
    const state = new PlainState();
    const { runner } = await trend(state);
    runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 99]));
    // a later cross down arrives before the buy settled
    expect(runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 8, 7, 99]))).to.deep.equal([]);
  });
});

describe('PerpTrend with trailing and plan protection (issue 18 item 4)', () => {
  type Protective = Extract<Intent, { kind: 'protective-order' }>;
  type CancelProt = Extract<Intent, { kind: 'cancel-protective' }>;
  const placed = (intent: Protective, id: string) => ({
    type: 'ProtectiveOrderPlaced' as const,
    ts: 1,
    strategyId: S1,
    symbol: BTC_USDT,
    intentId: intent.intentId,
    order: { symbol: BTC_USDT, positionSide: intent.positionSide, kind: intent.spec.type, id, quantity: intent.quantity },
  });

  it('places_one_trailing_order_for_a_new_long_and_cancels_it_when_the_position_is_gone', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, 20, 100000)];
    const { runner } = await trend(state, { protection: { kind: 'trailing', callbackPct: 0.4, activationPct: 0.3 } });
    const out = runner.onSnapshot(snap(100000));
    expect(out.map((i) => i.kind)).to.deep.equal(['protective-order']);
    const t = out[0] as Protective;
    if (t.spec.type !== 'trailing') throw new Error('expected a trailing spec');
    // callback 0.4 % → the fraction 0.004; activation 100000 × 1.003 = 100300 (on the 0.1 tick already)
    expect([t.positionSide, t.quantity.toFixed(), t.spec.callbackRate.toFixed(), t.spec.activationPrice!.toFixed()]).to.deep.equal([
      'long',
      '20',
      '0.004',
      '100300',
    ]);
    expect([t.triggerPriceType, t.leverage, t.marginMode]).to.deep.equal(['fair', 5, 'isolated']);
    // Unsettled until the venue's answer: nothing more.
    expect(runner.onSnapshot(snap(100000))).to.deep.equal([]);
    expect(runner.onExecution(placed(t, '9001'))).to.deep.equal([]);
    // Guarded: no protective exit of its own while the venue holds the trailing order, even far below.
    expect(runner.onSnapshot(snap(90000))).to.deep.equal([]);
    // The venue closed the position (the trailing order fired): the order is cancelled in case it lives on.
    state.positionList = [];
    const [cancel] = runner.onSnapshot(snap(99000));
    expect([cancel!.kind, (cancel as CancelProt).orders]).to.deep.equal(['cancel-protective', [{ kind: 'trailing', id: '9001' }]]);
    expect(runner.onSnapshot(snap(99000))).to.deep.equal([]);
  });

  it('places_stop_loss_and_take_profit_plan_orders_and_cancels_both_legs_before_closing_on_a_cross', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, -20, 100000)];
    const { runner } = await trend(state, { protection: { kind: 'plan' } });
    const out = runner.onSnapshot(snap(100000)) as Protective[];
    // Short of 20 at 100000: SL 100000 × 1.005 = 100500 (fires on a rise), TP 100000 × 0.99 = 99000.
    const legs = out.map((i) => (i.spec.type === 'plan' ? [i.positionSide, i.spec.role, i.spec.triggerPrice.toFixed()] : []));
    expect(legs).to.deep.equal([
      ['short', 'stop-loss', '100500'],
      ['short', 'take-profit', '99000'],
    ]);
    runner.onExecution(placed(out[0]!, 'p1'));
    runner.onExecution(placed(out[1]!, 'p2'));
    // A cross up with the short still held: both legs cancelled first, then the reduce-only buy.
    const closing = runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 99]));
    expect(closing.map((i) => i.kind)).to.deep.equal(['cancel-protective', 'place']);
    expect((closing[0] as CancelProt).orders.map((o) => o.id)).to.deep.equal(['p1', 'p2']);
    expect((closing[1] as Extract<Intent, { kind: 'place' }>).order).to.include({ side: 'buy', reduceOnly: true });
  });

  it('adopts_the_trailing_order_the_venue_holds_after_a_restart_instead_of_placing_a_second', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, 20, 100000)];
    state.stopList = [{ symbol: BTC_USDT, positionSide: 'long', kind: 'trailing', id: '7', quantity: D(20), callbackRate: D('0.005') }];
    const { runner } = await trend(state, { protection: { kind: 'trailing' } });
    expect(runner.onSnapshot(snap(100000))).to.deep.equal([]);
    // It knows the adopted order: a close on a cross down cancels it first.
    const closing = runner.onSnapshot(snap(100000, [12, 12, 12, 12, 13, 8, 99]));
    expect(closing.map((i) => i.kind)).to.deep.equal(['cancel-protective', 'place']);
    expect((closing[0] as CancelProt).orders).to.deep.equal([{ kind: 'trailing', id: '7' }]);
  });

  it('trails_the_position_itself_when_the_venue_refuses_the_trailing_order', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, 20, 100000)];
    const { runner } = await trend(state, { protection: { kind: 'trailing', callbackPct: 1 } });
    const [t] = runner.onSnapshot(snap(100000));
    runner.onExecution({ type: 'IntentFailed', ts: 1, strategyId: S1, intent: t!, reason: 'refused' });
    // Best fair 102000 after entry: the 1 % callback level is 102000 × 0.99 = 100980.
    expect(runner.onSnapshot(snap(102000))).to.deep.equal([]);
    expect(runner.onSnapshot(snap(100990))).to.deep.equal([]);
    const [close] = runner.onSnapshot(snap(100980));
    expect((close as Extract<Intent, { kind: 'place' }>).order).to.include({ side: 'sell', reduceOnly: true });
  });

  it('keeps_the_default_fixed_tpsl', () => {
    expect(params().protection).to.deep.equal({ kind: 'tpsl', callbackPct: 0.5, planTakeProfit: true, trigger: 'fair' });
  });
});

describe('PerpTrend after a denied order', () => {
  it('acts_on_the_next_signal_after_risk_denied_its_order', async () => {
    const state = new PlainState();
    const { runner } = await trend(state);
    const [buy] = runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 99]));
    // Denied: the intent names its symbol in `order` (the strategy used to read `symbol` and wait forever).
    runner.onExecution({ type: 'IntentDenied', ts: 1, strategyId: S1, intent: buy!, rule: 'test', reason: 'denied' });
    // The next bar crosses down (closes …, 12, 8: see trend-signal.test.ts): flat, it sells.
    const next = runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 8, 99]));
    expect(next.map((i) => i.kind === 'place' && i.order.side)).to.deep.equal(['sell']);
  });
});
