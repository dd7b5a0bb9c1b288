/**
 * Positions, balances, realised / unrealised PnL, fees and funding, from fills and funding events
 * (pure arithmetic, deterministic; fills deduplicated by trade id). One Portfolio per book: the
 * runtime keeps one for the account and one per strategy (fed that strategy's fills).
 *
 * Spot: a fill moves the base and quote balances (the fee leaves its own asset) and the `net`
 * position keeps the average cost for PnL. Contract: a fill moves the position of its leg; realised
 * PnL, fees and funding move the settle-coin balance. Equity = balances valued in the valuation asset
 * (spot assets at the mark of `<ASSET><VALUATION>`) + unrealised PnL of contract positions.
 */
import { Decimal, ZERO } from '../core/decimal.js';
import { type InstrumentSymbol, spotSymbol } from '../core/ids.js';
import type { AccountSnapshot, Balance } from '../domain/balance.js';
import { totalOf } from '../domain/balance.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Fill } from '../domain/fill.js';
import type { Instrument } from '../domain/instrument.js';
import type { InstrumentLookup } from '../domain/instrument-registry.js';
import { flatPosition, type Position, type PositionLeg, positionKey } from '../domain/position.js';
import { applyFillToPosition, unrealizedPnl } from './position-math.js';

export type MarkLookup = (symbol: InstrumentSymbol) => Decimal | undefined;

export interface EquityPoint {
  readonly time: number;
  /** Undefined when a price needed to value a holding is missing. */
  readonly equity?: Decimal;
  readonly realized: Decimal;
  readonly unrealized: Decimal;
  /** Fees paid in the valuation asset. */
  readonly fees: Decimal;
  readonly funding: Decimal;
}

export class Portfolio {
  private readonly positionsByKey = new Map<string, Position>();
  private readonly balanceByAsset = new Map<string, Decimal>();
  private readonly feeByAsset = new Map<string, Decimal>();
  /**
   * Fills counted, by instrument and trade id: one portfolio books spot and perpetual fills, and the two
   * venues number their trades independently (a backtest's simulated spot and contract venues both
   * start at 1: the perpetual leg of a funding carry was dropped as a repeat of the spot leg's trade).
   */
  private readonly seen = new Set<string>();
  private realized = ZERO;
  private funding = ZERO;

  constructor(
    private readonly instruments: InstrumentLookup,
    readonly valuationAsset = 'USDT',
  ) {}

  /** Applies a fill once; false when its trade (instrument and trade id) was already counted or its instrument is unknown. */
  applyFill(fill: Fill): boolean {
    const counted = `${fill.symbol}\u0000${fill.tradeId}`;
    if (this.seen.has(counted)) return false;
    const inst = this.instruments.instrument(fill.symbol);
    if (!inst) return false;
    this.seen.add(counted);
    const leg: PositionLeg = fill.positionSide ?? 'net';
    const key = positionKey(fill.symbol, leg);
    const pos = this.positionsByKey.get(key) ?? flatPosition(fill.symbol, inst.kind, leg, multiplierOf(inst), settleOf(inst), fill.time);
    const { position, realized } = applyFillToPosition(pos, fill);
    this.positionsByKey.set(key, position);
    this.positionList = undefined;
    this.realized = this.realized.plus(realized);
    if (inst.kind === 'spot') {
      const notional = fill.price.mul(fill.quantity);
      this.add(inst.baseAsset, fill.side === 'buy' ? fill.quantity : fill.quantity.neg());
      this.add(inst.quoteAsset, fill.side === 'buy' ? notional.neg() : notional);
    } else {
      this.add(inst.settleCoin, realized);
    }
    if (fill.feeAsset && !fill.fee.isZero()) {
      this.add(fill.feeAsset, fill.fee.neg());
      this.feeByAsset.set(fill.feeAsset, (this.feeByAsset.get(fill.feeAsset) ?? ZERO).plus(fill.fee));
    }
    return true;
  }

