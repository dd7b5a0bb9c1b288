/**
 * Frozen copy (issue 12) of src/venue/contract/contract-venue.ts as it was before the integer-money
 * rewrite: the reference model of test/venue/contract/contract-venue-differential.test.ts. Imported only
 * by tests; it keeps its own copy of the trigger book (./triggers) so optimising the venue or its
 * triggers cannot change the model. Do not edit it to follow the venue.
 *
 * The perpetual-futures venue engine: pure, synchronous, clock-driven, no I/O. The emulator's HTTP
 * server and the backtest's simulated gateway both drive it.
 *
 * Units. Matching works in integer ticks and lots on the shared OrderBook; position costs are
 * bigint tick·lots, so realised PnL is exact. Money is Decimal in the settle coin: fees and funding
 * are exact products (never rounded); only initial margin (a division by the leverage) is rounded
 * to `moneyScale` places — up when reserved for an order, down when booked by a fill, so a fill
 * never books more than its order reserved.
 *
 * Funds. Every account wallet holds `free` (available) and `frozen` (order margin); positions hold
 * `im`. Money only moves between those buckets, the insurance fund, and the venue's fee income, and
 * positions realise exact PnL. Conservation identity, per settle coin c and for ANY price X_s per
 * symbol (checked at the fair price and at 0):
 *
 *   Σ_accounts (free + frozen + Σ_positions im + Σ_positions unrealised(X))
 *     + insurance.free + Σ_insurance positions unrealised(X) + feeIncome
 *   = Σ net deposits + insurance seed
 *
 * It holds because (a) transfers move one Decimal between two buckets, (b) realised PnL plus the
 * unrealised PnL of every holder at a common X is zero-sum per trade (one side's (q − X)·v is the
 * other's (X − q)·v), (c) funding is zero-sum because Σ long lots = Σ short lots and amounts are not
 * rounded, (d) fees go to feeIncome, liquidation fees to the insurance fund, shortfalls come from it.
 *
 * Liquidation (decided here, see the report): when the fair price breaches maintenance, the
 * insurance fund TAKES OVER the position (no order through the book, so no tape print and no
 * interaction with resting orders). Isolated: at the bankruptcy price rounded to the tick on the
 * side that keeps the account's loss ≤ im; the account loses exactly its position margin, what the
 * rounding leaves goes to the fund. Cross: all cross positions at the fair price (to the tick); the
 * account's remaining cross equity, up to the maintenance margin, goes to the fund, and a negative
 * remainder is covered by it. The account's open orders are cancelled first. The fund is a one-way,
 * margin-exempt account that is never liquidated; its positions pay and receive funding.
 *
 * Triggers (TP/SL stop orders, plan orders, trailing orders) live in a TriggerBook beside the book
 * (triggers/): it watches every fair, index and last price, fires through `placeOrder` like a user,
 * and hears synchronously about fills, final orders and closed positions, so venue and triggers
 * agree after every event. Its commands are venue methods below, so they journal and replay as any
 * other command.
 */
import type { Clock } from '../../src/core/clock.js';
import { D, Decimal, type DecimalLike } from '../../src/core/decimal.js';
import {
  accountId as toAccountId,
  orderId as toOrderId,
  positionId as toPositionId,
  tradeId as toTradeId,
  type AccountId,
  type OrderId,
} from '../../src/core/ids.js';
import {
  ContractOrderErrorCode,
  ContractOrderState,
  ContractOrderType,
  ContractSide,
  ContractState,
  ContractStpMode,
  DealOpenFlag,
  DealSide,
  OpenType,
  OrderCategory,
  PositionMode,
  PositionOpenType,
  PositionState,
  PositionType,
  sideIsBuy,
  type MarginChangeType,
} from '../../src/domain/contract-enums.js';
import type { ContractInstrument, RiskTier } from '../../src/domain/instrument.js';
import { OrderBook, StpAction, type BookOrder, type BookSide, type SelfTradeCheck } from '../../src/venue/book/order-book.js';
import { CANCEL_ERROR_MSG, CODE_OF_ORDER_ERROR, CancelErrorCode, ContractVenueCode } from '../../src/venue/contract/contract-codes.js';
import type { ContractVenueEvent, ContractVenueListener, PriceUpdate, PriceWatcher } from '../../src/venue/contract/contract-events.js';
import { ContractPosition } from './reference-contract-position.js';
import type {
  CancelResultEntry,
  ChangeLeverageRequest,
  ChangeLimitOrderRequest,
  ChangeMarginRequest,
  ClosePositionResult,
  ExternalRef,
  FillsQuery,
  FundingRecordsQuery,
  HistoryOrdersQuery,
  HistoryPositionsQuery,
  PageQuery,
  PlaceOrderRequest,
  PlaceOrderTicksRequest,
  PlacedOrderTicks,
  Rejected,
  ReverseRequest,
  TransferRecordsQuery,
  VenueResult,
} from '../../src/venue/contract/contract-requests.js';
import { ContractSpec } from '../../src/venue/contract/contract-spec.js';
import {
  AccountState,
  ZERO,
  type FillRecord,
  type MarketState,
  type OrderState,
  type SideSettings,
  type Wallet,
} from './reference-contract-state.js';
import type {
  CancelReason,
  ContractAssetView,
  ContractDepthView,
  ContractFillView,
  ContractOrderView,
  ContractPositionView,
  ContractTradeView,
  FundingHistoryView,
  FundingRateView,
  FundingRecordView,
  InsuranceFundView,
  LeverageView,
  LiquidationView,
  OpenOrderCountView,
  Page,
  RiskLimitView,
  TransferRecordView,
} from '../../src/venue/contract/contract-views.js';
import { HOUR_MS, nextFundingTime, positionFunding } from '../../src/venue/contract/funding-schedule.js';
import {
  initialMargin,
  isBreached,
  liquidationPrice,
  bankruptcyPrice,
  maintenanceMargin,
  marginRatio,
  unrealisedPnl,
} from '../../src/venue/contract/margin-math.js';
import { tierForVol } from '../../src/venue/contract/risk-tiers.js';
import { checkContractInvariants, type InvariantProbe } from './reference-contract-invariants.js';
import {
  autoAddAmount,
  bankruptcyCloseTicks,
  crossMargin,
  crossSettlement,
  isCrossBreached,
  markCloseTicks,
  splitByWeight,
  type CrossMargin,
} from './reference-liquidation-rules.js';
import { parseLots, parseTicks, priceBand, validateOrderRequest } from './reference-order-validation.js';
import { TriggerBook } from './triggers/trigger-book.js';
import type {
  CancelAllStopOrdersRequest,
  CancelTrackOrdersRequest,
  ChangePlanStopOrderRequest,
  ChangeStopPlanPriceRequest,
  ChangeStopPriceRequest,
  ChangeTrackOrderRequest,
  PlacePlanOrderRequest,
  PlaceStopOrderRequest,
  PlaceTrackOrderRequest,
  PlanOrderRef,
  PlanOrdersQuery,
  StopOrdersQuery,
  TrackOrdersQuery,
} from '../../src/venue/contract/triggers/trigger-requests.js';
import type { PlanOrderView, StopOrderView, TrackOrderView } from '../../src/venue/contract/triggers/trigger-views.js';

export interface FeeRates {
  readonly maker: Decimal;
  readonly taker: Decimal;
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
  /** First order / position id is idBase + 1 (default 0). */
  readonly idBase?: number;
  /** First stop / plan / trailing order id is triggerIdBase + 1 (default idBase + 500000000, apart from order ids). */
  readonly triggerIdBase?: number;
  readonly defaultPositionMode?: PositionMode;
}

export const INSURANCE_ACCOUNT_ID: AccountId = toAccountId('__insurance__');

type QueueItem =
  { kind: 'event'; build: () => ContractVenueEvent } | { kind: 'price'; update: PriceUpdate } | { kind: 'task'; run: () => void };

interface FillEffect {
  readonly openLots: number;
  readonly closeLots: number;
}

interface LiquidationDraft {
  readonly position: ContractPosition;
  readonly fairPrice: Decimal;
  readonly liquidationPrice: Decimal | undefined;
  readonly bankruptcyPrice: Decimal | undefined;
  readonly closeTicks: number;
  readonly realised: Decimal;
  readonly lots: number;
  readonly orderId: OrderId;
  mm: Decimal;
  fee: Decimal;
  cover: Decimal;
}

const ONE = new Decimal(1);
const LIMIT_LIKE: ReadonlySet<number> = new Set([ContractOrderType.LIMIT, ContractOrderType.POST_ONLY, ContractOrderType.MARKET_TO_LIMIT]);
const RESTING: ReadonlySet<number> = LIMIT_LIKE;
const STP_ACTION: Readonly<Record<ContractStpMode, StpAction>> = {
  [ContractStpMode.NONE]: StpAction.Trade,
  [ContractStpMode.CANCEL_BOTH]: StpAction.CancelBoth,
  [ContractStpMode.CANCEL_MAKER]: StpAction.CancelMaker,
  [ContractStpMode.CANCEL_TAKER]: StpAction.CancelTaker,
};

export class ReferenceContractVenue {
  private readonly clock: Clock;
  private readonly markets = new Map<string, MarketState>();
  private readonly accounts = new Map<string, AccountState>();
  private readonly insurance: AccountState;
  /** Seed per currency (right-hand side of the conservation identity). */
  private readonly insuranceSeed = new Map<string, Decimal>();
  private readonly feeIncome = new Map<string, Decimal>();
  private readonly defaultRates = new Map<ContractSpec, FeeRates & { reserve: Decimal }>();
  /** Every order still retained (open and recent history), by id. */
  private readonly orders = new Map<string, OrderState>();
  /** Open positions by id. */
  private readonly positionsById = new Map<string, { account: AccountState; position: ContractPosition }>();
  /** Σ lots opened / closed per position id, from the fill journal (invariant: hold = opened − closed). */
  private readonly positionFills = new Map<string, { opened: number; closed: number }>();
  private readonly listeners: ContractVenueListener[] = [];
  private readonly watchers: PriceWatcher[] = [];
  private readonly queue: QueueItem[] = [];
  private flushing = false;
  private nesting = 0;

  private readonly sameGroup: (a: AccountId, b: AccountId) => boolean;
  private readonly feeRatesOf: ((account: AccountId, instrument: ContractInstrument) => FeeRates) | undefined;
  private readonly scale: number;
  private readonly historyLimit: number;
  private readonly historyLimitOf: ((accountId: string) => number | undefined) | undefined;
  private readonly idBase: number;
  private readonly defaultLeverage: number;
  private readonly enforceApiAllowed: boolean;
  private readonly enforcePriceBand: boolean;
  private readonly autoFunding: boolean;
  private readonly defaultPositionMode: PositionMode;
  private orderSeq = 0;
  private positionSeq = 0;
  private tradeSeq = 0;
  private fundingSeq = 0;
  private transferSeq = 0;
  /** Count of fills whose booking fell short of margin by rounding or an out-of-band price (diagnostics). */
  private shortfalls = 0;
  private readonly triggers: TriggerBook;

  constructor(private readonly options: ContractVenueOptions) {
    this.clock = options.clock;
    this.sameGroup = options.sameStpGroup ?? ((a, b) => a === b);
    this.feeRatesOf = options.feeRates;
    this.scale = options.moneyScale ?? 8;
    this.historyLimit = options.historyLimit ?? 10_000;
    this.historyLimitOf = options.historyLimitOf;
    this.idBase = options.idBase ?? 0;
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
    for (const i of options.instruments ?? []) this.addInstrument(i);
    this.triggers = new TriggerBook({
      venue: this,
      clock: this.clock,
      emit: (build) => this.emit(build),
      defer: (task) => this.queue.push({ kind: 'task', run: task }),
      historyLimit: this.historyLimit,
      idBase: options.triggerIdBase ?? this.idBase + 500_000_000,
    });
  }

  // ─────────────────────────────────────────────── setup and inputs

  addInstrument(instrument: ContractInstrument): void {
    if (this.markets.has(instrument.symbol)) throw new RangeError(`contract ${instrument.symbol} is already listed`);
    const spec = new ContractSpec(instrument);
    const cycleHours = this.options.collectCycleHours ?? 8;
    const intervalMs = this.options.fundingIntervalMs ?? cycleHours * HOUR_MS;
    const m: MarketState = {
      spec,
      book: new OrderBook<OrderState>(),
      fairPrice: undefined,
      indexPrice: undefined,
      lastTicks: undefined,
      lastPrice: undefined,
      fundingRate: D(this.options.initialFundingRate ?? 0),
      maxFundingRate: D(this.options.maxFundingRate ?? '0.0018'),
      minFundingRate: D(this.options.minFundingRate ?? '-0.0018'),
      fundingIntervalMs: intervalMs,
      collectCycleHours: cycleHours,
      nextFundingAt: nextFundingTime(this.clock.now(), intervalMs),
      fundingTimer: undefined,
      fundingHistory: [],
      holders: new Set(),
      version: 0,
    };
    this.markets.set(instrument.symbol, m);
    if (this.autoFunding) this.scheduleFunding(m);
  }

  /** Stops the funding timers. */
  dispose(): void {
    for (const m of this.markets.values()) {
      this.clock.clearTimer(m.fundingTimer);
      m.fundingTimer = undefined;
    }
  }

