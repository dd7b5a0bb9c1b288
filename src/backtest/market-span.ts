/**
 * A run spans its market data — book, trades, bars (a bar from its open) — not the context series
 * beside it. Funding, mark and index histories are downloaded in long files: four years of funding
 * beside 50 days of bars is the usual case, and a run stretched to them polls, reconciles and samples
 * equity once a minute through years with nothing to trade (the 50-day perpetual recording read from a
 * record store spent 95 % of a 105 s run there).
 *
 * Context outside the span is left out, except the last record of each series before it, which is
 * moved to the span's start: the funding rate that settles at the first settlement inside the span,
 * the mark in force (replay-market.ts keeps when it was really sampled, `carriedFrom`, so a stale mark
 * is still known to be stale). The same holds before an explicit `backtest.from`: the record in force
 * then is looked for up to CONTEXT_LOOKBACK_MS back.
 *
 * Two forms of one rule: over a list in memory (the loaders) and over a time-ordered stream (a record
 * store read as the replay goes).
 */
import { instrumentKey, RECORD_STREAMS, type DataRecord, type RecordStream } from '../marketdata/record/record.js';
import { carriedFrom, type CompiledBar, type ReplayEvent } from './replay-market.js';

export const MARKET_STREAMS: ReadonlySet<string> = new Set(['depth.snapshot', 'depth.diff', 'trade', 'bookTicker', 'kline']);
/** Funding, mark, index and ticker series. */
export const CONTEXT_STREAMS: readonly RecordStream[] = RECORD_STREAMS.filter((s) => !MARKET_STREAMS.has(s));

/** How far before an explicit `from` the context in force is looked for: longer than any funding cycle or mark sampling. */
export const CONTEXT_LOOKBACK_MS = 31 * 24 * 3_600_000;

/** A bar's record comes at its close, up to this long after its open: a context record younger than the newest by less may still lie inside the span. */
const LONGEST_BAR_MS = 31 * 24 * 3_600_000;

/** Market data, as records or as the compiled book, print and bar events of a record store. */
const isMarket = (r: DataRecord | ReplayEvent): boolean =>
  r.s === 'depth' || r.s === 'print' || r.s === 'path' || r.s === 'bar' || MARKET_STREAMS.has(r.s);

/** Where a market record's span starts: a bar at its open. */
const startOf = (r: DataRecord | ReplayEvent): number => (r.s === 'kline' || r.s === 'bar' ? r.ot : r.et);

/** The last context record per instrument and stream, to be carried to the span's start. */
export class ContextInForce {
  private readonly last = new Map<string, DataRecord>();

  /** `notBefore`: an explicit `from`: a bar opening before it does not move the start earlier (the replay cuts there). */
  constructor(private readonly notBefore = -Infinity) {}

  add(r: DataRecord): void {
    this.last.set(`${instrumentKey(r.m, r.i)}|${r.s}`, r);
  }

  get size(): number {
    return this.last.size;
  }

  /** The records moved to `start`, in the order their series were first seen. */
  carriedTo(spanStart: number): DataRecord[] {
    const start = Math.max(spanStart, this.notBefore);
    return [...this.last.values()].map((r) => {
      const moved = { ...r, et: start, lt: Math.max(r.lt, start) } as DataRecord;
      carriedFrom.set(moved, r.et);
      return moved;
    });
  }
}

/** A time-ordered list cut to its market span (see the module comment); unchanged when it has no market data. */
export function trimToMarketSpan<R extends DataRecord | CompiledBar>(sorted: readonly R[], before?: ContextInForce): (R | DataRecord)[] {
  // The span starts where the first market record in time order starts (a bar at its open), as the
  // stream form must: it cannot wait to see whether a later bar opened earlier.
  let start = Infinity;
  let end = -Infinity;
  for (const r of sorted) {
    if (!isMarket(r)) continue;
    if (start === Infinity) start = startOf(r);
    if (r.et > end) end = r.et;
  }
  if (start === Infinity) return [...sorted];
  const inForce = before ?? new ContextInForce();
  const kept: R[] = [];
  for (const r of sorted) {
    if (isMarket(r)) kept.push(r);
    else if (r.et < start) inForce.add(r as DataRecord);
    else if (r.et <= end) kept.push(r);
  }
  if (inForce.size === 0) return kept;
  // = [...carried, ...kept] sorted stably by time: `kept` is in time order and the carried records all
  // stand at `start`, so they go in before the first kept record at or after it (no sort of the run).
  const carried = inForce.carriedTo(start);
  const at = firstAtOrAfter(kept, carried[0]!.et);
  return [...kept.slice(0, at), ...carried, ...kept.slice(at)];
}

/** The index of the first record of a time-ordered list at or after `t` (binary search). */
function firstAtOrAfter(list: readonly { readonly et: number }[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.et < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * trimToMarketSpan() over a time-ordered stream: context read before the first market record waits
 * (only the last per series once it is surely before the span), and the stream ends after `end`, the
 * last market record's time (known from a store's index; undefined: read to the end). `onKline` sees
 * each bar as it passes (the store learns its kline intervals so).
 *
 * A hand-written iterator, not a generator: past the span's start each record is the source's own
 * iterator result handed on, with no generator frame resumed per record. A generator layer here cost the
 * from-disk replay about a quarter of its speed (bench `backtest`, "from disk" rows).
 */
export function marketSpanStream<T extends DataRecord | ReplayEvent>(
  records: Iterable<T>,
  end: number | undefined,
  before: ContextInForce = new ContextInForce(),
  onKline?: (bar: T) => void,
): IterableIterator<T | DataRecord> {
  const source = records[Symbol.iterator]();
  const last = end ?? Infinity;
  /** Records due before the source is read again: the carried context, the context inside the span and the first market record. */
  let queued: (T | DataRecord)[] = [];
  let q = 0;
  let started = false;
  let ended = false;
  const done: IteratorReturnResult<undefined> = { done: true, value: undefined };
  const start = (): void => {
    const waiting: DataRecord[] = [];
    let head = 0;
    for (let n = source.next(); !n.done; n = source.next()) {
      const r = n.value;
      if (!isMarket(r)) {
        const c = r as DataRecord;
        waiting.push(c);
        while (waiting[head]!.et < c.et - LONGEST_BAR_MS) before.add(waiting[head++]!);
        if (head > 1024 && head * 2 > waiting.length) {
          waiting.splice(0, head);
          head = 0;
        }
        continue;
      }
      const from = startOf(r);
      const kept: DataRecord[] = [];
      for (let i = head; i < waiting.length; i++) {
        const c = waiting[i]!;
        if (c.et < from) before.add(c);
        else kept.push(c);
      }
      queued = [...before.carriedTo(from), ...kept, r];
      return;
    }
    // No market data at all: the context as it came.
    queued = waiting.slice(head);
    ended = true;
  };
  const it: IterableIterator<T | DataRecord> = {
    [Symbol.iterator]: () => it,
    next(): IteratorResult<T | DataRecord> {
      if (!started) {
        started = true;
        start();
      }
      if (q < queued.length) {
        const r = queued[q++]!;
        if (onKline !== undefined && r.s === 'kline') onKline(r as T);
        return { done: false, value: r };
      }
      if (ended) return done;
      const n = source.next();
      if (n.done || n.value.et > last) {
        ended = true;
        return done;
      }
      if (onKline !== undefined && n.value.s === 'kline') onKline(n.value);
      return n;
    },
  };
  return it;
}
