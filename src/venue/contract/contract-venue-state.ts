/**
 * The contract venue's state and the loop every command runs in (the bottom of its modules: every
 * other module of the venue reads and changes the venue through this one object).
 *
 * It holds the markets, accounts, orders and positions, the venue's options and id sequences, the
 * lookups several modules share, and the event loop: `run` executes a command and, once the outermost
 * command returns, delivers what it queued — events, price updates for the watchers and deferred
 * trigger tasks, in one order (../event-queue.ts, one failure rule for both venues).
 */
import type { Clock } from '../../core/clock.js';
import { D, Decimal, type DecimalLike } from '../../core/decimal.js';
import { accountId as toAccountId, type AccountId } from '../../core/ids.js';
import { ContractOrderErrorCode, ContractOrderState, ContractStpMode, PositionMode, PositionType } from '../../domain/contract-enums.js';
import type { ContractInstrument, RiskTier } from '../../domain/instrument.js';
import { StpAction, type SelfTradeCheck } from '../book/order-book.js';
import {
  CONTRACT_VENUE_EVENT_TYPES,
  isContractVenueEventType,
  type ContractVenueEvent,
  type ContractVenueEventType,
  type PriceUpdate,
} from './contract-events.js';
import { ContractPosition } from './contract-position.js';
import type { Rejected } from './contract-requests.js';
import { ContractSpec } from './contract-spec.js';
import { AccountState, OrderIndex, type MarketState, type OrderState, type Wallet } from './contract-state.js';
import { TriggerBook } from './triggers/trigger-book.js';
import { MoneyCell } from './money-cell.js';
import { DeliveryQueue, Listeners } from '../event-queue.js';
import { LEDGER_SCALE, pow10 } from '../ledger/ledger-units.js';
import { extKey, posKey, sideKey } from './venue-keys.js';
import { LiquidationIndex } from './liquidation-index.js';
import { accountChanged } from './account-changes.js';
import { markNeverLiquidated } from './never-liquidated.js';

export interface FeeRates {
  readonly maker: Decimal;
  readonly taker: Decimal;
}

/** A contract's fee rates for one account, with their ledger units per tick·lot (fees are tick·lots × these). */
export interface SpecRates extends FeeRates {
  /** max(maker, taker, 0): what a resting order reserves. */
  readonly reserve: Decimal;
  readonly makerPer: bigint;
  readonly takerPer: bigint;
  /** max(taker, 0) per tick·lot: what the taker part of an order reserves. */
  readonly takerReservePer: bigint;
  readonly reservePer: bigint;
}

export interface ContractVenueOptions {
  readonly clock: Clock;
  readonly instruments?: readonly ContractInstrument[];
  /** Whether two accounts are in one STP group. Default: the same account only. */
  readonly sameStpGroup?: (a: AccountId, b: AccountId) => boolean;
  /** Fee rates per account and contract. Default: the instrument's makerFeeRate / takerFeeRate. */
  readonly feeRates?: (account: AccountId, instrument: ContractInstrument) => FeeRates;
  /** Funding period in ms; overrides collectCycleHours (tests shorten it). */
  readonly fundingIntervalMs?: number;
  /** Funding cycle in hours reported as collectCycle (default 8). */
  readonly collectCycleHours?: number;
  /** Settle funding on Clock timers (default true). */
  readonly autoFunding?: boolean;
  readonly initialFundingRate?: DecimalLike;
  readonly maxFundingRate?: DecimalLike;
  readonly minFundingRate?: DecimalLike;
  /** Starting insurance-fund balance per settle coin. */
  readonly insuranceFund?: Readonly<Record<string, DecimalLike>>;
  /** Decimal places of booked margin (default 8). */
  readonly moneyScale?: number;
  /** Leverage shown for a side nobody has set yet (default 20, clamped to the contract's bounds). */
  readonly defaultLeverage?: number;
  /** Refuse orders on contracts with apiAllowed=false (code 1002). Default true. */
  readonly enforceApiAllowed?: boolean;
  /** Refuse limit prices outside fair·(1 ± bid/askLimitPriceRate) (code 2007). Default true. */
  readonly enforcePriceBand?: boolean;
  /** Final orders, fills, closed positions, funding and transfer records kept per account (default 10000). */
  readonly historyLimit?: number;
  /**
   * Final orders and fills kept for one account, when it differs from historyLimit (the emulator's
   * crowd, whose history no one can read, keeps none so the venue's state does not grow with time).
   */
  readonly historyLimitOf?: (accountId: string) => number | undefined;
  /**
   * Accounts no price move liquidates, their margin booked as any account's (never-liquidated.ts): a
   * backtest's crowd. Default: none.
   */
  readonly neverLiquidated?: (accountId: string) => boolean;
  /** First order / position id is idBase + 1 (default 0). */
  readonly idBase?: number;
  /** First stop / plan / trailing order id is triggerIdBase + 1 (default idBase + 500000000, apart from order ids). */
  readonly triggerIdBase?: number;
  readonly defaultPositionMode?: PositionMode;
}

