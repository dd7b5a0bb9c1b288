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
import { MoneyCell, decimalOfUnits } from './money-cell.js';
import { tickLotsOf } from './margin-units.js';

/** Below this many ledger units in magnitude a sum of three amounts keeps within decimal.js's 40 digits (so it is exact there too). */
const EXACT_SUM_UNITS = 10n ** 39n;

/** An average price and the cost and lots it was worked out from (the views ask again and again between fills). */
interface Average {
  readonly cost: bigint;
  readonly lots: number;
  readonly price: Decimal;
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
  /** Tick·lots of what is held, of everything opened, of everything closed. */
  holdCost = 0n;
  openCost = 0n;
  closeCost = 0n;
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

  /** Derived Decimals, rebuilt lazily after a fill (they are read far more often than they change). */
  private cachedQty: Decimal | undefined;
  private cachedCost: Decimal | undefined;

  open(lots: number, priceTicks: number): void {
    this.cachedQty = this.cachedCost = undefined;
    const units = tickLotsOf(priceTicks, lots);
    this.holdLots += lots;
    this.openedLots += lots;
    // From zero (a new position) keep `units` itself: `0n + units` is one more bigint allocation.
    this.holdCost = this.holdCost === 0n ? units : this.holdCost + units;
    this.openCost = this.openCost === 0n ? units : this.openCost + units;
    this.watch?.touched(this);
  }

  /** Removes `lots` at `priceTicks`; returns the realised PnL in tick·lots (signed). */
  close(lots: number, priceTicks: number): bigint {
    if (lots <= 0 || lots > this.holdLots) throw new RangeError(`close of ${lots} lots from a position of ${this.holdLots}`);
    this.cachedQty = this.cachedCost = undefined;
    const hold = Number(this.holdCost);
    const closed = Number(this.closeCost);
    const value = priceTicks * lots;
    const share = hold * lots;
    let realised: bigint;
    // In doubles while every figure is a safe integer (then each is exact, and so is the floor of
    // share / holdLots: see margin-units.ts); the bigint formula otherwise. Each bigint operation allocates.
    if (Number.isSafeInteger(share) && Number.isSafeInteger(value) && Number.isSafeInteger(closed + value) && hold >= 0) {
      const removed = lots === this.holdLots ? hold : Math.floor(share / this.holdLots);
      this.holdCost = BigInt(hold - removed);
      this.closeCost = BigInt(closed + value);
      realised = BigInt(this.isLong ? value - removed : removed - value);
    } else {
      const removed = lots === this.holdLots ? this.holdCost : (this.holdCost * BigInt(lots)) / BigInt(this.holdLots);
      const v = BigInt(priceTicks) * BigInt(lots);
      this.holdCost -= removed;
      this.closeCost += v;
      realised = this.isLong ? v - removed : removed - v;
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
    const imShare = floorShare(this.imCell, lots, this.holdLots, scale);
    // oim moves with im until a margin change: while the two are equal, so are their shares.
    const im = this.imCell;
    const oim = this.oimCell;
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
    c.holdCost = this.holdCost;
    c.openCost = this.openCost;
    c.closeCost = this.closeCost;
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
    if (a !== undefined && a.cost === this.holdCost && a.lots === this.holdLots) return a.price;
    return (this.holdAverage = this.averageOf(this.holdCost, this.holdLots)).price;
  }

  openAvgPrice(): Decimal {
    const a = this.openAverage;
    if (a !== undefined && a.cost === this.openCost && a.lots === this.openedLots) return a.price;
    return (this.openAverage = this.averageOf(this.openCost, this.openedLots)).price;
  }

  closeAvgPrice(): Decimal {
    const a = this.closeAverage;
    if (a !== undefined && a.cost === this.closeCost && a.lots === this.closedLots) return a.price;
    return (this.closeAverage = this.averageOf(this.closeCost, this.closedLots)).price;
  }

  private averageOf(cost: bigint, lots: number): Average {
    return { cost, lots, price: this.spec.averagePrice(cost, lots) };
  }

  /** MEXC "realised": close PnL − fees + funding. */
  realised(): Decimal {
    const pnl = this.closePnlCell;
    const fee = this.totalFeeCell;
    const funding = this.holdFeeCell;
    // In units when all three are (the usual case): the same exact sum the Decimals give below 40 digits.
    if (pnl.dec === undefined && fee.dec === undefined && funding.dec === undefined && withinExactSum(pnl.units, fee.units, funding.units))
      return decimalOfUnits(pnl.units - fee.units + funding.units);
    return this.closePnl.sub(this.totalFee).add(this.holdFee);
  }
}

const withinExactSum = (a: bigint, b: bigint, c: bigint): boolean =>
  a < EXACT_SUM_UNITS && a > -EXACT_SUM_UNITS && b < EXACT_SUM_UNITS && b > -EXACT_SUM_UNITS && c < EXACT_SUM_UNITS && c > -EXACT_SUM_UNITS;

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
