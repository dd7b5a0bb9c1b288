/**
 * Frozen copy (issue 12) of src/venue/spot/spot-venue.ts as it was before its place() / settle() split:
 * the reference model of test/venue/spot/spot-venue-differential.test.ts. Imported only by tests, with
 * its own copy of the event queue it used (below), so changing the venue or the shared queue cannot
 * change the model. Do not edit it to follow the venue.
 *
 * The spot venue engine: pure, synchronous, clock-driven (no I/O, no timers). The emulator's HTTP
 * server and the backtest's SimulatedGateway both drive one of these; the market model places its
 * liquidity through it like any other account.
 *
 * Commands (each runs to completion, then its events are delivered):
 *   placeOrder(req)              Decimal edge: checks tick/step/amount scale, converts, places
 *   placeOrderUnits(req)         integer edge (ticks, lots, ledger units): the fast path
 *   testOrder(req)               every check of placeOrder, nothing changes (POST /api/v3/order/test)
 *   cancelOrder / cancelAllOrders
 *   deposit / withdraw           paper accounts
 *   setAccountFees, setFeePayer, setReferencePrice, addInstrument
 * Queries: getOrder, openOrders, allOrders, myTrades, balances, depth, book, lastPrice, orderView,
 * ownTradeView. Rejections are returned as `{ ok: false, code, msg }` values (spot-rejections.ts).
 * Listening: subscribe (every change as a Decimal event) or subscribeTrades (the tape only: one
 * integer SpotTradeTick per fill, no Decimal work at all).
 *
 * Money: balances and quote amounts are bigint ledger units (ledger-units.ts, 10^-18); prices and
 * quantities are integer ticks and lots of the symbol (spot-market.ts).
 *
 * Hot path: a command works in plain numbers — lots, tick-lots (price·lots), fee steps — because every
 * amount it moves is a whole number of those. Orders and own trades keep those counts and show bigint
 * units when read (spot-order.ts); the ledger moves them as grains (ledger.ts, `lockGrains` …). Any
 * amount a number cannot hold exactly (past 2^53, a quoteOrderQty, a fee that needs rounding, a fee
 * paid in another asset) takes the bigint path instead, with the same result; `fastLedger: false`
 * forces that path everywhere (differential tests). A taker without STP or quote budget is matched
 * with OrderBook.sweep, which hands each fill over as it happens instead of collecting them.
 *
 * Reservations: a buy locks price·qty of quote (a MARKET buy: its quoteOrderQty, or the exact cost of
 * the liquidity it will take), a sell locks its quantity of base (a MARKET sell by amount: the lots it
 * will sell). Fees are taken from what each side receives, so they need no reservation. A buy filled
 * below its limit gets the difference back at each fill; whatever a finished order still holds is
 * released, so an open order always holds exactly price·remaining (buy) or remaining (sell).
 */
import type { Clock } from '../../src/core/clock.js';
import { D, type Decimal, type DecimalLike } from '../../src/core/decimal.js';
import type { SpotInstrument } from '../../src/domain/instrument.js';
import type { SpotStpMode } from '../../src/domain/spot-enums.js';
import { SPOT_CANCEL_REASON_STP } from '../../src/domain/spot-enums.js';
import { StpAction, type BookOrder, type FillSink, type OrderBookView, type SelfTradeCheck } from '../../src/venue/book/order-book.js';
import { feeOn, feeRate, type FeeRate } from '../../src/venue/ledger/fee-rate.js';
import {
  Ledger,
  MAX_GRAINS,
  type BalanceUnits,
  type BalanceView,
  type GrainSettlement,
  type LedgerAccount,
} from '../../src/venue/ledger/ledger.js';
import { amountToUnits, unitsToDecimal } from '../../src/venue/ledger/ledger-units.js';
import { CounterIds } from '../../src/venue/spot/counter-ids.js';
import {
  admissionTable,
  typeBit,
  checkAmount,
  checkMinLots,
  checkOpenOrderCap,
  checkOrderType,
  checkPercentPrice,
  checkSideAllowed,
  checkStpMode,
  checkSymbolTradable,
} from '../../src/venue/spot/spot-filters.js';
import { ListenerFailures } from '../../src/venue/listener-failures.js';
import {
  type SpotTradeListener,
  type SpotTradeTick,
  type SpotVenueEvent,
  type SpotVenueListener,
} from '../../src/venue/spot/spot-events.js';
import { clampLimit, takeLatest } from '../../src/venue/spot/spot-history.js';
import { OpenOrders } from '../../src/venue/spot/open-orders.js';
import { OwnTradeLog } from '../../src/venue/spot/own-trade-log.js';
import { exactBuyCost, exactBuyTickLots, quoteBudgetSpent } from '../../src/venue/spot/spot-liquidity.js';
import {
  compileSpotMarket,
  feeSteps,
  priceOf,
  qtyOf,
  quoteOf,
  quoteUnitsOf,
  type FeeSteps,
  type SpotMarket,
} from '../../src/venue/spot/spot-market.js';
import {
  endedStatus,
  isOpenStatus,
  orderView,
  ownTradeView,
  SpotOrder,
  type SpotCancelReason,
  type SpotOrderRecord,
  type SpotOrderView,
  type SpotOwnTradeRecord,
  type SpotOwnTradeView,
} from '../../src/venue/spot/spot-order.js';
import { REJECT, type SpotRejection } from '../../src/venue/spot/spot-rejections.js';
import {
  isPositiveInt,
  parsePositive,
  toUnitsRequest,
  type AccountFeeRates,
  type SpotCheckResult,
  type SpotHistoryQuery,
  type SpotOrderRef,
  type SpotOrderRequest,
  type SpotPlaceResult,
  type SpotPlaceViewResult,
  type SpotTradeQuery,
  type SpotUnitsOrderRequest,
} from '../../src/venue/spot/spot-requests.js';
import { StpGroups, stpActionOf, type SameStpGroup } from '../../src/venue/spot/stp-groups.js';
import { checkSpotVenueInvariants } from '../../src/venue/spot/spot-invariants.js';
import { SeqStore } from '../../src/venue/spot/seq-store.js';

export type {
  AccountFeeRates,
  SpotCheckResult,
  SpotHistoryQuery,
  SpotOrderRef,
  SpotOrderRequest,
  SpotPlaceResult,
  SpotPlaceViewResult,
  SpotTradeQuery,
  SpotUnitsOrderRequest,
} from '../../src/venue/spot/spot-requests.js';

