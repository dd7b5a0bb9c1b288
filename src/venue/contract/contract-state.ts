/**
 * Internal mutable state of the contract engine (not exported from the package surface; the venue
 * and its invariant checker share it). Everything here is plain data; the rules live in the venue.
 */
import { Decimal } from '../../core/decimal.js';
import type { AccountId, OrderId, PositionId, TradeId } from '../../core/ids.js';
import type { TimerHandle } from '../../core/clock.js';
import type {
  ContractOrderErrorCode,
  ContractOrderState,
  ContractOrderType,
  ContractSide,
  ContractStpMode,
  OpenType,
  OrderCategory,
  PositionMode,
} from '../../domain/contract-enums.js';
import type { BookSide, OrderBook } from '../book/order-book.js';
import type { ContractPosition, TickLots } from './contract-position.js';
import { MoneyCell, cellOfUnits, decimalOfUnits, legacyValues } from './money-cell.js';
import type { ContractSpec } from './contract-spec.js';
import type { PlacedOrderTicks } from './contract-requests.js';
import type { CancelReason, FundingHistoryView, FundingRecordView, TransferRecordView } from './contract-views.js';
import { OrderHistory } from './order-history.js';
import { FillLog } from './fill-log.js';

export const ZERO = new Decimal(0);

export class Wallet {
  /** Free balance (the availableBalance before cross unrealised losses). */
  readonly freeCell = new MoneyCell();
  /** Σ order margin of open orders (order margins are whole units: never a Decimal). */
  readonly frozenCell = new MoneyCell();

  constructor(readonly currency: string) {}

  /** Σ order margin of open orders in ledger units (a snapshot written before frozenCell sets it this way). */
  get frozenUnits(): bigint {
    // `?.`: a snapshot restore reads this on a wallet made without its fields.
    return (this.frozenCell as MoneyCell | undefined)?.units as bigint;
  }

  set frozenUnits(u: bigint) {
    // A restore of a snapshot written before frozenCell sets this, then deletes frozenCell (see reviveAfterSnapshot).
    (this.frozenCell as MoneyCell | undefined)?.setUnits(u);
    legacyValues.set(this, u);
  }

  /** Called by the emulator's snapshot restore: a snapshot written before frozenCell held frozenUnits. */
  reviveAfterSnapshot(): void {
    if ((this.frozenCell as MoneyCell | undefined) === undefined)
      (this as { frozenCell: MoneyCell }).frozenCell = cellOfUnits(legacyValues.get(this) ?? 0n);
  }

  /** The free balance as a Decimal (views and the paths that still book in Decimals). */
  get free(): Decimal {
    return this.freeCell.value;
  }

  set free(v: Decimal) {
    this.freeCell.set(v);
  }

  get frozen(): Decimal {
    return decimalOfUnits(this.frozenUnits);
  }
}

/** Lists that keep only their newest items (reads go through `length` and `at`, which arrays have too). */
export interface IndexedList<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/** How many dropped slots a CappedLog lets pile up before it moves its items down (amortised O(1) per push). */
const COMPACT_AFTER = 1024;

/**
 * A list kept to its newest `limit` items: an account's final orders, fills and closed positions.
 * An array whose oldest item left by `shift()` on every push past the limit did the same, but a shift
 * of a long array copies it whenever the heap cannot move the array's start (often, under the garbage
 * collector's marking): the dropped slots are cleared and skipped, and given back in one move later.
 */
export class CappedLog<T> implements IndexedList<T>, Iterable<T> {
  private items: (T | undefined)[] = [];
  /** Slots before this index were dropped. */
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  /** The index-th oldest item kept (undefined outside the list). */
  at(index: number): T | undefined {
    return index >= 0 && index < this.items.length - this.head ? this.items[this.head + index] : undefined;
  }

  /** Appends and drops the oldest beyond `limit`; returns what was dropped (pushCapped's rule). */
  push(item: T, limit: number): T | undefined {
    const items = this.items;
    items.push(item);
    if (items.length - this.head <= limit) return undefined;
    const dropped = items[this.head];
    items[this.head++] = undefined;
    if (this.head >= COMPACT_AFTER && this.head * 2 >= items.length) {
      items.splice(0, this.head);
      this.head = 0;
    }
    return dropped;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i]!;
  }
}

