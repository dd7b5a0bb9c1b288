/**
 * Performance statistics of a backtest run. Pure functions of the run; each formula is written next
 * to its code so a user can check a number by hand.
 *
 * Conventions (stated once, used everywhere):
 * - Year: 365 days (crypto trades every day). periodsPerYear = 365 · 86 400 000 / returnPeriodMs.
 * - Equity E(t) is the run's sampled equity in the valuation asset; E₀ = initial capital.
 * - Periodic returns: the equity curve is read as a step function (last sample at or before t) on the
 *   grid t₀, t₀+P, t₀+2P, … ≤ t_end (P = returnPeriodMs, t₀ = first sample time; a trailing partial
 *   period is left out); rₖ = E(t₀+kP) / E(t₀+(k−1)P) − 1.
 * - Risk-free: annual rate rf (0 unless configured), per period rf_p = (1+rf)^(1/periodsPerYear) − 1.
 * - Ratios that divide by zero (no losses, flat equity, no round trips) are null, never ±Infinity.
 */
import { type Decimal, D, ZERO } from '../../core/decimal.js';
import type { BacktestRun, RunFill } from './backtest-run.js';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;
export const DAYS_PER_YEAR = 365;
export const YEAR_MS = DAYS_PER_YEAR * DAY_MS;

export interface EquityPoint {
  readonly time: number;
  readonly equity: number;
}

export interface MetricsOptions {
  /** Period of the returns behind Sharpe / Sortino. Default: see `defaultReturnPeriodMs`. */
  readonly returnPeriodMs?: number;
  /** Annual risk-free rate; overrides the run's. */
  readonly riskFreeRate?: number;
  /**
   * Only this part [from, to] of the run (a walk-forward window): equity starts from the curve's
   * value at `from` (E₀ = that value), round trips count when they close inside, fills, fees and
   * funding when they happen inside; exposure is measured inside with positions carried in.
   */
  readonly window?: { readonly from: number; readonly to: number };
}

/** One FIFO match between an open lot and a closing fill (LEAN's fill-to-fill grouping). */
export interface RoundTrip {
  readonly symbol: string;
  /** 'net' for one-way / spot, else the hedged leg. */
  readonly leg: string;
  readonly direction: 'long' | 'short';
  readonly quantity: Decimal;
  readonly entryTime: number;
  readonly exitTime: number;
  readonly entryPrice: Decimal;
  readonly exitPrice: Decimal;
  /** long: (exit − entry)·q·multiplier; short: (entry − exit)·q·multiplier. */
  readonly grossPnl: Decimal;
  /** Entry fill's fee pro rata to q, plus exit fill's fee pro rata to q (settle-asset fees only). */
  readonly fees: Decimal;
  readonly netPnl: Decimal;
}

export interface DrawdownStats {
  /** Largest (peak − trough) / peak over the curve, in [0, 1] while equity stays ≥ 0. */
  readonly maxDrawdown: number;
  readonly peakTime: number | null;
  readonly troughTime: number | null;
  /** First time after the trough that equity is back to the peak; null if it never is. */
  readonly recoveryTime: number | null;
  /** recoveryTime − peakTime, or t_end − peakTime when not recovered; 0 without a drawdown. */
  readonly durationMs: number;
}

export interface Metrics {
  readonly startTime: number;
  readonly endTime: number;
  readonly initialEquity: number;
  readonly finalEquity: number;
  /** finalEquity − initialEquity. */
  readonly netPnl: number;
  readonly totalReturn: number;
  readonly annualisedReturn: number | null;
  readonly returnPeriodMs: number;
  readonly periodsPerYear: number;
  readonly riskFreeRate: number;
  readonly volatility: number | null;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly calmar: number | null;
  readonly maxDrawdown: number;
  readonly maxDrawdownDurationMs: number;
  readonly maxDrawdownPeakTime: number | null;
  readonly maxDrawdownTroughTime: number | null;
  readonly maxDrawdownRecoveryTime: number | null;
  readonly roundTrips: number;
  readonly winRate: number | null;
  readonly profitFactor: number | null;
  readonly expectancy: number | null;
  readonly averageWin: number | null;
  readonly averageLoss: number | null;
  readonly exposure: number | null;
  readonly tradedNotional: number;
  readonly turnover: number | null;
  readonly fees: number;
  readonly funding: number;
  /** Number of fills. */
  readonly trades: number;
  readonly orders: number;
}

