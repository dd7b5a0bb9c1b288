/**
 * Parsed catalogue payloads → the venue-neutral records of a MarketSnapshot. Pure: no clock, no I/O.
 * Each record keeps the venue's own time (`exchangeTime`) where the payload carries an "as of" time;
 * trade and kline times are event times and stay on the trades / candles themselves.
 */
import { D, type Decimal } from '../../core/decimal.js';
import type { SpotAvgPrice, SpotBookTicker, SpotDepth, SpotKline, SpotTicker24hr, SpotTrade } from '../../api/spot/market.js';
import type {
  ContractDeal,
  ContractDepth,
  ContractKline,
  ContractTicker as WireContractTicker,
  FairPrice,
  FundingRate,
  IndexPrice,
} from '../../api/contract/market-schemas.js';
import { klineIntervalSeconds } from '../../api/contract/params.js';
import type { ContractKlineInterval } from '../../domain/contract-enums.js';
import { DealSide } from '../../domain/contract-enums.js';
import type {
  BookTicker,
  ContractTicker,
  FundingRateInfo,
  Kline,
  MarketTrade,
  OrderBookSnapshot,
  PricePoint,
  Ticker24h,
} from '../../domain/snapshot.js';

/** Spot average price over the venue's window (GET /api/v3/avgPrice); MarketSnapshot has no field for it. */
export interface AveragePrice {
  readonly price: Decimal;
  /** Window length in minutes (`mins`). */
  readonly windowMinutes: number;
}

const byTime = <T extends { time: number }>(a: T, b: T): number => a.time - b.time;

/**
 * Prints oldest first. The venues answer newest first, and prints of the same millisecond carry no
 * usable order but their place in that answer (spot trade ids are null): a stable sort by time alone
 * would leave each same-millisecond group newest first. So a list that does not run oldest-first is
 * reversed before the sort, which then only repairs what is out of place.
 */
function oldestFirst<T extends { time: number }>(list: T[]): T[] {
  if (list.length > 1 && list[0]!.time >= list[list.length - 1]!.time) list.reverse();
  return list.sort(byTime);
}

export function spotBook(d: SpotDepth): OrderBookSnapshot {
  return {
    bids: d.bids.map((l) => ({ price: l.price, quantity: l.qty })),
    asks: d.asks.map((l) => ({ price: l.price, quantity: l.qty })),
    sequence: String(d.lastUpdateId),
    ...(d.timestamp !== undefined ? { exchangeTime: d.timestamp } : {}),
  };
}

/** bookTicker answers a list (one element with a symbol); a side the venue leaves empty is 0. */
export function spotBookTicker(list: readonly SpotBookTicker[], symbol: string): BookTicker | undefined {
  const t = list.find((x) => x.symbol === symbol) ?? (list.length === 1 ? list[0] : undefined);
  if (!t) return undefined;
  const zero = D(0);
  return { bidPrice: t.bidPrice ?? zero, bidQty: t.bidQty ?? zero, askPrice: t.askPrice ?? zero, askQty: t.askQty ?? zero };
}

/** Oldest first. `isBuyerMaker` true means the seller was the taker. */
export function spotTrades(list: readonly SpotTrade[]): MarketTrade[] {
  const trades = list.map((t): MarketTrade => ({
    ...(t.id !== undefined ? { id: t.id } : {}),
    price: t.price,
    quantity: t.qty,
    takerSide: t.tradeType !== undefined ? (t.tradeType === 'BID' ? 'buy' : 'sell') : t.isBuyerMaker ? 'sell' : 'buy',
    time: t.time,
  }));
  return oldestFirst(trades);
}

export function spotKlines(list: readonly SpotKline[]): Kline[] {
  return list
    .map((k) => ({
      openTime: k.openTime,
      closeTime: k.closeTime,
      open: k.open,
      high: k.high,
      low: k.low,
      close: k.close,
      volume: k.volume,
      quoteVolume: k.quoteVolume,
    }))
    .sort((a, b) => a.openTime - b.openTime);
}

export function spotTicker24h(list: readonly SpotTicker24hr[], symbol: string): Ticker24h | undefined {
  const t = list.find((x) => x.symbol === symbol) ?? (list.length === 1 ? list[0] : undefined);
  if (!t || t.lastPrice === undefined) return undefined;
  return {
    lastPrice: t.lastPrice,
    ...(t.openPrice !== undefined ? { openPrice: t.openPrice } : {}),
    ...(t.highPrice !== undefined ? { highPrice: t.highPrice } : {}),
    ...(t.lowPrice !== undefined ? { lowPrice: t.lowPrice } : {}),
    ...(t.volume !== undefined ? { volume: t.volume } : {}),
    ...(t.quoteVolume !== undefined ? { quoteVolume: t.quoteVolume } : {}),
    ...(t.priceChangePercent !== undefined ? { priceChangePercent: t.priceChangePercent } : {}),
    ...(t.bidPrice !== undefined ? { bidPrice: t.bidPrice } : {}),
    ...(t.askPrice !== undefined ? { askPrice: t.askPrice } : {}),
    // closeTime is the end of the rolling window: the "as of" time of the statistics.
    ...(t.closeTime !== undefined ? { exchangeTime: t.closeTime } : {}),
  };
}

