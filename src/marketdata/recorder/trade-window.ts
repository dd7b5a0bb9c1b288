/**
 * Which trades of a "recent trades" poll are new. Each poll returns the venue's last N trades; most of
 * them were already recorded by the previous poll.
 *
 * Key: the venue's trade id when it sends one (contract deals), else (time, price, quantity, taker
 * side) — MEXC spot sends `id: null`, and one taker order sweeping equal resting orders prints several
 * trades with the SAME key in the same millisecond. So keys are counted (a multiset): a poll holding a
 * key k times when k was recorded j times adds k − j new trades. Counting "how many recorded so far"
 * (not "how many in the previous response") also survives a response that came back short.
 *
 * Window: the counts are kept for every trade seen in the last `retainMs` of trade time, and never less
 * than everything the last poll returned. A polled trade older than the window's start is not new: it
 * was in an earlier response (a venue's tape is in time order), or predates the recording's memory.
 *
 * Gap: when a poll came back FULL (as many trades as asked for) and its oldest trade is newer than the
 * newest seen before, trades printed in between may not have been returned: `possiblyMissed`. Poll the
 * trades more often or ask for more.
 */
export interface WindowTrade {
  readonly id?: string;
  readonly time: number;
  readonly price: string;
  readonly qty: string;
  readonly side?: 'buy' | 'sell';
}

export interface AdmitResult<T> {
  /** The new trades, in the order polled (oldest first). */
  readonly fresh: T[];
  readonly possiblyMissed: boolean;
}

interface Seen {
  count: number;
  readonly time: number;
}

export const DEFAULT_TRADE_WINDOW_MS = 300_000;

export const tradeKey = (t: WindowTrade): string =>
  t.id !== undefined && t.id !== '' ? `#${t.id}` : `${t.time}|${t.price}|${t.qty}|${t.side ?? ''}`;

export class TradeWindow {
  private readonly seen = new Map<string, Seen>();
  private newest = -Infinity;
  /** Oldest time kept (the window's start); -Infinity while nothing was seen. */
  private start = -Infinity;

  constructor(readonly retainMs: number = DEFAULT_TRADE_WINDOW_MS) {
    if (!(retainMs >= 0)) throw new RangeError(`trade window must be >= 0 ms, got ${retainMs}`);
  }

  /** Trades kept in the window (distinct keys). */
  get size(): number {
    return this.seen.size;
  }

  /** Newest trade time seen, or undefined. */
  get newestTime(): number | undefined {
    return this.newest === -Infinity ? undefined : this.newest;
  }

  /** Trades already recorded (a resumed recording's tail), oldest first or in any order. */
  seed(trades: Iterable<WindowTrade>): void {
    let oldest = Infinity;
    for (const t of trades) {
      this.count(t);
      if (t.time > this.newest) this.newest = t.time;
      if (t.time < oldest) oldest = t.time;
    }
    if (oldest !== Infinity) this.start = Math.max(this.start, oldest);
    this.prune(oldest);
  }

  /**
   * The new trades of one poll, sorted oldest first by the caller. `limit` is how many were asked
   * for (a full answer may hide a gap).
   */
  admit<T extends WindowTrade>(polled: readonly T[], limit?: number): AdmitResult<T> {
    if (polled.length === 0) return { fresh: [], possiblyMissed: false };
    const hadHistory = this.newest !== -Infinity;
    let oldestPolled = Infinity;
    let newestPolled = -Infinity;
    for (const t of polled) {
      if (t.time < oldestPolled) oldestPolled = t.time;
      if (t.time > newestPolled) newestPolled = t.time;
    }
    const possiblyMissed = hadHistory && limit !== undefined && polled.length >= limit && oldestPolled > this.newest;
    // How often each key occurs in this poll, walking oldest first: the first j occurrences of a key
    // recorded j times are the old ones.
    const inPoll = new Map<string, number>();
    const fresh: T[] = [];
    for (const t of polled) {
      if (hadHistory && t.time < this.start) continue;
      const k = tradeKey(t);
      const n = (inPoll.get(k) ?? 0) + 1;
      inPoll.set(k, n);
      const s = this.seen.get(k);
      if (s && n <= s.count) continue;
      if (s) s.count = n;
      else this.seen.set(k, { count: n, time: t.time });
      fresh.push(t);
    }
    if (newestPolled > this.newest) this.newest = newestPolled;
    if (!hadHistory) this.start = oldestPolled;
    this.prune(oldestPolled);
    return { fresh, possiblyMissed };
  }

  private count(t: WindowTrade): void {
    const k = tradeKey(t);
    const s = this.seen.get(k);
    if (s) s.count++;
    else this.seen.set(k, { count: 1, time: t.time });
  }

  /** Forgets trades older than the window, keeping at least everything from `lastPollOldest` on. */
  private prune(lastPollOldest: number): void {
    const cut = Math.min(this.newest - this.retainMs, lastPollOldest);
    if (cut <= this.start) return;
    this.start = cut;
    for (const [k, s] of this.seen) if (s.time < cut) this.seen.delete(k);
  }
}
