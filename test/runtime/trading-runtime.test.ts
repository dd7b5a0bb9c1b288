/**
 * The TradingRuntime on its own, on a virtual clock, over the backtest's simulated exchange (a real
 * spot venue engine behind SimulatedGateway, the real OrderManager, RiskEngine with the default rules,
 * the in-memory run journal). No wall-clock wait: time moves only by VirtualClock.advanceBy, and the test
 * waits for the runtime's own events (events$), never for a delay.
 *
 * Market: TESTUSDT, tick 1 and step 1, no fees, recorded book 99 / 101 (10 lots each side).
 * The strategy asks three things at start:
 *   - buy 3 @ 100 (inside the spread: rests, first in the queue at 100);
 *   - sell 2 @ 105 (rests);
 *   - buy 20,000 @ 100 = 2,000,000 USDT against 1,000,000 USDT held: denied by risk before any venue call.
 * A recorded sell print of 5 @ 100 then fills the buy at the venue; the bot learns it at the next
 * reconciliation tick (the order manager reads fills there), i.e. when the virtual clock reaches
 * start + reconcileIntervalMs. Stop cancels the resting sell (cancelOnExit).
 * By hand: USDT 1,000,000 − 3 × 100 = 999,700; TEST 1,000 + 3 = 1,003.
 */
import { expect } from 'chai';
import { filter, firstValueFrom } from 'rxjs';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { IntentResult, Strategy } from '../../src/strategy/strategy.js';
import type { StrategyContext } from '../../src/strategy/strategy-context.js';
import type { TradingRuntime } from '../../src/runtime/trading-runtime.js';
import { SYMBOL, trade } from '../backtest/support/exchange-kit.js';
import { RECONCILE_MS, simRuntime, T0, until } from './support/sim-runtime.js';

/** Asks for its three orders at start and keeps what it hears. */
class ThreeOrders implements Strategy {
  readonly heard: ExecutionEvent[] = [];
  onStart(ctx: StrategyContext): IntentResult {
    const f = ctx.intents;
    return [f.limit(SYMBOL, 'buy', 100, 3), f.limit(SYMBOL, 'sell', 105, 2), f.limit(SYMBOL, 'buy', 100, 20_000)];
  }
  onSnapshot(): IntentResult {
    return [];
  }
  onExecution(e: ExecutionEvent): IntentResult {
    this.heard.push(e);
    return [];
  }
}

function rig() {
  const strategy = new ThreeOrders();
  return { ...simRuntime(strategy, 'three-orders'), strategy };
}

const nextEvent = (runtime: TradingRuntime, type: ExecutionEvent['type']): Promise<ExecutionEvent> =>
  firstValueFrom(runtime.events$.pipe(filter((e) => e.type === type)));

describe('TradingRuntime on a virtual clock over the simulated exchange', () => {
  it('risk_checks_and_places_at_start_learns_a_fill_at_the_reconcile_tick_and_cancels_what_rests_at_stop', async () => {
    const { clock, market, venue, journal, strategy, runtime, warnings } = rig();
    const started = await runtime.start();
    expect(started.run.mode).to.equal('paper');
    expect(started.restoredLive).to.equal(0);

    // Two orders rest at the venue; the third was denied by risk and never sent.
    const resting = venue.openOrders(SYMBOL).map((o) => `${o.side} ${o.quantity?.toFixed()} @ ${o.price?.toFixed()}`);
    expect(resting.sort()).to.deep.equal(['buy 3 @ 100', 'sell 2 @ 105']);
    const denials = journal.events().filter((e) => e.type === 'IntentDenied');
    expect(denials).to.have.length(1);
    const denied = denials[0]!;
    expect(denied.type === 'IntentDenied' && denied.intent.kind === 'place' && denied.intent.order.quantity?.toFixed()).to.equal('20000');
    // 20,000 × 100 = 2,000,000 USDT to hold while resting; 1,000,000 − 3 × 100 = 999,700 USDT free.
    expect(denied.type === 'IntentDenied' && denied.rule).to.equal('free-balance');
    expect(strategy.heard.map((e) => e.type)).to.include('IntentDenied');
    expect(runtime.status().strategies[0]!.openOrders).to.equal(2);

    // A recorded sell print of 5 @ 100 reaches our resting buy: filled at the venue at once …
    market.apply(trade(T0 + 1_000, 'sell', 100, 5));
    expect(venue.fills.map((f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()}`)).to.deep.equal(['buy 3 @ 100']);
    // … but the bot has not read it yet: nothing reconciled, the strategy heard no fill.
    expect(runtime.stats.reconciles).to.equal(0);
    expect(strategy.heard.some((e) => e.type === 'OrderFilled')).to.equal(false);

    // The reconcile timer fires on the virtual clock (one tick at T0 + 5,000) and the fill is learned.
    const filled = nextEvent(runtime, 'OrderFilled');
    clock.advanceBy(RECONCILE_MS - 1);
    expect(runtime.stats.reconciles).to.equal(0);
    clock.advanceBy(1);
    const e = await filled;
    expect(e.type === 'OrderFilled' && `${e.fill.side} ${e.fill.quantity.toFixed()} @ ${e.fill.price.toFixed()}`).to.equal('buy 3 @ 100');
    expect(e.ts).to.equal(T0 + RECONCILE_MS);
    await until(() => runtime.stats.reconciles === 1, 'the reconcile job finished');
    expect(strategy.heard.filter((x) => x.type === 'OrderFilled')).to.have.length(1);
    expect(journal.events().filter((x) => x.type === 'OrderFilled')).to.have.length(1);
    expect(journal.fillCount()).to.equal(1);

    // Stop: the resting sell is cancelled, the last reconcile reads the balances, the run is closed.
    const summary = await runtime.stop('test over');
    expect(summary.cancelledOnExit).to.equal(1);
    expect(summary.openOrdersLeft).to.deep.equal([]);
    expect(venue.openOrders(SYMBOL)).to.deep.equal([]);
    const balances = Object.fromEntries(summary.balances.map((b) => [b.asset, b.total.toFixed()]));
    expect(balances).to.deep.equal({ TEST: '1003', USDT: '999700' });
    expect(journal.runs().at(-1)).to.include({ exitReason: 'test over', endedAt: T0 + RECONCILE_MS });
    expect(warnings).to.deep.equal([]);
  });
});
