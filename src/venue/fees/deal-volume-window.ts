/**
 * Traded amount per account over time, for the TIERED fee mode, the volume discounts and the 30-day
 * fee figures. The fee hook asks for a window sum on every fill of a user account, so a sum must not
 * walk the history: each (account, contract) keeps its fills in time order with running totals, and
 * a window sum is two binary searches per contract (O(contracts · log fills)). Entries older than the
 * retention are dropped in batches; the running total before the first kept entry is remembered so
 * differences stay exact.
 */
import { Decimal } from '../../core/decimal.js';

export interface DealEntry {
  readonly time: number;
  readonly symbol: string;
  /** price · vol · contractSize, in the settle coin. */
  readonly amount: Decimal;
  readonly fee: Decimal;
  /** What discounts and deduction saved on this fill. */
  readonly saved: Decimal;
}

export interface DealFilter {
  /** Exclusive lower bound unless `fromInclusive`. */
  readonly from: number;
  readonly fromInclusive?: boolean;
  /** Inclusive. */
  readonly to: number;
  readonly symbol?: (symbol: string) => boolean;
}

export interface DealTotals {
  readonly amount: Decimal;
  readonly fee: Decimal;
  readonly saved: Decimal;
  readonly count: number;
}

interface Totals {
  amount: Decimal;
  fee: Decimal;
  saved: Decimal;
}

/** One fill's figures as whole units, each worth 10^-scale (the fee model fills one in per fill and reuses it). */
export interface DealUnits {
  amount: number;
  amountScale: number;
  fee: number;
  feeScale: number;
  saved: number;
  savedScale: number;
}

const ZERO = new Decimal(0);
/** 10^0 … 10^22: every one is a double exactly. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** units · 10^k exactly, or NaN once it passes 2^53 (or k > 22). */
export function scaleUp(units: number, k: number): number {
  if (k === 0) return units;
  const m = POW10[k];
  if (m === undefined) return NaN;
  const v = units * m;
  return Number.isSafeInteger(v) ? v : NaN;
}

const decimalOf = (units: number, scale: number): Decimal => (units === 0 ? ZERO : new Decimal(scale === 0 ? units : `${units}e-${scale}`));

/**
 * Running totals of one figure (amount, fee or saved) of one series: after each fill and before the first
 * kept one, as whole units of 10^-scale. The scale is the most decimals a fill has brought; a finer fill
 * rescales the totals (rare: the decimals of a contract's prices, sizes and rates do not change).
 */
export class UnitSums {
  sums: number[] = [];
  /** The total before sums[0] (what pruning dropped). */
  base = 0;
  scale = 0;

  /** The total after the first `k` kept fills. */
  at(k: number): number {
    return k === 0 ? this.base : this.sums[k - 1]!;
  }

  /** `units` · 10^-scale in this sum's units (the sums made finer when needed); NaN when it does not fit. */
  align(units: number, scale: number): number {
    if (scale > this.scale) {
      const k = scale - this.scale;
      const base = scaleUp(this.base, k);
      const sums = this.sums.map((v) => scaleUp(v, k));
      if (Number.isNaN(base) || sums.some(Number.isNaN)) return NaN;
      this.base = base;
      this.sums = sums;
      this.scale = scale;
    }
    return scaleUp(units, this.scale - scale);
  }

  /** Whether adding `x` (in this sum's units) to the totals from fill k on keeps every one below 2^53. */
  fits(k: number, x: number): boolean {
    if (!Number.isSafeInteger(this.at(k) + x)) return false;
    for (let i = k; i < this.sums.length; i++) if (!Number.isSafeInteger(this.sums[i]! + x)) return false;
    return true;
  }

  /** A fill of `x` placed at index k (k = sums.length: the newest). */
  insert(k: number, x: number): void {
    const v = this.at(k) + x;
    if (k === this.sums.length) {
      this.sums.push(v);
      return;
    }
    this.sums.splice(k, 0, v);
    for (let i = k + 1; i < this.sums.length; i++) this.sums[i]! += x;
  }

