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
const ONE = D(1);

export function inventorySkew(inventory: Decimal, maxInventory: Decimal): Decimal {
  const r = inventory.div(maxInventory);
  return r.gt(1) ? D(1) : r.lt(-1) ? D(-1) : r;
}

export function quoteCentre(mid: Decimal, inventory: Decimal, s: Pick<QuoteSettings, 'maxInventory' | 'skewBps'>): Decimal {
  return mid.mul(ONE.minus(D(s.skewBps).mul(inventorySkew(inventory, s.maxInventory)).div(BPS)));
}

/**
 * The quotes around `mid` for `inventory`. `ladder`: what the settings and the instrument alone give
 * (ladderOf), made once by a caller that plans on every snapshot (the spot market maker keeps it per
 * symbol); by default made here.
 */
export function planQuotes(
  mid: Decimal,
  inventory: Decimal,
  s: QuoteSettings,
  inst: Pick<SpotInstrument, 'tick' | 'step' | 'minQuantity' | 'minQuoteAmount'>,
  ladder: Ladder = ladderOf(s, inst),
): PlannedQuote[] {
  const centre = quoteCentre(mid, inventory, s);
  const { qty, qtyTradable, below, above } = ladder;
  const out: PlannedQuote[] = [];
  const mayBuy = inventory.lt(s.maxInventory);
  const maySell = inventory.gt(s.maxInventory.neg());
  for (let k = 0; k < below.length; k++) {
    const bid = roundToTick(centre.mul(below[k]!), inst.tick, 'down');
    const ask = roundToTick(centre.mul(above[k]!), inst.tick, 'up');
    if (mayBuy && qtyTradable && tradable(bid, qty, inst)) out.push({ slot: `b${k}`, side: 'buy', price: bid, quantity: qty });
    if (maySell && qtyTradable && tradable(ask, qty, inst)) out.push({ slot: `a${k}`, side: 'sell', price: ask, quantity: qty });
  }
  return out;
}

/** What planQuotes() derives from the settings and the instrument alone: the same for every snapshot. */
export interface Ladder {
  /** The instrument it was made for. */
  readonly inst: object;
  /** The order size truncated to the step, and whether it reaches the minimum quantity. */
  readonly qty: Decimal;
  readonly qtyTradable: boolean;
  /** Per level k: 1 − offset_k and 1 + offset_k, offset_k = (spreadBps/2 + k·levelStepBps) / 10⁴. */
  readonly below: readonly Decimal[];
  readonly above: readonly Decimal[];
}

/**
 * The ladder of `s` on `inst`. Why apart from planQuotes: every snapshot of the reference market maker
 * computed the same offsets, factors and truncated size again, ~7 Decimal operations per level besides
 * the two that depend on the mid; the same operations on the same operands give the same Decimals.
 */
export function ladderOf(s: QuoteSettings, inst: Pick<SpotInstrument, 'step' | 'minQuantity'>): Ladder {
  const qty = truncateToStep(s.orderSize, inst.step);
  const below: Decimal[] = [];
  const above: Decimal[] = [];
  for (let k = 0; k < s.levels; k++) {
    const offset = D(s.spreadBps).div(2).plus(D(s.levelStepBps).mul(k)).div(BPS);
    below.push(ONE.minus(offset));
    above.push(ONE.plus(offset));
  }
  return { inst, qty, qtyTradable: qty.gte(inst.minQuantity), below, above };
}

/** The price-dependent part of a quote's tradability (the quantity's is the ladder's qtyTradable). */
function tradable(price: Decimal, qty: Decimal, inst: Pick<SpotInstrument, 'minQuoteAmount'>): boolean {
  return price.gt(ZERO) && price.mul(qty).gte(inst.minQuoteAmount);
}

/** Distance between two prices in basis points of `ref`. */
export const bpsBetween = (a: Decimal, b: Decimal, ref: Decimal): Decimal => a.minus(b).abs().div(ref).mul(BPS);