/** Orders a page of the OrderIndex holds (consecutive sequence numbers). */
const ORDER_PAGE = 1024;

/**
 * One page of the OrderIndex: the orders of sequence numbers page·ORDER_PAGE … (page+1)·ORDER_PAGE − 1.
 * A slot holds an open order, or the history of the account of a final order with the record's position
 * in `positions` (the history keeps it in columns, see order-history.ts), or a final order kept whole.
 */
export class OrderPage {
  readonly slots: (OrderState | OrderHistory | undefined)[] = new Array<OrderState | OrderHistory | undefined>(ORDER_PAGE).fill(undefined);
  readonly positions = new Float64Array(ORDER_PAGE);
  live = 0;

  /** Called by the emulator's snapshot restore: a page written before the history's columns has no positions. */
  reviveAfterSnapshot(): void {
    if ((this.positions as Float64Array | undefined) === undefined)
      (this as { positions: Float64Array }).positions = new Float64Array(ORDER_PAGE);
  }

  /** The order of sequence number `seq`, held here, became final and `history` keeps it at `position`: the slot points there. */
  toHistory(seq: number, history: OrderHistory, position: number): void {
    const at = seq % ORDER_PAGE;
    this.slots[at] = history;
    this.positions[at] = position;
  }

  /** The order in slot `at` (made from its history record when it is one). */
  orderAt(at: number): OrderState | undefined {
    const x = this.slots[at];
    return x instanceof OrderHistory ? x.atPosition(this.positions[at]!) : x;
  }
}

/**
 * Every order the venue still retains (open ones and the accounts' recent history), by id: what a
 * `Map<string, OrderState>` did, with the same answers to get / set / delete.
 *
 * Why not that Map: it held one entry per retained order (tens of thousands with the default history),
 * and every order was set into it and later deleted, so the table was rehashed and written all the time;
 * that cost several µs per maker+taker cycle (issue 12). Order ids are idBase + seq, so the orders sit in
 * pages of consecutive sequence numbers — a store and a clear in a small array, no hashing — and a page
 * goes when its last order does. An id of another form (none today) is kept in `others`. A lookup checks
 * the found order's id against the asked one, so "0123" or "1e3" finds nothing, as in the Map.
 *
 * A snapshot written before this class holds a Map in its place; the venue calls only get / set /
 * delete, which a Map answers the same, so such a snapshot still restores.
 */
export class OrderIndex {
  private readonly pages = new Map<number, OrderPage>();
  private readonly others = new Map<string, OrderState>();
  /**
   * The last page that emptied, kept for the next page to be made (all its slots are clear once its
   * last order went). Why: where no order is retained — accounts that keep no history, such as the
   * emulator's and the backtest's crowd — each order emptied its page as it ended and the next order
   * made a new one, 1,024 slots filled: callgrind counted about 21,700 instructions per maker+taker
   * cycle in Array.prototype.fill with historyLimit 0 (86,535 per cycle against 64,164 keeping
   * 10,000 orders). An index restored from a snapshot written before this field has none, as at start.
   */
  private spare: OrderPage | undefined = undefined;

  constructor(private readonly idBase: number) {}

  get(id: string): OrderState | undefined {
    const seq = Number(id) - this.idBase;
    if (Number.isSafeInteger(seq) && seq >= 0) {
      const o = this.pages.get(Math.floor(seq / ORDER_PAGE))?.orderAt(seq % ORDER_PAGE);
      if (o !== undefined && o.id === id) return o;
    }
    return this.others.size === 0 ? undefined : this.others.get(id);
  }

