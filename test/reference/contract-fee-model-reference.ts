/**
 * Frozen copy (issue 12) of src/venue/fees/contract-fee-model.ts and deal-volume-window.ts as they were
 * before the traded amounts were kept in integer units: the Decimal reference model of
 * test/venue/fees/contract-fee-model-differential.property.test.ts. Imported only by tests. Do not edit
 * it to follow the model.
 *
 * Contract fees per account: the schedule of each contract (NORMAL / LEVERAGE / TIERED, zero-fee),
 * then the volume discount of contractFeeDiscountConfig, then the fee deduction of feeDeductConfigs
 * for accounts that switched it on. Plugs into ContractVenue as its `feeRates(account, instrument)`
 * hook and learns the traded amounts from the venue's OrderFilled events (`observe`).
 *
 *   real rate = schedule rate · (1 − volume discount) · (1 − deduct ratio)
 *
 * Deduction: the contract wallet holds only settle coins, so a deduction config is modelled as the
 * discount it gives (discountRatio off the settle-coin fee); fee_details reports deductType 1 with the
 * amount the deduction saved on that fill (see `fillDeduction`).
 *
 * When the amounts move: fills are recorded when the venue delivers their events, i.e. after the
 * command that made them. A TIERED rate is therefore decided on what the account traded BEFORE the
 * current order; one order that sweeps across a tier boundary pays one rate for all its fills, and the
 * next order pays the new tier's rate.
 */
