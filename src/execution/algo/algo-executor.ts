/**
 * Execution algorithms (TWAP, iceberg) carried out as child orders. Owned by the order manager, which
 * calls it inside its serialised operations, so children, cancels and reconciliation never interleave.
 *
 * Rules (docs/writing-a-strategy.md, "Execution algorithms"):
 *  - Time only from the host's clock: a TWAP slice becomes due on the clock and is sent at the first
 *    snapshot of the symbol at or after that time (the child is priced from the touch).
 *  - EVERY child is judged by the runtime's risk engine (host.gate) before it is sent, like any
 *    strategy order. A denied child is reported (IntentDenied from risk, AlgoUpdated here); its
 *    quantity stays in the parent's remainder and is tried again at the next slice (TWAP, targets are
 *    cumulative) or after ICEBERG_RETRY_MS (iceberg). MAX_CONSECUTIVE_DENIALS denials in a row (venue
 *    rejections count too), or one kill-switch denial, stop the parent (state `stopped`).
 *  - Never overfill: a child is at most quantity − filled − in flight, in flight being every live
 *    child's unfilled rest. A child whose placement outcome is unknown is resolved (queried) before
 *    the next child is sized; while it stays unknown nothing is sent.
 *  - Progress (filled, average price, remaining) is computed from the children's venue fills in the
 *    order book, never from what was asked.
 *  - Restart: a parent journaled as working is CANCELLED, not resumed (see restore()).
 */
import { type Decimal, roundToTick, truncateToStep, ZERO } from '../../core/decimal.js';
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../../core/ids.js';
import { SeededRandom } from '../../core/random.js';
import type { AlgoParent, AlgoState } from '../../domain/algo-parent.js';
import type { AlgoUpdated } from '../../domain/execution-event.js';
import { type Instrument, stepOf, tickOf } from '../../domain/instrument.js';
import type { AlgoIntent, IcebergOrder, PlaceOrder, TwapOrder } from '../../domain/intent.js';
import { isLive, type Order, type OrderSpec, type VenueOrder } from '../../domain/order.js';
import { bestAsk, bestBid, type MarketSnapshot } from '../../domain/snapshot.js';
import { childClientId, MAX_ALGO_CHILDREN, parentOfClientId } from '../../domain/client-id-codec.js';
import { dueSlice, type TwapSchedule, twapSchedule, twapTarget } from '../../domain/twap-schedule.js';

export const MAX_CONSECUTIVE_DENIALS = 3;
export const ICEBERG_RETRY_MS = 1_000;
/** Finished parents kept for the views (strategy, status line). */
const FINISHED_KEPT = 100;
const KILL_SWITCH_RULE = 'kill-switch';

export type GateVerdict = { readonly approved: true } | { readonly approved: false; readonly rule: string; readonly reason: string };

/** Risk's verdict on one child (the runtime supplies it: the same engine and state as for any intent). */
export type AlgoGate = (child: PlaceOrder) => GateVerdict;

/** What the executor needs of the order manager. */
export interface AlgoHost {
  now(): number;
  order(cid: string): Order | undefined;
  instrument(symbol: InstrumentSymbol): Instrument | undefined;
  snapshot(symbol: InstrumentSymbol): MarketSnapshot | undefined;
  /** True while the child's last request has an unknown outcome. */
  unresolved(cid: string): boolean;
  /** Queries an unknown outcome once (the order manager's resolve). */
  resolve(cid: ClientOrderId): Promise<void>;
  gate: AlgoGate | undefined;
  /** Places the child under the given id through the order manager's normal path (journal first). */
  place(child: PlaceOrder, cid: ClientOrderId): Promise<void>;
  /** Cancels live children; returns when the venue answered (fills settled by the answer). */
  cancel(orders: readonly Order[]): Promise<void>;
  /** Asks the venue about one order (restart: children the journal no longer holds). */
  query(symbol: InstrumentSymbol, cid: ClientOrderId): Promise<VenueOrder | undefined>;
  publish(e: AlgoUpdated): Promise<void>;
}

interface Measured {
  readonly filled: Decimal;
  readonly notional: Decimal;
  readonly inFlight: Decimal;
  readonly live: Order[];
  readonly unknown: ClientOrderId[];
  readonly rejected: ClientOrderId[];
}

