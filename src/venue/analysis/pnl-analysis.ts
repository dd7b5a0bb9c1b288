/**
 * The figures of the profit-and-loss endpoints (contract-api.md §4.2), computed from a PnlRecorder.
 * Where the document is silent:
 *
 * - Days are UTC days (00:00 UTC, the snapshot time). Today runs up to now.
 * - Daily PnL = realised (close PnL − fees + funding + liquidation effects); with
 *   includeUnrealisedPnl it also moves by the change of unrealised PnL over the day (midnight
 *   snapshots; the live value for today).
 * - A rate is PnL / base, base = equity at the start of the period (the latest snapshot at or before
 *   it, or the account's baseline) + net transfers made after that snapshot up to the period's end;
 *   0 when the base is not positive. Rates are rounded half-up to 6 decimals, amounts are exact.
 * - Amounts of several settle coins are added as USDT: USDT and USDC 1:1, any other coin at the live
 *   fair price of its <COIN>_USDT contract (left out when there is none).
 * - winRate = days with a positive PnL / days with a non-zero PnL in the period.
 * - profit_rate ranks the tracked accounts by their rate over the last complete day (type 1) or the
 *   last 7 complete days (type 2); statisticTime is today's 00:00 UTC.
 * - recent N days = the N UTC days ending with today.
 */
import { Decimal } from '../../core/decimal.js';
import { netOf, type EquitySnapshot, type PnlRecorder } from './pnl-recorder.js';
import { DAY_MS, dayStart, daysBetween, monthStart, nextMonthStart, weekStart } from './utc-calendar.js';

const ZERO = new Decimal(0);
const STABLE = new Set(['USDT', 'USDC']);

export interface PnlQuery {
  /** Settle coins included (default: all). */
  readonly currency?: ((currency: string) => boolean) | undefined;
  /** Only this contract's PnL (equity bases stay the currency's). */
  readonly symbol?: string | undefined;
  readonly includeUnrealised?: boolean | undefined;
}

/** reverse: 0 all, 1 USDT-margined, 2 coin-margined, 3 USDC-margined. */
export function currencyOfReverse(reverse: number | undefined): ((c: string) => boolean) | undefined {
  switch (reverse) {
    case 1:
      return (c) => c === 'USDT';
    case 2:
      return (c) => !STABLE.has(c);
    case 3:
      return (c) => c === 'USDC';
    default:
      return undefined;
  }
}

export interface DayFigure {
  readonly day: number;
  readonly pnl: Decimal;
  readonly rate: Decimal;
  /** Equity at the end of the day (next midnight snapshot; live for today). */
  readonly equity: Decimal;
  readonly indexChange: Decimal;
}

export interface PeriodFigures {
  readonly from: number;
  readonly to: number;
  readonly days: readonly DayFigure[];
  readonly totalPnl: Decimal;
  /** Cumulative PnL after each day. */
  readonly accumPnl: readonly Decimal[];
  readonly accumRate: readonly Decimal[];
  readonly winRate: Decimal;
}

export interface PnlAmount {
  readonly pnl: Decimal;
  readonly rate: Decimal;
}

export interface ProfitRank {
  readonly ranking: number;
  readonly profitRate: Decimal;
  readonly statisticTime: number;
}

export interface PnlAnalysisOptions {
  readonly now: () => number;
  /** Live fair price of a contract (coin valuation). */
  readonly fairPrice: (symbol: string) => Decimal | undefined;
  /** Live index price of a contract (today's benchmark move). */
  readonly indexPrice: (symbol: string) => Decimal | undefined;
  /** Benchmark of dailyIndexPriceRiseFallRateList when no symbol is asked for. */
  readonly referenceSymbol?: string | undefined;
}

export class PnlAnalysis {
  constructor(
    private readonly rec: PnlRecorder,
    private readonly opts: PnlAnalysisOptions,
  ) {}

  // ---------------------------------------------------------------- building blocks

  /** PnL of one UTC day. */
  dayPnl(accountId: string, day: number, q: PnlQuery = {}): Decimal {
    let sum = ZERO;
    const r = this.rec.dayRecord(accountId, day);
    if (r) {
      for (const s of r.bySymbol.values()) {
        if (!this.included(s.currency, s.symbol, q)) continue;
        sum = sum.add(this.usdt(s.currency, netOf(s.parts)));
      }
    }
    if (q.includeUnrealised) sum = sum.add(this.unrealisedAt(accountId, day + DAY_MS, q).sub(this.unrealisedAt(accountId, day, q)));
    return sum;
  }

