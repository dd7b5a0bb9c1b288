/**
 * One contract's trading rules in the units the engine works in: prices in integer ticks
 * (priceUnit), sizes in integer lots (volUnit), money through `unitValue` (the settle-coin value of
 * one tick·lot = priceUnit · volUnit · contractSize). Decimal appears only when converting at the edge.
 */
import { Decimal, toUnits, type DecimalLike, type RoundDirection } from '../../core/decimal.js';
import type { ContractSymbol } from '../../core/ids.js';
import type { ContractInstrument, RiskTier } from '../../domain/instrument.js';
import { requireUnits } from './money-cell.js';
import { riskTiersOf } from './risk-tiers.js';
import { StepGrid } from './step-grid.js';

const NO_PRICE = new Decimal(0);

export class ContractSpec {
  readonly symbol: ContractSymbol;
  readonly settleCoin: string;
  /** Price tick (priceUnit). */
  readonly tick: Decimal;
  /** Quantity step in contracts (volUnit). */
  readonly lot: Decimal;
  readonly contractSize: Decimal;
  /** Base quantity of one lot: volUnit · contractSize. */
  readonly lotQty: Decimal;
  /** Settle-coin value of one tick·lot: priceUnit · volUnit · contractSize. */
  readonly unitValue: Decimal;
  /** unitValue in ledger units (10^-18 of the settle coin): the hot path's money is tick·lots × this. */
  readonly unitValueUnits: bigint;
  readonly minLots: number;
  readonly maxLots: number;
  readonly tiers: readonly RiskTier[];
  /** Per tier, the most lots it holds (⌊maxVol / volUnit⌋): tier lookups compare integers, not Decimals. */
  private readonly tierMaxLots: readonly number[];
  /** lotQty and unitValue as doubles, for the float screens in front of the exact tests. */
  readonly lotQtyNumber: number;
  readonly unitValueNumber: number;
  /** The tick and lot grids: recent prices and sizes as Decimals, and the division-free exact parse. */
  readonly tickGrid: StepGrid;
  readonly lotGrid: StepGrid;
  /** Decimal places of display prices (priceScale, or the tick's when finer). */
  private readonly displayPlaces: number;

  constructor(readonly instrument: ContractInstrument) {
    this.symbol = instrument.symbol;
    this.settleCoin = instrument.settleCoin;
    this.tick = instrument.priceUnit;
    this.lot = instrument.volUnit;
    this.contractSize = instrument.contractSize;
    if (!this.tick.gt(0) || !this.lot.gt(0) || !this.contractSize.gt(0)) {
      throw new RangeError(`${instrument.symbol}: priceUnit, volUnit and contractSize must be > 0`);
    }
    this.lotQty = this.lot.mul(this.contractSize);
    this.unitValue = this.tick.mul(this.lotQty);
    this.unitValueUnits = requireUnits(
      this.unitValue,
      `${instrument.symbol}: the value of one tick·lot (priceUnit · volUnit · contractSize)`,
    );
    this.minLots = Math.max(1, toUnits(instrument.minVol, this.lot, 'up'));
    this.maxLots = toUnits(instrument.maxVol, this.lot, 'down');
    this.tiers = riskTiersOf(instrument);
    this.tierMaxLots = this.tiers.map((t) => t.maxVol.div(this.lot).floor().toNumber());
    this.lotQtyNumber = this.lotQty.toNumber();
    this.unitValueNumber = this.unitValue.toNumber();
    this.tickGrid = new StepGrid(this.tick);
    this.lotGrid = new StepGrid(this.lot);
    this.displayPlaces = Math.max(instrument.priceScale, this.tick.decimalPlaces());
  }

  priceToTicks(price: DecimalLike, direction: RoundDirection | 'exact'): number {
    return toUnits(price, this.tick, direction);
  }

  ticksToPrice(ticks: number | bigint): Decimal {
    return typeof ticks === 'number' ? this.tickGrid.valueOf(ticks) : this.tick.mul(ticks.toString());
  }

  volToLots(vol: DecimalLike, direction: RoundDirection | 'exact'): number {
    return toUnits(vol, this.lot, direction);
  }

  lotsToVol(lots: number): Decimal {
    return this.lotGrid.valueOf(lots);
  }

  /** Settle-coin value of `units` tick·lots (exact: a product of finite decimals). */
  money(units: number | bigint): Decimal {
    return this.unitValue.mul(typeof units === 'number' ? units : units.toString());
  }

  /** The risk tier of a size in lots (the last tier beyond the table: callers refuse such sizes first). */
  tierOfLots(lots: number): RiskTier {
    return this.tierForLots(lots) ?? this.tiers[this.tiers.length - 1]!;
  }

  /** The tier holding `lots` (lots · volUnit ≤ maxVol), or undefined beyond the last tier (as tierForVol). */
  tierForLots(lots: number): RiskTier | undefined {
    for (let i = 0; i < this.tiers.length; i++) if (lots <= this.tierMaxLots[i]!) return this.tiers[i];
    return undefined;
  }

  /** Notional (settle coin) of `lots` at a decimal price: lots · lotQty · price. */
  notionalAt(lots: number, price: Decimal): Decimal {
    return this.lotQty.mul(lots).mul(price);
  }

  /** Average price of `units` tick·lots over `lots` (full precision). */
  averagePrice(units: bigint, lots: number): Decimal {
    if (lots === 0) return NO_PRICE;
    // Fills at one price (most orders): the average is that price, the same canonical Decimal.
    const u = Number(units);
    if (Number.isSafeInteger(u) && u % lots === 0) return this.tickGrid.valueOf(u / lots);
    return this.tick.mul(units.toString()).div(lots);
  }

  /** Average price rounded to the instrument's price scale (half-up), for display fields. */
  displayPrice(price: Decimal): Decimal {
    // A price already within the places is its own rounding (the same value and canonical form).
    if (price.decimalPlaces() <= this.displayPlaces) return price;
    return price.toDecimalPlaces(this.displayPlaces, Decimal.ROUND_HALF_UP);
  }

  maxNumOrders(oneWay: boolean): number {
    return oneWay ? this.instrument.maxNumOrders[1] : this.instrument.maxNumOrders[0];
  }
}
