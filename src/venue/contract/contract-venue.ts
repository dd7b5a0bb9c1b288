/**
 * The perpetual-futures venue engine: pure, synchronous, clock-driven, no I/O. The emulator's HTTP
 * server and the backtest's simulated gateway both drive it.
 *
 * Units. Matching works in integer ticks and lots on the shared OrderBook; position costs are
 * bigint tick·lots, so realised PnL is exact. Money is exact in the settle coin: fees and funding
 * are exact products (never rounded); only initial margin (a division by the leverage) is rounded
 * to `moneyScale` places — up when reserved for an order, down when booked by a fill, so a fill
 * never books more than its order reserved. The per-fill path books it in ledger units (bigint
 * 10^-18, as the spot ledger: tick·lots × unitValueUnits, fees tick·lots × units per tick·lot);
 * funding, liquidation and the Decimal inputs go through the same buckets' Decimal face, and an
 * amount finer than the units keeps its bucket in Decimals (money-cell.ts). Views are Decimals.
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
 * other command (the emulator's persistence journals venue methods by name: triggers/trigger-commands.ts).
 *
 * Modules (imports only go down; each is named after what it exports):
 *   contract-venue-state.ts   state, options, shared lookups, the command loop and its event queue
 *   venue-money.ts            fee rates, order reserves, available funds, shortfall cover, transfers
 *   contract-view-builder.ts  the views a client reads and events carry
 *   position-ledger.ts        position records, margin / leverage / mode commands
 *   order-matching.ts         matching, booking a fill, resting, cancelling, completing
 *   order-placement.ts        order commands: admission, amend, chase, cancel, reverse, close all
 *   liquidation-engine.ts     maintenance checks and the insurance fund's take-over
 *   liquidation-index.ts      isolated positions by liquidation edge (what a fair-price move may breach)
 *   never-liquidated.ts       accounts no price move liquidates (a backtest's crowd), skipped by the two above
 *   price-ladder.ts           the sorted price keys behind that index and the trigger book's (triggers/trigger-index.ts)
 *   step-grid.ts              ticks and lots ↔ Decimals without dividing (ContractSpec's grids)
 *   funding-settlement.ts     funding rate, timers and settlement
 *   contract-read-model.ts    every query (this class extends it)
 *   contract-venue.ts         this facade: construction, prices, and one line per command
 */
import { D, ZERO, type DecimalLike } from '../../core/decimal.js';
import { PositionMode } from '../../domain/contract-enums.js';
import type { ContractInstrument } from '../../domain/instrument.js';
import { OrderBook } from '../book/order-book.js';
import type { ContractVenueEventOf, ContractVenueEventType, ContractVenueListener, PriceWatcher } from './contract-events.js';
import type {
  CancelResultEntry,
  ChangeLeverageRequest,
  ChangeLimitOrderRequest,
  ChangeMarginRequest,
  ClosePositionResult,
  ExternalRef,
  PlaceOrderRequest,
  PlaceOrderTicksRequest,
  PlacedOrderTicks,
  ReverseRequest,
  VenueResult,
} from './contract-requests.js';
import { ContractSpec } from './contract-spec.js';
import { type MarketState, type OrderState } from './contract-state.js';
import type {
  ContractOrderView,
  ContractPositionView,
  FundingRecordView,
  LeverageView,
  Page,
  TransferRecordView,
} from './contract-views.js';
import { HOUR_MS, nextFundingTime } from './funding-schedule.js';
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
} from './triggers/trigger-requests.js';
import type { PlanOrderView, StopOrderView, TrackOrderView } from './triggers/trigger-views.js';
import { ContractVenueState, type ContractVenueOptions, type LiquidationCheck } from './contract-venue-state.js';
import { VenueMoney } from './venue-money.js';
import { ContractViewBuilder } from './contract-view-builder.js';
import { PositionLedger } from './position-ledger.js';
import { OrderMatching } from './order-matching.js';
import { OrderPlacement } from './order-placement.js';
import { LiquidationEngine } from './liquidation-engine.js';
import { FundingSettlement } from './funding-settlement.js';
import { ContractReadModel } from './contract-read-model.js';
import { accountChangeCount } from './account-changes.js';

// The venue's public names, where its users have always imported them from.
export { INSURANCE_ACCOUNT_ID, type ContractVenueOptions, type FeeRates } from './contract-venue-state.js';
export { posKey } from './venue-keys.js';

export class ContractVenue extends ContractReadModel {
  private readonly ledger: PositionLedger;
  private readonly placement: OrderPlacement;
  private readonly liquidation: LiquidationEngine;
  private readonly funding: FundingSettlement;

