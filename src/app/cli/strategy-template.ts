/**
 * The files `perpetua new-strategy <name>` writes: a documented strategy, its unit test and a paper
 * config that runs it. Plain text with placeholders (__CLASS__, __NAME__, __IMPORT__, __DIR__) rather
 * than template literals, so the generated code can be read here exactly as the user will see it.
 */

export const STRATEGY_TEMPLATE = `/**
 * __NAME__: buys a dip, sells the bounce. A starting point; change the logic, keep the shape.
 *
 * The strategy contract (docs/writing-a-strategy.md):
 *  - onSnapshot(snapshot, ctx) is called for every fresh snapshot of the instruments this strategy's
 *    config entry lists and returns intents (or ctx.emit()s them). It never calls the exchange: the
 *    risk engine checks each intent (a denial comes back as an IntentDenied event naming the rule) and
 *    the order manager turns the rest into exchange calls.
 *  - Hooks are synchronous and must not read the wall clock or do I/O: time is ctx.clock.now(), so the
 *    same code runs live, on paper and in a backtest.
 *  - Order statuses (src/domain/order.ts): initialized → submitted → accepted → partially-filled →
 *    filled; or cancelled / rejected / expired; pending-amend and pending-cancel while a request is in
 *    flight. ctx.openOrders() lists the live ones (submitted, accepted, partially-filled, pending-*).
 *  - The in-flight guard: an order you asked for is live from the moment it is submitted, before the
 *    venue has answered. Act only when nothing of yours is in flight on the symbol (below: no open
 *    order), or you will send the same order twice.
 *  - ctx.order(clientOrderId) still returns an order after it filled or was cancelled (closed orders
 *    are kept for six hours), so onExecution can look up what just finished.
 *  - DesiredQuotes slot names (ctx.intents.quotes) are lowercase letters and digits, 1–3 characters
 *    (b0, a0, u).
 */
import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import { z } from 'zod';
import { type Decimal, roundToTick, truncateToStep, ZERO } from '__IMPORT__/src/core/decimal.js';
import type { InstrumentSymbol } from '__IMPORT__/src/core/ids.js';
import { STRATEGY_TOKENS } from '__IMPORT__/src/strategy/strategy-tokens.js';
import type { ExecutionEvent } from '__IMPORT__/src/domain/execution-event.js';
import { stepOf, tickOf } from '__IMPORT__/src/domain/instrument.js';
import { bestBid, midPrice, type MarketSnapshot } from '__IMPORT__/src/domain/snapshot.js';
import type { IntentResult, Strategy } from '__IMPORT__/src/strategy/strategy.js';
import type { StrategyContext } from '__IMPORT__/src/strategy/strategy-context.js';
import { decimalParam } from '__IMPORT__/strategies/param-types.js';

/** Parameters: every key documented, with a default where one makes sense (\`perpetua strategies\` lists them). */
export const __PARAMS__ = z.strictObject({
  size: decimalParam().describe('Base quantity bought on a dip (e.g. 0.001 BTC).'),
  dropBps: z.number().positive().max(10_000).default(3).describe('Buy when the mid is this many basis points below the highest mid seen since the last buy.'),
  takeProfitBps: z.number().positive().max(10_000).default(3).describe('Sell the position this many basis points above its entry price.'),
});
export type __CLASS__Params = z.output<typeof __PARAMS__>;

@injectable()
export class __CLASS__ implements Strategy {
  /** The name a config's strategies[].name uses: lowercase letters, digits and dashes. */
  static readonly strategyName = '__NAME__';
  static readonly description = 'Buys a dip of dropBps below the recent high, sells takeProfitBps above the entry.';
  static readonly paramsSchema = __PARAMS__;

  /** Highest mid since the last buy, per symbol. */
  private readonly high = new Map<string, Decimal>();

  constructor(@inject(STRATEGY_TOKENS.StrategyParams) private readonly params: __CLASS__Params) {}

  onSnapshot(snapshot: MarketSnapshot, ctx: StrategyContext): IntentResult {
    const symbol = snapshot.symbol as InstrumentSymbol;
    const mid = midPrice(snapshot);
    const bid = bestBid(snapshot);
    const inst = ctx.instrument(symbol);
    if (!mid || !bid || !inst) return [];
    // The in-flight guard: one order at a time, decided again once the venue has answered.
    if (ctx.openOrders(symbol).length > 0) return [];

    const before = this.high.get(symbol);
    const high = before && before.gt(mid) ? before : mid;
    this.high.set(symbol, high);
    const position = ctx.position(symbol);
    const held = position?.quantity ?? ZERO;

    if (held.gt(ZERO)) {
      // Holding: offer it all at entry + takeProfitBps (rounded up to the tick: never below the target).
      const target = roundToTick(position!.entryPrice.mul(1 + this.params.takeProfitBps / 10_000), tickOf(inst), 'up');
      const qty = truncateToStep(held, stepOf(inst));
      return qty.gt(ZERO) ? [ctx.intents.limit(symbol, 'sell', target, qty)] : [];
    }
    if (mid.lte(high.mul(1 - this.params.dropBps / 10_000))) {
      this.high.delete(symbol); // the next dip is measured from here
      return [ctx.intents.limit(symbol, 'buy', bid, truncateToStep(this.params.size, stepOf(inst)))];
    }
    return [];
  }

  /** Denials seen (the runtime logs each with its rule; docs/risk-rules.md lists the rules). */
  denied = 0;

  onExecution(event: ExecutionEvent, _ctx: StrategyContext): IntentResult {
    // Events about this strategy's own intents and orders: OrderAccepted, OrderFilled, OrderCancelled,
    // IntentDenied { rule, reason } … Nothing to undo on a denial: no order was sent, and the next
    // snapshot decides afresh.
    if (event.type === 'IntentDenied') this.denied += 1;
    return [];
  }
}
`;