/** Metric keys whose values are numbers (what a sweep may rank by). */
export type MetricKey = { [K in keyof Metrics]: Metrics[K] extends number | null ? K : never }[keyof Metrics];

// ---------------------------------------------------------------------------------------------
// Short runs

/** Fewer periodic returns than this and Sharpe, Sortino and volatility are noise (shown as withheld). */
export const MIN_RETURNS = 30;
/** A shorter span and annualising compounds noise into absurd figures (−71 % from ten minutes). */
export const MIN_ANNUALISE_MS = 30 * DAY_MS;

/** Number of periodic returns behind the ratios: whole return periods in the curve's span. */
export const returnCount = (m: Pick<Metrics, 'startTime' | 'endTime' | 'returnPeriodMs'>): number =>
  m.returnPeriodMs > 0 ? Math.floor((m.endTime - m.startTime) / m.returnPeriodMs) : 0;

/**
 * The metrics a report withholds for this run, each with the one-line reason shown in its place. The
 * numbers stay in report.json (a script may want them); the page does not show them as results.
 */
export function withheldMetrics(m: Pick<Metrics, 'startTime' | 'endTime' | 'returnPeriodMs'>): Map<MetricKey, string> {
  const out = new Map<MetricKey, string>();
  const n = returnCount(m);
  if (n < MIN_RETURNS) {
    const why = `${n} return${n === 1 ? '' : 's'} of ${formatPeriod(m.returnPeriodMs)}; ${MIN_RETURNS} needed`;
    for (const k of ['sharpe', 'sortino', 'volatility'] as const) out.set(k, why);
  }
  const span = m.endTime - m.startTime;
  if (span < MIN_ANNUALISE_MS) {
    const why = `run of ${formatPeriod(span)}; annualising needs ${MIN_ANNUALISE_MS / DAY_MS} days`;
    for (const k of ['annualisedReturn', 'calmar'] as const) out.set(k, why);
  }
  return out;
}

/** "1 min", "1 h", "1 d", or days/hours/minutes with one decimal for other spans. */
function formatPeriod(ms: number): string {
  if (ms >= DAY_MS) return ms === DAY_MS ? '1 d' : `${Number((ms / DAY_MS).toFixed(1))} d`;
  if (ms >= HOUR_MS) return ms === HOUR_MS ? '1 h' : `${Number((ms / HOUR_MS).toFixed(1))} h`;
  return ms === MINUTE_MS ? '1 min' : `${Number((ms / MINUTE_MS).toFixed(1))} min`;
}

// ---------------------------------------------------------------------------------------------
// Returns, Sharpe, Sortino

/**
 * The longest of 1 day, 1 hour, 1 minute that still gives at least 30 returns over the curve's span
 * (fewer makes the ratios noise), never shorter than the sampling period.
 */
export function defaultReturnPeriodMs(spanMs: number, samplePeriodMs: number): number {
  const choice = spanMs >= 30 * DAY_MS ? DAY_MS : spanMs >= 30 * HOUR_MS ? HOUR_MS : MINUTE_MS;
  return Math.max(choice, samplePeriodMs);
}

/** rₖ = E(t₀+kP) / E(t₀+(k−1)P) − 1 on the step-function grid described at the top. */
export function periodicReturns(points: readonly EquityPoint[], periodMs: number): number[] {
  if (points.length === 0 || !(periodMs > 0)) return [];
  const t0 = points[0]!.time;
  const tEnd = points[points.length - 1]!.time;
  const out: number[] = [];
  let i = 0;
  let prev = points[0]!.equity;
  for (let t = t0 + periodMs; t <= tEnd; t += periodMs) {
    while (i + 1 < points.length && points[i + 1]!.time <= t) i++;
    const e = points[i]!.equity;
    out.push(prev === 0 ? 0 : e / prev - 1);
    prev = e;
  }
  return out;
}