  /** Equity (valued in USDT) at `t`: a snapshot, or live when `t` is now or later. */
  equityAt(accountId: string, t: number, q: PnlQuery = {}): Decimal {
    const s = t >= this.opts.now() ? this.rec.live(accountId) : this.rec.snapshotAt(accountId, t);
    return s ? this.equityOf(s, q) : ZERO;
  }

  /** The rate denominator of a period [from, to]. */
  rateBase(accountId: string, from: number, to: number, q: PnlQuery = {}): Decimal {
    const now = this.opts.now();
    const s = from >= now ? this.rec.live(accountId) : this.rec.snapshotAt(accountId, from);
    if (!s) return ZERO;
    let base = this.equityOf(s, q);
    for (const d of this.rec.recordedDays(accountId)) {
      if (d + DAY_MS <= s.time || d > to) continue;
      for (const t of this.rec.dayRecord(accountId, d)!.transfers) {
        if (t.time > s.time && t.time <= to && this.currencyOk(t.currency, q)) base = base.add(this.usdt(t.currency, t.amount));
      }
    }
    return base;
  }

  rate(pnl: Decimal, base: Decimal): Decimal {
    return base.gt(0) ? pnl.div(base).toDecimalPlaces(6, Decimal.ROUND_HALF_UP) : ZERO;
  }

  // ---------------------------------------------------------------- endpoint figures

  /** Days from the day of `from` to the day of `to` (clipped at today). */
  period(accountId: string, from: number, to: number, q: PnlQuery = {}): PeriodFigures {
    const now = this.opts.now();
    const end = Math.min(to, now);
    const days: DayFigure[] = [];
    const accumPnl: Decimal[] = [];
    const accumRate: Decimal[] = [];
    const base = this.rateBase(accountId, dayStart(from), end, q);
    let acc = ZERO;
    let wins = 0;
    let nonZero = 0;
    for (const d of daysBetween(from, end)) {
      const pnl = this.dayPnl(accountId, d, q);
      const dayBase = this.rateBase(accountId, d, Math.min(d + DAY_MS - 1, now), q);
      days.push({
        day: d,
        pnl,
        rate: this.rate(pnl, dayBase),
        equity: this.equityAt(accountId, d + DAY_MS, q),
        indexChange: this.indexChange(d, q),
      });
      acc = acc.add(pnl);
      accumPnl.push(acc);
      accumRate.push(this.rate(acc, base));
      if (!pnl.isZero()) nonZero++;
      if (pnl.gt(0)) wins++;
    }
    return {
      from: dayStart(from),
      to: end,
      days,
      totalPnl: acc,
      accumPnl,
      accumRate,
      winRate: nonZero === 0 ? ZERO : new Decimal(wins).div(nonZero).toDecimalPlaces(6, Decimal.ROUND_HALF_UP),
    };
  }

  /** asset/analysis/{type}: 1 this week, 2 this month, 3 all, 4 custom [startTime, endTime]. */
  periodOfType(
    accountId: string,
    type: 1 | 2 | 3 | 4,
    custom: { startTime?: number | undefined; endTime?: number | undefined },
  ): { from: number; to: number } {
    const now = this.opts.now();
    switch (type) {
      case 1:
        return { from: weekStart(now), to: now };
      case 2:
        return { from: monthStart(now), to: now };
      case 3:
        return { from: this.rec.firstDay(accountId) ?? dayStart(now), to: now };
      case 4:
        return { from: custom.startTime ?? dayStart(now), to: custom.endTime ?? now };
    }
  }

  today(accountId: string, q: PnlQuery = {}): PnlAmount {
    const d = dayStart(this.opts.now());
    const pnl = this.dayPnl(accountId, d, q);
    return { pnl, rate: this.rate(pnl, this.rateBase(accountId, d, this.opts.now(), q)) };
  }

  yesterday(accountId: string, q: PnlQuery = {}): Decimal {
    return this.dayPnl(accountId, dayStart(this.opts.now()) - DAY_MS, q);
  }

