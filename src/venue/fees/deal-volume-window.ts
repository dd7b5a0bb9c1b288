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

const ZERO = new Decimal(0);

/** One contract's fills of one account: times ascending and running totals after each fill. */
export class Series {
  times: number[] = [];
  cum: Totals[] = [];
  /** Running totals before times[0] (what pruning dropped). */
  base: Totals = { amount: ZERO, fee: ZERO, saved: ZERO };

  push(e: DealEntry): void {
    const last = this.cum.length ? this.cum[this.cum.length - 1]! : this.base;
    // Events arrive in time order; a late one is placed where it belongs so the searches stay valid.
    if (this.times.length && e.time < this.times[this.times.length - 1]!) {
      const k = upperBound(this.times, e.time);
      this.times.splice(k, 0, e.time);
      const before = k === 0 ? this.base : this.cum[k - 1]!;
      this.cum.splice(k, 0, { amount: before.amount.add(e.amount), fee: before.fee.add(e.fee), saved: before.saved.add(e.saved) });
      for (let i = k + 1; i < this.cum.length; i++) {
        const c = this.cum[i]!;
        this.cum[i] = { amount: c.amount.add(e.amount), fee: c.fee.add(e.fee), saved: c.saved.add(e.saved) };
      }
      return;
    }
    this.times.push(e.time);
    this.cum.push({ amount: last.amount.add(e.amount), fee: last.fee.add(e.fee), saved: last.saved.add(e.saved) });
  }

  /** Drops entries older than `horizon` once they are a large share of the series. */
  prune(horizon: number): void {
    if (this.times.length < 256 || this.times[0]! >= horizon) return;
    const k = lowerBound(this.times, horizon);
    if (k < this.times.length / 4) return;
    this.base = this.cum[k - 1]!;
    this.times = this.times.slice(k);
    this.cum = this.cum.slice(k);
  }

  /** Totals of the entries with index in [lo, hi). */
  range(lo: number, hi: number): Totals & { count: number } {
    if (hi <= lo) return { amount: ZERO, fee: ZERO, saved: ZERO, count: 0 };
    const a = lo === 0 ? this.base : this.cum[lo - 1]!;
    const b = this.cum[hi - 1]!;
    return { amount: b.amount.sub(a.amount), fee: b.fee.sub(a.fee), saved: b.saved.sub(a.saved), count: hi - lo };
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
    let m = this.byAccount.get(accountId);
    if (!m) this.byAccount.set(accountId, (m = new Map()));
    let s = m.get(e.symbol);
    if (!s) m.set(e.symbol, (s = new Series()));
    s.push(e);
    s.prune(e.time - this.retentionMs);
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
