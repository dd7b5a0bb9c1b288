/*
 * Frozen copy (issue 12) of src/venue/contract/contract-position.ts as it was before the venue's money became integer
 * units: the reference model (contract-venue-reference.ts) keeps the Decimal state it was written against.
 */
/**
 * A position's book-keeping in integer units. Costs are kept in tick·lots (bigint), so realised PnL
 * is exact: closing `lots` removes the held cost pro rata (floored; the last close removes the rest),
 * and realised units = close value − removed cost (long) or removed cost − close value (short).
 * Summed over every holder, realised + unrealised at any common price is zero — the basis of the
 * venue's conservation check.
 */
import { Decimal } from '../../src/core/decimal.js';
import type { PositionId } from '../../src/core/ids.js';
import { PositionState, PositionType, type OpenType } from '../../src/domain/contract-enums.js';
import type { ContractSpec } from '../../src/venue/contract/contract-spec.js';
import type { PositionFigures } from '../../src/venue/contract/margin-math.js';

const ZERO = new Decimal(0);

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
  im: Decimal = ZERO;
  oim: Decimal = ZERO;
  /** Σ initial margin booked by opening fills (never reduced): the base of profitRatio. */
  marginBooked: Decimal = ZERO;
  /** Funding: positive received, negative paid. */
  holdFee: Decimal = ZERO;
  /** Close PnL without fees (closeProfitLoss). */
  closePnl: Decimal = ZERO;
  /** Fees paid by this position's fills (negative for maker rebates). */
  totalFee: Decimal = ZERO;
  autoAddIm = false;
  updateTime: number;

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
    const units = BigInt(priceTicks) * BigInt(lots);
    this.holdLots += lots;
    this.openedLots += lots;
    this.holdCost += units;
    this.openCost += units;
  }

  /** Removes `lots` at `priceTicks`; returns the realised PnL in tick·lots (signed). */
  close(lots: number, priceTicks: number): bigint {
    if (lots <= 0 || lots > this.holdLots) throw new RangeError(`close of ${lots} lots from a position of ${this.holdLots}`);
    this.cachedQty = this.cachedCost = undefined;
    const removed = lots === this.holdLots ? this.holdCost : (this.holdCost * BigInt(lots)) / BigInt(this.holdLots);
    const value = BigInt(priceTicks) * BigInt(lots);
    this.holdLots -= lots;
    this.closedLots += lots;
    this.holdCost -= removed;
    this.closeCost += value;
    return this.isLong ? value - removed : removed - value;
  }

  /** The margin share released by closing `lots` (all of it on the last close); reduces im and oim. */
  releaseMargin(lots: number, scale: number): Decimal {
    if (lots >= this.holdLots) {
      const all = this.im;
      this.im = ZERO;
      this.oim = ZERO;
      return all;
    }
    const share = this.im.mul(lots).div(this.holdLots).toDecimalPlaces(scale, Decimal.ROUND_FLOOR);
    const oimShare = this.oim.mul(lots).div(this.holdLots).toDecimalPlaces(scale, Decimal.ROUND_FLOOR);
    this.im = this.im.sub(share);
    this.oim = this.oim.sub(oimShare);
    return share;
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

  holdAvgPrice(): Decimal {
    return this.spec.averagePrice(this.holdCost, this.holdLots);
  }

  openAvgPrice(): Decimal {
    return this.spec.averagePrice(this.openCost, this.openedLots);
  }

  closeAvgPrice(): Decimal {
    return this.spec.averagePrice(this.closeCost, this.closedLots);
  }

  /** MEXC "realised": close PnL − fees + funding. */
  realised(): Decimal {
    return this.closePnl.sub(this.totalFee).add(this.holdFee);
  }
}
