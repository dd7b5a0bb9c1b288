/**
 * The events a replay applies, in time order: the records as they come (already in time order: the
 * record store and the loaders sort them), with the bars of kline-only instruments expanded into
 * their intra-bar paths.
 *
 * A bar's record is stamped with its CLOSE time (no look-ahead: the importers do that), but its path
 * runs from its open time, so records of other streams read before it may belong after some of its
 * points. A reorder heap over a window of the longest bar restores time order (ties keep read order).
 * Without kline-only instruments the feed is a plain pass-through. A kline-only instrument's bars may
 * come as kline records or compiled (CompiledBar, in ticks and lots): either gives the same path.
 */
import { BinaryHeap } from '../core/binary-heap.js';
import { FIXED_INTERVAL_MS, fromContractInterval, type KlineInterval } from '../domain/kline-interval.js';
import type { DataRecord, KlineRecord } from '../marketdata/record/record.js';
import { intraBarPath } from './intra-bar-path.js';
import type { CompiledBar, ReplayEvent, ReplayInstrument, ReplayMarket } from './replay-market.js';

export interface ReplayFeedOptions {
  /** Inclusive start, ms (event time). */
  readonly from?: number;
  /** Exclusive end, ms. */
  readonly to?: number;
  /** Kline interval expanded into paths per record instrument key (default: the first seen). */
  readonly barInterval?: Readonly<Record<string, KlineInterval>>;
  /** Counts the source records read inside [from, to) (a bar counts once, not per path point). */
  readonly counter?: { records: number };
}

/** Records held while waiting for a path instrument's first bar (one with no bars at all must not hold the run). */
const MAX_HELD = 1_000_000;

interface Pending {
  readonly t: number;
  readonly seq: number;
  readonly e: ReplayEvent;
}

const intervalMs = (iv: string): number => {
  const internal = (iv in FIXED_INTERVAL_MS ? iv : fromContractInterval(iv as never)) as Exclude<KlineInterval, '1M'>;
  const ms = FIXED_INTERVAL_MS[internal];
  if (ms === undefined) throw new RangeError(`kline interval ${iv} has no fixed length (monthly bars cannot drive an intra-bar path)`);
  return ms;
};

/** replayEvents() pulled one event at a time: next() returns undefined at the end. */
export interface ReplayCursor {
  next(): ReplayEvent | undefined;
}

/**
 * replayEvents() as a cursor. The runner's loop pulls once per event; over an array of events
 * without intra-bar paths this is an index walk (no generator, no iterator result per event).
 */
export function replayCursor(
  records: Iterable<DataRecord | ReplayEvent>,
  market: ReplayMarket,
  opts: ReplayFeedOptions = {},
): ReplayCursor {
  const counter = opts.counter ?? { records: 0 };
  if (Array.isArray(records) && !market.instruments.some((i) => i.spec.klineOnly))
    return new ArrayCursor(records, opts.from ?? -Infinity, opts.to ?? Infinity, counter);
  return new IteratorCursor(replayEvents(records, market, { ...opts, counter })[Symbol.iterator]());
}

class ArrayCursor implements ReplayCursor {
  private i = 0;

  constructor(
    private readonly list: readonly (DataRecord | ReplayEvent)[],
    private readonly from: number,
    private readonly to: number,
    private readonly counter: { records: number },
  ) {}

  next(): ReplayEvent | undefined {
    const list = this.list;
    while (this.i < list.length) {
      const r = list[this.i++]!;
      const t = r.et;
      if (t < this.from) continue;
      if (t >= this.to) {
        this.i = list.length;
        return undefined;
      }
      this.counter.records++;
      return r;
    }
    return undefined;
  }
}

class IteratorCursor implements ReplayCursor {
  private done = false;

  constructor(private readonly it: Iterator<ReplayEvent>) {}

  next(): ReplayEvent | undefined {
    if (this.done) return undefined;
    const n = this.it.next();
    if (n.done) {
      this.done = true;
      return undefined;
    }
    return n.value;
  }
}

export function* replayEvents(
  records: Iterable<DataRecord | ReplayEvent>,
  market: ReplayMarket,
  opts: ReplayFeedOptions = {},
): Generator<ReplayEvent> {
  const from = opts.from ?? -Infinity;
  const to = opts.to ?? Infinity;
  const counter = opts.counter ?? { records: 0 };
  const pathInstruments = market.instruments.filter((i) => i.spec.klineOnly);
  if (pathInstruments.length === 0) {
    for (const r of records) {
      const t = r.et;
      if (t < from) continue;
      if (t >= to) return;
      counter.records++;
      yield r;
    }
    return;
  }
  const chosen = new Map<string, string>(Object.entries(opts.barInterval ?? {}));
  const heap = new BinaryHeap<Pending>(before);
  let seq = 0;
  let window = 0;
  // Until each path instrument's first bar has been read, its window (the bar length) is unknown:
  // nothing leaves the heap before then (a bar's path starts one bar before its record).
  const unseen = new Set(pathInstruments.map((i) => i.key));
  let newest = -Infinity;
  const push = (e: ReplayEvent): void => {
    const t = e.et;
    if (t > newest) newest = t;
    heap.push({ t, seq: seq++, e });
  };
  for (const r of records) {
    const inst =
      r.s === 'kline'
        ? market.byRecordKey(r.m === 'spot' ? `spot:${r.i}` : `contract:${r.i}`)
        : r.s === 'bar'
          ? market.byRecordKey(r.key)
          : undefined;
    if ((r.s === 'kline' || r.s === 'bar') && inst?.spec.klineOnly) {
      const want = chosen.get(inst.key);
      if (want === undefined) chosen.set(inst.key, r.iv);
      else if (want !== r.iv) continue;
      const len = intervalMs(r.iv);
      if (len > window) window = len;
      // A recorded mark may lag the bars by one bar before the traded price stands in for it.
      inst.markMaxAgeMs = len;
      unseen.delete(inst.key);
      if (r.ot >= from && r.ot < to) counter.records++;
      for (const p of expandBar(inst, r, len)) if (p.et >= from && p.et < to) push(p);
      // No `continue` here: a bar, like any record, lets out what is now surely in order. (It used to
      // skip the drain, so a run of bars alone was expanded whole into the heap before its first
      // event: 520k path points and 200 MB held at the start of a 90-day spot run.)
    } else if (r.et >= from && r.et < to) {
      counter.records++;
      push(r);
    }
    if (unseen.size > 0 && heap.size < MAX_HELD) continue;
    while (heap.size > 0 && heap.peek()!.t <= newest - window) yield heap.pop()!.e;
  }
  while (heap.size > 0) yield heap.pop()!.e;
}

/** A bar's path: a compiled bar is already in ticks and lots (compileBar), a kline record is converted here. */
function expandBar(inst: ReplayInstrument, r: KlineRecord | CompiledBar, len: number): ReplayEvent[] {
  const bar =
    r.s === 'bar'
      ? { openTime: r.ot, closeTime: r.ot + len, open: r.open, high: r.high, low: r.low, close: r.close, volumeLots: r.volumeLots }
      : {
          openTime: r.ot,
          closeTime: r.ot + len,
          open: inst.ticks(r.o),
          high: inst.ticks(r.h),
          low: inst.ticks(r.l),
          close: inst.ticks(r.c),
          volumeLots: inst.lots(r.v),
        };
  return intraBarPath(inst.key, bar, inst.spec.path);
}

const before = (a: Pending, b: Pending): boolean => a.t < b.t || (a.t === b.t && a.seq < b.seq);