  /** The figure over the fills with index in [lo, hi). */
  range(lo: number, hi: number): Decimal {
    const a = this.at(lo);
    const b = this.at(hi);
    const d = b - a;
    return Number.isSafeInteger(d) ? decimalOf(d, this.scale) : decimalOf(b, this.scale).sub(decimalOf(a, this.scale));
  }

  decimalAt(k: number): Decimal {
    return decimalOf(this.at(k), this.scale);
  }

  dropBefore(k: number): void {
    this.base = this.sums[k - 1]!;
    this.sums = this.sums.slice(k);
  }
}

/**
 * One contract's fills of one account: times ascending and running totals after each fill.
 *
 * The totals are whole units (UnitSums) while every one is below 2^53: a fill's Decimal figures cost
 * the fee model's observe 5.35 µs of a signed contract placement's 100 µs of server CPU (notes/s18emu).
 * Once a figure does not fit (more than 22 decimals, a total of 2^53 units or more) the series turns
 * to Decimal totals for good (`cum`, `base`: the Decimal operations the model did before, on the same
 * values, so every total has the same digits). A series restored from a snapshot written before the
 * units has only those two fields, and goes on in Decimals.
 */
export class Series {
  times: number[] = [];
  amount: UnitSums | undefined = new UnitSums();
  fee: UnitSums | undefined = new UnitSums();
  saved: UnitSums | undefined = new UnitSums();
  /** Decimal running totals after each fill, once the units did not fit. */
  cum: Totals[] | undefined = undefined;
  /** Decimal running totals before times[0] (what pruning dropped), with `cum`. */
  base: Totals | undefined = undefined;

  /** A fill in units (the fee model's path). */
  pushUnits(time: number, u: DealUnits): void {
    if (this.cum === undefined && this.addUnits(time, u)) return;
    this.pushDecimal({
      time,
      amount: decimalOf(u.amount, u.amountScale),
      fee: decimalOf(u.fee, u.feeScale),
      saved: decimalOf(u.saved, u.savedScale),
    });
  }

  /**
   * A fill in Decimals: the fee model hands one over only when its figures did not fit whole units
   * (fillUnits), so the series turns to Decimal totals here (the same values either way).
   */
  push(e: DealEntry): void {
    if (this.cum === undefined) this.toDecimal();
    this.pushDecimal(e);
  }

  /** Drops entries older than `horizon` once they are a large share of the series. */
  prune(horizon: number): void {
    if (this.times.length < 256 || this.times[0]! >= horizon) return;
    const k = lowerBound(this.times, horizon);
    if (k < this.times.length / 4) return;
    this.times = this.times.slice(k);
    if (this.cum !== undefined) {
      this.base = this.cum[k - 1]!;
      this.cum = this.cum.slice(k);
      return;
    }
    this.amount!.dropBefore(k);
    this.fee!.dropBefore(k);
    this.saved!.dropBefore(k);
  }

  /** Totals of the entries with index in [lo, hi). */
  range(lo: number, hi: number): Totals & { count: number } {
    if (hi <= lo) return { amount: ZERO, fee: ZERO, saved: ZERO, count: 0 };
    if (this.cum === undefined)
      return { amount: this.amount!.range(lo, hi), fee: this.fee!.range(lo, hi), saved: this.saved!.range(lo, hi), count: hi - lo };
    const a = lo === 0 ? this.base! : this.cum[lo - 1]!;
    const b = this.cum[hi - 1]!;
    return { amount: b.amount.sub(a.amount), fee: b.fee.sub(a.fee), saved: b.saved.sub(a.saved), count: hi - lo };
  }