export function spotAveragePrice(a: SpotAvgPrice): AveragePrice {
  return { price: a.price, windowMinutes: a.mins };
}

export function contractBook(d: ContractDepth): OrderBookSnapshot {
  // The venue sends asks ascending and bids descending already; sorting again costs little and
  // protects the "best first" promise of OrderBookSnapshot.
  const bids = d.bids
    .map((l) => ({ price: l.price, quantity: l.vol, ...(l.count !== undefined ? { orders: l.count } : {}) }))
    .sort((a, b) => b.price.comparedTo(a.price));
  const asks = d.asks
    .map((l) => ({ price: l.price, quantity: l.vol, ...(l.count !== undefined ? { orders: l.count } : {}) }))
    .sort((a, b) => a.price.comparedTo(b.price));
  return { bids, asks, sequence: String(d.version), ...(d.timestamp !== undefined ? { exchangeTime: d.timestamp } : {}) };
}

/** ticker answers one object with a symbol, a list without; both are accepted. */
export function contractTicker(v: WireContractTicker | readonly WireContractTicker[], symbol: string): ContractTicker | undefined {
  const list: readonly WireContractTicker[] = Array.isArray(v) ? v : [v as WireContractTicker];
  const t = list.find((x) => x.symbol === symbol);
  if (!t) return undefined;
  return {
    lastPrice: t.lastPrice,
    ...(t.bid1 !== undefined ? { bid1: t.bid1 } : {}),
    ...(t.ask1 !== undefined ? { ask1: t.ask1 } : {}),
    volume24: t.volume24,
    ...(t.amount24 !== undefined ? { amount24: t.amount24 } : {}),
    ...(t.holdVol !== undefined ? { holdVol: t.holdVol } : {}),
    ...(t.fairPrice !== undefined ? { fairPrice: t.fairPrice } : {}),
    ...(t.indexPrice !== undefined ? { indexPrice: t.indexPrice } : {}),
    ...(t.fundingRate !== undefined ? { fundingRate: t.fundingRate } : {}),
    ...(t.maxBidPrice !== undefined ? { maxBidPrice: t.maxBidPrice } : {}),
    ...(t.minAskPrice !== undefined ? { minAskPrice: t.minAskPrice } : {}),
    exchangeTime: t.timestamp,
  };
}

export function contractFunding(f: FundingRate): FundingRateInfo {
  return {
    rate: f.fundingRate,
    ...(f.maxFundingRate !== undefined ? { maxRate: f.maxFundingRate } : {}),
    ...(f.minFundingRate !== undefined ? { minRate: f.minFundingRate } : {}),
    ...(f.collectCycle !== undefined ? { collectCycleHours: f.collectCycle } : {}),
    ...(f.nextSettleTime !== undefined ? { nextSettleTime: f.nextSettleTime } : {}),
    ...(f.timestamp !== undefined ? { exchangeTime: f.timestamp } : {}),
  };
}

export const contractFairPrice = (f: FairPrice): PricePoint => ({ price: f.fairPrice, exchangeTime: f.timestamp });
export const contractIndexPrice = (i: IndexPrice): PricePoint => ({ price: i.indexPrice, exchangeTime: i.timestamp });

/** Oldest first; T 1 is a taker buy, 2 a taker sell. */
export function contractTrades(list: readonly ContractDeal[]): MarketTrade[] {
  const deals = list.map((d): MarketTrade => ({
    ...(d.i !== undefined ? { id: d.i } : {}),
    price: d.p,
    quantity: d.v,
    ...(d.T === DealSide.BUY ? { takerSide: 'buy' as const } : d.T === DealSide.SELL ? { takerSide: 'sell' as const } : {}),
    time: d.t,
  }));
  return oldestFirst(deals);
}

/** Candles keep open time in ms (the schema converted it); close time = open + the interval's length. */
export function contractKlines(list: readonly ContractKline[], interval: ContractKlineInterval): Kline[] {
  const lenMs = interval === 'Month1' ? undefined : klineIntervalSeconds(interval) * 1000;
  return list
    .map((k) => ({
      openTime: k.openTime,
      ...(lenMs !== undefined ? { closeTime: k.openTime + lenMs } : {}),
      open: k.open,
      high: k.high,
      low: k.low,
      close: k.close,
      volume: k.vol,
      ...(k.amount !== undefined ? { quoteVolume: k.amount } : {}),
    }))
    .sort((a, b) => a.openTime - b.openTime);
}
