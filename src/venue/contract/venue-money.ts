/**
 * The contract venue's money rules: fee rates, the margin an order reserves, what an account can still
 * use (free less cross unrealised loss), shortfall cover from the insurance fund, and deposits and
 * withdrawals. Order margin and fees in ledger units (10^-18 of the settle coin), as counts of the rates'
 * grain in doubles where they are safe integers (margin-units.ts), as bigints otherwise; the rarer
 * paths (shortfalls, transfers, the cross figures of views) in Decimals. Initial margin rounds up when
 * reserved, down when booked.
 */
import { D, Decimal, type DecimalLike } from '../../core/decimal.js';
import { OpenType } from '../../domain/contract-enums.js';
import { ContractVenueCode } from './contract-codes.js';
import { ContractPosition } from './contract-position.js';
import type { VenueResult } from './contract-requests.js';
import { ContractSpec } from './contract-spec.js';
import { AccountState, ZERO, usedMarginCell, type MarketState, type OrderState, type Wallet } from './contract-state.js';
import type { TransferRecordView } from './contract-views.js';
import { unrealisedPnl } from './margin-math.js';
import {
  grainTerms,
  marginAndFeeGrains,
  marginAndFeeUnits,
  perNumberOf,
  unitTerms,
  type GrainTerms,
  type UnitTerms,
} from './margin-units.js';
import { LEDGER_SCALE, unitsToDecimal } from '../ledger/ledger-units.js';
import { exactUnits, requireUnits, type MoneyCell } from './money-cell.js';

/** Below this many ledger units (38 digits) a sum of whole units is exact in decimal.js's 40 digits too. */
const EXACT_UNITS = 10n ** 38n;

/**
 * crossUnits' bound on Σ|terms| (below EXACT_UNITS), summed in doubles: each Number() of a bigint and
 * each product or sum of them is off by at most 2^-53 relatively, so over fewer than a million positions
 * the double sum is within 10^-9 of the exact one, and a double sum below this shows an exact one below
 * 10^38. Above it crossOf's Decimals decide, with the same values.
 */
const SIZE_LIMIT = Number(EXACT_UNITS) * (1 - 1e-9);
const MAX_SUMMED_POSITIONS = 1_000_000;
/** surelyAvailable's slack, relative to the magnitudes it sums. */
const SCREEN_SLACK = 1e-9;
const UNITS_PER_COIN = 10 ** LEDGER_SCALE;
import { crossMargin, type CrossMargin } from './liquidation-rules.js';
import { pushCapped } from './venue-keys.js';
import { accountChanged } from './account-changes.js';
import { refuse, INSURANCE_ACCOUNT_ID, type ContractVenueState, type SpecRates } from './contract-venue-state.js';

/** a + b, without the bigint operation (an allocation) when a is zero: one contract's sum is the usual case. */
const addUnits = (a: bigint, b: bigint): bigint => (a === 0n ? b : a + b);

/**
 * The default rates asked last: the venue's map they came from, the contract, the answer. Why: a
 * maker+taker cycle asks rates() six times for one contract, each a map lookup (~100 instructions in
 * callgrind). An entry of that map is set once and never replaced, so the answer stands while the map
 * and the contract are the ones asked. Module state rather than a field: the emulator's snapshot writes
 * VenueMoney's fields, and a memo is no state of the venue.
 */
const lastDefault: { rates: Map<ContractSpec, SpecRates> | undefined; spec: ContractSpec | undefined; answer: SpecRates | undefined } = {
  rates: undefined,
  spec: undefined,
  answer: undefined,
};

export class VenueMoney {
  constructor(private readonly s: ContractVenueState) {}

  /** The account's fee rates on `spec`, with their ledger units per tick·lot (fees are tick·lots × these, exactly). */
  rates(acct: AccountState, spec: ContractSpec): SpecRates {
    if (this.s.feeRatesOf === undefined) {
      const byContract = this.s.defaultRates;
      if (byContract === lastDefault.rates && spec === lastDefault.spec) return lastDefault.answer!;
      let r = byContract.get(spec);
      if (r === undefined) {
        const { makerFeeRate: maker, takerFeeRate: taker } = spec.instrument;
        r = specRates(spec, maker, taker);
        byContract.set(spec, r);
      }
      lastDefault.rates = byContract;
      lastDefault.spec = spec;
      lastDefault.answer = r;
      return r;
    }
    return recentSpecRates(spec, this.s.feeRatesOf(acct.id, spec.instrument));
  }

