/**
 * Everything one poll learned about one instrument. Each record is optional (only the streams the
 * config asks for are polled), and each keeps the venue's own time apart from our poll time: a
 * strategy judging staleness needs both.
 */
import type { Decimal } from '../core/decimal.js';
import type { InstrumentSymbol } from '../core/ids.js';
import type { InstrumentKind, OrderSide } from './order.js';

export interface BookLevel {
  readonly price: Decimal;
  /** Base quantity (spot) or contracts (contract). */
  readonly quantity: Decimal;
  /** Number of orders at the level, when the venue says (contract depth). */
  readonly orders?: number;
}

export interface OrderBookSnapshot {
  /** Best first (highest bid). */
  readonly bids: readonly BookLevel[];
  /** Best first (lowest ask). */
  readonly asks: readonly BookLevel[];
  /** Spot lastUpdateId / contract version. */
  readonly sequence?: string;
  readonly exchangeTime?: number;
}

export interface BookTicker {
  readonly bidPrice: Decimal;
  readonly bidQty: Decimal;
  readonly askPrice: Decimal;
  readonly askQty: Decimal;
  readonly exchangeTime?: number;
}

export interface MarketTrade {
  readonly id?: string;
  readonly price: Decimal;
  readonly quantity: Decimal;
  /** Taker side, when known. */
  readonly takerSide?: OrderSide;
  readonly time: number;
}

export interface Kline {
  readonly openTime: number;
  readonly closeTime?: number;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly close: Decimal;
  readonly volume: Decimal;
  readonly quoteVolume?: Decimal;
}

export interface Ticker24h {
  readonly lastPrice: Decimal;
  readonly openPrice?: Decimal;
  readonly highPrice?: Decimal;
  readonly lowPrice?: Decimal;
  readonly volume?: Decimal;
  readonly quoteVolume?: Decimal;
  readonly priceChangePercent?: Decimal;
  readonly bidPrice?: Decimal;
  readonly askPrice?: Decimal;
  readonly exchangeTime?: number;
}

export interface FundingRateInfo {
  readonly rate: Decimal;
  readonly maxRate?: Decimal;
  readonly minRate?: Decimal;
  readonly collectCycleHours?: number;
  readonly nextSettleTime?: number;
  readonly exchangeTime?: number;
}

export interface PricePoint {
  readonly price: Decimal;
  readonly exchangeTime?: number;
}

export interface ContractTicker {
  readonly lastPrice: Decimal;
  readonly bid1?: Decimal;
  readonly ask1?: Decimal;
  readonly volume24?: Decimal;
  readonly amount24?: Decimal;
  readonly holdVol?: Decimal;
  readonly fairPrice?: Decimal;
  readonly indexPrice?: Decimal;
  readonly fundingRate?: Decimal;
  readonly maxBidPrice?: Decimal;
  readonly minAskPrice?: Decimal;
  readonly exchangeTime?: number;
}

export interface MarketSnapshot {
  readonly symbol: InstrumentSymbol;
  readonly kind: InstrumentKind;
  /** Our clock when the poll that produced this snapshot completed. */
  readonly pollTime: number;
  /** The newest venue timestamp among the records, when any carried one. */
  readonly exchangeTime?: number;
  /** Poll sequence number per instrument (monotonic), for ordering and replay. */
  readonly seq?: number;
  readonly book?: OrderBookSnapshot;
  readonly bookTicker?: BookTicker;
  /** Recent public trades, oldest first. */
  readonly trades?: readonly MarketTrade[];
  /** Keyed by the venue's interval name (`1m`, `Min1`), oldest first. */
  readonly klines?: Readonly<Record<string, readonly Kline[]>>;
  readonly ticker24h?: Ticker24h;
  readonly fundingRate?: FundingRateInfo;
  readonly fairPrice?: PricePoint;
  readonly indexPrice?: PricePoint;
  readonly contractTicker?: ContractTicker;
}

export function bestBid(s: MarketSnapshot | undefined): Decimal | undefined {
  return s?.book?.bids[0]?.price ?? s?.bookTicker?.bidPrice ?? s?.contractTicker?.bid1 ?? s?.ticker24h?.bidPrice;
}

export function bestAsk(s: MarketSnapshot | undefined): Decimal | undefined {
  return s?.book?.asks[0]?.price ?? s?.bookTicker?.askPrice ?? s?.contractTicker?.ask1 ?? s?.ticker24h?.askPrice;
}

export function midPrice(s: MarketSnapshot | undefined): Decimal | undefined {
  const b = bestBid(s);
  const a = bestAsk(s);
  return b && a ? b.plus(a).div(2) : undefined;
}

/** Last traded price: the ticker's, else the newest public trade's. */
export function lastPrice(s: MarketSnapshot | undefined): Decimal | undefined {
  if (!s) return undefined;
  const trades = s.trades;
  return s.ticker24h?.lastPrice ?? s.contractTicker?.lastPrice ?? (trades && trades.length ? trades[trades.length - 1]!.price : undefined);
}

/** Contract fair (mark) price: the fair-price record, else the ticker's. */
export function fairPrice(s: MarketSnapshot | undefined): Decimal | undefined {
  return s?.fairPrice?.price ?? s?.contractTicker?.fairPrice;
}

/** Price used to value a position: fair price for contracts, else mid, else last. */
export function markPrice(s: MarketSnapshot | undefined): Decimal | undefined {
  if (!s) return undefined;
  return (s.kind === 'contract' ? fairPrice(s) : undefined) ?? midPrice(s) ?? lastPrice(s);
}

/** Age of the snapshot on our clock. */
export const snapshotAge = (s: MarketSnapshot, now: number): number => now - s.pollTime;
