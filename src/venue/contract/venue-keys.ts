/**
 * The keys and small list rules the contract venue's modules share (one definition, so a position,
 * a side setting and an external order id are found under the same key everywhere).
 */
import { PositionMode, PositionType } from '../../domain/contract-enums.js';

/** An account's position of one contract and direction. */
export const posKey = (symbol: string, type: PositionType): string => `${symbol}:${type}`;

/** Leverage / open type settings: per side in hedged mode, per contract in one-way mode. */
export const sideKey = (mode: PositionMode, symbol: string, type: PositionType): string =>
  mode === PositionMode.ONE_WAY ? `${symbol}:*` : `${symbol}:${type}`;

/** An open order by its client id (unique per contract among open orders). */
export const extKey = (symbol: string, ext: string): string => `${symbol}\u0000${ext}`;

export const oppositeType = (t: PositionType): PositionType => (t === PositionType.LONG ? PositionType.SHORT : PositionType.LONG);

/** Appends and drops the oldest beyond `limit`; returns what was dropped. */
export function pushCapped<T>(list: T[], item: T, limit: number): T | undefined {
  list.push(item);
  return list.length > limit ? list.shift() : undefined;
}