interface Program {
  parent: AlgoParent;
  readonly intent?: AlgoIntent;
  readonly schedule?: TwapSchedule;
  lastSlice: number;
  consecutiveDenials: number;
  notBefore: number;
  readonly rng?: SeededRandom;
  /** Each child's fills when last seen: what counts if the order book pruned it (closed hours ago). */
  readonly seen: Map<string, { qty: Decimal; notional: Decimal }>;
  readonly rejectsCounted: Set<string>;
  /** Restored from the journal: settled (cancelled) after the first reconciliation. */
  readonly restored?: true;
}

export class AlgoExecutor {
  private readonly working = new Map<string, Program>();
  private readonly finished = new Map<string, Program>();
  /** Finished parents with children still in flight at the end: re-measured after each reconciliation. */
  private readonly unsettled = new Set<string>();

  constructor(private readonly host: AlgoHost) {}

  /** Working parents on the symbol (the order manager then routes its snapshots here). */
  active(symbol?: InstrumentSymbol): boolean {
    if (this.working.size === 0) return false;
    for (const p of this.working.values()) if (symbol === undefined || p.parent.symbol === symbol) return true;
    return false;
  }

  /** Every parent (working first, then the newest finished), progress measured now from the order book. */
  parents(filter: { strategyId?: StrategyId; symbol?: InstrumentSymbol } = {}): AlgoParent[] {
    const all = [...this.working.values(), ...[...this.finished.values()].reverse()];
    return all
      .filter(
        (p) =>
          (filter.strategyId === undefined || p.parent.strategyId === filter.strategyId) &&
          (filter.symbol === undefined || p.parent.symbol === filter.symbol),
      )
      .map((p) => this.view(p, this.measure(p)));
  }

  parent(parentId: string): AlgoParent | undefined {
    const p = this.working.get(parentId) ?? this.finished.get(parentId);
    return p ? this.view(p, this.measure(p)) : undefined;
  }

  /** Starts a parent under `parentId` (made by the order manager's codec) and sends its first child. */
  async start(intent: AlgoIntent, parentId: ClientOrderId): Promise<void> {
    const now = this.host.now();
    const schedule = intent.kind === 'twap' ? twapSchedule(intent.durationMs, intent.slices, intent.sliceIntervalMs) : undefined;
    const p: Program = {
      parent: {
        parentId,
        intentId: intent.intentId,
        strategyId: intent.strategyId,
        algo: intent.kind,
        symbol: intent.symbol,
        side: intent.side,
        quantity: intent.quantity,
        filledQty: ZERO,
        remaining: intent.quantity,
        inFlight: ZERO,
        state: 'working',
        children: 0,
        denials: 0,
        startedAt: now,
        ...(intent.kind === 'twap' ? { endsAt: now + intent.durationMs } : {}),
        updatedAt: now,
      },
      intent,
      ...(schedule ? { schedule } : {}),
      lastSlice: -1,
      consecutiveDenials: 0,
      notBefore: now,
      ...(intent.kind === 'iceberg' && intent.visibleVariance?.gt(0) ? { rng: new SeededRandom(intent.seed ?? 0) } : {}),
      seen: new Map(),
      rejectsCounted: new Set(),
    };
    this.working.set(parentId, p);
    await this.publish(p, 'started');
    await this.step(p);
  }

  /** One pass over the working parents of the symbol (every snapshot of it). */
  async onSnapshot(symbol: InstrumentSymbol): Promise<void> {
    for (const p of [...this.working.values()]) if (p.parent.symbol === symbol && !p.restored) await this.step(p);
  }

  /** Cancels one parent: its live children cancelled, no further child. False when it is not working. */
  async cancel(parentId: string, reason: string): Promise<boolean> {
    const p = this.working.get(parentId);
    if (!p) return false;
    await this.finish(p, 'cancelled', reason);
    return true;
  }

  /** Cancels the working parents of a strategy (and symbol), or all of them: cancel-all, stop, kill switch. */
  async cancelWhere(filter: { strategyId?: StrategyId; symbol?: InstrumentSymbol }, reason: string): Promise<number> {
    let n = 0;
    for (const p of [...this.working.values()]) {
      if (filter.strategyId !== undefined && p.parent.strategyId !== filter.strategyId) continue;
      if (filter.symbol !== undefined && p.parent.symbol !== filter.symbol) continue;
      await this.finish(p, 'cancelled', reason);
      n++;
    }
    return n;
  }