  /** The `n` UTC days ending with today. */
  recent(accountId: string, n: number, q: PnlQuery = {}): PnlAmount {
    const now = this.opts.now();
    const from = dayStart(now) - (n - 1) * DAY_MS;
    let pnl = ZERO;
    for (let d = from; d <= now; d += DAY_MS) pnl = pnl.add(this.dayPnl(accountId, d, q));
    return { pnl, rate: this.rate(pnl, this.rateBase(accountId, from, now, q)) };
  }

  /** Every UTC day of [from, to] (clipped at today) with its PnL. */
  calendarDaily(accountId: string, from: number, to: number, q: PnlQuery = {}): { day: number; pnl: Decimal }[] {
    const end = Math.min(to, this.opts.now());
    return daysBetween(from, end).map((day) => ({ day, pnl: this.dayPnl(accountId, day, q) }));
  }

  /** Every month from the account's first activity to this month. */
  calendarMonthly(accountId: string, q: PnlQuery = {}): { month: number; pnl: Decimal }[] {
    const now = this.opts.now();
    const first = this.rec.firstDay(accountId) ?? dayStart(now);
    const out: { month: number; pnl: Decimal }[] = [];
    for (let m = monthStart(first); m <= now; m = nextMonthStart(m)) {
      let pnl = ZERO;
      const end = Math.min(nextMonthStart(m) - 1, now);
      for (let d = Math.max(m, first); d <= end; d += DAY_MS) pnl = pnl.add(this.dayPnl(accountId, d, q));
      out.push({ month: m, pnl });
    }
    return out;
  }

  /** profit_rate/{type}: 1 the last complete day, 2 the last 7 complete days. */
  profitRate(accountId: string, type: 1 | 2): ProfitRank {
    const today = dayStart(this.opts.now());
    const from = today - (type === 1 ? 1 : 7) * DAY_MS;
    const rateOf = (a: string): Decimal => {
      let pnl = ZERO;
      for (let d = from; d < today; d += DAY_MS) pnl = pnl.add(this.dayPnl(a, d));
      return this.rate(pnl, this.rateBase(a, from, today - 1));
    };
    const mine = rateOf(accountId);
    let better = 0;
    for (const other of this.rec.trackedAccounts()) if (other !== accountId && rateOf(other).gt(mine)) better++;
    return { ranking: better + 1, profitRate: mine, statisticTime: today };
  }

  /** Live equity (valued in USDT) of the included currencies. */
  totalEquity(accountId: string, q: PnlQuery = {}): Decimal {
    return this.equityOf(this.rec.live(accountId), q);
  }

  // ---------------------------------------------------------------- helpers

  private indexChange(day: number, q: PnlQuery): Decimal {
    const symbol = q.symbol ?? this.opts.referenceSymbol;
    if (symbol === undefined) return ZERO;
    const start = this.rec.pricesAt(day)?.get(symbol)?.index;
    const endT = day + DAY_MS;
    const end = endT > this.opts.now() ? this.opts.indexPrice(symbol) : this.rec.pricesAt(endT)?.get(symbol)?.index;
    if (!start || !end || start.isZero()) return ZERO;
    return end.sub(start).div(start).toDecimalPlaces(6, Decimal.ROUND_HALF_UP);
  }

  private unrealisedAt(accountId: string, t: number, q: PnlQuery): Decimal {
    const s = t >= this.opts.now() ? this.rec.live(accountId) : this.rec.snapshotAt(accountId, t);
    if (!s || (s.time > t && !s.midnight)) return ZERO;
    let sum = ZERO;
    for (const [symbol, u] of s.unrealised) if (this.included(u.currency, symbol, q)) sum = sum.add(this.usdt(u.currency, u.value));
    return sum;
  }

  private equityOf(s: EquitySnapshot, q: PnlQuery): Decimal {
    let sum = ZERO;
    for (const [c, v] of s.equity) if (this.currencyOk(c, q)) sum = sum.add(this.usdt(c, v));
    return sum;
  }

  private included(currency: string, symbol: string, q: PnlQuery): boolean {
    return this.currencyOk(currency, q) && (q.symbol === undefined || q.symbol === symbol);
  }

  private currencyOk(currency: string, q: PnlQuery): boolean {
    return q.currency === undefined || q.currency(currency);
  }

  private usdt(currency: string, amount: Decimal): Decimal {
    if (STABLE.has(currency)) return amount;
    const p = this.opts.fairPrice(`${currency}_USDT`);
    return p ? amount.mul(p) : ZERO;
  }
}