export const INSURANCE_ACCOUNT_ID: AccountId = toAccountId('__insurance__');

/** What a command queues for delivery after it: an event, a price update for the watchers, a deferred trigger task. */
type QueueItem = { kind: 'event'; event: ContractVenueEvent } | { kind: 'price'; update: PriceUpdate } | { kind: 'task'; run: () => void };

/**
 * What placement, margin changes and funding ask of the liquidation engine, which sits above them (it
 * cancels orders and closes positions through them): the facade wires the engine in.
 */
export interface LiquidationCheck {
  /** Checks the isolated positions of `m` and the cross accounts holding it (or only those of `only`). */
  checkLiquidations(m: MarketState, only?: readonly AccountState[]): void;
}

const STP_ACTION: Readonly<Record<ContractStpMode, StpAction>> = {
  [ContractStpMode.NONE]: StpAction.Trade,
  [ContractStpMode.CANCEL_BOTH]: StpAction.CancelBoth,
  [ContractStpMode.CANCEL_MAKER]: StpAction.CancelMaker,
  [ContractStpMode.CANCEL_TAKER]: StpAction.CancelTaker,
};

/** A refusal before any record exists (no event). */
export function refuse(code: number, message: string, errorCode: ContractOrderErrorCode = ContractOrderErrorCode.PARAMETER): Rejected {
  return { ok: false, code, errorCode, message };
}

/**
 * How many listeners take each event type (an unfiltered listener counts for every type). It belongs
 * with the listeners it counts: an engine snapshot restore keeps the freshly built graph's listeners
 * (functions are never written), so it keeps this from the fresh graph too (a keep class in
 * emulator/engine/snapshot-classes.ts); counts restored from another engine's snapshot would starve them.
 */
export class ListenerTypeCounts {
  readonly of = Object.fromEntries(CONTRACT_VENUE_EVENT_TYPES.map((t) => [t, 0])) as Record<ContractVenueEventType, number>;
  /**
   * Unfiltered listeners (counted in `of` too): with one, wants() answers without the lookup by type
   * name. Why: that lookup's key varies, so every hot path it is inlined into made a megamorphic keyed
   * load (KeyedLoadIC_Megamorphic: 1,956 instructions of a maker+taker cycle with a listener of all
   * events, callgrind).
   */
  every = 0;
}