  /** Margin + fee of the taker part, from the previewed tick·lots (what the fills will book at most). Ledger units. */
  takerReserve(spec: ContractSpec, quote: number, leverage: number, rates: SpecRates): bigint {
    if (quote === 0) return 0n;
    return marginAndFeeUnits(quote, 1, leverage, rateTerms(spec, rates, this.s.stepUnits).taker, 'ceil');
  }

  /** takerReserve in grains of the rates' terms (NaN: not a safe count; then takerReserve). */
  takerReserveGrains(spec: ContractSpec, quote: number, leverage: number, rates: SpecRates): number {
    if (quote === 0) return 0;
    const g = rateTerms(spec, rates, this.s.stepUnits).grains;
    return marginAndFeeGrains(quote, 1, leverage, g, g.takerReservePer, 'ceil');
  }

  /** restingReserve in grains of the rates' terms (NaN: not a safe count; then restingReserve). */
  restingReserveGrains(spec: ContractSpec, ticks: number, lots: number, leverage: number, rates: SpecRates): number {
    if (lots <= 0) return 0;
    const t = rateTerms(spec, rates, this.s.stepUnits);
    const last = lastResting(t, ticks, lots, leverage);
    return (last.grains ??= marginAndFeeGrains(ticks, lots, leverage, t.grains, t.grains.reservePer, 'ceil'));
  }

  /** orderMargin in grains of `grains` (the order's rates' terms); NaN when not a safe count. */
  orderMarginGrains(o: OrderState, remaining: number, g: GrainTerms): number {
    if (o.closing || remaining <= 0) return 0;
    const rates = this.rates(o.account, o.market.spec);
    if (rateTerms(o.market.spec, rates, this.s.stepUnits).grains !== g) return NaN;
    return this.restingReserveGrains(o.market.spec, o.priceTicks, remaining, o.leverage, rates);
  }

  /** ceil(notional/L) + notional·max fee rate of `lots` resting at `ticks`, in ledger units. */
  restingReserve(spec: ContractSpec, ticks: number, lots: number, leverage: number, rates: SpecRates): bigint {
    if (lots <= 0) return 0n;
    const t = rateTerms(spec, rates, this.s.stepUnits);
    const last = lastResting(t, ticks, lots, leverage);
    return (last.units ??= marginAndFeeUnits(ticks, lots, leverage, t.resting, 'ceil'));
  }

  /** Order margin of `remaining` lots resting at the order's price: ceil(notional/L) + notional·max fee rate. */
  orderMargin(o: OrderState, remaining: number): bigint {
    return this.orderMarginAt(o, remaining, o.leverage);
  }

  orderMarginAt(o: OrderState, remaining: number, leverage: number): bigint {
    if (o.closing || remaining <= 0) return 0n;
    return this.restingReserve(o.market.spec, o.priceTicks, remaining, leverage, this.rates(o.account, o.market.spec));
  }

  /**
   * Whether `needUnits` exceeds what the account can use plus `extraUnits` (an order's own margin when
   * it is amended). In ledger units when the wallet and every cross mark are (marks on the tick),
   * otherwise through availableOpen, in Decimals, as before.
   */
  exceedsAvailable(acct: AccountState, currency: string, needUnits: bigint, extraUnits = 0n): boolean {
    const w = acct.wallets.get(currency);
    if (
      w !== undefined &&
      w.freeCell.dec === undefined &&
      this.surelyAvailable(acct, w.freeCell, currency, Number(needUnits) / UNITS_PER_COIN, extraUnits)
    )
      return false;
    const cross = w === undefined || w.freeCell.dec !== undefined ? undefined : this.crossUnrealisedUnits(acct, currency);
    if (w !== undefined && cross !== undefined) {
      let avail = cross < 0n ? w.freeCell.units + cross : w.freeCell.units;
      if (avail < 0n) avail = 0n;
      return needUnits > (extraUnits === 0n ? avail : avail + extraUnits);
    }
    return unitsToDecimal(needUnits).gt(this.availableOpen(acct, currency).add(unitsToDecimal(extraUnits)));
  }