  /** Adds a fill to the unit totals; false (nothing changed but the sums' scales) when it does not fit them. */
  private addUnits(time: number, u: DealUnits): boolean {
    const amount = this.amount!;
    const fee = this.fee!;
    const saved = this.saved!;
    const a = amount.align(u.amount, u.amountScale);
    const f = fee.align(u.fee, u.feeScale);
    const s = saved.align(u.saved, u.savedScale);
    const n = this.times.length;
    // Events arrive in time order; a late one is placed where it belongs so the searches stay valid.
    const k = n > 0 && time < this.times[n - 1]! ? upperBound(this.times, time) : n;
    if (Number.isNaN(a) || Number.isNaN(f) || Number.isNaN(s) || !amount.fits(k, a) || !fee.fits(k, f) || !saved.fits(k, s)) {
      this.toDecimal();
      return false;
    }
    if (k === n) this.times.push(time);
    else this.times.splice(k, 0, time);
    amount.insert(k, a);
    fee.insert(k, f);
    saved.insert(k, s);
    return true;
  }

  /** Turns the unit totals into Decimal ones, for good. */
  private toDecimal(): void {
    const amount = this.amount!;
    const fee = this.fee!;
    const saved = this.saved!;
    this.base = { amount: amount.decimalAt(0), fee: fee.decimalAt(0), saved: saved.decimalAt(0) };
    this.cum = this.times.map((_, i) => ({ amount: amount.decimalAt(i + 1), fee: fee.decimalAt(i + 1), saved: saved.decimalAt(i + 1) }));
    this.amount = this.fee = this.saved = undefined;
  }

  /** The Decimal totals' push (the model's code before the units). */
  private pushDecimal(e: Omit<DealEntry, 'symbol'>): void {
    const cum = this.cum!;
    const base = this.base!;
    const last = cum.length ? cum[cum.length - 1]! : base;
    if (this.times.length && e.time < this.times[this.times.length - 1]!) {
      const k = upperBound(this.times, e.time);
      this.times.splice(k, 0, e.time);
      const before = k === 0 ? base : cum[k - 1]!;
      cum.splice(k, 0, { amount: before.amount.add(e.amount), fee: before.fee.add(e.fee), saved: before.saved.add(e.saved) });
      for (let i = k + 1; i < cum.length; i++) {
        const c = cum[i]!;
        cum[i] = { amount: c.amount.add(e.amount), fee: c.fee.add(e.fee), saved: c.saved.add(e.saved) };
      }
      return;
    }
    this.times.push(e.time);
    cum.push({ amount: last.amount.add(e.amount), fee: last.fee.add(e.fee), saved: last.saved.add(e.saved) });
  }
}

/** First index with times[i] >= t. */
function lowerBound(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index with times[i] > t. */
function upperBound(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class DealVolumeWindow {
  private readonly byAccount = new Map<string, Map<string, Series>>();

  /** Keeps at least `retentionMs` of history (the longest window anyone asks about). */
  constructor(private readonly retentionMs: number) {}

  record(accountId: string, e: DealEntry): void {
    const s = this.series(accountId, e.symbol);
    s.push(e);
    s.prune(e.time - this.retentionMs);
  }

  /** record() of a fill given in units (DealUnits). */
  recordUnits(accountId: string, time: number, symbol: string, u: DealUnits): void {
    const s = this.series(accountId, symbol);
    s.pushUnits(time, u);
    s.prune(time - this.retentionMs);
  }

  private series(accountId: string, symbol: string): Series {
    let m = this.byAccount.get(accountId);
    if (!m) this.byAccount.set(accountId, (m = new Map()));
    let s = m.get(symbol);
    if (!s) m.set(symbol, (s = new Series()));
    return s;
  }

  totals(accountId: string, f: DealFilter): DealTotals {
    let amount = ZERO;
    let fee = ZERO;
    let saved = ZERO;
    let count = 0;
    for (const [symbol, s] of this.byAccount.get(accountId) ?? []) {
      if (f.symbol && !f.symbol(symbol)) continue;
      const lo = f.fromInclusive ? lowerBound(s.times, f.from) : upperBound(s.times, f.from);
      const hi = upperBound(s.times, f.to);
      const r = s.range(lo, hi);
      amount = amount.add(r.amount);
      fee = fee.add(r.fee);
      saved = saved.add(r.saved);
      count += r.count;
    }
    return { amount, fee, saved, count };
  }
}