const DAY_MS = 86_400_000;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export interface SpotVenueOptions {
  readonly clock: Clock;
  readonly instruments?: readonly SpotInstrument[];
  /** Share a ledger with another venue (e.g. the contract venue's wallet); default: a new one. */
  readonly ledger?: Ledger;
  /** Who shares an STP group; default: `stpGroups.sameGroup`. */
  readonly sameStpGroup?: SameStpGroup;
  /** Membership used by the default predicate; default: a new, empty StpGroups. */
  readonly stpGroups?: StpGroups;
  /** Open orders per account (wire-protocol.md: 500). */
  readonly maxOpenOrdersPerAccount?: number;
  readonly orderIdPrefix?: string;
  readonly firstOrderId?: number;
  readonly tradeIdPrefix?: string;
  readonly firstTradeId?: number;
  /** Closed orders older than this are forgotten (spot-api.md: 7 days of order history). */
  readonly orderRetentionMs?: number;
  /** Own trades older than this are forgotten (spot-api.md: 1 month of myTrades). */
  readonly tradeRetentionMs?: number;
  /** Run the retention sweep every this many commands (0: only when pruneHistory() is called). */
  readonly pruneEveryCommands?: number;
  /**
   * Both retention windows for one account, when they differ from the above (the emulator's crowd,
   * whose history no one can read, keeps none so the venue's state does not grow with simulated time).
   */
  readonly retentionMsOf?: (accountId: string) => number | undefined;
  /** Pays fees some other way than in kind (platform-token deduction); default: always in kind. */
  readonly feePayer?: SpotFeePayer;
  /**
   * @internal false: the reference path — every ledger amount in bigint units, every taker matched
   * with OrderBook.match (results collected, then settled). Differential tests compare it with the
   * default fast path (ledger grains, OrderBook.sweep).
   */
  readonly fastLedger?: boolean;
}

/**
 * Decides, per side of each fill, whether the fee is paid in another asset instead of being taken from
 * what the side receives. The venue then takes `units` of `asset` from the account's FREE balance as
 * the fee; when that balance is short it falls back to the fee in kind. It is asked in the middle of a
 * command (between fills): it may read the venue (prices) but must not call its commands.
 */
export interface SpotFeePayer {
  alternative(
    accountId: string,
    symbol: string,
    feeAsset: string,
    feeUnits: bigint,
    ledgerScale: number,
  ): { readonly asset: string; readonly units: bigint } | undefined;
}

interface FeeOverride {
  maker?: FeeRate;
  taker?: FeeRate;
}

/** @internal per-account indexes; exported for the invariant checker only. */
export interface SpotAccountState {
  readonly id: string;
  /** Open orders in placement order. */
  readonly open: OpenOrders<SpotOrder>;
  readonly openByClientId: Map<string, SpotOrder>;
  readonly byClientId: Map<string, SpotOrder>;
  readonly history: Map<string, SpotOrder[]>;
  /** The venue's fields (its orders carry the venue's account type); never filled here. */
  closed: SpotOrder[];
  closedUnsorted: boolean;
  readonly trades: Map<string, OwnTradeLog>;
  fees: FeeOverride | undefined;
  feesBySymbol: Map<string, FeeOverride> | undefined;
  /** The account in the ledger (fast-path handle). */
  readonly ledger: LedgerAccount;
  /** The history and trade lists of the symbol used last (one lookup saved per command; reset by pruneHistory). */
  histSymbol: string | undefined;
  hist: SpotOrder[] | undefined;
  tradesSymbol: string | undefined;
  tradeList: OwnTradeLog | undefined;
}

export class ReferenceSpotVenue {
  readonly ledger: Ledger;
  readonly stpGroups: StpGroups;
  private readonly clock: Clock;
  private readonly markets = new Map<string, SpotMarket>();
  private readonly orders = new SeqStore<SpotOrder>();
  private readonly accounts = new Map<string, SpotAccountState>();
  private readonly sameStpGroup: SameStpGroup;
  private feePayer: SpotFeePayer | undefined;
  private readonly maxOpen: number;
  private readonly orderIds: CounterIds;
  private readonly tradeIds: CounterIds;
  private readonly orderRetentionMs: number;
  private readonly tradeRetentionMs: number;
  private readonly pruneEvery: number;
  private readonly retentionMsOf: ((accountId: string) => number | undefined) | undefined;
  private commands = 0;
  private acceptedCount = 0;
  private rejectedCount = 0;
  private tradeCount = 0;
  private readonly events = new EventQueue<SpotVenueEvent>();
  private readonly ticks = new EventQueue<SpotTradeTick>();
  private readonly dirtyBalances = new Map<string, [string, string]>();
  private now = 0;
  private readonly fastLedger: boolean;
  /** Fee steps of per-account rates, per symbol (instrument rates live on the market). */
  private readonly overrideSteps = new WeakMap<FeeRate, Map<string, FeeSteps>>();
  /** One settlement record reused by every fast fill. */
  private readonly grainFill: GrainSettlement;
  /** Settles the fills of one taker as OrderBook.sweep hands them over. */
  private readonly sweep = new TakerSweep((m, taker, maker, price, lots, done, now) =>
    this.settle(m, taker, maker, price, lots, done, now),
  );
  /** The market used last (one map lookup saved per command on single-symbol traffic). */
  private lastMarket: SpotMarket | undefined;

  constructor(opts: SpotVenueOptions) {
    this.clock = opts.clock;
    this.ledger = opts.ledger ?? new Ledger();
    this.stpGroups = opts.stpGroups ?? new StpGroups();
    this.sameStpGroup = opts.sameStpGroup ?? this.stpGroups.sameGroup;
    this.feePayer = opts.feePayer;
    this.maxOpen = opts.maxOpenOrdersPerAccount ?? 500;
    this.orderIds = new CounterIds(opts.orderIdPrefix ?? '', opts.firstOrderId ?? 1);
    this.tradeIds = new CounterIds(opts.tradeIdPrefix ?? '', opts.firstTradeId ?? 1);
    this.orderRetentionMs = opts.orderRetentionMs ?? 7 * DAY_MS;
    this.tradeRetentionMs = opts.tradeRetentionMs ?? 30 * DAY_MS;
    this.pruneEvery = opts.pruneEveryCommands ?? 100_000;
    this.retentionMsOf = opts.retentionMsOf;
    this.fastLedger = opts.fastLedger ?? true;
    // Placeholder handles until the first fast fill fills them in (not an account of the ledger).
    const none: LedgerAccount = { id: '', slots: new Map() };
    this.grainFill = {
      buyer: none,
      seller: none,
      baseAsset: '',
      quoteAsset: '',
      base: 0,
      quote: 0,
      buyerLockedQuote: 0,
      buyerFee: 0,
      sellerFee: 0,
    };
    this.ledger.setListener((accountId, asset) => {
      if (this.events.active) this.dirtyBalances.set(`${accountId}\u0000${asset}`, [accountId, asset]);
    });
    for (const i of opts.instruments ?? []) this.addInstrument(i);
  }

  // ---------------------------------------------------------------- configuration

  /**
   * Adds a symbol, or replaces the rules of one (status, filters, fees…) keeping its book, last price
   * and orders. Tick and step cannot change: every stored order and trade is counted in them.
   */
  addInstrument(instrument: SpotInstrument): void {
    const old = this.markets.get(instrument.symbol);
    if (old && (!D(old.instrument.tick).eq(instrument.tick) || !D(old.instrument.step).eq(instrument.step))) {
      throw new RangeError(`${instrument.symbol}: tick and step cannot change on a running venue`);
    }
    const compiled = compileSpotMarket(instrument, this.ledger.scale);
    compiled.admits = admissionTable(compiled);
    this.lastMarket = undefined;
    if (this.fastLedger) {
      compiled.baseMeasure = this.ledger.measure(compiled.baseAsset, compiled.baseUnitsPerLot);
      compiled.quoteMeasure = this.ledger.measure(compiled.quoteAsset, compiled.quoteUnitsPerTickLot);
      this.measureFees(compiled, compiled.makerSteps);
      this.measureFees(compiled, compiled.takerSteps);
    }
    if (old) {
      this.markets.set(instrument.symbol, { ...compiled, book: old.book, lastPriceTicks: old.lastPriceTicks });
      return;
    }
    this.markets.set(instrument.symbol, compiled);
  }

