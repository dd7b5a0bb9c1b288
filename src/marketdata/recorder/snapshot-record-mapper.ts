/**
 * Polled snapshots → market records, one instrument's state at a time.
 *
 * A snapshot carries EVERY configured stream, but only the streams fetched in that cycle are new: the
 * poller carries the others over from their last fetch (poll-config.ts), as the same objects. So a
 * record is made only for a stream whose object differs from the previous snapshot's — a depth polled
 * every cycle gives one `depth.snapshot` per cycle, a 24h ticker polled every 10 s one `ticker` per
 * 10 s, whatever the cycle.
 *
 *   snapshot field              record          et (exchange time)                 notes
 *   book                        depth.snapshot  book time, else lt                 u = lastUpdateId / version
 *   bookTicker                  bookTicker      its time, else lt (spot sends none)
 *   trades                      trade           trade time                         new ones only (trade-window.ts)
 *   klines[interval]            kline           close time (= next open)           closed bars, once (kline-gate.ts)
 *   ticker24h / contractTicker  ticker          its time, else lt
 *   fundingRate                 funding         its time, else lt
 *   fairPrice / indexPrice      fair / index    its time, else lt
 *
 * `lt` is the snapshot's poll time (our clock when the cycle completed) for every record of it. A
 * contract instrument polling only `ticker` (which carries fair, index and funding rate) also gets
 * fair / index / funding records from it, unless the dedicated stream is polled too (then that one
 * is the source, so each price is recorded once).
 *
 * The spot average price has no stream in the record model and is not recorded. Decimals are written
 * with Decimal.toFixed(): the value the venue sent, without the trailing zeros of its padding.
 */
import type { ContractKlineInterval } from '../../domain/contract-enums.js';
import type { BookLevel, Kline, MarketTrade, OrderBookSnapshot } from '../../domain/snapshot.js';
import { fromContractInterval, KLINE_INTERVALS, type KlineInterval } from '../../domain/kline-interval.js';
import type { PolledSnapshot } from '../poll/market-data-events.js';
import { DEFAULT_TRADES_LIMIT, type ContractStreams, type SpotStreams } from '../poll/poll-config.js';
import { type DataRecord, type RecordLevel, type RecordMarket, type RecordStream } from '../record/record.js';
import type { RecordStoreReader } from '../store/record-store-reader.js';
import { KlineGate, DEFAULT_KLINE_GRACE_MS } from './kline-gate.js';
import { DEFAULT_TRADE_WINDOW_MS, TradeWindow, type WindowTrade } from './trade-window.js';

export type MappedInstrument =
  | { readonly kind: 'spot'; readonly symbol: string; readonly streams: SpotStreams }
  | { readonly kind: 'contract'; readonly symbol: string; readonly streams: ContractStreams };

export interface SnapshotRecordMapperOptions {
  /** Trade dedup window in trade time. Default 300 000 (trade-window.ts). */
  readonly tradeWindowMs?: number;
  /** Clock-skew allowance when judging a bar closed by time. Default 2000 (kline-gate.ts). */
  readonly klineGraceMs?: number;
}

export interface MapperCounters {
  /** Polls whose full trade answer did not reach back to the trades seen before. */
  tradeGaps: number;
  /** Trades without a taker side (the record needs one): not recorded. */
  tradesWithoutSide: number;
}

/** What a resumed recording found in its store. */
export interface SeedSummary {
  readonly trades: number;
  readonly klineIntervals: number;
}

type Refs = { -readonly [K in keyof PolledSnapshot]?: PolledSnapshot[K] };

interface InstrumentState {
  readonly market: RecordMarket;
  readonly symbol: string;
  readonly tradeLimit: number | undefined;
  readonly fromTicker: { readonly fair: boolean; readonly index: boolean; readonly funding: boolean };
  readonly trades: TradeWindow;
  readonly klines: KlineGate;
  prev: Refs;
  /** A time before which the next cycle's requests cannot have been sent (kline-gate.ts). */
  sentAfter: number | undefined;
}

const KNOWN_INTERVALS = new Set<string>(KLINE_INTERVALS);

export class SnapshotRecordMapper {
  readonly counters: MapperCounters = { tradeGaps: 0, tradesWithoutSide: 0 };
  private readonly states = new Map<string, InstrumentState>();