  /**
   * exceedsAvailable for a need of `needGrains` grains of `grain` units: decided in doubles when that is
   * certain (surelyAvailable), else exactly with the need in units. No bigint on the usual path.
   */
  exceedsAvailableGrains(acct: AccountState, currency: string, needGrains: number, grain: number): boolean {
    const w = acct.wallets.get(currency);
    if (
      w !== undefined &&
      w.freeCell.dec === undefined &&
      this.surelyAvailable(acct, w.freeCell, currency, (needGrains * grain) / UNITS_PER_COIN, 0n)
    )
      return false;
    return this.exceedsAvailable(acct, currency, BigInt(needGrains) * BigInt(grain));
  }

  /**
   * True only when `need` (coins, a double within 2^-52 of the exact need) is certainly within what the
   * account can use plus `extraUnits`: the test below in doubles, with a slack of 1e-9 of the magnitudes summed, far beyond their rounding (each term
   * within a few 2^-53 of its exact value). Why: the exact test made three bigints per placement (the
   * cross sum in units and free plus it), each an allocation, for a budget almost never close to the
   * balance; when it is close (or a mark is off the tick) the exact test decides, as before.
   */
  private surelyAvailable(acct: AccountState, freeCell: MoneyCell, currency: string, need: number, extraUnits: bigint): boolean {
    // The two parts of free rounded and summed: within 2^-52 of their magnitude, which `size` takes.
    const free = freeCell.toNumber();
    const extra = extraUnits === 0n ? 0 : Number(extraUnits) / UNITS_PER_COIN;
    let cross = 0;
    let size = freeCell.magnitude() + Math.abs(need) + Math.abs(extra);
    for (const p of acct.positions.values()) {
      if (p.openType !== OpenType.CROSS || p.spec.settleCoin !== currency) continue;
      const ticks = this.crossMarkTicks(p);
      if (ticks === null) continue;
      if (ticks === undefined) return false;
      const uv = p.spec.unitValueNumber;
      const value = ticks * p.holdLots * uv;
      const cost = p.holdCostNumber * uv;
      cross += p.isLong ? value - cost : cost - value;
      size += Math.abs(value) + Math.abs(cost);
    }
    const avail = free + (cross < 0 ? cross : 0) + extra;
    return Number.isFinite(avail) && Number.isFinite(size) && need < avail - SCREEN_SLACK * size;
  }

  /**
   * The price a cross position's unrealised PnL is taken at, in ticks: the fair price, else the last
   * trade; null when neither is known (nothing to count, as availableOpen), undefined when the fair
   * price is off the tick (the callers then take the exact Decimal path).
   */
  private crossMarkTicks(p: ContractPosition): number | null | undefined {
    const m = this.s.markets.get(p.spec.symbol)!;
    if (m.fairPrice === undefined) return m.lastTicks ?? null;
    return this.fairTicks(m);
  }

  /** Σ unrealised PnL of the cross positions in ledger units; undefined when a mark is off the tick. */
  private crossUnrealisedUnits(acct: AccountState, currency: string): bigint | undefined {
    let sum = 0n;
    // Σ ±(value − cost) in tick·lots per contract, in doubles while exact (one position per side is the
    // usual case): the bigints are made once per contract instead of five times per position.
    let spec: ContractSpec | undefined;
    let tickLots = 0;
    for (const p of acct.positions.values()) {
      if (p.openType !== OpenType.CROSS || p.spec.settleCoin !== currency) continue;
      const ticks = this.crossMarkTicks(p);
      if (ticks === null) continue;
      if (ticks === undefined) return undefined;
      const value = ticks * p.holdLots;
      const cost = p.holdCostNumber;
      const diff = p.isLong ? value - cost : cost - value;
      if (Number.isSafeInteger(value) && Number.isSafeInteger(cost) && Number.isSafeInteger(diff)) {
        if (spec !== p.spec) {
          if (spec !== undefined && tickLots !== 0) sum = addUnits(sum, BigInt(tickLots) * spec.unitValueUnits);
          spec = p.spec;
          tickLots = 0;
        }
        const next = tickLots + diff;
        if (Number.isSafeInteger(next)) {
          tickLots = next;
          continue;
        }
      }
      const v = BigInt(ticks) * BigInt(p.holdLots);
      sum = addUnits(sum, (p.isLong ? v - p.holdCost : p.holdCost - v) * p.spec.unitValueUnits);
    }
    if (spec !== undefined && tickLots !== 0) sum = addUnits(sum, BigInt(tickLots) * spec.unitValueUnits);
    return sum;
  }