export class ContractVenueState {
  readonly clock: Clock;
  readonly markets = new Map<string, MarketState>();
  readonly accounts = new Map<string, AccountState>();
  readonly insurance: AccountState;
  /** Seed per currency (right-hand side of the conservation identity). */
  readonly insuranceSeed = new Map<string, Decimal>();
  /** Σ fees per currency, in ledger units (fees are whole units). */
  readonly feeIncome = new Map<string, bigint>();
  /** Fees the fill path collected in grains (MoneyCell's double part), per currency; feeIncomeUnits() adds them to feeIncome. */
  readonly feeIncomeCells = new Map<string, MoneyCell>();
  readonly defaultRates = new Map<ContractSpec, SpecRates>();
  /** Every order still retained (open and recent history), by id. */
  readonly orders: OrderIndex;
  /** Open positions by id. */
  readonly positionsById = new Map<string, { account: AccountState; position: ContractPosition }>();
  /** Σ lots opened / closed per position id, from the fill journal (invariant: hold = opened − closed). */
  readonly positionFills = new Map<string, { opened: number; closed: number }>();
  /** Isolated positions by liquidation edge and open cross positions per coin (the liquidation engine's pre-selection). */
  readonly liquidationIndex = new LiquidationIndex();
  readonly listeners = new Listeners<ContractVenueEvent>();
  /**
   * How many listeners take each event type (an unfiltered listener counts for every type). An event
   * no listener takes is not built: its views are most of a listened command's cost (issue 12).
   */
  private readonly takers = new ListenerTypeCounts();
  readonly watchers = new Listeners<PriceUpdate>();
  readonly queue = new DeliveryQueue<QueueItem>((item, failures) => {
    if (item.kind === 'event') this.listeners.deliver(item.event, failures);
    else if (item.kind === 'task') failures.run(item.run);
    else this.watchers.deliver(item.update, failures);
  });
  private nesting = 0;

  readonly sameGroup: (a: AccountId, b: AccountId) => boolean;
  readonly feeRatesOf: ((account: AccountId, instrument: ContractInstrument) => FeeRates) | undefined;
  readonly scale: number;
  /** Ledger units of one 10^-scale (the step booked margin is rounded to). */
  readonly stepUnits: bigint;
  readonly historyLimit: number;
  readonly historyLimitOf: ((accountId: string) => number | undefined) | undefined;
  readonly idBase: number;
  readonly defaultLeverage: number;
  readonly enforceApiAllowed: boolean;
  readonly enforcePriceBand: boolean;
  readonly autoFunding: boolean;
  readonly defaultPositionMode: PositionMode;
  orderSeq = 0;
  positionSeq = 0;
  tradeSeq = 0;
  fundingSeq = 0;
  transferSeq = 0;
  /** Count of fills whose booking fell short of margin by rounding or an out-of-band price (diagnostics). */
  shortfalls = 0;
  /**
   * The trigger book: built by the facade right after this state (the book's venue is the facade,
   * whose modules need this state first), so every command sees it.
   */
  triggers!: TriggerBook;

  /** Called by the emulator's snapshot restore: a snapshot written before feeIncomeCells has none. */
  reviveAfterSnapshot(): void {
    if ((this.feeIncomeCells as Map<string, MoneyCell> | undefined) === undefined)
      (this as { feeIncomeCells: Map<string, MoneyCell> }).feeIncomeCells = new Map();
  }

  constructor(readonly options: ContractVenueOptions) {
    this.clock = options.clock;
    this.sameGroup = options.sameStpGroup ?? ((a, b) => a === b);
    this.feeRatesOf = options.feeRates;
    this.scale = options.moneyScale ?? 8;
    if (!Number.isInteger(this.scale) || this.scale < 0 || this.scale > LEDGER_SCALE)
      throw new RangeError(`moneyScale must be an integer in [0, ${LEDGER_SCALE}], got ${this.scale}`);
    this.stepUnits = pow10(LEDGER_SCALE - this.scale);
    this.historyLimit = options.historyLimit ?? 10_000;
    this.historyLimitOf = options.historyLimitOf;
    this.idBase = options.idBase ?? 0;
    this.orders = new OrderIndex(this.idBase);
    this.defaultLeverage = options.defaultLeverage ?? 20;
    this.enforceApiAllowed = options.enforceApiAllowed ?? true;
    this.enforcePriceBand = options.enforcePriceBand ?? true;
    this.autoFunding = options.autoFunding ?? true;
    this.defaultPositionMode = options.defaultPositionMode ?? PositionMode.HEDGED;
    this.insurance = new AccountState(INSURANCE_ACCOUNT_ID, PositionMode.ONE_WAY, true);
    this.accounts.set(INSURANCE_ACCOUNT_ID, this.insurance);
    for (const [currency, amount] of Object.entries(options.insuranceFund ?? {})) {
      const a = D(amount);
      this.insurance.wallet(currency).free = a;
      this.insuranceSeed.set(currency, a);
    }
  }