  set(id: string, o: OrderState): this {
    const seq = o.seq;
    if (o.id === id && Number.isSafeInteger(seq) && seq >= 0 && Number(id) - this.idBase === seq) {
      const n = Math.floor(seq / ORDER_PAGE);
      let page = this.pages.get(n);
      if (page === undefined) {
        page = this.spare ?? new OrderPage();
        this.spare = undefined;
        this.pages.set(n, page);
      }
      const at = seq % ORDER_PAGE;
      const there = page.orderAt(at);
      if (there === undefined || there.id === id) {
        if (there === undefined) page.live++;
        page.slots[at] = o;
        return this;
      }
    }
    this.others.set(id, o);
    return this;
  }

  /**
   * delete(o.id) for an order that may be in the index, found by its sequence number and identity
   * instead of by its id: the venue drops an account's oldest final order (thousands of orders ago) on
   * every order it finalises once the history is full, and delete(id) reads that order's id string,
   * parses it, and reads the slot's order again to compare ids.
   */
  drop(o: OrderState): void {
    const seq = o.seq;
    if (Number.isSafeInteger(seq) && seq >= 0) {
      const n = Math.floor(seq / ORDER_PAGE);
      const page = this.pages.get(n);
      const at = seq % ORDER_PAGE;
      // set() puts an order in its page's slot only under its own id and sequence number, so the slot
      // holding `o` itself is what delete(o.id) would find and clear.
      if (page !== undefined && page.slots[at] === o) {
        page.slots[at] = undefined;
        if (--page.live === 0) this.retire(n, page);
        return;
      }
    }
    this.delete(o.id);
  }

  /** The page whose slot holds `o` (where set() puts an order of the usual id form), or undefined. */
  pageHolding(o: OrderState): OrderPage | undefined {
    const seq = o.seq;
    if (!Number.isSafeInteger(seq) || seq < 0) return undefined;
    const page = this.pages.get(Math.floor(seq / ORDER_PAGE));
    return page?.slots[seq % ORDER_PAGE] === o ? page : undefined;
  }

  /** Forgets the final order of sequence number `seq` that `history` keeps in columns (as it drops the record). */
  dropFromHistory(seq: number, history: OrderHistory): void {
    const n = Math.floor(seq / ORDER_PAGE);
    const page = this.pages.get(n);
    const at = seq % ORDER_PAGE;
    if (page !== undefined && page.slots[at] === history) {
      page.slots[at] = undefined;
      if (--page.live === 0) this.retire(n, page);
    }
  }

  /** Forgets an emptied page (every slot clear) and keeps it as the spare. */
  private retire(n: number, page: OrderPage): void {
    this.pages.delete(n);
    this.spare = page;
  }

  delete(id: string): boolean {
    const seq = Number(id) - this.idBase;
    if (Number.isSafeInteger(seq) && seq >= 0) {
      const n = Math.floor(seq / ORDER_PAGE);
      const page = this.pages.get(n);
      const at = seq % ORDER_PAGE;
      if (page !== undefined && page.orderAt(at)?.id === id) {
        page.slots[at] = undefined;
        if (--page.live === 0) this.retire(n, page);
        return true;
      }
    }
    return this.others.delete(id);
  }
}

/** The key of ContractOpenOrders' filler entry: no order id is empty. */
const FILLER = '';

/**
 * An account's open orders by id, in placement order: the get / set / has / delete / values / size of
 * the `Map<string, OrderState>` it replaced, over a Map that always holds one filler entry.
 *
 * Why: most accounts hold no open order between commands, and a Map that a delete leaves empty is
 * shrunk — a call into the runtime and a new table — on every such delete (a maker+taker cycle
 * empties both accounts' maps); with the filler it never empties. A snapshot written before this
 * class holds a plain Map here, which answers the same calls the same way, so it still restores; and
 * this class never relies on the filler being there.
 */
/**
 * Forgets an order dropped from an account's history: OrderIndex.drop, or delete by id in the Map a
 * snapshot written before OrderIndex holds in its place.
 */
function dropOrder(orders: OrderIndex, o: OrderState): void {
  if (orders instanceof OrderIndex) orders.drop(o);
  else (orders as Map<string, OrderState>).delete(o.id);
}