  /**
   * Parents the journal left working (the process ended without stopping them). They are cancelled,
   * not resumed, once the first reconciliation has read the venue: a TWAP's schedule is tied to the
   * clock, and after a downtime of unknown length resuming would either burst to catch up or stretch
   * the schedule — neither is what the strategy asked for. Cancelling is the same whatever the
   * downtime; the strategy reads the final state (filled from the venue's fills of every child id
   * derived from the parent) and asks again for the rest if it still wants it.
   */
  restore(parents: readonly AlgoParent[], restoredOrders: readonly Order[]): void {
    const highest = new Map<string, number>();
    for (const o of restoredOrders) {
      const c = parentOfClientId(o.clientOrderId);
      if (c) highest.set(c.parentId, Math.max(highest.get(c.parentId) ?? 0, c.child));
    }
    for (const parent of parents) {
      if (parent.state !== 'working') continue;
      // A child is journaled before it is sent, and the parent's count after: a crash in between leaves
      // the order journal one ahead.
      const children = Math.max(parent.children, highest.get(parent.parentId) ?? 0);
      this.working.set(parent.parentId, {
        parent: { ...parent, children },
        lastSlice: -1,
        consecutiveDenials: 0,
        notBefore: 0,
        seen: new Map(),
        rejectsCounted: new Set(),
        restored: true,
      });
    }
  }

  /**
   * After each reconciliation: settles restored parents and re-measures parents that ended with children
   * in flight. Not an async function while no algorithm works or waits to settle (nearly every pass):
   * `await undefined` takes the one microtask turn that awaiting the settled promise of the async function took.
   */
  afterReconcile(): Promise<void> | undefined {
    return this.working.size === 0 && this.unsettled.size === 0 ? undefined : this.settleAfterReconcile();
  }

  private async settleAfterReconcile(): Promise<void> {
    for (const p of [...this.working.values()]) {
      if (!p.restored) continue;
      // Children the order book does not hold (pruned from the journal, or never journaled as closed): ask the venue.
      try {
        for (let n = 1; n <= p.parent.children; n++) {
          const cid = childClientId(p.parent.parentId, n);
          if (this.host.order(cid) || p.seen.has(cid)) continue;
          const v = await this.host.query(p.parent.symbol, cid);
          if (v) p.seen.set(cid, { qty: v.filledQty, notional: v.filledNotional ?? v.avgFillPrice?.mul(v.filledQty) ?? ZERO });
        }
      } catch {
        // The venue cannot be read now: the parent is settled at a later reconciliation, never from a guess.
        continue;
      }
      await this.finish(p, 'cancelled', 'restart: a working parent is cancelled, not resumed');
    }
    for (const id of [...this.unsettled]) {
      const p = this.finished.get(id);
      if (!p) {
        this.unsettled.delete(id);
        continue;
      }
      const m = this.measure(p);
      if (m.inFlight.isZero()) this.unsettled.delete(id);
      if (!m.filled.eq(p.parent.filledQty) || !m.inFlight.eq(p.parent.inFlight)) await this.publish(p, 'settled after the end', m);
    }
  }

  // ---------------------------------------------------------------- internals

  private async step(p: Program): Promise<void> {
    const intent = p.intent!;
    let m = this.measure(p);
    if (m.unknown.length > 0) {
      for (const cid of m.unknown) await this.host.resolve(cid);
      m = this.measure(p);
      // Sizing the next child needs every earlier one known: wait for the next pass.
      if (m.unknown.length > 0) return;
    }
    for (const cid of m.rejected) {
      if (p.rejectsCounted.has(cid)) continue;
      p.rejectsCounted.add(cid);
      const reason = `child ${cid} rejected by the venue: ${this.host.order(cid)?.rejectReason ?? 'no reason given'}`;
      if (await this.denied(p, 'venue', reason, m)) return;
    }
    const remaining = intent.quantity.minus(m.filled);
    if (remaining.lte(0) && m.inFlight.isZero()) return this.finish(p, 'completed', 'filled', m);
    const now = this.host.now();
    if (intent.kind === 'twap') await this.twapStep(p, intent, m, now);
    else await this.icebergStep(p, intent, m, now);
  }

