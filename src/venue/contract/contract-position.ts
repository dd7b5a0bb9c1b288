/**
 * A position's book-keeping in integer units. Costs are kept in tick·lots (bigint), so realised PnL
 * is exact: closing `lots` removes the held cost pro rata (floored; the last close removes the rest),
 * and realised units = close value − removed cost (long) or removed cost − close value (short).
 * Summed over every holder, realised + unrealised at any common price is zero — the basis of the
 * venue's conservation check.
 */
import { Decimal } from '../../core/decimal.js';
import type { PositionId } from '../../core/ids.js';
import { PositionState, PositionType, type OpenType } from '../../domain/contract-enums.js';
import type { ContractSpec } from './contract-spec.js';
import type { PositionFigures } from './margin-math.js';
import { LEDGER_SCALE, amountToUnits, pow10 } from '../ledger/ledger-units.js';
import { MoneyCell, decimalOfGrains, decimalOfUnits } from './money-cell.js';

/** Below this many ledger units in magnitude a sum of three amounts keeps within decimal.js's 40 digits (so it is exact there too). */
const EXACT_SUM_UNITS = 10n ** 39n;

/** An average price and the cost and lots it was worked out from (the views ask again and again between fills). */
interface Average {
  readonly cost: TickLots;
  readonly lots: number;
  readonly price: Decimal;
}

/**
 * An integer count of tick·lots: a number while it is a safe integer, a bigint past it — never the
 * other form for the same value, so `===` compares values.
 */
export type TickLots = number | bigint;

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** `v` in its TickLots form. */
export function tickLots(v: bigint): TickLots {
  return v <= MAX_SAFE_BIG && v >= -MAX_SAFE_BIG ? Number(v) : v;
}

/** The value as a bigint. */
export function bigOf(v: TickLots): bigint {
  return typeof v === 'number' ? BigInt(v) : v;
}

/** a + b in TickLots form: in doubles when both are numbers and the sum is a safe integer (then exact). */
export function addTickLots(a: TickLots, b: TickLots): TickLots {
  if (typeof a === 'number' && typeof b === 'number') {
    const s = a + b;
    if (Number.isSafeInteger(s)) return s;
  }
  return tickLots(BigInt(a) + BigInt(b));
}

/** Costs a snapshot written before TickLots set (see ContractPosition.reviveAfterSnapshot). */
const LEGACY_COSTS = new WeakMap<ContractPosition, { hold?: bigint; open?: bigint; close?: bigint }>();

function legacyCosts(p: ContractPosition): { hold?: bigint; open?: bigint; close?: bigint } {
  let c = LEGACY_COSTS.get(p);
  if (c === undefined) LEGACY_COSTS.set(p, (c = {}));
  return c;
}

/** Told of every change of a position's lots, cost or margin (the liquidation index re-keys it). */
export interface PositionWatch {
  touched(p: ContractPosition): void;
}

export class ContractPosition {
  state: PositionState = PositionState.HOLDING;
  holdLots = 0;
  /** Lots reserved by resting close (reduce-only) orders. */
  frozenLots = 0;
  /** Cumulative lots opened / closed over the position's life. */
  openedLots = 0;
  closedLots = 0;
  /**
   * Tick·lots of what is held, of everything opened, of everything closed (holdCost, openCost,
   * closeCost), each a number while a safe integer and a bigint past it (TickLots: one form per value,
   * so === compares values). Why: each bigint sum allocates, and a fill opened or closed with three.
   */
  holdTickLots: TickLots = 0;
  openTickLots: TickLots = 0;
  closeTickLots: TickLots = 0;
  /** Current and original initial margin (settle coin). */
  readonly imCell = new MoneyCell();
  readonly oimCell = new MoneyCell();
  /** Σ initial margin booked by opening fills (never reduced): the base of profitRatio. */
  readonly marginBookedCell = new MoneyCell();
  /** Funding: positive received, negative paid. */
  readonly holdFeeCell = new MoneyCell();
  /** Close PnL without fees (closeProfitLoss). */
  readonly closePnlCell = new MoneyCell();
  /** Fees paid by this position's fills (negative for maker rebates). */
  readonly totalFeeCell = new MoneyCell();
  autoAddIm = false;
  updateTime: number;
  /** The venue's liquidation index, for positions of accounts that can be liquidated. */
  watch: PositionWatch | undefined = undefined;

  constructor(
    readonly positionId: PositionId,
    readonly spec: ContractSpec,
    readonly positionType: PositionType,
    public openType: OpenType,
    public leverage: number,
    readonly createTime: number,
  ) {
    this.updateTime = createTime;
  }

  // Decimal faces of the amounts, for views and for the paths that still book in Decimals.
  get im(): Decimal {
    return this.imCell.value;
  }