  instrument(symbol: string): SpotInstrument | undefined {
    return this.markets.get(symbol)?.instrument;
  }

  symbols(): string[] {
    return [...this.markets.keys()];
  }

  /** @internal compiled rules; for the invariant checker, benches and tests. */
  market(symbol: string): SpotMarket | undefined {
    return this.markets.get(symbol);
  }

  /** Per-account commission rates, for every symbol or for one; unset fields keep the instrument's. */
  setAccountFees(accountId: string, rates: AccountFeeRates, symbol?: string): void {
    const acct = this.account(accountId);
    const o: FeeOverride = {};
    if (rates.maker !== undefined) o.maker = feeRate(rates.maker);
    if (rates.taker !== undefined) o.taker = feeRate(rates.taker);
    if (symbol === undefined) acct.fees = o;
    else (acct.feesBySymbol ??= new Map()).set(symbol, o);
  }

  /** Installs (or removes) the fee payer after construction (the emulator wires it once its accounts are known). */
  setFeePayer(payer: SpotFeePayer | undefined): void {
    this.feePayer = payer;
  }

  /** Effective rates of an account on a symbol. */
  feeRates(accountId: string, symbol: string): { maker: Decimal; taker: Decimal } | undefined {
    const m = this.markets.get(symbol);
    if (!m) return undefined;
    const acct = this.accounts.get(accountId);
    return { maker: this.steps(acct, m, true).rate.rate, taker: this.steps(acct, m, false).rate.rate };
  }

  /**
   * Sets the price PERCENT_PRICE_BY_SIDE compares against until the next trade here (a market model or
   * a replay feeding the real last price). Rounded to the nearest tick.
   */
  setReferencePrice(symbol: string, price: DecimalLike): void {
    const m = this.markets.get(symbol);
    if (!m) throw new RangeError(`unknown symbol ${symbol}`);
    m.lastPriceTicks = D(price).div(m.instrument.tick).toDecimalPlaces(0, 4).toNumber();
  }

  lastPrice(symbol: string): Decimal | undefined {
    const m = this.markets.get(symbol);
    return m?.lastPriceTicks === undefined ? undefined : priceOf(m, m.lastPriceTicks);
  }

  /** Running totals since construction (benches, the emulator's status page). */
  stats(): { readonly ordersAccepted: number; readonly ordersRejected: number; readonly trades: number } {
    return { ordersAccepted: this.acceptedCount, ordersRejected: this.rejectedCount, trades: this.tradeCount };
  }

  subscribe(listener: SpotVenueListener): () => void {
    return this.events.subscribe(listener);
  }

  /**
   * The tape only: one SpotTradeTick per fill (ticks, lots, ids, sides, time — numbers and strings, no
   * Decimal), delivered like subscribe()'s events: after the command has finished, in fill order, and
   * before that command's other events. A venue with only trade subscribers builds no Decimal events,
   * so a tape costs one small object per fill.
   */
  subscribeTrades(listener: SpotTradeListener): () => void {
    return this.ticks.subscribe(listener);
  }

  // ---------------------------------------------------------------- funds

  deposit(accountId: string, asset: string, amount: DecimalLike): SpotCheckResult {
    const units = this.amountUnits(amount);
    if (typeof units !== 'bigint') return units;
    this.now = this.clock.now();
    this.account(accountId);
    this.ledger.deposit(accountId, asset, units);
    this.finish();
    return OK;
  }

  withdraw(accountId: string, asset: string, amount: DecimalLike): SpotCheckResult {
    const units = this.amountUnits(amount);
    if (typeof units !== 'bigint') return units;
    this.now = this.clock.now();
    if (!this.ledger.withdraw(accountId, asset, units)) return REJECT.insufficientBalance();
    this.finish();
    return OK;
  }

  balances(accountId: string, includeZero = false): BalanceView[] {
    return this.ledger.balances(accountId, includeZero);
  }

  balance(accountId: string, asset: string): { free: Decimal; locked: Decimal } {
    const b = this.ledger.balance(accountId, asset);
    return { free: unitsToDecimal(b.free, this.ledger.scale), locked: unitsToDecimal(b.locked, this.ledger.scale) };
  }

  // ---------------------------------------------------------------- orders

  placeOrder(req: SpotOrderRequest): SpotPlaceViewResult {
    const units = toUnitsRequest(this.markets.get(req.symbol), req, this.ledger.scale);
    if (!units.ok) {
      this.rejectedCount++;
      return units;
    }
    const r = this.placeOrderUnits(units.req);
    if (!r.ok) return r;
    return { ok: true, order: this.orderView(r.order) };
  }

  /** Every check placeOrder makes except funds (the order never reserves anything). */
  testOrder(req: SpotOrderRequest): SpotCheckResult {
    const units = toUnitsRequest(this.markets.get(req.symbol), req, this.ledger.scale);
    if (!units.ok) return units;
    const r = this.place(units.req, true);
    return r.ok ? OK : r;
  }

  placeOrderUnits(req: SpotUnitsOrderRequest): SpotPlaceResult {
    const r = this.place(req, false);
    if (r.ok) {
      this.acceptedCount++;
      this.finish();
    } else {
      this.rejectedCount++;
    }
    return r;
  }

  cancelOrder(accountId: string, symbol: string, ref: SpotOrderRef): SpotPlaceResult {
    const m = this.marketOf(symbol);
    if (!m) return REJECT.invalidSymbol();
    if (ref.orderId === undefined && ref.clientOrderId === undefined) return REJECT.orderRef();
    let order: SpotOrder | undefined;
    if (ref.orderId !== undefined) {
      // The order index answers by seq; "open and this account's" is what the account's open list holds.
      const o = this.orders.get(this.orderIds.parse(ref.orderId) ?? -1);
      if (o !== undefined && o.accountId === accountId && o.openList !== null) order = o;
    } else {
      order = this.accounts.get(accountId)?.openByClientId.get(ref.clientOrderId!);
    }
    if (!order || order.symbol !== symbol) return REJECT.unknownOrder();
    this.now = this.clock.now();
    m.book.remove(order.bookOrder!);
    this.end(m, order, '');
    this.finish();
    return { ok: true, order };
  }

  /** Cancels every open order of the account on the symbol; answers them (possibly none). */
  cancelAllOrders(accountId: string, symbol: string): { readonly ok: true; readonly orders: SpotOrderRecord[] } | SpotRejection {
    const m = this.markets.get(symbol);
    if (!m) return REJECT.invalidSymbol();
    const acct = this.accounts.get(accountId);
    const out: SpotOrderRecord[] = [];
    if (!acct) return { ok: true, orders: out };
    this.now = this.clock.now();
    for (const order of [...acct.open.values()]) {
      if (order.symbol !== symbol) continue;
      m.book.remove(order.bookOrder!);
      this.end(m, order, '');
      out.push(order);
    }
    this.finish();
    return { ok: true, orders: out };
  }

