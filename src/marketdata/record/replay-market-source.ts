/**
 * Serves a recorded market as the emulator's market: reads records in time order and applies them
 * (MarketRecordApplier) when the injected clock reaches them — the recorded L2 book becomes crowd
 * liquidity, recorded trades are printed against the book, and index / fair / funding feed the
 * contract price boards.
 *
 * Time: record time (exchange `et` by default, or local `lt`) maps to clock time as
 *   clock = startAt + (recordTime − firstRecordTime) / speed
 * so `speed: 1` keeps the recorded pace. Recordings are in RECEIVE order, which is not exchange-time
 * order; a reorder buffer (a heap over a sliding window, `reorderWindowMs`) restores time order and
 * keeps receive order between equal times.
 *
 * Two ways to drive it: start() schedules itself on the clock (emulator, paper); a backtest may
 * instead call advanceTo(recordTime) after moving its VirtualClock (the data drives the clock).
 * With `loop`, the recording restarts after its last record, shifted by its duration plus one ms.
 */
import { BinaryHeap } from '../../core/binary-heap.js';
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { ContractPriceBoard } from '../../venue/market/contract-price-board.js';
import type { LiquidityPort } from '../../venue/market/liquidity-port.js';
import type { MarketSource } from '../../venue/market/market-source.js';
import { MarketRecordApplier, type ApplierStats, type SourceInstrument } from './record-applier.js';
import { isDataRecord, type DataRecord, type MarketRecord } from './record.js';

export interface ReplayOptions {
  /** The recording, in receive order. Must be re-iterable (an array) when `loop` is set. */
  readonly records: Iterable<MarketRecord>;
  readonly instruments: readonly SourceInstrument[];
  readonly clock: Clock;
  readonly port: LiquidityPort;
  /** Which recorded time orders and paces the replay. Default 'exchange'. */
  readonly timeBase?: 'exchange' | 'local';
  /** Default 2000. */
  readonly reorderWindowMs?: number;
  /** Default 1. */
  readonly speed?: number;
  /** Clock time of the first record; default the clock's time at start(). */
  readonly startAt?: number;
  readonly loop?: boolean;
  /** Default true (trade-printer.ts). */
  readonly forcePrints?: boolean;
}

interface Pending {
  readonly time: number;
  readonly seq: number;
  readonly record: DataRecord;
}

export class ReplayMarketSource implements MarketSource {
  readonly kind = 'replay' as const;
  readonly applier: MarketRecordApplier;
  private readonly clock: Clock;
  private readonly useLocal: boolean;
  private readonly window: number;
  private readonly speed: number;
  private iterator: Iterator<MarketRecord>;
  private exhausted = false;
  private readonly heap = new BinaryHeap<Pending>(before);
  private seq = 0;
  private maxRead = -Infinity;
  /** Added to record times: grows by the recording's span on every loop. */
  private loopOffset = 0;
  /** Span of the recording's own times (first record, latest time), measured on the first pass. */
  private spanStart: number | undefined;
  private spanEnd = -Infinity;
  private firstTime: number | undefined;
  private startAt: number | undefined;
  private timer: TimerHandle | undefined;
  private lastApplied = -Infinity;

  constructor(private readonly opts: ReplayOptions) {
    if (opts.speed !== undefined && !(opts.speed > 0)) throw new RangeError(`replay speed must be > 0, got ${opts.speed}`);
    this.clock = opts.clock;
    this.useLocal = opts.timeBase === 'local';
    this.window = opts.reorderWindowMs ?? 2000;
    this.speed = opts.speed ?? 1;
    this.iterator = opts.records[Symbol.iterator]();
    this.applier = new MarketRecordApplier(opts.instruments, { port: opts.port, forcePrints: opts.forcePrints ?? true });
  }

  get stats(): ApplierStats {
    return this.applier.stats;
  }

  /** Every record has been applied (never true with `loop`). */
  get done(): boolean {
    this.fill();
    return this.heap.size === 0 && this.exhausted;
  }

  contractPrices(symbol: string): ContractPriceBoard | undefined {
    return this.applier.contractPrices(symbol);
  }

  /** Record time of the next record, or undefined at the end. */
  nextRecordTime(): number | undefined {
    this.fill();
    return this.heap.peek()?.time;
  }

  /** Clock time at which the next record is due (after start()), or undefined. */
  nextDueAt(): number | undefined {
    const t = this.nextRecordTime();
    return t === undefined ? undefined : this.toClock(t);
  }

  /** Applies every record with record time ≤ `recordTime`; returns how many. */
  advanceTo(recordTime: number): number {
    return this.applyWhile((p) => p.time <= recordTime);
  }

  private applyWhile(due: (p: Pending) => boolean): number {
    let n = 0;
    for (;;) {
      this.fill();
      const top = this.heap.peek();
      if (!top || !due(top)) break;
      this.heap.pop();
      const at = this.startAt === undefined ? top.time : this.toClock(top.time);
      // Late records (beyond the reorder window) are applied now, never stamped in the past.
      this.lastApplied = Math.max(this.lastApplied, at);
      this.applier.apply(top.record, this.lastApplied);
      n++;
    }
    return n;
  }

  start(): void {
    if (this.timer) return;
    this.startAt ??= this.opts.startAt ?? this.clock.now();
    this.schedule();
  }

  stop(): void {
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const next = this.nextRecordTime();
    if (next === undefined) {
      this.timer = undefined;
      return;
    }
    this.timer = this.clock.setTimer(this.toClock(next), () => {
      const now = this.clock.now();
      // Compared in clock time with the same arithmetic as the timer, so the due record is included.
      this.applyWhile((p) => this.toClock(p.time) <= now);
      this.schedule();
    });
  }

  private toClock(recordTime: number): number {
    return this.startAt! + (recordTime - this.firstTime!) / this.speed;
  }

  /** Reads ahead until the heap's earliest record is older than the newest read by the window. */
  private fill(): void {
    while (!this.exhausted && (this.heap.size === 0 || this.maxRead - this.heap.peek()!.time < this.window)) {
      const it = this.iterator.next();
      if (!it.done) {
        this.push(it.value);
        continue;
      }
      if (!this.opts.loop || this.spanStart === undefined) {
        this.exhausted = true;
        break;
      }
      this.loopOffset += this.spanEnd - this.spanStart + 1;
      this.iterator = this.opts.records[Symbol.iterator]();
    }
  }

  private push(r: MarketRecord): void {
    if (!isDataRecord(r)) return;
    const raw = this.useLocal ? r.lt : r.et;
    this.spanStart ??= raw;
    if (this.loopOffset === 0 && raw > this.spanEnd) this.spanEnd = raw;
    const time = raw + this.loopOffset;
    this.firstTime ??= time;
    if (time > this.maxRead) this.maxRead = time;
    this.heap.push({ time, seq: this.seq++, record: r });
  }
}

function before(a: Pending, b: Pending): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}