  constructor(options: ContractVenueOptions) {
    const s = new ContractVenueState(options);
    const money = new VenueMoney(s);
    const views = new ContractViewBuilder(s, money);
    super(s, money, views);
    // Placement, margin changes and funding run the liquidation check; the engine sits above them
    // (it cancels orders and closes positions through them), so they reach it through this port.
    const risk: LiquidationCheck = { checkLiquidations: (m, only) => this.liquidation.checkLiquidations(m, only) };
    this.ledger = new PositionLedger(s, money, views, risk);
    const matching = new OrderMatching(s, money, views, this.ledger, risk);
    this.placement = new OrderPlacement(s, money, views, matching);
    this.liquidation = new LiquidationEngine(s, money, views, this.ledger, matching);
    this.funding = new FundingSettlement(s, money, views, this.liquidation);
    for (const i of options.instruments ?? []) this.addInstrument(i);
    s.triggers = new TriggerBook({
      venue: this,
      clock: s.clock,
      emit: (build) => s.emit(build),
      defer: (task) => s.queue.push({ kind: 'task', run: task }),
      historyLimit: s.historyLimit,
      idBase: options.triggerIdBase ?? s.idBase + 500_000_000,
    });
  }

  // ─────────────────────────────────────────────── setup and inputs

  addInstrument(instrument: ContractInstrument): void {
    if (this.s.markets.has(instrument.symbol)) throw new RangeError(`contract ${instrument.symbol} is already listed`);
    const spec = new ContractSpec(instrument);
    const cycleHours = this.s.options.collectCycleHours ?? 8;
    const intervalMs = this.s.options.fundingIntervalMs ?? cycleHours * HOUR_MS;
    const m: MarketState = {
      spec,
      book: new OrderBook<OrderState>(),
      fairPrice: undefined,
      indexPrice: undefined,
      lastTicks: undefined,
      lastPrice: undefined,
      fundingRate: D(this.s.options.initialFundingRate ?? 0),
      maxFundingRate: D(this.s.options.maxFundingRate ?? '0.0018'),
      minFundingRate: D(this.s.options.minFundingRate ?? '-0.0018'),
      fundingIntervalMs: intervalMs,
      collectCycleHours: cycleHours,
      nextFundingAt: nextFundingTime(this.s.clock.now(), intervalMs),
      fundingTimer: undefined,
      fundingHistory: [],
      holders: new Set(),
      version: 0,
    };
    this.s.markets.set(instrument.symbol, m);
    if (this.s.autoFunding) this.funding.scheduleFunding(m);
  }

  /** Stops the funding timers. */
  dispose(): void {
    this.funding.dispose();
  }

  /**
   * Listens to every event, or only to `types` (then only those events' views are built: a listener
   * should name the types it reads). Returns the unsubscriber.
   */
  on(listener: ContractVenueListener): () => void;
  on<T extends ContractVenueEventType>(listener: (event: ContractVenueEventOf<T>) => void, types: readonly T[]): () => void;
  on(listener: ContractVenueListener, types?: readonly ContractVenueEventType[]): () => void {
    return this.s.addListener(listener, types);
  }

  addPriceWatcher(watcher: PriceWatcher): () => void {
    return this.s.watchers.add(watcher);
  }

  /** Fair (mark) price: drives unrealised PnL, liquidation and funding. Runs the liquidation checks. */
  setFairPrice(symbol: string, price: DecimalLike): void {
    const m = this.s.requireMarket(symbol);
    const p = D(price);
    if (!p.gt(ZERO)) throw new RangeError(`fair price of ${symbol} must be > 0, got ${p.toString()}`);
    this.s.run(() => {
      m.fairPrice = p;
      this.s.queue.push({ kind: 'price', update: { symbol: m.spec.symbol, kind: 'fair', price: p, time: this.s.clock.now() } });
      this.liquidation.checkLiquidations(m);
    });
  }

  setIndexPrice(symbol: string, price: DecimalLike): void {
    const m = this.s.requireMarket(symbol);
    const p = D(price);
    if (!p.gt(ZERO)) throw new RangeError(`index price of ${symbol} must be > 0, got ${p.toString()}`);
    this.s.run(() => {
      m.indexPrice = p;
      this.s.queue.push({ kind: 'price', update: { symbol: m.spec.symbol, kind: 'index', price: p, time: this.s.clock.now() } });
    });
  }

  /** The rate applied at the next settlement, clamped to [minFundingRate, maxFundingRate]. */
  setFundingRate(symbol: string, rate: DecimalLike): void {
    this.funding.setFundingRate(symbol, rate);
  }

  /**
   * Settles funding of one contract now (the timers call this at each settle time). With automatic
   * funding the timer moves to the next settle time after now, so a manual settlement is not repeated.
   */
  settleFunding(symbol: string): readonly FundingRecordView[] {
    return this.funding.settleFunding(symbol);
  }

  // ─────────────────────────────────────────────── accounts and transfers

  openAccount(id: string, positionMode?: PositionMode): void {
    this.s.account(id, positionMode);
  }

