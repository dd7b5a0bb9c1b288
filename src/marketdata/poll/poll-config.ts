/**
 * What to poll, how often: a plain options object (the app maps its YAML onto it).
 *
 * Each instrument has a cycle (`cycleMs`): one poll cycle → at most one MarketSnapshot. Each stream has
 * its own cadence `everyMs` (default: every cycle); a stream is fetched in the cycles where at least
 * `everyMs` has passed since its last successful fetch, so its effective period is everyMs rounded UP
 * to a whole number of cycles. Records of streams not due in a cycle are carried over from their last
 * fetch (klines every minute, depth every cycle, and every snapshot still has both).
 *
 *   { kind: 'spot', symbol: 'BTCUSDT', cycleMs: 1000,
 *     streams: { depth: { limit: 20 }, trades: { everyMs: 5000, limit: 100 }, klines: { everyMs: 60000, intervals: ['1m'] } } }
 */
import { ConfigError } from '../../core/errors.js';
import { isContractSymbol, isSpotSymbol, type ContractSymbol, type InstrumentSymbol, type SpotSymbol } from '../../core/ids.js';
import { SPOT_KLINE_INTERVALS, type SpotKlineInterval } from '../../domain/spot-enums.js';
import { CONTRACT_KLINE_INTERVALS, type ContractKlineInterval } from '../../domain/contract-enums.js';

export interface StreamCadence {
  /** Minimum time between fetches of this stream; default: every cycle. */
  readonly everyMs?: number;
}
export interface DepthStream extends StreamCadence {
  /** Levels per side. Default 20. */
  readonly limit?: number;
}
export interface TradesStream extends StreamCadence {
  /** Recent trades per fetch. Default 100 (contract deals allow at most 100). */
  readonly limit?: number;
}
export interface KlinesStream<I extends string> extends StreamCadence {
  /** One request per interval, keyed in the snapshot by the venue's interval name. */
  readonly intervals: readonly I[];
  /** Candles per interval. Default 100. */
  readonly limit?: number;
}

export interface SpotStreams {
  readonly depth?: DepthStream;
  readonly bookTicker?: StreamCadence;
  readonly trades?: TradesStream;
  readonly klines?: KlinesStream<SpotKlineInterval>;
  readonly ticker24h?: StreamCadence;
  readonly avgPrice?: StreamCadence;
}

export interface ContractStreams {
  readonly depth?: DepthStream;
  /** Last price, bid1/ask1, fair, index and funding rate in one call. */
  readonly ticker?: StreamCadence;
  readonly fundingRate?: StreamCadence;
  readonly fairPrice?: StreamCadence;
  readonly indexPrice?: StreamCadence;
  readonly deals?: TradesStream;
  readonly klines?: KlinesStream<ContractKlineInterval>;
}

export type SpotStreamName = keyof SpotStreams;
export type ContractStreamName = keyof ContractStreams;
export type StreamName = SpotStreamName | ContractStreamName;

export const SPOT_STREAMS: readonly SpotStreamName[] = ['depth', 'bookTicker', 'trades', 'klines', 'ticker24h', 'avgPrice'];
export const CONTRACT_STREAMS: readonly ContractStreamName[] = [
  'depth',
  'ticker',
  'fundingRate',
  'fairPrice',
  'indexPrice',
  'deals',
  'klines',
];

export interface SpotInstrumentPoll {
  readonly kind: 'spot';
  readonly symbol: string;
  readonly cycleMs: number;
  readonly streams: SpotStreams;
}

export interface ContractInstrumentPoll {
  readonly kind: 'contract';
  readonly symbol: string;
  readonly cycleMs: number;
  readonly streams: ContractStreams;
}

export type InstrumentPoll = SpotInstrumentPoll | ContractInstrumentPoll;

export interface BackoffOptions {
  /** Delay before the first retry after a failed cycle. Default 500 ms. */
  readonly initialMs?: number;
  /** Growth per consecutive failure. Default 2. */
  readonly multiplier?: number;
  /** Cap. Default 30 s. */
  readonly maxMs?: number;
}