/**
 * Records a final order in its account's history, kept to `limit` (the oldest beyond it dropped, and
 * forgotten by the index, as CappedLog.push did), and keeps the index answering its id: the index's slot
 * then points at the history record (OrderIndex.toHistory) and the order itself is no longer kept.
 */
export function recordFinal(orders: OrderIndex, o: OrderState, limit: number): void {
  const h = o.account.history;
  if (h.length + 1 > limit) {
    if (h.length === 0) {
      dropOrder(orders, o);
      return;
    }
    const whole = h.oldestWhole();
    if (whole !== undefined) dropOrder(orders, whole);
    else orders.dropFromHistory(h.oldestSeq(), h);
    h.dropOldest();
  }
  // A snapshot written before OrderIndex holds a Map here: the order stays in it, kept whole.
  const page = orders instanceof OrderIndex ? orders.pageHolding(o) : undefined;
  const position = h.nextPosition;
  if (h.push(o, page !== undefined, limit)) page!.toHistory(o.seq, h, position);
}

export class ContractOpenOrders {
  private readonly map = new Map<string, OrderState | undefined>([[FILLER, undefined]]);
  /**
   * The map holds the filler (it always does once made: nothing deletes it). Kept so values() need not
   * ask the map: a placement walks an account's open orders three times, and those hash lookups were
   * about 6 of a maker+taker cycle's 73 collection lookups. An instance restored from a snapshot
   * written before this field has none, and the map is asked as before.
   */
  private readonly filled: boolean | undefined = true;

  get size(): number {
    return this.map.size - ((this.filled ?? this.map.has(FILLER)) ? 1 : 0);
  }

  get(id: string): OrderState | undefined {
    return this.map.get(id);
  }

  has(id: string): boolean {
    return id !== FILLER && this.map.has(id);
  }

  set(id: string, o: OrderState): this {
    if (id === FILLER) throw new RangeError('an open order needs an id');
    this.map.set(id, o);
    return this;
  }

  delete(id: string): boolean {
    return id !== FILLER && this.map.delete(id);
  }

  /** The open orders in placement order: the map's own iterator past the filler (made first, never deleted). */
  values(): IterableIterator<OrderState> {
    const it = this.map.values();
    if (this.filled ?? this.map.has(FILLER)) it.next();
    return it as IterableIterator<OrderState>;
  }
}

export interface OrderState {
  readonly id: OrderId;
  readonly seq: number;
  readonly account: AccountState;
  readonly market: MarketState;
  readonly side: ContractSide;
  readonly type: ContractOrderType;
  readonly category: OrderCategory;
  openType: OpenType;
  leverage: number;
  readonly positionMode: PositionMode;
  readonly reduceOnly: boolean;
  readonly stpMode: ContractStpMode;
  readonly externalOid: string | undefined;
  readonly isBuy: boolean;
  readonly bookSide: BookSide;
  /** Only reduces a position (hedged close sides; one-way close sides or reduceOnly). */
  readonly closing: boolean;
  /** Price shown in the order record. */
  displayPrice: Decimal;
  /** Limit in ticks; 0 for a market order without a limit. */
  priceTicks: number;
  lots: number;
  dealLots: number;
  /** Tick·lots of the fills (TickLots: a number while a safe integer). */
  dealCost: TickLots;
  /**
   * Order margin frozen for the unfilled part (opening orders resting on the book): frozenUnits ledger
   * units plus frozenGrains counts of frozenGrain units (the rates' grain, margin-units.ts), one of the
   * two zero. Why two forms: the reservation of almost every order is a safe count of grains, booked
   * to the wallet's cells in doubles; frozenOf() gives the whole in units.
   */
  frozenUnits: bigint;
  frozenGrains: number;
  frozenGrain: number;
  /** The position whose frozenLots hold this (closing) order's unfilled lots. */
  reservedPosition: ContractPosition | undefined;
  /**
   * Margin booked by the order's fills (less any shortfall taken back from it); undefined until a fill
   * books some (then a zero amount). Why: a cell of its own on every order was 104 of the ~1,345 bytes a
   * maker+taker cycle keeps in the accounts' history (the cell and its two number boxes, heap snapshot),
   * and history is what the young-generation collector copies: an order that rests and is cancelled, or
   * only closes a position, never books margin. usedMarginOf reads it.
   */
  usedMargin: MoneyCell | undefined;
  /**
   * Fees and realised PnL of the order's fills: these ledger units plus the *Grains counts of
   * moneyGrain units (0: none yet), the form the fill path adds in (orderMoneyOf gives the whole).
   */
  takerFeeUnits: bigint;
  makerFeeUnits: bigint;
  profitUnits: bigint;
  takerFeeGrains: number;
  makerFeeGrains: number;
  profitGrains: number;
  moneyGrain: number;
  state: ContractOrderState;
  errorCode: ContractOrderErrorCode;
  positionId: PositionId | undefined;
  readonly createTime: number;
  updateTime: number;
  cancelReason: CancelReason | undefined;
}