  account(id: string, positionMode?: PositionMode): AccountState {
    let a = this.accounts.get(id);
    if (a === undefined) {
      a = new AccountState(toAccountId(id), positionMode ?? this.defaultPositionMode, false);
      if (this.options.neverLiquidated?.(id) === true) markNeverLiquidated(a);
      this.accounts.set(id, a);
    }
    return a;
  }

  requireMarket(symbol: string): MarketState {
    const m = this.markets.get(symbol);
    if (m === undefined) throw new RangeError(`unknown contract ${symbol}`);
    return m;
  }

  markPrice(m: MarketState): Decimal | undefined {
    return m.fairPrice ?? m.lastPrice;
  }

  referenceTicks(m: MarketState): number | undefined {
    if (m.lastTicks !== undefined) return m.lastTicks;
    if (m.fairPrice !== undefined) return Math.max(1, m.spec.priceToTicks(m.fairPrice, 'nearest'));
    return undefined;
  }

  tierOf(spec: ContractSpec, lots: number): RiskTier {
    return spec.tierOfLots(lots);
  }

  /** Final orders and fills kept for the account. */
  accountHistoryLimit(acct: AccountState): number {
    return this.historyLimitOf?.(acct.id) ?? this.historyLimit;
  }

  isOpen(o: OrderState): boolean {
    return o.state === ContractOrderState.UNCOMPLETED || o.state === ContractOrderState.PENDING;
  }

  /** The fund's wallet, to book into (every caller changes it: its change count moves here). */
  insuranceWallet(currency: string): Wallet {
    accountChanged(this.insurance);
    return this.insurance.wallet(currency);
  }

  addFeeIncome(currency: string, feeUnits: bigint): void {
    this.feeIncome.set(currency, (this.feeIncome.get(currency) ?? 0n) + feeUnits);
  }

  /** addFeeIncome of `grains` counts of `grain` units, summed in doubles (feeIncomeCells) on the fill path. */
  addFeeIncomeGrains(currency: string, grains: number, grain: number): void {
    let c = this.feeIncomeCells.get(currency);
    if (c === undefined) {
      this.feeIncomeCells.set(currency, (c = new MoneyCell()));
      // feeIncome keeps every currency that took a fee, in first-fee order, as addFeeIncome did.
      if (!this.feeIncome.has(currency)) this.feeIncome.set(currency, 0n);
    }
    c.addGrains(grains, grain);
  }

  /** Fees collected per currency in ledger units: feeIncome plus feeIncomeCells. */
  feeIncomeUnits(): Map<string, bigint> {
    const out = new Map(this.feeIncome);
    for (const [c, cell] of this.feeIncomeCells) if (!cell.isZero()) out.set(c, (out.get(c) ?? 0n) + cell.units);
    return out;
  }

  findPosition(accountIdIn: string, positionIdIn: string | number): { account: AccountState; position: ContractPosition } | undefined {
    const found = this.positionsById.get(String(positionIdIn));
    return found && found.account.id === accountIdIn ? found : undefined;
  }

  netPosition(acct: AccountState, symbol: string): ContractPosition | undefined {
    return netOf(acct.positions.get(posKey(symbol, PositionType.LONG)), acct.positions.get(posKey(symbol, PositionType.SHORT)));
  }

  hasOpeningOrders(acct: AccountState, symbol: string, key: string): boolean {
    for (const o of acct.openOrders.values()) {
      if (o.closing || o.market.spec.symbol !== symbol) continue;
      if (sideKey(acct.positionMode, symbol, o.isBuy ? PositionType.LONG : PositionType.SHORT) === key) return true;
    }
    return false;
  }

  pendingOpenLots(acct: AccountState, symbol: string, direction: PositionType): number {
    let n = 0;
    for (const o of acct.openOrders.values()) {
      if (o.closing || o.market.spec.symbol !== symbol) continue;
      if ((o.isBuy ? PositionType.LONG : PositionType.SHORT) === direction) n += o.lots - o.dealLots;
    }
    return n;
  }

