/**
 * A replay's events held for every fill model of a run, with the bars of kline-only instruments in
 * columns (issue 13, flat memory and load time): a bar costs 56 bytes in seven Float64Arrays and is
 * rebuilt as a CompiledBar when the replay reaches it; every other event (funding, marks, compiled book
 * and trades) stays the object it is. The bars of a long kline run are nearly all its events.
 *
 * It replaces, for these runs, kline records (five decimal strings each) packed into one string per
 * record (CompactRecords) and unpacked and parsed again on every replay: the bars are in ticks and lots
 * once, at load (a record store decodes them so directly: load-replay.ts).
 */
import type { KlineInterval } from '../domain/kline-interval.js';
import type { CompiledBar, ReplayEvent } from './replay-market.js';

/** Position marker: the event at this position is the next bar of the columns. */
const BAR = 1;

export class ReplayEventList implements Iterable<ReplayEvent> {
  /** Per position: BAR, or 0 (the next of `others`). */
  private readonly kinds: Uint8Array;
  private readonly others: ReplayEvent[] = [];
  /** The (instrument key, interval) pairs of the bars: few in a run. */
  private readonly labels: { readonly key: string; readonly iv: KlineInterval }[] = [];
  private readonly label: Uint16Array;
  private readonly et: Float64Array;
  private readonly ot: Float64Array;
  private readonly open: Float64Array;
  private readonly high: Float64Array;
  private readonly low: Float64Array;
  private readonly close: Float64Array;
  private readonly volume: Float64Array;

  /** The events in order; `bar` says which become column bars (and gives them in ticks and lots). */
  static of(events: readonly ReplayEvent[], bar: (e: ReplayEvent) => CompiledBar | undefined): ReplayEventList {
    const bars: (CompiledBar | undefined)[] = events.map(bar);
    let n = 0;
    for (const b of bars) if (b !== undefined) n++;
    return new ReplayEventList(events, bars, n);
  }

  private constructor(events: readonly ReplayEvent[], bars: readonly (CompiledBar | undefined)[], n: number) {
    this.kinds = new Uint8Array(events.length);
    this.label = new Uint16Array(n);
    this.et = new Float64Array(n);
    this.ot = new Float64Array(n);
    this.open = new Float64Array(n);
    this.high = new Float64Array(n);
    this.low = new Float64Array(n);
    this.close = new Float64Array(n);
    this.volume = new Float64Array(n);
    const labelIds = new Map<string, number>();
    let j = 0;
    for (let k = 0; k < events.length; k++) {
      const b = bars[k];
      if (b === undefined) {
        this.others.push(events[k]!);
        continue;
      }
      const name = `${b.key}|${b.iv}`;
      let id = labelIds.get(name);
      if (id === undefined) {
        id = this.labels.length;
        if (id > 0xffff) throw new RangeError('more than 65536 bar series in one replay');
        labelIds.set(name, id);
        this.labels.push({ key: b.key, iv: b.iv });
      }
      this.kinds[k] = BAR;
      this.label[j] = id;
      this.et[j] = b.et;
      this.ot[j] = b.ot;
      this.open[j] = b.open;
      this.high[j] = b.high;
      this.low[j] = b.low;
      this.close[j] = b.close;
      this.volume[j] = b.volumeLots;
      j++;
    }
  }

  get length(): number {
    return this.kinds.length;
  }

  /** Bars held in columns. */
  get bars(): number {
    return this.et.length;
  }

  *[Symbol.iterator](): Iterator<ReplayEvent> {
    const kinds = this.kinds;
    let j = 0;
    let o = 0;
    for (let k = 0; k < kinds.length; k++) {
      if (kinds[k] !== BAR) {
        yield this.others[o++]!;
        continue;
      }
      const { key, iv } = this.labels[this.label[j]!]!;
      yield {
        s: 'bar',
        key,
        et: this.et[j]!,
        ot: this.ot[j]!,
        iv,
        open: this.open[j]!,
        high: this.high[j]!,
        low: this.low[j]!,
        close: this.close[j]!,
        volumeLots: this.volume[j]!,
      } satisfies CompiledBar;
      j++;
    }
  }
}