  set im(v: Decimal) {
    this.imCell.set(v);
    this.watch?.touched(this);
  }

  /** Adds `units` of ledger units to im (the hot path's im setter: the watch hears of it too). */
  addImUnits(units: bigint): void {
    this.imCell.addUnits(units);
    this.watch?.touched(this);
  }

  /** addImUnits of `n` counts of `grain` units (MoneyCell.addGrains). */
  addImGrains(n: number, grain: number): void {
    this.imCell.addGrains(n, grain);
    this.watch?.touched(this);
  }

  get oim(): Decimal {
    return this.oimCell.value;
  }

  set oim(v: Decimal) {
    this.oimCell.set(v);
  }

  get holdFee(): Decimal {
    return this.holdFeeCell.value;
  }

  set holdFee(v: Decimal) {
    this.holdFeeCell.set(v);
  }

  get marginBooked(): Decimal {
    return this.marginBookedCell.value;
  }

  get closePnl(): Decimal {
    return this.closePnlCell.value;
  }

  set closePnl(v: Decimal) {
    this.closePnlCell.set(v);
  }

  get totalFee(): Decimal {
    return this.totalFeeCell.value;
  }

  get isLong(): boolean {
    return this.positionType === PositionType.LONG;
  }

  get availableLots(): number {
    return this.holdLots - this.frozenLots;
  }

  /**
   * Tick·lots held, opened, closed as bigints. A snapshot written before TickLots sets them (its restore
   * then deletes the *TickLots fields): the values are kept aside for reviveAfterSnapshot.
   */
  get holdCost(): bigint {
    return bigOf(this.holdTickLots);
  }

  set holdCost(v: bigint) {
    this.holdTickLots = tickLots(v);
    legacyCosts(this).hold = v;
  }

  get openCost(): bigint {
    return bigOf(this.openTickLots);
  }

  set openCost(v: bigint) {
    this.openTickLots = tickLots(v);
    legacyCosts(this).open = v;
  }

  get closeCost(): bigint {
    return bigOf(this.closeTickLots);
  }

  set closeCost(v: bigint) {
    this.closeTickLots = tickLots(v);
    legacyCosts(this).close = v;
  }

  /** Called by the emulator's snapshot restore: rebuilds the TickLots fields an older snapshot lacks. */
  reviveAfterSnapshot(): void {
    if ((this.holdTickLots as TickLots | undefined) !== undefined) return;
    const c = LEGACY_COSTS.get(this);
    this.holdTickLots = tickLots(c?.hold ?? 0n);
    this.openTickLots = tickLots(c?.open ?? 0n);
    this.closeTickLots = tickLots(c?.close ?? 0n);
  }

  /** The held tick·lots as a double (exact while a safe integer). */
  get holdCostNumber(): number {
    return Number(this.holdTickLots);
  }

  /** Derived Decimals, rebuilt lazily after a fill (they are read far more often than they change). */
  private cachedQty: Decimal | undefined;
  private cachedCost: Decimal | undefined;

  open(lots: number, priceTicks: number): void {
    this.cachedQty = this.cachedCost = undefined;
    const v = priceTicks * lots;
    const add: TickLots = Number.isSafeInteger(v) ? v : tickLots(BigInt(priceTicks) * BigInt(lots));
    this.holdLots += lots;
    this.openedLots += lots;
    this.holdTickLots = addTickLots(this.holdTickLots, add);
    this.openTickLots = addTickLots(this.openTickLots, add);
    this.watch?.touched(this);
  }

  /** Removes `lots` at `priceTicks`; returns the realised PnL in tick·lots (signed). */
  close(lots: number, priceTicks: number): bigint {
    const r = this.closeAt(lots, priceTicks);
    return typeof r === 'number' ? BigInt(r) : r;
  }

  /** close(), with the realised tick·lots as a number when it is a safe integer (no bigint made for it). */
  closeAt(lots: number, priceTicks: number): number | bigint {
    if (lots <= 0 || lots > this.holdLots) throw new RangeError(`close of ${lots} lots from a position of ${this.holdLots}`);
    this.cachedQty = this.cachedCost = undefined;
    const hold = this.holdTickLots;
    const closed = this.closeTickLots;
    const value = priceTicks * lots;
    let realised: number | bigint;
    // In doubles while every figure is a safe integer (then each is exact, and so is the floor of
    // share / holdLots: see margin-units.ts); the bigint formula otherwise. Each bigint operation allocates.
    if (
      typeof hold === 'number' &&
      typeof closed === 'number' &&
      Number.isSafeInteger(hold * lots) &&
      Number.isSafeInteger(value) &&
      Number.isSafeInteger(closed + value) &&
      hold >= 0
    ) {
      const removed = lots === this.holdLots ? hold : Math.floor((hold * lots) / this.holdLots);
      this.holdTickLots = hold - removed;
      this.closeTickLots = closed + value;
      realised = this.isLong ? value - removed : removed - value;
    } else {
      const holdBig = BigInt(hold);
      const removed = lots === this.holdLots ? holdBig : (holdBig * BigInt(lots)) / BigInt(this.holdLots);
      const v = BigInt(priceTicks) * BigInt(lots);
      this.holdTickLots = tickLots(holdBig - removed);
      this.closeTickLots = tickLots(BigInt(closed) + v);
      const r = this.isLong ? v - removed : removed - v;
      realised = tickLots(r);
    }
    this.holdLots -= lots;
    this.closedLots += lots;
    this.watch?.touched(this);
    return realised;
  }