/** rf_p = (1 + rf)^(1/periodsPerYear) − 1. */
export const periodRiskFree = (annualRate: number, periodsPerYear: number): number => Math.pow(1 + annualRate, 1 / periodsPerYear) - 1;

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Sample standard deviation: √(Σ(x − x̄)² / (n − 1)); null for n < 2. */
export function sampleStdDev(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) * (x - m), 0) / (xs.length - 1));
}

/**
 * Below this per-period deviation the returns are taken as flat (ratio undefined): a return is a
 * quotient of two doubles, exact to a few 1e-16, so a deviation of that size is rounding, and
 * dividing by it would turn rounding into an enormous ratio that scaling the curve changes.
 */
const FLAT_RETURNS = 1e-12;

/** Sharpe = mean(eₖ) / sd(eₖ) · √periodsPerYear, eₖ = rₖ − rf_p, sd the sample (n−1) deviation. */
export function sharpeRatio(returns: readonly number[], periodsPerYear: number, annualRiskFree = 0): number | null {
  if (returns.length < 2) return null;
  const rf = periodRiskFree(annualRiskFree, periodsPerYear);
  const excess = returns.map((r) => r - rf);
  const sd = sampleStdDev(excess)!;
  if (!(sd > FLAT_RETURNS)) return null;
  return (mean(excess) / sd) * Math.sqrt(periodsPerYear);
}

/**
 * Sortino = mean(eₖ) / DD · √periodsPerYear, with the downside deviation
 * DD = √(Σ min(eₖ, 0)² / n) over ALL n periods (Sortino & Price, target = rf). Null when no period
 * is below the target.
 */
export function sortinoRatio(returns: readonly number[], periodsPerYear: number, annualRiskFree = 0): number | null {
  if (returns.length < 1) return null;
  const rf = periodRiskFree(annualRiskFree, periodsPerYear);
  const excess = returns.map((r) => r - rf);
  const dd = Math.sqrt(excess.reduce((a, e) => a + (e < 0 ? e * e : 0), 0) / excess.length);
  if (!(dd > FLAT_RETURNS)) return null;
  return (mean(excess) / dd) * Math.sqrt(periodsPerYear);
}

/** Annualised volatility = sd(rₖ) · √periodsPerYear. */
export function annualisedVolatility(returns: readonly number[], periodsPerYear: number): number | null {
  const sd = sampleStdDev(returns);
  return sd === null ? null : sd * Math.sqrt(periodsPerYear);
}

/**
 * Compound annual growth: (E_end / E₀)^(YEAR_MS / span) − 1, span = t_end − t₀ in ms (365-day year).
 * −1 when the account is wiped out; null for a zero span or when the power overflows.
 */
export function annualisedReturn(initialEquity: number, finalEquity: number, spanMs: number): number | null {
  if (!(spanMs > 0) || !(initialEquity > 0)) return null;
  if (finalEquity <= 0) return -1;
  const r = Math.pow(finalEquity / initialEquity, YEAR_MS / spanMs) - 1;
  return Number.isFinite(r) ? r : null;
}

// ---------------------------------------------------------------------------------------------
// Buy-and-hold benchmark

/**
 * Equity of buying the run's instruments at the first sample and holding them, capital split equally:
 * B(t) = E₀ · mean_i(mark_i(t) / mark_i(t₀)), t₀ = the first sample where instrument i has a mark (no
 * fees, no funding: the benchmark is the market's move, not a strategy). Null before every instrument
 * has a mark; undefined when no sample has any.
 */
export function buyAndHold(
  samples: readonly { readonly marks: Readonly<Record<string, Decimal>> }[],
  symbols: readonly string[],
  initialEquity: number,
): (number | null)[] | undefined {
  const base = new Map<string, number>();
  const out = samples.map((s) => {
    for (const sym of symbols) {
      const m = s.marks[sym];
      if (!base.has(sym) && m !== undefined && m.isPositive()) base.set(sym, m.toNumber());
    }
    if (base.size < symbols.length || symbols.length === 0) return null;
    let sum = 0;
    for (const sym of symbols) sum += (s.marks[sym]?.toNumber() ?? base.get(sym)!) / base.get(sym)!;
    return (initialEquity * sum) / symbols.length;
  });
  return out.some((v) => v !== null) ? out : undefined;
}

