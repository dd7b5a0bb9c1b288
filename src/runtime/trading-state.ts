/**
 * The runtime's caches, updated BEFORE anything reads them (docs/architecture.md rule 8: cache first, then
 * publish): the latest snapshot per symbol, the venue's balances and positions per account kind,
 * leverage and position mode, one Portfolio per strategy (its own fills: what ctx.position() shows)
 * and one per account kind (venue balances adopted at each reconciliation, fills applied between:
 * what equity and the kill switches are judged on).
 *
 * It is the TradingStateView strategies read and the source of each intent's RiskState.
 */
import { type Decimal, ZERO, withinPrecision } from '../core/decimal.js';
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { AccountSnapshot, Balance } from '../domain/balance.js';
import type { AlgoParent } from '../domain/algo-parent.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Fill } from '../domain/fill.js';
import type { Instrument } from '../domain/instrument.js';
import type { InstrumentRegistry } from '../domain/instrument-registry.js';
import type { PositionModeName } from '../domain/intent.js';
import { isLive, type InstrumentKind, type Order } from '../domain/order.js';
import { type Position, type PositionLeg, type PositionProtection, positionKey } from '../domain/position.js';
import { markPrice, type MarketSnapshot } from '../domain/snapshot.js';
import { EquityTracker } from '../portfolio/equity-tracker.js';
import { Portfolio } from '../portfolio/portfolio.js';
import type { RiskLimits, RiskState } from '../risk/risk-rule.js';
import type { TradingStateView } from '../strategy/strategy-context.js';

/** Where the state reads orders from (the order managers of every venue). */
export interface OrderBookView {
  liveOrders(): readonly Order[];
  order(clientOrderId: string): Order | undefined;
  /** Execution algorithms' parents (optional: tests without order managers have none). */
  algoOrders?(strategyId: StrategyId): readonly AlgoParent[];
}

/** The empty lists and map of the kill switch's state (made once: it is built on every snapshot). */
const NOTHING: readonly never[] = Object.freeze([]);
const NO_LEVERAGE: Readonly<Record<string, number>> = Object.freeze({});

export class TradingState implements TradingStateView {
  private readonly snapshots = new Map<string, MarketSnapshot>();
  private readonly polledMarks = new Map<string, Decimal>();
  private readonly stops = new Map<string, readonly PositionProtection[]>();
  private readonly accounts = new Map<InstrumentKind, AccountSnapshot>();
  private readonly venuePositions = new Map<InstrumentKind, readonly Position[]>();
  private readonly accountBooks = new Map<InstrumentKind, Portfolio>();
  private readonly strategyBooks = new Map<string, Portfolio>();
  private readonly leverageByKey: Record<string, number> = {};
  private mode: PositionModeName | undefined;
  readonly equity = new EquityTracker(0);

  constructor(
    readonly instruments: InstrumentRegistry,
    private readonly orders: OrderBookView,
    readonly limits: RiskLimits,
    readonly valuationAsset: string,
  ) {}

  // ---------- updates ----------

  setSnapshot(s: MarketSnapshot): void {
    this.snapshots.set(s.symbol, s);
  }

  /** The venue's balances of one account kind (the truth at `account.time`). */
  setAccount(account: AccountSnapshot): void {
    this.accounts.set(account.kind, account);
    this.accountBook(account.kind).adoptBalances(account);
  }

  /**
   * The venue's open positions of one account kind. Leverage is taken as is; quantities replace the
   * account book's only for `adopt` (every key at start-up; later, confirmed drifts): between two
   * reconciliations our book may know a fill the venue list does not show yet, or the other way round.
   * Strategy books are never changed here: a difference the venue's fills do not explain reaches a
   * strategy as a journaled PositionAdjusted (the runtime decides whose position it is).
   */
  setVenuePositions(kind: InstrumentKind, positions: readonly Position[], adopt: 'all' | ReadonlySet<string>): void {
    this.venuePositions.set(kind, positions);
    for (const p of positions) if (p.leverage !== undefined) this.leverageByKey[positionKey(p.symbol, p.leg)] = p.leverage;
    if (kind !== 'contract') return;
    const book = this.accountBook(kind);
    // Nothing to adopt (every reconciliation tick without a confirmed drift): the passes below would change nothing.
    if (adopt !== 'all' && adopt.size === 0) return;
    const take = (key: string): boolean => adopt === 'all' || adopt.has(key);
    const open = new Set(positions.map((p) => positionKey(p.symbol, p.leg)));
    for (const p of positions) if (take(positionKey(p.symbol, p.leg))) book.adoptPosition(p);
    for (const p of book.positions()) {
      const key = positionKey(p.symbol, p.leg);
      if (!open.has(key) && !p.quantity.isZero() && take(key)) book.adoptPosition({ ...p, quantity: ZERO, entryPrice: ZERO });
    }
  }