  deposit(id: string, currency: string, amount: DecimalLike): VenueResult<TransferRecordView> {
    return this.money.deposit(id, currency, amount);
  }

  withdraw(id: string, currency: string, amount: DecimalLike): VenueResult<TransferRecordView> {
    return this.money.withdraw(id, currency, amount);
  }

  /**
   * A count that moves whenever the account's open orders, positions or balances change (listened to
   * or not; 0 for an unknown account): an unchanged count says answers read before still hold, except
   * what moves with the mark (unrealised PnL and what follows from it).
   */
  accountChanges(id: string): number {
    const acct = this.s.accounts.get(id);
    return acct === undefined ? 0 : accountChangeCount(acct);
  }

  // ─────────────────────────────────────────────── orders (order-placement.ts)

  /** POST order/create; a take-profit / stop-loss it carries becomes a stop order that follows its fills. */
  placeOrder(accountIdIn: string, req: PlaceOrderRequest): VenueResult<ContractOrderView> {
    return this.placement.placeOrder(accountIdIn, req);
  }

  /**
   * placeOrder for a request already in ticks and lots (the backtest's crowd): the same checks and
   * refusals on the integers, no decimal parse, and an answer of the order's id, state and lots instead
   * of its view. No take-profit / stop-loss.
   */
  placeOrderTicks(accountIdIn: string, req: PlaceOrderTicksRequest): VenueResult<PlacedOrderTicks> {
    return this.placement.placeOrderTicks(accountIdIn, req);
  }

  /** POST order/change_limit_order: new price and total vol; margin and position re-checked. */
  changeLimitOrder(accountIdIn: string, req: ChangeLimitOrderRequest): VenueResult<ContractOrderView> {
    return this.placement.changeLimitOrder(accountIdIn, req);
  }

  /** POST order/chase_limit_order: moves the price to the best price of the order's own side. */
  chaseLimitOrder(accountIdIn: string, orderIdIn: string): VenueResult<ContractOrderView> {
    return this.placement.chaseLimitOrder(accountIdIn, orderIdIn);
  }

  cancelOrders(accountIdIn: string, orderIds: readonly (string | number)[]): CancelResultEntry[] {
    return this.placement.cancelOrders(accountIdIn, orderIds);
  }

  cancelWithExternal(accountIdIn: string, refs: readonly ExternalRef[]): CancelResultEntry[] {
    return this.placement.cancelWithExternal(accountIdIn, refs);
  }

  /** POST order/cancel_all: one contract, or every contract when symbol is empty / omitted. */
  cancelAll(accountIdIn: string, symbol?: string): number {
    return this.placement.cancelAll(accountIdIn, symbol);
  }

  // ─────────────────────────────────────────────── positions (position-ledger.ts; reverse and close-all place orders)

  changeMargin(accountIdIn: string, req: ChangeMarginRequest): VenueResult<ContractPositionView> {
    return this.ledger.changeMargin(accountIdIn, req);
  }

  changeAutoAddIm(accountIdIn: string, positionIdIn: string | number, isEnabled: boolean): VenueResult<ContractPositionView> {
    return this.ledger.changeAutoAddIm(accountIdIn, positionIdIn, isEnabled);
  }

  changeLeverage(accountIdIn: string, req: ChangeLeverageRequest): VenueResult<readonly LeverageView[]> {
    return this.ledger.changeLeverage(accountIdIn, req);
  }

  /** Succeeds only with no open orders and no open positions (contract-api.md §3). */
  changePositionMode(accountIdIn: string, mode: PositionMode): VenueResult<PositionMode> {
    return this.ledger.changePositionMode(accountIdIn, mode);
  }

  /**
   * POST position/reverse: closes `vol` of the position at market and opens the same vol the other
   * way (hedged: two market orders; one-way: one market order of twice the vol).
   */
  reversePosition(accountIdIn: string, req: ReverseRequest): VenueResult<readonly ContractOrderView[]> {
    return this.placement.reversePosition(accountIdIn, req);
  }

  /** POST position/close_all: cancels each position's close orders and closes it at market. */
  closeAll(accountIdIn: string): ClosePositionResult[] {
    return this.placement.closeAll(accountIdIn);
  }

  // ─────────────────────────────────────────────── trigger orders (triggers/)

  /** POST stoporder/place: TP/SL on an open position. */
  placeStopOrder(accountIdIn: string, req: PlaceStopOrderRequest): VenueResult<StopOrderView> {
    return this.s.runValue(() => this.s.triggers.stops.place(accountIdIn, req));
  }

  /** POST stoporder/change_price: set, replace or (both prices empty / 0) cancel the TP/SL of a limit order. */
  changeStopPrice(accountIdIn: string, req: ChangeStopPriceRequest): VenueResult<StopOrderView | undefined> {
    return this.s.runValue(() => this.s.triggers.stops.changeStopPrice(accountIdIn, req));
  }