  /**
   * The margin share released by closing `lots` (all of it on the last close), floored to the money
   * scale; reduces im and oim. A fresh cell the caller goes on to add to.
   */
  releaseMargin(lots: number, scale: number): MoneyCell {
    const out = new MoneyCell();
    if (lots >= this.holdLots) {
      out.addCell(this.imCell);
      this.imCell.setUnits(0n);
      this.oimCell.setUnits(0n);
      this.watch?.touched(this);
      return out;
    }
    const im = this.imCell;
    const oim = this.oimCell;
    // oim moves with im until a margin change: while the two are equal, so are their shares.
    const shareGrains = floorShareGrains(im, lots, this.holdLots, scale);
    if (shareGrains === shareGrains) {
      const grain = im.grain;
      const oimSame = oim.dec === undefined && oim.big === im.big && oim.fast === im.fast && oim.grain === grain;
      const oimShare = oimSame ? 0n : floorShare(oim, lots, this.holdLots, scale);
      out.addGrains(shareGrains, grain);
      im.subGrains(shareGrains, grain);
      this.watch?.touched(this);
      if (oimSame) oim.subGrains(shareGrains, grain);
      else oim.subUnits(oimShare);
      return out;
    }
    const imShare = floorShare(im, lots, this.holdLots, scale);
    const oimShare =
      im.dec === undefined && oim.dec === undefined && im.units === oim.units ? imShare : floorShare(oim, lots, this.holdLots, scale);
    out.addUnits(imShare);
    im.subUnits(imShare);
    this.watch?.touched(this);
    oim.subUnits(oimShare);
    return out;
  }

  /**
   * A detached copy of this moment (no watch): what a position-changed event builds its view from when
   * it is read, after later commands may have changed this position. Cells are copied, Decimals shared
   * (immutable), the cached averages too (each is checked against the cost and lots it was made from).
   */
  copy(): ContractPosition {
    const c = new ContractPosition(this.positionId, this.spec, this.positionType, this.openType, this.leverage, this.createTime);
    c.state = this.state;
    c.holdLots = this.holdLots;
    c.frozenLots = this.frozenLots;
    c.openedLots = this.openedLots;
    c.closedLots = this.closedLots;
    c.holdTickLots = this.holdTickLots;
    c.openTickLots = this.openTickLots;
    c.closeTickLots = this.closeTickLots;
    c.imCell.copyFrom(this.imCell);
    c.oimCell.copyFrom(this.oimCell);
    c.marginBookedCell.copyFrom(this.marginBookedCell);
    c.holdFeeCell.copyFrom(this.holdFeeCell);
    c.closePnlCell.copyFrom(this.closePnlCell);
    c.totalFeeCell.copyFrom(this.totalFeeCell);
    c.autoAddIm = this.autoAddIm;
    c.updateTime = this.updateTime;
    c.cachedQty = this.cachedQty;
    c.cachedCost = this.cachedCost;
    c.holdAverage = this.holdAverage;
    c.openAverage = this.openAverage;
    c.closeAverage = this.closeAverage;
    return c;
  }

  /** Base quantity held. */
  get qty(): Decimal {
    return (this.cachedQty ??= this.spec.lotQty.mul(this.holdLots));
  }

  /** Cost value C (settle coin). */
  get costValue(): Decimal {
    return (this.cachedCost ??= this.spec.money(this.holdCost));
  }

  figures(): PositionFigures {
    return { positionType: this.positionType, qty: this.qty, costValue: this.costValue, im: this.im };
  }

  private holdAverage: Average | undefined = undefined;
  private openAverage: Average | undefined = undefined;
  private closeAverage: Average | undefined = undefined;

  holdAvgPrice(): Decimal {
    const a = this.holdAverage;
    if (a !== undefined && a.cost === this.holdTickLots && a.lots === this.holdLots) return a.price;
    return (this.holdAverage = this.averageOf(this.holdTickLots, this.holdLots)).price;
  }

