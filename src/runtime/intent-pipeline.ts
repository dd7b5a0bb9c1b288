/**
 * Strategy intents → execution policy → risk → order manager → events. One job's intents are carried
 * out one at a time, and the strategies' reactions to the events each produces join the same queue
 * (bounded: a strategy answering every event with another intent cannot loop forever). Denials,
 * failures and the kill switch become journaled events like the order managers' own.
 */
import { D, type Decimal, ZERO } from '../core/decimal.js';
import { isContractSymbol } from '../core/ids.js';
import { type Intent, intentSymbol, type PlaceOrder } from '../domain/intent.js';
import type { GateVerdict } from '../execution/algo/algo-executor.js';
import type { InstrumentKind } from '../domain/order.js';
import type { StrategyRunner } from '../strategy/strategy-runner.js';
import type { EventFlow, Pending } from './event-flow.js';
import { messageOf } from '../core/message-of.js';
import { type ExecutionVenue, type TradingRuntimeOptions, venueOfKind } from './runtime-options.js';
import type { TradingState } from './trading-state.js';

/** Intents one job may carry out (reactions to reactions included) before the rest is dropped. */
const MAX_INTENTS_PER_JOB = 200;

export class IntentPipeline {
  /** A child of an execution algorithm tripped the kill switch: everything is pulled once the order manager is free. */
  private childTripped = false;

  constructor(
    private readonly o: TradingRuntimeOptions,
    private readonly state: TradingState,
    private readonly events: EventFlow,
    /** The run's strategies (filled in at start-up). */
    private readonly runners: readonly StrategyRunner[],
    /** Strategies paused by the operator: what they still ask is denied (cancels excepted). */
    private readonly paused: ReadonlySet<string>,
  ) {}

  /**
   * Carries out the intents and every reaction to their events, in order.
   *
   * This and the checks below are not async functions on their path that awaits nothing (no intents,
   * the kill switch not tripped: nearly every job). Every caller awaits the result, and `await
   * undefined` takes the one microtask turn that awaiting the settled promise of the async function
   * took, so the order of the runtime's promise chains is unchanged; the promise and the async frame
   * per call are what go. Where one of them does await, an async function of the same shape does it.
   */
  process(items: readonly Pending[]): Promise<void> | undefined {
    return items.length === 0 ? undefined : this.processAll(items);
  }

  private async processAll(items: readonly Pending[]): Promise<void> {
    const queue = [...items];
    let n = 0;
    while (queue.length > 0) {
      if (++n > MAX_INTENTS_PER_JOB) {
        this.o.logger.warn('too many intents in one job; the rest are dropped', { dropped: queue.length });
        return;
      }
      const { runner, intent, operator } = queue.shift()!;
      const cancels = intent.kind === 'cancel' || intent.kind === 'cancel-all' || intent.kind === 'cancel-algo';
      if (!operator && this.paused.has(runner.strategyId) && !cancels) {
        this.deny(intent, 'paused', `strategy ${runner.strategyId} is paused from the console`);
      } else await this.carryOut(runner, intent);
      queue.push(...this.events.drain());
    }
  }

  /** Sends one intent to a venue's order manager; a throw becomes a journaled IntentFailed. */
  async execute(venue: ExecutionVenue, intent: Intent): Promise<void> {
    try {
      await venue.orders.execute(intent);
    } catch (e) {
      this.events.publishLocal({
        type: 'IntentFailed',
        ts: this.o.clock.now(),
        strategyId: intent.strategyId,
        intent,
        reason: messageOf(e),
      });
    }
  }

  /** Trips the kill switch when the equity says so, and then pulls every resting order. */
  checkKillSwitch(now: number): Promise<void> | undefined {
    // Unknown equity is judged (fail closed) when an intent is checked; it does not trip the latch here.
    if (this.state.updateEquity(now) === undefined) return undefined;
    const tripped = this.o.risk.checkKillSwitch(this.state.killSwitchState(now));
    if (!tripped) return undefined;
    this.events.publishLocal(tripped);
    // Pull every strategy's resting orders at once; new intents are denied by the latched switch.
    return this.pullAfterTrip();
  }

  /** pullEverything() awaited in an async function of its own, as the async checks above awaited it. */
  private async pullAfterTrip(): Promise<void> {
    await this.pullEverything();
  }

  /**
   * Risk's verdict on one child of an execution algorithm (the order managers call it before each
   * child): the same engine and state as for a strategy's own intents, its events journaled the same
   * way. Events the order manager published so far are applied first, so balances and positions
   * include the previous child's fills.
   */
  gateChild(child: PlaceOrder): GateVerdict {
    const o = this.o;
    // A paused strategy sends nothing new: its TWAP or iceberg children are its asks like any other (the
    // parent stops after MAX_CONSECUTIVE_DENIALS, its resting child left as it is: pause is not cancel).
    if (this.paused.has(child.strategyId))
      return { approved: false, rule: 'paused', reason: `strategy ${child.strategyId} is paused from the console` };
    this.events.applyPending();
    const symbol = child.order.symbol;
    const inst = o.instruments.instrument(symbol);
    const decision = o.risk.evaluate(child, inst, this.state.riskState(o.clock.now(), child.order.kind, child.strategyId, symbol));
    for (const e of decision.events) this.events.publishLocal(e);
    if (decision.events.some((e) => e.type === 'KillSwitchTripped')) this.childTripped = true;
    if (decision.approved) return { approved: true };
    const d = decision.denials[0];
    return { approved: false, rule: d?.rule ?? 'risk', reason: d?.reason ?? 'denied' };
  }