  getOrder(accountId: string, symbol: string, ref: SpotOrderRef): SpotPlaceResult {
    if (!this.markets.has(symbol)) return REJECT.invalidSymbol();
    if (ref.orderId === undefined && ref.clientOrderId === undefined) return REJECT.orderRef();
    const acct = this.accounts.get(accountId);
    let order: SpotOrder | undefined;
    if (ref.orderId !== undefined) {
      order = this.orders.get(this.orderIds.parse(ref.orderId) ?? -1);
      if (order && order.accountId !== accountId) order = undefined;
    } else if (acct) {
      order = acct.openByClientId.get(ref.clientOrderId!) ?? acct.byClientId.get(ref.clientOrderId!);
    }
    if (!order || order.symbol !== symbol) return REJECT.noSuchOrder();
    return { ok: true, order };
  }

  /** Open orders, oldest first; all symbols when `symbol` is omitted. */
  openOrders(accountId: string, symbol?: string): SpotOrderRecord[] {
    const acct = this.accounts.get(accountId);
    if (!acct) return [];
    const out: SpotOrderRecord[] = [];
    for (const o of acct.open.values()) if (symbol === undefined || o.symbol === symbol) out.push(o);
    return out;
  }

  /**
   * Orders of one symbol created in [startTime, endTime] (default: the last 24 hours), the most recent
   * `limit` (default 500, at most 1000), oldest first.
   */
  allOrders(accountId: string, symbol: string, q: SpotHistoryQuery = {}): SpotOrderRecord[] {
    const list = this.accounts.get(accountId)?.history.get(symbol) ?? [];
    const now = this.clock.now();
    const start = q.startTime ?? (q.endTime === undefined ? now - DAY_MS : -Infinity);
    const end = q.endTime ?? Infinity;
    const limit = clampLimit(q.limit, 500, 1000);
    return takeLatest(list, (o) => o.time >= start && o.time <= end, limit);
  }

  /** Own trades of one symbol, oldest first, the most recent `limit` (default 100, at most 100). */
  myTrades(accountId: string, symbol: string, q: SpotTradeQuery = {}): SpotOwnTradeRecord[] {
    const log = this.accounts.get(accountId)?.trades.get(symbol);
    if (!log) return [];
    const start = q.startTime ?? -Infinity;
    const end = q.endTime ?? Infinity;
    const limit = clampLimit(q.limit, 100, 100);
    const out: SpotOwnTradeRecord[] = [];
    for (let i = log.size - 1; i >= 0 && out.length < limit; i--) {
      const t = log.time(i);
      if (t >= start && t <= end && (q.orderId === undefined || log.orderOf(i).orderId === q.orderId)) out.push(log.at(i));
    }
    return out.reverse();
  }

  /**
   * The account's side(s) of one trade (two for a self-trade), found from the newest back: for a
   * trade-tick listener (subscribeTrades) that needs the commission, right after the tick.
   */
  ownTradesOf(accountId: string, symbol: string, tradeId: string): SpotOwnTradeRecord[] {
    const log = this.accounts.get(accountId)?.trades.get(symbol);
    const out: SpotOwnTradeRecord[] = [];
    if (!log) return out;
    // A command's fills are the newest entries, and a tick is delivered when its command ends.
    for (let i = log.size - 1; i >= 0; i--) {
      const t = log.at(i);
      if (t.tradeId === tradeId) out.push(t);
      else if (out.length > 0) break;
    }
    return out.reverse();
  }

  orderView(order: SpotOrderRecord): SpotOrderView {
    return orderView(this.markets.get(order.symbol)!, order, this.ledger.scale);
  }

  ownTradeView(trade: SpotOwnTradeRecord): SpotOwnTradeView {
    return ownTradeView(this.markets.get(trade.symbol)!, trade, this.ledger.scale);
  }

  /** Read-only book of a symbol (integer units). */
  book(symbol: string): OrderBookView<SpotOrder, number> | undefined {
    return this.markets.get(symbol)?.book;
  }

  /** Aggregated depth in Decimals, best first. */
  depth(symbol: string, limit: number): { bids: [Decimal, Decimal][]; asks: [Decimal, Decimal][] } | undefined {
    const m = this.markets.get(symbol);
    if (!m) return undefined;
    const conv = (l: [number, number, number]): [Decimal, Decimal] => [priceOf(m, l[0]), qtyOf(m, l[1])];
    return { bids: m.book.depth('BUY', limit).map(conv), asks: m.book.depth('SELL', limit).map(conv) };
  }

  /** Drops closed orders and own trades older than the retention windows. */
  pruneHistory(): void {
    const now = this.clock.now();
    for (const acct of this.accounts.values()) {
      const own = this.retentionMsOf?.(acct.id);
      const orderCut = now - (own ?? this.orderRetentionMs);
      const tradeCut = now - (own ?? this.tradeRetentionMs);
      acct.histSymbol = acct.tradesSymbol = undefined;
      acct.hist = acct.tradeList = undefined;
      for (const [symbol, list] of acct.history) {
        const keep = list.filter((o) => isOpenStatus(o.status) || o.updateTime >= orderCut);
        if (keep.length === list.length) continue;
        for (const o of list) {
          if (isOpenStatus(o.status) || o.updateTime >= orderCut) continue;
          this.orders.delete(o.seq);
          if (o.clientOrderId !== undefined && acct.byClientId.get(o.clientOrderId) === o) acct.byClientId.delete(o.clientOrderId);
        }
        acct.history.set(symbol, keep);
      }
      for (const log of acct.trades.values()) if (log.size && log.time(0) < tradeCut) log.dropBefore(tradeCut);
    }
    this.orders.compact();
  }

  /** Every consistency rule across books, ledger and orders; empty when all hold. */
  checkInvariants(): string[] {
    return checkSpotVenueInvariants({
      markets: this.markets,
      accounts: this.accounts,
      orders: this.orders,
      ledger: this.ledger,
      maxOpenOrdersPerAccount: this.maxOpen,
    });
  }

  // ---------------------------------------------------------------- internals

