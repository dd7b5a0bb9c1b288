/**
 * The backtest's clock: core VirtualClock's semantics exactly (timers fire in (time, creation) order
 * before the clock reaches a target, intervals re-arm one period later, the clock never goes back),
 * with the earliest timer time kept at hand. The replay moves the clock to every record's time — tens
 * of thousands of times a minute of data, with one or two timers pending — and almost never reaches a
 * timer: then advanceTo() is a comparison, not a scan of the timers.
 */
import type { Clock, TimerHandle } from '../core/clock.js';

interface Timer {
  readonly id: number;
  at: number;
  seq: number;
  readonly period: number;
  readonly fn: () => void;
}

export class ReplayClock implements Clock {
  private current: number;
  private seq = 0;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();
  /** The earliest pending timer time, Infinity when none; NaN when it must be looked up again. */
  private earliest = Infinity;

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(at: number, fn: () => void): TimerHandle {
    const id = this.nextId++;
    const t: Timer = { id, at: Math.max(at, this.current), seq: this.seq++, period: 0, fn };
    this.timers.set(id, t);
    if (t.at < this.earliest) this.earliest = t.at;
    return { id };
  }

  setInterval(periodMs: number, fn: () => void): TimerHandle { // clock-ok: implements the Clock port
    if (!(periodMs > 0)) throw new RangeError(`interval period must be > 0, got ${periodMs}`);
    const id = this.nextId++;
    const t: Timer = { id, at: this.current + periodMs, seq: this.seq++, period: periodMs, fn };
    this.timers.set(id, t);
    if (t.at < this.earliest) this.earliest = t.at;
    return { id };
  }

  clearTimer(handle: TimerHandle | undefined): void {
    if (handle && this.timers.delete(handle.id)) this.earliest = NaN;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(this.current + ms, resolve));
  }

  /** The earliest pending timer time, or undefined. */
  nextTimerAt(): number | undefined {
    const e = this.earliestAt();
    return e === Infinity ? undefined : e;
  }

  advanceTo(target: number): void {
    if (target < this.current) throw new RangeError(`ReplayClock cannot go backwards: now=${this.current}, target=${target}`);
    // No timer due by the target: nothing runs, the clock just moves.
    if (target < this.earliestAt()) {
      this.current = target;
      return;
    }
    for (;;) {
      const due = this.earliestDue(target);
      if (!due) break;
      this.current = due.at;
      if (due.period > 0) {
        due.at += due.period;
        due.seq = this.seq++;
      } else {
        this.timers.delete(due.id);
      }
      this.earliest = NaN;
      due.fn();
    }
    this.current = target;
  }

  pendingTimers(): number {
    return this.timers.size;
  }

  private earliestAt(): number {
    let e = this.earliest;
    if (Number.isNaN(e)) {
      e = Infinity;
      for (const t of this.timers.values()) if (t.at < e) e = t.at;
      this.earliest = e;
    }
    return e;
  }

  private earliestDue(target: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers.values()) {
      if (t.at > target) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