/** Rate budget the cadences must fit in (see poll-budget.ts). */
export interface PollBudget {
  /** Spot ip-weight per second the pollers may use (orders and account calls share the rest). */
  readonly spotWeightPerSecond: number;
  /** Calls per second per contract endpoint (the venue meters each endpoint: about 20 per 2 s). */
  readonly contractCallsPerSecondPerEndpoint: number;
}

export interface MarketPollConfig {
  readonly instruments: readonly InstrumentPoll[];
  readonly backoff?: BackoffOptions;
  /** Default DEFAULT_POLL_BUDGET. */
  readonly budget?: PollBudget;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = Object.freeze({ initialMs: 500, multiplier: 2, maxMs: 30_000 });

export const DEFAULT_DEPTH_LIMIT = 20;
export const DEFAULT_TRADES_LIMIT = 100;
export const DEFAULT_KLINES_LIMIT = 100;

/** One fetch of one stream in a cycle: klines fan out into one request per interval. */
export interface StreamRequest {
  readonly stream: StreamName;
  /** Catalogue client method called (`depth`, `ticker24hr`, `kline` …). */
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A validated instrument entry: cadences resolved, effective period known. */
export interface ResolvedStream {
  readonly name: StreamName;
  /** Requested minimum spacing. */
  readonly everyMs: number;
  /** everyMs rounded up to whole cycles: how often it is really fetched. */
  readonly periodMs: number;
  /** `instruments[i].streams.<name>` for error messages. */
  readonly path: string;
  readonly requests: readonly StreamRequest[];
}

export interface ResolvedInstrumentPoll {
  readonly kind: 'spot' | 'contract';
  readonly symbol: InstrumentSymbol;
  readonly cycleMs: number;
  readonly streams: readonly ResolvedStream[];
  readonly config: InstrumentPoll;
}

function positiveInt(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
    throw new ConfigError(path, `expected a whole number of milliseconds > 0, got ${JSON.stringify(v)}`);
  return v;
}

function limitOf(v: unknown, def: number, lo: number, hi: number, path: string): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)
    throw new ConfigError(path, `expected an integer ${lo}..${hi}, got ${JSON.stringify(v)}`);
  return v;
}

function intervalsOf<I extends string>(v: unknown, allowed: readonly I[], path: string): I[] {
  if (!Array.isArray(v) || v.length === 0) throw new ConfigError(path, `expected a non-empty list of ${allowed.join(', ')}`);
  const out: I[] = [];
  v.forEach((x, i) => {
    if (typeof x !== 'string' || !(allowed as readonly string[]).includes(x))
      throw new ConfigError(`${path}[${i}]`, `expected one of ${allowed.join(', ')}, got ${JSON.stringify(x)}`);
    if (!out.includes(x as I)) out.push(x as I);
  });
  return out;
}

/** The requests one fetch of a stream makes (what the budget charges and the fetcher sends). */
function requestsOf(
  kind: 'spot' | 'contract',
  name: StreamName,
  symbol: string,
  cfg: Record<string, unknown>,
  path: string,
): StreamRequest[] {
  if (kind === 'spot') {
    switch (name as SpotStreamName) {
      case 'depth':
        return [
          { stream: name, method: 'depth', params: { symbol, limit: limitOf(cfg.limit, DEFAULT_DEPTH_LIMIT, 1, 5000, `${path}.limit`) } },
        ];
      case 'bookTicker':
        return [{ stream: name, method: 'bookTicker', params: { symbol } }];
      case 'trades':
        return [
          { stream: name, method: 'trades', params: { symbol, limit: limitOf(cfg.limit, DEFAULT_TRADES_LIMIT, 1, 1000, `${path}.limit`) } },
        ];
      case 'klines': {
        const limit = limitOf(cfg.limit, DEFAULT_KLINES_LIMIT, 1, 1000, `${path}.limit`);
        return intervalsOf(cfg.intervals, SPOT_KLINE_INTERVALS, `${path}.intervals`).map((interval) => ({
          stream: name,
          method: 'klines',
          params: { symbol, interval, limit },
        }));
      }
      case 'ticker24h':
        return [{ stream: name, method: 'ticker24hr', params: { symbol } }];
      case 'avgPrice':
        return [{ stream: name, method: 'avgPrice', params: { symbol } }];
    }
  }
  switch (name as ContractStreamName) {
    case 'depth':
      return [
        { stream: name, method: 'depth', params: { symbol, limit: limitOf(cfg.limit, DEFAULT_DEPTH_LIMIT, 1, 1000, `${path}.limit`) } },
      ];
    case 'ticker':
      return [{ stream: name, method: 'ticker', params: { symbol } }];
    case 'fundingRate':
      return [{ stream: name, method: 'fundingRate', params: { symbol } }];
    case 'fairPrice':
      return [{ stream: name, method: 'fairPrice', params: { symbol } }];
    case 'indexPrice':
      return [{ stream: name, method: 'indexPrice', params: { symbol } }];
    case 'deals':
      return [
        { stream: name, method: 'deals', params: { symbol, limit: limitOf(cfg.limit, DEFAULT_TRADES_LIMIT, 1, 100, `${path}.limit`) } },
      ];
    case 'klines': {
      const limit = limitOf(cfg.limit, DEFAULT_KLINES_LIMIT, 1, 2000, `${path}.limit`);
      return intervalsOf(cfg.intervals, CONTRACT_KLINE_INTERVALS, `${path}.intervals`).map((interval) => ({
        stream: name,
        method: 'kline',
        params: { symbol, interval, limit },
      }));
    }
  }
  throw new ConfigError(path, 'unknown stream');
}

