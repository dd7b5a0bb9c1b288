/**
 * Spot market data (spot-api.md §4.1): public GET endpoints, weight per IP.
 */
import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { bool, dec, int, obj, opt, str } from '../wire.js';
import { oneOrMany, wireEnum } from './common.js';
import { checkTimePair, intervalP, issue, limitP, paramsObject, symbolListP, symbolP, timeP } from './params.js';

// ---------- requests ----------

export const noParamsRequest = paramsObject({});

export const exchangeInfoRequest = paramsObject({ symbol: symbolP.optional(), symbols: symbolListP(Infinity).optional() }, (p, ctx) => {
  if (p.symbol !== undefined && p.symbols !== undefined) issue(ctx, 'symbols', 'either symbol or symbols, not both', 'combination');
});

export const depthRequest = paramsObject({ symbol: symbolP, limit: limitP(1, 5000).optional() });
export const tradesRequest = paramsObject({ symbol: symbolP, limit: limitP(1, 1000).optional() });
export const aggTradesRequest = paramsObject(
  { symbol: symbolP, startTime: timeP.optional(), endTime: timeP.optional(), limit: limitP(1, 1000).optional() },
  checkTimePair,
);
export const klinesRequest = paramsObject(
  { symbol: symbolP, interval: intervalP, startTime: timeP.optional(), endTime: timeP.optional(), limit: limitP(1, 1000).optional() },
  checkTimePair,
);
export const avgPriceRequest = paramsObject({ symbol: symbolP });
export const optionalSymbolRequest = paramsObject({ symbol: symbolP.optional() });

// ---------- responses ----------

export const emptyObjectSchema = obj({});

export const serverTimeSchema = obj({ serverTime: int });
export type SpotServerTime = z.output<typeof serverTimeSchema>;

/** Payload (`data`) of defaultSymbols / selfSymbols: the symbols tradable through the API. */
export const symbolListSchema = z.array(z.string());

export const offlineSymbolSchema = obj({
  symbol: z.string(),
  /** 2 suspended, 3 delisted. */
  state: int.pipe(z.union([z.literal(2), z.literal(3)])),
  offlineTime: opt(int),
});
export type SpotOfflineSymbol = z.output<typeof offlineSymbolSchema>;
export const offlineSymbolsSchema = obj({ data: z.array(offlineSymbolSchema) });
export type SpotOfflineSymbols = z.output<typeof offlineSymbolsSchema>;

const PERCENT_PRICE_BY_SIDE = 'PERCENT_PRICE_BY_SIDE';

export const spotSymbolFilterSchema = obj({
  filterType: z.string(),
  bidMultiplierUp: opt(dec),
  askMultiplierDown: opt(dec),
}).superRefine((f, ctx) => {
  if (f.filterType !== PERCENT_PRICE_BY_SIDE) return;
  if (f.bidMultiplierUp === undefined) issue(ctx, 'bidMultiplierUp', 'a decimal multiplier');
  if (f.askMultiplierDown === undefined) issue(ctx, 'askMultiplierDown', 'a decimal multiplier');
});
export type SpotSymbolFilter = z.output<typeof spotSymbolFilterSchema>;

const precision = int.pipe(z.number().int().min(0).max(30));

