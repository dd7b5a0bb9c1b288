/**
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
 *
 * Money: balances and quote amounts are bigint ledger units (ledger-units.ts, 10^-18); prices and
 * quantities are integer ticks and lots of the symbol (spot-market.ts).
 *
 * Reservations: a buy locks price·qty of quote (a MARKET buy: its quoteOrderQty, or the exact cost of
 * the liquidity it will take), a sell locks its quantity of base (a MARKET sell by amount: the lots it
 * will sell). Fees are taken from what each side receives, so they need no reservation. A buy filled
 * below its limit gets the difference back at each fill; whatever a finished order still holds is
 * released, so an open order always holds exactly price·remaining (buy) or remaining (sell).
 */
import type { Clock } from '../../core/clock.js';
import { D, type Decimal, type DecimalLike } from '../../core/decimal.js';
import type { SpotInstrument } from '../../domain/instrument.js';
import type { SpotStpMode } from '../../domain/spot-enums.js';
import { SPOT_CANCEL_REASON_STP } from '../../domain/spot-enums.js';
import { StpAction, type BookOrder, type Fill, type OrderBookView, type SelfTradeCheck } from '../book/order-book.js';
import { feeOn, feeRate, type FeeRate } from '../ledger/fee-rate.js';
import { Ledger, type BalanceUnits, type BalanceView } from '../ledger/ledger.js';
import { amountToUnits, unitsToDecimal } from '../ledger/ledger-units.js';
import { CounterIds } from './counter-ids.js';
import { checkAmount, checkMinLots, checkOpenOrderCap, checkOrderType, checkPercentPrice, checkSideAllowed, checkStpMode, checkSymbolTradable } from './spot-filters.js';
import { EventQueue, type SpotVenueEvent, type SpotVenueListener } from './spot-events.js';
import { clampLimit, takeLatest } from './spot-history.js';
import { exactBuyCost, quoteBudgetSpent } from './spot-liquidity.js';
import { compileSpotMarket, priceOf, qtyOf, quoteUnitsOf, type SpotMarket } from './spot-market.js';
import {
  endedStatus,
  isOpenStatus,
  orderView,
  ownTradeView,
  type SpotCancelReason,
  type SpotOrderRecord,
  type SpotOrderState,
  type SpotOrderView,
  type SpotOwnTradeRecord,
  type SpotOwnTradeView,
} from './spot-order.js';
import { REJECT, type SpotRejection } from './spot-rejections.js';
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
} from './spot-requests.js';
import { StpGroups, stpActionOf, type SameStpGroup } from './stp-groups.js';
import { checkSpotVenueInvariants } from './spot-invariants.js';
import { SeqStore } from './seq-store.js';

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
} from './spot-requests.js';

const DAY_MS = 86_400_000;

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
  /** Pays fees some other way than in kind (platform-token deduction); default: always in kind. */
  readonly feePayer?: SpotFeePayer;
}

/**
 * Decides, per side of each fill, whether the fee is paid in another asset instead of being taken from
 * what the side receives. The venue then takes `units` of `asset` from the account's FREE balance as
 * the fee; when that balance is short it falls back to the fee in kind.
 */
export interface SpotFeePayer {
  alternative(accountId: string, symbol: string, feeAsset: string, feeUnits: bigint, ledgerScale: number): { readonly asset: string; readonly units: bigint } | undefined;
}

interface FeeOverride {
  maker?: FeeRate;
  taker?: FeeRate;
}

/** @internal per-account indexes; exported for the invariant checker only. */
export interface SpotAccountState {
  /** Open orders by seq, in placement order. */
  readonly open: Map<number, SpotOrderState>;
  readonly openByClientId: Map<string, SpotOrderState>;
  readonly byClientId: Map<string, SpotOrderState>;
  readonly history: Map<string, SpotOrderState[]>;
  readonly trades: Map<string, SpotOwnTradeRecord[]>;
  fees: FeeOverride | undefined;
  feesBySymbol: Map<string, FeeOverride> | undefined;
}

