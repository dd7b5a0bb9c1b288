/**
 * Turns approved intents into gateway calls and keeps the local book of orders (docs/architecture.md rules 6–8).
 *
 *  - A client id is made (ClientIdCodec: strategy + intent kind + slot) and the order journaled BEFORE
 *    the request goes out; after a crash the journal says what may exist at the venue.
 *  - Every event is applied to the local store, then journaled, then published (cache first).
 *  - OutcomeUnknown is resolved by querying the client id, never by sending again: found → the venue's
 *    state is adopted; not found → the order stays "submitted" until `unknownGraceMs` (≥ the venue's
 *    recvWindow, after which a delayed request can no longer be accepted) has passed, then it is
 *    rejected; the query failing → still unknown, tried again by resolvePending().
 *  - Spot amend policy: CANCEL FIRST, THEN PLACE the remainder (requested total − filled). The cancel
 *    answer settles how much filled, so the replacement never over-fills and never doubles exposure;
 *    the price is a gap in quoting for one round trip. A failed or unknown cancel places nothing.
 *  - Chase: contract uses chase_limit_order (or change_limit_order when the cap stops short of the
 *    best price); spot is emulated with cancel-replace. Both reprice on later snapshots, at most
 *    maxReprices times, never beyond the cap.
 *  - Execution algorithms (TWAP, iceberg: algo/algo-executor.ts) run here, inside the serialised
 *    operations: children are placed through placeNew like any order, each judged first by the
 *    runtime's risk engine (setAlgoGate), and cancel-all / stop / kill switch stop them.
 *  - Calls are serialised: one intent, snapshot or reconciliation at a time.
 */