  /** The venue's positions of one account kind as last read. */
  venuePositionsOf(kind: InstrumentKind): readonly Position[] {
    return this.venuePositions.get(kind) ?? [];
  }

  setPositionMode(mode: PositionModeName | undefined): void {
    this.mode = mode;
  }

  /** A fill of a strategy's order: into its own book (restored fills too) — counted once by trade id. */
  applyStrategyFill(strategyId: StrategyId, fill: Fill): void {
    this.strategyBook(strategyId).applyFill(fill);
  }

  /** Applies an execution event to the account and strategy books and the settings caches. */
  apply(e: ExecutionEvent): void {
    switch (e.type) {
      case 'OrderFilled':
      case 'OrderPartiallyFilled': {
        const sid = e.strategyId ?? e.fill.strategyId;
        if (sid !== undefined) this.applyStrategyFill(sid, e.fill);
        this.accountBook(e.fill.kind).applyFill(e.fill);
        break;
      }
      case 'VenueFill':
        if (e.strategyId !== undefined) this.applyStrategyFill(e.strategyId, e.fill);
        this.accountBook(e.fill.kind).applyFill(e.fill);
        break;
      case 'PositionAdjusted':
        if (e.strategyId !== undefined) this.strategyBook(e.strategyId).adoptPosition(e.position);
        break;
      case 'FundingSettled': {
        this.accountBook('contract').applyFunding(e.symbol, e.leg, e.amount, e.asset, e.ts);
        if (e.strategyId !== undefined) this.strategyBook(e.strategyId).applyFunding(e.symbol, e.leg, e.amount, e.asset, e.ts);
        break;
      }
      case 'LeverageChanged': {
        const legs: PositionLeg[] = e.positionSide ? [e.positionSide] : ['net', 'long', 'short'];
        for (const leg of legs) this.leverageByKey[positionKey(e.symbol, leg)] = e.leverage;
        break;
      }
      case 'PositionModeChanged':
        this.mode = e.mode;
        break;
      default:
        break;
    }
  }

  /** Values every account book at the latest marks and feeds the equity tracker; undefined when a mark is missing. */
  updateEquity(now: number): Decimal | undefined {
    // Valued at every snapshot: the first book's equity is taken as it is when adding it to zero could
    // not round it (withinPrecision) and it is not zero (0 + −0 is +0).
    let total: Decimal | undefined;
    for (const book of this.accountBooks.values()) {
      const e = book.equity(this.mark);
      if (e === undefined) {
        this.equity.unknown(unvaluedReason(book.unvalued(this.mark), book.valuationAsset));
        return undefined;
      }
      total = total !== undefined ? total.plus(e) : !e.isZero() && withinPrecision(e) ? e : ZERO.plus(e);
    }
    if (total === undefined) return undefined;
    this.equity.update(now, total);
    return total;
  }

  // ---------- reads ----------

  /** A symbol's mark: its newest snapshot, else the price polled for valuation (an asset held but not traded). */
  readonly mark = (symbol: InstrumentSymbol): Decimal | undefined => markPrice(this.snapshots.get(symbol)) ?? this.polledMarks.get(symbol);

  /** Symbols the account books need a price of (held assets, open positions), sorted. */
  valuationSymbols(): InstrumentSymbol[] {
    const out = new Set<InstrumentSymbol>();
    for (const book of this.accountBooks.values()) for (const s of book.pricedBy()) out.add(s);
    return [...out].sort();
  }

  /** A price read for valuation only (no strategy sees it); a snapshot of the symbol takes precedence. */
  setPolledMark(symbol: InstrumentSymbol, price: Decimal): void {
    this.polledMarks.set(symbol, price);
  }

  instrument(symbol: InstrumentSymbol): Instrument | undefined {
    return this.instruments.instrument(symbol);
  }

  positions(strategyId: StrategyId): readonly Position[] {
    return this.strategyBooks.get(strategyId)?.positions() ?? [];
  }

