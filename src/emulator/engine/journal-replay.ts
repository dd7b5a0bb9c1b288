/**
 * Start-up replay of the command journal: every entry is re-run, in journal order, on the object the
 * entry names (`spot`, `contract`, `market`, …) at the entry's recorded time (the PinnedClock), with the
 * journal muted so nothing replayed is appended again.
 */
import { ConfigError } from '../../core/errors.js';
import type { CommandJournal } from './command-journal.js';
import type { PinnedClock } from './pinned-clock.js';

export interface ReplayOutcome {
  readonly count: number;
  /** Time of the last entry (-Infinity for an empty journal). */
  readonly lastTime: number;
}

/** What replay may call: target name → the object whose methods the entries name. */
export type ReplayTargets = Readonly<Record<string, object>>;

/** Replays the entries after `afterSeq` (0: all of them; a snapshot's seq: its tail). */
export function replayJournal(journal: CommandJournal, clock: PinnedClock, targets: ReplayTargets, afterSeq = 0): ReplayOutcome {
  let count = 0;
  let lastTime = -Infinity;
  journal.suppress(() => {
    try {
      for (const e of journal.entries(afterSeq)) {
        const target = targets[e.target] as Record<string, (...a: unknown[]) => unknown> | undefined;
        const fn = target?.[e.method];
        if (!target || typeof fn !== 'function')
          throw new ConfigError(journal.path, `journal entry ${e.seq} names ${e.target}.${e.method}, which this build does not know`);
        clock.pin(e.time);
        fn.apply(target, e.args);
        count++;
        if (e.time > lastTime) lastTime = e.time;
      }
    } finally {
      clock.unpin();
    }
  });
  return { count, lastTime };
}