export const TEST_TEMPLATE = `/**
 * Unit test of __NAME__: snapshots in, intents out, no exchange. Run it with
 *   npx perpetua test __DIR__
 * (compiles this folder's *.test.ts and runs them with node's test runner).
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { D } from '__IMPORT__/src/core/decimal.js';
import { spotSymbol, strategyId } from '__IMPORT__/src/core/ids.js';
import type { Instrument } from '__IMPORT__/src/domain/instrument.js';
import type { Intent } from '__IMPORT__/src/domain/intent.js';
import type { MarketSnapshot } from '__IMPORT__/src/domain/snapshot.js';
import { PlainState, started } from '__IMPORT__/src/strategy/plain-trading-state.js';
import { __CLASS__, __PARAMS__ } from './__NAME__.js';

const SYMBOL = spotSymbol('BTCUSDT');
const ID = strategyId('t1');
/** Only the trading rules this strategy reads: price tick and quantity step. */
const INSTRUMENT = { kind: 'spot', symbol: SYMBOL, tick: D('0.01'), step: D('0.000001') } as unknown as Instrument;

function snap(bid: number, ask: number): MarketSnapshot {
  return { symbol: SYMBOL, kind: 'spot', pollTime: 0, book: { bids: [{ price: D(bid), quantity: D(1) }], asks: [{ price: D(ask), quantity: D(1) }] } };
}
const placed = (i: Intent | undefined) => (i as Extract<Intent, { kind: 'place' }>).order;

describe('__NAME__', () => {
  it('buys_at_the_bid_after_a_dip_of_dropBps', async () => {
    const state = new PlainState();
    state.instruments = [INSTRUMENT];
    const { runner } = await started(ID, new __CLASS__(__PARAMS__.parse({ size: '0.001', dropBps: 10 })), state);
    assert.deepEqual(runner.onSnapshot(snap(99_999, 100_001)), []); // mid 100 000: the high
    // 10 bp below 100 000 is 99 900: a mid of 99 950 is not a dip yet, 99 890 is
    assert.deepEqual(runner.onSnapshot(snap(99_949, 99_951)), []);
    const [buy] = runner.onSnapshot(snap(99_889, 99_891));
    assert.equal(placed(buy).side, 'buy');
    assert.equal(placed(buy).price!.toFixed(), '99889');
    assert.equal(placed(buy).quantity!.toFixed(), '0.001');
  });
});
`;

export const CONFIG_TEMPLATE = `# A paper run of __NAME__ against the embedded emulator (a synthetic BTCUSDT market):
#   npx perpetua validate __CONFIG__
#   npx perpetua run __CONFIG__ --duration 60
# strategyModules loads the strategy from __MODULE__ (compiled on first use).
mode: paper
paper:
  emulatorConfig: config/paper-emulator.yaml
strategyModules: [__MODULE__]
instruments: [BTCUSDT]
marketData:
  spot:
    cycleMs: 500
    streams:
      depth: { limit: 20 }
      ticker24h: {}
strategies:
  - id: __ID__
    name: __NAME__
    instruments: [BTCUSDT]
    params: { size: '0.001', dropBps: 1, takeProfitBps: 1 }
risk:
  strategies:
    __ID__: { maxPositionQty: '0.003', maxNotional: '1000' }
journal:
  path: var/__NAME__.sqlite
logging:
  level: info
  file: var/__NAME__.log
`;