  private place(req: SpotUnitsOrderRequest, dryRun: boolean): SpotPlaceResult {
    const m = this.marketOf(req.symbol);
    if (!m) return REJECT.invalidSymbol();
    const side = req.side;
    const type = req.type;
    const stpMode: SpotStpMode = req.stpMode ?? '';
    let r: SpotRejection | undefined;
    // The symbol / side / type rules depend on the instrument only: answered once per rules (admits).
    const admitted = side === 'BUY' ? m.admits?.buy : side === 'SELL' ? m.admits?.sell : undefined;
    if (admitted === undefined || (admitted & typeBit(type)) === 0)
      r = checkSymbolTradable(m) ?? checkSideAllowed(m, side) ?? checkOrderType(m, type);
    if (!r && stpMode !== '') r = checkStpMode(stpMode);
    if (r) return r;

    // ---- shape
    const isMarket = type === 'MARKET';
    let priceTicks = 0;
    let lots = 0;
    let quoteUnits = 0n;
    let byQuote = false;
    if (!isMarket) {
      if (req.priceTicks === undefined || !isPositiveInt(req.priceTicks)) return REJECT.mandatory('price');
      if (req.lots === undefined || !isPositiveInt(req.lots)) return REJECT.mandatory('quantity');
      if (req.quoteUnits !== undefined) return REJECT.combination();
      priceTicks = req.priceTicks;
      lots = req.lots;
    } else {
      const hasQty = req.lots !== undefined;
      const hasQuote = req.quoteUnits !== undefined;
      if (hasQty && hasQuote) return REJECT.combination();
      if (hasQty) {
        if (!isPositiveInt(req.lots!)) return REJECT.mandatory('quantity');
        lots = req.lots!;
      } else if (hasQuote) {
        if (req.quoteUnits! <= 0n) return REJECT.mandatory('quoteOrderQty');
        quoteUnits = req.quoteUnits!;
        byQuote = true;
      } else {
        return REJECT.mandatory('quantity');
      }
    }

    // ---- size, amount, price band
    const book = m.book;
    const scale = this.ledger.scale;
    // price · qty of a priced order in tick-lots: checked, reserved (buys) and reported as
    // origQuoteOrderQty; NaN past 2^53, where `notional` holds it in units instead.
    let tickLots = isMarket ? 0 : priceTicks * lots;
    let notional: bigint | undefined;
    if (tickLots > MAX_SAFE) {
      tickLots = NaN;
      notional = quoteUnitsOf(m, priceTicks, lots);
    }
    if (!byQuote) r = checkMinLots(m, lots);
    if (!r) {
      // In tick-lots the limits are exact integer bounds (spot-market.ts); the bigint check only words a rejection.
      if (!isMarket) {
        if (!(tickLots >= m.minTickLots && tickLots <= m.maxTickLots))
          r = checkAmount(notional ?? quoteUnitsOf(m, priceTicks, lots), m.minQuoteUnits, m.maxQuoteUnits, scale);
      } else if (byQuote) r = checkAmount(quoteUnits, m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, scale);
      else {
        const ref = (side === 'BUY' ? book.bestAsk() : book.bestBid()) ?? m.lastPriceTicks;
        if (ref !== undefined) {
          const refTickLots = ref * lots;
          if (!(refTickLots <= MAX_SAFE && refTickLots >= m.minTickLotsMarket && refTickLots <= m.maxTickLotsMarket)) {
            r = checkAmount(quoteUnitsOf(m, ref, lots), m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, scale);
          }
        }
      }
    }
    if (!r && !isMarket) r = checkPercentPrice(m, side, type, priceTicks);
    if (r) return r;
    if (type === 'LIMIT_MAKER' && book.wouldCross(side, priceTicks)) return REJECT.wouldTake();

    // ---- account rules
    const accountId = req.accountId;
    const acct = this.account(accountId);
    const clientOrderId = req.clientOrderId;
    if (clientOrderId !== undefined && acct.openByClientId.has(clientOrderId)) return REJECT.duplicateClientId();
    const rests = type === 'LIMIT' || type === 'LIMIT_MAKER';
    if (rests) {
      r = checkOpenOrderCap(acct.open.size, this.maxOpen);
      if (r) return r;
    }
    if (dryRun) return { ok: true, order: DRY_RUN_ORDER };

    // ---- funds: what the order reserves, in counts of its side (tick-lots of quote for a buy, lots of
    // base for a sell), or in units when no count expresses it (quoteOrderQty, past 2^53)
    const stpCheck = stpMode === '' ? undefined : this.stpCheckFor(accountId, stpMode);
    const isBuy = side === 'BUY';
    let lockCount = 0;
    let lockUnits: bigint | undefined;
    let sellQuoteLots = 0;
    if (isBuy) {
      if (!isMarket) {
        if (notional === undefined) lockCount = tickLots;
        else lockUnits = notional;
      } else if (byQuote) lockUnits = quoteUnits;
      else {
        lockCount = exactBuyTickLots(m, lots, stpCheck);
        if (!(lockCount <= MAX_SAFE)) {
          lockCount = 0;
          lockUnits = exactBuyCost(m, lots, stpCheck);
        }
      }
    } else if (byQuote) {
      sellQuoteLots = book.previewMatch('SELL', { lots: Infinity, quoteBudget: quoteUnits / m.quoteUnitsPerTickLot }, stpCheck).lots;
      lockCount = sellQuoteLots;
    } else {
      lockCount = lots;
    }
    const lockAsset = isBuy ? m.quoteAsset : m.baseAsset;
    let locked: boolean;
    if (lockUnits === undefined) {
      const grains = lockCount * ((isBuy ? m.quoteMeasure : m.baseMeasure)?.grains ?? NaN);
      locked =
        grains <= MAX_GRAINS
          ? this.ledger.lockGrains(acct.ledger, lockAsset, grains)
          : this.ledger.lock(accountId, lockAsset, BigInt(lockCount) * (isBuy ? m.quoteUnitsPerTickLot : m.baseUnitsPerLot));
    } else {
      locked = this.ledger.lock(accountId, lockAsset, lockUnits);
    }
    if (!locked) return isBuy ? REJECT.insufficientBalance() : REJECT.oversold();

    // ---- accepted
    const now = (this.now = this.clock.now());
    const seq = this.orderIds.nextSeq();
    const order = new SpotOrder(
      m,
      acct,
      seq,
      this.orderIds.format(seq),
      clientOrderId,
      side,
      type,
      stpMode,
      priceTicks,
      lots,
      byQuote ? quoteUnits : 0n,
      now,
    );
    if (lockUnits === undefined) order.lockCount = lockCount;
    else order.lockRest = lockUnits;
    this.orders.set(seq, order);
    this.historyOf(acct, m.symbol).push(order);
    if (clientOrderId !== undefined) acct.byClientId.set(clientOrderId, order);
    if (this.events.active) this.events.push({ type: 'orderAccepted', time: now, order: this.orderView(order) });

    // ---- fill-or-kill: all or nothing, decided before any fill
    if (type === 'FILL_OR_KILL' && book.previewMatch(side, { limitTicks: priceTicks, lots }, stpCheck).lots < lots) {
      this.end(m, order, '');
      return { ok: true, order };
    }

    // ---- match
    let budget = 0n;
    let stopped = false;
    // A priced order that does not cross skips matching altogether (most quotes of a market maker).
    if (type !== 'LIMIT_MAKER' && (isMarket || book.wouldCross(side, priceTicks))) {
      if (stpCheck === undefined && !byQuote && this.fastLedger) {
        // The common taker: fills are settled as the book hands them over, nothing collected.
        this.sweep.start(m, order, now);
        book.sweep(side, isMarket ? undefined : priceTicks, lots, this.sweep);
      } else {
        if (byQuote) budget = quoteUnits / m.quoteUnitsPerTickLot;
        const res = book.match(
          side,
          {
            limitTicks: isMarket ? undefined : priceTicks,
            lots: byQuote ? (isBuy ? Infinity : sellQuoteLots) : lots,
            quoteBudget: byQuote ? budget : undefined,
          },
          stpCheck,
        );
        const fills = res.fills;
        for (let i = 0; i < fills.length; i++) {
          const f = fills[i]!;
          this.settle(m, order, f.maker.data, f.priceTicks, f.lots, f.makerDone, now);
        }
        for (const bo of res.stpCancelled) this.end(m, bo.data, SPOT_CANCEL_REASON_STP);
        stopped = res.takerStopped;
      }
    }

    // ---- what is left of the taker
    if (byQuote) order.origLots = order.executedLots;
    if (!byQuote && order.executedLots === lots) {
      this.finishFilled(m, order);
    } else if (stopped) {
      this.end(m, order, SPOT_CANCEL_REASON_STP);
    } else if (rests) {
      order.bookOrder = book.add(seq, side, priceTicks, lots - order.executedLots, accountId, order);
      order.isWorking = true;
      acct.open.add(order);
      if (clientOrderId !== undefined) acct.openByClientId.set(clientOrderId, order);
      if (order.executedLots > 0) {
        order.status = 'PARTIALLY_FILLED';
        if (this.events.active) this.events.push({ type: 'orderPartiallyFilled', time: now, order: this.orderView(order) });
      }
    } else if (byQuote && order.executedLots > 0 && quoteBudgetSpent(m, order, budget, isBuy)) {
      this.finishFilled(m, order);
    } else {
      this.end(m, order, '');
    }
    return { ok: true, order };
  }