  on(listener: ContractVenueListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  addPriceWatcher(watcher: PriceWatcher): () => void {
    this.watchers.push(watcher);
    return () => {
      const i = this.watchers.indexOf(watcher);
      if (i >= 0) this.watchers.splice(i, 1);
    };
  }

  /** Fair (mark) price: drives unrealised PnL, liquidation and funding. Runs the liquidation checks. */
  setFairPrice(symbol: string, price: DecimalLike): void {
    const m = this.requireMarket(symbol);
    const p = D(price);
    if (!p.gt(0)) throw new RangeError(`fair price of ${symbol} must be > 0, got ${p.toString()}`);
    this.run(() => {
      m.fairPrice = p;
      this.queue.push({ kind: 'price', update: { symbol: m.spec.symbol, kind: 'fair', price: p, time: this.clock.now() } });
      this.checkLiquidations(m);
    });
  }

  setIndexPrice(symbol: string, price: DecimalLike): void {
    const m = this.requireMarket(symbol);
    const p = D(price);
    if (!p.gt(0)) throw new RangeError(`index price of ${symbol} must be > 0, got ${p.toString()}`);
    this.run(() => {
      m.indexPrice = p;
      this.queue.push({ kind: 'price', update: { symbol: m.spec.symbol, kind: 'index', price: p, time: this.clock.now() } });
    });
  }

  /** The rate applied at the next settlement, clamped to [minFundingRate, maxFundingRate]. */
  setFundingRate(symbol: string, rate: DecimalLike): void {
    const m = this.requireMarket(symbol);
    const r = D(rate);
    m.fundingRate = Decimal.min(m.maxFundingRate, Decimal.max(m.minFundingRate, r));
  }

  /**
   * Settles funding of one contract now (the timers call this at each settle time). With automatic
   * funding the timer moves to the next settle time after now, so a manual settlement is not repeated.
   */
  settleFunding(symbol: string): readonly FundingRecordView[] {
    const m = this.requireMarket(symbol);
    let out: readonly FundingRecordView[] = [];
    this.run(() => {
      out = this.settleFundingOf(m);
    });
    if (this.autoFunding && m.fundingTimer !== undefined) {
      this.clock.clearTimer(m.fundingTimer);
      this.scheduleFunding(m);
    }
    return out;
  }

  // ─────────────────────────────────────────────── accounts and transfers

  openAccount(id: string, positionMode?: PositionMode): void {
    this.account(id, positionMode);
  }

  hasAccount(id: string): boolean {
    return this.accounts.has(id) && id !== INSURANCE_ACCOUNT_ID;
  }

  deposit(id: string, currency: string, amount: DecimalLike): VenueResult<TransferRecordView> {
    const a = D(amount);
    if (!a.gt(0)) return this.refuse(ContractVenueCode.PARAMETER, 'amount must be > 0');
    if (id === INSURANCE_ACCOUNT_ID) return this.refuse(ContractVenueCode.PARAMETER, 'the insurance fund takes no deposits');
    let rec: TransferRecordView | undefined;
    this.run(() => {
      const acct = this.account(id);
      acct.wallet(currency).free = acct.wallet(currency).free.add(a);
      acct.netDeposits.set(currency, (acct.netDeposits.get(currency) ?? ZERO).add(a));
      rec = this.recordTransfer(acct, currency, a, 'IN');
    });
    return { ok: true, value: rec! };
  }

  withdraw(id: string, currency: string, amount: DecimalLike): VenueResult<TransferRecordView> {
    const a = D(amount);
    if (!a.gt(0)) return this.refuse(ContractVenueCode.PARAMETER, 'amount must be > 0');
    const acct = this.accounts.get(id);
    if (acct === undefined || acct.exempt) return this.refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance');
    if (a.gt(this.availableOpen(acct, currency))) return this.refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance');
    let rec: TransferRecordView | undefined;
    this.run(() => {
      const w = acct.wallet(currency);
      w.free = w.free.sub(a);
      acct.netDeposits.set(currency, (acct.netDeposits.get(currency) ?? ZERO).sub(a));
      rec = this.recordTransfer(acct, currency, a, 'OUT');
    });
    return { ok: true, value: rec! };
  }

  // ─────────────────────────────────────────────── orders

  /** POST order/create; a take-profit / stop-loss it carries becomes a stop order that follows its fills. */
  placeOrder(accountIdIn: string, req: PlaceOrderRequest): VenueResult<ContractOrderView> {
    let result: VenueResult<ContractOrderView> | undefined;
    this.run(() => {
      const tpsl = this.triggers.stops.prepareAttached(accountIdIn, req);
      if (tpsl !== undefined && !tpsl.ok) {
        result = this.reject(accountIdIn, tpsl.code, tpsl.message);
        return;
      }
      result = this.place(accountIdIn, req, OrderCategory.LIMIT);
      if (tpsl !== undefined && result.ok) this.triggers.stops.attach(toAccountId(accountIdIn), result.value, tpsl.value);
    });
    return result!;
  }

  /**
   * A placement in ticks and lots, as the decimal request it stands for (price = priceUnit · priceTicks,
   * vol = volUnit · lots) placed by placeOrder, answered with that view's id, state, lots and time.
   */
  placeOrderTicks(accountIdIn: string, req: PlaceOrderTicksRequest): VenueResult<PlacedOrderTicks> {
    const spec = this.markets.get(req.symbol)?.spec;
    const { priceTicks, lots, ...fields } = req;
    const r = this.placeOrder(accountIdIn, {
      ...fields,
      price: spec === undefined ? priceTicks : spec.tick.mul(priceTicks),
      vol: spec === undefined ? lots : spec.lot.mul(lots),
    });
    if (!r.ok) return r;
    const v = r.value;
    const lotsOf = (vol: Decimal): number => vol.div(spec!.lot).toNumber();
    return {
      ok: true,
      value: { orderId: v.orderId, state: v.state, lots: lotsOf(v.vol), dealLots: lotsOf(v.dealVol), createTime: v.createTime },
    };
  }

  /** POST order/change_limit_order: new price and total vol; margin and position re-checked. */
  changeLimitOrder(accountIdIn: string, req: ChangeLimitOrderRequest): VenueResult<ContractOrderView> {
    let result: VenueResult<ContractOrderView> | undefined;
    this.run(() => {
      result = this.amend(accountIdIn, req, false);
    });
    return result!;
  }

  /** POST order/chase_limit_order: moves the price to the best price of the order's own side. */
  chaseLimitOrder(accountIdIn: string, orderIdIn: string): VenueResult<ContractOrderView> {
    let result: VenueResult<ContractOrderView> | undefined;
    this.run(() => {
      const acct = this.accounts.get(accountIdIn);
      const o = acct ? this.orders.get(String(orderIdIn)) : undefined;
      if (acct === undefined || o === undefined || o.account !== acct) {
        result = this.refuse(ContractVenueCode.ORDER_NOT_EXIST, 'order not exist');
        return;
      }
      if (!this.isOpen(o) || !o.market.book.has(o.id)) {
        result = this.refuse(ContractVenueCode.ORDER_NOT_CANCELLABLE, 'order state does not allow changes');
        return;
      }
      const best = o.isBuy ? o.market.book.bestBid() : o.market.book.bestAsk();
      if (best === undefined || best === o.priceTicks) {
        result = { ok: true, value: this.orderView(o) };
        return;
      }
      result = this.amend(
        accountIdIn,
        { orderId: o.id, price: o.market.spec.ticksToPrice(best), vol: o.market.spec.lotsToVol(o.lots) },
        true,
      );
    });
    return result!;
  }

  cancelOrders(accountIdIn: string, orderIds: readonly (string | number)[]): CancelResultEntry[] {
    const out: CancelResultEntry[] = [];
    this.run(() => {
      const acct = this.accounts.get(accountIdIn);
      for (const raw of orderIds) {
        const id = String(raw);
        const o = this.orders.get(id);
        out.push(this.cancelOne(acct, o, id, 'user'));
      }
    });
    return out;
  }

  cancelWithExternal(accountIdIn: string, refs: readonly ExternalRef[]): CancelResultEntry[] {
    const out: CancelResultEntry[] = [];
    this.run(() => {
      const acct = this.accounts.get(accountIdIn);
      for (const ref of refs) {
        const o = acct ? this.findByExternal(acct, ref.symbol, ref.externalOid) : undefined;
        out.push(this.cancelOne(acct, o, o?.id ?? ref.externalOid, 'user'));
      }
    });
    return out;
  }

  /** POST order/cancel_all: one contract, or every contract when symbol is empty / omitted. */
  cancelAll(accountIdIn: string, symbol?: string): number {
    let n = 0;
    this.run(() => {
      const acct = this.accounts.get(accountIdIn);
      if (acct === undefined) return;
      for (const o of [...acct.openOrders.values()]) {
        if (symbol && o.market.spec.symbol !== symbol) continue;
        this.cancelInternal(o, 'cancel_all');
        n++;
      }
    });
    return n;
  }

  // ─────────────────────────────────────────────── positions

  changeMargin(accountIdIn: string, req: ChangeMarginRequest): VenueResult<ContractPositionView> {
    let result: VenueResult<ContractPositionView> | undefined;
    this.run(() => {
      result = this.doChangeMargin(accountIdIn, req.positionId, D(req.amount), req.type);
    });
    return result!;
  }

  changeAutoAddIm(accountIdIn: string, positionIdIn: string | number, isEnabled: boolean): VenueResult<ContractPositionView> {
    let result: VenueResult<ContractPositionView> | undefined;
    this.run(() => {
      const found = this.findPosition(accountIdIn, positionIdIn);
      if (found === undefined) {
        result = this.refuse(ContractVenueCode.POSITION_NOT_EXIST, 'position does not exist or is closed');
        return;
      }
      if (found.position.openType !== OpenType.ISOLATED) {
        result = this.refuse(ContractVenueCode.PARAMETER, 'automatic margin top-up applies to isolated positions only');
        return;
      }
      found.position.autoAddIm = isEnabled;
      found.position.updateTime = this.clock.now();
      this.emitPosition(found.account, found.position);
      result = { ok: true, value: this.positionView(found.account, found.position) };
    });
    return result!;
  }

  changeLeverage(accountIdIn: string, req: ChangeLeverageRequest): VenueResult<readonly LeverageView[]> {
    let result: VenueResult<readonly LeverageView[]> | undefined;
    this.run(() => {
      result = this.doChangeLeverage(accountIdIn, req);
    });
    return result!;
  }

  /** Succeeds only with no open orders and no open positions (contract-api.md §3). */
  changePositionMode(accountIdIn: string, mode: PositionMode): VenueResult<PositionMode> {
    if (mode !== PositionMode.HEDGED && mode !== PositionMode.ONE_WAY)
      return this.refuse(ContractVenueCode.PARAMETER, 'positionMode must be 1 or 2');
    let result: VenueResult<PositionMode> | undefined;
    this.run(() => {
      const acct = this.account(accountIdIn);
      if (acct.openOrders.size > 0) {
        result = this.refuse(ContractVenueCode.ACTIVE_OPEN_POSITION, 'active orders exist');
        return;
      }
      if (acct.positions.size > 0) {
        result = this.refuse(ContractVenueCode.ACTIVE_OPEN_POSITION, 'open positions exist');
        return;
      }
      if (this.triggers.hasPending(acct.id)) {
        result = this.refuse(ContractVenueCode.ACTIVE_OPEN_POSITION, 'plan or trailing orders exist');
        return;
      }
      if (acct.positionMode !== mode) {
        acct.positionMode = mode;
        // Settings are keyed per side in hedged mode and per contract in one-way mode; neither
        // carries over. With no position the risk tier is 1, which is the reset the doc asks for.
        acct.settings.clear();
        this.emit(() => ({ type: 'PositionModeChanged', time: this.clock.now(), accountId: acct.id, positionMode: mode }));
      }
      result = { ok: true, value: mode };
    });
    return result!;
  }

  /**
   * POST position/reverse: closes `vol` of the position at market and opens the same vol the other
   * way (hedged: two market orders; one-way: one market order of twice the vol).
   */
  reversePosition(accountIdIn: string, req: ReverseRequest): VenueResult<readonly ContractOrderView[]> {
    let result: VenueResult<readonly ContractOrderView[]> | undefined;
    this.run(() => {
      const found = this.findPosition(accountIdIn, req.positionId);
      if (found === undefined || found.position.spec.symbol !== req.symbol) {
        result = this.refuse(ContractVenueCode.POSITION_NOT_EXIST, 'position does not exist or is closed');
        return;
      }
      const { account: acct, position: pos } = found;
      const lots = parseLots(pos.spec, req.vol);
      if (lots === undefined || lots <= 0) {
        result = this.refuse(ContractVenueCode.PARAMETER, 'vol must be a positive multiple of volUnit');
        return;
      }
      if (lots > pos.availableLots) {
        result = this.refuse(
          ContractVenueCode.QUANTITY_INSUFFICIENT,
          'available position too small',
          ContractOrderErrorCode.POSITION_TOO_SMALL,
        );
        return;
      }
      const symbol = pos.spec.symbol;
      const vol = pos.spec.lotsToVol(lots);
      const base = { symbol, type: ContractOrderType.MARKET, openType: pos.openType, leverage: pos.leverage } as const;
      if (acct.positionMode === PositionMode.ONE_WAY) {
        const r = this.place(
          acct.id,
          { ...base, vol: pos.spec.lotsToVol(2 * lots), side: pos.isLong ? ContractSide.OPEN_SHORT : ContractSide.OPEN_LONG },
          OrderCategory.LIMIT,
        );
        result = r.ok ? { ok: true, value: [r.value] } : r;
        return;
      }
      const close = this.place(
        acct.id,
        { ...base, vol, side: pos.isLong ? ContractSide.CLOSE_LONG : ContractSide.CLOSE_SHORT },
        OrderCategory.LIMIT,
      );
      if (!close.ok) {
        result = close;
        return;
      }
      const open = this.place(
        acct.id,
        { ...base, vol, side: pos.isLong ? ContractSide.OPEN_SHORT : ContractSide.OPEN_LONG },
        OrderCategory.LIMIT,
      );
      result = open.ok ? { ok: true, value: [close.value, open.value] } : open;
    });
    return result!;
  }

  /** POST position/close_all: cancels each position's close orders and closes it at market. */
  closeAll(accountIdIn: string): ClosePositionResult[] {
    const out: ClosePositionResult[] = [];
    this.run(() => {
      const acct = this.accounts.get(accountIdIn);
      if (acct === undefined || acct.exempt) return;
      for (const pos of [...acct.positions.values()]) {
        if (pos.state !== PositionState.HOLDING || pos.holdLots === 0) continue;
        for (const o of [...acct.openOrders.values()]) if (o.reservedPosition === pos) this.cancelInternal(o, 'close_all');
        const side = pos.isLong ? ContractSide.CLOSE_LONG : ContractSide.CLOSE_SHORT;
        const r = this.place(
          acct.id,
          { symbol: pos.spec.symbol, vol: pos.spec.lotsToVol(pos.holdLots), side, type: ContractOrderType.MARKET, openType: pos.openType },
          OrderCategory.LIMIT,
        );
        out.push({ positionId: pos.positionId, result: r });
      }
    });
    return out;
  }

  // ─────────────────────────────────────────────── trigger orders (triggers/)

  /** POST stoporder/place: TP/SL on an open position. */
  placeStopOrder(accountIdIn: string, req: PlaceStopOrderRequest): VenueResult<StopOrderView> {
    return this.runValue(() => this.triggers.stops.place(accountIdIn, req));
  }

  /** POST stoporder/change_price: set, replace or (both prices empty / 0) cancel the TP/SL of a limit order. */
  changeStopPrice(accountIdIn: string, req: ChangeStopPriceRequest): VenueResult<StopOrderView | undefined> {
    return this.runValue(() => this.triggers.stops.changeStopPrice(accountIdIn, req));
  }

  /** POST stoporder/change_plan_price. */
  changeStopPlanPrice(accountIdIn: string, req: ChangeStopPlanPriceRequest): VenueResult<StopOrderView> {
    return this.runValue(() => this.triggers.stops.changePlanPrice(accountIdIn, req));
  }

  /** POST stoporder/cancel: per element 0, 2040 or 2041. */
  cancelStopOrders(accountIdIn: string, ids: readonly (string | number)[]): CancelResultEntry[] {
    return this.runValue(() => this.triggers.stops.cancel(accountIdIn, ids));
  }

  /** POST stoporder/cancel_all; answers how many were cancelled. */
  cancelAllStopOrders(accountIdIn: string, req: CancelAllStopOrdersRequest = {}): number {
    return this.runValue(() => this.triggers.stops.cancelAll(accountIdIn, req));
  }

  /** GET stoporder/list/orders, newest first. */
  stopOrders(accountIdIn: string, q: StopOrdersQuery = {}): Page<StopOrderView> {
    return this.triggers.stops.list(accountIdIn, q);
  }

  /** GET stoporder/open_orders: untriggered, newest first. */
  openStopOrders(accountIdIn: string, symbol?: string): StopOrderView[] {
    return this.triggers.stops.open(accountIdIn, symbol);
  }

  stopOrder(accountIdIn: string, id: string | number): StopOrderView | undefined {
    return this.triggers.stops.get(accountIdIn, id);
  }

  /**
   * The take-profit / stop-loss a limit order carries (attached at order/create or with
   * stoporder/change_price), in whatever state it is now; undefined when it carries none or it was
   * cancelled on purpose. Order records show its prices and price types.
   */
  orderTpSl(accountIdIn: string, orderId: string): StopOrderView | undefined {
    return this.triggers.stops.carried(accountIdIn, orderId);
  }

  /** POST planorder/place, place/v2 (executeCycle in hours). */
  placePlanOrder(accountIdIn: string, req: PlacePlanOrderRequest): VenueResult<PlanOrderView> {
    return this.runValue(() => this.triggers.plans.place(accountIdIn, req));
  }

  /** POST planorder/change_stop_order: the TP/SL a plan order's order will carry. */
  changePlanStopOrder(accountIdIn: string, req: ChangePlanStopOrderRequest): VenueResult<PlanOrderView> {
    return this.runValue(() => this.triggers.plans.changeStopOrder(accountIdIn, req));
  }

  /** POST planorder/cancel: per element 0, 2040 or 2041. */
  cancelPlanOrders(accountIdIn: string, refs: readonly PlanOrderRef[]): CancelResultEntry[] {
    return this.runValue(() => this.triggers.plans.cancel(accountIdIn, refs));
  }

  /** POST planorder/cancel_all: one contract, or all when symbol is empty / omitted. */
  cancelAllPlanOrders(accountIdIn: string, symbol?: string): number {
    return this.runValue(() => this.triggers.plans.cancelAll(accountIdIn, symbol || undefined));
  }

  /** GET planorder/list/orders, newest first. */
  planOrders(accountIdIn: string, q: PlanOrdersQuery = {}): Page<PlanOrderView> {
    return this.triggers.plans.list(accountIdIn, q);
  }

  planOrder(accountIdIn: string, id: string | number): PlanOrderView | undefined {
    return this.triggers.plans.get(accountIdIn, id);
  }

  /** POST trackorder/place. */
  placeTrackOrder(accountIdIn: string, req: PlaceTrackOrderRequest): VenueResult<TrackOrderView> {
    return this.runValue(() => this.triggers.tracks.place(accountIdIn, req));
  }

  /** POST trackorder/change_order. */
  changeTrackOrder(accountIdIn: string, req: ChangeTrackOrderRequest): VenueResult<TrackOrderView> {
    return this.runValue(() => this.triggers.tracks.change(accountIdIn, req));
  }

  /** POST trackorder/cancel: one by id, or every live one of a contract / the account; answers how many. */
  cancelTrackOrders(accountIdIn: string, req: CancelTrackOrdersRequest = {}): VenueResult<number> {
    return this.runValue(() => this.triggers.tracks.cancel(accountIdIn, req));
  }

  /** GET trackorder/list/orders, newest first. */
  trackOrders(accountIdIn: string, q: TrackOrdersQuery = {}): Page<TrackOrderView> {
    return this.triggers.tracks.list(accountIdIn, q);
  }

  trackOrder(accountIdIn: string, id: string | number): TrackOrderView | undefined {
    return this.triggers.tracks.get(accountIdIn, id);
  }

  // ─────────────────────────────────────────────── queries

  instruments(): readonly ContractInstrument[] {
    return [...this.markets.values()].map((m) => m.spec.instrument);
  }

  instrument(symbol: string): ContractInstrument | undefined {
    return this.markets.get(symbol)?.spec.instrument;
  }

  riskTiers(symbol: string): readonly RiskTier[] {
    return this.requireMarket(symbol).spec.tiers;
  }

  getOrder(accountIdIn: string, orderIdIn: string | number): ContractOrderView | undefined {
    const o = this.orders.get(String(orderIdIn));
    return o !== undefined && o.account.id === accountIdIn ? this.orderView(o) : undefined;
  }

  /** getOrder's id, state, lots and time, read from its view. */
  orderTicks(accountIdIn: string, orderIdIn: string): PlacedOrderTicks | undefined {
    const v = this.getOrder(accountIdIn, orderIdIn);
    const spec = v === undefined ? undefined : this.markets.get(v.symbol)?.spec;
    if (v === undefined || spec === undefined) return undefined;
    const lotsOf = (vol: Decimal): number => vol.div(spec.lot).toNumber();
    return { orderId: v.orderId, state: v.state, lots: lotsOf(v.vol), dealLots: lotsOf(v.dealVol), createTime: v.createTime };
  }

  getOrders(accountIdIn: string, orderIds: readonly (string | number)[]): ContractOrderView[] {
    const out: ContractOrderView[] = [];
    for (const id of orderIds) {
      const v = this.getOrder(accountIdIn, id);
      if (v) out.push(v);
    }
    return out;
  }

  getOrderByExternalOid(accountIdIn: string, symbol: string, externalOid: string): ContractOrderView | undefined {
    const acct = this.accounts.get(accountIdIn);
    const o = acct ? this.findByExternal(acct, symbol, externalOid) : undefined;
    return o ? this.orderView(o) : undefined;
  }

  /** Open orders, newest first. */
  openOrders(accountIdIn: string, q: PageQuery & { symbol?: string | undefined } = {}): Page<ContractOrderView> {
    const acct = this.accounts.get(accountIdIn);
    const list = acct ? [...acct.openOrders.values()].filter((o) => !q.symbol || o.market.spec.symbol === q.symbol).reverse() : [];
    return paginate(list, q, (o) => this.orderView(o));
  }

  /** Final orders (completed, cancelled, invalid), newest first. */
  historyOrders(accountIdIn: string, q: HistoryOrdersQuery = {}): Page<ContractOrderView> {
    const acct = this.accounts.get(accountIdIn);
    const list: OrderState[] = [];
    if (acct) {
      for (let i = acct.history.length - 1; i >= 0; i--) {
        const o = acct.history[i]!;
        if (q.symbol && o.market.spec.symbol !== q.symbol) continue;
        if (q.states && q.states.length > 0 && !q.states.includes(o.state)) continue;
        if (q.category !== undefined && o.category !== q.category) continue;
        if (q.side !== undefined && o.side !== q.side) continue;
        if (q.startTime !== undefined && o.createTime < q.startTime) continue;
        if (q.endTime !== undefined && o.createTime > q.endTime) continue;
        list.push(o);
      }
    }
    return paginate(list, q, (o) => this.orderView(o));
  }

  openPositions(
    accountIdIn: string,
    q: { symbol?: string | undefined; positionId?: string | number | undefined } = {},
  ): ContractPositionView[] {
    const acct = this.accounts.get(accountIdIn);
    if (acct === undefined) return [];
    const out: ContractPositionView[] = [];
    for (const p of acct.positions.values()) {
      if (q.symbol && p.spec.symbol !== q.symbol) continue;
      if (q.positionId !== undefined && p.positionId !== String(q.positionId)) continue;
      out.push(this.positionView(acct, p));
    }
    return out;
  }

  historyPositions(accountIdIn: string, q: HistoryPositionsQuery = {}): Page<ContractPositionView> {
    const acct = this.accounts.get(accountIdIn);
    const list = acct
      ? newestMatching(
          acct.historyPositions,
          (p) =>
            (!q.symbol || p.spec.symbol === q.symbol) &&
            (q.positionType === undefined || p.positionType === q.positionType) &&
            inWindow(p.updateTime, q),
        )
      : [];
    return paginate(list, q, (p) => this.positionView(acct!, p));
  }

  fundingRecords(accountIdIn: string, q: FundingRecordsQuery = {}): Page<FundingRecordView> {
    const acct = this.accounts.get(accountIdIn);
    const list = acct
      ? newestMatching(
          acct.fundingRecords,
          (r) =>
            (!q.symbol || r.symbol === q.symbol) &&
            (q.positionId === undefined || r.positionId === String(q.positionId)) &&
            (q.positionType === undefined || r.positionType === q.positionType) &&
            inWindow(r.settleTime, q),
        )
      : [];
    return paginate(list, q, (r) => r);
  }

  /** The account's side of each trade, newest first (fee_details). */
  fills(accountIdIn: string, q: FillsQuery = {}): Page<ContractFillView> {
    const acct = this.accounts.get(accountIdIn);
    const list = acct
      ? newestMatching(
          acct.fills,
          (f) =>
            (!q.symbol || f.symbol === q.symbol) && (q.orderId === undefined || f.orderId === String(q.orderId)) && inWindow(f.time, q),
        )
      : [];
    return paginate(list, q, (f) => this.fillView(acct!, f));
  }

  transferRecords(accountIdIn: string, q: TransferRecordsQuery = {}): Page<TransferRecordView> {
    const acct = this.accounts.get(accountIdIn);
    const list = acct
      ? [...acct.transfers].reverse().filter((t) => (!q.currency || t.currency === q.currency) && (!q.type || t.type === q.type))
      : [];
    return paginate(list, q, (t) => t);
  }

  assets(accountIdIn: string): ContractAssetView[] {
    const acct = this.accounts.get(accountIdIn);
    if (acct === undefined) return [];
    return [...acct.wallets.values()].map((w) => this.assetView(acct, w));
  }

  /** The account's asset in one currency (zeros when it never held any); undefined for an unknown account. */
  asset(accountIdIn: string, currency: string): ContractAssetView | undefined {
    const acct = this.accounts.get(accountIdIn);
    if (acct === undefined) return undefined;
    return this.assetView(acct, acct.wallets.get(currency) ?? { currency, free: ZERO, frozen: ZERO });
  }

  positionMode(accountIdIn: string): PositionMode {
    return this.accounts.get(accountIdIn)?.positionMode ?? this.defaultPositionMode;
  }

  /** GET position/leverage: one row per position side with its tier, leverage and open type. */
  leverage(accountIdIn: string, symbol: string): LeverageView[] {
    const m = this.requireMarket(symbol);
    const acct = this.accounts.get(accountIdIn);
    return [PositionType.LONG, PositionType.SHORT].map((pt) => this.leverageRow(acct, m, pt));
  }

  /** GET account/risk_limit: per symbol (all when omitted). */
  riskLimits(accountIdIn: string, symbol?: string): Record<string, RiskLimitView[]> {
    const out: Record<string, RiskLimitView[]> = {};
    const acct = this.accounts.get(accountIdIn);
    for (const m of this.markets.values()) {
      if (symbol && m.spec.symbol !== symbol) continue;
      out[m.spec.symbol] = [PositionType.LONG, PositionType.SHORT].map((pt) => ({
        symbol: m.spec.symbol,
        ...this.leverageRow(acct, m, pt),
      }));
    }
    return out;
  }

  openOrderCount(accountIdIn: string, symbol?: string): OpenOrderCountView {
    const acct = this.accounts.get(accountIdIn);
    let n = 0;
    if (acct) for (const o of acct.openOrders.values()) if (!symbol || o.market.spec.symbol === symbol) n++;
    const t = this.triggers.counts(accountIdIn, symbol);
    return {
      sumCount: n + t.stop + t.plan + t.track,
      limitOrderCount: n,
      stopOrderCount: t.stop,
      planOrderCount: t.plan,
      trackOrderCount: t.track,
    };
  }

  depth(symbol: string, limit = 20): ContractDepthView {
    const m = this.requireMarket(symbol);
    const conv = (side: BookSide) =>
      m.book.depth(side, limit).map(([t, l, n]) => [m.spec.ticksToPrice(t), m.spec.lotsToVol(l), n] as const);
    return { asks: conv('SELL'), bids: conv('BUY'), version: m.version, timestamp: this.clock.now() };
  }

  bestBid(symbol: string): Decimal | undefined {
    const m = this.requireMarket(symbol);
    const t = m.book.bestBid();
    return t === undefined ? undefined : m.spec.ticksToPrice(t);
  }

  bestAsk(symbol: string): Decimal | undefined {
    const m = this.requireMarket(symbol);
    const t = m.book.bestAsk();
    return t === undefined ? undefined : m.spec.ticksToPrice(t);
  }

  fairPrice(symbol: string): Decimal | undefined {
    return this.requireMarket(symbol).fairPrice;
  }

  indexPrice(symbol: string): Decimal | undefined {
    return this.requireMarket(symbol).indexPrice;
  }

  lastPrice(symbol: string): Decimal | undefined {
    const m = this.requireMarket(symbol);
    return m.lastTicks === undefined ? undefined : m.spec.ticksToPrice(m.lastTicks);
  }

  fundingRate(symbol: string): FundingRateView {
    const m = this.requireMarket(symbol);
    return {
      symbol: m.spec.symbol,
      fundingRate: m.fundingRate,
      maxFundingRate: m.maxFundingRate,
      minFundingRate: m.minFundingRate,
      collectCycle: m.collectCycleHours,
      nextSettleTime: m.nextFundingAt,
      timestamp: this.clock.now(),
    };
  }

  /** Past settlements, newest first. */
  fundingHistory(symbol: string, q: PageQuery = {}): Page<FundingHistoryView> {
    const m = this.requireMarket(symbol);
    return paginate([...m.fundingHistory].reverse(), q, (h) => h);
  }

  insuranceFund(currency: string): InsuranceFundView {
    return { currency, available: this.insurance.wallets.get(currency)?.free ?? ZERO, timestamp: this.clock.now() };
  }

  /** Positions the insurance fund took over. */
  insurancePositions(): ContractPositionView[] {
    return [...this.insurance.positions.values()].map((p) => this.positionView(this.insurance, p));
  }

  /** Open interest in contracts (Σ long holdVol, which equals Σ short holdVol). */
  openInterest(symbol: string): Decimal {
    const m = this.requireMarket(symbol);
    let lots = 0;
    for (const a of m.holders) {
      const p = a.positions.get(posKey(m.spec.symbol, PositionType.LONG));
      if (p) lots += p.holdLots;
    }
    return m.spec.lotsToVol(lots);
  }

  feeIncomeOf(currency: string): Decimal {
    return this.feeIncome.get(currency) ?? ZERO;
  }

  /** Fills booked with a margin shortfall (diagnostics; 0 in a healthy run). */
  shortfallCount(): number {
    return this.shortfalls;
  }

  /** The invariant list (empty when consistent): no crossed book, funds conserved, … */
  checkInvariants(): string[] {
    return [...checkContractInvariants(this.probe()), ...this.triggers.checkInvariants()];
  }

  // ─────────────────────────────────────────────── placement internals

  private place(accountIdIn: string, req: PlaceOrderRequest, category: OrderCategory): VenueResult<ContractOrderView> {
    const now = this.clock.now();
    const m = this.markets.get(req.symbol);
    if (m === undefined) return this.reject(accountIdIn, ContractVenueCode.CONTRACT_NOT_EXIST, 'contract does not exist');
    const spec = m.spec;
    const inst = spec.instrument;
    if (inst.state !== ContractState.ENABLED || (this.enforceApiAllowed && !inst.apiAllowed)) {
      return this.reject(accountIdIn, ContractVenueCode.CONTRACT_NOT_ACTIVATED, 'contract not allowed to place orders');
    }
    if (accountIdIn === INSURANCE_ACCOUNT_ID) return this.reject(accountIdIn, ContractVenueCode.PARAMETER, 'reserved account');
    const acct = this.account(accountIdIn);

    // ── parameter checks: refused without an order record
    const mode = acct.positionMode;
    const checked = validateOrderRequest(req, spec, mode, this.enforcePriceBand ? priceBand(spec, m.fairPrice) : undefined);
    if (!checked.ok) return this.reject(acct.id, checked.code, checked.message);
    const { type, lots, isBuy, closing, positionType, stpMode, reduceOnly, priceTicks, displayPrice } = checked.value;
    if (req.externalOid !== undefined && req.externalOid !== '' && acct.openByExternal.has(extKey(spec.symbol, req.externalOid))) {
      return this.reject(acct.id, ContractVenueCode.PARAMETER, 'externalOid already used by an open order');
    }
    const oneWay = mode === PositionMode.ONE_WAY;
    // Only orders that can rest count against the limit (IOC, FOK and market orders never stay open).
    if (category === OrderCategory.LIMIT && RESTING.has(type) && this.openCount(acct, spec.symbol) >= spec.maxNumOrders(oneWay)) {
      return this.reject(
        acct.id,
        ContractVenueCode.PARAMETER,
        `at most ${spec.maxNumOrders(oneWay)} open orders per contract in this position mode`,
      );
    }
    const key = sideKey(mode, spec.symbol, positionType);

    let leverage: number;
    let openType: OpenType = req.openType;
    const target = acct.positions.get(posKey(spec.symbol, positionType));
    if (closing) {
      leverage = target?.leverage ?? req.leverage ?? 0;
      if (target) openType = target.openType;
    } else {
      const existing = oneWay ? this.netPosition(acct, spec.symbol) : target;
      const setting = acct.settings.get(key);
      const busy = existing !== undefined || this.hasOpeningOrders(acct, spec.symbol, key);
      const lev = req.leverage ?? existing?.leverage ?? setting?.leverage;
      if (lev === undefined) return this.reject(acct.id, ContractVenueCode.PARAMETER, 'leverage is required when opening');
      if (!Number.isInteger(lev) || lev < inst.minLeverage || lev > inst.maxLeverage) {
        return this.reject(
          acct.id,
          ContractVenueCode.LEVERAGE_ERROR,
          `leverage must be an integer within [${inst.minLeverage}, ${inst.maxLeverage}]`,
        );
      }
      if (busy) {
        const sideLev = existing?.leverage ?? setting?.leverage;
        const sideOpen = existing?.openType ?? setting?.openType;
        if (sideLev !== undefined && lev !== sideLev)
          return this.reject(
            acct.id,
            ContractVenueCode.LEVERAGE_INCONSISTENT,
            `leverage ${lev} differs from the position side's leverage ${sideLev}`,
          );
        if (sideOpen !== undefined && req.openType !== sideOpen)
          return this.reject(acct.id, ContractVenueCode.WRONG_OPEN_TYPE, 'open type differs from the position side');
      }
      leverage = lev;
    }

    // ── order-level checks: refused with an invalid (state 5) record
    const draft = this.newOrder(
      acct,
      m,
      req,
      category,
      type,
      closing,
      leverage,
      openType,
      priceTicks,
      displayPrice,
      lots,
      stpMode,
      reduceOnly,
      now,
    );
    if (closing) {
      if (target === undefined) return this.invalid(draft, ContractOrderErrorCode.POSITION_NOT_EXIST, 'position does not exist');
      if (
        req.positionId !== undefined &&
        req.positionId !== '' &&
        String(req.positionId) !== '0' &&
        String(req.positionId) !== target.positionId
      ) {
        return this.invalid(draft, ContractOrderErrorCode.POSITION_NOT_EXIST, 'positionId does not match the position');
      }
      if (lots > target.availableLots)
        return this.invalid(draft, ContractOrderErrorCode.POSITION_TOO_SMALL, 'available position too small');
      if (target.openType === OpenType.ISOLATED && priceTicks > 0) {
        const liq = liquidationPrice(target.figures(), this.tierOf(spec, target.holdLots).mmr);
        if (liq !== undefined && (target.isLong ? displayPrice.lt(liq) : displayPrice.gt(liq))) {
          return this.invalid(draft, ContractOrderErrorCode.PRICE_BEYOND_LIQUIDATION, 'close price beyond the liquidation price');
        }
      }
    } else {
      const sizeLots = (target?.holdLots ?? 0) + this.pendingOpenLots(acct, spec.symbol, positionType) + lots;
      const tier = tierForVol(spec.tiers, spec.lotsToVol(sizeLots));
      if (tier === undefined || leverage > tier.maxLeverage)
        return this.invalid(draft, ContractOrderErrorCode.RISK_LIMIT_EXCEEDED, 'risk limit exceeded for this leverage and size');
    }

    // Limit price for matching.
    const book = m.book;
    let limitTicks: number | undefined = priceTicks > 0 ? priceTicks : undefined;
    if (type === ContractOrderType.MARKET) {
      const band = priceBand(m.spec, m.fairPrice);
      limitTicks = band ? (isBuy ? band.maxBuy : band.minSell) : undefined;
    } else if (type === ContractOrderType.MARKET_TO_LIMIT) {
      const opp = isBuy ? book.bestAsk() : book.bestBid();
      const ref = opp ?? this.referenceTicks(m);
      if (ref === undefined)
        return this.invalid(draft, ContractOrderErrorCode.PARAMETER, 'no current price to convert the market order to');
      limitTicks = ref;
      draft.priceTicks = ref;
      draft.displayPrice = spec.ticksToPrice(ref);
    }
    const stp = this.stpCheck(acct, stpMode);
    if (type === ContractOrderType.POST_ONLY && book.wouldCross(draft.bookSide, priceTicks)) {
      return this.invalid(draft, ContractOrderErrorCode.PARAMETER, 'post only order would take liquidity');
    }
    const takes =
      type !== ContractOrderType.POST_ONLY &&
      (limitTicks === undefined ? (isBuy ? book.bestAsk() : book.bestBid()) !== undefined : book.wouldCross(draft.bookSide, limitTicks));
    const preview = takes ? book.previewMatch(draft.bookSide, { limitTicks, lots }, stp) : { lots: 0, quote: 0 };
    const fokUnfilled = type === ContractOrderType.FOK && preview.lots < lots;

    if (!closing && !fokUnfilled) {
      const rates = this.rates(acct, spec);
      const restLots = RESTING.has(type) ? lots - preview.lots : 0;
      const need = this.takerReserve(spec, preview.quote, leverage, rates.taker).add(
        this.restingReserve(spec, draft.priceTicks, restLots, leverage, rates),
      );
      if (need.gt(this.availableOpen(acct, spec.settleCoin)))
        return this.invalid(draft, ContractOrderErrorCode.INSUFFICIENT_BALANCE, 'insufficient balance');
      const fair = m.fairPrice;
      const opposite = oneWay ? acct.positions.get(posKey(spec.symbol, opposite_(positionType))) : undefined;
      if (openType === OpenType.ISOLATED && fair !== undefined && opposite === undefined) {
        const units = BigInt(preview.quote) + BigInt(draft.priceTicks) * BigInt(restLots);
        const addLots = preview.lots + restLots;
        if (addLots > 0) {
          const holdLots = (target?.holdLots ?? 0) + addLots;
          const costValue = spec.money((target?.holdCost ?? 0n) + units);
          const im = (target?.im ?? ZERO).add(initialMargin(spec.money(units), leverage, this.scale, 'floor'));
          const liq = liquidationPrice({ positionType, qty: spec.lotQty.mul(holdLots), costValue, im }, this.tierOf(spec, holdLots).mmr);
          if (liq !== undefined && (positionType === PositionType.LONG ? liq.gte(fair) : liq.lte(fair))) {
            return this.invalid(
              draft,
              ContractOrderErrorCode.LIQUIDATION_BEYOND_FAIR,
              'the position would be liquidated at the current fair price',
            );
          }
        }
      }
    }

    // ── accepted
    this.admit(draft);
    if (!closing) acct.settings.set(key, { leverage, openType });
    if (closing) this.reserveClose(draft, target!);
    this.emit(() => ({ type: 'OrderAccepted', time: now, order: this.orderView(draft) }));
    if (fokUnfilled) {
      this.cancelInternal(draft, 'fok_unfilled');
      return { ok: true, value: this.orderView(draft) };
    }
    this.execute(draft, takes ? limitTicks : null, stp);
    return { ok: true, value: this.orderView(draft) };
  }

  /**
   * Matches an admitted order as taker (limitTicks null = does not take), then rests or cancels the
   * remainder by type. Margin has been checked by the caller.
   */
  private execute(o: OrderState, limitTicks: number | undefined | null, stp: SelfTradeCheck<OrderState>): void {
    const m = o.market;
    let stopped = false;
    const touched = new Set<AccountState>([o.account]);
    if (limitTicks !== null) {
      const res = m.book.match(o.bookSide, { limitTicks, lots: o.lots - o.dealLots }, stp);
      if (res.fills.length > 0 || res.stpCancelled.length > 0) m.version++;
      for (const mk of res.stpCancelled) this.cancelInternal(mk.data, 'stp_maker', true);
      for (const f of res.fills) {
        touched.add(f.maker.data.account);
        this.trade(o, f.maker, f.priceTicks, f.lots);
      }
      stopped = res.takerStopped;
      for (const a of touched) if (a.positionMode === PositionMode.ONE_WAY) this.trimReduceOnly(a, m);
    }
    if (this.isOpen(o)) {
      const remaining = o.lots - o.dealLots;
      if (remaining === 0) this.complete(o);
      else if (stopped) this.cancelInternal(o, 'stp_taker');
      else if (RESTING.has(o.type)) this.rest(o);
      else
        this.cancelInternal(
          o,
          o.type === ContractOrderType.MARKET ? 'market_remainder' : o.type === ContractOrderType.FOK ? 'fok_unfilled' : 'ioc_remainder',
        );
    }
    // Without a fair price the mark is the last trade, which just moved for every holder.
    this.checkLiquidations(m, m.fairPrice === undefined ? undefined : touched);
  }

  private rest(o: OrderState): void {
    const remaining = o.lots - o.dealLots;
    if (!o.closing) {
      const w = o.account.wallet(o.market.spec.settleCoin);
      const need = this.orderMargin(o, remaining);
      w.free = w.free.sub(need);
      w.frozen = w.frozen.add(need);
      o.frozen = need;
      if (w.free.lt(0)) this.coverShortfall(o.account, w, undefined, undefined);
    }
    o.market.book.add(o.id, o.bookSide, o.priceTicks, remaining, o.account.id, o);
    o.market.version++;
  }

  /** One trade between the taker and a maker the book has already matched. */
  private trade(taker: OrderState, makerBook: BookOrder<OrderState>, priceTicks: number, lots: number): void {
    const maker = makerBook.data;
    const m = taker.market;
    const now = this.clock.now();
    const tradeId = toTradeId(++this.tradeSeq);
    const makerFx = this.applyFill(maker, priceTicks, lots, true, tradeId);
    const takerFx = this.applyFill(taker, priceTicks, lots, false, tradeId);
    if (m.lastTicks !== priceTicks) {
      m.lastTicks = priceTicks;
      m.lastPrice = m.spec.ticksToPrice(priceTicks);
    }
    const openFlag =
      makerFx.openLots === lots && takerFx.openLots === lots
        ? DealOpenFlag.BOTH_OPEN
        : makerFx.closeLots === lots && takerFx.closeLots === lots
          ? DealOpenFlag.NEITHER_OPENS
          : DealOpenFlag.OTHER;
    const self = this.sameGroup(taker.account.id, maker.account.id);
    this.emit(() => {
      const trade: ContractTradeView = {
        tradeId,
        symbol: m.spec.symbol,
        price: m.spec.ticksToPrice(priceTicks),
        priceTicks,
        vol: m.spec.lotsToVol(lots),
        lots,
        time: now,
        takerSide: taker.isBuy ? DealSide.BUY : DealSide.SELL,
        openFlag,
        selfTrade: self,
        takerAccountId: taker.account.id,
        makerAccountId: maker.account.id,
        takerOrderId: taker.id,
        makerOrderId: maker.id,
      };
      return { type: 'TradeExecuted', time: now, trade };
    });
    if (this.watchers.length > 0)
      this.queue.push({ kind: 'price', update: { symbol: m.spec.symbol, kind: 'last', price: m.lastPrice!, time: now } });
    if (maker.dealLots === maker.lots && this.isOpen(maker)) this.complete(maker);
  }

  /**
   * Books one fill of `order`: releases its reservation share, closes and/or opens position lots,
   * charges the fee. Returns how many lots closed and opened.
   */
  private applyFill(o: OrderState, priceTicks: number, lots: number, isMaker: boolean, tradeId: ReturnType<typeof toTradeId>): FillEffect {
    const acct = o.account;
    const m = o.market;
    const spec = m.spec;
    const now = this.clock.now();
    const w = acct.wallet(spec.settleCoin);
    const rates = this.rates(acct, spec);
    const notional = spec.money(BigInt(priceTicks) * BigInt(lots));
    const remainingBefore = o.lots - o.dealLots;

    if (o.frozen.gt(0)) {
      const after = remainingBefore - lots > 0 ? this.orderMargin(o, remainingBefore - lots) : ZERO;
      const release = o.frozen.sub(after);
      w.frozen = w.frozen.sub(release);
      w.free = w.free.add(release);
      o.frozen = after;
    }

    let closeLots = 0;
    let openLots = 0;
    let closePos: ContractPosition | undefined;
    if (o.closing) {
      const pos = o.reservedPosition!;
      pos.frozenLots -= lots;
      closeLots = Math.min(lots, pos.holdLots);
      if (closeLots > 0) closePos = pos;
      // Only a one-way fill in the same match can have taken the reserved lots (see trimReduceOnly).
      openLots = lots - closeLots;
    } else if (o.positionMode === PositionMode.HEDGED) {
      openLots = lots;
    } else {
      const opp = acct.positions.get(posKey(spec.symbol, o.isBuy ? PositionType.SHORT : PositionType.LONG));
      closeLots = opp ? Math.min(lots, opp.holdLots) : 0;
      if (closeLots > 0) closePos = opp;
      openLots = lots - closeLots;
    }

    const rate = isMaker ? rates.maker : rates.taker;
    const fee = notional.mul(rate);
    const touchedPositions: ContractPosition[] = [];
    let profit = ZERO;
    let bookedIm = ZERO;
    let openPos: ContractPosition | undefined;

    if (closePos !== undefined && closeLots > 0) {
      const released = closePos.releaseMargin(closeLots, this.scale);
      const units = closePos.close(closeLots, priceTicks);
      const realised = spec.money(units);
      let pool = released.add(realised);
      if (pool.lt(0) && closePos.openType === OpenType.ISOLATED) {
        // An isolated position's loss stops at its margin; the fund takes the rest.
        this.insuranceWallet(spec.settleCoin).free = this.insuranceWallet(spec.settleCoin).free.add(pool);
        this.shortfalls++;
        pool = ZERO;
      }
      w.free = w.free.add(pool);
      closePos.closePnl = closePos.closePnl.add(realised);
      closePos.totalFee = closePos.totalFee.add(openLots === 0 ? fee : spec.money(BigInt(priceTicks) * BigInt(closeLots)).mul(rate));
      closePos.updateTime = now;
      profit = realised;
      o.profit = o.profit.add(realised);
      this.journal(closePos, 0, closeLots);
      touchedPositions.push(closePos);
    }
    if (openLots > 0) {
      const direction = o.isBuy ? PositionType.LONG : PositionType.SHORT;
      openPos = this.positionFor(acct, m, direction, o.openType, o.leverage);
      const openNotional = closeLots === 0 ? notional : spec.money(BigInt(priceTicks) * BigInt(openLots));
      const im = initialMargin(openNotional, openPos.leverage, this.scale, 'floor');
      w.free = w.free.sub(im);
      openPos.im = openPos.im.add(im);
      openPos.oim = openPos.oim.add(im);
      openPos.marginBooked = openPos.marginBooked.add(im);
      openPos.open(openLots, priceTicks);
      openPos.totalFee = openPos.totalFee.add(closeLots === 0 ? fee : openNotional.mul(rate));
      openPos.updateTime = now;
      bookedIm = im;
      o.usedMargin = o.usedMargin.add(im);
      this.journal(openPos, openLots, 0);
      touchedPositions.push(openPos);
    }
    w.free = w.free.sub(fee);
    this.addFeeIncome(spec.settleCoin, fee);
    if (isMaker) o.makerFee = o.makerFee.add(fee);
    else o.takerFee = o.takerFee.add(fee);
    if (w.free.lt(0)) this.coverShortfall(acct, w, openPos, bookedIm, o);

    o.dealLots += lots;
    o.dealCost += BigInt(priceTicks) * BigInt(lots);
    o.updateTime = now;
    o.positionId = (openPos ?? closePos)?.positionId ?? o.positionId;
    const fillRec: FillRecord = {
      tradeId,
      orderId: o.id,
      symbol: spec.symbol,
      side: o.side,
      priceTicks,
      lots,
      taker: !isMaker,
      fee,
      profit,
      closeLots,
      openLots,
      positionIds: touchedPositions.map((p) => p.positionId),
      time: now,
    };
    pushCapped(acct.fills, fillRec, this.accountHistoryLimit(acct));
    this.triggers.onFill(acct.id, o.id, openLots, openPos?.positionId);
    for (const p of touchedPositions) if (p.holdLots === 0) this.closePosition(acct, p);
    this.emit(() => ({ type: 'OrderFilled', time: now, order: this.orderView(o), fill: this.fillView(acct, fillRec) }));
    for (const p of touchedPositions) this.emitPosition(acct, p);
    return { openLots, closeLots };
  }

  /**
   * A wallet went below zero while booking (rounding, or a one-way order whose close leg lost more
   * than expected): take it back from the margin just booked, then from the insurance fund.
   */
  private coverShortfall(
    acct: AccountState,
    w: Wallet,
    pos: ContractPosition | undefined,
    bookedIm: Decimal | undefined,
    o?: OrderState,
  ): void {
    if (acct.exempt || !w.free.lt(0)) return;
    this.shortfalls++;
    let need = w.free.neg();
    if (pos && bookedIm && bookedIm.gt(0)) {
      const cut = Decimal.min(need, bookedIm, pos.im);
      pos.im = pos.im.sub(cut);
      pos.oim = Decimal.max(ZERO, pos.oim.sub(cut));
      if (o) o.usedMargin = o.usedMargin.sub(cut);
      w.free = w.free.add(cut);
      need = need.sub(cut);
    }
    if (need.gt(0)) {
      const ins = this.insuranceWallet(w.currency);
      ins.free = ins.free.sub(need);
      w.free = w.free.add(need);
    }
  }

  private amend(accountIdIn: string, req: ChangeLimitOrderRequest, chase: boolean): VenueResult<ContractOrderView> {
    const acct = this.accounts.get(accountIdIn);
    const o = acct ? this.orders.get(String(req.orderId)) : undefined;
    if (acct === undefined || o === undefined || o.account !== acct)
      return this.refuse(ContractVenueCode.ORDER_NOT_EXIST, 'order not exist');
    if (!this.isOpen(o) || !o.market.book.has(o.id))
      return this.refuse(ContractVenueCode.ORDER_NOT_CANCELLABLE, 'order state does not allow changes');
    if (!LIMIT_LIKE.has(o.type)) return this.refuse(ContractVenueCode.PARAMETER, 'only limit orders can be changed');
    const m = o.market;
    const spec = m.spec;
    const ticks = parseTicks(spec, req.price);
    if (ticks === undefined)
      return this.refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, 'price must be a positive multiple of priceUnit');
    const lots = parseLots(spec, req.vol);
    if (lots === undefined) return this.refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, 'vol is not a multiple of volUnit');
    if (lots <= o.dealLots || lots > spec.maxLots)
      return this.refuse(ContractVenueCode.PARAMETER, 'vol must exceed the filled vol and stay within maxVol');
    if (this.enforcePriceBand) {
      const band = priceBand(m.spec, m.fairPrice);
      if (band && (o.isBuy ? ticks > band.maxBuy : ticks < band.minSell))
        return this.refuse(ContractVenueCode.ORDER_PRICE_ERROR, 'price outside the allowed range of the fair price');
    }
    const oldRemaining = o.lots - o.dealLots;
    const newRemaining = lots - o.dealLots;
    const price = spec.ticksToPrice(ticks);
    if (o.closing) {
      const pos = o.reservedPosition!;
      if (newRemaining > pos.availableLots + oldRemaining)
        return this.refuse(
          ContractVenueCode.QUANTITY_INSUFFICIENT,
          'available position too small',
          ContractOrderErrorCode.POSITION_TOO_SMALL,
        );
      if (pos.openType === OpenType.ISOLATED) {
        const liq = liquidationPrice(pos.figures(), this.tierOf(spec, pos.holdLots).mmr);
        if (liq !== undefined && (pos.isLong ? price.lt(liq) : price.gt(liq))) {
          return this.refuse(
            ContractVenueCode.ORDER_PRICE_ERROR,
            'close price beyond the liquidation price',
            ContractOrderErrorCode.PRICE_BEYOND_LIQUIDATION,
          );
        }
      }
    } else {
      const direction = o.isBuy ? PositionType.LONG : PositionType.SHORT;
      const held = acct.positions.get(posKey(spec.symbol, direction))?.holdLots ?? 0;
      const size = held + this.pendingOpenLots(acct, spec.symbol, direction) - oldRemaining + newRemaining;
      const tier = tierForVol(spec.tiers, spec.lotsToVol(size));
      if (tier === undefined || o.leverage > tier.maxLeverage)
        return this.refuse(
          ContractVenueCode.RISK_LIMIT_LEVEL,
          'risk limit exceeded for this leverage and size',
          ContractOrderErrorCode.RISK_LIMIT_EXCEEDED,
        );
    }
    const book = m.book;
    const crosses = book.wouldCross(o.bookSide, ticks);
    if (crosses && o.type === ContractOrderType.POST_ONLY)
      return this.refuse(ContractVenueCode.PARAMETER, 'post only order would take liquidity');
    const stp = this.stpCheck(acct, o.stpMode);
    if (!o.closing) {
      // The preview walks the opposite side only, so the order's own resting copy does not interfere.
      const rates = this.rates(acct, spec);
      const preview = crosses ? book.previewMatch(o.bookSide, { limitTicks: ticks, lots: newRemaining }, stp) : { lots: 0, quote: 0 };
      const need = this.takerReserve(spec, preview.quote, o.leverage, rates.taker).add(
        this.restingReserve(spec, ticks, newRemaining - preview.lots, o.leverage, rates),
      );
      if (need.gt(this.availableOpen(acct, spec.settleCoin).add(o.frozen))) {
        return this.refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance', ContractOrderErrorCode.INSUFFICIENT_BALANCE);
      }
    }
    const now = this.clock.now();
    if (o.closing) o.reservedPosition!.frozenLots += newRemaining - oldRemaining;
    if (crosses) {
      book.cancel(o.id);
      this.unfreeze(o);
      o.lots = lots;
      o.priceTicks = ticks;
      o.displayPrice = price;
      o.updateTime = now;
      m.version++;
      this.emit(() => ({ type: 'OrderAmended', time: now, order: this.orderView(o), chase }));
      this.execute(o, ticks, stp);
    } else {
      book.amend(o.id, ticks, newRemaining);
      m.version++;
      this.unfreeze(o);
      o.lots = lots;
      o.priceTicks = ticks;
      o.displayPrice = price;
      o.updateTime = now;
      if (!o.closing) {
        const w = acct.wallet(spec.settleCoin);
        const need = this.orderMargin(o, newRemaining);
        w.free = w.free.sub(need);
        w.frozen = w.frozen.add(need);
        o.frozen = need;
      }
      this.emit(() => ({ type: 'OrderAmended', time: now, order: this.orderView(o), chase }));
    }
    return { ok: true, value: this.orderView(o) };
  }

  private cancelOne(acct: AccountState | undefined, o: OrderState | undefined, id: string, reason: CancelReason): CancelResultEntry {
    if (acct === undefined || o === undefined || o.account !== acct)
      return { orderId: id, errorCode: CancelErrorCode.NOT_EXIST, errorMsg: CANCEL_ERROR_MSG[CancelErrorCode.NOT_EXIST] };
    if (!this.isOpen(o))
      return { orderId: o.id, errorCode: CancelErrorCode.NOT_CANCELLABLE, errorMsg: CANCEL_ERROR_MSG[CancelErrorCode.NOT_CANCELLABLE] };
    this.cancelInternal(o, reason);
    return { orderId: o.id, errorCode: CancelErrorCode.OK, errorMsg: CANCEL_ERROR_MSG[CancelErrorCode.OK] };
  }

  /** Cancels an open order: off the book, margin and reserved position lots released. */
  private cancelInternal(o: OrderState, reason: CancelReason, alreadyOffBook = false): void {
    if (!this.isOpen(o)) return;
    if (!alreadyOffBook && o.market.book.cancel(o.id) !== undefined) o.market.version++;
    this.unfreeze(o);
    if (o.closing && o.reservedPosition) o.reservedPosition.frozenLots -= o.lots - o.dealLots;
    o.state = ContractOrderState.CANCELLED;
    o.cancelReason = reason;
    o.updateTime = this.clock.now();
    this.finalize(o);
    const now = o.updateTime;
    this.emit(() => ({ type: 'OrderCancelled', time: now, order: this.orderView(o), reason }));
  }

  private complete(o: OrderState): void {
    this.unfreeze(o);
    o.state = ContractOrderState.COMPLETED;
    o.updateTime = this.clock.now();
    this.finalize(o);
  }

  private unfreeze(o: OrderState): void {
    if (o.frozen.isZero()) return;
    const w = o.account.wallet(o.market.spec.settleCoin);
    w.frozen = w.frozen.sub(o.frozen);
    w.free = w.free.add(o.frozen);
    o.frozen = ZERO;
  }

  /** Final orders and fills kept for the account. */
  private accountHistoryLimit(acct: AccountState): number {
    return this.historyLimitOf?.(acct.id) ?? this.historyLimit;
  }

  private finalize(o: OrderState): void {
    const acct = o.account;
    acct.openOrders.delete(o.id);
    if (o.externalOid) {
      const k = extKey(o.market.spec.symbol, o.externalOid);
      if (acct.openByExternal.get(k) === o) acct.openByExternal.delete(k);
    }
    const dropped = pushCapped(acct.history, o, this.accountHistoryLimit(o.account));
    if (dropped) this.orders.delete(dropped.id);
    this.triggers.onOrderFinal(acct.id, o.id);
  }

  /**
   * One-way mode: a fill that reduced a position can leave its reduce-only orders reserving more
   * than is held. Trim the newest first (reduce, or cancel when nothing is left to reduce).
   */
  private trimReduceOnly(acct: AccountState, m: MarketState): void {
    const orders = [...acct.openOrders.values()].filter((o) => o.closing && o.market === m).reverse();
    for (const o of orders) {
      const pos = o.reservedPosition!;
      const excess = pos.frozenLots - pos.holdLots;
      if (excess <= 0 && pos.holdLots > 0) continue;
      const remaining = o.lots - o.dealLots;
      if (pos.holdLots === 0 || excess >= remaining) {
        this.cancelInternal(o, 'reduce_only_trimmed');
      } else {
        o.lots -= excess;
        pos.frozenLots -= excess;
        m.book.reduce(o.id, excess);
        m.version++;
        o.updateTime = this.clock.now();
        this.emit(() => ({ type: 'OrderAmended', time: o.updateTime, order: this.orderView(o), chase: false }));
      }
    }
  }

  private reserveClose(o: OrderState, pos: ContractPosition): void {
    o.reservedPosition = pos;
    o.positionId = pos.positionId;
    pos.frozenLots += o.lots;
  }

  private newOrder(
    acct: AccountState,
    m: MarketState,
    req: PlaceOrderRequest,
    category: OrderCategory,
    type: ContractOrderType,
    closing: boolean,
    leverage: number,
    openType: OpenType,
    priceTicks: number,
    displayPrice: Decimal,
    lots: number,
    stpMode: ContractStpMode,
    reduceOnly: boolean,
    now: number,
  ): OrderState {
    const seq = ++this.orderSeq;
    const isBuy = sideIsBuy(req.side);
    return {
      id: toOrderId(this.idBase + seq),
      seq,
      account: acct,
      market: m,
      side: req.side,
      type,
      category,
      openType,
      leverage,
      positionMode: acct.positionMode,
      reduceOnly,
      stpMode,
      externalOid: req.externalOid === '' ? undefined : req.externalOid,
      isBuy,
      bookSide: isBuy ? 'BUY' : 'SELL',
      closing,
      displayPrice,
      priceTicks,
      lots,
      dealLots: 0,
      dealCost: 0n,
      frozen: ZERO,
      reservedPosition: undefined,
      usedMargin: ZERO,
      takerFee: ZERO,
      makerFee: ZERO,
      profit: ZERO,
      state: ContractOrderState.PENDING,
      errorCode: ContractOrderErrorCode.NORMAL,
      positionId: undefined,
      createTime: now,
      updateTime: now,
      cancelReason: undefined,
    };
  }

  private admit(o: OrderState): void {
    o.state = ContractOrderState.UNCOMPLETED;
    this.orders.set(o.id, o);
    o.account.openOrders.set(o.id, o);
    if (o.externalOid) o.account.openByExternal.set(extKey(o.market.spec.symbol, o.externalOid), o);
  }

  /** Records an invalid (state 5) order and answers with the matching code. */
  private invalid(o: OrderState, errorCode: ContractOrderErrorCode, message: string): Rejected {
    o.state = ContractOrderState.INVALID;
    o.errorCode = errorCode;
    this.orders.set(o.id, o);
    const dropped = pushCapped(o.account.history, o, this.accountHistoryLimit(o.account));
    if (dropped) this.orders.delete(dropped.id);
    const code = CODE_OF_ORDER_ERROR[errorCode];
    const view = this.orderView(o);
    this.emit(() => ({ type: 'OrderRejected', time: o.createTime, accountId: o.account.id, code, errorCode, message, order: view }));
    return { ok: false, code, errorCode, message, order: view };
  }

  /** Refuses a request before any record exists (an order-rejected event when it was a placement). */
  private reject(accountIdIn: string, code: number, message: string): Rejected {
    const now = this.clock.now();
    this.emit(() => ({
      type: 'OrderRejected',
      time: now,
      accountId: toAccountId(accountIdIn),
      code,
      errorCode: ContractOrderErrorCode.PARAMETER,
      message,
      order: undefined,
    }));
    return { ok: false, code, errorCode: ContractOrderErrorCode.PARAMETER, message };
  }

  private refuse(code: number, message: string, errorCode: ContractOrderErrorCode = ContractOrderErrorCode.PARAMETER): Rejected {
    return { ok: false, code, errorCode, message };
  }

  // ─────────────────────────────────────────────── positions internals

  private positionFor(acct: AccountState, m: MarketState, type: PositionType, openType: OpenType, leverage: number): ContractPosition {
    const key = posKey(m.spec.symbol, type);
    let p = acct.positions.get(key);
    if (p === undefined) {
      const id = toPositionId(this.idBase + ++this.positionSeq);
      p = new ContractPosition(id, m.spec, type, acct.exempt ? OpenType.CROSS : openType, acct.exempt ? 1 : leverage, this.clock.now());
      acct.positions.set(key, p);
      this.positionsById.set(id, { account: acct, position: p });
      this.positionFills.set(id, { opened: 0, closed: 0 });
      m.holders.add(acct);
    }
    return p;
  }

  private closePosition(acct: AccountState, p: ContractPosition): void {
    if (p.state === PositionState.CLOSED) return;
    p.state = PositionState.CLOSED;
    // Anything left (the floor of pro-rata releases) goes back to the wallet with the last close.
    if (!p.im.isZero()) {
      const w = acct.wallet(p.spec.settleCoin);
      w.free = w.free.add(p.im);
      p.im = ZERO;
    }
    p.oim = ZERO;
    const key = posKey(p.spec.symbol, p.positionType);
    if (acct.positions.get(key) === p) acct.positions.delete(key);
    this.positionsById.delete(p.positionId);
    const m = this.markets.get(p.spec.symbol)!;
    if (!acct.positions.has(posKey(p.spec.symbol, PositionType.LONG)) && !acct.positions.has(posKey(p.spec.symbol, PositionType.SHORT)))
      m.holders.delete(acct);
    const dropped = pushCapped(acct.historyPositions, p, this.historyLimit);
    if (dropped) this.positionFills.delete(dropped.positionId);
    this.triggers.onPositionClosed(p.positionId);
  }

  private journal(p: ContractPosition, opened: number, closed: number): void {
    const j = this.positionFills.get(p.positionId)!;
    j.opened += opened;
    j.closed += closed;
  }

  private findPosition(
    accountIdIn: string,
    positionIdIn: string | number,
  ): { account: AccountState; position: ContractPosition } | undefined {
    const found = this.positionsById.get(String(positionIdIn));
    return found && found.account.id === accountIdIn ? found : undefined;
  }

  private netPosition(acct: AccountState, symbol: string): ContractPosition | undefined {
    return acct.positions.get(posKey(symbol, PositionType.LONG)) ?? acct.positions.get(posKey(symbol, PositionType.SHORT));
  }

  private doChangeMargin(
    accountIdIn: string,
    positionIdIn: string | number,
    amount: Decimal,
    type: MarginChangeType,
  ): VenueResult<ContractPositionView> {
    const found = this.findPosition(accountIdIn, positionIdIn);
    if (found === undefined) return this.refuse(ContractVenueCode.POSITION_NOT_EXIST, 'position does not exist or is closed');
    const { account: acct, position: pos } = found;
    if (!amount.gt(0)) return this.refuse(ContractVenueCode.PARAMETER, 'amount must be > 0');
    if (pos.openType !== OpenType.ISOLATED)
      return this.refuse(ContractVenueCode.PARAMETER, 'margin can be changed on isolated positions only');
    const w = acct.wallet(pos.spec.settleCoin);
    if (type === 'ADD') {
      if (amount.gt(this.availableOpen(acct, w.currency)))
        return this.refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance');
      w.free = w.free.sub(amount);
      pos.im = pos.im.add(amount);
    } else if (type === 'SUB') {
      if (amount.gt(this.maxRemovableMargin(pos)))
        return this.refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'amount exceeds the removable margin');
      pos.im = pos.im.sub(amount);
      w.free = w.free.add(amount);
    } else {
      return this.refuse(ContractVenueCode.PARAMETER, 'type must be ADD or SUB');
    }
    pos.updateTime = this.clock.now();
    this.emitPosition(acct, pos);
    return { ok: true, value: this.positionView(acct, pos) };
  }

  /** Margin above the initial requirement at the entry price, less any unrealised loss. */
  private maxRemovableMargin(pos: ContractPosition): Decimal {
    const m = this.markets.get(pos.spec.symbol)!;
    const mark = this.markPrice(m);
    const upnl = mark ? unrealisedPnl(pos.figures(), mark) : ZERO;
    const required = initialMargin(pos.costValue, pos.leverage, this.scale, 'ceil');
    return Decimal.max(ZERO, pos.im.add(Decimal.min(ZERO, upnl)).sub(required));
  }

  private doChangeLeverage(accountIdIn: string, req: ChangeLeverageRequest): VenueResult<readonly LeverageView[]> {
    const L = req.leverage;
    let acct: AccountState;
    let m: MarketState;
    let positionType: PositionType;
    let openType: OpenType | undefined;
    let pos: ContractPosition | undefined;
    if (req.positionId !== undefined && req.positionId !== '' && String(req.positionId) !== '0') {
      const found = this.findPosition(accountIdIn, req.positionId);
      if (found === undefined) return this.refuse(ContractVenueCode.POSITION_NOT_EXIST, 'position does not exist or is closed');
      acct = found.account;
      pos = found.position;
      m = this.markets.get(pos.spec.symbol)!;
      positionType = pos.positionType;
      openType = pos.openType;
    } else {
      if (!req.symbol || req.positionType === undefined || req.openType === undefined) {
        return this.refuse(ContractVenueCode.PARAMETER, 'symbol, openType and positionType are required when no position is given');
      }
      const mm = this.markets.get(req.symbol);
      if (mm === undefined) return this.refuse(ContractVenueCode.CONTRACT_NOT_EXIST, 'contract does not exist');
      if (req.positionType !== PositionType.LONG && req.positionType !== PositionType.SHORT)
        return this.refuse(ContractVenueCode.PARAMETER, 'positionType must be 1 or 2');
      if (req.openType !== OpenType.ISOLATED && req.openType !== OpenType.CROSS)
        return this.refuse(ContractVenueCode.PARAMETER, 'openType must be 1 or 2');
      m = mm;
      acct = this.account(accountIdIn);
      positionType = req.positionType;
      openType = req.openType;
      pos =
        acct.positionMode === PositionMode.ONE_WAY
          ? this.netPosition(acct, m.spec.symbol)
          : acct.positions.get(posKey(m.spec.symbol, positionType));
      if (pos && pos.openType !== openType)
        return this.refuse(ContractVenueCode.WRONG_OPEN_TYPE, 'open type differs from the open position');
    }
    const inst = m.spec.instrument;
    if (!Number.isInteger(L) || L < inst.minLeverage || L > inst.maxLeverage) {
      return this.refuse(ContractVenueCode.LEVERAGE_ERROR, `leverage must be an integer within [${inst.minLeverage}, ${inst.maxLeverage}]`);
    }
    const symbol = m.spec.symbol;
    const key = sideKey(acct.positionMode, symbol, positionType);
    const orders = [...acct.openOrders.values()].filter(
      (o) => !o.closing && o.market === m && sideKey(acct.positionMode, symbol, o.isBuy ? PositionType.LONG : PositionType.SHORT) === key,
    );
    if (orders.some((o) => o.openType !== openType))
      return this.refuse(ContractVenueCode.WRONG_OPEN_TYPE, 'open orders of this side use the other open type');
    const sizeLots = (pos?.holdLots ?? 0) + orders.reduce((s, o) => s + o.lots - o.dealLots, 0);
    const tier = tierForVol(m.spec.tiers, m.spec.lotsToVol(sizeLots));
    if (tier === undefined || L > tier.maxLeverage)
      return this.refuse(
        ContractVenueCode.RISK_LIMIT_LEVEL,
        'leverage above the risk tier of the position size',
        ContractOrderErrorCode.RISK_LIMIT_EXCEEDED,
      );
    const w = acct.wallet(m.spec.settleCoin);
    // Cost of the change: more position margin when lowering the leverage, re-priced order margin.
    const posTopUp = pos ? Decimal.max(ZERO, initialMargin(pos.costValue, L, this.scale, 'ceil').sub(pos.im)) : ZERO;
    let orderDelta = ZERO;
    const newFrozen = new Map<OrderState, Decimal>();
    for (const o of orders) {
      const f = this.orderMarginAt(o, o.lots - o.dealLots, L);
      newFrozen.set(o, f);
      orderDelta = orderDelta.add(f.sub(o.frozen));
    }
    if (posTopUp.add(orderDelta).gt(this.availableOpen(acct, w.currency)))
      return this.refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance for this leverage');
    const now = this.clock.now();
    if (pos) {
      w.free = w.free.sub(posTopUp);
      pos.im = pos.im.add(posTopUp);
      pos.oim = pos.oim.add(posTopUp);
      pos.leverage = L;
      pos.updateTime = now;
    }
    for (const o of orders) {
      const f = newFrozen.get(o)!;
      w.free = w.free.sub(f.sub(o.frozen));
      w.frozen = w.frozen.add(f.sub(o.frozen));
      o.frozen = f;
      o.leverage = L;
      o.updateTime = now;
    }
    const s: SideSettings = acct.settings.get(key) ?? { leverage: undefined, openType: undefined };
    s.leverage = L;
    s.openType = openType;
    acct.settings.set(key, s);
    if (pos) this.emitPosition(acct, pos);
    this.checkLiquidations(m, new Set([acct]));
    return { ok: true, value: this.leverage(acct.id, symbol) };
  }

  // ─────────────────────────────────────────────── funding

  private scheduleFunding(m: MarketState): void {
    m.fundingTimer = this.clock.setTimer(m.nextFundingAt, () => {
      m.fundingTimer = undefined;
      this.run(() => this.settleFundingOf(m));
      if (this.autoFunding) this.scheduleFunding(m);
    });
  }

  private settleFundingOf(m: MarketState): FundingRecordView[] {
    const now = this.clock.now();
    const spec = m.spec;
    const rate = m.fundingRate;
    const mark = this.markPrice(m);
    m.fundingHistory.push({ symbol: spec.symbol, fundingRate: rate, settleTime: now, collectCycle: m.collectCycleHours });
    if (m.fundingHistory.length > this.historyLimit) m.fundingHistory.shift();
    m.nextFundingAt = nextFundingTime(now, m.fundingIntervalMs);
    const records: FundingRecordView[] = [];
    if (mark === undefined || rate.isZero()) {
      this.emit(() => ({ type: 'FundingSettled', time: now, symbol: spec.symbol, rate, fairPrice: mark, records }));
      return records;
    }
    const touched: [AccountState, ContractPosition][] = [];
    for (const acct of [...m.holders]) {
      for (const pt of [PositionType.LONG, PositionType.SHORT]) {
        const pos = acct.positions.get(posKey(spec.symbol, pt));
        if (pos === undefined || pos.holdLots === 0) continue;
        const value = pos.qty.mul(mark);
        const f = positionFunding(pt, value, rate);
        if (f.isZero()) continue;
        const w = acct.wallet(spec.settleCoin);
        pos.holdFee = pos.holdFee.add(f);
        if (f.gt(0)) {
          if (pos.openType === OpenType.ISOLATED && !acct.exempt) pos.im = pos.im.add(f);
          else w.free = w.free.add(f);
        } else {
          const pay = f.neg();
          if (pos.openType === OpenType.ISOLATED && !acct.exempt) {
            const fromIm = Decimal.min(pay, pos.im);
            pos.im = pos.im.sub(fromIm);
            if (pay.gt(fromIm)) {
              const ins = this.insuranceWallet(spec.settleCoin);
              ins.free = ins.free.sub(pay.sub(fromIm));
            }
          } else {
            w.free = w.free.sub(pay);
            if (w.free.lt(0) && !acct.exempt) {
              const cut = Decimal.min(w.free.neg(), pos.im);
              pos.im = pos.im.sub(cut);
              w.free = w.free.add(cut);
              if (w.free.lt(0)) this.coverShortfall(acct, w, undefined, undefined);
            }
          }
        }
        pos.updateTime = now;
        const rec: FundingRecordView = {
          id: ++this.fundingSeq,
          accountId: acct.id,
          symbol: spec.symbol,
          positionId: pos.positionId,
          positionType: pt,
          positionValue: value,
          funding: f,
          rate,
          settleTime: now,
        };
        pushCapped(acct.fundingRecords, rec, this.historyLimit);
        records.push(rec);
        touched.push([acct, pos]);
      }
    }
    this.emit(() => ({ type: 'FundingSettled', time: now, symbol: spec.symbol, rate, fairPrice: mark, records }));
    for (const [a, p] of touched) this.emitPosition(a, p);
    this.checkLiquidations(m);
    return records;
  }

  // ─────────────────────────────────────────────── liquidation

  /** Checks isolated positions of `m` and the cross accounts holding it (or only `only`). */
  private checkLiquidations(m: MarketState, only?: ReadonlySet<AccountState>): void {
    const fair = this.markPrice(m);
    if (fair === undefined) return;
    const accounts = only ? [...only].filter((a) => m.holders.has(a)) : [...m.holders];
    for (const acct of accounts) {
      if (acct.exempt) continue;
      for (const pt of [PositionType.LONG, PositionType.SHORT]) {
        const pos = acct.positions.get(posKey(m.spec.symbol, pt));
        if (pos === undefined || pos.openType !== OpenType.ISOLATED || pos.holdLots === 0) continue;
        const mmr = this.tierOf(m.spec, pos.holdLots).mmr;
        if (!isBreached(pos.figures(), fair, mmr)) continue;
        if (pos.autoAddIm && this.autoAddMargin(acct, pos, fair) && !isBreached(pos.figures(), fair, mmr)) continue;
        this.liquidateIsolated(acct, m, pos, fair, mmr);
      }
      this.checkCross(acct, m.spec.settleCoin);
    }
  }

  private autoAddMargin(acct: AccountState, pos: ContractPosition, fair: Decimal): boolean {
    const w = acct.wallet(pos.spec.settleCoin);
    const add = autoAddAmount(pos, fair, this.availableOpen(acct, w.currency), this.scale);
    if (!add.gt(0)) return false;
    w.free = w.free.sub(add);
    pos.im = pos.im.add(add);
    pos.updateTime = this.clock.now();
    const view = this.positionView(acct, pos);
    this.emit(() => ({ type: 'MarginAutoAdded', time: pos.updateTime, position: view, amount: add }));
    return true;
  }

  private liquidateIsolated(acct: AccountState, m: MarketState, pos: ContractPosition, fair: Decimal, mmr: Decimal): void {
    const spec = m.spec;
    const now = this.clock.now();
    this.cancelOrdersOfPosition(acct, m, pos);
    const fig = pos.figures();
    const liq = liquidationPrice(fig, mmr);
    const bk = bankruptcyPrice(fig);
    const ticks = bankruptcyCloseTicks(pos);
    const lots = pos.holdLots;
    const released = pos.releaseMargin(lots, this.scale);
    const units = pos.close(lots, ticks);
    const realised = spec.money(units);
    pos.closePnl = pos.closePnl.add(realised);
    pos.updateTime = now;
    this.journal(pos, 0, lots);
    const pool = released.add(realised);
    const ins = this.insuranceWallet(spec.settleCoin);
    ins.free = ins.free.add(pool);
    const order = this.liquidationOrder(acct, m, pos, ticks, lots, realised, now);
    this.takeOver(m, pos.positionType, lots, ticks);
    this.closePosition(acct, pos);
    const draft: LiquidationDraft = {
      position: pos,
      fairPrice: fair,
      liquidationPrice: liq,
      bankruptcyPrice: bk,
      closeTicks: ticks,
      realised,
      lots,
      orderId: order.id,
      mm: ZERO,
      fee: Decimal.max(ZERO, pool),
      cover: Decimal.max(ZERO, pool.neg()),
    };
    this.emitLiquidation(acct, draft, now);
  }

  private crossOf(acct: AccountState, currency: string): CrossMargin {
    const w = acct.wallets.get(currency);
    const positions = [...acct.positions.values()].filter((p) => p.openType === OpenType.CROSS && p.spec.settleCoin === currency);
    return crossMargin(
      positions,
      w?.free ?? ZERO,
      w?.frozen ?? ZERO,
      (p) => this.markPrice(this.markets.get(p.spec.symbol)!) ?? p.holdAvgPrice(),
      (p) => this.tierOf(p.spec, p.holdLots).mmr,
    );
  }

  private checkCross(acct: AccountState, currency: string): void {
    if (isCrossBreached(this.crossOf(acct, currency))) this.liquidateCross(acct, currency);
  }

  private liquidateCross(acct: AccountState, currency: string): void {
    const now = this.clock.now();
    for (const o of [...acct.openOrders.values()]) if (o.market.spec.settleCoin === currency) this.cancelInternal(o, 'liquidation');
    const w = acct.wallet(currency);
    const drafts: LiquidationDraft[] = [];
    let mmTotal = ZERO;
    for (const pos of [...acct.positions.values()]) {
      if (pos.openType !== OpenType.CROSS || pos.spec.settleCoin !== currency) continue;
      const m = this.markets.get(pos.spec.symbol)!;
      const spec = m.spec;
      const mark = this.markPrice(m) ?? pos.holdAvgPrice();
      const mm = maintenanceMargin(pos.qty, mark, this.tierOf(spec, pos.holdLots).mmr);
      mmTotal = mmTotal.add(mm);
      const ticks = markCloseTicks(spec, mark);
      const lots = pos.holdLots;
      const released = pos.releaseMargin(lots, this.scale);
      const units = pos.close(lots, ticks);
      const realised = spec.money(units);
      pos.closePnl = pos.closePnl.add(realised);
      pos.updateTime = now;
      this.journal(pos, 0, lots);
      w.free = w.free.add(released).add(realised);
      const order = this.liquidationOrder(acct, m, pos, ticks, lots, realised, now);
      this.takeOver(m, pos.positionType, lots, ticks);
      this.closePosition(acct, pos);
      drafts.push({
        position: pos,
        fairPrice: mark,
        liquidationPrice: undefined,
        bankruptcyPrice: undefined,
        closeTicks: ticks,
        realised,
        lots,
        orderId: order.id,
        mm,
        fee: ZERO,
        cover: ZERO,
      });
    }
    const ins = this.insuranceWallet(currency);
    const { fee, cover } = crossSettlement(w.free, mmTotal);
    w.free = w.free.sub(fee).add(cover);
    ins.free = ins.free.add(fee).sub(cover);
    // The account-level fee / cover is reported per position, split by maintenance margin.
    const weights = drafts.map((d) => d.mm);
    const fees = splitByWeight(fee, weights, this.scale);
    const covers = splitByWeight(cover, weights, this.scale);
    drafts.forEach((d, i) => {
      d.fee = fees[i]!;
      d.cover = covers[i]!;
      this.emitLiquidation(acct, d, now);
    });
  }

  private cancelOrdersOfPosition(acct: AccountState, m: MarketState, pos: ContractPosition): void {
    const oneWay = acct.positionMode === PositionMode.ONE_WAY;
    for (const o of [...acct.openOrders.values()]) {
      if (o.market !== m) continue;
      const sameSide =
        oneWay || o.reservedPosition === pos || (!o.closing && (o.isBuy ? PositionType.LONG : PositionType.SHORT) === pos.positionType);
      if (sameSide) this.cancelInternal(o, 'liquidation');
    }
  }

  /** The insurance fund takes `lots` of a `type` position at `ticks` (netting against what it holds). */
  private takeOver(m: MarketState, type: PositionType, lots: number, ticks: number): void {
    const ins = this.insurance;
    const w = ins.wallet(m.spec.settleCoin);
    const opp = ins.positions.get(posKey(m.spec.symbol, opposite_(type)));
    let left = lots;
    const touched: ContractPosition[] = [];
    if (opp) {
      const n = Math.min(left, opp.holdLots);
      const units = opp.close(n, ticks);
      const realised = m.spec.money(units);
      w.free = w.free.add(realised);
      opp.closePnl = opp.closePnl.add(realised);
      opp.updateTime = this.clock.now();
      this.journal(opp, 0, n);
      touched.push(opp);
      left -= n;
    }
    if (left > 0) {
      const p = this.positionFor(ins, m, type, OpenType.CROSS, 1);
      p.open(left, ticks);
      p.updateTime = this.clock.now();
      this.journal(p, left, 0);
      touched.push(p);
    }
    for (const p of touched) {
      if (p.holdLots === 0) this.closePosition(ins, p);
      this.emitPosition(ins, p);
    }
  }

  private liquidationOrder(
    acct: AccountState,
    m: MarketState,
    pos: ContractPosition,
    ticks: number,
    lots: number,
    realised: Decimal,
    now: number,
  ): OrderState {
    const seq = ++this.orderSeq;
    const side = pos.isLong ? ContractSide.CLOSE_LONG : ContractSide.CLOSE_SHORT;
    const o: OrderState = {
      id: toOrderId(this.idBase + seq),
      seq,
      account: acct,
      market: m,
      side,
      type: ContractOrderType.MARKET,
      category: OrderCategory.LIQUIDATION_CUSTODY,
      openType: pos.openType,
      leverage: pos.leverage,
      positionMode: acct.positionMode,
      reduceOnly: true,
      stpMode: ContractStpMode.NONE,
      externalOid: undefined,
      isBuy: !pos.isLong,
      bookSide: pos.isLong ? 'SELL' : 'BUY',
      closing: true,
      displayPrice: m.spec.ticksToPrice(ticks),
      priceTicks: ticks,
      lots,
      dealLots: lots,
      dealCost: BigInt(ticks) * BigInt(lots),
      frozen: ZERO,
      reservedPosition: undefined,
      usedMargin: ZERO,
      takerFee: ZERO,
      makerFee: ZERO,
      profit: realised,
      state: ContractOrderState.COMPLETED,
      errorCode: ContractOrderErrorCode.NORMAL,
      positionId: pos.positionId,
      createTime: now,
      updateTime: now,
      cancelReason: undefined,
    };
    this.orders.set(o.id, o);
    const dropped = pushCapped(acct.history, o, this.accountHistoryLimit(o.account));
    if (dropped) this.orders.delete(dropped.id);
    return o;
  }

  private emitLiquidation(acct: AccountState, d: LiquidationDraft, now: number): void {
    const pos = d.position;
    const spec = pos.spec;
    const liquidation: LiquidationView = {
      accountId: acct.id,
      symbol: spec.symbol,
      positionId: pos.positionId,
      positionType: pos.positionType,
      openType: pos.openType,
      vol: spec.lotsToVol(d.lots),
      fairPrice: d.fairPrice,
      liquidationPrice: d.liquidationPrice,
      bankruptcyPrice: d.bankruptcyPrice,
      closePrice: spec.ticksToPrice(d.closeTicks),
      realised: d.realised,
      liquidationFee: d.fee,
      insuranceCover: d.cover,
      orderId: d.orderId,
      time: now,
    };
    this.emitPosition(acct, pos);
    this.emit(() => ({ type: 'PositionLiquidated', time: now, liquidation }));
  }

  // ─────────────────────────────────────────────── money helpers

  private rates(acct: AccountState, spec: ContractSpec): FeeRates & { reserve: Decimal } {
    if (this.feeRatesOf === undefined) {
      let r = this.defaultRates.get(spec);
      if (r === undefined) {
        const { makerFeeRate: maker, takerFeeRate: taker } = spec.instrument;
        r = { maker, taker, reserve: Decimal.max(maker, taker, ZERO) };
        this.defaultRates.set(spec, r);
      }
      return r;
    }
    const r = this.feeRatesOf(acct.id, spec.instrument);
    return { maker: r.maker, taker: r.taker, reserve: Decimal.max(r.maker, r.taker, ZERO) };
  }

  /** Margin + fee of the taker part, from the previewed tick·lots (what the fills will book at most). */
  private takerReserve(spec: ContractSpec, quote: number, leverage: number, takerRate: Decimal): Decimal {
    if (quote === 0) return ZERO;
    const notional = spec.money(quote);
    return initialMargin(notional, leverage, this.scale, 'ceil').add(notional.mul(Decimal.max(takerRate, ZERO)));
  }

  private restingReserve(spec: ContractSpec, ticks: number, lots: number, leverage: number, rates: { reserve: Decimal }): Decimal {
    if (lots <= 0) return ZERO;
    const notional = spec.money(BigInt(ticks) * BigInt(lots));
    return initialMargin(notional, leverage, this.scale, 'ceil').add(notional.mul(rates.reserve));
  }

  /** Order margin of `remaining` lots resting at the order's price: ceil(notional/L) + notional·max fee rate. */
  private orderMargin(o: OrderState, remaining: number): Decimal {
    return this.orderMarginAt(o, remaining, o.leverage);
  }

  private orderMarginAt(o: OrderState, remaining: number, leverage: number): Decimal {
    if (o.closing || remaining <= 0) return ZERO;
    return this.restingReserve(o.market.spec, o.priceTicks, remaining, leverage, this.rates(o.account, o.market.spec));
  }

  private crossUnrealised(acct: AccountState, currency: string): Decimal {
    let sum = ZERO;
    for (const p of acct.positions.values()) {
      if (p.openType !== OpenType.CROSS || p.spec.settleCoin !== currency) continue;
      const mark = this.markPrice(this.markets.get(p.spec.symbol)!);
      if (mark) sum = sum.add(unrealisedPnl(p.figures(), mark));
    }
    return sum;
  }

  /** What new orders, margin additions and withdrawals can use: free less any cross unrealised loss. */
  private availableOpen(acct: AccountState, currency: string): Decimal {
    const w = acct.wallets.get(currency);
    if (w === undefined) return ZERO;
    return Decimal.max(ZERO, w.free.add(Decimal.min(ZERO, this.crossUnrealised(acct, currency))));
  }

  private insuranceWallet(currency: string): Wallet {
    return this.insurance.wallet(currency);
  }

  private addFeeIncome(currency: string, fee: Decimal): void {
    this.feeIncome.set(currency, (this.feeIncome.get(currency) ?? ZERO).add(fee));
  }

  private markPrice(m: MarketState): Decimal | undefined {
    return m.fairPrice ?? m.lastPrice;
  }

  private referenceTicks(m: MarketState): number | undefined {
    if (m.lastTicks !== undefined) return m.lastTicks;
    if (m.fairPrice !== undefined) return Math.max(1, m.spec.priceToTicks(m.fairPrice, 'nearest'));
    return undefined;
  }

  private tierOf(spec: ContractSpec, lots: number): RiskTier {
    return spec.tierOfLots(lots);
  }

  private stpCheck(acct: AccountState, mode: ContractStpMode): SelfTradeCheck<OrderState> {
    const action = STP_ACTION[mode];
    return (maker) => (this.sameGroup(acct.id, maker.data.account.id) ? action : StpAction.Trade);
  }

  private hasOpeningOrders(acct: AccountState, symbol: string, key: string): boolean {
    for (const o of acct.openOrders.values()) {
      if (o.closing || o.market.spec.symbol !== symbol) continue;
      if (sideKey(acct.positionMode, symbol, o.isBuy ? PositionType.LONG : PositionType.SHORT) === key) return true;
    }
    return false;
  }

  private pendingOpenLots(acct: AccountState, symbol: string, direction: PositionType): number {
    let n = 0;
    for (const o of acct.openOrders.values()) {
      if (o.closing || o.market.spec.symbol !== symbol) continue;
      if ((o.isBuy ? PositionType.LONG : PositionType.SHORT) === direction) n += o.lots - o.dealLots;
    }
    return n;
  }

  private openCount(acct: AccountState, symbol: string): number {
    let n = 0;
    for (const o of acct.openOrders.values()) if (o.market.spec.symbol === symbol) n++;
    return n;
  }

  private findByExternal(acct: AccountState, symbol: string, externalOid: string): OrderState | undefined {
    const open = acct.openByExternal.get(extKey(symbol, externalOid));
    if (open) return open;
    for (let i = acct.history.length - 1; i >= 0; i--) {
      const o = acct.history[i]!;
      if (o.externalOid === externalOid && o.market.spec.symbol === symbol) return o;
    }
    return undefined;
  }

  private isOpen(o: OrderState): boolean {
    return o.state === ContractOrderState.UNCOMPLETED || o.state === ContractOrderState.PENDING;
  }

  private requireMarket(symbol: string): MarketState {
    const m = this.markets.get(symbol);
    if (m === undefined) throw new RangeError(`unknown contract ${symbol}`);
    return m;
  }

  private account(id: string, positionMode?: PositionMode): AccountState {
    let a = this.accounts.get(id);
    if (a === undefined) {
      a = new AccountState(toAccountId(id), positionMode ?? this.defaultPositionMode, false);
      this.accounts.set(id, a);
    }
    return a;
  }

  private recordTransfer(acct: AccountState, currency: string, amount: Decimal, type: 'IN' | 'OUT'): TransferRecordView {
    const now = this.clock.now();
    const rec: TransferRecordView = {
      id: ++this.transferSeq,
      accountId: acct.id,
      currency,
      amount,
      type,
      state: 'SUCCESS',
      createTime: now,
      updateTime: now,
    };
    pushCapped(acct.transfers, rec, this.historyLimit);
    this.emit(() => ({ type: 'FundsTransferred', time: now, transfer: rec }));
    return rec;
  }

  // ─────────────────────────────────────────────── views

  private orderView(o: OrderState): ContractOrderView {
    const spec = o.market.spec;
    return {
      accountId: o.account.id,
      orderId: o.id,
      symbol: spec.symbol,
      positionId: o.positionId,
      price: o.displayPrice,
      vol: spec.lotsToVol(o.lots),
      leverage: o.leverage,
      side: o.side,
      category: o.category,
      orderType: o.type,
      dealAvgPrice: spec.averagePrice(o.dealCost, o.dealLots),
      dealVol: spec.lotsToVol(o.dealLots),
      orderMargin: o.frozen,
      usedMargin: o.usedMargin,
      takerFee: o.takerFee,
      makerFee: o.makerFee,
      profit: o.profit,
      feeCurrency: spec.settleCoin,
      openType: o.openType,
      state: o.state,
      externalOid: o.externalOid,
      errorCode: o.errorCode,
      createTime: o.createTime,
      updateTime: o.updateTime,
      positionMode: o.positionMode,
      reduceOnly: o.reduceOnly,
      stpMode: o.stpMode,
      cancelReason: o.cancelReason,
    };
  }

  private positionView(acct: AccountState, p: ContractPosition): ContractPositionView {
    const spec = p.spec;
    const m = this.markets.get(spec.symbol)!;
    const mark = this.markPrice(m);
    const open = p.holdLots > 0;
    const tier = this.tierOf(spec, p.holdLots);
    const fig = p.figures();
    const upnl = open && mark ? unrealisedPnl(fig, mark) : ZERO;
    let liq: Decimal | undefined;
    if (open && p.openType === OpenType.ISOLATED && !acct.exempt) {
      const exact = liquidationPrice(fig, tier.mmr);
      if (exact !== undefined) liq = spec.ticksToPrice(spec.priceToTicks(exact, p.isLong ? 'up' : 'down'));
    }
    let ratio = ZERO;
    if (open && mark && !acct.exempt) {
      if (p.openType === OpenType.ISOLATED) ratio = marginRatio(fig, mark, tier.mmr);
      else ratio = this.crossRatio(acct, spec.settleCoin);
    }
    const hold = p.holdAvgPrice();
    const openAvg = p.openAvgPrice();
    const realised = p.realised();
    const booked = p.marginBooked;
    return {
      accountId: acct.id,
      positionId: p.positionId,
      symbol: spec.symbol,
      positionType: p.positionType,
      openType: p.openType,
      state: p.state,
      holdVol: spec.lotsToVol(p.holdLots),
      frozenVol: spec.lotsToVol(p.frozenLots),
      closeVol: spec.lotsToVol(p.closedLots),
      holdAvgPrice: spec.displayPrice(hold),
      holdAvgPriceFullyScale: hold,
      openAvgPrice: spec.displayPrice(openAvg),
      openAvgPriceFullyScale: openAvg,
      closeAvgPrice: spec.displayPrice(p.closeAvgPrice()),
      liquidatePrice: liq,
      oim: p.oim,
      im: p.im,
      holdFee: p.holdFee,
      realised,
      closeProfitLoss: p.closePnl,
      fee: p.totalFee,
      totalFee: p.totalFee,
      profitRatio: booked.gt(0) ? realised.div(booked).toDecimalPlaces(4, Decimal.ROUND_HALF_UP) : ZERO,
      leverage: p.leverage,
      marginRatio: ratio.toDecimalPlaces(4, Decimal.ROUND_HALF_UP),
      autoAddIm: p.autoAddIm,
      unrealised: upnl,
      riskLevel: tier.level,
      createTime: p.createTime,
      updateTime: p.updateTime,
    };
  }

  private crossRatio(acct: AccountState, currency: string): Decimal {
    const c = this.crossOf(acct, currency);
    return c.equity.lte(0) ? ONE : c.maintenance.div(c.equity);
  }

  private assetView(acct: AccountState, w: Wallet): ContractAssetView {
    let positionMargin = ZERO;
    let unrealized = ZERO;
    for (const p of acct.positions.values()) {
      if (p.spec.settleCoin !== w.currency) continue;
      positionMargin = positionMargin.add(p.im);
      const mark = this.markPrice(this.markets.get(p.spec.symbol)!);
      if (mark) unrealized = unrealized.add(unrealisedPnl(p.figures(), mark));
    }
    const available = this.availableOpen(acct, w.currency);
    const cash = w.free.add(w.frozen).add(positionMargin);
    return {
      currency: w.currency,
      positionMargin,
      frozenBalance: w.frozen,
      availableBalance: available,
      cashBalance: cash,
      equity: cash.add(unrealized),
      unrealized,
      bonus: ZERO,
      availableCash: available,
      availableOpen: available,
    };
  }

  private fillView(acct: AccountState, f: FillRecord): ContractFillView {
    const m = this.markets.get(f.symbol)!;
    const spec = m.spec;
    return {
      tradeId: f.tradeId,
      accountId: acct.id,
      orderId: f.orderId,
      symbol: spec.symbol,
      side: f.side,
      price: spec.ticksToPrice(f.priceTicks),
      vol: spec.lotsToVol(f.lots),
      taker: f.taker,
      fee: f.fee,
      feeCurrency: spec.settleCoin,
      profit: f.profit,
      closeVol: spec.lotsToVol(f.closeLots),
      openVol: spec.lotsToVol(f.openLots),
      positionIds: f.positionIds,
      time: f.time,
    };
  }

  private leverageRow(acct: AccountState | undefined, m: MarketState, pt: PositionType): LeverageView {
    const spec = m.spec;
    const inst = spec.instrument;
    const mode = acct?.positionMode ?? this.defaultPositionMode;
    const key = sideKey(mode, spec.symbol, pt);
    const pos = acct?.positions.get(posKey(spec.symbol, pt));
    const setting = acct?.settings.get(key);
    const size = acct ? (pos?.holdLots ?? 0) + this.pendingOpenLots(acct, spec.symbol, pt) : 0;
    const tier = this.tierOf(spec, size);
    const lev = pos?.leverage ?? setting?.leverage ?? Math.max(inst.minLeverage, Math.min(inst.maxLeverage, this.defaultLeverage));
    const openType =
      pos?.openType ?? setting?.openType ?? (inst.positionOpenType === PositionOpenType.CROSS ? OpenType.CROSS : OpenType.ISOLATED);
    return {
      level: tier.level,
      maxVol: tier.maxVol,
      mmr: tier.mmr,
      imr: tier.imr,
      positionType: pt,
      openType,
      leverage: lev,
      limitBySys: false,
      currentMmr: tier.mmr,
      maxLeverageView: tier.maxLeverage,
    };
  }

  // ─────────────────────────────────────────────── events

  private emitPosition(acct: AccountState, p: ContractPosition): void {
    if (this.listeners.length === 0) return;
    const view = this.positionView(acct, p);
    this.emit(() => ({ type: 'PositionChanged', time: this.clock.now(), position: view }));
  }

  /** Queues an event; the builder runs now (views are snapshots of this moment) only if someone listens. */
  private emit(build: () => ContractVenueEvent): void {
    if (this.listeners.length === 0) return;
    const event = build();
    this.queue.push({ kind: 'event', build: () => event });
  }

  private runValue<T>(fn: () => T): T {
    let out: T | undefined;
    this.run(() => {
      out = fn();
    });
    return out as T;
  }

  /** Runs a command and then delivers its events (a command started by a listener nests). */
  private run(fn: () => void): void {
    this.nesting++;
    try {
      fn();
    } finally {
      this.nesting--;
    }
    if (this.nesting === 0) this.flush();
  }

  private flush(): void {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const item = this.queue.shift()!;
        if (item.kind === 'event') {
          const event = item.build();
          for (const l of [...this.listeners]) l(event);
        } else if (item.kind === 'task') {
          item.run();
        } else {
          for (const w of [...this.watchers]) w(item.update);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  // ─────────────────────────────────────────────── invariants

  private probe(): InvariantProbe {
    return {
      markets: [...this.markets.values()],
      accounts: [...this.accounts.values()],
      insurance: this.insurance,
      insuranceSeed: this.insuranceSeed,
      feeIncome: this.feeIncome,
      positionFills: this.positionFills,
      orders: this.orders,
      markPrice: (m) => this.markPrice(m),
      orderMargin: (o) => this.orderMargin(o, o.lots - o.dealLots),
      historyLimit: this.historyLimit,
      accountHistoryLimit: (a) => this.accountHistoryLimit(a),
    };
  }
}

// ─────────────────────────────────────────────── helpers

export const posKey = (symbol: string, type: PositionType): string => `${symbol}:${type}`;
const sideKey = (mode: PositionMode, symbol: string, type: PositionType): string =>
  mode === PositionMode.ONE_WAY ? `${symbol}:*` : `${symbol}:${type}`;
const extKey = (symbol: string, ext: string): string => `${symbol}\u0000${ext}`;
const opposite_ = (t: PositionType): PositionType => (t === PositionType.LONG ? PositionType.SHORT : PositionType.LONG);

/** Appends and drops the oldest beyond `limit`; returns what was dropped. */
function pushCapped<T>(list: T[], item: T, limit: number): T | undefined {
  list.push(item);
  return list.length > limit ? list.shift() : undefined;
}

function paginate<S, T>(list: readonly S[], q: PageQuery, map: (s: S) => T): Page<T> {
  const pageSize = Math.max(1, Math.min(1000, Math.floor(q.pageSize ?? 20)));
  const currentPage = Math.max(1, Math.floor(q.pageNum ?? 1));
  const start = (currentPage - 1) * pageSize;
  return {
    pageSize,
    totalCount: list.length,
    totalPage: Math.ceil(list.length / pageSize),
    currentPage,
    resultList: list.slice(start, start + pageSize).map(map),
  };
}

/** The items of an append-ordered history that `keep` accepts, newest first (the history endpoints' order). */
function newestMatching<T>(history: readonly T[], keep: (item: T) => boolean): T[] {
  const out: T[] = [];
  for (let i = history.length - 1; i >= 0; i--) if (keep(history[i]!)) out.push(history[i]!);
  return out;
}

/** A history query's inclusive [startTime, endTime] window (either end open when absent). */
const inWindow = (t: number, q: { readonly startTime?: number | undefined; readonly endTime?: number | undefined }): boolean =>
  (q.startTime === undefined || t >= q.startTime) && (q.endTime === undefined || t <= q.endTime);
