/**
 * Execution algorithms inside the TradingRuntime on a virtual clock over the simulated exchange (real
 * venue engine, real RiskEngine with the default rules): every child is judged by the runtime's risk
 * engine (a denied child is journaled as IntentDenied and heard by the strategy), and the kill switch
 * stops a working parent and cancels its resting child. Market: TESTUSDT, book 99 / 101, 1,000,000 USDT
 * and 1,000 TEST (equity 1,100,000 USDT at mid 100).
 */
import { expect } from 'chai';
import { D } from '../../src/core/decimal.js';
import type { AlgoUpdated, ExecutionEvent } from '../../src/domain/execution-event.js';
import type { Intent } from '../../src/domain/intent.js';
import { parentOfClientId } from '../../src/domain/client-id-codec.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/risk-rule.js';
import type { IntentResult, Strategy } from '../../src/strategy/strategy.js';
import type { StrategyContext } from '../../src/strategy/strategy-context.js';
import { SYMBOL } from '../backtest/support/exchange-kit.js';
import { simRuntime, until } from './support/sim-runtime.js';

/** Asks for one intent at its first snapshot and keeps what it hears. */
class AskOnce implements Strategy {
  readonly heard: ExecutionEvent[] = [];
  private asked = false;
  constructor(private readonly ask: (ctx: StrategyContext) => Intent) {}
  onSnapshot(_s: unknown, ctx: StrategyContext): IntentResult {
    if (this.asked) return [];
    this.asked = true;
    return [this.ask(ctx)];
  }
  onExecution(e: ExecutionEvent): IntentResult {
    this.heard.push(e);
    return [];
  }
}

const algoUpdates = (es: readonly ExecutionEvent[]) => es.filter((e): e is AlgoUpdated => e.type === 'AlgoUpdated');

describe('execution algorithms in the TradingRuntime', () => {
  it('a_child_too_big_for_the_balance_is_denied_by_risk_journaled_and_heard_and_its_quantity_kept', async () => {
    // 30,000 TEST over 3 min in 3 IOC slices: each child 10,000 @ the ask 101 = 1,010,000 USDT > the 1,000,000 held.
    const strategy = new AskOnce((ctx) => ctx.intents.twap(SYMBOL, 'buy', 30_000, { durationMs: 180_000, slices: 3 }));
    const { journal, runtime, clock, source } = simRuntime(strategy, 'ask-once');
    await runtime.start();
    // The strategy asks at the first snapshot after its start.
    clock.advanceBy(1_000);
    source.feed();
    await until(() => journal.events().some((e) => e.type === 'IntentDenied'), 'the first child judged');
    const denied = journal.events().find((e) => e.type === 'IntentDenied')!;
    expect(denied.type === 'IntentDenied' && denied.rule).to.equal('free-balance');
    expect(denied.type === 'IntentDenied' && denied.intent.kind === 'place' && denied.intent.order.quantity!.toFixed()).to.equal('10000');
    const update = algoUpdates(journal.events()).at(-1)!;
    expect(update.change).to.match(/^child denied \(free-balance\)/);
    expect(update.parent).to.include({ state: 'working', denials: 1, children: 0 });
    expect(update.parent.remaining.toFixed()).to.equal('30000');
    // The strategy heard both, and reads the parent in its context.
    expect(strategy.heard.map((e) => e.type)).to.include.members(['IntentDenied', 'AlgoUpdated']);
    expect(runtime.strategyRunners[0]!.context.algoOrders(SYMBOL)[0]!.denials).to.equal(1);
    // The status line's source shows it working.
    expect(runtime.status().strategies[0]!.algos[0]!.state).to.equal('working');
    await runtime.stop('test over');
    expect(algoUpdates(journal.events()).at(-1)!.parent).to.include({ state: 'cancelled', reason: 'runtime stop: test over' });
  });

  it('the_kill_switch_cancels_the_resting_child_and_stops_the_parent', async () => {
    // A passive TWAP: child 1 of 1 TEST rests at the bid 99. Then the marks fall to 49 / 51: equity
    // 1,000,000 + 1,000 × 50 = 1,050,000 against the peak 1,100,000, a 4.5 % drawdown ≥ the 1 % limit.
    const strategy = new AskOnce((ctx) => ctx.intents.twap(SYMBOL, 'buy', 6, { durationMs: 60_000, slices: 6, childType: 'passive' }));
    const limits = { ...DEFAULT_RISK_LIMITS, killSwitch: { ...DEFAULT_RISK_LIMITS.killSwitch, maxDrawdown: D('0.01') } };
    const { journal, runtime, venue, source, clock } = simRuntime(strategy, 'ask-once', limits);
    await runtime.start();
    clock.advanceBy(1_000);
    source.feed();
    await until(() => venue.openOrders(SYMBOL).length === 1, 'the first child resting');
    const child = venue.openOrders(SYMBOL)[0]!;
    expect(`${child.side} ${child.quantity?.toFixed()} @ ${child.price?.toFixed()}`).to.equal('buy 1 @ 99');
    expect(parentOfClientId(child.clientOrderId!)).to.not.equal(undefined);

    source.bid = 49;
    source.ask = 51;
    clock.advanceBy(1_000);
    source.feed();
    await until(() => journal.events().some((e) => e.type === 'KillSwitchTripped'), 'the kill switch');
    await until(() => algoUpdates(journal.events()).at(-1)!.parent.state !== 'working', 'the parent stopped');
    expect(venue.openOrders(SYMBOL)).to.deep.equal([]);
    const end = algoUpdates(journal.events()).at(-1)!.parent;
    expect(end).to.include({ state: 'cancelled', reason: 'cancel-all (strategy)', children: 1 });
    expect(end.filledQty.toFixed()).to.equal('0');
    // No slice after it: time passes, snapshots come, nothing is placed.
    const placed = journal.events().filter((e) => e.type === 'OrderSubmitted').length;
    for (let i = 0; i < 3; i++) {
      const seen = runtime.stats.snapshots;
      clock.advanceBy(10_000);
      source.feed();
      await until(() => runtime.stats.snapshots > seen, 'the next snapshot handled');
    }
    expect(journal.events().filter((e) => e.type === 'OrderSubmitted')).to.have.length(placed);
    await runtime.stop('test over');
  });
});
