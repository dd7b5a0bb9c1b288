/**
 * The events a replay applies, in time order: the records as they come (already in time order: the
 * record store and the loaders sort them), with the bars of kline-only instruments expanded into
 * their intra-bar paths.
 *
 * A bar's record is stamped with its CLOSE time (no look-ahead: the importers do that), but its path
 * runs from its open time, so records of other streams read before it may belong after some of its
 * points. A reorder over a window of the longest bar restores time order (ties keep read order): each
 * path instrument's points go to a queue of their own (they come in time order), everything else to a
 * heap, and the earliest head of them all leaves first.
 * Without kline-only instruments the feed is a plain pass-through. A kline-only instrument's bars may
 * come as kline records or compiled (CompiledBar, in ticks and lots): either gives the same path.
 */
import { BinaryHeap } from '../core/binary-heap.js';
import { FIXED_INTERVAL_MS, fromContractInterval, type KlineInterval } from '../domain/kline-interval.js';
import type { DataRecord, KlineRecord } from '../marketdata/record/record.js';
import { intraBarPath, type BarTicks } from './intra-bar-path.js';
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
 * The events of `records` as a cursor the runner's loop pulls once per event: over an array without
 * kline-only instruments an index walk, else the reorder below (FeedCursor). No generator: its resumes
 * and iterator results per event, with the cursor's own result around them, were ~200 B a bar more of
 * a 50.8-day kline run's allocations (alloc.mjs; the feed lays four path points a bar).
 */