/** The margin an order's fills booked (zero when none did: no cell). */
export function usedMarginOf(o: OrderState): Decimal {
  return o.usedMargin === undefined ? ZERO : o.usedMargin.value;
}

/**
 * The order's used-margin cell, made on its first booking (the fill path, a shortfall taken back). A
 * function of its own: written inline in applyFill, whose inlining budget is spent, the constructor ran
 * through the generic construct stub (~210 instructions a maker+taker cycle in callgrind).
 */
export function usedMarginCell(o: OrderState): MoneyCell {
  return (o.usedMargin ??= new MoneyCell());
}

/** An order's id, state and lots as a placement in ticks answers them (placeOrderTicks, orderTicks): no view built. */
export function placedTicksOf(o: OrderState): PlacedOrderTicks {
  return { orderId: o.id, state: o.state, lots: o.lots, dealLots: o.dealLots, createTime: o.createTime };
}

/** An order's frozen margin in ledger units (both forms). */
export function frozenOf(o: OrderState): bigint {
  // Falsy also for an order restored from a snapshot written before the grain fields (they are absent).
  return !o.frozenGrains ? o.frozenUnits : o.frozenUnits + BigInt(o.frozenGrains) * BigInt(o.frozenGrain);
}

/**
 * Adds fee and profit counts of `grain` units to an order's totals (fill path): folds the counts kept so
 * far into units first when they are of another grain, or when a sum would pass ±2^52 (then exact in bigints).
 */
export function addOrderGrains(o: OrderState, takerFee: number, makerFee: number, profit: number, grain: number): void {
  if (o.moneyGrain !== grain) {
    foldOrderGrains(o);
    o.moneyGrain = grain;
  }
  const t = o.takerFeeGrains + takerFee;
  const m = o.makerFeeGrains + makerFee;
  const p = o.profitGrains + profit;
  if (Math.abs(t) > ORDER_FAST || Math.abs(m) > ORDER_FAST || Math.abs(p) > ORDER_FAST) {
    foldOrderGrains(o);
    o.takerFeeUnits += BigInt(takerFee) * BigInt(grain);
    o.makerFeeUnits += BigInt(makerFee) * BigInt(grain);
    o.profitUnits += BigInt(profit) * BigInt(grain);
    return;
  }
  o.takerFeeGrains = t;
  o.makerFeeGrains = m;
  o.profitGrains = p;
}

/** Counts at most this large are summed in doubles (two of them stay within 2^53). */
const ORDER_FAST = 2 ** 52;

function foldOrderGrains(o: OrderState): void {
  // Truth tests: the fields are absent on an order restored from a snapshot written before them.
  const g = o.moneyGrain;
  if (o.takerFeeGrains) o.takerFeeUnits += BigInt(o.takerFeeGrains) * BigInt(g);
  if (o.makerFeeGrains) o.makerFeeUnits += BigInt(o.makerFeeGrains) * BigInt(g);
  if (o.profitGrains) o.profitUnits += BigInt(o.profitGrains) * BigInt(g);
  o.takerFeeGrains = o.makerFeeGrains = o.profitGrains = 0;
}