/** One entry of exchangeInfo `symbols` (spot-api.md §2.1); real exchangeInfo sends `status` as "1". */
export const spotSymbolInfoSchema = obj({
  symbol: z.string().min(1),
  status: wireEnum(['1', '2', '3']),
  baseAsset: z.string(),
  quoteAsset: z.string(),
  baseAssetPrecision: precision,
  quotePrecision: precision,
  quoteAssetPrecision: opt(precision),
  baseCommissionPrecision: opt(precision),
  quoteCommissionPrecision: opt(precision),
  orderTypes: opt(z.array(z.string())),
  isSpotTradingAllowed: opt(bool),
  isMarginTradingAllowed: opt(bool),
  permissions: opt(z.array(z.string())),
  filters: opt(z.array(spotSymbolFilterSchema)),
  quoteAmountPrecision: opt(dec),
  baseSizePrecision: opt(dec),
  quoteAmountPrecisionMarket: opt(dec),
  maxQuoteAmount: opt(dec),
  maxQuoteAmountMarket: opt(dec),
  makerCommission: opt(dec),
  takerCommission: opt(dec),
  fullName: opt(z.string()),
  /** 1 all, 2 buy only, 3 sell only, 4 closed; arrives as a number. */
  tradeSideType: opt(int.pipe(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]))),
  contractAddress: opt(z.string()),
  conceptPlateIds: opt(z.array(int)),
  st: opt(bool),
});
export type SpotSymbolInfo = z.output<typeof spotSymbolInfoSchema>;

export const exchangeInfoSchema = obj({
  timezone: opt(z.string()),
  serverTime: opt(int),
  rateLimits: opt(z.array(z.unknown())),
  exchangeFilters: opt(z.array(z.unknown())),
  symbols: z.array(spotSymbolInfoSchema),
});
export type SpotExchangeInfo = z.output<typeof exchangeInfoSchema>;

/** `[price, qty]` (extra positions ignored) → `{price, qty}`. */
export const bookLevelSchema = z
  .tuple([dec, dec])
  .rest(z.unknown())
  .transform(([price, qty]) => ({ price, qty }));
export type SpotBookLevel = z.output<typeof bookLevelSchema>;

export const depthSchema = obj({
  lastUpdateId: int,
  /** Not in the doc; the real venue sends it. */
  timestamp: opt(int),
  bids: z.array(bookLevelSchema),
  asks: z.array(bookLevelSchema),
});
export type SpotDepth = z.output<typeof depthSchema>;

export const spotTradeSchema = obj({
  /** Real trades carry `id: null`. */
  id: opt(str),
  price: dec,
  qty: dec,
  quoteQty: opt(dec),
  time: int,
  isBuyerMaker: bool,
  isBestMatch: opt(bool),
  /** Not in the doc; the real venue sends BID (taker bought) / ASK. */
  tradeType: opt(z.enum(['BID', 'ASK'])),
});
export type SpotTrade = z.output<typeof spotTradeSchema>;
export const tradesSchema = z.array(spotTradeSchema);

export const spotAggTradeSchema = obj({
  a: opt(str),
  f: opt(str),
  l: opt(str),
  p: dec,
  q: dec,
  T: int,
  m: bool,
  M: opt(bool),
});
export type SpotAggTrade = z.output<typeof spotAggTradeSchema>;
export const aggTradesSchema = z.array(spotAggTradeSchema);

/** Kline row (8 positions; later positions ignored) → named fields. A kline is identified by openTime. */
export const spotKlineSchema = z
  .tuple([int, dec, dec, dec, dec, dec, int, dec])
  .rest(z.unknown())
  .transform(([openTime, open, high, low, close, volume, closeTime, quoteVolume]) => ({
    openTime,
    open,
    high,
    low,
    close,
    volume,
    closeTime,
    quoteVolume,
  }));
export type SpotKline = z.output<typeof spotKlineSchema>;
export const klinesSchema = z.array(spotKlineSchema);

export const avgPriceSchema = obj({ mins: int, price: dec });
export type SpotAvgPrice = z.output<typeof avgPriceSchema>;

export const spotTicker24hrSchema = obj({
  symbol: z.string(),
  priceChange: opt(dec),
  priceChangePercent: opt(dec),
  prevClosePrice: opt(dec),
  lastPrice: opt(dec),
  lastQty: opt(dec),
  bidPrice: opt(dec),
  bidQty: opt(dec),
  askPrice: opt(dec),
  askQty: opt(dec),
  openPrice: opt(dec),
  highPrice: opt(dec),
  lowPrice: opt(dec),
  volume: opt(dec),
  quoteVolume: opt(dec),
  openTime: opt(int),
  closeTime: opt(int),
  count: opt(int),
});
export type SpotTicker24hr = z.output<typeof spotTicker24hrSchema>;
export const ticker24hrSchema = oneOrMany(spotTicker24hrSchema);