  /** The fair price in ticks when it is on the tick (kept per fair price: it changes far less often than it is read). */
  private fairTicks(m: MarketState): number | undefined {
    const fair = m.fairPrice!;
    let f = this.fairTickMemo.get(m);
    if (f === undefined || f.fair !== fair) {
      const q = fair.div(m.spec.tick);
      f = { fair, ticks: q.isInteger() && q.abs().lte(Number.MAX_SAFE_INTEGER) ? q.toNumber() : undefined };
      this.fairTickMemo.set(m, f);
    }
    return f.ticks;
  }

  private readonly fairTickMemo = new Map<MarketState, { fair: Decimal; ticks: number | undefined }>();

  private crossUnrealised(acct: AccountState, currency: string): Decimal {
    let sum = ZERO;
    for (const p of acct.positions.values()) {
      if (p.openType !== OpenType.CROSS || p.spec.settleCoin !== currency) continue;
      const mark = this.s.markPrice(this.s.markets.get(p.spec.symbol)!);
      if (mark) sum = sum.add(unrealisedPnl(p.figures(), mark));
    }
    return sum;
  }

  /** What new orders, margin additions and withdrawals can use: free less any cross unrealised loss. */
  availableOpen(acct: AccountState, currency: string): Decimal {
    const w = acct.wallets.get(currency);
    if (w === undefined) return ZERO;
    return Decimal.max(ZERO, w.free.add(Decimal.min(ZERO, this.crossUnrealised(acct, currency))));
  }

  /**
   * A wallet went below zero while booking (rounding, or a one-way order whose close leg lost more
   * than expected): take it back from the margin just booked, then from the insurance fund.
   */
  coverShortfall(acct: AccountState, w: Wallet, pos: ContractPosition | undefined, bookedIm: bigint | undefined, o?: OrderState): void {
    if (acct.exempt || !w.freeCell.isNegative()) return;
    this.s.shortfalls++;
    let need = w.free.neg();
    if (pos && bookedIm && bookedIm > 0n) {
      const cut = Decimal.min(need, unitsToDecimal(bookedIm), pos.im);
      pos.im = pos.im.sub(cut);
      pos.oim = Decimal.max(ZERO, pos.oim.sub(cut));
      if (o) {
        const used = usedMarginCell(o);
        used.set(used.value.sub(cut));
      }
      w.free = w.free.add(cut);
      need = need.sub(cut);
    }
    if (need.gt(0)) {
      const ins = this.s.insuranceWallet(w.currency);
      ins.free = ins.free.sub(need);
      w.free = w.free.add(need);
    }
  }

  unfreeze(o: OrderState): void {
    // A truth test: the field is absent on an order restored from a snapshot written before it.
    if (o.frozenGrains) {
      const w = o.account.wallet(o.market.spec.settleCoin);
      w.frozenCell.subGrains(o.frozenGrains, o.frozenGrain);
      w.freeCell.addGrains(o.frozenGrains, o.frozenGrain);
      o.frozenGrains = 0;
    }
    if (o.frozenUnits === 0n) return;
    const w = o.account.wallet(o.market.spec.settleCoin);
    w.frozenCell.subUnits(o.frozenUnits);
    w.freeCell.addUnits(o.frozenUnits);
    o.frozenUnits = 0n;
  }

