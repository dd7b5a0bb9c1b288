/**
 * The trigger orders of a contract venue — TP/SL (stop), plan and trailing orders — and the loop that
 * evaluates them.
 *
 * Determinism: every trigger gets a sequence number at creation (one sequence across the three kinds)
 * and is activated right after; each price update (fair, index, last trade) of a contract evaluates
 * the live triggers of that contract in activation order, each against the price the update carries.
 * Only the triggers the update may concern are visited: the TriggerIndex (trigger-index.ts) keeps them
 * by the price that makes them act and pre-selects a superset of those that act; each kind's exact
 * `evaluate` decides, so the outcome is that of evaluating every live trigger. A trigger that fires places its
 * order through the venue's public placeOrder, so margin, fees, matching and the venue's invariants
 * apply exactly as for a user's order; the trades it makes queue further price updates, evaluated
 * after the current one (the venue's queue), never re-entrantly.
 *
 * The venue tells the book synchronously, from inside its commands, about what the book's state
 * depends on: fills of orders that carry a TP/SL, orders that end, positions that close. So the book
 * and the venue agree after every event, and `checkInvariants` can be run whenever the venue's can.
 * The book subscribes to prices only once the first trigger exists (the venue queues last-price
 * updates only while someone watches).
 */
import { PositionState, PositionType, StopOrderState, StopVolType, TrackOrderState } from '../../../domain/contract-enums.js';
import type { PriceUpdate } from '../contract-events.js';
import { ContractSpec } from '../contract-spec.js';
import { PlanOrders } from './plan-orders.js';
import { StopOrders } from './stop-orders.js';
import { TrackOrders } from './track-orders.js';
import { TriggerIndex } from './trigger-index.js';
import type { TriggerHost } from './trigger-port.js';
import type { TriggerRecord, TriggerRegistry } from './trigger-store.js';
import type { TriggerCounts } from './trigger-views.js';

export class TriggerBook {
  readonly stops: StopOrders;
  readonly plans: PlanOrders;
  readonly tracks: TrackOrders;
  /** Live triggers per contract, in creation order. */
  private readonly live = new Map<string, Map<number, TriggerRecord>>();
  /** The same records by the price that makes them act. */
  private readonly index = new TriggerIndex();
  private readonly specs = new Map<string, ContractSpec>();
  private seq = 0;
  private watching = false;

  constructor(private readonly host: TriggerHost) {
    const registry: TriggerRegistry = {
      host,
      next: () => {
        this.watch();
        const seq = ++this.seq;
        return { seq, id: String(host.idBase + seq) };
      },
      activate: (rec) => {
        let bucket = this.live.get(rec.symbol);
        if (bucket === undefined) this.live.set(rec.symbol, (bucket = new Map()));
        bucket.set(rec.seq, rec);
        this.index.place(rec);
      },
      deactivate: (rec) => {
        this.live.get(rec.symbol)?.delete(rec.seq);
        this.index.remove(rec);
      },
      reindex: (rec) => {
        if (this.live.get(rec.symbol)?.has(rec.seq)) this.index.place(rec);
      },
      spec: (symbol) => this.spec(symbol),
    };
    this.stops = new StopOrders(registry);
    this.plans = new PlanOrders(registry);
    this.tracks = new TrackOrders(registry);
  }

  /** Whether any trigger was ever created (the venue skips the hooks until then). */
  get engaged(): boolean {
    return this.seq > 0;
  }

  onPrice(u: PriceUpdate): void {
    const bucket = this.live.get(u.symbol);
    if (bucket === undefined || bucket.size === 0) return;
    for (const { rec } of this.index.select(u)) {
      // An earlier trigger of this update may have finished it (its order closed the position).
      if (!bucket.has(rec.seq)) continue;
      switch (rec.kind) {
        case 'stop':
          this.stops.evaluate(rec as Parameters<StopOrders['evaluate']>[0], u);
          break;
        case 'plan':
          this.plans.evaluate(rec as Parameters<PlanOrders['evaluate']>[0], u);
          break;
        case 'track': {
          const t = rec as Parameters<TrackOrders['evaluate']>[0];
          const { state, markPrice } = t;
          this.tracks.evaluate(t, u);
          // Activated or a new extreme: its keys moved (one that only came near them keeps them).
          if (bucket.has(rec.seq) && (t.state !== state || t.markPrice !== markPrice)) this.index.place(rec);
          break;
        }
      }
    }
    this.index.settle(u);
  }

  // ─────────────────────────────────────────────── venue hooks

  onFill(accountId: string, orderId: string, openLots: number, positionId: string | undefined): void {
    if (this.engaged) this.stops.onFill(accountId, orderId, openLots, positionId);
  }

  onOrderFinal(accountId: string, orderId: string): void {
    if (this.engaged) this.stops.onOrderFinal(accountId, orderId);
  }

  onPositionClosed(positionId: string): void {
    if (this.engaged) this.stops.onPositionClosed(positionId);
  }

  // ─────────────────────────────────────────────── queries

