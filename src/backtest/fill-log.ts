/**
 * A simulated venue's fills (spot-sim-venue.ts, contract-sim-venue.ts): the newest as Fill objects,
 * the older ones, once the runner has booked them and asks (a run with a tape), archived compactly
 * (compact-records.ts: about 100 bytes a fill instead of 900). A 90-day market maker makes 60k
 * fills; held as objects they were the largest thing the run's heap grew by (issue 13, flat memory).
 * Queries stay exact over both parts, and the run's record reads every fill back at the end.
 */
import type { InstrumentSymbol } from '../core/ids.js';
import type { Fill } from '../domain/fill.js';
import { CompactRecords } from './compact-records.js';

export class FillLog {
  /** The fills not archived, oldest first: every fill unless archive() was called. */
  readonly recent: Fill[] = [];
  private readonly archive = new CompactRecords<Fill>();

  /** How many of the oldest fills are archived (they precede `recent`). */
  get archived(): number {
    return this.archive.length;
  }

  /** Moves the oldest `count` recent fills to the archive. */
  archiveOldest(count: number): void {
    const n = Math.min(count, this.recent.length);
    for (let i = 0; i < n; i++) this.archive.push(this.recent[i]!);
    this.recent.splice(0, n);
  }

  /** Fills of `symbol` at or after `since`, in time order (fills are appended in time order). */
  since(symbol: InstrumentSymbol, since: number): Fill[] {
    const out: Fill[] = [];
    const recent = this.recent;
    for (let i = recent.length - 1; i >= 0; i--) {
      const f = recent[i]!;
      if (f.time < since) return out.reverse();
      if (f.symbol === symbol) out.push(f);
    }
    for (let i = this.archive.length - 1; i >= 0; i--) {
      const f = this.archive.at(i);
      if (f.time < since) break;
      if (f.symbol === symbol) out.push(f);
    }
    return out.reverse();
  }

  /** Every fill, oldest first (the archived ones rebuilt). */
  all(): Fill[] {
    return this.archive.length === 0 ? [...this.recent] : [...this.archive.toArray(), ...this.recent];
  }
}
