/**
 * The contract venue's read model: every query of its state (orders, positions, histories, assets,
 * leverage, book depth, prices, funding, the insurance fund, invariants). It changes nothing; the
 * facade (ContractVenue) extends it with the commands, so the venue keeps one object for both.
 */
import { Decimal } from '../../core/decimal.js';
import { PositionMode, PositionType } from '../../domain/contract-enums.js';
import type { ContractInstrument, RiskTier } from '../../domain/instrument.js';
import { type BookSide } from '../book/order-book.js';
import type {
  FillsQuery,
  FundingRecordsQuery,
  HistoryOrdersQuery,
  HistoryPositionsQuery,
  PageQuery,
  PlacedOrderTicks,
  TransferRecordsQuery,
} from './contract-requests.js';
import { Wallet, ZERO, placedTicksOf, type IndexedList } from './contract-state.js';
import { unitsToDecimal } from '../ledger/ledger-units.js';
import type {
  ContractAssetView,
  ContractDepthView,
  ContractFillView,
  ContractOrderView,
  ContractPositionView,
  HeldPositionView,
  FundingHistoryView,
  FundingRateView,
  FundingRecordView,
  InsuranceFundView,
  LeverageView,
  OpenOrderCountView,
  Page,
  RiskLimitView,
  TransferRecordView,
} from './contract-views.js';
import { checkContractInvariants, type InvariantProbe } from './contract-invariants.js';
import { posKey } from './venue-keys.js';
import { INSURANCE_ACCOUNT_ID, type ContractVenueState } from './contract-venue-state.js';
import type { VenueMoney } from './venue-money.js';
import type { ContractViewBuilder } from './contract-view-builder.js';

export class ContractReadModel {
  constructor(
    protected readonly s: ContractVenueState,
    protected readonly money: VenueMoney,
    protected readonly views: ContractViewBuilder,
  ) {}

  instruments(): readonly ContractInstrument[] {
    return [...this.s.markets.values()].map((m) => m.spec.instrument);
  }

  instrument(symbol: string): ContractInstrument | undefined {
    return this.s.markets.get(symbol)?.spec.instrument;
  }

  riskTiers(symbol: string): readonly RiskTier[] {
    return this.s.requireMarket(symbol).spec.tiers;
  }

  getOrder(accountIdIn: string, orderIdIn: string | number): ContractOrderView | undefined {
    const o = this.s.orders.get(String(orderIdIn));
    return o !== undefined && o.account.id === accountIdIn ? this.views.orderView(o) : undefined;
  }

  /**
   * getOrder's id, state and lots, without building its view (what placeOrderTicks answers): the
   * backtest's crowd asks what is left of its resting orders at every placement of ours.
   */
  orderTicks(accountIdIn: string, orderIdIn: string): PlacedOrderTicks | undefined {
    const o = this.s.orders.get(orderIdIn);
    return o !== undefined && o.account.id === accountIdIn ? placedTicksOf(o) : undefined;
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
    const acct = this.s.accounts.get(accountIdIn);
    const o = acct ? this.s.findByExternal(acct, symbol, externalOid) : undefined;
    return o ? this.views.orderView(o) : undefined;
  }

  /** Open orders, newest first. */
  openOrders(accountIdIn: string, q: PageQuery & { symbol?: string | undefined } = {}): Page<ContractOrderView> {
    const acct = this.s.accounts.get(accountIdIn);
    const list = acct ? [...acct.openOrders.values()].filter((o) => !q.symbol || o.market.spec.symbol === q.symbol).reverse() : [];
    return paginate(list, q, (o) => this.views.orderView(o));
  }

  /** Final orders (completed, cancelled, invalid), newest first. */
  historyOrders(accountIdIn: string, q: HistoryOrdersQuery = {}): Page<ContractOrderView> {
    const acct = this.s.accounts.get(accountIdIn);
    // Positions in the history, filtered on its columns: only the page's orders are made from their records.
    const list: number[] = [];
    if (acct) {
      const h = acct.history;
      for (let i = h.length - 1; i >= 0; i--) {
        if (q.symbol && h.symbolAt(i) !== q.symbol) continue;
        if (q.states && q.states.length > 0 && !q.states.includes(h.stateAt(i))) continue;
        if (q.category !== undefined && h.categoryAt(i) !== q.category) continue;
        if (q.side !== undefined && h.sideAt(i) !== q.side) continue;
        if (q.startTime !== undefined && h.createTimeAt(i) < q.startTime) continue;
        if (q.endTime !== undefined && h.createTimeAt(i) > q.endTime) continue;
        list.push(i);
      }
    }
    const h = acct?.history;
    return paginate(list, q, (i) => this.views.orderView(h!.at(i)!));
  }

