/**
 * The live fetchers: SpotClient / ContractClient calls turned into snapshot records.
 *
 * Each call is made with the client's GET retries switched off (`maxRetries: 0` by default): the
 * poller owns the retry policy (exponential backoff per instrument, the stream kept alive), and a
 * client-side retry ladder underneath it would only delay the next fresh snapshot. Rate limiting
 * stays in the client (its limiter waits instead of sending into a 429).
 */
import type { Clock } from '../../core/clock.js';
import type { CallOptions } from '../../client/catalogue-client.js';
import type { SpotClient } from '../../client/spot-client.js';
import type { ContractClient } from '../../client/contract-client.js';
import { klineIntervalSeconds, KLINE_MAX_POINTS } from '../../api/contract/params.js';
import type { SpotKlineInterval } from '../../domain/spot-enums.js';
import type { ContractKlineInterval } from '../../domain/contract-enums.js';
import type { ContractMarketFetcher, SpotMarketFetcher } from './market-fetcher.js';
import {
  contractBook,
  contractFairPrice,
  contractFunding,
  contractIndexPrice,
  contractKlines,
  contractTicker,
  contractTrades,
  spotAveragePrice,
  spotBook,
  spotBookTicker,
  spotKlines,
  spotTicker24h,
  spotTrades,
} from './snapshot-records.js';

export interface FetcherCallOptions {
  /** Per-request deadline on the client's clock; the transport default when absent. */
  readonly timeoutMs?: number;
  /** Client-level GET retries under the poller's own backoff. Default 0. */
  readonly maxRetries?: number;
}

const callOptions = (o: FetcherCallOptions): CallOptions => ({
  maxRetries: o.maxRetries ?? 0,
  ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
});

/** The SpotClient methods the fetcher calls (tests pass a stub with the same shape). */
export type SpotMarketClient = Pick<SpotClient, 'depth' | 'bookTicker' | 'trades' | 'klines' | 'ticker24hr' | 'avgPrice'>;
export type ContractMarketClient = Pick<
  ContractClient,
  'depth' | 'ticker' | 'fundingRate' | 'fairPrice' | 'indexPrice' | 'deals' | 'kline'
>;

export class MexcSpotMarketFetcher implements SpotMarketFetcher {
  private readonly opts: CallOptions;

  constructor(
    private readonly client: SpotMarketClient,
    options: FetcherCallOptions = {},
  ) {
    this.opts = callOptions(options);
  }

  async depth(symbol: string, limit: number) {
    return spotBook(await this.client.depth({ symbol, limit }, this.opts));
  }
  async bookTicker(symbol: string) {
    return spotBookTicker(await this.client.bookTicker({ symbol }, this.opts), symbol);
  }
  async trades(symbol: string, limit: number) {
    return spotTrades(await this.client.trades({ symbol, limit }, this.opts));
  }
  async klines(symbol: string, interval: SpotKlineInterval, limit: number) {
    return spotKlines(await this.client.klines({ symbol, interval, limit }, this.opts));
  }
  async ticker24h(symbol: string) {
    return spotTicker24h(await this.client.ticker24hr({ symbol }, this.opts), symbol);
  }
  async avgPrice(symbol: string) {
    return spotAveragePrice(await this.client.avgPrice({ symbol }, this.opts));
  }
}

export class MexcContractMarketFetcher implements ContractMarketFetcher {
  private readonly opts: CallOptions;

  constructor(
    private readonly client: ContractMarketClient,
    /** Only to derive the kline range (the contract kline endpoint takes start/end, not a count). */
    private readonly clock: Pick<Clock, 'now'>,
    options: FetcherCallOptions = {},
  ) {
    this.opts = callOptions(options);
  }

  async depth(symbol: string, limit: number) {
    return contractBook(await this.client.depth({ symbol, limit }, this.opts));
  }
  async ticker(symbol: string) {
    return contractTicker(await this.client.ticker({ symbol }, this.opts), symbol);
  }
  async fundingRate(symbol: string) {
    return contractFunding(await this.client.fundingRate({ symbol }, this.opts));
  }
  async fairPrice(symbol: string) {
    return contractFairPrice(await this.client.fairPrice({ symbol }, this.opts));
  }
  async indexPrice(symbol: string) {
    return contractIndexPrice(await this.client.indexPrice({ symbol }, this.opts));
  }
  async deals(symbol: string, limit: number) {
    return contractTrades(await this.client.deals({ symbol, limit }, this.opts));
  }
  async klines(symbol: string, interval: ContractKlineInterval, limit: number) {
    const len = klineIntervalSeconds(interval);
    const n = Math.min(Math.max(1, limit), KLINE_MAX_POINTS);
    // start = the open of the candle n−1 intervals before the current one: n candles up to now.
    const nowSec = Math.floor(this.clock.now() / 1000);
    const start = Math.max(0, (Math.floor(nowSec / len) - (n - 1)) * len);
    const rows = contractKlines(await this.client.kline({ symbol, interval, start }, this.opts), interval);
    return rows.length > n ? rows.slice(rows.length - n) : rows;
  }
}