  private async twapStep(p: Program, intent: TwapOrder, m0: Measured, now: number): Promise<void> {
    let m = m0;
    const s = p.schedule!;
    if (now >= p.parent.endsAt!) {
      const left = intent.quantity.minus(m.filled);
      return this.finish(p, left.gt(0) ? 'expired' : 'completed', left.gt(0) ? 'the duration ended' : 'filled');
    }
    const k = dueSlice(s, p.parent.startedAt, now);
    if (k <= p.lastSlice) {
      if (!m.filled.eq(p.parent.filledQty)) await this.publish(p, 'progress', m);
      return;
    }
    const inst = this.host.instrument(intent.symbol);
    if (!inst) return this.finish(p, 'stopped', `instrument ${intent.symbol} unknown`, m);
    if (intent.childType === 'passive' && m.live.length > 0) {
      // Re-priced each slice: cancel first; the cancel answer settles what filled, so the new child never overfills.
      await this.host.cancel(m.live);
      m = this.measure(p);
    }
    const price = this.twapPrice(intent, inst);
    if (!price) {
      // No touch to price from yet: the slice stays due until a snapshot brings one.
      return;
    }
    p.lastSlice = k;
    const target = twapTarget(s, k, intent.quantity, stepOf(inst));
    const want = truncateToStep(target.minus(m.filled).minus(m.inFlight), stepOf(inst));
    if (want.lte(0)) {
      await this.publish(p, `slice ${k + 1}/${s.count}: on target`, m);
      return;
    }
    await this.sendChild(p, inst, price, want, intent.childType === 'ioc' ? 'ioc' : 'gtc', `slice ${k + 1}/${s.count}`);
  }

  private async icebergStep(p: Program, intent: IcebergOrder, m: Measured, now: number): Promise<void> {
    if (m.inFlight.gt(0)) {
      if (!m.filled.eq(p.parent.filledQty)) await this.publish(p, 'progress', m);
      return;
    }
    if (now < p.notBefore) return;
    const inst = this.host.instrument(intent.symbol);
    if (!inst) return this.finish(p, 'stopped', `instrument ${intent.symbol} unknown`, m);
    const step = stepOf(inst);
    const remaining = intent.quantity.minus(m.filled);
    let visible = intent.visibleQuantity;
    if (p.rng && intent.visibleVariance) {
      // Uniform in visible·(1 ± variance), from the parent's own seeded generator.
      const u = p.rng.next() * 2 - 1;
      visible = intent.visibleQuantity.mul(intent.visibleVariance.mul(u).plus(1));
    }
    let size = truncateToStep(visible.gt(remaining) ? remaining : visible, step);
    if (size.lte(0)) size = truncateToStep(remaining, step);
    if (size.lte(0)) return this.finish(p, 'completed', `the rest (${remaining.toFixed()}) is below the quantity step`, m);
    await this.sendChild(p, inst, intent.price, size, 'gtc', 'visible');
  }

  private async sendChild(
    p: Program,
    inst: Instrument,
    price: Decimal,
    quantity: Decimal,
    timeInForce: 'ioc' | 'gtc',
    what: string,
  ): Promise<void> {
    const intent = p.intent!;
    if (p.parent.children >= MAX_ALGO_CHILDREN) return this.finish(p, 'stopped', `${MAX_ALGO_CHILDREN} children sent`);
    const order: OrderSpec = {
      symbol: intent.symbol,
      kind: inst.kind,
      side: intent.side,
      type: 'limit',
      timeInForce,
      price,
      quantity,
      ...(intent.positionSide ? { positionSide: intent.positionSide } : {}),
      ...(intent.reduceOnly ? { reduceOnly: true } : {}),
      ...(intent.leverage !== undefined ? { leverage: intent.leverage } : {}),
      ...(intent.marginMode ? { marginMode: intent.marginMode } : {}),
    };
    const child: PlaceOrder = { intentId: intent.intentId, strategyId: intent.strategyId, kind: 'place', order };
    const gate = this.host.gate;
    const verdict: GateVerdict = gate ? gate(child) : { approved: false, rule: 'risk-gate', reason: 'no risk engine is wired' };
    if (!verdict.approved) {
      await this.denied(p, verdict.rule, `${what}: ${verdict.reason}`, this.measure(p));
      return;
    }
    p.consecutiveDenials = 0;
    const n = p.parent.children + 1;
    p.parent = { ...p.parent, children: n };
    await this.host.place(child, childClientId(p.parent.parentId, n));
    const m = this.measure(p);
    // An IOC child settles at once: the parent may be done without waiting for the next pass.
    if (p.parent.quantity.minus(m.filled).lte(0) && m.inFlight.isZero()) return this.finish(p, 'completed', 'filled', m);
    await this.publish(p, `${what}: child ${n} ${quantity.toFixed()} @ ${price.toFixed()}`, m);
  }