  /**
   * crossOf's equity and maintenance in ledger units, or undefined where that is not shown exact: a
   * bucket finer than the units, a mark off the tick or missing (crossOf then marks at the average), a
   * tier rate whose maintenance per tick·lot is finer than the units. Then every term of crossOf's
   * Decimal sums is a whole number of units and Σ|terms| stays below 10^38 units (38 digits), so those
   * sums are exact as well and these are their values: the position views of cross positions read
   * them after every fill.
   */
  crossUnits(acct: AccountState, currency: string): { readonly equity: bigint; readonly maintenance: bigint } | undefined {
    const w = acct.wallets.get(currency);
    if (w !== undefined && w.freeCell.dec !== undefined) return undefined;
    const free = w === undefined ? 0n : w.freeCell.units;
    const frozen = w === undefined ? 0n : w.frozenUnits;
    let equity = frozen === 0n ? free : free + frozen;
    let maintenance = 0n;
    // Σ|terms| in doubles (each bigint operation allocates, and this runs for each position view after
    // each fill): see SIZE_LIMIT.
    let size = Math.abs(Number(free)) + Math.abs(Number(frozen));
    let summed = 0;
    for (const p of acct.positions.values()) {
      if (p.openType !== OpenType.CROSS || p.spec.settleCoin !== currency) continue;
      if (++summed >= MAX_SUMMED_POSITIONS) return undefined;
      const ticks = this.crossMarkTicks(p);
      const perTickLot = this.maintenancePerTickLot(p);
      if (ticks == null || perTickLot === undefined || p.imCell.dec !== undefined) return undefined;
      const uv = p.spec.unitValueUnits;
      const valueTickLots = ticks * p.holdLots;
      const costTickLots = p.holdCostNumber;
      let tickLots: bigint;
      let unrealised: bigint;
      if (Number.isSafeInteger(valueTickLots) && Number.isSafeInteger(costTickLots)) {
        // (value − cost) · unitValueUnits: the same integer, two bigint operations instead of six.
        tickLots = BigInt(valueTickLots);
        unrealised = BigInt(p.isLong ? valueTickLots - costTickLots : costTickLots - valueTickLots) * uv;
      } else {
        tickLots = BigInt(ticks) * BigInt(p.holdLots);
        const value = tickLots * uv;
        const cost = p.holdCost * uv;
        unrealised = p.isLong ? value - cost : cost - value;
      }
      const mm = tickLots * perTickLot;
      const im = p.imCell.units;
      equity = equity + im + unrealised;
      maintenance = maintenance === 0n ? mm : maintenance + mm;
      const uvNumber = Number(uv);
      size += Math.abs(Number(im)) + Number(tickLots) * uvNumber + Math.abs(costTickLots) * uvNumber + Math.abs(Number(mm));
    }
    return size < SIZE_LIMIT ? { equity, maintenance } : undefined;
  }

  /**
   * crossUnits in two parts, with no bigint operation: equity = big + equityGrains · grain units,
   * maintenance = maintenanceGrains · grain units (CrossParts). Why: a cross position's changed event
   * keeps these figures of its moment for its view, and crossUnits' bigint sums were about 6,800 of a
   * listened maker+taker cycle's instructions (callgrind) for views a listener often never reads; the
   * bigints are made when the view is. Undefined, and crossUnits decides, unless every amount is a
   * count of one grain in the cells' double parts (at most one cell with a bigint part, which is kept,
   * not added), the unit value and maintenance per tick·lot are whole counts of the grain, every sum
   * is a safe integer, and Σ|terms| is under half crossUnits' bound: then crossUnits gives these same
   * integers (same terms, summed exactly).
   */
  crossParts(acct: AccountState, currency: string): CrossParts | undefined {
    const w = acct.wallets.get(currency);
    if (w === undefined) return undefined;
    const free = w.freeCell;
    const frozen = w.frozenCell;
    if (free.dec !== undefined || frozen.dec !== undefined) return undefined;
    const grain = free.fast !== 0 ? free.grain : frozen.grain;
    if (grain === 0 || (frozen.fast !== 0 && frozen.grain !== grain)) return undefined;
    let big = free.big;
    if (frozen.big !== 0n) {
      if (big !== 0n) return undefined;
      big = frozen.big;
    }
    let equity = free.fast + frozen.fast;
    let maintenance = 0;
    let size = Math.abs(free.bigNumber) + Math.abs(free.fast * grain) + Math.abs(frozen.bigNumber) + Math.abs(frozen.fast * grain);
    let summed = 0;
    for (const p of acct.positions.values()) {
      if (p.openType !== OpenType.CROSS || p.spec.settleCoin !== currency) continue;
      if (++summed >= MAX_SUMMED_POSITIONS) return undefined;
      const ticks = this.crossMarkTicks(p);
      const perTickLot = this.maintenancePerTickLot(p);
      const im = p.imCell;
      if (ticks == null || perTickLot === undefined || im.dec !== undefined) return undefined;
      if (im.fast !== 0 && im.grain !== grain) return undefined;
      if (im.big !== 0n) {
        if (big !== 0n) return undefined;
        big = im.big;
      }
      const uvGrains = UNIT_VALUE_GRAINS.of(p.spec.unitValueUnits, grain);
      const mmGrains = MAINTENANCE_GRAINS.of(perTickLot, grain);
      const valueTickLots = ticks * p.holdLots;
      const costTickLots = p.holdCostNumber;
      if (uvGrains === undefined || mmGrains === undefined || !Number.isSafeInteger(valueTickLots) || !Number.isSafeInteger(costTickLots))
        return undefined;
      const unrealised = (p.isLong ? valueTickLots - costTickLots : costTickLots - valueTickLots) * uvGrains;
      const mm = valueTickLots * mmGrains;
      equity = equity + im.fast + unrealised;
      maintenance = maintenance + mm;
      if (
        !Number.isSafeInteger(unrealised) ||
        !Number.isSafeInteger(mm) ||
        !Number.isSafeInteger(equity) ||
        !Number.isSafeInteger(maintenance)
      )
        return undefined;
      const uvNumber = p.spec.unitValueNumber * UNITS_PER_COIN;
      size += Math.abs(im.bigNumber) + Math.abs(im.fast * grain) + (valueTickLots + Math.abs(costTickLots)) * uvNumber + mm * grain;
    }
    return size < SIZE_LIMIT / 2 ? new CrossParts(big, equity, maintenance, grain) : undefined;
  }