  /** One fill between the taker and a resting maker: ledger, both orders, own trades, events. */
  private settle(m: SpotMarket, taker: SpotOrder, maker: SpotOrder, price: number, lots: number, makerDone: boolean, now: number): void {
    const takerBuys = taker.side === 'BUY';
    const buyer = takerBuys ? taker : maker;
    const seller = takerBuys ? maker : taker;
    const takerAcct = taker.acct;
    const makerAcct = maker.acct;
    const takerSteps = this.steps(takerAcct, m, false);
    const makerSteps = this.steps(makerAcct, m, true);
    const buyerSteps = takerBuys ? takerSteps : makerSteps;
    const sellerSteps = takerBuys ? makerSteps : takerSteps;
    // In tick-lots: the quote paid, and what the buyer gives up of its reservation (a priced buyer
    // reserved at its limit, a market buyer the cost). Past 2^53 these are inexact and fail every
    // `≤` test below, which sends the fill down the bigint path.
    const tickLots = price * lots;
    const lockedTickLots = buyer.priceTicks > 0 ? buyer.priceTicks * lots : tickLots;

    // Fees in kind as count · per-count units when exact (per > 0n), else as units (rest).
    // (The buyer's count, lots, is always exact; the seller's, tick-lots, may not be: then units.)
    let buyerFeePer = buyerSteps.perLot ?? 0n;
    let buyerFeeRest = buyerSteps.perLot === undefined ? feeOn(BigInt(lots) * m.baseUnitsPerLot, buyerSteps.rate) : 0n;
    let buyerFeeAsset = m.baseAsset;
    let sellerFeePer = sellerSteps.perTickLot ?? 0n;
    let sellerFeeRest = sellerSteps.perTickLot === undefined ? feeOn(quoteUnitsOf(m, price, lots), sellerSteps.rate) : 0n;
    let sellerFeeAsset = m.quoteAsset;
    if (sellerFeePer > 0n && !(tickLots <= MAX_SAFE)) {
      sellerFeeRest = BigInt(price) * BigInt(lots) * sellerFeePer;
      sellerFeePer = 0n;
    }
    // Paid in another asset (platform token): charged from free funds now, so the side receives in full.
    if (this.feePayer !== undefined) {
      const buyerAlt = this.payElsewhere(
        buyer.accountId,
        m.symbol,
        m.baseAsset,
        buyerFeePer > 0n ? BigInt(lots) * buyerFeePer : buyerFeeRest,
      );
      if (buyerAlt) {
        buyerFeePer = 0n;
        buyerFeeRest = buyerAlt.units;
        buyerFeeAsset = buyerAlt.asset;
      }
      const sellerAlt = this.payElsewhere(
        seller.accountId,
        m.symbol,
        m.quoteAsset,
        sellerFeePer > 0n ? BigInt(tickLots) * sellerFeePer : sellerFeeRest,
      );
      if (sellerAlt) {
        sellerFeePer = 0n;
        sellerFeeRest = sellerAlt.units;
        sellerFeeAsset = sellerAlt.asset;
      }
    }
    const buyerFeeInKind = buyerFeeAsset === m.baseAsset;
    const sellerFeeInKind = sellerFeeAsset === m.quoteAsset;

    // ---- ledger: grains when every amount fits, else bigint units (same result)
    const bm = m.baseMeasure;
    const qm = m.quoteMeasure;
    let fast = false;
    if (bm !== undefined && qm !== undefined) {
      const g = this.grainFill;
      g.base = lots * bm.grains;
      g.quote = tickLots * qm.grains;
      g.buyerLockedQuote = lockedTickLots * qm.grains;
      g.buyerFee = !buyerFeeInKind
        ? 0
        : buyerFeePer > 0n
          ? lots * (buyerSteps.perLotMeasure?.grains ?? NaN)
          : buyerFeeRest === 0n
            ? 0
            : NaN;
      g.sellerFee = !sellerFeeInKind
        ? 0
        : sellerFeePer > 0n
          ? tickLots * (sellerSteps.perTickLotMeasure?.grains ?? NaN)
          : sellerFeeRest === 0n
            ? 0
            : NaN;
      fast =
        g.base <= MAX_GRAINS &&
        g.quote <= MAX_GRAINS &&
        g.buyerLockedQuote <= MAX_GRAINS &&
        g.buyerFee <= MAX_GRAINS &&
        g.sellerFee <= MAX_GRAINS;
      if (fast) {
        g.buyer = buyer.acct.ledger;
        g.seller = seller.acct.ledger;
        g.baseAsset = m.baseAsset;
        g.quoteAsset = m.quoteAsset;
        this.ledger.settleGrains(g);
      }
    }
    if (!fast) {
      const quoteUnits = quoteUnitsOf(m, price, lots);
      this.ledger.settleTrade({
        buyer: buyer.accountId,
        seller: seller.accountId,
        baseAsset: m.baseAsset,
        quoteAsset: m.quoteAsset,
        baseUnits: BigInt(lots) * m.baseUnitsPerLot,
        quoteUnits,
        buyerLockedQuote: buyer.priceTicks > 0 ? quoteUnitsOf(m, buyer.priceTicks, lots) : quoteUnits,
        buyerFee: !buyerFeeInKind ? 0n : buyerFeePer > 0n ? BigInt(lots) * buyerFeePer : buyerFeeRest,
        sellerFee: !sellerFeeInKind ? 0n : sellerFeePer > 0n ? BigInt(tickLots) * sellerFeePer : sellerFeeRest,
      });
    }

    // ---- both orders
    if (lockedTickLots <= MAX_SAFE) buyer.unlockCounts(lockedTickLots);
    else buyer.unlockUnits(quoteUnitsOf(m, buyer.priceTicks > 0 ? buyer.priceTicks : price, lots));
    seller.unlockCounts(lots);
    taker.executedLots += lots;
    maker.executedLots += lots;
    if (tickLots <= MAX_SAFE) {
      taker.addCum(tickLots);
      maker.addCum(tickLots);
    } else {
      const exact = BigInt(price) * BigInt(lots);
      taker.addCumBig(exact);
      maker.addCumBig(exact);
    }
    taker.updateTime = now;
    maker.updateTime = now;
    m.lastPriceTicks = price;

    // ---- own trades (the count of a fee in kind is lots for the buyer, tick-lots for the seller)
    const tradeSeq = this.tradeIds.nextSeq();
    this.tradeCount++;
    const isSelfTrade = taker.accountId === maker.accountId;
    const buyerFeeCount = buyerFeePer > 0n ? lots : 0;
    const sellerFeeCount = sellerFeePer > 0n ? tickLots : 0;
    if (takerBuys) {
      this.tradesOf(makerAcct, m.symbol).push(
        maker,
        tradeSeq,
        price,
        lots,
        sellerFeeCount,
        sellerFeePer,
        sellerFeeRest,
        sellerFeeAsset,
        true,
        isSelfTrade,
        now,
      );
      this.tradesOf(takerAcct, m.symbol).push(
        taker,
        tradeSeq,
        price,
        lots,
        buyerFeeCount,
        buyerFeePer,
        buyerFeeRest,
        buyerFeeAsset,
        false,
        isSelfTrade,
        now,
      );
    } else {
      this.tradesOf(makerAcct, m.symbol).push(
        maker,
        tradeSeq,
        price,
        lots,
        buyerFeeCount,
        buyerFeePer,
        buyerFeeRest,
        buyerFeeAsset,
        true,
        isSelfTrade,
        now,
      );
      this.tradesOf(takerAcct, m.symbol).push(
        taker,
        tradeSeq,
        price,
        lots,
        sellerFeeCount,
        sellerFeePer,
        sellerFeeRest,
        sellerFeeAsset,
        false,
        isSelfTrade,
        now,
      );
    }

    if (this.ticks.active) {
      this.ticks.push({
        symbol: m.symbol,
        tradeId: this.tradeIds.format(tradeSeq),
        time: now,
        priceTicks: price,
        lots,
        takerSide: taker.side,
        takerOrderId: taker.orderId,
        makerOrderId: maker.orderId,
        takerAccountId: taker.accountId,
        makerAccountId: maker.accountId,
        isSelfTrade,
      });
    }
    if (this.events.active) {
      const scale = this.ledger.scale;
      const buyerFee = buyerFeePer > 0n ? BigInt(buyerFeeCount) * buyerFeePer : buyerFeeRest;
      const sellerFee = sellerFeePer > 0n ? BigInt(sellerFeeCount) * sellerFeePer : sellerFeeRest;
      this.events.push({
        type: 'trade',
        time: now,
        symbol: m.symbol,
        tradeId: this.tradeIds.format(tradeSeq),
        priceTicks: price,
        lots,
        price: priceOf(m, price),
        qty: qtyOf(m, lots),
        quoteQty: tickLots <= MAX_SAFE ? quoteOf(m, tickLots, scale) : unitsToDecimal(quoteUnitsOf(m, price, lots), scale),
        takerSide: taker.side,
        isBuyerMaker: !takerBuys,
        takerAccountId: taker.accountId,
        makerAccountId: maker.accountId,
        takerOrderId: taker.orderId,
        makerOrderId: maker.orderId,
        takerCommission: unitsToDecimal(takerBuys ? buyerFee : sellerFee, scale),
        takerCommissionAsset: takerBuys ? buyerFeeAsset : sellerFeeAsset,
        makerCommission: unitsToDecimal(takerBuys ? sellerFee : buyerFee, scale),
        makerCommissionAsset: takerBuys ? sellerFeeAsset : buyerFeeAsset,
        isSelfTrade,
      });
    }
    if (makerDone) {
      this.unlist(maker);
      this.finishFilled(m, maker);
    } else {
      maker.status = 'PARTIALLY_FILLED';
      if (this.events.active) this.events.push({ type: 'orderPartiallyFilled', time: now, order: this.orderView(maker) });
    }
  }