  /** Funding received (+) or paid (−) on a contract position. */
  applyFunding(symbol: InstrumentSymbol, leg: PositionLeg, amount: Decimal, asset: string, time: number): void {
    const inst = this.instruments.instrument(symbol);
    const key = positionKey(symbol, leg);
    const pos =
      this.positionsByKey.get(key) ?? (inst ? flatPosition(symbol, inst.kind, leg, multiplierOf(inst), settleOf(inst), time) : undefined);
    if (pos) {
      this.positionsByKey.set(key, { ...pos, funding: pos.funding.plus(amount), updatedAt: time });
      this.positionList = undefined;
    }
    this.funding = this.funding.plus(amount);
    this.add(asset, amount);
  }

  /** Applies the events that move money (fills, funding); others are ignored. */
  onEvent(e: ExecutionEvent): void {
    if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled' || e.type === 'VenueFill') this.applyFill(e.fill);
    else if (e.type === 'FundingSettled') this.applyFunding(e.symbol, e.leg, e.amount, e.asset, e.ts);
  }

  /** Takes the venue's balances as the truth (start-up, periodic balance reconciliation). */
  adoptBalances(account: AccountSnapshot): void {
    for (const b of Object.values(account.balances)) {
      // The venue's very Balance taken last for this asset, and the asset's total not moved since (a fill,
      // funding or setBalance puts a new Decimal there): the same total again, not worked out again. A
      // backtest's venue answers every reconciliation with the same Balance objects while our account did
      // not move (73,139 of the 73,140 adoptions of the 50.8-day perp-trend run changed nothing).
      const last = this.adoptedBalances.get(b.asset);
      if (last !== undefined && last.balance === b && this.balanceByAsset.get(b.asset) === last.total) continue;
      const total = totalOf(b);
      this.balanceByAsset.set(b.asset, total);
      this.adoptedBalances.set(b.asset, { balance: b, total });
    }
  }

  /** Per asset, the Balance adoptBalances took last and the total it set from it. */
  private readonly adoptedBalances = new Map<string, { readonly balance: Balance; readonly total: Decimal }>();

  /** Takes the venue's position quantity (after a PositionDrift); the entry price comes with it. */
  adoptPosition(venue: Position): void {
    const key = positionKey(venue.symbol, venue.leg);
    const mine = this.positionsByKey.get(key);
    this.positionsByKey.set(
      key,
      mine ? { ...mine, quantity: venue.quantity, entryPrice: venue.entryPrice, updatedAt: venue.updatedAt } : venue,
    );
    this.positionList = undefined;
  }

  setBalance(asset: string, amount: Decimal): void {
    this.balanceByAsset.set(asset, amount);
  }

  balance(asset: string): Decimal {
    return this.balanceByAsset.get(asset) ?? ZERO;
  }

  balances(): ReadonlyMap<string, Decimal> {
    return this.balanceByAsset;
  }

  position(symbol: InstrumentSymbol, leg: PositionLeg = 'net'): Position | undefined {
    return this.positionsByKey.get(positionKey(symbol, leg));
  }

  /**
   * Every position, sorted by key: one list until a position changes (the runtime reads the strategy's
   * book on every snapshot and the account book on every reconciliation; the copy and sort were per read).
   */
  positions(): readonly Position[] {
    return (this.positionList ??= Object.freeze(
      [...this.positionsByKey.values()].sort((a, b) => (positionKey(a.symbol, a.leg) < positionKey(b.symbol, b.leg) ? -1 : 1)),
    ));
  }

  private positionList: readonly Position[] | undefined;

  fees(): ReadonlyMap<string, Decimal> {
    return this.feeByAsset;
  }

  realizedPnl(): Decimal {
    return this.realized;
  }

  fundingTotal(): Decimal {
    return this.funding;
  }

  /** Unrealised PnL over all positions with a mark; `missing` lists positions without one. */
  unrealized(marks: MarkLookup): { value: Decimal; missing: InstrumentSymbol[] } {
    let value = ZERO;
    const missing: InstrumentSymbol[] = [];
    for (const p of this.positionsByKey.values()) {
      if (p.quantity.isZero()) continue;
      const m = marks(p.symbol);
      if (!m) missing.push(p.symbol);
      else value = value.plus(unrealizedPnl(p, m));
    }
    return { value, missing };
  }

