/**
 * Kline intervals of both APIs on one internal scale, and their boundaries in UTC.
 *
 * Spot names (1m … 1M) and contract names (Min1 … Month1) map onto one set; the union adds 8h, which
 * only the contract API serves. Fixed intervals align to the epoch (so 4h and 8h bars open at 00:00,
 * 04:00 / 08:00 … UTC). Weeks open on MONDAY 00:00 UTC (ISO week): that is how Binance-compatible
 * venues (the spot API here is one) and the exchange's own charts cut weekly bars; the specs do not
 * say, and no captured weekly bar was found to prove it either way. Months open on the 1st, 00:00 UTC.
 */
import type { SpotKlineInterval } from './spot-enums.js';
import type { ContractKlineInterval } from './contract-enums.js';

export const KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '60m', '4h', '8h', '1d', '1W', '1M'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

const MINUTE = 60_000;
const DAY = 86_400_000;
export const WEEK_MS = 7 * DAY;
/** 1970-01-01 was a Thursday; the first Monday 00:00 UTC is 4 days later. */
export const WEEK_ANCHOR_MS = 4 * DAY;

/** Length in ms of the fixed intervals (1M is calendar-based). */
export const FIXED_INTERVAL_MS: Readonly<Record<Exclude<KlineInterval, '1M'>, number>> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '60m': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '8h': 480 * MINUTE,
  '1d': DAY,
  '1W': WEEK_MS,
};

const CONTRACT_TO_INTERNAL: Readonly<Record<ContractKlineInterval, KlineInterval>> = {
  Min1: '1m',
  Min5: '5m',
  Min15: '15m',
  Min30: '30m',
  Min60: '60m',
  Hour4: '4h',
  Hour8: '8h',
  Day1: '1d',
  Week1: '1W',
  Month1: '1M',
};

export const fromSpotInterval = (i: SpotKlineInterval): KlineInterval => i;
export const fromContractInterval = (i: ContractKlineInterval): KlineInterval => CONTRACT_TO_INTERNAL[i];

/** Open time (ms) of the bar of `interval` that contains `t`. */
export function klineOpenTime(interval: KlineInterval, t: number): number {
  if (interval === '1M') {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  if (interval === '1W') return Math.floor((t - WEEK_ANCHOR_MS) / WEEK_MS) * WEEK_MS + WEEK_ANCHOR_MS;
  const ms = FIXED_INTERVAL_MS[interval];
  return Math.floor(t / ms) * ms;
}

/** Open time of the bar after the one opening at `open` (= that bar's close time on this venue). */
export function nextKlineOpenTime(interval: KlineInterval, open: number): number {
  if (interval === '1M') {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return open + FIXED_INTERVAL_MS[interval];
}

/** Open time of the bar before the one opening at `open`. */
export function prevKlineOpenTime(interval: KlineInterval, open: number): number {
  if (interval === '1M') {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
  }
  return open - FIXED_INTERVAL_MS[interval];
}

/** The first bar open time at or after `t`. */
export function ceilKlineOpenTime(interval: KlineInterval, t: number): number {
  const open = klineOpenTime(interval, t);
  return open === t ? t : nextKlineOpenTime(interval, open);
}

/** `open` stepped back `n` bars. */
export function stepBackKlines(interval: KlineInterval, open: number, n: number): number {
  if (interval !== '1M') return open - n * FIXED_INTERVAL_MS[interval];
  const d = new Date(open);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1);
}