import type { Clock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import type { ContractInstrument } from '../../src/domain/instrument.js';
import type { ContractVenueEvent } from '../../src/venue/contract/contract-events.js';
import {
  contractFeeSchedule,
  countsTowards,
  scheduleRate,
  tieredWindow,
  type ContractFeeOverride,
  type ContractFeeSchedule,
  type MakerTaker,
} from '../../src/venue/fees/contract-fee-schedule.js';

const DAY_MS = 86_400_000;
const ZERO = new Decimal(0);
const ONE = new Decimal(1);

export interface FeeDeductConfig {
  readonly deductCoin: string;
  readonly settleCoin: string;
  /** Fraction of the fee the deduction saves (0.2 = pay 80 %). */
  readonly discountRatio: Decimal;
}

export interface DiscountLevel {
  readonly level: number;
  readonly volMin: Decimal;
  /** Exclusive; undefined on the last level. */
  readonly volMax?: Decimal | undefined;
  /** Days of traded amount the level looks at. */
  readonly day: number;
  /** Fraction of the fee waived (0.1 = pay 90 %). */
  readonly discount: Decimal;
}

export interface FeeDiscountConfig {
  readonly id: number;
  readonly currency: string;
  readonly enabled: boolean;
  readonly levels: readonly DiscountLevel[];
  /** Contracts whose turnover neither counts nor gets the discount (blackContractIdSet). */
  readonly excludedSymbols: readonly string[];
  readonly createTime: number;
  readonly updateTime: number;
}

export interface ContractFeeModelOptions {
  readonly clock: Clock;
  readonly instruments: readonly ContractInstrument[];
  readonly overrides?: Readonly<Record<string, ContractFeeOverride>>;
  /** Leverage an account uses on a contract (LEVERAGE mode); undefined → the contract's base rates. */
  readonly leverageOf?: (accountId: string, symbol: string) => number | undefined;
  readonly deductConfigs?: readonly FeeDeductConfig[];
  readonly discountConfigs?: readonly FeeDiscountConfig[];
  /** Account switched deduction on (discountType.useFeeDeduct). */
  readonly deductEnabled?: (accountId: string) => boolean;
  /** Accounts that trade free (the market model's crowd). */
  readonly exempt?: (accountId: string) => boolean;
  /** Per-fill deduction records kept per account (default 10 000). */
  readonly historyLimit?: number;
}

/** Everything tiered_fee_rate/v2 reports for one account and contract. */
export interface FeeQuote {
  readonly schedule: ContractFeeSchedule;
  /** Traded amount of the TIERED statistic window (for other modes: the last 30 days). */
  readonly dealAmount: Decimal;
  /** 0-based schedule tier in use; -1 for the base rates. */
  readonly tier: number;
  readonly leverage: number | undefined;
  readonly original: MakerTaker;
  readonly real: MakerTaker;
  /** real = original · factor. */
  readonly factor: Decimal;
  readonly joinDiscount: boolean;
  readonly enjoyDiscount: boolean;
  readonly discountRate: Decimal;
  readonly discountLevel: number | undefined;
  readonly joinDeduct: boolean;
  readonly enjoyDeduct: boolean;
  readonly deductRate: Decimal;
  readonly deductCoin: string | undefined;
}

export interface FillDeduction {
  readonly deductType: 0 | 1;
  readonly deductFeeCurrency: string;
  readonly deductFee: Decimal;
}

interface CachedRate {
  readonly now: number;
  readonly version: number;
  readonly leverage: number | undefined;
  readonly real: MakerTaker;
  /**
   * The rate reads neither the traded amount nor the time, so it stays valid while the leverage and
   * `deduct` do. Set only when true: an entry without it (one restored from an engine snapshot taken
   * before it existed) is checked against the time and the fill count, as it was then.
   */
  volumeFree?: true;
  /** The account's deduction switch when the rate was quoted (volume-free entries). */
  deduct?: boolean;
}

interface Applied {
  readonly original: MakerTaker;
  readonly discount: Decimal;
  readonly deduct: Decimal;
  readonly deductCoin: string | undefined;
}

export class ReferenceContractFeeModel {
  private readonly schedulesBySymbol = new Map<string, ContractFeeSchedule>();
  private readonly contractSize = new Map<string, Decimal>();
  private readonly volume = new ReferenceDealVolumeWindow(400 * DAY_MS);
  /** The rates last handed to the venue per account and contract: what its next fills were charged at. */
  private readonly applied = new Map<string, Applied>();
  private readonly deductions = new Map<string, Map<string, FillDeduction>>();
  private readonly historyLimit: number;
  /** Fills seen per account: a cached rate is stale once the account traded again. */
  private readonly versions = new Map<string, number>();
  private readonly cache = new Map<string, CachedRate>();

  constructor(private readonly opts: ContractFeeModelOptions) {
    for (const i of opts.instruments) {
      this.schedulesBySymbol.set(i.symbol, contractFeeSchedule(i, opts.overrides?.[i.symbol]));
      this.contractSize.set(i.symbol, i.contractSize);
    }
    this.historyLimit = opts.historyLimit ?? 10_000;
  }

  /**
   * The ContractVenue hook. The venue asks several times per order (reservations, each fill); the
   * answer only changes when time moves, the account trades, or (LEVERAGE mode) its leverage changes,
   * so it is cached on exactly those. Time and trades only move a rate that reads the traded amount (a
   * TIERED schedule, or a volume discount the contract takes part in); any other rate is a function of
   * the leverage and the deduction switch, and is cached on those alone. Before, every order in a new
   * millisecond or after a fill was quoted again (volume window sums, schedule, discount and deduction
   * factors): feeRates was 2.9 % of all samples in an in-process profile of the signed contract
   * placement (client included), whose orders all fill.
   */
  readonly feeRates = (accountId: string, instrument: ContractInstrument): MakerTaker => {
    if (this.opts.exempt?.(accountId)) return ZERO_RATES;
    const k = key(accountId, instrument.symbol);
    const now = this.opts.clock.now();
    const version = this.versions.get(accountId) ?? 0;
    const schedule = this.schedulesBySymbol.get(instrument.symbol);
    const leverage = schedule?.feeRateMode === 'LEVERAGE' ? this.opts.leverageOf?.(accountId, instrument.symbol) : undefined;
    const hit = this.cache.get(k);
    if (hit && hit.leverage === leverage) {
      if (hit.volumeFree === true) {
        if (hit.deduct === this.deductEnabled(accountId)) return hit.real;
      } else if (hit.now === now && hit.version === version) return hit.real;
    }
    const q = this.quote(accountId, instrument.symbol);
    this.applied.set(k, {
      original: q.original,
      discount: q.enjoyDiscount ? q.discountRate : ZERO,
      deduct: q.enjoyDeduct ? q.deductRate : ZERO,
      deductCoin: q.deductCoin,
    });
    const entry: CachedRate = { now, version, leverage, real: q.real };
    // quote() reads the traded amount and the time only for scheduleRate (TIERED) and discountLevel
    // (joinDiscount); otherwise its inputs are the leverage and the deduction switch.
    if (q.schedule.feeRateMode !== 'TIERED' && !q.joinDiscount) {
      entry.volumeFree = true;
      entry.deduct = q.joinDeduct;
    }
    this.cache.set(k, entry);
    return q.real;
  };

  /** Venue listener: records each fill's amount, fee and saving. */
  readonly observe = (e: ContractVenueEvent): void => {
    if (e.type !== 'OrderFilled') return;
    const f = e.fill;
    if (this.opts.exempt?.(f.accountId)) return;
    const size = this.contractSize.get(f.symbol);
    if (size === undefined) return;
    const amount = f.price.mul(f.vol).mul(size);
    const a = this.applied.get(key(f.accountId, f.symbol));
    const originalRate = a ? (f.taker ? a.original.taker : a.original.maker) : undefined;
    const original = originalRate !== undefined ? amount.mul(originalRate) : f.fee;
    const saved = Decimal.max(ZERO, original.sub(f.fee));
    this.volume.record(f.accountId, { time: f.time, symbol: f.symbol, amount, fee: f.fee, saved });
    this.versions.set(f.accountId, (this.versions.get(f.accountId) ?? 0) + 1);
    if (a && a.deduct.gt(0)) {
      // The deduction is applied last: what it saved is the fee before it minus the fee charged.
      const beforeDeduct = f.fee.div(ONE.sub(a.deduct));
      this.rememberDeduction(f.accountId, String(f.tradeId), {
        deductType: 1,
        deductFeeCurrency: f.feeCurrency,
        deductFee: beforeDeduct.sub(f.fee),
      });
    }
  };

  schedule(symbol: string): ContractFeeSchedule | undefined {
    return this.schedulesBySymbol.get(symbol);
  }

  schedules(): ContractFeeSchedule[] {
    return [...this.schedulesBySymbol.values()];
  }

  deductConfigs(): readonly FeeDeductConfig[] {
    return this.opts.deductConfigs ?? [];
  }

  discountConfigs(): readonly FeeDiscountConfig[] {
    return this.opts.discountConfigs ?? [];
  }

  deductEnabled(accountId: string): boolean {
    return this.opts.deductEnabled?.(accountId) ?? false;
  }

  quote(accountId: string, symbol: string): FeeQuote {
    const s = this.schedulesBySymbol.get(symbol);
    if (s === undefined) throw new RangeError(`unknown contract ${symbol}`);
    const now = this.opts.clock.now();
    const dealAmount = this.dealAmount(accountId, s, now);
    const leverage = s.feeRateMode === 'LEVERAGE' ? this.opts.leverageOf?.(accountId, symbol) : undefined;
    const r = scheduleRate(s, { leverage, dealAmount });
    const original: MakerTaker = { maker: r.maker, taker: r.taker };

    const dc = this.discountConfigs().find((c) => c.currency === s.settleCoin && c.enabled);
    const joinDiscount = dc !== undefined && !dc.excludedSymbols.includes(symbol) && !s.isZeroFee;
    let discountRate = ZERO;
    let discountLevel: number | undefined;
    if (joinDiscount) {
      const lvl = this.discountLevel(accountId, dc, now);
      if (lvl) {
        discountRate = lvl.discount;
        discountLevel = lvl.level;
      }
    }
    const ded = this.deductConfigs().find((c) => c.settleCoin === s.settleCoin);
    const joinDeduct = this.deductEnabled(accountId);
    const enjoyDeduct = joinDeduct && ded !== undefined && !s.isZeroFee;
    const deductRate = ded?.discountRatio ?? ZERO;
    const factor = ONE.sub(discountRate).mul(enjoyDeduct ? ONE.sub(deductRate) : ONE);
    return {
      schedule: s,
      dealAmount,
      tier: r.tier,
      leverage,
      original,
      real: { maker: original.maker.mul(factor), taker: original.taker.mul(factor) },
      factor,
      joinDiscount,
      enjoyDiscount: discountRate.gt(0),
      discountRate,
      discountLevel,
      joinDeduct,
      enjoyDeduct,
      deductRate,
      deductCoin: ded?.deductCoin,
    };
  }

  /** Traded amount counted by the schedule's TIERED window (other modes: the last 30 days, all contracts). */
  dealAmount(accountId: string, s: ContractFeeSchedule, now = this.opts.clock.now()): Decimal {
    if (s.feeRateMode !== 'TIERED') return this.volume.totals(accountId, { from: now - 30 * DAY_MS, to: now }).amount;
    const w = tieredWindow(s.tiered, now);
    return this.volume.totals(accountId, {
      from: w.from,
      to: w.to,
      fromInclusive: s.tiered.statisticType === 'FIXED',
      symbol: (sym) => countsTowards(s.tiered, sym, this.schedulesBySymbol.get(sym)?.isZeroFee ?? false),
    }).amount;
  }

  /** Fees charged and saved over the last `days` days (order_deal_fee/total: 30). */
  feeTotals(accountId: string, days = 30, now = this.opts.clock.now()): { totalFee: Decimal; saveFee: Decimal } {
    const t = this.volume.totals(accountId, { from: now - days * DAY_MS, to: now });
    return { totalFee: t.fee, saveFee: t.saved };
  }

  /** How a fill's fee was deducted (fee_details); deductType 0 when it was not. */
  fillDeduction(accountId: string, tradeId: string, feeCurrency: string): FillDeduction {
    return this.deductions.get(accountId)?.get(tradeId) ?? { deductType: 0, deductFeeCurrency: feeCurrency, deductFee: ZERO };
  }

  private discountLevel(accountId: string, c: FeeDiscountConfig, now: number): DiscountLevel | undefined {
    let best: DiscountLevel | undefined;
    for (const l of c.levels) {
      const vol = this.volume.totals(accountId, {
        from: now - l.day * DAY_MS,
        to: now,
        symbol: (sym) => this.schedulesBySymbol.get(sym)?.settleCoin === c.currency && !c.excludedSymbols.includes(sym),
      }).amount;
      if (vol.gte(l.volMin) && (l.volMax === undefined || vol.lt(l.volMax)) && (!best || l.level > best.level)) best = l;
    }
    return best;
  }

  private rememberDeduction(accountId: string, tradeId: string, d: FillDeduction): void {
    let m = this.deductions.get(accountId);
    if (!m) this.deductions.set(accountId, (m = new Map()));
    m.set(tradeId, d);
    if (m.size > this.historyLimit) m.delete(m.keys().next().value!);
  }
}

const key = (accountId: string, symbol: string): string => `${accountId}\u0000${symbol}`;
const ZERO_RATES: MakerTaker = Object.freeze({ maker: ZERO, taker: ZERO });

// ---- deal-volume-window.ts (frozen)

interface DealEntry {
  readonly time: number;
  readonly symbol: string;
  /** price · vol · contractSize, in the settle coin. */
  readonly amount: Decimal;
  readonly fee: Decimal;
  /** What discounts and deduction saved on this fill. */
  readonly saved: Decimal;
}

interface DealFilter {
  /** Exclusive lower bound unless `fromInclusive`. */
  readonly from: number;
  readonly fromInclusive?: boolean;
  /** Inclusive. */
  readonly to: number;
  readonly symbol?: (symbol: string) => boolean;
}

interface DealTotals {
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

/** One contract's fills of one account: times ascending and running totals after each fill. */
class Series {
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

class ReferenceDealVolumeWindow {
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