/** Validates the config and resolves every cadence; throws ConfigError naming the bad path. */
export function resolvePollConfig(config: MarketPollConfig, root = 'marketData'): ResolvedInstrumentPoll[] {
  if (!config || !Array.isArray(config.instruments)) throw new ConfigError(`${root}.instruments`, 'expected a list of instruments to poll');
  const seen = new Set<string>();
  return config.instruments.map((inst, i) => {
    const base = `${root}.instruments[${i}]`;
    if (inst.kind !== 'spot' && inst.kind !== 'contract')
      throw new ConfigError(`${base}.kind`, `expected spot or contract, got ${JSON.stringify((inst as { kind?: unknown }).kind)}`);
    const okSymbol = inst.kind === 'spot' ? isSpotSymbol(inst.symbol) : isContractSymbol(inst.symbol);
    if (!okSymbol)
      throw new ConfigError(
        `${base}.symbol`,
        `expected a ${inst.kind} symbol (${inst.kind === 'spot' ? 'BTCUSDT' : 'BTC_USDT'}), got ${JSON.stringify(inst.symbol)}`,
      );
    if (seen.has(inst.symbol)) throw new ConfigError(`${base}.symbol`, `${inst.symbol} is listed twice`);
    seen.add(inst.symbol);
    const cycleMs = positiveInt(inst.cycleMs, `${base}.cycleMs`);
    const allowed: readonly StreamName[] = inst.kind === 'spot' ? SPOT_STREAMS : CONTRACT_STREAMS;
    const streamsCfg = (inst.streams ?? {}) as Record<string, unknown>;
    const streams: ResolvedStream[] = [];
    for (const [name, raw] of Object.entries(streamsCfg)) {
      const path = `${base}.streams.${name}`;
      if (!(allowed as readonly string[]).includes(name))
        throw new ConfigError(path, `expected one of ${allowed.join(', ')} for a ${inst.kind} instrument`);
      if (raw === undefined) continue;
      if (typeof raw !== 'object' || raw === null) throw new ConfigError(path, 'expected an object ({} polls every cycle)');
      const cfg = raw as Record<string, unknown>;
      const everyMs = cfg.everyMs === undefined ? cycleMs : positiveInt(cfg.everyMs, `${path}.everyMs`);
      if (everyMs < cycleMs) throw new ConfigError(`${path}.everyMs`, `expected at least the cycle (${cycleMs} ms), got ${everyMs}`);
      streams.push({
        name: name as StreamName,
        everyMs,
        periodMs: Math.ceil(everyMs / cycleMs) * cycleMs,
        path,
        requests: requestsOf(inst.kind, name as StreamName, inst.symbol, cfg, path),
      });
    }
    if (streams.length === 0) throw new ConfigError(`${base}.streams`, `expected at least one of ${allowed.join(', ')}`);
    const symbol = inst.symbol as SpotSymbol | ContractSymbol;
    return { kind: inst.kind, symbol, cycleMs, streams, config: inst };
  });
}