  openPositions(
    accountIdIn: string,
    q: { symbol?: string | undefined; positionId?: string | number | undefined } = {},
  ): ContractPositionView[] {
    const acct = this.s.accounts.get(accountIdIn);
    if (acct === undefined) return [];
    const out: ContractPositionView[] = [];
    for (const p of acct.positions.values()) {
      if (q.symbol && p.spec.symbol !== q.symbol) continue;
      if (q.positionId !== undefined && p.positionId !== String(q.positionId)) continue;
      out.push(this.views.positionView(acct, p));
    }
    return out;
  }

  /**
   * The held figures of the account's open positions (of `symbol`), the same values as openPositions'
   * views without the ratios, averages and unrealised PnL a view also works out: a backtest's
   * reconciliation reads the positions at every poll and uses only these.
   */
  heldPositions(accountIdIn: string, symbol?: string): HeldPositionView[] {
    const acct = this.s.accounts.get(accountIdIn);
    if (acct === undefined) return [];
    const out: HeldPositionView[] = [];
    for (const p of acct.positions.values()) {
      if (symbol && p.spec.symbol !== symbol) continue;
      out.push(this.views.heldView(acct, p));
    }
    return out;
  }

  historyPositions(accountIdIn: string, q: HistoryPositionsQuery = {}): Page<ContractPositionView> {
    const acct = this.s.accounts.get(accountIdIn);
    const list = acct
      ? newestMatching(
          acct.historyPositions,
          (p) =>
            (!q.symbol || p.spec.symbol === q.symbol) &&
            (q.positionType === undefined || p.positionType === q.positionType) &&
            inWindow(p.updateTime, q),
        )
      : [];
    return paginate(list, q, (p) => this.views.positionView(acct!, p));
  }

  fundingRecords(accountIdIn: string, q: FundingRecordsQuery = {}): Page<FundingRecordView> {
    const acct = this.s.accounts.get(accountIdIn);
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
    const acct = this.s.accounts.get(accountIdIn);
    // Positions in the log, filtered on its rows: only the page's fills are made from them.
    const list: number[] = [];
    if (acct) {
      const fills = acct.fills;
      const orderId = q.orderId === undefined ? undefined : String(q.orderId);
      for (let i = fills.length - 1; i >= 0; i--) {
        if (q.symbol && fills.symbolAt(i) !== q.symbol) continue;
        if (orderId !== undefined && !fills.isOfOrder(i, orderId)) continue;
        if (inWindow(fills.timeAt(i), q)) list.push(i);
      }
    }
    return paginate(list, q, (i) => this.views.fillView(acct!, acct!.fills.at(i)!));
  }

  transferRecords(accountIdIn: string, q: TransferRecordsQuery = {}): Page<TransferRecordView> {
    const acct = this.s.accounts.get(accountIdIn);
    const list = acct
      ? [...acct.transfers].reverse().filter((t) => (!q.currency || t.currency === q.currency) && (!q.type || t.type === q.type))
      : [];
    return paginate(list, q, (t) => t);
  }

  assets(accountIdIn: string): ContractAssetView[] {
    const acct = this.s.accounts.get(accountIdIn);
    if (acct === undefined) return [];
    return [...acct.wallets.values()].map((w) => this.views.assetView(acct, w));
  }

  /** The account's asset in one currency (zeros when it never held any); undefined for an unknown account. */
  asset(accountIdIn: string, currency: string): ContractAssetView | undefined {
    const acct = this.s.accounts.get(accountIdIn);
    if (acct === undefined) return undefined;
    return this.views.assetView(acct, acct.wallets.get(currency) ?? new Wallet(currency));
  }

  positionMode(accountIdIn: string): PositionMode {
    return this.s.accounts.get(accountIdIn)?.positionMode ?? this.s.defaultPositionMode;
  }

  /** GET position/leverage: one row per position side with its tier, leverage and open type. */
  leverage(accountIdIn: string, symbol: string): LeverageView[] {
    const m = this.s.requireMarket(symbol);
    const acct = this.s.accounts.get(accountIdIn);
    return [PositionType.LONG, PositionType.SHORT].map((pt) => this.views.leverageRow(acct, m, pt));
  }

  /** GET account/risk_limit: per symbol (all when omitted). */
  riskLimits(accountIdIn: string, symbol?: string): Record<string, RiskLimitView[]> {
    const out: Record<string, RiskLimitView[]> = {};
    const acct = this.s.accounts.get(accountIdIn);
    for (const m of this.s.markets.values()) {
      if (symbol && m.spec.symbol !== symbol) continue;
      out[m.spec.symbol] = [PositionType.LONG, PositionType.SHORT].map((pt) => ({
        symbol: m.spec.symbol,
        ...this.views.leverageRow(acct, m, pt),
      }));
    }
    return out;
  }

  openOrderCount(accountIdIn: string, symbol?: string): OpenOrderCountView {
    const acct = this.s.accounts.get(accountIdIn);
    let n = 0;
    if (acct) for (const o of acct.openOrders.values()) if (!symbol || o.market.spec.symbol === symbol) n++;
    const t = this.s.triggers.counts(accountIdIn, symbol);
    return {
      sumCount: n + t.stop + t.plan + t.track,
      limitOrderCount: n,
      stopOrderCount: t.stop,
      planOrderCount: t.plan,
      trackOrderCount: t.track,
    };
  }