  openCount(acct: AccountState, symbol: string): number {
    let n = 0;
    for (const o of acct.openOrders.values()) if (o.market.spec.symbol === symbol) n++;
    return n;
  }

  findByExternal(acct: AccountState, symbol: string, externalOid: string): OrderState | undefined {
    const open = acct.openByExternal.get(extKey(symbol, externalOid));
    if (open) return open;
    return acct.history.findExternal(symbol, externalOid);
  }

  stpCheck(acct: AccountState, mode: ContractStpMode): SelfTradeCheck<OrderState> {
    const action = STP_ACTION[mode];
    return (maker) => (this.sameGroup(acct.id, maker.data.account.id) ? action : StpAction.Trade);
  }

  /**
   * Adds a listener of every event, or only of `types` (it then receives exactly the events of those
   * types, the same objects in the same order as an unfiltered listener). Returns the remover (idempotent).
   */
  addListener(listener: (event: ContractVenueEvent) => void, types?: readonly ContractVenueEventType[]): () => void {
    const kinds = types === undefined ? CONTRACT_VENUE_EVENT_TYPES : [...new Set(types)];
    for (const t of kinds)
      if (!isContractVenueEventType(t))
        throw new RangeError(
          `on: types has "${String(t)}", expected contract venue event types (${CONTRACT_VENUE_EVENT_TYPES.join(', ')})`,
        );
    const taken = types === undefined ? undefined : new Set<string>(kinds);
    // One list for all listeners, so filtered and unfiltered ones see one global order.
    const remove = this.listeners.add(
      taken === undefined
        ? listener
        : (e) => {
            if (taken.has(e.type)) listener(e);
          },
    );
    for (const t of kinds) this.takers.of[t]++;
    if (taken === undefined) this.takers.every++;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      remove();
      for (const t of kinds) this.takers.of[t]--;
      if (taken === undefined) this.takers.every--;
    };
  }

  /** Whether a listener takes events of `type`: hot paths test it before making the event's builder. */
  wants(type: ContractVenueEventType): boolean {
    // No listener at all first: the hot paths ask this about eight times per maker+taker cycle, and the
    // lookup by a type name that varies at this (not inlined) call was 2 % of the cycle's profile.
    return this.listeners.size !== 0 && (this.takers.every !== 0 || this.takers.of[type] > 0);
  }

  /** Queues an event; the builder runs now (views are snapshots of this moment) only if someone listens, and the event only if taken. */
  emit(build: () => ContractVenueEvent): void {
    if (this.listeners.size === 0) return;
    const event = build();
    if (this.takers.of[event.type] > 0) this.queue.push({ kind: 'event', event });
  }

  /**
   * Queues an event already built, for the hot paths that asked wants(event.type) first (then emit's
   * builder closure is one more allocation per event, and they build the event anyway). Not asked
   * again: between the two only the venue's own code runs (no listener is added or removed), and the
   * lookup by the event's type was a megamorphic keyed load per event (see ListenerTypeCounts.every).
   */
  emitEvent(event: ContractVenueEvent): void {
    this.queue.push({ kind: 'event', event });
  }

  runValue<T>(fn: () => T): T {
    let out: T | undefined;
    this.run(() => {
      out = fn();
    });
    return out as T;
  }

  /**
   * `run` spelled out for the hottest command (placement), without a closure per call:
   * `enter(); try { … } finally { exit(); } deliver();` — the same nesting and the same delivery.
   */
  enter(): void {
    this.nesting++;
  }

  exit(): void {
    this.nesting--;
  }

  /** Delivers what the commands queued, once the outermost has returned. */
  deliver(): void {
    if (this.nesting === 0) this.queue.flush();
  }

  /** Runs a command and then delivers its events (a command started by a listener nests). */
  run(fn: () => void): void {
    this.enter();
    try {
      fn();
    } finally {
      this.exit();
    }
    this.deliver();
  }
}

/** A one-way account's net position from its two sides: the long side's, else the short side's. */
export function netOf(long: ContractPosition | undefined, short: ContractPosition | undefined): ContractPosition | undefined {
  return long ?? short;
}
