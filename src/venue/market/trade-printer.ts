/**
 * Prints an observed trade (recorded or mirrored) against our book through a LiquidityPort: a crowd
 * IOC of the trade's taker side, limited at the trade price, takes whatever rests there — crowd
 * orders and ours alike, in price-time priority — so our resting orders fill when the real tape
 * says the price traded through them.
 *
 * When the book here holds less than the trade (the source's depth update removing the level often
 * arrives before the trade itself), `force` makes the print happen anyway: a crowd maker order at the
 * trade price for the missing lots, then a crowd IOC that takes it. The tape then carries the
 * recorded volume, and every print still comes out of the matching engine with consistent ids.
 */
import type { BookSide, LiquidityPort } from './liquidity-port.js';

export interface PrintOutcome {
  /** Lots the IOC took from the book as it stood. */
  readonly matchedLots: number;
  /** Lots printed through the forced maker order (includes our orders it crossed). */
  readonly forcedLots: number;
}

export function printTrade(
  port: LiquidityPort,
  symbol: string,
  takerSide: BookSide,
  priceTicks: number,
  lots: number,
  force: boolean,
): PrintOutcome {
  const first = port.place(symbol, takerSide, priceTicks, lots, 'ioc');
  const missing = lots - first.filledLots;
  if (!force || missing <= 0) return { matchedLots: first.filledLots, forcedLots: 0 };
  const makerSide: BookSide = takerSide === 'buy' ? 'sell' : 'buy';
  const maker = port.place(symbol, makerSide, priceTicks, missing, 'limit');
  let forced = maker.filledLots;
  if (maker.id !== undefined) {
    const rest = port.remaining(symbol, maker.id);
    if (rest > 0) forced += port.place(symbol, takerSide, priceTicks, rest, 'ioc').filledLots;
    if (port.remaining(symbol, maker.id) > 0) port.cancel(symbol, maker.id);
  }
  return { matchedLots: first.filledLots, forcedLots: forced };
}
