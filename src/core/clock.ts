/**
 * The one source of time (docs/architecture.md rule 1). Outside this module nothing reads the wall clock or
 * schedules timers directly, so a backtest or a deterministic emulator run can swap in VirtualClock.
 */
export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once at or after `at` (ms since epoch). */
  setTimer(at: number, fn: () => void): TimerHandle;
  /** Runs `fn` every `periodMs`, first at now + periodMs. */
  setInterval(periodMs: number, fn: () => void): TimerHandle;
  clearTimer(handle: TimerHandle | undefined): void;
  /** Resolves after `ms` on this clock. */
  sleep(ms: number): Promise<void>;
}

let nextTimerId = 1;

export class SystemClock implements Clock {
  private readonly timers = new Map<number, NodeJS.Timeout>();

  now(): number {
    return Date.now();
  }

  setTimer(at: number, fn: () => void): TimerHandle {
    const id = nextTimerId++;
    const t = setTimeout(
      () => {
        this.timers.delete(id);
        fn();
      },
      Math.max(0, at - Date.now()),
    );
    this.timers.set(id, t);
    return { id };
  }

  setInterval(periodMs: number, fn: () => void): TimerHandle {
    const id = nextTimerId++;
    this.timers.set(id, setInterval(fn, periodMs));
    return { id };
  }

  clearTimer(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const t = this.timers.get(handle.id);
    if (t) {
      clearTimeout(t);
      clearInterval(t);
      this.timers.delete(handle.id);
    }
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(Date.now() + ms, resolve));
  }

  /** Lets a process exit while timers are pending (CLI shutdown). */
  unrefAll(): void {
    for (const t of this.timers.values()) t.unref();
  }
}

interface VirtualTimer {
  id: number;
  at: number;
  seq: number;
  period: number;
  fn: () => void;
}

/**
 * Time moves only when told to. advanceTo() fires every due timer in (time, creation) order before
 * the clock reaches the target, and refuses to go backwards.
 *
 * The earliest timer time is kept at hand: a backtest moves the clock to every record's time (tens of
 * thousands of times a minute of data, one or two timers pending) and almost never reaches a timer,
 * so advanceTo() is then a comparison, not a scan of the timers.
 */
export class VirtualClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly timers = new Map<number, VirtualTimer>();
  /** The earliest pending timer time, Infinity when none; NaN when it must be looked up again. */
  private earliest = Infinity;

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(at: number, fn: () => void): TimerHandle {
    return this.add(Math.max(at, this.current), 0, fn);
  }

  setInterval(periodMs: number, fn: () => void): TimerHandle {
    if (!(periodMs > 0)) throw new RangeError(`interval period must be > 0, got ${periodMs}`);
    return this.add(this.current + periodMs, periodMs, fn);
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
    if (target < this.current) {
      throw new RangeError(`${this.constructor.name} cannot go backwards: now=${this.current}, target=${target}`);
    }
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

  advanceBy(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  pendingTimers(): number {
    return this.timers.size;
  }

  private add(at: number, period: number, fn: () => void): TimerHandle {
    const id = nextTimerId++;
    this.timers.set(id, { id, at, seq: this.seq++, period, fn });
    if (at < this.earliest) this.earliest = at;
    return { id };
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

  private earliestDue(target: number): VirtualTimer | undefined {
    let best: VirtualTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.at > target) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
