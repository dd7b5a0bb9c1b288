/**
 * The sweep checkpoint's lines: a run that came from a worker thread as text is written as that text,
 * and the line must be the bytes `JSON.stringify({ key, ...outcomeToJson(outcome) })` gives (what older
 * checkpoints hold and what `--resume` reads), with and without rungs and a pruning stop.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToJson } from '../../src/backtest/report/run-codec.js';
import { SweepCheckpoint, checkpointLine } from '../../src/backtest/sweep-checkpoint.js';
import { type SweepOutcome, outcomeToJson } from '../../src/backtest/sweep-outcome.js';
import { syntheticRun } from './report/support/synthetic-run.js';

describe('backtest/sweep-checkpoint', () => {
  const run = syntheticRun({ minutes: 120, holdMinutes: 30 });
  const runText = JSON.stringify(runToJson(run));
  const cases: { name: string; outcome: SweepOutcome }[] = [
    { name: 'a whole run', outcome: { kind: 'run', run, rungValues: [] } },
    { name: 'a run with rungs (one of them null)', outcome: { kind: 'run', run, rungValues: [0.25, Number.NaN, -1] } },
    { name: 'a pruned run', outcome: { kind: 'run', run, rungValues: [0.5], prunedAt: 0 } },
  ];

  for (const { name, outcome } of cases) {
    it(`writes_the_same_line_for_a_run_given_as_text_as_for_the_run_itself: ${name}`, () => {
      const expected = JSON.stringify({ key: 'k"1', ...outcomeToJson(outcome) });
      expect(checkpointLine('k"1', outcome)).to.equal(expected);
      expect(checkpointLine('k"1', { ...outcome, runText } as SweepOutcome)).to.equal(expected);
    });
  }

  it('gives_back_a_run_put_as_text_and_reads_it_again_on_resume', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-checkpoint-'));
    try {
      const cp = SweepCheckpoint.open(dir, 'hash', false);
      cp.put('a', { kind: 'run', run, rungValues: [1, 2], prunedAt: 1, runText });
      cp.put('b', { kind: 'infeasible', reason: 'slowPeriod must exceed fastPeriod' });
      const want = outcomeToJson({ kind: 'run', run, rungValues: [1, 2], prunedAt: 1 });
      const got = cp.get('a');
      expect(got && outcomeToJson(got)).to.deep.equal(want);
      const lines = readFileSync(join(dir, 'checkpoint.jsonl'), 'utf8').split('\n');
      expect(lines).to.have.length(4); // header, two runs, the final newline
      const again = SweepCheckpoint.open(dir, 'hash', true);
      expect(again.size).to.equal(2);
      expect(outcomeToJson(again.get('a')!)).to.deep.equal(want);
      expect(again.get('b')).to.deep.equal({ kind: 'infeasible', reason: 'slowPeriod must exceed fastPeriod' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