  /** Balances in the valuation asset plus contract unrealised PnL; undefined when a price is missing. */
  equity(marks: MarkLookup): Decimal | undefined {
    // Valued at every snapshot and equity sample: the first term is taken as it is (0 + x is x).
    let total: Decimal | undefined;
    for (const [asset, amount] of this.balanceByAsset) {
      if (amount.isZero()) continue;
      let value: Decimal;
      if (asset === this.valuationAsset) value = amount;
      else {
        const px = this.assetPrice(asset, marks);
        if (!px) return undefined;
        value = amount.mul(px);
      }
      total = total === undefined ? value : total.plus(value);
    }
    if (total === undefined) total = ZERO;
    for (const p of this.positionsByKey.values()) {
      if (p.kind !== 'contract' || p.quantity.isZero()) continue;
      const m = marks(p.symbol);
      if (!m) return undefined;
      const u = unrealizedPnl(p, m);
      total = total.plus(p.settleAsset === this.valuationAsset ? u : u.mul(this.assetPrice(p.settleAsset, marks) ?? new Decimal(NaN)));
    }
    return total.isNaN() ? undefined : total;
  }

  /**
   * What equity() could not price: each held asset without a `<ASSET><VALUATION>` price, and each open
   * contract position without a mark — with the symbol whose price is missing. Empty when it values.
   */
  unvalued(marks: MarkLookup): { readonly asset: string; readonly symbol?: string }[] {
    return this.priceNeeds().filter((n) => n.symbol === undefined || !this.priceOf(n.symbol, marks));
  }

  /** Every symbol whose price equity() needs: `<ASSET><VALUATION>` of each held asset, and each open contract position's. */
  pricedBy(): InstrumentSymbol[] {
    return [...new Set(this.priceNeeds().flatMap((n) => (n.symbol === undefined ? [] : [n.symbol])))];
  }

  /** What equity() must price: each held asset but the valuation asset (with its symbol, when one exists), each open position. */
  private priceNeeds(): { readonly asset: string; readonly symbol?: InstrumentSymbol }[] {
    const out: { asset: string; symbol?: InstrumentSymbol }[] = [];
    for (const [asset, amount] of this.balanceByAsset) {
      if (amount.isZero() || asset === this.valuationAsset) continue;
      const symbol = this.valuationSymbol(asset);
      out.push(symbol ? { asset, symbol } : { asset });
    }
    for (const p of this.positionsByKey.values())
      if (p.kind === 'contract' && !p.quantity.isZero()) out.push({ asset: p.symbol, symbol: p.symbol });
    return out;
  }

  /** A mark, or undefined when the lookup has none or refuses the symbol. */
  private priceOf(symbol: InstrumentSymbol, marks: MarkLookup): Decimal | undefined {
    try {
      return marks(symbol);
    } catch {
      return undefined;
    }
  }

  equityPoint(time: number, marks: MarkLookup): EquityPoint {
    const eq = this.equity(marks);
    return {
      time,
      ...(eq ? { equity: eq } : {}),
      realized: this.realized,
      unrealized: this.unrealized(marks).value,
      fees: this.feeByAsset.get(this.valuationAsset) ?? ZERO,
      funding: this.funding,
    };
  }

  private assetPrice(asset: string, marks: MarkLookup): Decimal | undefined {
    const symbol = this.valuationSymbol(asset);
    return symbol === undefined ? undefined : this.priceOf(symbol, marks);
  }

  /** `<ASSET><VALUATION>` when that is a spot symbol (asked at every valuation: kept per asset). */
  private valuationSymbol(asset: string): InstrumentSymbol | undefined {
    if (this.valuationSymbols.has(asset)) return this.valuationSymbols.get(asset);
    let symbol: InstrumentSymbol | undefined;
    try {
      symbol = spotSymbol(`${asset}${this.valuationAsset}`);
    } catch {
      symbol = undefined;
    }
    this.valuationSymbols.set(asset, symbol);
    return symbol;
  }

  private readonly valuationSymbols = new Map<string, InstrumentSymbol | undefined>();

  private add(asset: string, amount: Decimal): void {
    this.balanceByAsset.set(asset, (this.balanceByAsset.get(asset) ?? ZERO).plus(amount));
  }
}

const multiplierOf = (i: Instrument): Decimal => (i.kind === 'contract' ? i.contractSize : new Decimal(1));
const settleOf = (i: Instrument): string => (i.kind === 'contract' ? i.settleCoin : i.quoteAsset);
