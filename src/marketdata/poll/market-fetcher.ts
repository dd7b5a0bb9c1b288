/**
 * What the pollers need from a venue, one method per public market record, already in domain form.
 * The live implementations (mexc-market-fetcher.ts) call SpotClient / ContractClient; tests and
 * benches implement these directly, so the poller logic is exercised without HTTP.
 */
import type { SpotKlineInterval } from '../../domain/spot-enums.js';
import type { ContractKlineInterval } from '../../domain/contract-enums.js';
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
import type { AveragePrice } from './snapshot-records.js';

export interface SpotMarketFetcher {
  depth(symbol: string, limit: number): Promise<OrderBookSnapshot>;
  bookTicker(symbol: string): Promise<BookTicker | undefined>;
  trades(symbol: string, limit: number): Promise<readonly MarketTrade[]>;
  klines(symbol: string, interval: SpotKlineInterval, limit: number): Promise<readonly Kline[]>;
  ticker24h(symbol: string): Promise<Ticker24h | undefined>;
  avgPrice(symbol: string): Promise<AveragePrice>;
}

export interface ContractMarketFetcher {
  depth(symbol: string, limit: number): Promise<OrderBookSnapshot>;
  ticker(symbol: string): Promise<ContractTicker | undefined>;
  fundingRate(symbol: string): Promise<FundingRateInfo>;
  fairPrice(symbol: string): Promise<PricePoint>;
  indexPrice(symbol: string): Promise<PricePoint>;
  deals(symbol: string, limit: number): Promise<readonly MarketTrade[]>;
  /** The most recent `limit` candles (the venue takes a time range; the fetcher derives it). */
  klines(symbol: string, interval: ContractKlineInterval, limit: number): Promise<readonly Kline[]>;
}