  openAvgPrice(): Decimal {
    const a = this.openAverage;
    if (a !== undefined && a.cost === this.openTickLots && a.lots === this.openedLots) return a.price;
    return (this.openAverage = this.averageOf(this.openTickLots, this.openedLots)).price;
  }

  closeAvgPrice(): Decimal {
    const a = this.closeAverage;
    if (a !== undefined && a.cost === this.closeTickLots && a.lots === this.closedLots) return a.price;
    return (this.closeAverage = this.averageOf(this.closeTickLots, this.closedLots)).price;
  }

  private averageOf(cost: TickLots, lots: number): Average {
    return { cost, lots, price: this.spec.averagePrice(bigOf(cost), lots) };
  }

  /** MEXC "realised": close PnL − fees + funding. */
  realised(): Decimal {
    const pnl = this.closePnlCell;
    const fee = this.totalFeeCell;
    const funding = this.holdFeeCell;
    // In grains when all three are held in one grain's double part (the fill path's cells): the exact sum.
    if (
      pnl.dec === undefined &&
      fee.dec === undefined &&
      funding.dec === undefined &&
      pnl.big === 0n &&
      fee.big === 0n &&
      funding.big === 0n &&
      (pnl.fast === 0 || fee.fast === 0 || pnl.grain === fee.grain) &&
      funding.fast === 0
    ) {
      const grain = pnl.fast === 0 ? fee.grain : pnl.grain;
      const sum = pnl.fast - fee.fast;
      if (Number.isSafeInteger(sum)) return decimalOfGrains(sum, grain);
    }
    // In units when all three are (the usual case): the same exact sum the Decimals give below 40 digits.
    if (pnl.dec === undefined && fee.dec === undefined && funding.dec === undefined && withinExactSum(pnl.units, fee.units, funding.units))
      return decimalOfUnits(pnl.units - fee.units + funding.units);
    return this.closePnl.sub(this.totalFee).add(this.holdFee);
  }
}

const withinExactSum = (a: bigint, b: bigint, c: bigint): boolean =>
  a < EXACT_SUM_UNITS && a > -EXACT_SUM_UNITS && b < EXACT_SUM_UNITS && b > -EXACT_SUM_UNITS && c < EXACT_SUM_UNITS && c > -EXACT_SUM_UNITS;

/** 10^(LEDGER_SCALE − scale) as a double, per scale (undefined past 2^53). */
const STEP_NUMBERS: (number | undefined)[] = Array.from({ length: LEDGER_SCALE + 1 }, (_, s) => {
  const n = 10 ** (LEDGER_SCALE - s);
  return Number.isSafeInteger(n) ? n : undefined;
});

/**
 * floorShare in counts of the cell's grain, for a cell held wholly in its double part (margin booked by
 * fills: whole steps, a step a whole number of grains): ⌊steps · lots / holdLots⌋ steps, a floor of safe
 * doubles (exact, see margin-units.ts). NaN otherwise (then floorShare).
 */
function floorShareGrains(c: MoneyCell, lots: number, holdLots: number, scale: number): number {
  const g = c.grain;
  const step = STEP_NUMBERS[scale];
  if (c.dec !== undefined || c.big !== 0n || g === 0 || step === undefined || step % g !== 0) return NaN;
  const stepGrains = step / g;
  if (c.fast % stepGrains !== 0) return NaN;
  const n = (c.fast / stepGrains) * lots;
  return Number.isSafeInteger(n) ? Math.floor(n / holdLots) * stepGrains : NaN;
}

/**
 * ⌊amount · lots / holdLots⌋ to the money scale, in ledger units. In units the division is exact; a
 * Decimal amount (see MoneyCell) takes the Decimal path the venue used before.
 */
function floorShare(c: MoneyCell, lots: number, holdLots: number, scale: number): bigint {
  if (c.dec !== undefined) return amountToUnits(c.dec.mul(lots).div(holdLots).toDecimalPlaces(scale, Decimal.ROUND_FLOOR));
  const step = pow10(LEDGER_SCALE - scale);
  // Margin is booked in whole steps: counted in steps, the share is a floor of safe doubles (exact, see
  // margin-units.ts), four bigint operations instead of seven.
  if (c.units % step === 0n) {
    const steps = Number(c.units / step);
    const n = steps * lots;
    if (Number.isSafeInteger(n)) return BigInt(Math.floor(n / holdLots)) * step;
  }
  const n = c.units * BigInt(lots);
  const d = BigInt(holdLots) * step;
  let q = n / d;
  if (q * d !== n && n < 0n) q -= 1n; // bigint division truncates; ROUND_FLOOR goes down
  return q * step;
}