export const spotPriceTickerSchema = obj({ symbol: z.string(), price: dec });
export type SpotPriceTicker = z.output<typeof spotPriceTickerSchema>;
export const tickerPriceSchema = oneOrMany(spotPriceTickerSchema);

export const spotBookTickerSchema = obj({
  symbol: z.string(),
  bidPrice: opt(dec),
  bidQty: opt(dec),
  askPrice: opt(dec),
  askQty: opt(dec),
});
export type SpotBookTicker = z.output<typeof spotBookTickerSchema>;
export const bookTickerSchema = oneOrMany(spotBookTickerSchema);

// ---------- entries ----------

const hasSymbol = (p: Record<string, unknown>): boolean => p.symbol !== undefined && p.symbol !== null && p.symbol !== '';

const PUBLIC = {
  api: 'spot',
  method: 'GET',
  section: '4.1',
  auth: 'public',
  buckets: ['ip-weight'],
  pathParams: [],
  encoding: 'query',
  envelope: 'bare',
} as const;

export const spotMarketEndpoints = {
  ping: endpoint({
    ...PUBLIC,
    id: 'spot.ping',
    clientMethod: 'ping',
    path: '/api/v3/ping',
    summary: 'Connectivity test.',
    weight: 1,
    request: noParamsRequest,
    response: emptyObjectSchema,
    example: {},
  }),
  serverTime: endpoint({
    ...PUBLIC,
    id: 'spot.serverTime',
    clientMethod: 'serverTime',
    path: '/api/v3/time',
    summary: 'Server time in ms.',
    weight: 1,
    request: noParamsRequest,
    response: serverTimeSchema,
    example: {},
  }),
  defaultSymbols: endpoint({
    ...PUBLIC,
    id: 'spot.defaultSymbols',
    clientMethod: 'defaultSymbols',
    path: '/api/v3/defaultSymbols',
    summary: 'Symbols that can be traded through the API (others fail with 10007).',
    weight: 1,
    envelope: 'spot-wrapped',
    request: noParamsRequest,
    response: symbolListSchema,
    example: {},
    notes: 'The doc allows msg null next to code 0 (the real venue sends "success"); the envelope check must not require msg.',
  }),
  offlineSymbols: endpoint({
    ...PUBLIC,
    id: 'spot.offlineSymbols',
    clientMethod: 'offlineSymbols',
    path: '/api/v3/symbol/offline',
    summary: 'Suspended and delisted symbols.',
    weight: 10,
    request: noParamsRequest,
    response: offlineSymbolsSchema,
    example: {},
    notes:
      'The doc shows only {data: [...]} and wire-protocol.md does not list it as (E): parsed as a bare object whose data holds the list; code/msg/timestamp, if sent, are kept as extra fields.',
  }),
  exchangeInfo: endpoint({
    ...PUBLIC,
    id: 'spot.exchangeInfo',
    clientMethod: 'exchangeInfo',
    path: '/api/v3/exchangeInfo',
    summary: 'Trading rules of one, several or all symbols.',
    weight: 10,
    request: exchangeInfoRequest,
    response: exchangeInfoSchema,
    example: { symbol: 'BTCUSDT' },
    notes: 'symbol and symbols together are refused (the doc says "symbol or symbols; or none").',
  }),
  depth: endpoint({
    ...PUBLIC,
    id: 'spot.depth',
    clientMethod: 'depth',
    path: '/api/v3/depth',
    summary: 'Order book.',
    weight: 1,
    request: depthRequest,
    response: depthSchema,
    example: { symbol: 'BTCUSDT', limit: 100 },
    notes: 'Weight 1: the doc also says it is adjusted by limit but shows no table.',
  }),
  trades: endpoint({
    ...PUBLIC,
    id: 'spot.trades',
    clientMethod: 'trades',
    path: '/api/v3/trades',
    summary: 'Recent trades.',
    weight: 5,
    request: tradesRequest,
    response: tradesSchema,
    example: { symbol: 'BTCUSDT', limit: 500 },
  }),
  historicalTrades: endpoint({
    ...PUBLIC,
    id: 'spot.historicalTrades',
    clientMethod: 'historicalTrades',
    path: '/api/v3/historicalTrades',
    summary: 'Older trades (the same list as /api/v3/trades on this venue).',
    weight: 1,
    request: tradesRequest,
    response: tradesSchema,
    example: { symbol: 'BTCUSDT', limit: 500 },
    beyondDocuments:
      'the exchange\'s spot v3 reference ("Old Trade Lookup": symbol, limit 1..1000, default 500), the official spot SDK ' +
      "(mexc-api-sdk historicalTrades) and ccxt's mexc.ts (fetchTrades with method spotPublicGetHistoricalTrades)",
    notes: 'Answered from the same tape and in the same shape as /api/v3/trades, newest first; limit above 1000 is served as 1000.',
  }),
  aggTrades: endpoint({
    ...PUBLIC,
    id: 'spot.aggTrades',
    clientMethod: 'aggTrades',
    path: '/api/v3/aggTrades',
    summary: 'Aggregate trades.',
    weight: 1,
    request: aggTradesRequest,
    response: aggTradesSchema,
    example: { symbol: 'BTCUSDT', startTime: 1767204283384, endTime: 1767204403384 },
    notes: 'startTime > endTime is refused as well (the doc only requires both or neither).',
  }),
  klines: endpoint({
    ...PUBLIC,
    id: 'spot.klines',
    clientMethod: 'klines',
    path: '/api/v3/klines',
    summary: 'Candles.',
    weight: 1,
    request: klinesRequest,
    response: klinesSchema,
    example: { symbol: 'BTCUSDT', interval: '5m', startTime: 1767204000000, endTime: 1767204600000, limit: 1000 },
  }),
  avgPrice: endpoint({
    ...PUBLIC,
    id: 'spot.avgPrice',
    clientMethod: 'avgPrice',
    path: '/api/v3/avgPrice',
    summary: 'Current average price.',
    weight: 1,
    request: avgPriceRequest,
    response: avgPriceSchema,
    example: { symbol: 'BTCUSDT' },
  }),
  ticker24hr: endpoint({
    ...PUBLIC,
    id: 'spot.ticker24hr',
    clientMethod: 'ticker24hr',
    path: '/api/v3/ticker/24hr',
    summary: '24 h statistics of one symbol, or of all.',
    weight: (p) => (hasSymbol(p) ? 1 : 40),
    request: optionalSymbolRequest,
    response: ticker24hrSchema,
    example: { symbol: 'BTCUSDT' },
    notes: 'The response is always parsed into an array (one element when symbol is given).',
  }),
  tickerPrice: endpoint({
    ...PUBLIC,
    id: 'spot.tickerPrice',
    clientMethod: 'tickerPrice',
    path: '/api/v3/ticker/price',
    summary: 'Last price of one symbol, or of all.',
    weight: (p) => (hasSymbol(p) ? 1 : 2),
    request: optionalSymbolRequest,
    response: tickerPriceSchema,
    example: { symbol: 'BTCUSDT' },
    notes: 'The response is always parsed into an array (one element when symbol is given).',
  }),
  bookTicker: endpoint({
    ...PUBLIC,
    id: 'spot.bookTicker',
    clientMethod: 'bookTicker',
    path: '/api/v3/ticker/bookTicker',
    summary: 'Best bid and ask of one symbol, or of all.',
    weight: (p) => (hasSymbol(p) ? 1 : 2),
    request: optionalSymbolRequest,
    response: bookTickerSchema,
    example: { symbol: 'BTCUSDT' },
    notes: 'The response is always parsed into an array (one element when symbol is given).',
  }),
};