export class SpotVenue {
  readonly ledger: Ledger;
  readonly stpGroups: StpGroups;
  private readonly clock: Clock;
  private readonly markets = new Map<string, SpotMarket>();
  private readonly orders = new SeqStore<SpotOrderState>();
  private readonly accounts = new Map<string, SpotAccountState>();
  private readonly sameStpGroup: SameStpGroup;
  private feePayer: SpotFeePayer | undefined;
  private readonly maxOpen: number;
  private readonly orderIds: CounterIds;
  private readonly tradeIds: CounterIds;
  private readonly orderRetentionMs: number;
  private readonly tradeRetentionMs: number;
  private readonly pruneEvery: number;
  private commands = 0;
  private acceptedCount = 0;
  private rejectedCount = 0;
  private tradeCount = 0;
  private readonly events = new EventQueue<SpotVenueEvent>();
  private readonly dirtyBalances = new Map<string, [string, string]>();
  private now = 0;

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
    const compiled = compileSpotMarket(instrument, this.ledger.scale);
    const old = this.markets.get(instrument.symbol);
    if (old) {
      if (!D(old.instrument.tick).eq(instrument.tick) || !D(old.instrument.step).eq(instrument.step)) {
        throw new RangeError(`${instrument.symbol}: tick and step cannot change on a running venue`);
      }
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
    return { maker: this.rate(accountId, m, true).rate, taker: this.rate(accountId, m, false).rate };
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
    const m = this.markets.get(symbol);
    if (!m) return REJECT.invalidSymbol();
    if (ref.orderId === undefined && ref.clientOrderId === undefined) return REJECT.orderRef();
    const acct = this.accounts.get(accountId);
    let order: SpotOrderState | undefined;
    if (acct) order = ref.orderId !== undefined ? acct.open.get(this.orderIds.parse(ref.orderId) ?? -1) : acct.openByClientId.get(ref.clientOrderId!);
    if (!order || order.symbol !== symbol) return REJECT.unknownOrder();
    this.now = this.clock.now();
    m.book.cancel(order.seq);
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
      m.book.cancel(order.seq);
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
    let order: SpotOrderState | undefined;
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
    const list = this.accounts.get(accountId)?.trades.get(symbol) ?? [];
    const start = q.startTime ?? -Infinity;
    const end = q.endTime ?? Infinity;
    const limit = clampLimit(q.limit, 100, 100);
    return takeLatest(list, (t) => t.time >= start && t.time <= end && (q.orderId === undefined || t.orderId === q.orderId), limit);
  }

  orderView(order: SpotOrderRecord): SpotOrderView {
    return orderView(this.markets.get(order.symbol)!, order, this.ledger.scale);
  }

  ownTradeView(trade: SpotOwnTradeRecord): SpotOwnTradeView {
    return ownTradeView(this.markets.get(trade.symbol)!, trade, this.ledger.scale);
  }