  /**
   * Ledger units of maintenance per tick·lot of the position at its tier's rate (unitValue · mmr), undefined
   * when finer than the units.
   */
  private maintenancePerTickLot(p: ContractPosition): bigint | undefined {
    const spec = p.spec;
    const mmr = this.s.tierOf(spec, p.holdLots).mmr;
    let bySpec = this.maintenanceUnits.get(spec);
    if (bySpec === undefined) this.maintenanceUnits.set(spec, (bySpec = new Map()));
    let u = bySpec.get(mmr);
    if (u === undefined) bySpec.set(mmr, (u = exactUnits(spec.unitValue.mul(mmr)) ?? null));
    return u ?? undefined;
  }

  /** Per contract and tier rate (the tiers' long-lived Decimals). */
  private readonly maintenanceUnits = new Map<ContractSpec, Map<Decimal, bigint | null>>();

  crossOf(acct: AccountState, currency: string): CrossMargin {
    const w = acct.wallets.get(currency);
    const positions = [...acct.positions.values()].filter((p) => p.openType === OpenType.CROSS && p.spec.settleCoin === currency);
    return crossMargin(
      positions,
      w?.free ?? ZERO,
      w === undefined ? ZERO : unitsToDecimal(w.frozenUnits),
      (p) => this.s.markPrice(this.s.markets.get(p.spec.symbol)!) ?? p.holdAvgPrice(),
      (p) => this.s.tierOf(p.spec, p.holdLots).mmr,
    );
  }

  private recordTransfer(acct: AccountState, currency: string, amount: Decimal, type: 'IN' | 'OUT'): TransferRecordView {
    const now = this.s.clock.now();
    const rec: TransferRecordView = {
      id: ++this.s.transferSeq,
      accountId: acct.id,
      currency,
      amount,
      type,
      state: 'SUCCESS',
      createTime: now,
      updateTime: now,
    };
    pushCapped(acct.transfers, rec, this.s.historyLimit);
    accountChanged(acct);
    this.s.emit(() => ({ type: 'FundsTransferred', time: now, transfer: rec }));
    return rec;
  }

  deposit(id: string, currency: string, amount: DecimalLike): VenueResult<TransferRecordView> {
    const a = D(amount);
    if (!a.gt(0)) return refuse(ContractVenueCode.PARAMETER, 'amount must be > 0');
    if (id === INSURANCE_ACCOUNT_ID) return refuse(ContractVenueCode.PARAMETER, 'the insurance fund takes no deposits');
    let rec: TransferRecordView | undefined;
    this.s.run(() => {
      const acct = this.s.account(id);
      acct.wallet(currency).free = acct.wallet(currency).free.add(a);
      acct.netDeposits.set(currency, (acct.netDeposits.get(currency) ?? ZERO).add(a));
      rec = this.recordTransfer(acct, currency, a, 'IN');
    });
    return { ok: true, value: rec! };
  }