  /** POST stoporder/change_plan_price. */
  changeStopPlanPrice(accountIdIn: string, req: ChangeStopPlanPriceRequest): VenueResult<StopOrderView> {
    return this.s.runValue(() => this.s.triggers.stops.changePlanPrice(accountIdIn, req));
  }

  /** POST stoporder/cancel: per element 0, 2040 or 2041. */
  cancelStopOrders(accountIdIn: string, ids: readonly (string | number)[]): CancelResultEntry[] {
    return this.s.runValue(() => this.s.triggers.stops.cancel(accountIdIn, ids));
  }

  /** POST stoporder/cancel_all; answers how many were cancelled. */
  cancelAllStopOrders(accountIdIn: string, req: CancelAllStopOrdersRequest = {}): number {
    return this.s.runValue(() => this.s.triggers.stops.cancelAll(accountIdIn, req));
  }

  /** GET stoporder/list/orders, newest first. */
  stopOrders(accountIdIn: string, q: StopOrdersQuery = {}): Page<StopOrderView> {
    return this.s.triggers.stops.list(accountIdIn, q);
  }

  /** GET stoporder/open_orders: untriggered, newest first. */
  openStopOrders(accountIdIn: string, symbol?: string): StopOrderView[] {
    return this.s.triggers.stops.open(accountIdIn, symbol);
  }

  stopOrder(accountIdIn: string, id: string | number): StopOrderView | undefined {
    return this.s.triggers.stops.get(accountIdIn, id);
  }

  /**
   * The take-profit / stop-loss a limit order carries (attached at order/create or with
   * stoporder/change_price), in whatever state it is now; undefined when it carries none or it was
   * cancelled on purpose. Order records show its prices and price types.
   */
  orderTpSl(accountIdIn: string, orderId: string): StopOrderView | undefined {
    return this.s.triggers.stops.carried(accountIdIn, orderId);
  }

  /** POST planorder/place, place/v2 (executeCycle in hours). */
  placePlanOrder(accountIdIn: string, req: PlacePlanOrderRequest): VenueResult<PlanOrderView> {
    return this.s.runValue(() => this.s.triggers.plans.place(accountIdIn, req));
  }

  /** POST planorder/change_stop_order: the TP/SL a plan order's order will carry. */
  changePlanStopOrder(accountIdIn: string, req: ChangePlanStopOrderRequest): VenueResult<PlanOrderView> {
    return this.s.runValue(() => this.s.triggers.plans.changeStopOrder(accountIdIn, req));
  }

  /** POST planorder/cancel: per element 0, 2040 or 2041. */
  cancelPlanOrders(accountIdIn: string, refs: readonly PlanOrderRef[]): CancelResultEntry[] {
    return this.s.runValue(() => this.s.triggers.plans.cancel(accountIdIn, refs));
  }

  /** POST planorder/cancel_all: one contract, or all when symbol is empty / omitted. */
  cancelAllPlanOrders(accountIdIn: string, symbol?: string): number {
    return this.s.runValue(() => this.s.triggers.plans.cancelAll(accountIdIn, symbol || undefined));
  }

  /** GET planorder/list/orders, newest first. */
  planOrders(accountIdIn: string, q: PlanOrdersQuery = {}): Page<PlanOrderView> {
    return this.s.triggers.plans.list(accountIdIn, q);
  }

  planOrder(accountIdIn: string, id: string | number): PlanOrderView | undefined {
    return this.s.triggers.plans.get(accountIdIn, id);
  }

  /** POST trackorder/place. */
  placeTrackOrder(accountIdIn: string, req: PlaceTrackOrderRequest): VenueResult<TrackOrderView> {
    return this.s.runValue(() => this.s.triggers.tracks.place(accountIdIn, req));
  }

  /** POST trackorder/change_order. */
  changeTrackOrder(accountIdIn: string, req: ChangeTrackOrderRequest): VenueResult<TrackOrderView> {
    return this.s.runValue(() => this.s.triggers.tracks.change(accountIdIn, req));
  }

  /** POST trackorder/cancel: one by id, or every live one of a contract / the account; answers how many. */
  cancelTrackOrders(accountIdIn: string, req: CancelTrackOrdersRequest = {}): VenueResult<number> {
    return this.s.runValue(() => this.s.triggers.tracks.cancel(accountIdIn, req));
  }

  /** GET trackorder/list/orders, newest first. */
  trackOrders(accountIdIn: string, q: TrackOrdersQuery = {}): Page<TrackOrderView> {
    return this.s.triggers.tracks.list(accountIdIn, q);
  }

  trackOrder(accountIdIn: string, id: string | number): TrackOrderView | undefined {
    return this.s.triggers.tracks.get(accountIdIn, id);
  }
}