  counts(accountId: string, symbol?: string): TriggerCounts {
    if (!this.engaged) return { stop: 0, plan: 0, track: 0 };
    return {
      stop: this.stops.count(accountId, symbol),
      plan: this.plans.count(accountId, symbol),
      track: this.tracks.count(accountId, symbol),
    };
  }

  /** Untriggered plan orders or live trailing orders (they block a position-mode change). */
  hasPending(accountId: string): boolean {
    if (!this.engaged) return false;
    return this.plans.count(accountId) > 0 || this.tracks.count(accountId) > 0;
  }

  /**
   * The book's consistency, in the venue's style (one line per problem):
   *  - the live index holds exactly the live records;
   *  - an untriggered stop order bound to a position names an open position of its account, contract
   *    and direction, and has contracts to close; it has at least one leg;
   *  - an executed stop order names its close order and closed contracts; an executed plan order and a
   *    triggered trailing order name their order;
   *  - an active trailing order with a benchmark has its trigger price on the right side of it.
   */
  checkInvariants(): string[] {
    if (!this.engaged) return [];
    const problems: string[] = [];
    const venue = this.host.venue;
    const indexed = new Set<TriggerRecord>();
    for (const bucket of this.live.values()) for (const r of bucket.values()) indexed.add(r);
    const expectLive = (r: TriggerRecord, live: boolean): void => {
      if (live !== indexed.delete(r))
        problems.push(`${r.kind} order ${r.id}: ${live ? 'live but not evaluated' : 'final but still evaluated'}`);
    };
    for (const s of this.stops.records()) {
      const live = this.stops.isLive(s);
      expectLive(s, live);
      if (live) {
        if (s.stopLossPrice === undefined && s.takeProfitPrice === undefined)
          problems.push(`stop order ${s.id}: untriggered without a leg`);
        if (s.positionId !== undefined) {
          const pos = venue.openPositions(s.account, { positionId: s.positionId })[0];
          if (pos === undefined || pos.state !== PositionState.HOLDING)
            problems.push(`stop order ${s.id}: bound to position ${s.positionId}, which is not open`);
          else if (pos.symbol !== s.symbol || pos.positionType !== s.positionType)
            problems.push(
              `stop order ${s.id}: bound to a ${pos.symbol} ${pos.positionType === PositionType.LONG ? 'long' : 'short'} position`,
            );
          if (!this.stops.boundTo(s.positionId)?.has(s))
            problems.push(`stop order ${s.id}: missing from the index of position ${s.positionId}`);
          if (s.volType === StopVolType.PARTIAL && s.volLots <= 0) problems.push(`stop order ${s.id}: bound with vol 0`);
        } else if (s.orderId === undefined) {
          problems.push(`stop order ${s.id}: neither a position nor a limit order`);
        }
      } else if (s.state === StopOrderState.EXECUTED && (s.placeOrderId === undefined || s.realityLots <= 0)) {
        problems.push(`stop order ${s.id}: executed without a close order`);
      }
    }
    for (const p of this.plans.records()) {
      expectLive(p, this.plans.isLive(p));
      if (p.state === StopOrderState.EXECUTED && p.orderId === undefined) problems.push(`plan order ${p.id}: executed without an order`);
    }
    for (const t of this.tracks.records()) {
      expectLive(t, this.tracks.isLive(t));
      if (t.state === TrackOrderState.TRIGGERED && t.orderId === undefined)
        problems.push(`trailing order ${t.id}: triggered without an order`);
      if (t.state === TrackOrderState.ACTIVE && t.markPrice !== undefined) {
        const trigger = this.tracks.triggerOf(t);
        const ok = trigger !== undefined && (t.sells ? trigger.lt(t.markPrice) : trigger.gt(t.markPrice));
        if (!ok)
          problems.push(`trailing order ${t.id}: trigger ${trigger?.toString()} on the wrong side of benchmark ${t.markPrice.toString()}`);
      }
    }
    for (const r of indexed) problems.push(`${r.kind} order ${r.id}: evaluated but unknown`);
    let live = 0;
    for (const bucket of this.live.values())
      for (const r of bucket.values()) {
        live++;
        if (!this.index.has(r)) problems.push(`${r.kind} order ${r.id}: live but not in the price index`);
      }
    if (this.index.size !== live) problems.push(`trigger price index: ${this.index.size} records for ${live} live triggers`);
    return problems;
  }

  private spec(symbol: string): ContractSpec | undefined {
    let s = this.specs.get(symbol);
    if (s === undefined) {
      const inst = this.host.venue.instrument(symbol);
      if (inst === undefined) return undefined;
      this.specs.set(symbol, (s = new ContractSpec(inst)));
    }
    return s;
  }

  /**
   * After the emulator restored this book from a snapshot (emulator/engine/object-graph.ts): the
   * flag says the venue's price watcher is installed, but the freshly built venue has none yet.
   */
  reviveAfterSnapshot(): void {
    if (!this.watching) return;
    this.watching = false;
    this.watch();
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    this.host.venue.addPriceWatcher((u) => this.onPrice(u));
  }
}