  withdraw(id: string, currency: string, amount: DecimalLike): VenueResult<TransferRecordView> {
    const a = D(amount);
    if (!a.gt(0)) return refuse(ContractVenueCode.PARAMETER, 'amount must be > 0');
    const acct = this.s.accounts.get(id);
    if (acct === undefined || acct.exempt) return refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance');
    if (a.gt(this.availableOpen(acct, currency))) return refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance');
    let rec: TransferRecordView | undefined;
    this.s.run(() => {
      const w = acct.wallet(currency);
      w.free = w.free.sub(a);
      acct.netDeposits.set(currency, (acct.netDeposits.get(currency) ?? ZERO).sub(a));
      rec = this.recordTransfer(acct, currency, a, 'OUT');
    });
    return { ok: true, value: rec! };
  }
}

/** How many rate pairs per contract recentSpecRates keeps (fee tiers in play at once: the crowd's zero, ours, a few more). */
const RECENT_RATES = 8;

/**
 * The contract's SpecRates made from a (maker, taker) pair handed out before, most recent first. Fee
 * schedules hand out the same few rates again and again, but from different accounts in turn: keeping
 * only the last pair (as before) missed every time placements alternated between the crowd's accounts
 * (no fee) and ours, and each miss turned the rates into ledger units again. Kept in a module WeakMap,
 * not on VenueMoney, whose fields the emulator's snapshot writes: a cache it need not carry.
 */
const recentRates = new WeakMap<ContractSpec, SpecRates[]>();

function recentSpecRates(spec: ContractSpec, r: { readonly maker: Decimal; readonly taker: Decimal }): SpecRates {
  let list = recentRates.get(spec);
  if (list === undefined) recentRates.set(spec, (list = []));
  // The same Decimals first (a schedule's cached answer), then equal values (a fresh quote of the same tier).
  for (const x of list) if (x.maker === r.maker && x.taker === r.taker) return x;
  for (const x of list) if (x.maker.eq(r.maker) && x.taker.eq(r.taker)) return x;
  const fresh = specRates(spec, r.maker, r.taker);
  list.unshift(fresh);
  if (list.length > RECENT_RATES) list.pop();
  return fresh;
}

/** Rates of one contract with their ledger units per tick·lot; RangeError when a rate is finer than the units can hold. */
export function specRates(spec: ContractSpec, maker: Decimal, taker: Decimal): SpecRates {
  const reserve = Decimal.max(maker, taker, ZERO);
  const per = (rate: Decimal, what: string): bigint =>
    requireUnits(spec.unitValue.mul(rate), `${spec.symbol}: the ${what} fee of one tick·lot`);
  return {
    maker,
    taker,
    reserve,
    makerPer: per(maker, 'maker'),
    takerPer: per(taker, 'taker'),
    takerReservePer: per(Decimal.max(taker, ZERO), 'taker'),
    reservePer: per(reserve, 'reserved'),
  };
}

/** A rate's hot-path terms (margin-units.ts): what orders reserve, and the fills' fees as doubles when safe. */
export interface RateTerms {
  readonly stepUnits: bigint;
  readonly unitValueUnits: bigint;
  /** Margin + max(maker, taker, 0) fee of a resting order; margin + max(taker, 0) fee of a taker part. */
  readonly resting: UnitTerms;
  readonly taker: UnitTerms;
  readonly makerPerNumber: number | undefined;
  readonly takerPerNumber: number | undefined;
  /** Every amount of these rates in grains (margin-units.ts), for the money cells' double parts. */
  readonly grains: GrainTerms;
}

/**
 * Kept beside the rates (and the margin terms beside the contract) rather than in the venue's state:
 * a cache, which the emulator's snapshot neither writes nor misses (as StepGrid's remembered values).
 * Checked against the units they were made from, so a rate object is never read with another step.
 */
const rateTermsOf = new WeakMap<SpecRates, RateTerms>();
const marginTermsOf = new WeakMap<ContractSpec, UnitTerms>();