  balances(): readonly Balance[] {
    const out: Balance[] = [];
    for (const a of this.accounts.values()) out.push(...Object.values(a.balances));
    return out;
  }

  openOrders(strategyId: StrategyId): readonly Order[] {
    const live = this.orders.liveOrders();
    return live.length === 0 ? live : live.filter((o) => o.strategyId === strategyId);
  }

  order(clientOrderId: ClientOrderId): Order | undefined {
    return this.orders.order(clientOrderId);
  }

  algoOrders(strategyId: StrategyId): readonly AlgoParent[] {
    return this.orders.algoOrders?.(strategyId) ?? [];
  }

  lastSnapshot(symbol: InstrumentSymbol): MarketSnapshot | undefined {
    return this.snapshots.get(symbol);
  }

  protectiveStops(symbol: InstrumentSymbol): readonly PositionProtection[] | undefined {
    return this.stops.get(symbol);
  }

  /** The venue's TP/SL orders of a symbol as just read. */
  setProtectiveStops(symbol: InstrumentSymbol, stops: readonly PositionProtection[]): void {
    this.stops.set(symbol, stops);
  }

  account(kind: InstrumentKind): AccountSnapshot | undefined {
    return this.accounts.get(kind);
  }

  positionMode(): PositionModeName | undefined {
    return this.mode;
  }

  strategyBook(strategyId: StrategyId): Portfolio {
    let b = this.strategyBooks.get(strategyId);
    if (!b) this.strategyBooks.set(strategyId, (b = new Portfolio(this.instruments, this.valuationAsset)));
    return b;
  }

  accountBook(kind: InstrumentKind): Portfolio {
    let b = this.accountBooks.get(kind);
    if (!b) this.accountBooks.set(kind, (b = new Portfolio(this.instruments, this.valuationAsset)));
    return b;
  }

  /**
   * What the kill switch reads on every snapshot: the clock, the limits and the equity metrics. Built
   * without the positions, orders and leverage an intent's RiskState carries, which it never reads.
   */
  killSwitchState(now: number, rejectTimes: readonly number[] = []): RiskState {
    return {
      now,
      positions: NOTHING,
      strategyPositions: NOTHING,
      openOrders: NOTHING,
      leverage: NO_LEVERAGE,
      limits: this.limits,
      metrics: this.equity.metrics(rejectTimes),
      instruments: this.instruments,
    };
  }

  /** What the risk engine sees for one intent of `strategyId` on `symbol` at the `kind` venue. */
  riskState(
    now: number,
    kind: InstrumentKind,
    strategyId: StrategyId,
    symbol: InstrumentSymbol | undefined,
    rejectTimes: readonly number[] = [],
  ): RiskState {
    const account = this.accounts.get(kind);
    const snapshot = symbol ? this.snapshots.get(symbol) : undefined;
    const venuePositions = kind === 'contract' ? this.accountBook('contract').positions() : [];
    return {
      now,
      ...(snapshot ? { snapshot } : {}),
      ...(account ? { account } : {}),
      positions: venuePositions,
      strategyPositions: this.positions(strategyId),
      openOrders: this.orders.liveOrders().filter((o) => isLive(o.status)),
      ...(this.mode ? { positionMode: this.mode } : {}),
      leverage: { ...this.leverageByKey },
      limits: this.limits,
      metrics: this.equity.metrics(rejectTimes),
      instruments: this.instruments,
    };
  }
}

/** "no price for ETH (ETHUSDT): …" — the asset, and what makes it valued. */
export function unvaluedReason(missing: readonly { readonly asset: string; readonly symbol?: string }[], valuationAsset: string): string {
  if (missing.length === 0) return 'no account balances reported yet';
  const what = missing.map((m) => (m.symbol && m.symbol !== m.asset ? `${m.asset} (${m.symbol})` : m.asset)).join(', ');
  const symbols = missing.map((m) => m.symbol).filter((s): s is string => s !== undefined);
  const fix = symbols.length
    ? `a live or paper run reads ${symbols.join(', ')} at each reconciliation (a failed read is logged as a warning; a backtest reads only its instruments): add ${symbols.join(', ')} to instruments, or move the asset out of this account`
    : `no ${valuationAsset} market prices it: move it out of this account, or set risk.valuationAsset`;
  return `no price for ${what}: ${fix}`;
}
