/**
 * Public contract market data: detail and ticker (an ARRAY when no symbol is given, as the real venue
 * answers), depth, depth snapshots, index / fair price and their candles, funding rate and history,
 * candles, deals, insurance fund. Trades and candles come from the contract tape; index, fair and
 * funding from the market model's price board, falling back to the venue's own values.
 */
import { Decimal } from '../../core/decimal.js';
import type { ContractKlineInterval } from '../../domain/contract-enums.js';
import type { ContractInstrument } from '../../domain/instrument.js';
import { fromContractInterval } from '../../domain/kline-interval.js';
import type { ContractEngine } from '../engine/contract-engine.js';
import type { ContractPriceBoard } from '../../venue/market/contract-price-board.js';
import { contractInstrumentOf, type EmulatorContext } from '../emulator-context.js';
import type { ApiCall, EndpointHandler } from './handler.js';
import { detailWire, n } from './contract-wire.js';

const DAY_MS = 86_400_000;

interface CandleParams {
  symbol: string;
  interval?: ContractKlineInterval;
  start?: number;
  end?: number;
}

/** The price boards of the running market model (engine/market-epochs.ts). */
export interface ContractPriceSource {
  contractPrices(symbol: string): ContractPriceBoard | undefined;
}

export function contractMarketHandlers(
  ctx: EmulatorContext,
  engine: ContractEngine,
  market: ContractPriceSource,
): Record<string, EndpointHandler> {
  // The listing time: the venue's first start, the same after every restart.
  const createTime = ctx.startedAt;
  const idOf = (i: ContractInstrument): number => ctx.contractIds.get(i.symbol) ?? 0;
  const fair = (s: string): Decimal | undefined => market.contractPrices(s)?.fair()?.price ?? engine.reader.fairPrice(s);
  const index = (s: string): Decimal | undefined => market.contractPrices(s)?.index()?.price ?? engine.reader.indexPrice(s);
  const last = (s: string): Decimal | undefined => engine.reader.lastPrice(s) ?? fair(s);
  const fundingView = (i: ContractInstrument, now: number) => {
    const b = market.contractPrices(i.symbol)?.funding();
    if (b) {
      return {
        symbol: i.symbol,
        fundingRate: n(b.rate),
        maxFundingRate: n(b.maxRate),
        minFundingRate: n(b.minRate),
        collectCycle: b.collectCycleHours,
        nextSettleTime: b.nextSettleTime,
        timestamp: now,
      };
    }
    const v = engine.reader.fundingRate(i.symbol);
    return {
      symbol: i.symbol,
      fundingRate: n(v.fundingRate),
      maxFundingRate: n(v.maxFundingRate),
      minFundingRate: n(v.minFundingRate),
      collectCycle: v.collectCycle,
      nextSettleTime: v.nextSettleTime,
      timestamp: now,
    };
  };
  /**
   * riseFallRates.r7 … r365: the last price against the price `days` days ago, taken from the tape's
   * daily bars as the close of the UTC day that held the instant now − days (an empty day carries the
   * close before it). A tape younger than that is measured from its first print (the change since
   * listing); a tape without prints gives 0. Rounded to 4 decimals like the real ticker's rates.
   */
  const riseFallOver = (i: ContractInstrument, lp: Decimal | undefined, now: number, days: number): number => {
    const tape = engine.tape(i.symbol)!;
    if (lp === undefined) return 0;
    const then = tape.klineBars('1d', { endTime: now - days * DAY_MS + 1, limit: 1 }, now)[0];
    const ref = then ? then.close : tape.klineBars('1d', { startTime: 0, limit: 1 }, now)[0]?.open;
    if (ref === undefined || !Number.isFinite(ref) || ref <= 0) return 0;
    const refPrice = tape.price(ref);
    return lp.minus(refPrice).div(refPrice).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toNumber();
  };
  const ticker = (i: ContractInstrument, now: number) => {
    const t = engine.tape(i.symbol)!.ticker24h(now);
    const lp = t.last ?? last(i.symbol);
    const f = fair(i.symbol);
    const rate = t.priceChangePercent?.toNumber() ?? 0;
    const change = t.priceChange?.toNumber() ?? 0;
    return {
      contractId: idOf(i),
      symbol: i.symbol,
      lastPrice: n(lp),
      bid1: n(engine.reader.bestBid(i.symbol)),
      ask1: n(engine.reader.bestAsk(i.symbol)),
      volume24: n(t.volume),
      amount24: n(t.quoteVolume),
      holdVol: n(engine.reader.openInterest(i.symbol)),
      lower24Price: n(t.low ?? lp),
      high24Price: n(t.high ?? lp),
      riseFallRate: rate,
      riseFallValue: change,
      indexPrice: n(index(i.symbol)),
      fairPrice: n(f),
      fundingRate: fundingView(i, now).fundingRate,
      maxBidPrice: f ? n(f.mul(new Decimal(1).plus(i.bidLimitPriceRate)).toDecimalPlaces(i.priceScale, Decimal.ROUND_DOWN)) : 0,
      minAskPrice: f ? n(f.mul(new Decimal(1).minus(i.askLimitPriceRate)).toDecimalPlaces(i.priceScale, Decimal.ROUND_UP)) : 0,
      timestamp: now,
      riseFallRates: {
        zone: 'UTC+8',
        r: rate,
        v: change,
        r7: riseFallOver(i, lp, now, 7),
        r30: riseFallOver(i, lp, now, 30),
        r90: riseFallOver(i, lp, now, 90),
        r180: riseFallOver(i, lp, now, 180),
        r365: riseFallOver(i, lp, now, 365),
      },
      riseFallRatesOfTimezone: [rate, rate, rate],
    };
  };
  const depthRows = (rows: readonly (readonly [Decimal, Decimal, number])[]) => rows.map(([p, v, c]) => [n(p), n(v), c]);

  return {
    'contract.ping': (c: ApiCall) => c.now,
    'contract.contractDetail': (c: ApiCall<{ symbol?: string }>) =>
      c.params.symbol === undefined
        ? [...ctx.contractInstruments.values()].map((i) => detailWire(i, idOf(i), createTime))
        : detailWire(contractInstrumentOf(ctx, c.params.symbol), idOf(contractInstrumentOf(ctx, c.params.symbol)), createTime),
    'contract.supportCurrencies': () => [...new Set([...ctx.contractInstruments.values()].map((i) => i.settleCoin))],
    'contract.depth': (c: ApiCall<{ symbol: string; limit?: number }>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      const d = engine.reader.depth(i.symbol, c.params.limit ?? 100);
      return { asks: depthRows(d.asks), bids: depthRows(d.bids), version: d.version, timestamp: d.timestamp };
    },
    'contract.depthCommits': (c: ApiCall<{ symbol: string; limit: number }>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      const d = engine.reader.depth(i.symbol, c.params.limit);
      return [{ asks: depthRows(d.asks), bids: depthRows(d.bids), version: d.version }];
    },
    'contract.indexPrice': (c: ApiCall<{ symbol: string }>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      return { symbol: i.symbol, indexPrice: n(index(i.symbol)), timestamp: c.now };
    },
    'contract.fairPrice': (c: ApiCall<{ symbol: string }>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      return { symbol: i.symbol, fairPrice: n(fair(i.symbol)), timestamp: c.now };
    },
    'contract.fundingRate': (c: ApiCall<{ symbol: string }>) => fundingView(contractInstrumentOf(ctx, c.params.symbol), c.now),
    'contract.kline': (c: ApiCall<CandleParams>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      return engine.tape(i.symbol)!.contractCandles(fromContractInterval(c.params.interval ?? 'Min1'), range(c.params), c.now);
    },
    'contract.indexPriceKline': (c: ApiCall<CandleParams>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      const b = market.contractPrices(i.symbol);
      return b ? b.indexCandles.contractCandles(fromContractInterval(c.params.interval ?? 'Min1'), range(c.params), c.now) : emptyCandles();
    },
    'contract.fairPriceKline': (c: ApiCall<CandleParams>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      const b = market.contractPrices(i.symbol);
      return b ? b.fairCandles.contractCandles(fromContractInterval(c.params.interval ?? 'Min1'), range(c.params), c.now) : emptyCandles();
    },
    'contract.deals': (c: ApiCall<{ symbol: string; limit?: number }>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      return engine
        .tape(i.symbol)!
        .recentTrades(c.params.limit ?? 100)
        .map((t) => ({
          p: n(t.price),
          v: n(t.qty),
          T: t.takerSide === 'buy' ? 1 : 2,
          O: t.openFlag ?? 3,
          M: t.selfTrade ? 1 : 2,
          t: t.time,
          i: String(t.id),
        }));
    },
    'contract.ticker': (c: ApiCall<{ symbol?: string }>) =>
      c.params.symbol === undefined
        ? [...ctx.contractInstruments.values()].map((i) => ticker(i, c.now))
        : ticker(contractInstrumentOf(ctx, c.params.symbol), c.now),
    'contract.riskReverse': (c: ApiCall<{ symbol: string }>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      const f = engine.reader.insuranceFund(i.settleCoin);
      return [{ symbol: i.symbol, currency: f.currency, available: n(f.available), timestamp: f.timestamp }];
    },
    'contract.riskReverseHistory': (c: ApiCall<{ symbol: string; page_num: number; page_size: number }>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      const f = engine.reader.insuranceFund(i.settleCoin);
      const all = [{ symbol: i.symbol, currency: f.currency, available: n(f.available), snapshotTime: f.timestamp }];
      return pageOf(all, c.params.page_num, c.params.page_size);
    },
    'contract.fundingRateHistory': (c: ApiCall<{ symbol: string; page_num: number; page_size: number }>) => {
      const i = contractInstrumentOf(ctx, c.params.symbol);
      const board = market.contractPrices(i.symbol);
      const rows = board
        ? board
            .settlements()
            .slice()
            .reverse()
            .map((s) => ({ symbol: i.symbol, fundingRate: n(s.rate), settleTime: s.settleTime, collectCycle: s.collectCycleHours }))
        : engine.reader.fundingHistory(i.symbol, { pageNum: 1, pageSize: 100_000 }).resultList.map((h) => ({
            symbol: i.symbol,
            fundingRate: n(h.fundingRate),
            settleTime: h.settleTime,
            collectCycle: h.collectCycle,
          }));
      return pageOf(rows, c.params.page_num, c.params.page_size);
    },
  };
}

function range(p: CandleParams): { start?: number; end?: number } {
  const q: { start?: number; end?: number } = {};
  if (p.start !== undefined) q.start = p.start;
  if (p.end !== undefined) q.end = p.end;
  return q;
}

function emptyCandles() {
  return { time: [], open: [], close: [], high: [], low: [], vol: [], amount: [], realOpen: [], realClose: [], realHigh: [], realLow: [] };
}

/** A page object over an in-memory list (page numbers from 1). */
export function pageOf<T>(all: readonly T[], pageNum = 1, pageSize = 20): Record<string, unknown> {
  const size = Math.max(1, pageSize);
  const start = (Math.max(1, pageNum) - 1) * size;
  return {
    pageSize: size,
    totalCount: all.length,
    totalPage: Math.ceil(all.length / size),
    currentPage: Math.max(1, pageNum),
    resultList: all.slice(start, start + size),
  };
}