  /** Read-only book of a symbol (integer units). */
  book(symbol: string): OrderBookView<SpotOrderState, number> | undefined {
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
    const orderCut = now - this.orderRetentionMs;
    const tradeCut = now - this.tradeRetentionMs;
    for (const acct of this.accounts.values()) {
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
      for (const [symbol, list] of acct.trades) {
        if (list.length && list[0]!.time < tradeCut) acct.trades.set(symbol, list.filter((t) => t.time >= tradeCut));
      }
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
    const m = this.markets.get(req.symbol);
    if (!m) return REJECT.invalidSymbol();
    const side = req.side;
    const type = req.type;
    const stpMode: SpotStpMode = req.stpMode ?? '';
    let r = checkSymbolTradable(m) ?? checkSideAllowed(m, side) ?? checkOrderType(m, type) ?? checkStpMode(stpMode);
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
    // price · qty of a priced order: checked, reserved (buys) and reported as origQuoteOrderQty
    const notional = isMarket ? 0n : quoteUnitsOf(m, priceTicks, lots);
    if (!byQuote) r = checkMinLots(m, lots);
    if (!r) {
      if (!isMarket) r = checkAmount(notional, m.minQuoteUnits, m.maxQuoteUnits, scale);
      else if (byQuote) r = checkAmount(quoteUnits, m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, scale);
      else {
        const ref = (side === 'BUY' ? book.bestAsk() : book.bestBid()) ?? m.lastPriceTicks;
        if (ref !== undefined) r = checkAmount(quoteUnitsOf(m, ref, lots), m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, scale);
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

    // ---- funds
    const stpCheck = stpMode === '' ? undefined : this.stpCheckFor(accountId, stpMode);
    const isBuy = side === 'BUY';
    let lock: bigint;
    let sellQuoteLots = 0;
    if (isBuy) {
      if (!isMarket) lock = notional;
      else if (byQuote) lock = quoteUnits;
      else lock = exactBuyCost(m, lots, stpCheck);
    } else if (byQuote) {
      sellQuoteLots = book.previewMatch('SELL', { lots: Infinity, quoteBudget: quoteUnits / m.quoteUnitsPerTickLot }, stpCheck).lots;
      lock = BigInt(sellQuoteLots) * m.baseUnitsPerLot;
    } else {
      lock = BigInt(lots) * m.baseUnitsPerLot;
    }
    if (!this.ledger.lock(accountId, isBuy ? m.quoteAsset : m.baseAsset, lock)) return isBuy ? REJECT.insufficientBalance() : REJECT.oversold();

    // ---- accepted
    const now = (this.now = this.clock.now());
    const seq = this.orderIds.nextSeq();
    const order: SpotOrderState = {
      seq,
      orderId: this.orderIds.format(seq),
      accountId,
      symbol: m.symbol,
      clientOrderId,
      side,
      type,
      stpMode,
      priceTicks,
      origLots: lots,
      origQuoteUnits: byQuote ? quoteUnits : notional,
      byQuote,
      executedLots: 0,
      cumQuoteUnits: 0n,
      status: 'NEW',
      cancelReason: '',
      time: now,
      updateTime: now,
      lockedUnits: lock,
      isWorking: false,
    };
    this.orders.set(seq, order);
    let hist = acct.history.get(m.symbol);
    if (!hist) acct.history.set(m.symbol, (hist = []));
    hist.push(order);
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
      for (let i = 0; i < fills.length; i++) this.settle(m, order, fills[i]!, now);
      for (const bo of res.stpCancelled) this.end(m, bo.data, SPOT_CANCEL_REASON_STP);
      stopped = res.takerStopped;
    }

    // ---- what is left of the taker
    if (byQuote) order.origLots = order.executedLots;
    if (!byQuote && order.executedLots === lots) {
      this.finishFilled(m, order);
    } else if (stopped) {
      this.end(m, order, SPOT_CANCEL_REASON_STP);
    } else if (rests) {
      book.add(seq, side, priceTicks, lots - order.executedLots, accountId, order);
      order.isWorking = true;
      acct.open.set(seq, order);
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
  private settle(m: SpotMarket, taker: SpotOrderState, fill: Fill<SpotOrderState, number>, now: number): void {
    const maker = fill.maker.data;
    const lots = fill.lots;
    const price = fill.priceTicks;
    const baseUnits = BigInt(lots) * m.baseUnitsPerLot;
    const quoteUnits = BigInt(price) * BigInt(lots) * m.quoteUnitsPerTickLot;
    const takerBuys = taker.side === 'BUY';
    const buyer = takerBuys ? taker : maker;
    const seller = takerBuys ? maker : taker;
    // A priced buyer gives up what it reserved for these lots (its limit price); a market buyer, the cost.
    const buyerLockedQuote = buyer.priceTicks > 0 ? BigInt(buyer.priceTicks) * BigInt(lots) * m.quoteUnitsPerTickLot : quoteUnits;
    const takerRate = this.rate(taker.accountId, m, false);
    const makerRate = this.rate(maker.accountId, m, true);
    let buyerFee = feeOn(baseUnits, takerBuys ? takerRate : makerRate);
    let sellerFee = feeOn(quoteUnits, takerBuys ? makerRate : takerRate);
    // Paid in another asset (platform token): charged from free funds now, so the side receives in full.
    const buyerAlt = this.payElsewhere(buyer.accountId, m.symbol, m.baseAsset, buyerFee);
    if (buyerAlt) buyerFee = 0n;
    const sellerAlt = this.payElsewhere(seller.accountId, m.symbol, m.quoteAsset, sellerFee);
    if (sellerAlt) sellerFee = 0n;
    this.ledger.settleTrade({
      buyer: buyer.accountId,
      seller: seller.accountId,
      baseAsset: m.baseAsset,
      quoteAsset: m.quoteAsset,
      baseUnits,
      quoteUnits,
      buyerLockedQuote,
      buyerFee,
      sellerFee,
    });
    buyer.lockedUnits -= buyerLockedQuote;
    seller.lockedUnits -= baseUnits;
    taker.executedLots += lots;
    taker.cumQuoteUnits += quoteUnits;
    taker.updateTime = now;
    maker.executedLots += lots;
    maker.cumQuoteUnits += quoteUnits;
    maker.updateTime = now;
    m.lastPriceTicks = price;

    const tradeId = this.tradeIds.take();
    this.tradeCount++;
    const isSelfTrade = taker.accountId === maker.accountId;
    const buyerPaid = buyerAlt ?? { asset: m.baseAsset, units: buyerFee };
    const sellerPaid = sellerAlt ?? { asset: m.quoteAsset, units: sellerFee };
    const takerFee = takerBuys ? buyerPaid.units : sellerPaid.units;
    const makerFee = takerBuys ? sellerPaid.units : buyerPaid.units;
    const takerFeeAsset = takerBuys ? buyerPaid.asset : sellerPaid.asset;
    const makerFeeAsset = takerBuys ? sellerPaid.asset : buyerPaid.asset;
    this.recordTrade(m, maker, tradeId, price, lots, quoteUnits, makerFee, makerFeeAsset, !takerBuys, true, isSelfTrade, now);
    this.recordTrade(m, taker, tradeId, price, lots, quoteUnits, takerFee, takerFeeAsset, takerBuys, false, isSelfTrade, now);

    if (this.events.active) {
      const scale = this.ledger.scale;
      this.events.push({
        type: 'trade',
        time: now,
        symbol: m.symbol,
        tradeId,
        priceTicks: price,
        lots,
        price: priceOf(m, price),
        qty: qtyOf(m, lots),
        quoteQty: unitsToDecimal(quoteUnits, scale),
        takerSide: taker.side,
        isBuyerMaker: !takerBuys,
        takerAccountId: taker.accountId,
        makerAccountId: maker.accountId,
        takerOrderId: taker.orderId,
        makerOrderId: maker.orderId,
        takerCommission: unitsToDecimal(takerFee, scale),
        takerCommissionAsset: takerFeeAsset,
        makerCommission: unitsToDecimal(makerFee, scale),
        makerCommissionAsset: makerFeeAsset,
        isSelfTrade,
      });
    }
    if (fill.makerDone) {
      this.unlist(maker);
      this.finishFilled(m, maker);
    } else {
      maker.status = 'PARTIALLY_FILLED';
      if (this.events.active) this.events.push({ type: 'orderPartiallyFilled', time: now, order: this.orderView(maker) });
    }
  }

  private recordTrade(
    m: SpotMarket,
    order: SpotOrderState,
    tradeId: string,
    priceTicks: number,
    lots: number,
    quoteUnits: bigint,
    commissionUnits: bigint,
    commissionAsset: string,
    isBuyer: boolean,
    isMaker: boolean,
    isSelfTrade: boolean,
    time: number,
  ): void {
    const acct = this.account(order.accountId);
    let list = acct.trades.get(m.symbol);
    if (!list) acct.trades.set(m.symbol, (list = []));
    list.push({
      tradeId,
      symbol: m.symbol,
      accountId: order.accountId,
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      priceTicks,
      lots,
      quoteUnits,
      commissionUnits,
      commissionAsset,
      isBuyer,
      isMaker,
      isSelfTrade,
      time,
    });
  }

  /** FILLED: release whatever is still reserved (a market buy's unused cost, dust of an amount). */
  private finishFilled(m: SpotMarket, order: SpotOrderState): void {
    this.release(m, order);
    order.status = 'FILLED';
    order.isWorking = false;
    order.updateTime = this.now;
    if (this.events.active) this.events.push({ type: 'orderFilled', time: this.now, order: this.orderView(order) });
  }

  /** Ends an order that will get no more fills (already off the book): CANCELED / PARTIALLY_CANCELED. */
  private end(m: SpotMarket, order: SpotOrderState, reason: SpotCancelReason): void {
    this.unlist(order);
    this.release(m, order);
    order.status = endedStatus(order.executedLots);
    order.cancelReason = reason;
    order.isWorking = false;
    order.updateTime = this.now;
    if (this.events.active) this.events.push({ type: 'orderCanceled', time: this.now, order: this.orderView(order) });
  }

  private release(m: SpotMarket, order: SpotOrderState): void {
    if (order.lockedUnits !== 0n) {
      this.ledger.unlock(order.accountId, order.side === 'BUY' ? m.quoteAsset : m.baseAsset, order.lockedUnits);
      order.lockedUnits = 0n;
    }
  }

  private unlist(order: SpotOrderState): void {
    const acct = this.accounts.get(order.accountId);
    if (!acct) return;
    acct.open.delete(order.seq);
    if (order.clientOrderId !== undefined && acct.openByClientId.get(order.clientOrderId) === order) acct.openByClientId.delete(order.clientOrderId);
  }

  private rate(accountId: string, m: SpotMarket, maker: boolean): FeeRate {
    const acct = this.accounts.get(accountId);
    if (acct !== undefined && (acct.fees !== undefined || acct.feesBySymbol !== undefined)) {
      const s = acct.feesBySymbol?.get(m.symbol);
      const r = maker ? (s?.maker ?? acct.fees?.maker) : (s?.taker ?? acct.fees?.taker);
      if (r !== undefined) return r;
    }
    return maker ? m.makerFee : m.takerFee;
  }

  /** The fee charged in another asset, when the fee payer asks for it and the account's free balance covers it. */
  private payElsewhere(accountId: string, symbol: string, feeAsset: string, feeUnits: bigint): { asset: string; units: bigint } | undefined {
    if (this.feePayer === undefined || feeUnits === 0n) return undefined;
    const alt = this.feePayer.alternative(accountId, symbol, feeAsset, feeUnits, this.ledger.scale);
    if (alt === undefined || alt.asset === feeAsset || alt.units <= 0n) return undefined;
    return this.ledger.chargeFee(accountId, alt.asset, alt.units) ? { asset: alt.asset, units: alt.units } : undefined;
  }

  private stpCheckFor(accountId: string, mode: SpotStpMode): SelfTradeCheck<SpotOrderState, number> {
    const action = stpActionOf(mode);
    const same = this.sameStpGroup;
    return (maker: BookOrder<SpotOrderState, number>) => (same(accountId, maker.owner) ? action : StpAction.Trade);
  }

  private account(accountId: string): SpotAccountState {
    let a = this.accounts.get(accountId);
    if (!a) {
      a = { open: new Map(), openByClientId: new Map(), byClientId: new Map(), history: new Map(), trades: new Map(), fees: undefined, feesBySymbol: undefined };
      this.accounts.set(accountId, a);
      this.ledger.openAccount(accountId);
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

  /** End of a command: balance events for what changed, then delivery. */
  private finish(): void {
    if (this.pruneEvery > 0 && ++this.commands % this.pruneEvery === 0) this.pruneHistory();
    if (!this.events.active) {
      if (this.dirtyBalances.size !== 0) this.dirtyBalances.clear();
      return;
    }
    if (this.dirtyBalances.size) {
      const scale = this.ledger.scale;
      for (const [accountId, asset] of this.dirtyBalances.values()) {
        const b: Readonly<BalanceUnits> = this.ledger.balance(accountId, asset);
        this.events.push({ type: 'balanceChanged', time: this.now, accountId, asset, free: unitsToDecimal(b.free, scale), locked: unitsToDecimal(b.locked, scale) });
      }
      this.dirtyBalances.clear();
    }
    this.events.flush();
  }
}

const OK = { ok: true } as const;

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