  depth(symbol: string, limit = 20): ContractDepthView {
    const m = this.s.requireMarket(symbol);
    const conv = (side: BookSide) =>
      m.book.depth(side, limit).map(([t, l, n]) => [m.spec.ticksToPrice(t), m.spec.lotsToVol(l), n] as const);
    return { asks: conv('SELL'), bids: conv('BUY'), version: m.version, timestamp: this.s.clock.now() };
  }

  bestBid(symbol: string): Decimal | undefined {
    const m = this.s.requireMarket(symbol);
    const t = m.book.bestBid();
    return t === undefined ? undefined : m.spec.ticksToPrice(t);
  }

  bestAsk(symbol: string): Decimal | undefined {
    const m = this.s.requireMarket(symbol);
    const t = m.book.bestAsk();
    return t === undefined ? undefined : m.spec.ticksToPrice(t);
  }

  fairPrice(symbol: string): Decimal | undefined {
    return this.s.requireMarket(symbol).fairPrice;
  }

  indexPrice(symbol: string): Decimal | undefined {
    return this.s.requireMarket(symbol).indexPrice;
  }

  lastPrice(symbol: string): Decimal | undefined {
    const m = this.s.requireMarket(symbol);
    return m.lastTicks === undefined ? undefined : m.spec.ticksToPrice(m.lastTicks);
  }

  fundingRate(symbol: string): FundingRateView {
    const m = this.s.requireMarket(symbol);
    return {
      symbol: m.spec.symbol,
      fundingRate: m.fundingRate,
      maxFundingRate: m.maxFundingRate,
      minFundingRate: m.minFundingRate,
      collectCycle: m.collectCycleHours,
      nextSettleTime: m.nextFundingAt,
      timestamp: this.s.clock.now(),
    };
  }

  /** Past settlements, newest first. */
  fundingHistory(symbol: string, q: PageQuery = {}): Page<FundingHistoryView> {
    const m = this.s.requireMarket(symbol);
    return paginate([...m.fundingHistory].reverse(), q, (h) => h);
  }

  insuranceFund(currency: string): InsuranceFundView {
    return { currency, available: this.s.insurance.wallets.get(currency)?.free ?? ZERO, timestamp: this.s.clock.now() };
  }

  /** Positions the insurance fund took over. */
  insurancePositions(): ContractPositionView[] {
    return [...this.s.insurance.positions.values()].map((p) => this.views.positionView(this.s.insurance, p));
  }

  /** Open interest in contracts (Σ long holdVol, which equals Σ short holdVol). */
  openInterest(symbol: string): Decimal {
    const m = this.s.requireMarket(symbol);
    let lots = 0;
    for (const a of m.holders) {
      const p = a.positions.get(posKey(m.spec.symbol, PositionType.LONG));
      if (p) lots += p.holdLots;
    }
    return m.spec.lotsToVol(lots);
  }

  feeIncomeOf(currency: string): Decimal {
    return unitsToDecimal(this.s.feeIncomeUnits().get(currency) ?? 0n);
  }

  /** Fills booked with a margin shortfall (diagnostics; 0 in a healthy run). */
  shortfallCount(): number {
    return this.s.shortfalls;
  }

  /** The invariant list (empty when consistent): no crossed book, funds conserved, … */
  checkInvariants(): string[] {
    return [
      ...checkContractInvariants(this.probe()),
      ...this.s.liquidationIndex.problems(this.s.accounts.values()),
      ...this.s.triggers.checkInvariants(),
    ];
  }

  private probe(): InvariantProbe {
    return {
      markets: [...this.s.markets.values()],
      accounts: [...this.s.accounts.values()],
      insurance: this.s.insurance,
      insuranceSeed: this.s.insuranceSeed,
      feeIncome: new Map([...this.s.feeIncomeUnits()].map(([c, u]) => [c, unitsToDecimal(u)])),
      positionFills: this.s.positionFills,
      orders: this.s.orders,
      markPrice: (m) => this.s.markPrice(m),
      orderMargin: (o) => this.money.orderMargin(o, o.lots - o.dealLots),
      historyLimit: this.s.historyLimit,
      accountHistoryLimit: (a) => this.s.accountHistoryLimit(a),
    };
  }

  hasAccount(id: string): boolean {
    return this.s.accounts.has(id) && id !== INSURANCE_ACCOUNT_ID;
  }
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
function newestMatching<T>(history: IndexedList<T>, keep: (item: T) => boolean): T[] {
  const out: T[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history.at(i)!;
    if (keep(item)) out.push(item);
  }
  return out;
}

/** A history query's inclusive [startTime, endTime] window (either end open when absent). */
const inWindow = (t: number, q: { readonly startTime?: number | undefined; readonly endTime?: number | undefined }): boolean =>
  (q.startTime === undefined || t >= q.startTime) && (q.endTime === undefined || t <= q.endTime);
