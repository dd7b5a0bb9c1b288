/**
 * Spot market data from the engine: depth from the order book, everything else from the symbol's tape.
 * Shapes follow the captures: depth prices and quantities padded to the symbol's precisions plus a
 * `timestamp`; trades newest first with `id: null`, `isBestMatch: true` and `tradeType` BID/ASK;
 * aggregate trades with null ids; 24h ticker with `count: null`.
 */
import type { Decimal } from '../../core/decimal.js';
import type { SpotInstrument } from '../../domain/instrument.js';
import type { SpotKlineInterval } from '../../domain/spot-enums.js';
import { fromSpotInterval } from '../../domain/kline-interval.js';
import type { SpotEngine } from '../engine/spot-engine.js';
import { spotInstrumentOf, type EmulatorContext } from '../emulator-context.js';
import type { ApiCall, EndpointHandler } from './handler.js';

const plain = (d: Decimal | undefined): string | null => (d === undefined ? null : d.toFixed());

interface SymbolParams {
  symbol: string;
  limit?: string;
}

export function spotMarketHandlers(ctx: EmulatorContext, engine: SpotEngine): Record<string, EndpointHandler> {
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  const lastPrice = (i: SpotInstrument): Decimal | undefined => {
    const tape = engine.tape(i.symbol);
    const t = tape?.lastPriceTicks();
    return t !== undefined ? tape!.price(t) : engine.reader.lastPrice(i.symbol);
  };
  const bookTicker = (i: SpotInstrument) => {
    const book = engine.reader.book(i.symbol);
    const bid = book?.bestBid();
    const ask = book?.bestAsk();
    return {
      symbol: i.symbol,
      bidPrice: bid === undefined ? null : i.tick.mul(bid).toFixed(i.quotePrecision),
      bidQty: bid === undefined ? null : i.step.mul(book!.bestBidLots()).toFixed(i.baseAssetPrecision),
      askPrice: ask === undefined ? null : i.tick.mul(ask).toFixed(i.quotePrecision),
      askQty: ask === undefined ? null : i.step.mul(book!.bestAskLots()).toFixed(i.baseAssetPrecision),
    };
  };
  const ticker24 = (i: SpotInstrument, now: number) => {
    const t = engine.tape(i.symbol)!.ticker24h(now);
    const b = bookTicker(i);
    const last = t.last ?? lastPrice(i);
    return {
      symbol: i.symbol,
      priceChange: plain(t.priceChange) ?? '0',
      priceChangePercent: plain(t.priceChangePercent) ?? '0',
      prevClosePrice: plain(t.prevClose ?? last),
      lastPrice: plain(last),
      lastQty: plain(t.lastQty),
      bidPrice: b.bidPrice,
      bidQty: b.bidQty,
      askPrice: b.askPrice,
      askQty: b.askQty,
      openPrice: plain(t.open ?? last),
      highPrice: plain(t.high ?? last),
      lowPrice: plain(t.low ?? last),
      volume: t.volume.toFixed(),
      quoteVolume: t.quoteVolume.toFixed(),
      openTime: t.openTime,
      closeTime: t.closeTime,
      count: null,
    };
  };
  const each = <T>(symbol: string | undefined, f: (i: SpotInstrument) => T): T | T[] =>
    symbol === undefined ? [...ctx.spotInstruments.values()].map(f) : f(spotInstrumentOf(ctx, symbol));

  /** /api/v3/trades and /api/v3/historicalTrades: the tape, newest first. */
  const recentTrades = (c: ApiCall<SymbolParams>) => {
    const i = spotInstrumentOf(ctx, c.params.symbol);
    return engine
      .tape(i.symbol)!
      .recentTrades(num(c.params.limit) ?? 500)
      .map((t) => ({
        id: null,
        price: t.price.toFixed(),
        qty: t.qty.toFixed(),
        quoteQty: t.quoteQty.toFixed(),
        time: t.time,
        isBuyerMaker: t.buyerMaker,
        isBestMatch: true,
        tradeType: t.takerSide === 'buy' ? 'BID' : 'ASK',
      }));
  };

  return {
    'spot.depth': (c: ApiCall<SymbolParams>) => {
      const i = spotInstrumentOf(ctx, c.params.symbol);
      const d = engine.reader.depth(i.symbol, num(c.params.limit) ?? 100) ?? { bids: [], asks: [] };
      const fmt = ([p, q]: [Decimal, Decimal]) => [p.toFixed(i.quotePrecision), q.toFixed(i.baseAssetPrecision)];
      return { lastUpdateId: engine.version(i.symbol), bids: d.bids.map(fmt), asks: d.asks.map(fmt), timestamp: c.now };
    },
    'spot.trades': recentTrades,
    // Beyond both documents: real clients (ccxt, the official SDK) call it; served from the same tape.
    'spot.historicalTrades': recentTrades,
    'spot.aggTrades': (c: ApiCall<SymbolParams & { startTime?: string; endTime?: string }>) => {
      const i = spotInstrumentOf(ctx, c.params.symbol);
      const q: { startTime?: number; endTime?: number; limit?: number } = {};
      if (c.params.startTime !== undefined) q.startTime = Number(c.params.startTime);
      if (c.params.endTime !== undefined) q.endTime = Number(c.params.endTime);
      if (c.params.limit !== undefined) q.limit = Number(c.params.limit);
      return engine
        .tape(i.symbol)!
        .aggTrades(q)
        .map((a) => ({ a: null, f: null, l: null, p: a.price.toFixed(), q: a.qty.toFixed(), T: a.time, m: a.buyerMaker, M: true }));
    },
    'spot.klines': (c: ApiCall<SymbolParams & { interval: SpotKlineInterval; startTime?: string; endTime?: string }>) => {
      const i = spotInstrumentOf(ctx, c.params.symbol);
      const q: { startTime?: number; endTime?: number; limit?: number } = {};
      if (c.params.startTime !== undefined) q.startTime = Number(c.params.startTime);
      if (c.params.endTime !== undefined) q.endTime = Number(c.params.endTime);
      if (c.params.limit !== undefined) q.limit = Number(c.params.limit);
      return engine
        .tape(i.symbol)!
        .klineViews(fromSpotInterval(c.params.interval), q, c.now)
        .map((k) => [
          k.openTime,
          k.open.toFixed(),
          k.high.toFixed(),
          k.low.toFixed(),
          k.close.toFixed(),
          k.volume.toFixed(),
          k.closeTime,
          k.quoteVolume.toFixed(),
        ]);
    },
    'spot.avgPrice': (c: ApiCall<SymbolParams>) => {
      const i = spotInstrumentOf(ctx, c.params.symbol);
      const avg = engine.tape(i.symbol)!.avgPrice(c.now);
      const price = avg?.price ?? lastPrice(i);
      return { mins: avg?.mins ?? 5, price: price === undefined ? '0' : price.toFixed() };
    },
    'spot.ticker24hr': (c: ApiCall<{ symbol?: string }>) => each(c.params.symbol, (i) => ticker24(i, c.now)),
    'spot.tickerPrice': (c: ApiCall<{ symbol?: string }>) =>
      each(c.params.symbol, (i) => ({ symbol: i.symbol, price: plain(lastPrice(i)) ?? '0' })),
    'spot.bookTicker': (c: ApiCall<{ symbol?: string }>) => each(c.params.symbol, bookTicker),
  };
}