  constructor(instruments: readonly MappedInstrument[], opts: SnapshotRecordMapperOptions = {}) {
    for (const inst of instruments) {
      const market: RecordMarket = inst.kind;
      const tradeLimit =
        inst.kind === 'spot'
          ? inst.streams.trades && (inst.streams.trades.limit ?? DEFAULT_TRADES_LIMIT)
          : inst.streams.deals && (inst.streams.deals.limit ?? DEFAULT_TRADES_LIMIT);
      const c = inst.kind === 'contract' ? inst.streams : undefined;
      this.states.set(inst.symbol, {
        market,
        symbol: inst.symbol,
        tradeLimit,
        fromTicker: { fair: !!c?.ticker && !c.fairPrice, index: !!c?.ticker && !c.indexPrice, funding: !!c?.ticker && !c.fundingRate },
        trades: new TradeWindow(opts.tradeWindowMs ?? DEFAULT_TRADE_WINDOW_MS),
        klines: new KlineGate(opts.klineGraceMs ?? DEFAULT_KLINE_GRACE_MS),
        prev: {},
        sentAfter: undefined,
      });
    }
  }

  /**
   * Continues a recording: the newest trades and the last closed bar of each interval already in the
   * store, so the first polls after a restart write neither again.
   */
  seed(reader: RecordStoreReader): SeedSummary {
    let trades = 0;
    let klineIntervals = 0;
    const summary = reader.summary();
    for (const inst of summary.instruments) {
      const st = this.states.get(inst.symbol);
      if (!st || st.market !== inst.market) continue;
      const ref = { market: inst.market, symbol: inst.symbol };
      const tradeStream = inst.streams.find((s) => s.stream === 'trade');
      if (tradeStream) {
        const from = tradeStream.maxEt - st.trades.retainMs;
        const tail: WindowTrade[] = [];
        for (const r of reader.records({ instruments: [ref], streams: ['trade'], from })) {
          if (r.s === 'trade') tail.push({ ...(r.id !== undefined ? { id: r.id } : {}), time: r.et, price: r.p, qty: r.q, side: r.ts });
        }
        st.trades.seed(tail);
        trades += tail.length;
      }
      if (inst.streams.some((s) => s.stream === 'kline')) {
        // Bars are few next to trades (a week of 1m bars is 10 080 records): reading them all is cheap.
        const lastOpen = new Map<KlineInterval, number>();
        for (const r of reader.records({ instruments: [ref], streams: ['kline'], order: 'receive' })) {
          if (r.s === 'kline' && r.ot > (lastOpen.get(r.iv) ?? -Infinity)) lastOpen.set(r.iv, r.ot);
        }
        for (const [iv, ot] of lastOpen) st.klines.seed(iv, ot);
        klineIntervals += lastOpen.size;
      }
    }
    return { trades, klineIntervals };
  }