// ---------------------------------------------------------------------------------------------
// Calendar returns

export interface CalendarReturn {
  /** Start of the calendar month / day (UTC), ms. */
  readonly period: number;
  /** E(b₁) / E(b₀) − 1 over the part of the period the run covers. */
  readonly ret: number;
}

/** Start (UTC) of the month or day after `t`. */
function nextBoundary(t: number, unit: 'month' | 'day'): number {
  const d = new Date(t);
  return unit === 'day'
    ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
    : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/**
 * Return of each UTC calendar month (or day) the curve touches: with boundaries b₀ = first sample
 * time, then each month / day start, then the last sample time, rₖ = E(bₖ₊₁) / E(bₖ) − 1, E read as a
 * step function (last sample at or before t). The first period starts from E₀ (`initialEquity`), so
 * Π(1 + rₖ) = E_end / E₀ = 1 + total return.
 */
export function calendarReturns(points: readonly EquityPoint[], unit: 'month' | 'day', initialEquity?: number): CalendarReturn[] {
  if (points.length === 0) return [];
  const tEnd = points[points.length - 1]!.time;
  const out: CalendarReturn[] = [];
  let i = 0;
  let from = points[0]!.time;
  let prev = initialEquity ?? points[0]!.equity;
  while (from < tEnd) {
    const b = Math.min(nextBoundary(from, unit), tEnd);
    while (i + 1 < points.length && points[i + 1]!.time <= b) i++;
    const e = points[i]!.equity;
    const d = new Date(from);
    const period =
      unit === 'day' ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) : Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    out.push({ period, ret: prev === 0 ? 0 : e / prev - 1 });
    prev = e;
    from = b;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Drawdown

/** dd(t) = E(t) / max_{s≤t} E(s) − 1 (≤ 0), for the drawdown chart. */
export function drawdownSeries(points: readonly EquityPoint[]): number[] {
  let peak = -Infinity;
  return points.map((p) => {
    if (p.equity > peak) peak = p.equity;
    return peak > 0 ? p.equity / peak - 1 : 0;
  });
}

/**
 * Max drawdown = max over t of (peak(t) − E(t)) / peak(t), peak(t) = max_{s≤t} E(s). Its duration runs
 * from the peak before the deepest trough to the first later time E ≥ that peak (recovery), or to the
 * end of the curve when equity never gets back. The first of equal troughs is taken.
 */
export function drawdownStats(points: readonly EquityPoint[]): DrawdownStats {
  let peak = -Infinity;
  let peakTime = 0;
  let worst = 0;
  let worstPeak = 0;
  let worstPeakTime: number | null = null;
  let troughTime: number | null = null;
  let troughIndex = -1;
  points.forEach((p, i) => {
    if (p.equity > peak) {
      peak = p.equity;
      peakTime = p.time;
    }
    const dd = peak > 0 ? (peak - p.equity) / peak : 0;
    if (dd > worst) {
      worst = dd;
      worstPeak = peak;
      worstPeakTime = peakTime;
      troughTime = p.time;
      troughIndex = i;
    }
  });
  if (troughIndex < 0 || worstPeakTime === null)
    return { maxDrawdown: 0, peakTime: null, troughTime: null, recoveryTime: null, durationMs: 0 };
  let recoveryTime: number | null = null;
  for (let i = troughIndex + 1; i < points.length; i++) {
    if (points[i]!.equity >= worstPeak) {
      recoveryTime = points[i]!.time;
      break;
    }
  }
  const end = recoveryTime ?? points[points.length - 1]!.time;
  return { maxDrawdown: worst, peakTime: worstPeakTime, troughTime, recoveryTime, durationMs: end - worstPeakTime };
}

// ---------------------------------------------------------------------------------------------
// Round trips, exposure, turnover

interface Lot {
  qty: Decimal; // signed, remaining
  readonly price: Decimal;
  readonly time: number;
  readonly feePerUnit: Decimal;
}

const signedQty = (f: RunFill): Decimal => (f.side === 'buy' ? f.quantity : f.quantity.neg());
const legOf = (f: RunFill): string => f.positionSide ?? 'net';

/**
 * FIFO matching per (symbol, leg). A fill first closes the oldest open lots of the opposite sign; each
 * (lot, closing fill) match of quantity q is one round trip; what is left of the fill opens a new lot
 * (so a fill that flips the position closes and opens). Fees are shared pro rata to quantity; only
 * fees in the instrument's settle asset count (others are not in the PnL's unit).
 */
export function roundTripsFifo(
  fills: readonly RunFill[],
  multiplierOf: (symbol: string) => Decimal = () => D(1),
  settleAssetOf: (symbol: string) => string | undefined = () => undefined,
): RoundTrip[] {
  const trips: RoundTrip[] = [];
  forEachRoundTrip(fills, multiplierOf, settleAssetOf, (t) => trips.push(t));
  return trips;
}

/**
 * roundTripsFifo's trips handed to `visit` one at a time, in the same order, none kept: a run's
 * metrics need only their sums (60k trips of a 90-day market maker were 50 MB as a list).
 */
export function forEachRoundTrip(
  fills: readonly RunFill[],
  multiplierOf: (symbol: string) => Decimal,
  settleAssetOf: (symbol: string) => string | undefined,
  visit: (trip: RoundTrip) => void,
): void {
  const books = new Map<string, Lot[]>();
  for (const f of fills) {
    const key = `${f.symbol}|${legOf(f)}`;
    let lots = books.get(key);
    if (!lots) books.set(key, (lots = []));
    const settle = settleAssetOf(f.symbol);
    const feeCounts = settle === undefined || settle === f.feeAsset;
    const feePerUnit = feeCounts && !f.quantity.isZero() ? f.fee.div(f.quantity) : ZERO;
    const mult = multiplierOf(f.symbol);
    let q = signedQty(f);
    while (!q.isZero() && lots.length > 0 && lots[0]!.qty.isNegative() !== q.isNegative()) {
      const lot = lots[0]!;
      const m = Decimal_min(lot.qty.abs(), q.abs());
      const long = lot.qty.isPositive();
      const gross = (long ? f.price.minus(lot.price) : lot.price.minus(f.price)).mul(m).mul(mult);
      const fees = lot.feePerUnit.plus(feePerUnit).mul(m);
      visit({
        symbol: f.symbol,
        leg: legOf(f),
        direction: long ? 'long' : 'short',
        quantity: m,
        entryTime: lot.time,
        exitTime: f.time,
        entryPrice: lot.price,
        exitPrice: f.price,
        grossPnl: gross,
        fees,
        netPnl: gross.minus(fees),
      });
      lot.qty = long ? lot.qty.minus(m) : lot.qty.plus(m);
      q = q.isNegative() ? q.plus(m) : q.minus(m);
      if (lot.qty.isZero()) lots.shift();
    }
    if (!q.isZero()) lots.push({ qty: q, price: f.price, time: f.time, feePerUnit });
  }
}

const Decimal_min = (a: Decimal, b: Decimal): Decimal => (a.lte(b) ? a : b);

export interface TradeStats {
  readonly roundTrips: number;
  /** wins / round trips, a win being net PnL > 0. */
  readonly winRate: number | null;
  /** Σ net PnL of winners / |Σ net PnL of losers|; null without a losing trip. */
  readonly profitFactor: number | null;
  /** Σ net PnL / round trips: the average result of one round trip, in the valuation asset. */
  readonly expectancy: number | null;
  readonly averageWin: number | null;
  readonly averageLoss: number | null;
}

export function tradeStats(trips: readonly RoundTrip[]): TradeStats {
  const sum = new TradeStatsSum();
  for (const t of trips) sum.add(t);
  return sum.result();
}

/** tradeStats over trips added one at a time (the same sums in the same order). */
export class TradeStatsSum {
  private count = 0;
  private wins = 0;
  private losses = 0;
  private grossWin = ZERO;
  private grossLoss = ZERO;
  private total = ZERO;

  add(t: RoundTrip): void {
    this.count++;
    this.total = this.total.plus(t.netPnl);
    if (t.netPnl.isPositive() && !t.netPnl.isZero()) {
      this.wins++;
      this.grossWin = this.grossWin.plus(t.netPnl);
    } else if (t.netPnl.isNegative() && !t.netPnl.isZero()) {
      this.losses++;
      this.grossLoss = this.grossLoss.plus(t.netPnl.abs());
    }
  }

  result(): TradeStats {
    const { count, wins, losses, grossWin, grossLoss, total } = this;
    if (count === 0) return { roundTrips: 0, winRate: null, profitFactor: null, expectancy: null, averageWin: null, averageLoss: null };
    return {
      roundTrips: count,
      winRate: wins / count,
      profitFactor: grossLoss.isZero() ? null : grossWin.div(grossLoss).toNumber(),
      expectancy: total.div(count).toNumber(),
      averageWin: wins > 0 ? grossWin.div(wins).toNumber() : null,
      averageLoss: losses > 0 ? grossLoss.div(losses).neg().toNumber() : null,
    };
  }
}

/**
 * Fraction of [start, end] during which any (symbol, leg) position is non-zero, positions rebuilt from
 * the fills (they change only at fills, so this is exact, not sampled). Null for a zero-length range.
 */
export function exposure(fills: readonly RunFill[], start: number, end: number): number | null {
  if (!(end > start)) return null;
  const pos = new Map<string, Decimal>();
  let open = 0;
  let since = start;
  let exposed = 0;
  for (const f of fills) {
    const t = Math.min(Math.max(f.time, start), end);
    if (open > 0) exposed += t - since;
    since = t;
    const key = `${f.symbol}|${legOf(f)}`;
    const before = pos.get(key) ?? ZERO;
    const after = before.plus(signedQty(f));
    pos.set(key, after);
    if (before.isZero() && !after.isZero()) open++;
    else if (!before.isZero() && after.isZero()) open--;
  }
  if (open > 0) exposed += end - since;
  return exposed / (end - start);
}

/** Σ price · quantity · multiplier over fills. */
export function tradedNotional(fills: readonly RunFill[], multiplierOf: (symbol: string) => Decimal = () => D(1)): Decimal {
  let total = ZERO;
  for (const f of fills) total = total.plus(f.price.mul(f.quantity).mul(multiplierOf(f.symbol)));
  return total;
}

// ---------------------------------------------------------------------------------------------
// All of it

/** The curve the metrics use: every sample (from the tape's full-resolution columns when the run has one). */
export function equityPoints(run: Pick<BacktestRun, 'samples' | 'tape'>): EquityPoint[] {
  const e = run.tape?.equity;
  if (e) return e.times.map((time, i) => ({ time, equity: e.values[i]! }));
  return run.samples.map((s) => ({ time: s.time, equity: s.equity.toNumber() }));
}

/**
 * Every metric of a run.
 * - totalReturn = E_end / E₀ − 1 (E₀ = initial capital, E_end = last sample's equity).
 * - annualisedReturn: see `annualisedReturn`, span = last − first sample time.
 * - calmar = annualisedReturn / maxDrawdown (null when there is no drawdown).
 * - turnover = traded notional / mean sampled equity (samples are evenly spaced, so the mean is
 *   time-weighted).
 * - fees = the run's totalFees; funding = Σ funding payments in the valuation asset (+ received).
 *
 * `onRoundTrip` sees each round trip of the pass, in order: without a window, every trip of the run
 * (the report takes its table from it instead of matching the fills a second time).
 */
export function computeMetrics(run: BacktestRun, options: MetricsOptions = {}, onRoundTrip?: (trip: RoundTrip) => void): Metrics {
  const win = options.window;
  const points = win ? windowPoints(equityPoints(run), win.from, win.to) : equityPoints(run);
  const e0 = win ? (points[0]?.equity ?? run.initialCapital.toNumber()) : run.initialCapital.toNumber();
  const startTime = points.length > 0 ? points[0]!.time : (win?.from ?? run.dataRange.firstTime);
  const endTime = points.length > 0 ? points[points.length - 1]!.time : (win?.to ?? run.dataRange.lastTime);
  const finalEquity = points.length > 0 ? points[points.length - 1]!.equity : e0;
  const span = endTime - startTime;
  const returnPeriodMs = options.returnPeriodMs ?? defaultReturnPeriodMs(span, run.samplePeriodMs);
  const periodsPerYear = YEAR_MS / returnPeriodMs;
  const rf = options.riskFreeRate ?? run.riskFreeRate ?? 0;
  const returns = periodicReturns(points, returnPeriodMs);
  const dd = drawdownStats(points);
  const annual = annualisedReturn(e0, finalEquity, span);

  const instruments = new Map(run.instruments.map((i) => [i.symbol, i]));
  const mult = (s: string): Decimal => instruments.get(s)?.multiplier ?? D(1);
  // A window matches lots from the start (positions carried in) and keeps what happens inside it.
  const upTo = win ? run.fills.filter((f) => f.time <= win.to) : run.fills;
  const inside = <T extends { readonly time: number }>(xs: readonly T[]): readonly T[] =>
    win ? xs.filter((x) => x.time >= win.from && x.time <= win.to) : xs;
  const sum = new TradeStatsSum();
  forEachRoundTrip(
    upTo,
    mult,
    (s) => instruments.get(s)?.settleAsset,
    (t) => {
      if (!win || t.exitTime >= win.from) sum.add(t);
      onRoundTrip?.(t);
    },
  );
  const stats = sum.result();
  const fills = inside(run.fills);
  const notional = tradedNotional(fills, mult);
  const meanEquity = points.length > 0 ? points.reduce((a, p) => a + p.equity, 0) / points.length : e0;
  let funding = ZERO;
  for (const f of inside(run.funding)) if (f.asset === run.valuationAsset) funding = funding.plus(f.amount);
  // Fees in a window: the fills' fees in the valuation asset (the run total also converts others).
  let fees = run.totalFees;
  if (win) fees = fills.reduce((a, f) => (f.feeAsset === run.valuationAsset ? a.plus(f.fee) : a), ZERO);

  return {
    startTime,
    endTime,
    initialEquity: e0,
    finalEquity,
    netPnl: finalEquity - e0,
    totalReturn: finalEquity / e0 - 1,
    annualisedReturn: annual,
    returnPeriodMs,
    periodsPerYear,
    riskFreeRate: rf,
    volatility: annualisedVolatility(returns, periodsPerYear),
    sharpe: sharpeRatio(returns, periodsPerYear, rf),
    sortino: sortinoRatio(returns, periodsPerYear, rf),
    calmar: annual !== null && dd.maxDrawdown > 0 ? annual / dd.maxDrawdown : null,
    maxDrawdown: dd.maxDrawdown,
    maxDrawdownDurationMs: dd.durationMs,
    maxDrawdownPeakTime: dd.peakTime,
    maxDrawdownTroughTime: dd.troughTime,
    maxDrawdownRecoveryTime: dd.recoveryTime,
    ...stats,
    exposure: win ? exposure(upTo, win.from, win.to) : exposure(run.fills, run.dataRange.firstTime, run.dataRange.lastTime),
    tradedNotional: notional.toNumber(),
    turnover: meanEquity > 0 ? notional.toNumber() / meanEquity : null,
    fees: fees.toNumber(),
    funding: funding.toNumber(),
    trades: fills.length,
    orders: win
      ? run.orders.filter((o) => o.createdAt >= win.from && o.createdAt <= win.to).length
      : (run.tape?.orderCount ?? run.orders.length),
  };
}

/**
 * The curve restricted to [from, to] as a step function: a point at `from` carrying the last value
 * at or before it (when the curve started earlier), then the samples inside.
 */
export function windowPoints(points: readonly EquityPoint[], from: number, to: number): EquityPoint[] {
  const out: EquityPoint[] = [];
  let before: EquityPoint | undefined;
  for (const p of points) {
    if (p.time < from) before = p;
    else if (p.time <= to) {
      if (out.length === 0 && before && p.time > from) out.push({ time: from, equity: before.equity });
      out.push(p);
    }
  }
  if (out.length === 0 && before) out.push({ time: from, equity: before.equity });
  return out;
}