/**
 * The last resting reserve asked for, by its inputs, in each form once asked (units: restingReserve,
 * grains: restingReserveGrains): a pure function of the rate terms (made for one rate, step and unit
 * value: rateTerms checks them) and three numbers. Why: an order that rests reserved the margin its
 * placement had just computed for the same lots at the same price (place() checks it, rest() books it),
 * the terms' walk and two bigint allocations again per maker+taker cycle. Module state rather than a
 * VenueMoney field, which the emulator's snapshot would write: a cache it need not carry.
 */
const restingMemo: {
  terms: RateTerms | undefined;
  ticks: number;
  lots: number;
  leverage: number;
  units: bigint | undefined;
  grains: number | undefined;
} = { terms: undefined, ticks: 0, lots: 0, leverage: 0, units: undefined, grains: undefined };

/** The memo for these inputs, emptied first when they are not the last ones. */
function lastResting(terms: RateTerms, ticks: number, lots: number, leverage: number): typeof restingMemo {
  const m = restingMemo;
  if (m.terms !== terms || m.ticks !== ticks || m.lots !== lots || m.leverage !== leverage) {
    m.terms = terms;
    m.ticks = ticks;
    m.lots = lots;
    m.leverage = leverage;
    m.units = undefined;
    m.grains = undefined;
  }
  return m;
}

/** The last answer of rateTerms: a fill and a placement ask for the same rates several times in a row. */
let lastRates: SpecRates | undefined;
let lastTerms: RateTerms | undefined;

export function rateTerms(spec: ContractSpec, rates: SpecRates, stepUnits: bigint): RateTerms {
  const last = lastTerms;
  if (rates === lastRates && last !== undefined && last.stepUnits === stepUnits && last.unitValueUnits === spec.unitValueUnits) return last;
  let t = rateTermsOf.get(rates);
  if (t === undefined || t.stepUnits !== stepUnits || t.unitValueUnits !== spec.unitValueUnits) {
    const uv = spec.unitValueUnits;
    t = {
      stepUnits,
      unitValueUnits: uv,
      resting: unitTerms(uv, stepUnits, rates.reservePer),
      taker: unitTerms(uv, stepUnits, rates.takerReservePer),
      makerPerNumber: perNumberOf(rates.makerPer),
      takerPerNumber: perNumberOf(rates.takerPer),
      grains: grainTerms(stepUnits, uv, rates.makerPer, rates.takerPer, rates.reservePer, rates.takerReservePer),
    };
    rateTermsOf.set(rates, t);
  }
  lastRates = rates;
  lastTerms = t;
  return t;
}

/** The terms of initial margin alone (no fee): what a fill books. */
export function marginTerms(spec: ContractSpec, stepUnits: bigint): UnitTerms {
  let t = marginTermsOf.get(spec);
  if (t === undefined || t.stepUnits !== stepUnits) marginTermsOf.set(spec, (t = unitTerms(spec.unitValueUnits, stepUnits, 0n)));
  return t;
}

/**
 * A cross account's equity and maintenance in ledger units, in two parts (VenueMoney.crossParts):
 * equity = big + equityGrains · grain, maintenance = maintenanceGrains · grain.
 */
export class CrossParts {
  constructor(
    readonly big: bigint,
    readonly equityGrains: number,
    readonly maintenanceGrains: number,
    readonly grain: number,
  ) {}

  /** The two figures in ledger units (crossUnits' answer). */
  units(): { readonly equity: bigint; readonly maintenance: bigint } {
    const g = BigInt(this.grain);
    return { equity: this.big + BigInt(this.equityGrains) * g, maintenance: BigInt(this.maintenanceGrains) * g };
  }
}

/**
 * units / grain as a safe double when `units` is a whole count of `grain` (else undefined), for the last
 * pair asked: crossParts asks it for the same long-lived bigint (a contract's unit value, a tier's
 * maintenance per tick·lot) and grain again and again.
 */
class GrainQuotient {
  private units: bigint | undefined = undefined;
  private grain = 0;
  private quotient: number | undefined = undefined;

  of(units: bigint, grain: number): number | undefined {
    if (units !== this.units || grain !== this.grain) {
      const g = BigInt(grain);
      const q = units % g === 0n ? Number(units / g) : NaN;
      this.units = units;
      this.grain = grain;
      this.quotient = Number.isSafeInteger(q) ? q : undefined;
    }
    return this.quotient;
  }
}

const UNIT_VALUE_GRAINS = new GrainQuotient();
const MAINTENANCE_GRAINS = new GrainQuotient();