import 'reflect-metadata';
import { inject, injectable, optional } from 'inversify';
import { Subject, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.js';
import { type Decimal, ZERO, truncateToStep } from '../core/decimal.js';
import {
  ExchangeError,
  NetworkError,
  OrderNotCancellable,
  OrderNotFound,
  OutcomeUnknown,
  PerpetuaError,
  ValidationError,
} from '../core/errors.js';
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../core/ids.js';
import { CORE_TOKENS } from '../core/core-tokens.js';
import { DOMAIN_TOKENS } from '../domain/domain-tokens.js';
import { EXECUTION_TOKENS } from './execution-tokens.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Fill } from '../domain/fill.js';
import { eventClientOrderId } from '../domain/execution-event.js';
import { stepOf } from '../domain/instrument.js';
import type { InstrumentLookup } from '../domain/instrument-registry.js';
import type { AlgoParent } from '../domain/algo-parent.js';
import type {
  AlgoIntent,
  AmendOrder,
  CancelAll,
  CancelProtectiveOrders,
  ChaseOrder,
  DesiredQuote,
  DesiredQuotes,
  Intent,
  PlaceProtectiveOrder,
} from '../domain/intent.js';
import { createOrder, isLive, isTerminal, type Order, type OrderSpec, transitionOrder, type VenueOrder } from '../domain/order.js';
import type { Position } from '../domain/position.js';
import type { MarketSnapshot } from '../domain/snapshot.js';
import { type AlgoGate, AlgoExecutor } from './algo/algo-executor.js';
import { chaseTarget } from './chase-target.js';
import { type ClientIdCodec, type ClientIdKind, parentOfClientId } from '../domain/client-id-codec.js';
import { diffDesiredQuotes, type QuoteDiff, type QuoteDiffOptions } from './desired-quotes-diff.js';
import type { ExchangeGateway, OrderRef, PlaceRequest, ProtectiveStop } from './exchange-gateway.js';
import type { ImmediateAccountReads } from './immediate-account-reads.js';
import type { OrderJournal } from './order-journal.js';
import { type LocalOrderState, OrderStore, orderStateOf } from './order-state.js';
import { RateBudget } from './rate-budget.js';
import {
  addForeignFill,
  type ForeignFilled,
  NOTHING_FILLED,
  reconcile as reconcilePure,
  type ReconcileOptions,
  type VenueReport,
} from './reconcile.js';
import { reasonOf } from '../core/message-of.js';

export interface OrderManagerConfig {
  /** How long after sending an order missing at the venue may still arrive there (≥ recvWindow). */
  readonly unknownGraceMs: number;
  /** Fills are fetched from this far back when nothing is known (first start), ms. */
  readonly fillsLookbackMs: number;
  /** Each reconciliation re-reads fills from this far before the newest seen one (dedupe by trade id). */
  readonly fillsOverlapMs: number;
  /** Closed orders and seen trade ids are kept this long, ms (must exceed fillsOverlapMs). */
  readonly retainClosedMs: number;
  /** A resting quote this close to the desired one is left alone. */
  readonly priceTolerance?: Decimal;
  readonly quantityTolerance?: Decimal;
}

/**
 * How far before the request's send time (our clock) the venue's creation time of the trigger order a
 * lost placement made may read: the two clocks differ by at most the signed requests' receive window.
 */
const PROTECTIVE_CLOCK_MARGIN_MS = 10_000;

export const DEFAULT_ORDER_MANAGER_CONFIG: OrderManagerConfig = {
  unknownGraceMs: 65_000,
  fillsLookbackMs: 24 * 3_600_000,
  fillsOverlapMs: 60_000,
  retainClosedMs: 6 * 3_600_000,
};

export type UnknownResolution = 'found' | 'not-found' | 'unknown';

export interface OrderManagerWarning {
  readonly message: string;
  /** The error's class and text (no secrets: client errors carry none). */
  readonly error: string;
}

interface ChaseProgram {
  clientOrderId: ClientOrderId;
  readonly strategyId: StrategyId;
  readonly symbol: InstrumentSymbol;
  readonly maxReprices: number;
  readonly priceCap?: Decimal;
  reprices: number;
}

@injectable()
export class OrderManager {
  private store = new OrderStore();
  private readonly subject = new Subject<ExecutionEvent>();
  readonly events$: Observable<ExecutionEvent> = this.subject.asObservable();
  private readonly warnings = new Subject<OrderManagerWarning>();
  /** Venue reads that failed and will be tried again (the runtime logs them): never dropped silently. */
  readonly warnings$: Observable<OrderManagerWarning> = this.warnings.asObservable();
  private readonly config: OrderManagerConfig;
  private readonly budget: RateBudget;
  private readonly unknown = new Set<string>();
  /** Venue ids of the trailing and plan orders this manager announced (ProtectiveOrderPlaced). */
  private readonly announcedProtective = new Set<string>();
  private readonly chases = new Map<string, ChaseProgram>();
  private readonly lastSnapshots = new Map<string, MarketSnapshot>();
  private readonly fillWatermark = new Map<string, number>();
  private restoredFillTime: number | undefined;
  /** Per symbol, from the journal (see JournalSnapshot.lastFillTimeBySymbol). */
  private restoredFillTimes: Readonly<Record<string, number>> | undefined;
  /** What VenueFills booked per venue order (fills of orders not ours), so each contract counts once. */
  private readonly foreignFilled = new Map<string, ForeignFilled>();
  /** Owner of a position leg for fills of orders not ours, and since when; unset: such fills are not booked. */
  private ownerOf: ReconcileOptions['ownerOf'];
  private foreignSince = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** Where a pass reads open orders and fills: the gateway, or a venue in this process (readsAtHand). */
  private venueReads: Pick<ExchangeGateway | ImmediateAccountReads, 'openOrders' | 'fillsSince'>;
  private batch: ExecutionEvent[] | undefined;
  private algoGate: AlgoGate | undefined;
  private readonly algo: AlgoExecutor = new AlgoExecutor({
    now: () => this.clock.now(),
    order: (cid) => this.store.get(cid),
    instrument: (symbol) => this.instruments.instrument(symbol),
    snapshot: (symbol) => this.lastSnapshots.get(symbol),
    unresolved: (cid) => this.unknown.has(cid),
    resolve: async (cid) => {
      await this.resolve(cid);
    },
    gate: (child) => (this.algoGate ? this.algoGate(child) : { approved: false, rule: 'risk-gate', reason: 'no risk engine is wired' }),
    place: async (child, cid) => {
      await this.journal.recordIntent(child, this.clock.now());
      await this.placeNew(child.order, child.strategyId, 'place', { intentId: child.intentId, cid });
    },
    cancel: (orders) => this.cancelMany(orders),
    query: (symbol, cid) => this.gateway.queryOrder(symbol, cid),
    // The port's promise, settled as the async publish's was when the journal records synchronously.
    publish: (e) => this.publish(e) ?? Promise.resolve(),
  });

  constructor(
    @inject(EXECUTION_TOKENS.ExchangeGateway) private readonly gateway: ExchangeGateway,
    @inject(EXECUTION_TOKENS.OrderJournal) private readonly journal: OrderJournal,
    @inject(CORE_TOKENS.Clock) private readonly clock: Clock,
    @inject(EXECUTION_TOKENS.ClientIdCodec) private readonly codec: ClientIdCodec,
    @inject(DOMAIN_TOKENS.Instruments) private readonly instruments: InstrumentLookup,
    @inject(EXECUTION_TOKENS.OrderManagerConfig) @optional() config?: Partial<OrderManagerConfig>,
  ) {
    this.config = { ...DEFAULT_ORDER_MANAGER_CONFIG, ...(config ?? {}) };
    this.budget = new RateBudget(clock, Math.max(1, gateway.capabilities.orderCallsPerSecond));
    this.venueReads = gateway;
  }

  // ---------- views ----------

  order(clientOrderId: string): Order | undefined {
    return this.store.get(clientOrderId);
  }

  /** Live orders (sent and not closed), optionally of one strategy and / or symbol. */
  liveOrders(filter: { strategyId?: StrategyId; symbol?: InstrumentSymbol } = ALL_ORDERS): readonly Order[] {
    // Unfiltered (the risk state asks every intent): the store's copy is already a fresh array.
    if (filter.strategyId === undefined && filter.symbol === undefined) return this.store.live();
    return this.store
      .live()
      .filter(
        (o) =>
          (filter.strategyId === undefined || o.strategyId === filter.strategyId) &&
          (filter.symbol === undefined || o.symbol === filter.symbol),
      );
  }

  /** A frozen copy of the local book (for reconcile tests and status lines). */
  state(): LocalOrderState {
    return this.store.snapshot();
  }

  /** Execution algorithms' parents (working, then the newest finished), progress measured now. */
  algoOrders(filter: { strategyId?: StrategyId; symbol?: InstrumentSymbol } = {}): AlgoParent[] {
    return this.algo.parents(filter);
  }

  /** True while an execution algorithm works (for the strategy, or at all). */
  algoWorking(strategyId?: StrategyId): boolean {
    return this.algo.parents({ ...(strategyId !== undefined ? { strategyId } : {}) }).some((p) => p.state === 'working');
  }

  /**
   * Wires the risk engine's verdict on each child of an execution algorithm (the runtime does, with the
   * same engine and state as for strategy intents). Without it every child is denied.
   */
  setAlgoGate(gate: AlgoGate): void {
    this.algoGate = gate;
  }

  /** Stops every working execution algorithm (runtime stop): resting children cancelled, final state journaled. */
  async stopAlgos(reason: string): Promise<ExecutionEvent[]> {
    return this.serial(() => this.collect(() => this.algo.cancelWhere({}, reason)));
  }

  /** Client ids whose last request has an unknown outcome. */
  unresolved(): string[] {
    return [...this.unknown].sort();
  }

  // ---------- lifecycle ----------

  /**
   * Loads the journal. Every order whose last request may not have reached the venue has an unknown
   * outcome, resolved by asking the venue (resolvePending): one journaled but maybe never sent, and one
   * left pending a cancel or an amend. A pending-cancel order that nothing resolved was never cancelled
   * again (exit cancels skip orders already being cancelled) and stayed resting after a clean stop (the
   * chaos suite's orphan quote after a bot was killed with its cancel in flight).
   */
  async restore(): Promise<void> {
    await this.serial(async () => {
      const snap = await this.journal.restore();
      const orders = snap.orders.map((o) => {
        this.codec.observe(o.clientOrderId);
        return o.status === 'initialized' ? transitionOrder(o, 'submitted', o.createdAt) : o;
      });
      this.store = new OrderStore(orderStateOf(orders, snap.seenTradeIds));
      for (const o of orders)
        if (o.status === 'submitted' || o.status === 'pending-cancel' || o.status === 'pending-amend') this.unknown.add(o.clientOrderId);
      this.restoredFillTime = snap.lastFillTime;
      this.restoredFillTimes = snap.lastFillTimeBySymbol;
      for (const f of snap.venueFills ?? []) this.countForeign(f);
      this.algo.restore(snap.algoParents ?? [], orders);
    });
  }

  /**
   * Books fills of orders not ours (TP/SL, liquidations, orders placed by hand) as VenueFills of the
   * leg's owner from the next reconciliation on, those made at or after `since` (venue ms: fills from
   * before the journal's first run are not the bot's history). Without it they are not booked. Backtests
   * call it too: the simulated venue's trigger closes and liquidations are fills of no order of ours.
   */
  attributeVenueFills(ownerOf: NonNullable<ReconcileOptions['ownerOf']>, since = 0): void {
    this.ownerOf = ownerOf;
    this.foreignSince = since;
    this.passOptions = undefined;
  }

  /**
   * Reconciliation passes read open orders and fills from `reads` instead of the gateway: the same
   * venue's answers at hand (a backtest's simulated venue, ImmediateAccountReads), which the gateway only
   * wraps in promises. Paper and live never call it: their passes ask the venue through the gateway.
   */
  readsAtHand(reads: ImmediateAccountReads): void {
    this.venueReads = reads;
  }

  /**
   * Compares the local book with the venue for `symbols` (all pages of open orders, fills since the
   * watermark, a query for each of our live orders the venue no longer lists) and applies the events
   * of the pure reconcile(). Throws when the venue cannot be read: startup must not go on half-known.
   */
  reconcile(symbols: readonly InstrumentSymbol[], opts: ReconcilePassOptions = PLAIN_PASS): Promise<ExecutionEvent[]> {
    // The queue's promise itself, not one adopting it (an async frame, a promise and two turns a pass).
    return this.serial(() => this.reconcileNow(symbols, opts));
  }

  /**
   * Retries resolution of every unknown outcome (call on a timer). With no outcome unknown and nothing
   * queued or running that could make one (the pass of nearly every reconciliation tick), there is
   * nothing to ask the venue: undefined, and the caller awaits nothing (a settled promise awaited cost a
   * turn per reconciliation tick); otherwise the events the resolution published.
   */
  resolvePending(): Promise<readonly ExecutionEvent[]> | undefined {
    if (this.inFlight === 0 && this.unknown.size === 0) return undefined;
    return this.resolveQueued();
  }

  private async resolveQueued(): Promise<ExecutionEvent[]> {
    return this.serial(async () => {
      const out: ExecutionEvent[] = [];
      for (const cid of this.unresolved()) out.push(...(await this.collect(() => this.resolve(cid as ClientOrderId))));
      return out;
    });
  }

  /** Resolves one unknown outcome by querying its client id. */
  async resolveUnknown(clientOrderId: ClientOrderId): Promise<UnknownResolution> {
    return this.serial(() => this.resolve(clientOrderId));
  }

  // ---------- commands ----------

  /** Carries out an intent the risk engine approved; returns the events it produced. */
  execute(intent: Intent): Promise<ExecutionEvent[]> {
    // The queue's promise itself, not one adopting it (an async frame, a promise, a `then` lookup and two
    // turns an intent), as reconcile() does.
    return this.serial(() => this.collect(() => this.carryOut(intent)));
  }

  /**
   * The intent's work: its journal record (awaited only when the journal answers with a promise: the SQLite
   * and memory journals record at once), then a quote set (every snapshot of a quoting strategy) straight
   * to applyQuotes, anything else through dispatch(). Not an async function: collect() awaits what it
   * answers, and an async frame here and around dispatch cost a promise and a microtask turn each, per intent.
   */
  private carryOut(intent: Intent): Promise<unknown> {
    const recorded = this.journal.recordIntent(intent, this.clock.now());
    return recorded ? recorded.then(() => this.routed(intent)) : this.routed(intent);
  }

  private routed(intent: Intent): Promise<unknown> {
    return intent.kind === 'desired-quotes' ? this.applyQuotes(intent) : this.dispatch(intent);
  }

  /**
   * Keeps the latest snapshot (chase targets) and moves chased orders; the events that published, or
   * undefined when the snapshot was only stored (the caller awaits nothing: a settled promise awaited
   * cost a turn per snapshot).
   */
  onSnapshot(snapshot: MarketSnapshot): Promise<readonly ExecutionEvent[]> | undefined {
    // The common case, once per snapshot: nothing of ours in flight and nothing to chase on the
    // symbol. Queued behind nothing, the snapshot would be stored at once and nothing would be sent:
    // do just that, without a trip through the queue.
    if (this.inFlight === 0 && !this.chasing(snapshot.symbol) && !this.algo.active(snapshot.symbol)) {
      this.lastSnapshots.set(snapshot.symbol, snapshot);
      return undefined;
    }
    return this.serial(() =>
      this.collect(async () => {
        this.lastSnapshots.set(snapshot.symbol, snapshot);
        for (const p of [...this.chases.values()]) if (p.symbol === snapshot.symbol) await this.chaseStep(p);
        await this.algo.onSnapshot(snapshot.symbol);
      }),
    );
  }

  // ---------- internals ----------

  private async dispatch(intent: Intent): Promise<void> {
    switch (intent.kind) {
      case 'place':
        await this.placeNew(intent.order, intent.strategyId, 'place', { intentId: intent.intentId });
        return;
      case 'cancel': {
        const o = this.store.get(intent.clientOrderId);
        if (o && isLive(o.status)) await this.cancelMany([o]);
        else
          await this.publish({
            type: 'IntentFailed',
            ts: this.clock.now(),
            strategyId: intent.strategyId,
            intent,
            reason: `order ${intent.clientOrderId} is not live (${o?.status ?? 'unknown'})`,
          });
        return;
      }
      case 'cancel-all':
        await this.cancelAll(intent);
        return;
      case 'amend':
        await this.amend(intent);
        return;
      case 'chase':
        await this.startChase(intent);
        return;
      case 'desired-quotes':
        await this.applyQuotes(intent);
        return;
      case 'twap':
      case 'iceberg':
        await this.startAlgo(intent);
        return;
      case 'cancel-algo':
        if (!(await this.algo.cancel(intent.parentId, 'cancelled by the strategy')))
          await this.publish({
            type: 'IntentFailed',
            ts: this.clock.now(),
            strategyId: intent.strategyId,
            intent,
            reason: `execution algorithm ${intent.parentId} is not working (${this.algo.parent(intent.parentId)?.state ?? 'unknown'})`,
          });
        return;
      case 'set-leverage':
        await this.setting(
          intent,
          () =>
            this.gateway.setLeverage({
              symbol: intent.symbol,
              leverage: intent.leverage,
              ...(intent.positionSide ? { positionSide: intent.positionSide } : {}),
              ...(intent.marginMode ? { marginMode: intent.marginMode } : {}),
            }),
          {
            type: 'LeverageChanged',
            ts: 0,
            strategyId: intent.strategyId,
            symbol: intent.symbol,
            leverage: intent.leverage,
            ...(intent.positionSide ? { positionSide: intent.positionSide } : {}),
          },
        );
        return;
      case 'set-position-mode':
        await this.setting(intent, () => this.gateway.setPositionMode(intent.mode), {
          type: 'PositionModeChanged',
          ts: 0,
          strategyId: intent.strategyId,
          mode: intent.mode,
        });
        return;
      case 'protective-order':
        await this.placeProtective(intent);
        return;
      case 'cancel-protective':
        await this.cancelProtective(intent);
        return;
      case 'attach-tpsl': {
        const o = intent.clientOrderId ? this.store.get(intent.clientOrderId) : undefined;
        await this.setting(
          intent,
          () =>
            this.gateway.attachTpSl({
              symbol: intent.symbol,
              ...(o ? { order: this.refOf(o) } : {}),
              ...(intent.positionSide ? { positionSide: intent.positionSide } : {}),
              ...(intent.takeProfitPrice ? { takeProfitPrice: intent.takeProfitPrice } : {}),
              ...(intent.stopLossPrice ? { stopLossPrice: intent.stopLossPrice } : {}),
              ...(intent.triggerPriceType ? { triggerPriceType: intent.triggerPriceType } : {}),
            }),
          {
            type: 'TpSlAttached',
            ts: 0,
            strategyId: intent.strategyId,
            symbol: intent.symbol,
            ...(intent.clientOrderId ? { clientOrderId: intent.clientOrderId } : {}),
            ...(intent.takeProfitPrice ? { takeProfitPrice: intent.takeProfitPrice } : {}),
            ...(intent.stopLossPrice ? { stopLossPrice: intent.stopLossPrice } : {}),
          },
        );
        return;
      }
    }
  }

  /**
   * A trailing or plan order: placed once, never re-sent. It carries no client id, so a lost answer is
   * resolved from the venue's list of them: the one order of this kind, side and size placed since the
   * request went out (and not announced before) is ours. None or more than one: the intent fails with
   * the outcome unknown, and the protection check goes on reading the venue. Before, every lost answer
   * failed the intent, and an order the venue had placed closed positions the strategy did not know of.
   */
  private async placeProtective(intent: PlaceProtectiveOrder): Promise<void> {
    const place = this.gateway.placeProtectiveOrder?.bind(this.gateway);
    const { symbol, positionSide, quantity, spec, triggerPriceType, leverage, marginMode } = intent;
    await this.setting(intent, async () => {
      if (!place) throw new ValidationError('intent.kind', 'a venue with trailing and plan orders (contract)', intent.kind);
      const sentAt = this.clock.now();
      let order: ProtectiveStop;
      try {
        order = await place({
          symbol,
          positionSide,
          quantity,
          spec,
          ...(triggerPriceType ? { triggerPriceType } : {}),
          ...(leverage !== undefined ? { leverage } : {}),
          ...(marginMode ? { marginMode } : {}),
        });
      } catch (e) {
        if (!(e instanceof OutcomeUnknown)) throw e;
        order = await this.lostProtective(intent, sentAt, e);
      }
      if (order.id !== undefined) this.announcedProtective.add(order.id);
      return { type: 'ProtectiveOrderPlaced', ts: 0, strategyId: intent.strategyId, symbol, intentId: intent.intentId, order };
    });
  }

  /** The trigger order a placement with a lost answer made, from the venue's list; throws when it cannot tell. */
  private async lostProtective(intent: PlaceProtectiveOrder, sentAt: number, lost: OutcomeUnknown): Promise<ProtectiveStop> {
    const list = this.gateway.protectiveStops?.bind(this.gateway);
    if (!list) throw lost;
    let venue: readonly ProtectiveStop[];
    try {
      venue = await list(intent.symbol);
    } catch {
      throw lost;
    }
    const since = sentAt - PROTECTIVE_CLOCK_MARGIN_MS;
    const mine = venue.filter(
      (p) =>
        p.kind === intent.spec.type &&
        p.positionSide === intent.positionSide &&
        p.quantity !== undefined &&
        p.quantity.eq(intent.quantity) &&
        p.id !== undefined &&
        !this.announcedProtective.has(p.id) &&
        p.createdAt !== undefined &&
        p.createdAt >= since,
    );
    if (mine.length === 1) return mine[0]!;
    const found = mine.length === 0 ? 'none' : `${mine.length}, which cannot be told apart`;
    throw new OutcomeUnknown(
      `${lost.message}; ${intent.spec.type} orders of this side and size placed since at the venue: ${found}`,
      lost.endpoint,
    );
  }

  /** Each ref cancelled in turn; one the venue no longer holds live is reported as such, not as a failure. */
  private async cancelProtective(intent: CancelProtectiveOrders): Promise<void> {
    const cancel = this.gateway.cancelProtectiveOrder?.bind(this.gateway);
    for (const ref of intent.orders) {
      await this.setting(intent, async () => {
        if (!cancel) throw new ValidationError('intent.kind', 'a venue with trailing and plan orders (contract)', intent.kind);
        const live = await cancel(intent.symbol, ref);
        return { type: 'ProtectiveOrderCancelled', ts: 0, strategyId: intent.strategyId, symbol: intent.symbol, order: ref, live };
      });
    }
  }

  private async setting(intent: Intent, call: () => Promise<void | ExecutionEvent>, ok?: ExecutionEvent): Promise<void> {
    try {
      const done = (await call()) ?? ok;
      if (done) await this.publish({ ...done, ts: this.clock.now() });
    } catch (e) {
      const unknown = e instanceof OutcomeUnknown ? 'outcome unknown: ' : '';
      await this.publish({
        type: 'IntentFailed',
        ts: this.clock.now(),
        strategyId: intent.strategyId,
        intent,
        reason: `${unknown}${reasonOf(e)}`,
      });
    }
  }

  private async startAlgo(intent: AlgoIntent): Promise<void> {
    if (!this.algoGate) {
      await this.publish({
        type: 'IntentFailed',
        ts: this.clock.now(),
        strategyId: intent.strategyId,
        intent,
        reason: 'execution algorithms need the risk engine wired to judge their children (setAlgoGate)',
      });
      return;
    }
    try {
      await this.algo.start(intent, this.codec.next(intent.strategyId, intent.kind));
    } catch (e) {
      if (!(e instanceof PerpetuaError)) throw e;
      await this.publish({ type: 'IntentFailed', ts: this.clock.now(), strategyId: intent.strategyId, intent, reason: reasonOf(e) });
    }
  }

  /** Journals, publishes OrderSubmitted, then sends. Returns the new order's client id. */
  private async placeNew(
    spec: OrderSpec,
    strategyId: StrategyId,
    kind: ClientIdKind,
    meta: { intentId?: string; slot?: string; replaces?: ClientOrderId; cid?: ClientOrderId },
  ): Promise<ClientOrderId> {
    const [cid] = await this.prepare([{ spec, strategyId, kind, meta }]);
    await this.send([cid!]);
    return cid!;
  }

  private async prepare(
    items: readonly {
      spec: OrderSpec;
      strategyId: StrategyId;
      kind: ClientIdKind;
      meta: { intentId?: string; slot?: string; replaces?: ClientOrderId; cid?: ClientOrderId };
    }[],
  ): Promise<ClientOrderId[]> {
    const cids: ClientOrderId[] = [];
    for (const it of items) {
      // An execution algorithm's child comes with its id, derived from the parent's.
      const cid = it.meta.cid ?? this.codec.next(it.strategyId, it.kind, it.meta.slot);
      const order = createOrder(it.spec, {
        clientOrderId: cid,
        strategyId: it.strategyId,
        now: this.clock.now(),
        ...(it.meta.intentId !== undefined ? { intentId: it.meta.intentId } : {}),
        ...(it.meta.slot !== undefined ? { slot: it.meta.slot } : {}),
        ...(it.meta.replaces !== undefined ? { replacesClientOrderId: it.meta.replaces } : {}),
      });
      // Write-ahead: durable before anything is sent. Here and on the spot cancel-replace path (every amend
      // of the reference spot market maker), a journal's record and a publication are awaited only when they
      // answer with a promise, as on the native amend path: `await undefined` took a microtask turn each.
      const recorded = this.journal.recordOrder(order);
      if (recorded) await recorded;
      const published = this.publish({ type: 'OrderSubmitted', ts: this.clock.now(), strategyId: it.strategyId, order });
      if (published) await published;
      cids.push(cid);
    }
    return cids;
  }

  private async send(cids: readonly ClientOrderId[]): Promise<void> {
    const orders = cids.map((c) => this.store.get(c)!).filter(Boolean);
    const reqs: PlaceRequest[] = orders.map((o) => ({ clientOrderId: o.clientOrderId, order: specOf(o) }));
    const max = this.gateway.capabilities.batchPlaceMax;
    if (reqs.length > 1 && max > 1) {
      for (let i = 0; i < reqs.length; i += max) {
        const chunk = reqs.slice(i, i + max);
        this.budget.consume(1);
        try {
          const results = await this.gateway.placeOrders(chunk);
          for (let j = 0; j < chunk.length; j++) {
            const r = results[j];
            const cid = chunk[j]!.clientOrderId;
            if (!r) await this.placeFailed(cid, new ExchangeError('batch answer has no element for this order'));
            else if (r.ok) await this.placeAcked(cid, r.value.venueOrderId, r.value.status);
            else await this.placeFailed(cid, r.error);
          }
        } catch (e) {
          for (const r of chunk) await this.placeFailed(r.clientOrderId, e);
        }
      }
      return;
    }
    for (const r of reqs) {
      this.budget.consume(1);
      try {
        const ack = await this.gateway.placeOrder(r);
        await this.placeAcked(r.clientOrderId, ack.venueOrderId, ack.status);
      } catch (e) {
        await this.placeFailed(r.clientOrderId, e);
      }
    }
  }

  private async placeAcked(
    cid: ClientOrderId,
    venueOrderId: Order['venueOrderId'] & string,
    status: Order['status'] | undefined,
  ): Promise<void> {
    const o = this.store.get(cid)!;
    const published = this.publish({
      type: 'OrderAccepted',
      ts: this.clock.now(),
      strategyId: o.strategyId,
      clientOrderId: cid,
      symbol: o.symbol,
      venueOrderId,
    });
    if (published) await published;
    // Filled or closed on arrival (IOC, FOK, market, crossing): the fills come from the venue's records.
    // Neither venue's placement answer carries a status, so an order that cannot rest is checked at
    // once by its type instead of waiting for the next reconcile.
    const cannotRest = o.type === 'market' || o.timeInForce === 'ioc' || o.timeInForce === 'fok';
    if ((status && status !== 'accepted' && status !== 'submitted') || cannotRest) await this.refresh(cid);
  }

  private async placeFailed(cid: ClientOrderId, e: unknown): Promise<void> {
    const o = this.store.get(cid)!;
    if (e instanceof OutcomeUnknown) {
      this.unknown.add(cid);
      await this.publish({
        type: 'OrderOutcomeUnknown',
        ts: this.clock.now(),
        strategyId: o.strategyId,
        clientOrderId: cid,
        symbol: o.symbol,
        operation: 'place',
      });
      await this.resolve(cid);
      return;
    }
    const prefix = e instanceof NetworkError ? 'not sent: ' : '';
    await this.publish({
      type: 'OrderRejected',
      ts: this.clock.now(),
      strategyId: o.strategyId,
      clientOrderId: cid,
      symbol: o.symbol,
      reason: `${prefix}${reasonOf(e)}`,
      ...(e instanceof ExchangeError && e.venueCode !== undefined ? { venueCode: e.venueCode } : {}),
    });
  }

  private async cancelMany(orders: readonly Order[]): Promise<void> {
    const targets = orders.filter((o) => isLive(o.status) && o.status !== 'pending-cancel');
    if (targets.length === 0) return;
    for (const o of targets) {
      const published = this.publish({
        type: 'OrderCancelRequested',
        ts: this.clock.now(),
        strategyId: o.strategyId,
        clientOrderId: o.clientOrderId,
        symbol: o.symbol,
      });
      if (published) await published;
    }
    const max = this.gateway.capabilities.batchCancelMax;
    if (targets.length > 1 && max > 1) {
      for (let i = 0; i < targets.length; i += max) {
        const chunk = targets.slice(i, i + max);
        this.budget.consume(1);
        try {
          const results = await this.gateway.cancelOrders(chunk.map((o) => this.refOf(this.store.get(o.clientOrderId) ?? o)));
          for (let j = 0; j < chunk.length; j++) {
            const r = results[j];
            if (r?.ok) await this.cancelAcked(chunk[j]!.clientOrderId, r.value.filledQty, 'user');
            else
              await this.cancelFailed(
                chunk[j]!.clientOrderId,
                r ? r.error : new ExchangeError('batch answer has no element for this order'),
              );
          }
        } catch (e) {
          for (const o of chunk) await this.cancelFailed(o.clientOrderId, e);
        }
      }
      return;
    }
    for (const o of targets) {
      this.budget.consume(1);
      try {
        const ack = await this.gateway.cancelOrder(this.refOf(this.store.get(o.clientOrderId) ?? o));
        await this.cancelAcked(o.clientOrderId, ack.filledQty, 'user');
      } catch (e) {
        await this.cancelFailed(o.clientOrderId, e);
      }
    }
  }

  private async cancelAcked(cid: ClientOrderId, venueFilled: Decimal | undefined, reason: string): Promise<void> {
    const o = this.store.get(cid)!;
    const published = this.publish({
      type: 'OrderCancelled',
      ts: this.clock.now(),
      strategyId: o.strategyId,
      clientOrderId: cid,
      symbol: o.symbol,
      reason,
    });
    if (published) await published;
    // The cancel answer shows fills we have not seen: fetch them now rather than at the next reconcile.
    if (venueFilled && venueFilled.gt(o.filledQty)) await this.refresh(cid);
  }

  private async cancelFailed(cid: ClientOrderId, e: unknown, operation: 'cancel' | 'amend' = 'cancel'): Promise<void> {
    const o = this.store.get(cid)!;
    if (e instanceof OutcomeUnknown) {
      this.unknown.add(cid);
      await this.publish({
        type: 'OrderOutcomeUnknown',
        ts: this.clock.now(),
        strategyId: o.strategyId,
        clientOrderId: cid,
        symbol: o.symbol,
        operation,
      });
      await this.resolve(cid);
      return;
    }
    if (e instanceof OrderNotFound || e instanceof OrderNotCancellable) {
      // Probably filled or already cancelled: ask the venue what became of it.
      await this.refresh(cid);
      const after = this.store.get(cid)!;
      if (isTerminal(after.status)) return;
    }
    const after = this.store.get(cid)!;
    const base = { ts: this.clock.now(), strategyId: after.strategyId, clientOrderId: cid, symbol: after.symbol, reason: reasonOf(e) };
    if (after.status === 'pending-cancel') await this.publish({ ...base, type: 'OrderCancelRejected' });
    else if (after.status === 'pending-amend') await this.publish({ ...base, type: 'OrderAmendRejected' });
  }

  private async cancelAll(intent: CancelAll): Promise<void> {
    // No execution algorithm goes on placing children after a cancel-all (stop, kill switch, operator).
    await this.algo.cancelWhere(
      {
        ...(intent.scope === 'strategy' ? { strategyId: intent.strategyId } : {}),
        ...(intent.symbol !== undefined ? { symbol: intent.symbol } : {}),
      },
      `cancel-all (${intent.scope})`,
    );
    if (intent.scope === 'strategy') {
      const mine = this.store
        .live()
        .filter((o) => o.strategyId === intent.strategyId && (intent.symbol === undefined || o.symbol === intent.symbol));
      for (const p of [...this.chases.values()])
        if (mine.some((o) => o.clientOrderId === p.clientOrderId)) this.chases.delete(p.clientOrderId);
      await this.cancelMany(mine);
      return;
    }
    const affected = this.store
      .live()
      .filter(
        (o) =>
          o.kind === this.gateway.capabilities.kind &&
          (intent.symbol === undefined || o.symbol === intent.symbol) &&
          o.status !== 'submitted',
      );
    for (const o of affected)
      if (o.status !== 'pending-cancel')
        await this.publish({
          type: 'OrderCancelRequested',
          ts: this.clock.now(),
          strategyId: o.strategyId,
          clientOrderId: o.clientOrderId,
          symbol: o.symbol,
        });
    this.budget.consume(1);
    try {
      await this.gateway.cancelAll(intent.symbol);
      for (const o of affected) await this.cancelAcked(o.clientOrderId, undefined, 'cancel-all');
    } catch (e) {
      for (const o of affected) await this.cancelFailed(o.clientOrderId, e);
    }
  }

  private async amend(intent: AmendOrder): Promise<void> {
    const o = this.store.get(intent.clientOrderId);
    if (!o || (o.status !== 'accepted' && o.status !== 'partially-filled')) {
      await this.publish({
        type: 'IntentFailed',
        ts: this.clock.now(),
        strategyId: intent.strategyId,
        intent,
        reason: `order ${intent.clientOrderId} is not resting (${o?.status ?? 'unknown'})`,
      });
      return;
    }
    await this.amendOrder(o, intent.price ?? o.price!, intent.quantity ?? o.quantity!, 'amend');
  }

  /** Changes price / total quantity: natively, or by cancel-then-place. Returns the client id now carrying the order. */
  private async amendOrder(o: Order, price: Decimal, quantity: Decimal, kind: 'amend' | 'chase'): Promise<ClientOrderId> {
    // Events written out in full, in the order `{ ...base, … }` gave their keys: in Node 20 a spread followed by
    // properties the spread object lacks takes V8's slow path, ~5–10 µs an object, most of an amend's cost.
    // A publication is awaited only when it answers with a promise (a journal recording asynchronously):
    // `await undefined` took a microtask turn, two an amend.
    const { strategyId, clientOrderId, symbol } = o;
    const requested = this.publish({
      ts: this.clock.now(),
      strategyId,
      clientOrderId,
      symbol,
      type: 'OrderAmendRequested',
      price,
      quantity,
    });
    if (requested) await requested;
    this.budget.consume(1);
    if (this.gateway.capabilities.amend === 'native') {
      try {
        const venueOrderId = o.venueOrderId;
        const ack = await this.gateway.amendOrder(
          venueOrderId ? { symbol, clientOrderId, venueOrderId, price, quantity } : { symbol, clientOrderId, price, quantity },
        );
        const ts = this.clock.now();
        const amended = this.publish({
          ts,
          strategyId,
          clientOrderId,
          symbol,
          type: 'OrderAmended',
          price,
          quantity,
          venueOrderId: ack.venueOrderId,
        });
        if (amended) await amended;
      } catch (e) {
        await this.cancelFailed(o.clientOrderId, e, 'amend');
      }
      return o.clientOrderId;
    }
    let venueFilled: Decimal | undefined;
    try {
      venueFilled = (await this.gateway.cancelOrder(this.refOf(o))).filledQty;
    } catch (e) {
      await this.cancelFailed(o.clientOrderId, e, 'amend');
      return o.clientOrderId;
    }
    const cancelled = this.publish({ ts: this.clock.now(), strategyId, clientOrderId, symbol, type: 'OrderCancelled', reason: 'replaced' });
    if (cancelled) await cancelled;
    const local = this.store.get(o.clientOrderId)!;
    if (venueFilled && venueFilled.gt(local.filledQty)) await this.refresh(o.clientOrderId);
    const filled = venueFilled && venueFilled.gt(local.filledQty) ? venueFilled : this.store.get(o.clientOrderId)!.filledQty;
    const inst = this.instruments.instrument(o.symbol);
    const rest = quantity.minus(filled);
    const remaining = inst ? truncateToStep(rest.isNegative() ? ZERO : rest, stepOf(inst)) : rest;
    if (remaining.lte(0)) return o.clientOrderId;
    const cid = await this.placeNew({ ...specOf(o), price, quantity: remaining }, o.strategyId, kind, {
      ...(o.intentId !== undefined ? { intentId: o.intentId } : {}),
      ...(o.slot !== undefined ? { slot: o.slot } : {}),
      replaces: o.clientOrderId,
    });
    const replaced = this.publish({
      ts: this.clock.now(),
      strategyId,
      clientOrderId,
      symbol,
      type: 'OrderReplaced',
      newClientOrderId: cid,
    });
    if (replaced) await replaced;
    return cid;
  }

  private async startChase(intent: ChaseOrder): Promise<void> {
    const o = this.store.get(intent.clientOrderId);
    if (!o || (o.status !== 'accepted' && o.status !== 'partially-filled')) {
      await this.publish({
        type: 'IntentFailed',
        ts: this.clock.now(),
        strategyId: intent.strategyId,
        intent,
        reason: `order ${intent.clientOrderId} is not resting (${o?.status ?? 'unknown'})`,
      });
      return;
    }
    const p: ChaseProgram = {
      clientOrderId: o.clientOrderId,
      strategyId: intent.strategyId,
      symbol: intent.symbol,
      maxReprices: intent.maxReprices,
      ...(intent.priceCap ? { priceCap: intent.priceCap } : {}),
      reprices: 0,
    };
    this.chases.set(o.clientOrderId, p);
    await this.chaseStep(p);
  }

  private async chaseStep(p: ChaseProgram): Promise<void> {
    const o = this.store.get(p.clientOrderId);
    if (!o || isTerminal(o.status) || p.reprices >= p.maxReprices) {
      this.chases.delete(p.clientOrderId);
      return;
    }
    if (o.status !== 'accepted' && o.status !== 'partially-filled') return;
    const snapshot = this.lastSnapshots.get(p.symbol);
    const target = chaseTarget(o, snapshot, p.priceCap);
    if (!target) return;
    p.reprices += 1;
    const best =
      o.side === 'buy'
        ? (snapshot?.book?.bids[0]?.price ?? snapshot?.bookTicker?.bidPrice)
        : (snapshot?.book?.asks[0]?.price ?? snapshot?.bookTicker?.askPrice);
    let cid = o.clientOrderId;
    if (this.gateway.capabilities.chase === 'native' && best && target.eq(best)) {
      const base = { ts: this.clock.now(), strategyId: o.strategyId, clientOrderId: o.clientOrderId, symbol: o.symbol };
      await this.publish({ ...base, type: 'OrderAmendRequested', price: target });
      this.budget.consume(1);
      try {
        await this.gateway.chaseOrder(this.refOf(o));
        // The venue moved it to its best price; the snapshot's best is our estimate until reconcile reads it.
        await this.publish({ ...base, ts: this.clock.now(), type: 'OrderAmended', price: target });
      } catch (e) {
        await this.cancelFailed(o.clientOrderId, e, 'amend');
      }
    } else {
      cid = await this.amendOrder(o, target, o.quantity!, 'chase');
    }
    this.chases.delete(p.clientOrderId);
    const now = this.store.get(cid);
    if (now && !isTerminal(now.status) && p.reprices < p.maxReprices) {
      p.clientOrderId = cid;
      this.chases.set(cid, p);
    }
  }

  private async applyQuotes(intent: DesiredQuotes): Promise<QuoteDiff> {
    const caps = this.gateway.capabilities;
    // An execution algorithm's children are the algorithm's, not quotes to withdraw.
    const resting = this.store.liveOf(intent.strategyId, intent.symbol);
    // A quote carries its slot: only an order without one can be a child (decoding an id costs ~0.5 µs).
    let quotes = 0;
    for (let k = 0; k < resting.length; k++) {
      const o = resting[k]!;
      if (o.slot !== undefined || !parentOfClientId(o.clientOrderId)) resting[quotes++] = o;
    }
    resting.length = quotes;
    const opts: { -readonly [K in keyof QuoteDiffOptions]: QuoteDiffOptions[K] } = {
      amend: caps.amend,
      batchPlaceMax: caps.batchPlaceMax,
      batchCancelMax: caps.batchCancelMax,
      budget: this.budget.available(),
    };
    // Assigned rather than spread in (a conditional spread takes V8's slow path, once per quote set).
    if (this.config.priceTolerance) opts.priceTolerance = this.config.priceTolerance;
    if (this.config.quantityTolerance) opts.quantityTolerance = this.config.quantityTolerance;
    const diff = diffDesiredQuotes(intent.quotes, resting, opts);
    // Nothing to cancel (the usual round): no call into cancelMany's async frame.
    if (diff.cancels.length > 0) await this.cancelMany(diff.cancels);
    for (const a of diff.amends) await this.amendOrder(a.order, a.price, a.quantity, 'amend');
    if (diff.places.length > 0) {
      const kind = this.instruments.instrument(intent.symbol)?.kind ?? (intent.symbol.includes('_') ? 'contract' : 'spot');
      const cids = await this.prepare(
        diff.places.map((q) => ({
          spec: quoteOrderSpec(intent.symbol, kind, q),
          strategyId: intent.strategyId,
          kind: 'quote' as const,
          meta: { intentId: intent.intentId, slot: q.slot },
        })),
      );
      await this.send(cids);
    }
    return diff;
  }

  /** Asks the venue about one order (query + recent fills) and applies what reconcile makes of it. */
  private async refresh(cid: ClientOrderId): Promise<UnknownResolution> {
    const o = this.store.get(cid);
    if (!o) return 'unknown';
    let venue;
    try {
      // The gateway answers "no such order" with undefined; anything thrown is a failure to ask.
      venue = await this.gateway.queryOrder(o.symbol, cid);
    } catch (e) {
      this.warnRetry(`could not ask the venue about order ${cid}`, e);
      return 'unknown';
    }
    let fills: VenueReport['fills'] = [];
    if (venue && venue.filledQty.gt(o.filledQty)) {
      try {
        fills = await this.gateway.fillsSince(o.symbol, Math.max(0, o.createdAt - this.config.fillsOverlapMs));
      } catch (e) {
        // Without the trades, reconcile would book the venue's cumulative quantity as ONE synthetic fill at
        // the average price (no fee, no trade id): an invented fill. Leave the order as it is instead; the
        // next reconciliation (or resolvePending) asks again and books the real trades.
        this.warnRetry(`could not read the fills of order ${cid} (the venue shows ${venue.filledQty.toFixed()} filled)`, e);
        return 'unknown';
      }
    }
    const report: VenueReport = {
      symbols: [o.symbol],
      openOrders: [],
      queriedOrders: venue ? [venue] : [],
      notFound: venue ? [] : [cid],
      fills,
    };
    await this.applyReconcile(reconcilePure(this.store.view(), report, this.clock.now(), this.reconcileOptions()));
    return venue ? 'found' : 'not-found';
  }

  private async resolve(cid: ClientOrderId): Promise<UnknownResolution> {
    const before = this.store.get(cid);
    if (!before) {
      this.unknown.delete(cid);
      return 'unknown';
    }
    const r = await this.refresh(cid);
    const after = this.store.get(cid)!;
    if (r === 'unknown') return 'unknown';
    if (r === 'not-found') {
      if (isTerminal(after.status)) {
        this.unknown.delete(cid);
        return 'not-found';
      }
      // Still within the grace period: the request may yet arrive.
      return 'unknown';
    }
    // Found: a cancel or amend whose effect is not visible did not happen (if it lands later, the next
    // reconcile sees it).
    const base = { ts: this.clock.now(), strategyId: after.strategyId, clientOrderId: cid, symbol: after.symbol };
    if (after.status === 'pending-cancel')
      await this.publish({ ...base, type: 'OrderCancelRejected', reason: 'cancel outcome unknown; the order is still open at the venue' });
    else if (after.status === 'pending-amend')
      await this.publish({
        ...base,
        type: 'OrderAmendRejected',
        reason: 'amend outcome unknown; the venue shows the old price and quantity',
      });
    this.unknown.delete(cid);
    return 'found';
  }

  /** Where the fills query of `symbol` starts: its newest fill (watermark) less the overlap, or the lookback. */
  private fillsFrom(symbol: InstrumentSymbol, now: number): number {
    const mark = this.fillWatermark.get(symbol) ?? this.restoredWatermark(symbol) ?? now - this.config.fillsLookbackMs;
    return Math.max(0, mark - this.config.fillsOverlapMs);
  }

  private reconcileNow(symbols: readonly InstrumentSymbol[], opts: ReconcilePassOptions): Promise<ExecutionEvent[]> {
    return this.collect(async () => {
      const now = this.clock.now();
      // A pass a minute (a bar, in a backtest) mostly finds nothing listed and no new fill: the lists
      // are the venue's own answers when there is one symbol, copied only to join several.
      let openOrders: readonly VenueOrder[] = NONE;
      let fills: readonly Fill[] = NONE;
      let positions: readonly Position[] = NONE;
      // Indexed loops in this async closure: a for-of's iterator results live across its awaits (320 bytes a pass).
      // A gateway answers with promises; a venue in this process (readsAtHand) with the lists, taken as
      // they are: the awaits (a promise and a turn each, two a bar in a backtest) only where there is a promise.
      const venue = this.venueReads;
      for (let i = 0; i < symbols.length; i++) {
        const s = symbols[i]!;
        const listing = venue.openOrders(s);
        openOrders = joined(openOrders, isList(listing) ? listing : await listing);
        const filled = venue.fillsSince(s, this.fillsFrom(s, now));
        fills = joined(fills, isList(filled) ? filled : await filled);
        if (opts.positions) positions = joined(positions, await this.gateway.positions(s));
      }
      let listed: Set<string> | undefined;
      let listedIds: Set<string> | undefined;
      const queriedOrders: VenueOrder[] = [];
      const notFound: ClientOrderId[] = [];
      // Made only when an order is live (most passes of a backtest's trend strategy find none).
      let scope: Set<string> | undefined;
      for (const o of this.store.live()) {
        scope ??= new Set<string>(symbols);
        if (!scope.has(o.symbol)) continue;
        listed ??= new Set(openOrders.map((v) => v.clientOrderId ?? `#${v.venueOrderId}`));
        listedIds ??= new Set(openOrders.map((v) => v.venueOrderId));
        if (listed.has(o.clientOrderId) || (o.venueOrderId && listedIds.has(o.venueOrderId))) continue;
        const v = await this.gateway.queryOrder(o.symbol, o.clientOrderId);
        if (v) queriedOrders.push(v);
        else notFound.push(o.clientOrderId);
      }
      const report: VenueReport = { symbols, openOrders, queriedOrders, notFound, fills, ...(opts.positions ? { positions } : {}) };
      const events = reconcilePure(
        this.store.view(),
        report,
        now,
        opts.localPositions ? { ...this.reconcileOptions(), localPositions: opts.localPositions } : this.reconcileOptions(),
      );
      // Awaited only when there is something to publish: awaiting nothing (nearly every pass) cost a
      // promise and a turn. Nothing else runs in this operation's queue meanwhile (serial()).
      const published = this.applyReconcile(events);
      if (published) await published;
      for (let i = 0; i < symbols.length; i++) {
        const s = symbols[i]!;
        let newest = this.fillWatermark.get(s) ?? this.restoredWatermark(s) ?? 0;
        for (let k = 0; k < fills.length; k++) if (fills[k]!.symbol === s && fills[k]!.time > newest) newest = fills[k]!.time;
        if (newest > 0) this.fillWatermark.set(s, newest);
      }
      if (this.unknown.size > 0)
        for (const cid of [...this.unknown]) {
          const o = this.store.get(cid);
          if (!o || isTerminal(o.status) || o.status === 'accepted' || o.status === 'partially-filled') this.unknown.delete(cid);
        }
      const settled = this.algo.afterReconcile();
      if (settled) await settled;
      // A trade id is kept while the next fills query can still return its fill (from the watermark less
      // the overlap): a fill that stays among the newest for longer than retainClosedMs (a trailing
      // order's close, then a quiet market) was otherwise booked again at every pass once forgotten.
      const before = now - this.config.retainClosedMs;
      let tradesBefore = before;
      for (let i = 0; i < symbols.length; i++) tradesBefore = Math.min(tradesBefore, this.fillsFrom(symbols[i]!, now));
      this.store.prune(before, tradesBefore);
    });
  }

  /**
   * Where a restarted manager reads a symbol's fills from: its own newest journaled fill; a symbol with
   * none journaled reads the whole look-back (a journal from before per-symbol watermarks: the shared one).
   */
  private restoredWatermark(symbol: string): number | undefined {
    if (this.restoredFillTimes) return this.restoredFillTimes[symbol];
    return this.restoredFillTime;
  }

  /**
   * Publishes reconcile's events and cancels orphans: orders we closed that still rest at the venue.
   * Not an async function when there is nothing to publish (nearly every pass): `await undefined` takes
   * the one microtask turn that awaiting the settled promise of the async function took.
   */
  private applyReconcile(events: readonly ExecutionEvent[]): Promise<void> | undefined {
    return events.length === 0 ? undefined : this.publishReconciled(events);
  }

  private async publishReconciled(events: readonly ExecutionEvent[]): Promise<void> {
    for (const e of events) {
      const published = this.publish(e);
      if (published) await published;
      if (e.type !== 'OrderOrphaned') continue;
      this.budget.consume(1);
      try {
        await this.gateway.cancelOrder({ symbol: e.symbol, clientOrderId: e.clientOrderId, venueOrderId: e.venueOrderId });
      } catch {
        // Still listed next time: the alarm repeats and the cancel is tried again.
      }
    }
  }

  private warnRetry(what: string, e: unknown): void {
    this.warnings.next({ message: `${what}; asked again on the next pass`, error: reasonOf(e) });
  }

  /** The options of every pass, made once until attributeVenueFills changes them (foreignFilled is read live). */
  private reconcileOptions(): ReconcileOptions {
    return (this.passOptions ??= {
      attribute: (cid: string) => this.codec.strategyOf(cid),
      unknownGraceMs: this.config.unknownGraceMs,
      ...(this.ownerOf ? { ownerOf: this.ownerOf, foreignFilled: this.foreignFilled, foreignSince: this.foreignSince } : {}),
    });
  }

  private passOptions: ReconcileOptions | undefined;

  private countForeign(f: Fill): void {
    const key = f.venueOrderId ?? f.tradeId;
    this.foreignFilled.set(key, addForeignFill(this.foreignFilled.get(key) ?? NOTHING_FILLED, f));
  }

  private refOf(o: Order): OrderRef {
    return { symbol: o.symbol, clientOrderId: o.clientOrderId, ...(o.venueOrderId ? { venueOrderId: o.venueOrderId } : {}) };
  }

  /**
   * Cache first (store), then the journal, then subscribers.
   *
   * Not an async function: every journal records synchronously, and then the whole publication is done
   * here and nothing is returned. Every caller awaits the result, and `await undefined` takes the one
   * microtask turn that awaiting the settled promise of the async function it was took, so the order of
   * the runtime's promise chains (and the backtest's pinned runs) is unchanged; the promise per event is
   * what goes. A journal that answers with a promise gets the async tail, which starts with the same
   * await as before; a throw becomes a rejected promise, as the async function's was.
   */
  private publish(e: ExecutionEvent): Promise<void> | undefined {
    try {
      if (e.type === 'VenueFill' && !this.store.hasSeenTrade(e.fill.tradeId)) this.countForeign(e.fill);
      this.store.apply(e);
      const recorded = this.journal.recordEvent(e);
      if (recorded) return this.publishRecorded(recorded, e);
      const kept = this.recordOrderOf(e);
      if (kept) return this.publishKept(kept, e);
      this.batch?.push(e);
      this.subject.next(e);
      return undefined;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Journals the order the event is about; a promise when the journal answers with one. */
  private recordOrderOf(e: ExecutionEvent): void | Promise<void> {
    const cid = eventClientOrderId(e);
    if (cid === undefined) return undefined;
    const o = this.store.get(cid);
    return o && this.journal.recordOrder(o);
  }

  /** publish() after a journal's event record that answered with a promise. */
  private async publishRecorded(recorded: Promise<void>, e: ExecutionEvent): Promise<void> {
    await recorded;
    const kept = this.recordOrderOf(e);
    if (kept) await kept;
    this.batch?.push(e);
    this.subject.next(e);
  }

  /** publish() after a journal's order record that answered with a promise. */
  private async publishKept(kept: Promise<void>, e: ExecutionEvent): Promise<void> {
    await kept;
    this.batch?.push(e);
    this.subject.next(e);
  }

  /** Runs fn and returns the events it published. */
  private async collect(fn: () => Promise<unknown>): Promise<ExecutionEvent[]> {
    const outer = this.batch;
    const mine: ExecutionEvent[] = [];
    this.batch = mine;
    try {
      await fn();
    } finally {
      this.batch = outer;
      outer?.push(...mine);
    }
    return mine;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    // Counted on a side branch: the queue and the caller's promise keep their timing.
    this.inFlight++;
    run.then(this.settled, this.settled);
    return run;
  }

  /** Operations queued or running (see onSnapshot). */
  private inFlight = 0;
  private readonly settled = (): void => {
    this.inFlight--;
  };

  private chasing(symbol: InstrumentSymbol): boolean {
    if (this.chases.size === 0) return false;
    for (const p of this.chases.values()) if (p.symbol === symbol) return true;
    return false;
  }
}

const NONE: readonly never[] = Object.freeze([]);

/** liveOrders() without a filter (the risk state and the strategies' views ask on every snapshot). */
const ALL_ORDERS: { readonly strategyId?: StrategyId; readonly symbol?: InstrumentSymbol } = Object.freeze({});

/** What a reconciliation pass reads besides orders and fills (positions at start-up, for a drift check). */
export interface ReconcilePassOptions {
  readonly positions?: boolean;
  readonly localPositions?: readonly Position[];
}

/** Orders and fills only: the runtime's pass (one object for every call instead of a default `{}` each). */
const PLAIN_PASS: ReconcilePassOptions = Object.freeze({});

/** A venue's answer at hand (not a gateway's promise of it). */
function isList<T>(answer: readonly T[] | Promise<readonly T[]>): answer is readonly T[] {
  return Array.isArray(answer);
}

/**
 * `a` followed by the venue's answer `b`, as a list of our own (the answer is copied: a gateway may
 * keep the array it answered with); NONE while both are empty, the common case.
 */
function joined<T>(a: readonly T[], b: readonly T[]): readonly T[] {
  if (b.length === 0) return a;
  return a.length === 0 ? b.slice() : [...a, ...b];
}

function specOf(o: Order): OrderSpec {
  return {
    symbol: o.symbol,
    kind: o.kind,
    side: o.side,
    type: o.type,
    timeInForce: o.timeInForce,
    ...(o.price ? { price: o.price } : {}),
    ...(o.quantity ? { quantity: o.quantity } : {}),
    ...(o.quoteQuantity ? { quoteQuantity: o.quoteQuantity } : {}),
    ...(o.reduceOnly ? { reduceOnly: o.reduceOnly } : {}),
    ...(o.positionSide ? { positionSide: o.positionSide } : {}),
    ...(o.leverage !== undefined ? { leverage: o.leverage } : {}),
    ...(o.marginMode ? { marginMode: o.marginMode } : {}),
    ...(o.takeProfitPrice ? { takeProfitPrice: o.takeProfitPrice } : {}),
    ...(o.stopLossPrice ? { stopLossPrice: o.stopLossPrice } : {}),
    ...(o.triggerPriceType ? { triggerPriceType: o.triggerPriceType } : {}),
  };
}

function quoteOrderSpec(symbol: InstrumentSymbol, kind: OrderSpec['kind'], q: DesiredQuote): OrderSpec {
  return {
    symbol,
    kind,
    side: q.side,
    type: 'limit',
    timeInForce: q.timeInForce ?? 'gtc',
    price: q.price,
    quantity: q.quantity,
    ...(q.positionSide ? { positionSide: q.positionSide } : {}),
    ...(q.reduceOnly ? { reduceOnly: true } : {}),
    ...(q.leverage !== undefined ? { leverage: q.leverage } : {}),
    ...(q.marginMode ? { marginMode: q.marginMode } : {}),
  };
}