export interface FillRecord {
  readonly tradeId: TradeId;
  readonly orderId: OrderId;
  readonly symbol: string;
  readonly side: ContractSide;
  readonly priceTicks: number;
  readonly lots: number;
  readonly taker: boolean;
  /** Ledger units: feeUnits + feeGrains · grain, profitUnits + profitGrains · grain (see OrderState). */
  readonly feeUnits: bigint;
  readonly profitUnits: bigint;
  readonly feeGrains: number;
  readonly profitGrains: number;
  readonly grain: number;
  readonly closeLots: number;
  readonly openLots: number;
  readonly positionIds: readonly PositionId[];
  readonly time: number;
}

export interface SideSettings {
  leverage: number | undefined;
  openType: OpenType | undefined;
}

export class AccountState {
  positionMode: PositionMode;
  readonly wallets = new Map<string, Wallet>();
  /** Open positions keyed `${symbol}:${positionType}`. */
  readonly positions = new Map<string, ContractPosition>();
  /** Open orders by id, in placement order. */
  readonly openOrders = new ContractOpenOrders();
  /** Open orders by `${symbol}\u0000${externalOid}`. */
  readonly openByExternal = new Map<string, OrderState>();
  /** Final orders, oldest first. */
  readonly history: OrderHistory = new OrderHistory(this);
  readonly historyPositions = new CappedLog<ContractPosition>();
  readonly fills: FillLog = new FillLog();
  readonly fundingRecords: FundingRecordView[] = [];
  readonly transfers: TransferRecordView[] = [];
  /** Leverage / open type per side key (hedged `${symbol}:${type}`, one-way `${symbol}:*`). */
  readonly settings = new Map<string, SideSettings>();
  /** Σ deposits − withdrawals per currency (the conservation identity's right-hand side). */
  readonly netDeposits = new Map<string, Decimal>();

  constructor(
    readonly id: AccountId,
    positionMode: PositionMode,
    /** The insurance fund: no margin, never liquidated, may go negative. */
    readonly exempt: boolean,
  ) {
    this.positionMode = positionMode;
  }

  /**
   * Called by the emulator's snapshot restore: a snapshot written before OrderHistory and FillLog holds
   * CappedLogs of the final orders and the fills here; the orders are kept whole in a history made of
   * them (the order index holds them too), the fills go into rows as they are pushed.
   */
  reviveAfterSnapshot(): void {
    const h = this.history as OrderHistory | CappedLog<OrderState>;
    if (!(h instanceof OrderHistory)) {
      const history = new OrderHistory(this);
      for (const o of h) history.push(o, false, Infinity);
      (this as { history: OrderHistory }).history = history;
    }
    const f = this.fills as FillLog | CappedLog<FillRecord>;
    if (!(f instanceof FillLog)) {
      const fills = new FillLog();
      for (const x of f) fills.push(x, Infinity);
      (this as { fills: FillLog }).fills = fills;
    }
  }

  wallet(currency: string): Wallet {
    let w = this.wallets.get(currency);
    if (w === undefined) {
      w = new Wallet(currency);
      this.wallets.set(currency, w);
    }
    return w;
  }
}

export interface MarketState {
  readonly spec: ContractSpec;
  readonly book: OrderBook<OrderState>;
  fairPrice: Decimal | undefined;
  indexPrice: Decimal | undefined;
  lastTicks: number | undefined;
  /** lastTicks as a price (kept with it: the mark falls back to it when no fair price is set). */
  lastPrice: Decimal | undefined;
  fundingRate: Decimal;
  maxFundingRate: Decimal;
  minFundingRate: Decimal;
  readonly fundingIntervalMs: number;
  readonly collectCycleHours: number;
  nextFundingAt: number;
  fundingTimer: TimerHandle | undefined;
  readonly fundingHistory: FundingHistoryView[];
  /** Accounts holding a position in this market (insertion order = deterministic iteration). */
  readonly holders: Set<AccountState>;
  /** Bumped on every book change (depth `version`). */
  version: number;
}
