/**
 * The market maker's arithmetic, pure: where to quote given the mid, the inventory and the rules.
 *
 *   skew   = clamp(inventory / maxInventory, −1, 1)
 *   centre = mid · (1 − skewBps·skew / 10⁴)        long inventory lowers both quotes (sell more, buy less)
 *   bid_k  = centre · (1 − (spreadBps/2 + k·levelStepBps) / 10⁴)   rounded DOWN to the tick
 *   ask_k  = centre · (1 + (spreadBps/2 + k·levelStepBps) / 10⁴)   rounded UP to the tick
 *
 * Rounding away from the centre keeps the quotes at least as wide as asked. The side that would grow
 * the inventory beyond ±maxInventory is left out; a quote under the venue minimum (quantity or quote
 * amount) is left out rather than sent to be refused.
 */
import { D, type Decimal, roundToTick, truncateToStep, ZERO } from '../src/core/decimal.js';
import type { SpotInstrument } from '../src/domain/instrument.js';
import type { OrderSide } from '../src/domain/order.js';

export interface QuoteSettings {
  readonly spreadBps: number;
  readonly levels: number;
  readonly levelStepBps: number;
  readonly orderSize: Decimal;
  readonly maxInventory: Decimal;
  readonly skewBps: number;
}

export interface PlannedQuote {
  /** `b0`, `a0`, `b1` … (DesiredQuote slots). */
  readonly slot: string;
  readonly side: OrderSide;
  readonly price: Decimal;
  readonly quantity: Decimal;
}

const BPS = D(10_000);

export function inventorySkew(inventory: Decimal, maxInventory: Decimal): Decimal {
  const r = inventory.div(maxInventory);
  return r.gt(1) ? D(1) : r.lt(-1) ? D(-1) : r;
}

export function quoteCentre(mid: Decimal, inventory: Decimal, s: Pick<QuoteSettings, 'maxInventory' | 'skewBps'>): Decimal {
  return mid.mul(D(1).minus(D(s.skewBps).mul(inventorySkew(inventory, s.maxInventory)).div(BPS)));
}

export function planQuotes(
  mid: Decimal,
  inventory: Decimal,
  s: QuoteSettings,
  inst: Pick<SpotInstrument, 'tick' | 'step' | 'minQuantity' | 'minQuoteAmount'>,
): PlannedQuote[] {
  const centre = quoteCentre(mid, inventory, s);
  const qty = truncateToStep(s.orderSize, inst.step);
  const out: PlannedQuote[] = [];
  const mayBuy = inventory.lt(s.maxInventory);
  const maySell = inventory.gt(s.maxInventory.neg());
  for (let k = 0; k < s.levels; k++) {
    const offset = D(s.spreadBps).div(2).plus(D(s.levelStepBps).mul(k)).div(BPS);
    const bid = roundToTick(centre.mul(D(1).minus(offset)), inst.tick, 'down');
    const ask = roundToTick(centre.mul(D(1).plus(offset)), inst.tick, 'up');
    if (mayBuy && tradable(bid, qty, inst)) out.push({ slot: `b${k}`, side: 'buy', price: bid, quantity: qty });
    if (maySell && tradable(ask, qty, inst)) out.push({ slot: `a${k}`, side: 'sell', price: ask, quantity: qty });
  }
  return out;
}

function tradable(price: Decimal, qty: Decimal, inst: Pick<SpotInstrument, 'minQuantity' | 'minQuoteAmount'>): boolean {
  return price.gt(ZERO) && qty.gte(inst.minQuantity) && price.mul(qty).gte(inst.minQuoteAmount);
}

/** Distance between two prices in basis points of `ref`. */
export const bpsBetween = (a: Decimal, b: Decimal, ref: Decimal): Decimal => a.minus(b).abs().div(ref).mul(BPS);