export function replayCursor(
  records: Iterable<DataRecord | ReplayEvent>,
  market: ReplayMarket,
  opts: ReplayFeedOptions = {},
): ReplayCursor {
  const counter = opts.counter ?? { records: 0 };
  if (Array.isArray(records) && !market.instruments.some((i) => i.spec.klineOnly))
    return new ArrayCursor(records, opts.from ?? -Infinity, opts.to ?? Infinity, counter);
  return new FeedCursor(records, market, opts, counter);
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

/** The events, in time order, as a generator (replayCursor pulled to the end). */
export function* replayEvents(
  records: Iterable<DataRecord | ReplayEvent>,
  market: ReplayMarket,
  opts: ReplayFeedOptions = {},
): Generator<ReplayEvent> {
  const cursor = replayCursor(records, market, opts);
  for (let e = cursor.next(); e !== undefined; e = cursor.next()) yield e;
}

/**
 * Any iterable of records. Without kline-only instruments, a pass-through inside [from, to). With
 * them, each bar is expanded into its path and the events pass through the reorder (lanes and heap): after each
 * record is read, the events at least a window (the longest bar) older than the newest one are let
 * out, in (time, read order); at the end of the input, all of them.
 */
class FeedCursor implements ReplayCursor {
  private readonly from: number;
  private readonly to: number;
  private readonly paths: boolean;
  private readonly chosen: Map<string, string>;
  private readonly heap = new BinaryHeap<Pending>(before);
  /**
   * Each path instrument's points, which its bars lay in time order: a queue instead of the heap (a heap
   * push and pop, an object and the sifting per point, four points a bar). A point earlier than its
   * queue's last (a bar out of order, a bar read twice) goes to the heap: every queue and the heap are
   * each in (time, read order), so the earliest of their heads is the earliest event held.
   */
  private readonly lanes = new Map<string, PathLane>();
  private readonly laneList: PathLane[] = [];
  /** Events held in the heap and the lanes. */
  private held = 0;
  private seq = 0;
  private window = 0;
  /**
   * Until each path instrument's first bar has been read, its window (the bar length) is unknown:
   * nothing leaves the heap before then (a bar's path starts one bar before its record).
   */
  private readonly unseen: Set<string>;
  private newest = -Infinity;
  /** Read when first pulled (as a generator's loop would). */
  private it: Iterator<DataRecord | ReplayEvent> | undefined;
  /** The input is read to its end (or past `to`, without paths). */
  private ended = false;
  /** The last record read lets out the events now surely in order (until the heap's first is not). */
  private draining = false;

  constructor(
    private readonly records: Iterable<DataRecord | ReplayEvent>,
    private readonly market: ReplayMarket,
    opts: ReplayFeedOptions,
    private readonly counter: { records: number },
  ) {
    this.from = opts.from ?? -Infinity;
    this.to = opts.to ?? Infinity;
    const pathInstruments = market.instruments.filter((i) => i.spec.klineOnly);
    this.paths = pathInstruments.length > 0;
    this.chosen = new Map<string, string>(Object.entries(opts.barInterval ?? {}));
    this.unseen = new Set(pathInstruments.map((i) => i.key));
    for (const i of pathInstruments) {
      const lane = new PathLane();
      this.lanes.set(i.key, lane);
      this.laneList.push(lane);
    }
  }

  next(): ReplayEvent | undefined {
    const it = (this.it ??= this.records[Symbol.iterator]());
    if (!this.paths) {
      while (!this.ended) {
        const n = it.next();
        if (n.done === true) break;
        const r = n.value;
        const t = r.et;
        if (t < this.from) continue;
        if (t >= this.to) {
          // Left before its end, as a for-of over it would leave it: a reader's iterator closes its files.
          it.return?.();
          break;
        }
        this.counter.records++;
        return r;
      }
      this.ended = true;
      return undefined;
    }
    for (;;) {
      if (this.ended) return this.held > 0 ? this.take(Infinity) : undefined;
      if (this.draining) {
        const e = this.held > 0 ? this.take(this.newest - this.window) : undefined;
        if (e !== undefined) return e;
        this.draining = false;
      }
      const n = it.next();
      if (n.done === true) {
        this.ended = true;
        continue;
      }
      this.read(n.value);
      // A bar, like any record, lets out what is now surely in order. (A bar used to skip this, so a run
      // of bars alone was expanded whole into the heap before its first event: 520k path points and
      // 200 MB held at the start of a 90-day spot run.)
      this.draining = !(this.unseen.size > 0 && this.held < MAX_HELD);
    }
  }

  /** The earliest event held, in (time, read order), if its time is at most `until`; else undefined. */
  private take(until: number): ReplayEvent | undefined {
    const top = this.heap.peek();
    let t = top !== undefined ? top.t : Infinity;
    let seq = top !== undefined ? top.seq : Infinity;
    let from: PathLane | undefined;
    const lanes = this.laneList;
    for (let k = 0; k < lanes.length; k++) {
      const lane = lanes[k]!;
      if (lane.size === 0) continue;
      const lt = lane.headTime();
      if (lt < t || (lt === t && lane.headSeq() < seq)) {
        t = lt;
        seq = lane.headSeq();
        from = lane;
      }
    }
    if (t > until || (from === undefined && top === undefined)) return undefined;
    this.held--;
    return from !== undefined ? from.shift() : this.heap.pop()!.e;
  }

  /** Puts a record's events (a bar's path, or the record) into the heap. */
  private read(r: DataRecord | ReplayEvent): void {
    const market = this.market;
    const inst =
      r.s === 'kline'
        ? market.byRecordKey(r.m === 'spot' ? `spot:${r.i}` : `contract:${r.i}`)
        : r.s === 'bar'
          ? market.byRecordKey(r.key)
          : undefined;
    if ((r.s === 'kline' || r.s === 'bar') && inst?.spec.klineOnly) {
      const want = this.chosen.get(inst.key);
      if (want === undefined) this.chosen.set(inst.key, r.iv);
      else if (want !== r.iv) return;
      const len = intervalMs(r.iv);
      if (len > this.window) this.window = len;
      // A recorded mark may lag the bars by one bar before the traded price stands in for it.
      inst.markMaxAgeMs = len;
      this.unseen.delete(inst.key);
      if (r.ot >= this.from && r.ot < this.to) this.counter.records++;
      const points = expandBar(inst, r, len);
      const lane = this.lanes.get(inst.key)!;
      for (let k = 0; k < points.length; k++) {
        const p = points[k]!;
        const t = p.et;
        if (t < this.from || t >= this.to) continue;
        if (t < lane.lastTime) {
          this.push(p);
          continue;
        }
        if (t > this.newest) this.newest = t;
        lane.push(p, this.seq++);
        this.held++;
      }
    } else if (r.et >= this.from && r.et < this.to) {
      this.counter.records++;
      this.push(r);
    }
  }

  private push(e: ReplayEvent): void {
    const t = e.et;
    if (t > this.newest) this.newest = t;
    this.heap.push({ t, seq: this.seq++, e });
    this.held++;
  }
}

/** A queue of one path instrument's points in time order, with their read order (FeedCursor.lanes). */
class PathLane {
  private events: ReplayEvent[] = [];
  private seqs: number[] = [];
  private head = 0;
  /** Time of the last point queued (−∞: none yet). */
  lastTime = -Infinity;

  get size(): number {
    return this.events.length - this.head;
  }

  headTime(): number {
    return this.events[this.head]!.et;
  }

  headSeq(): number {
    return this.seqs[this.head]!;
  }

  push(e: ReplayEvent, seq: number): void {
    this.events.push(e);
    this.seqs.push(seq);
    this.lastTime = e.et;
  }

  shift(): ReplayEvent {
    const e = this.events[this.head]!;
    this.events[this.head] = undefined as never;
    this.head++;
    // Emptied: start over at the front (a lane drains to a bar or two between reads).
    if (this.head === this.events.length) {
      this.events.length = 0;
      this.seqs.length = 0;
      this.head = 0;
    } else if (this.head >= 1024) {
      this.events = this.events.slice(this.head);
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
    return e;
  }
}

/** A bar's path: a compiled bar is already in ticks and lots (compileBar), a kline record is converted here. */
function expandBar(inst: ReplayInstrument, r: KlineRecord | CompiledBar, len: number): ReplayEvent[] {
  // One bar object for every bar (intraBarPath keeps nothing of it).
  const bar = scratchBar;
  bar.openTime = r.ot;
  bar.closeTime = r.ot + len;
  if (r.s === 'bar') {
    bar.open = r.open;
    bar.high = r.high;
    bar.low = r.low;
    bar.close = r.close;
    bar.volumeLots = r.volumeLots;
  } else {
    bar.open = inst.ticks(r.o);
    bar.high = inst.ticks(r.h);
    bar.low = inst.ticks(r.l);
    bar.close = inst.ticks(r.c);
    bar.volumeLots = inst.lots(r.v);
  }
  return intraBarPath(inst.key, bar, inst.spec.path);
}

const scratchBar: { -readonly [K in keyof BarTicks]: BarTicks[K] } = {
  openTime: 0,
  closeTime: 0,
  open: 0,
  high: 0,
  low: 0,
  close: 0,
  volumeLots: 0,
};

const before = (a: Pending, b: Pending): boolean => a.t < b.t || (a.t === b.t && a.seq < b.seq);
