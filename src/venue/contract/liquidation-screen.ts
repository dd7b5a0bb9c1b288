/**
 * A float screen in front of the exact breach test of isolated positions (issue 12). Most fair-price
 * updates move the price nowhere near any liquidation price, yet the exact test (margin-math
 * `isBreached`) costs half a dozen Decimal products per position. The breach region of an isolated
 * position is a half-line in the price: a long is breached exactly when P ≤ L, a short when P ≥ L, with
 * L its liquidation price (margin-math's module comment derives it). The screen keeps L as a double
 * per position, recomputed only when the figures it depends on change (lots, cost, margin, tier rate),
 * and answers "surely safe" only when the price sits outside L by a relative margin far wider than
 * the rounding of a double or of a 40-digit Decimal; every other case goes to the exact test, so the
 * venue decides exactly as before.
 */
import type { Decimal } from '../../core/decimal.js';
import type { ContractPosition, TickLots } from './contract-position.js';
import { liquidationPrice } from './margin-math.js';

/** Relative distance from L inside which the exact test decides (doubles carry ~1e-16). */
const MARGIN = 1e-9;

interface Bound {
  lots: number;
  cost: TickLots;
  im: Decimal;
  mmr: Decimal;
  /** Long: safe above; short: safe below. ±Infinity when no positive price breaches. */
  edge: number;
}

export class LiquidationScreen {
  private readonly bounds = new WeakMap<ContractPosition, Bound>();

  /** True only when `pos` is certainly not breached at `fair` (a double of the fair price). */
  surelySafe(pos: ContractPosition, fair: number, mmr: Decimal): boolean {
    let b = this.bounds.get(pos);
    if (b === undefined || b.lots !== pos.holdLots || b.cost !== pos.holdTickLots || b.im !== pos.im || b.mmr !== mmr) {
      b = { lots: pos.holdLots, cost: pos.holdTickLots, im: pos.im, mmr, edge: edgeOf(pos, mmr) };
      this.bounds.set(pos, b);
    }
    return pos.isLong ? fair > b.edge : fair < b.edge;
  }
}

/** The screen's edge of `pos`: its liquidation price as a double, widened by MARGIN to the unsafe side. */
export function edgeOf(pos: ContractPosition, mmr: Decimal): number {
  const liq = liquidationPrice(pos.figures(), mmr);
  if (liq === undefined) return pos.isLong ? -Infinity : Infinity;
  const l = liq.toNumber();
  return pos.isLong ? l * (1 + MARGIN) : l * (1 - MARGIN);
}