  /** The records one snapshot adds. */
  records(s: PolledSnapshot): DataRecord[] {
    const st = this.states.get(s.symbol);
    if (!st) return [];
    const lt = s.pollTime;
    const head = { m: st.market, i: st.symbol, lt } as const;
    const prev = st.prev;
    const out: DataRecord[] = [];
    const fresh = <K extends keyof Refs>(k: K): PolledSnapshot[K] | undefined =>
      s[k] !== undefined && s[k] !== prev[k] ? s[k] : undefined;

    const trades = fresh('trades');
    if (trades) {
      const { fresh: newTrades, possiblyMissed } = st.trades.admit(trades.map(toWindowTrade), st.tradeLimit);
      if (possiblyMissed) this.counters.tradeGaps++;
      for (const t of newTrades) {
        if (t.side === undefined) {
          this.counters.tradesWithoutSide++;
          continue;
        }
        out.push({ s: 'trade', ...head, et: t.time, ...(t.id !== undefined ? { id: t.id } : {}), p: t.price, q: t.qty, ts: t.side });
      }
    }

    const book = fresh('book');
    if (book)
      out.push({
        s: 'depth.snapshot',
        ...head,
        et: book.exchangeTime ?? lt,
        u: sequenceOf(book),
        b: levels(book.bids),
        a: levels(book.asks),
      });

    const bt = fresh('bookTicker');
    if (bt)
      out.push({
        s: 'bookTicker',
        ...head,
        et: bt.exchangeTime ?? lt,
        bp: bt.bidPrice.toFixed(),
        bq: bt.bidQty.toFixed(),
        ap: bt.askPrice.toFixed(),
        aq: bt.askQty.toFixed(),
      });

    const t24 = fresh('ticker24h');
    if (t24) {
      out.push({
        s: 'ticker',
        ...head,
        et: t24.exchangeTime ?? lt,
        last: t24.lastPrice.toFixed(),
        ...(t24.openPrice !== undefined ? { open: t24.openPrice.toFixed() } : {}),
        ...(t24.highPrice !== undefined ? { high: t24.highPrice.toFixed() } : {}),
        ...(t24.lowPrice !== undefined ? { low: t24.lowPrice.toFixed() } : {}),
        ...(t24.volume !== undefined ? { v: t24.volume.toFixed() } : {}),
        ...(t24.quoteVolume !== undefined ? { qv: t24.quoteVolume.toFixed() } : {}),
      });
    }

    const ct = fresh('contractTicker');
    if (ct) {
      const et = ct.exchangeTime ?? lt;
      out.push({
        s: 'ticker',
        ...head,
        et,
        last: ct.lastPrice.toFixed(),
        ...(ct.volume24 !== undefined ? { v: ct.volume24.toFixed() } : {}),
        ...(ct.amount24 !== undefined ? { qv: ct.amount24.toFixed() } : {}),
      });
      if (st.fromTicker.fair && ct.fairPrice !== undefined) out.push({ s: 'fair', ...head, et, p: ct.fairPrice.toFixed() });
      if (st.fromTicker.index && ct.indexPrice !== undefined) out.push({ s: 'index', ...head, et, p: ct.indexPrice.toFixed() });
      if (st.fromTicker.funding && ct.fundingRate !== undefined) out.push({ s: 'funding', ...head, et, r: ct.fundingRate.toFixed() });
    }

    const fair = fresh('fairPrice');
    if (fair) out.push({ s: 'fair', ...head, et: fair.exchangeTime ?? lt, p: fair.price.toFixed() });
    const index = fresh('indexPrice');
    if (index) out.push({ s: 'index', ...head, et: index.exchangeTime ?? lt, p: index.price.toFixed() });

    const f = fresh('fundingRate');
    if (f) {
      out.push({
        s: 'funding',
        ...head,
        et: f.exchangeTime ?? lt,
        r: f.rate.toFixed(),
        ...(f.nextSettleTime !== undefined ? { nt: f.nextSettleTime } : {}),
        ...(f.minRate !== undefined ? { min: f.minRate.toFixed() } : {}),
        ...(f.maxRate !== undefined ? { max: f.maxRate.toFixed() } : {}),
        ...(f.collectCycleHours !== undefined ? { cy: f.collectCycleHours } : {}),
      });
    }

    const kl = fresh('klines');
    if (kl) {
      for (const [name, bars] of Object.entries(kl)) {
        const iv = intervalOf(st.market, name);
        if (iv === undefined) continue;
        for (const { bar, closeTime } of st.klines.admit(iv, bars, st.sentAfter)) out.push(klineRecord(head, iv, bar, closeTime));
      }
    }

    st.prev = { ...s };
    // The next cycle's requests go out after this one completed: the venue's newest time in this
    // snapshot bounds when (on the venue's clock, so our clock's skew does not matter); without one,
    // our poll time does.
    st.sentAfter = s.exchangeTime ?? lt;
    return out;
  }
}

/** Streams a snapshot of each kind can produce (for the progress line's column order). */
export const RECORDED_STREAMS: readonly RecordStream[] = [
  'depth.snapshot',
  'bookTicker',
  'trade',
  'kline',
  'ticker',
  'fair',
  'index',
  'funding',
];

function toWindowTrade(t: MarketTrade): WindowTrade {
  return {
    ...(t.id !== undefined ? { id: t.id } : {}),
    time: t.time,
    price: t.price.toFixed(),
    qty: t.quantity.toFixed(),
    ...(t.takerSide !== undefined ? { side: t.takerSide } : {}),
  };
}

function sequenceOf(book: OrderBookSnapshot): number {
  const n = book.sequence === undefined ? NaN : Number(book.sequence);
  // The record needs an integer; a venue that sends no id gets 0 (replay then treats each snapshot as a resync).
  return Number.isSafeInteger(n) ? n : 0;
}

function levels(side: readonly BookLevel[]): RecordLevel[] {
  return side.map((l): RecordLevel =>
    l.orders !== undefined ? [l.price.toFixed(), l.quantity.toFixed(), l.orders] : [l.price.toFixed(), l.quantity.toFixed()],
  );
}

function intervalOf(market: RecordMarket, name: string): KlineInterval | undefined {
  if (market === 'spot') return KNOWN_INTERVALS.has(name) ? (name as KlineInterval) : undefined;
  // The lookup answers undefined for a name it does not know.
  return fromContractInterval(name as ContractKlineInterval) as KlineInterval | undefined;
}

function klineRecord(head: { m: RecordMarket; i: string; lt: number }, iv: KlineInterval, k: Kline, closeTime: number): DataRecord {
  return {
    s: 'kline',
    ...head,
    et: closeTime,
    iv,
    ot: k.openTime,
    o: k.open.toFixed(),
    h: k.high.toFixed(),
    l: k.low.toFixed(),
    c: k.close.toFixed(),
    v: k.volume.toFixed(),
    ...(k.quoteVolume !== undefined ? { qv: k.quoteVolume.toFixed() } : {}),
    x: true,
  };
}