  private tradesOf(acct: SpotAccountState, symbol: string): OwnTradeLog {
    if (acct.tradesSymbol === symbol) return acct.tradeList!;
    let list = acct.trades.get(symbol);
    if (!list) acct.trades.set(symbol, (list = new OwnTradeLog(this.tradeIds)));
    acct.tradesSymbol = symbol;
    acct.tradeList = list;
    return list;
  }

  private historyOf(acct: SpotAccountState, symbol: string): SpotOrder[] {
    if (acct.histSymbol === symbol) return acct.hist!;
    let list = acct.history.get(symbol);
    if (!list) acct.history.set(symbol, (list = []));
    acct.histSymbol = symbol;
    acct.hist = list;
    return list;
  }

  private marketOf(symbol: string): SpotMarket | undefined {
    const last = this.lastMarket;
    if (last !== undefined && last.symbol === symbol) return last;
    const m = this.markets.get(symbol);
    if (m !== undefined) this.lastMarket = m;
    return m;
  }

  /** FILLED: release whatever is still reserved (a market buy's unused cost, dust of an amount). */
  private finishFilled(m: SpotMarket, order: SpotOrder): void {
    this.release(m, order);
    order.status = 'FILLED';
    order.isWorking = false;
    order.updateTime = this.now;
    if (this.events.active) this.events.push({ type: 'orderFilled', time: this.now, order: this.orderView(order) });
  }

  /** Ends an order that will get no more fills (already off the book): CANCELED / PARTIALLY_CANCELED. */
  private end(m: SpotMarket, order: SpotOrder, reason: SpotCancelReason): void {
    this.unlist(order);
    this.release(m, order);
    order.status = endedStatus(order.executedLots);
    order.cancelReason = reason;
    order.isWorking = false;
    order.updateTime = this.now;
    if (this.events.active) this.events.push({ type: 'orderCanceled', time: this.now, order: this.orderView(order) });
  }

  /** Returns whatever the order still holds to the free balance. */
  private release(m: SpotMarket, order: SpotOrder): void {
    const isBuy = order.side === 'BUY';
    const asset = isBuy ? m.quoteAsset : m.baseAsset;
    if (order.lockRest === 0n) {
      const count = order.lockCount;
      if (count === 0) return;
      const grains = count * ((isBuy ? m.quoteMeasure : m.baseMeasure)?.grains ?? NaN);
      if (grains <= MAX_GRAINS) this.ledger.unlockGrains(order.acct.ledger, asset, grains);
      else this.ledger.unlock(order.accountId, asset, BigInt(count) * (isBuy ? m.quoteUnitsPerTickLot : m.baseUnitsPerLot));
    } else {
      const units = order.lockedUnits;
      if (units !== 0n) this.ledger.unlock(order.accountId, asset, units);
    }
    order.clearLock();
  }

  private unlist(order: SpotOrder): void {
    order.bookOrder = null;
    const acct = order.acct;
    acct.open.remove(order);
    if (order.clientOrderId !== undefined && acct.openByClientId.get(order.clientOrderId) === order)
      acct.openByClientId.delete(order.clientOrderId);
  }