  /** A denied or rejected child: reported; the parent stops when the rule says so. True when it stopped. */
  private async denied(p: Program, rule: string, reason: string, m: Measured): Promise<boolean> {
    p.consecutiveDenials++;
    p.parent = { ...p.parent, denials: p.parent.denials + 1, reason: `${rule}: ${reason}` };
    if (p.intent?.kind === 'iceberg') p.notBefore = this.host.now() + ICEBERG_RETRY_MS;
    if (rule === KILL_SWITCH_RULE || p.consecutiveDenials >= MAX_CONSECUTIVE_DENIALS) {
      const why = rule === KILL_SWITCH_RULE ? 'the kill switch denies every child' : `${p.consecutiveDenials} children denied in a row`;
      await this.finish(p, 'stopped', `${why}; last: ${rule}: ${reason}`, m);
      return true;
    }
    await this.publish(p, `child denied (${rule}): ${reason}`, m);
    return false;
  }

  private twapPrice(intent: TwapOrder, inst: Instrument): Decimal | undefined {
    const snap = this.host.snapshot(intent.symbol);
    const buy = intent.side === 'buy';
    const tick = tickOf(inst);
    let price: Decimal | undefined;
    if (intent.childType === 'ioc') {
      const far = buy ? bestAsk(snap) : bestBid(snap);
      if (!far) return undefined;
      const dev = (intent.maxDeviationBps ?? ZERO).div(10_000);
      // Through the touch by at most the deviation: a buy rounds down, a sell up (never beyond the bound).
      price = roundToTick(buy ? far.mul(dev.plus(1)) : far.mul(dev.neg().plus(1)), tick, buy ? 'down' : 'up');
    } else {
      price = buy ? bestBid(snap) : bestAsk(snap);
      if (!price) return undefined;
    }
    const cap = intent.limitPrice;
    if (cap && (buy ? price.gt(cap) : price.lt(cap))) price = cap;
    return price;
  }

  private async finish(p: Program, state: AlgoState, reason: string, m0?: Measured): Promise<void> {
    let m = m0 ?? this.measure(p);
    if (m.live.length > 0) {
      await this.host.cancel(m.live);
      m = this.measure(p);
    }
    this.working.delete(p.parent.parentId);
    const left = p.parent.quantity.minus(m.filled);
    // A parent whose children filled it completely while it was being cancelled is complete all the same.
    const final: AlgoState = state !== 'completed' && left.lte(0) && m.inFlight.isZero() ? 'completed' : state;
    p.parent = { ...p.parent, state: final, reason };
    this.finished.set(p.parent.parentId, p);
    if (this.finished.size > FINISHED_KEPT) this.finished.delete(this.finished.keys().next().value!);
    if (m.inFlight.gt(0)) this.unsettled.add(p.parent.parentId);
    await this.publish(p, `${final}: ${reason}`, m);
  }

  private async publish(p: Program, change: string, m: Measured = this.measure(p)): Promise<void> {
    p.parent = this.view(p, m);
    await this.host.publish({
      type: 'AlgoUpdated',
      ts: p.parent.updatedAt,
      strategyId: p.parent.strategyId,
      symbol: p.parent.symbol,
      parent: p.parent,
      change,
    });
  }

  private view(p: Program, m: Measured): AlgoParent {
    const { avgPrice: _old, ...rest } = p.parent;
    return {
      ...rest,
      filledQty: m.filled,
      ...(m.filled.gt(0) ? { avgPrice: m.notional.div(m.filled) } : {}),
      remaining: p.parent.quantity.minus(m.filled),
      inFlight: m.inFlight,
      updatedAt: this.host.now(),
    };
  }

  /** The children's fills and what is in flight, from the order book (the venue's fills). */
  private measure(p: Program): Measured {
    let filled = ZERO;
    let notional = ZERO;
    let inFlight = ZERO;
    const live: Order[] = [];
    const unknown: ClientOrderId[] = [];
    const rejected: ClientOrderId[] = [];
    for (let n = 1; n <= p.parent.children; n++) {
      const cid = childClientId(p.parent.parentId, n);
      const o = this.host.order(cid);
      if (o) p.seen.set(cid, { qty: o.filledQty, notional: o.filledNotional });
      const seen = p.seen.get(cid);
      if (seen) {
        filled = filled.plus(seen.qty);
        notional = notional.plus(seen.notional);
      }
      if (!o) continue;
      if (isLive(o.status)) {
        live.push(o);
        if (o.quantity) inFlight = inFlight.plus(o.quantity.minus(o.filledQty));
      }
      if (this.host.unresolved(cid)) unknown.push(cid);
      if (o.status === 'rejected') rejected.push(cid);
    }
    return { filled, notional, inFlight, live, unknown, rejected };
  }
}
