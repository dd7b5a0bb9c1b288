import { expect } from 'chai';
import { whenAmongRuns } from '../../../src/app/audit/journal-venue-audit.js';
import type { RunInfo } from '../../../src/persistence/run-journal.js';

describe('audit: where an unjournaled venue execution falls among the bot runs', () => {
  // Run 1 killed (no end), run 2 ended cleanly at 2_000_000 + 30 s.
  const T = 2_000_000;
  const runs: RunInfo[] = [
    { id: 1, startedAt: T, configHash: 'h', mode: 'paper' },
    { id: 2, startedAt: T + 20_000, endedAt: T + 30_000, configHash: 'h', mode: 'paper', exitReason: 'done' },
  ];
  const iso = (t: number) => new Date(t).toISOString();

  it('says_after_the_last_run_ended_with_the_gap', () => {
    expect(whenAmongRuns(T + 30_800, runs)).to.equal(`traded at ${iso(T + 30_800)}, 0.8 s after the last run (#2) ended`);
  });
  it('says_during_a_run_that_ended_cleanly', () => {
    expect(whenAmongRuns(T + 25_000, runs)).to.equal(`traded at ${iso(T + 25_000)} during run #2`);
  });
  it('says_after_a_killed_run_started_and_before_the_next', () => {
    expect(whenAmongRuns(T + 12_500, runs)).to.equal(
      `traded at ${iso(T + 12_500)}, 12.5 s after run #1 started (killed: no end on record), before run #2`,
    );
  });
  it('says_before_the_first_run', () => {
    expect(whenAmongRuns(T - 1, runs)).to.equal(`traded at ${iso(T - 1)}, before the first run`);
  });
});