  /** The fee steps of an account's maker or taker rate on a market (its own rate, else the instrument's). */
  private steps(acct: SpotAccountState | undefined, m: SpotMarket, maker: boolean): FeeSteps {
    if (acct !== undefined && (acct.fees !== undefined || acct.feesBySymbol !== undefined)) {
      const s = acct.feesBySymbol?.get(m.symbol);
      const r = maker ? (s?.maker ?? acct.fees?.maker) : (s?.taker ?? acct.fees?.taker);
      if (r !== undefined) return this.overrideStepsOf(m, r);
    }
    return maker ? m.makerSteps : m.takerSteps;
  }

  private overrideStepsOf(m: SpotMarket, rate: FeeRate): FeeSteps {
    let bySymbol = this.overrideSteps.get(rate);
    if (!bySymbol) this.overrideSteps.set(rate, (bySymbol = new Map()));
    let st = bySymbol.get(m.symbol);
    if (!st) {
      bySymbol.set(m.symbol, (st = feeSteps(rate, m.baseUnitsPerLot, m.quoteUnitsPerTickLot)));
      if (this.fastLedger) this.measureFees(m, st);
    }
    return st;
  }

  /** Registers exact, non-zero fee steps with the ledger so fees can move as grains. */
  private measureFees(m: SpotMarket, st: FeeSteps): void {
    if (st.perLot !== undefined && st.perLot > 0n) st.perLotMeasure = this.ledger.measure(m.baseAsset, st.perLot);
    if (st.perTickLot !== undefined && st.perTickLot > 0n) st.perTickLotMeasure = this.ledger.measure(m.quoteAsset, st.perTickLot);
  }

  /** The fee charged in another asset, when the fee payer asks for it and the account's free balance covers it. */
  private payElsewhere(
    accountId: string,
    symbol: string,
    feeAsset: string,
    feeUnits: bigint,
  ): { asset: string; units: bigint } | undefined {
    if (this.feePayer === undefined || feeUnits === 0n) return undefined;
    const alt = this.feePayer.alternative(accountId, symbol, feeAsset, feeUnits, this.ledger.scale);
    if (alt === undefined || alt.asset === feeAsset || alt.units <= 0n) return undefined;
    return this.ledger.chargeFee(accountId, alt.asset, alt.units) ? { asset: alt.asset, units: alt.units } : undefined;
  }

  private stpCheckFor(accountId: string, mode: SpotStpMode): SelfTradeCheck<SpotOrder, number> {
    const action = stpActionOf(mode);
    const same = this.sameStpGroup;
    return (maker: BookOrder<SpotOrder, number>) => (same(accountId, maker.owner) ? action : StpAction.Trade);
  }

  private account(accountId: string): SpotAccountState {
    let a = this.accounts.get(accountId);
    if (!a) {
      a = {
        id: accountId,
        open: new OpenOrders<SpotOrder>(this.orders),
        openByClientId: new Map(),
        byClientId: new Map(),
        history: new Map(),
        // The venue's closed-order list (its sweep's index) is not part of this frozen model: its sweep
        // scans the history; the fields are here because its orders carry the venue's account type.
        closed: [],
        closedUnsorted: false,
        trades: new Map(),
        fees: undefined,
        feesBySymbol: undefined,
        ledger: this.ledger.account(accountId),
        histSymbol: undefined,
        hist: undefined,
        tradesSymbol: undefined,
        tradeList: undefined,
      };
      this.accounts.set(accountId, a);
    }
    return a;
  }

  private amountUnits(amount: DecimalLike): bigint | SpotRejection {
    const a = parsePositive(amount);
    if (!a) return REJECT.mandatory('amount');
    try {
      return amountToUnits(a, this.ledger.scale);
    } catch {
      return REJECT.amountScale();
    }
  }

  /** End of a command: trade ticks, then balance events for what changed, then delivery. */
  private finish(): void {
    if (this.pruneEvery > 0 && ++this.commands % this.pruneEvery === 0) this.pruneHistory();
    if (this.ticks.active) {
      try {
        this.ticks.flush();
      } finally {
        this.deliverEvents();
      }
    } else {
      this.deliverEvents();
    }
  }

  private deliverEvents(): void {
    if (!this.events.active) {
      if (this.dirtyBalances.size !== 0) this.dirtyBalances.clear();
      return;
    }
    if (this.dirtyBalances.size) {
      const scale = this.ledger.scale;
      for (const [accountId, asset] of this.dirtyBalances.values()) {
        const b: Readonly<BalanceUnits> = this.ledger.balance(accountId, asset);
        this.events.push({
          type: 'balanceChanged',
          time: this.now,
          accountId,
          asset,
          free: unitsToDecimal(b.free, scale),
          locked: unitsToDecimal(b.locked, scale),
        });
      }
      this.dirtyBalances.clear();
    }
    this.events.flush();
  }
}

const OK = { ok: true } as const;

type Settle = (
  m: SpotMarket,
  taker: SpotOrder,
  maker: SpotOrder,
  priceTicks: number,
  lots: number,
  makerDone: boolean,
  now: number,
) => void;

/** The fill sink of one taker at a time (the venue runs one command at a time). */
export class TakerSweep implements FillSink<SpotOrder, number> {
  private m: SpotMarket | undefined;
  private taker: SpotOrder | undefined;
  private now = 0;

  constructor(private readonly settle: Settle) {}

  start(m: SpotMarket, taker: SpotOrder, now: number): void {
    this.m = m;
    this.taker = taker;
    this.now = now;
  }

  onFill(maker: BookOrder<SpotOrder, number>, priceTicks: number, lots: number, makerDone: boolean): void {
    this.settle(this.m!, this.taker!, maker.data, priceTicks, lots, makerDone, this.now);
  }
}

/** Stand-in answered by the dry run; never stored. */
const DRY_RUN_ORDER: SpotOrderRecord = Object.freeze({
  seq: 0,
  orderId: '',
  accountId: '',
  symbol: '',
  clientOrderId: undefined,
  side: 'BUY',
  type: 'LIMIT',
  stpMode: '',
  priceTicks: 0,
  origLots: 0,
  origQuoteUnits: 0n,
  byQuote: false,
  executedLots: 0,
  cumQuoteUnits: 0n,
  status: 'NEW',
  cancelReason: '',
  time: 0,
  updateTime: 0,
  lockedUnits: 0n,
  isWorking: false,
});

/** Ordered, re-entrancy-safe delivery. A listener that throws does not stop delivery to the others;
 *  the first error is rethrown once the queue is empty (a failing subscriber is a bug to see) — the
 *  contract venue's flush follows the same rule (../listener-failures.ts). */
export class EventQueue<E> {
  private listeners: ((e: E) => void)[] = [];
  private readonly queue: E[] = [];
  private flushing = false;
  private readonly failures = new ListenerFailures();

  get active(): boolean {
    return this.listeners.length !== 0;
  }

  subscribe(listener: (e: E) => void): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  push(event: E): void {
    this.queue.push(event);
  }

  flush(): void {
    // Most commands queue nothing for a given queue (no fill, no tick): skip the try/finally then.
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = true;
    try {
      for (let i = 0; i < this.queue.length; i++) this.failures.deliver(this.listeners, this.queue[i]!);
    } finally {
      this.queue.length = 0;
      this.flushing = false;
    }
    this.failures.rethrow();
  }
}
