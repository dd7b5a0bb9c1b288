/**
 * Hand-written stub fetchers for the poller tests: every call is counted, answers are built from the
 * call number so a test can tell which cycle a record came from, and a test can make a method fail or
 * hang until released.
 */
import { D } from '../../../../src/core/decimal.js';
import type { ContractMarketFetcher, SpotMarketFetcher } from '../../../../src/marketdata/poll/market-fetcher.js';
import type { AveragePrice } from '../../../../src/marketdata/poll/snapshot-records.js';
import type {
  BookTicker,
  ContractTicker,
  FundingRateInfo,
  Kline,
  MarketTrade,
  OrderBookSnapshot,
  PricePoint,
  Ticker24h,
} from '../../../../src/domain/snapshot.js';

export type Behaviour = 'ok' | 'fail' | 'hang';

/** A promise a test resolves later (a fetch that takes time on the virtual clock). */
export interface Gate {
  readonly promise: Promise<void>;
  open(): void;
}
export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

class Counter {
  readonly calls = new Map<string, number>();
  /** Per method: behaviours by call number (1-based); missing → ok. */
  readonly script = new Map<string, Behaviour[]>();
  /** Per method: a gate every call waits for. */
  readonly gates = new Map<string, Gate>();
  /** Venue time stamped on book / tickers: set by the test. */
  venueTime = 1_000;

  count(method: string): number {
    return this.calls.get(method) ?? 0;
  }

  async call<T>(method: string, make: (n: number) => T): Promise<T> {
    const n = this.count(method) + 1;
    this.calls.set(method, n);
    const b = this.script.get(method)?.[n - 1] ?? 'ok';
    const g = this.gates.get(method);
    if (g) await g.promise;
    if (b === 'fail') throw new Error(`${method} call ${n} failed (scripted)`);
    if (b === 'hang') await new Promise<never>(() => undefined);
    return make(n);
  }
}

const book = (n: number, time: number): OrderBookSnapshot => ({
  bids: [{ price: D(100 + n), quantity: D(1) }],
  asks: [{ price: D(101 + n), quantity: D(2) }],
  sequence: String(n),
  exchangeTime: time,
});

export class StubSpotFetcher extends Counter implements SpotMarketFetcher {
  depth(_symbol: string, _limit: number): Promise<OrderBookSnapshot> {
    return this.call('depth', (n) => book(n, this.venueTime));
  }
  bookTicker(): Promise<BookTicker | undefined> {
    return this.call('bookTicker', (n) => ({ bidPrice: D(100 + n), bidQty: D(1), askPrice: D(101 + n), askQty: D(1) }));
  }
  trades(): Promise<readonly MarketTrade[]> {
    return this.call('trades', (n) => [{ id: `t${n}`, price: D(100 + n), quantity: D('0.5'), takerSide: 'buy', time: this.venueTime - 5 }]);
  }
  klines(_symbol: string, interval: string): Promise<readonly Kline[]> {
    return this.call(`klines:${interval}`, (n) => [{ openTime: n * 60_000, open: D(1), high: D(2), low: D(1), close: D(2), volume: D(n) }]);
  }
  ticker24h(): Promise<Ticker24h | undefined> {
    return this.call('ticker24h', (n) => ({ lastPrice: D(100 + n), exchangeTime: this.venueTime - 10 }));
  }
  avgPrice(): Promise<AveragePrice> {
    return this.call('avgPrice', (n) => ({ price: D(100 + n), windowMinutes: 5 }));
  }
}

export class StubContractFetcher extends Counter implements ContractMarketFetcher {
  depth(): Promise<OrderBookSnapshot> {
    return this.call('depth', (n) => book(n, this.venueTime));
  }
  ticker(): Promise<ContractTicker | undefined> {
    return this.call('ticker', (n) => ({
      lastPrice: D(100 + n),
      bid1: D(99 + n),
      ask1: D(101 + n),
      fairPrice: D(100),
      exchangeTime: this.venueTime + 7,
    }));
  }
  fundingRate(): Promise<FundingRateInfo> {
    return this.call('fundingRate', () => ({ rate: D('0.0001'), exchangeTime: this.venueTime }));
  }
  fairPrice(): Promise<PricePoint> {
    return this.call('fairPrice', (n) => ({ price: D(100 + n), exchangeTime: this.venueTime }));
  }
  indexPrice(): Promise<PricePoint> {
    return this.call('indexPrice', (n) => ({ price: D(99 + n), exchangeTime: this.venueTime + 3 }));
  }
  deals(): Promise<readonly MarketTrade[]> {
    return this.call('deals', (n) => [{ price: D(100 + n), quantity: D(3), takerSide: 'sell', time: this.venueTime }]);
  }
  klines(_symbol: string, interval: string): Promise<readonly Kline[]> {
    return this.call(`klines:${interval}`, (n) => [{ openTime: n * 60_000, open: D(1), high: D(2), low: D(1), close: D(2), volume: D(n) }]);
  }
}

/** Lets every pending promise chain settle (the stubs resolve in microtasks). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