  /** After an order manager's pass: pulls every resting order when a child tripped the kill switch. */
  afterChildren(): Promise<void> | undefined {
    if (!this.childTripped) return undefined;
    this.childTripped = false;
    return this.pullAfterTrip();
  }

  private async carryOut(runner: StrategyRunner, raw: Intent): Promise<void> {
    const o = this.o;
    const intent = this.applyPolicy(raw);
    const symbol = intentSymbol(intent);
    if (intent.kind === 'cancel-all' && symbol === undefined) {
      // Every account this strategy trades on.
      for (const v of o.venues) await this.execute(v, intent);
      return;
    }
    const kind: InstrumentKind =
      intent.kind === 'set-position-mode' || (symbol !== undefined && isContractSymbol(symbol)) ? 'contract' : 'spot';
    const venue = venueOfKind(o, kind);
    if (!venue) {
      this.deny(intent, 'venue', `no ${kind} account in this run (the config trades no ${kind} instrument)`);
      return;
    }
    const inst = symbol ? o.instruments.instrument(symbol) : undefined;
    const decision = o.risk.evaluate(intent, inst, this.state.riskState(o.clock.now(), kind, runner.strategyId, symbol));
    for (const e of decision.events) this.events.publishLocal(e);
    if (decision.approved) {
      // Our book believes in the position the close reduces (risk passed it): the venue must too.
      const refused = await this.venueRefusesClose(venue, decision.approved);
      if (refused) this.deny(decision.approved, 'venue-position', refused);
      else await this.execute(venue, decision.approved);
    }
    if (decision.events.some((e) => e.type === 'KillSwitchTripped')) await this.pullEverything();
    // A TWAP or iceberg sends its first child at once: that child may have tripped the kill switch.
    await this.afterChildren();
  }

  /** Cancels every strategy's orders on every venue (kill switch). */
  private async pullEverything(): Promise<void> {
    for (const r of this.runners) {
      for (const v of this.o.venues)
        if (v.orders.liveOrders({ strategyId: r.strategyId }).length > 0 || v.orders.algoWorking(r.strategyId))
          await this.execute(v, r.context.intents.cancelAll(undefined, 'strategy'));
    }
  }

  /** Config limits on what strategies ask: chase reprices bounded, a default cap for uncapped chases. */
  private applyPolicy(intent: Intent): Intent {
    if (intent.kind !== 'chase') return intent;
    const p = this.o.policy;
    let out: Intent = intent.maxReprices > p.chaseMaxReprices ? { ...intent, maxReprices: p.chaseMaxReprices } : intent;
    if (out.kind === 'chase' && !out.priceCap && p.chasePriceCapBps) {
      const order = this.state.order(out.clientOrderId);
      if (order?.price) {
        const f = p.chasePriceCapBps.div(10_000);
        out = { ...out, priceCap: order.price.mul(order.side === 'buy' ? D(1).plus(f) : D(1).minus(f)) };
      }
    }
    return out;
  }

  /**
   * A reduce-only (or hedged closing) contract order is checked against the venue's position first:
   * when the venue no longer holds what it would close (a TP/SL, liquidation or manual close got there
   * first), it is not sent; the fills that closed the position are learned and booked instead.
   * Undefined: send it.
   */
  private async venueRefusesClose(venue: ExecutionVenue, intent: Intent): Promise<string | undefined> {
    if (intent.kind !== 'place' || venue.kind !== 'contract') return undefined;
    const spec = intent.order;
    const hedgedClose = (spec.positionSide === 'long' && spec.side === 'sell') || (spec.positionSide === 'short' && spec.side === 'buy');
    const closing = spec.reduceOnly === true || hedgedClose;
    if (!closing || !spec.quantity) return undefined;
    const leg = spec.positionSide ?? 'net';
    let held: Decimal;
    try {
      held = (await venue.gateway.positions(spec.symbol)).find((p) => p.symbol === spec.symbol && p.leg === leg)?.quantity ?? ZERO;
    } catch (e) {
      // The venue cannot be read: it still judges the order itself (a reduce-only close of nothing is refused).
      this.o.logger.debug('position check before a close failed; sending', { error: messageOf(e) });
      return undefined;
    }
    const closable = spec.side === 'sell' ? held : held.neg();
    if (closable.gte(spec.quantity)) return undefined;
    try {
      await venue.orders.reconcile([spec.symbol]);
      this.events.applyPending();
    } catch (e) {
      this.o.logger.warn('reconciliation after a position check failed', { error: messageOf(e) });
    }
    const closes = closable.lte(0) ? 'nothing' : `more than ${closable.toFixed()}`;
    const order = `a ${spec.side} of ${spec.quantity.toFixed()}`;
    return `the venue holds ${held.toFixed()} on ${spec.symbol} ${leg}: ${order} would close ${closes}; not sent`;
  }

  /** A denial by the runtime itself (paused strategy, no account, the venue's position): journaled like risk's. */
  private deny(intent: Intent, rule: string, reason: string): void {
    this.events.publishLocal({ type: 'IntentDenied', ts: this.o.clock.now(), strategyId: intent.strategyId, intent, rule, reason });
  }
}
