/**
 * The keys and small list rules the contract venue's modules share (one definition, so a position,
 * a side setting and an external order id are found under the same key everywhere).
 */
import { lastCall } from '../../core/last-call.js';
import { PositionMode, PositionType } from '../../domain/contract-enums.js';

/**
 * The keys of one contract, made once: a key built per lookup is a new string to hash on every Map
 * access (each order looks up its positions and side settings several times).
 */
interface SymbolKeys {
  readonly long: string;
  readonly short: string;
  readonly oneWay: string;
}

const keysBySymbol = new Map<string, SymbolKeys>();

/** A contract's keys; a maker+taker cycle asks for one contract's keys several times in a row. */
const keysOf = lastCall((symbol: string): SymbolKeys => {
  let k = keysBySymbol.get(symbol);
  if (k === undefined) {
    if (keysBySymbol.size >= 1024) keysBySymbol.clear(); // a bound, should callers ever pass arbitrary symbols
    k = { long: `${symbol}:${PositionType.LONG}`, short: `${symbol}:${PositionType.SHORT}`, oneWay: `${symbol}:*` };
    keysBySymbol.set(symbol, k);
  }
  return k;
});

/** An account's position of one contract and direction. */
export const posKey = (symbol: string, type: PositionType): string =>
  type === PositionType.LONG ? keysOf(symbol).long : type === PositionType.SHORT ? keysOf(symbol).short : `${symbol}:${String(type)}`;

/** Leverage / open type settings: per side in hedged mode, per contract in one-way mode. */
export const sideKey = (mode: PositionMode, symbol: string, type: PositionType): string =>
  mode === PositionMode.ONE_WAY ? keysOf(symbol).oneWay : posKey(symbol, type);

/** An open order by its client id (unique per contract among open orders). */
export const extKey = (symbol: string, ext: string): string => `${symbol}\u0000${ext}`;

export const oppositeType = (t: PositionType): PositionType => (t === PositionType.LONG ? PositionType.SHORT : PositionType.LONG);

/** Appends and drops the oldest beyond `limit`; returns what was dropped. */
export function pushCapped<T>(list: T[], item: T, limit: number): T | undefined {
  list.push(item);
  return list.length > limit ? list.shift() : undefined;
}
