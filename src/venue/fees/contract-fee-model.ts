/**
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
import type { Clock } from '../../core/clock.js';
import { Decimal, unitsOf } from '../../core/decimal.js';
import type { ContractInstrument } from '../../domain/instrument.js';
import type { ContractVenueEvent } from '../contract/contract-events.js';
import {
  contractFeeSchedule,
  countsTowards,
  scheduleRate,
  tieredWindow,
  type ContractFeeOverride,
  type ContractFeeSchedule,
  type MakerTaker,
} from './contract-fee-schedule.js';
import { DealVolumeWindow, scaleUp, type DealUnits } from './deal-volume-window.js';

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

export class ContractFeeModel {
  private readonly schedulesBySymbol = new Map<string, ContractFeeSchedule>();
  private readonly contractSize = new Map<string, Decimal>();
  private readonly volume = new DealVolumeWindow(400 * DAY_MS);
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

  /**
   * Venue listener: records each fill's amount, fee and saving, in whole units when they fit (fillUnits),
   * else in Decimals: the same values either way.
   */
  readonly observe = (e: ContractVenueEvent): void => {
    if (e.type !== 'OrderFilled') return;
    const f = e.fill;
    if (this.opts.exempt?.(f.accountId)) return;
    const size = this.contractSize.get(f.symbol);
    if (size === undefined) return;
    const a = this.applied.get(key(f.accountId, f.symbol));
    const originalRate = a ? (f.taker ? a.original.taker : a.original.maker) : undefined;
    if (fillUnits(f.price, f.vol, size, f.fee, originalRate, FILL)) this.volume.recordUnits(f.accountId, f.time, f.symbol, FILL);
    else {
      const amount = f.price.mul(f.vol).mul(size);
      const original = originalRate !== undefined ? amount.mul(originalRate) : f.fee;
      const saved = Decimal.max(ZERO, original.sub(f.fee));
      this.volume.record(f.accountId, { time: f.time, symbol: f.symbol, amount, fee: f.fee, saved });
    }
    this.versions.set(f.accountId, (this.versions.get(f.accountId) ?? 0) + 1);
    if (a && a.deduct.gt(ZERO)) {
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

/** The one fill figure observe() fills in and hands to the volume window (which copies the numbers). */
const FILL: DealUnits = { amount: 0, amountScale: 0, fee: 0, feeScale: 0, saved: 0, savedScale: 0 };

/**
 * A fill's figures in whole units into `out`: amount = price · vol · contractSize, its fee, and what the
 * discounts and deduction saved, max(0, amount · original rate − fee) (0 without a rate handed out).
 * False when one does not fit (more than 22 decimals, 2^53 units or more): the caller computes them in
 * Decimals. Every figure is an integer below 2^53 here, so each product and difference is exact, as the
 * Decimal operations are at these sizes (40 digits): the same values.
 */
function fillUnits(price: Decimal, vol: Decimal, size: Decimal, fee: Decimal, rate: Decimal | undefined, out: DealUnits): boolean {
  const ps = price.decimalPlaces();
  const vs = vol.decimalPlaces();
  const ss = size.decimalPlaces();
  // A product of integers reaches 2^53 exactly when its rounded double does: the check covers the factors.
  const amount = unitsOf(price, ps) * unitsOf(vol, vs) * unitsOf(size, ss);
  if (!Number.isSafeInteger(amount)) return false;
  const amountScale = ps + vs + ss;
  const feeScale = fee.decimalPlaces();
  const feeUnits = unitsOf(fee, feeScale);
  if (Number.isNaN(feeUnits)) return false;
  let saved = 0;
  let savedScale = 0;
  if (rate !== undefined) {
    const rs = rate.decimalPlaces();
    const original = amount * unitsOf(rate, rs);
    const os = amountScale + rs;
    const scale = os > feeScale ? os : feeScale;
    if (!Number.isSafeInteger(original)) return false;
    // NaN (not a safe integer) when a term does not fit.
    const d = scaleUp(original, scale - os) - scaleUp(feeUnits, scale - feeScale);
    if (!Number.isSafeInteger(d)) return false;
    if (d > 0) {
      saved = d;
      savedScale = scale;
    }
  }
  out.amount = amount;
  out.amountScale = amountScale;
  out.fee = feeUnits;
  out.feeScale = feeScale;
  out.saved = saved;
  out.savedScale = savedScale;
  return true;
}
