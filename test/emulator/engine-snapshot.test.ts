import { expect } from 'chai';
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { KEYS, phaseOne, phaseTwo, readRefs, scenarioConfig, type ScenarioRefs } from './support/restart-scenario.js';
import { readEverything } from './support/read-everything.js';

/**
 * Engine snapshots (engine/engine-snapshot.ts): a start from a snapshot plus the journal's tail must
 * rebuild exactly what the replay of the whole journal rebuilds — every read endpoint of every account
 * answers the same — and the market model must go on identically from both (its random streams and
 * books are part of the snapshot). The reference is independent of snapshots: the same journal with its
 * snapshots deleted, which the start replays from the first entry, as for a file from before snapshots.
 */
describe('emulator engine snapshots', function () {
  this.timeout(120_000);
  let dir: string;
  const running: RunningEmulator[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emu-snap-'));
  });
  afterEach(async () => {
    for (const e of running.splice(0)) await e.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** The restart scenario's session with a snapshot every 40 entries; answers the refs and the journal path. */
  async function session(): Promise<{ path: string; refs: ScenarioRefs }> {
    const path = join(dir, 'paper.sqlite');
    const refs: ScenarioRefs = {};
    const emu = await startEmulator(scenarioConfig(path), { snapshotEvery: 40 });
    emu.advance(1000);
    await phaseOne(emu, refs);
    emu.advance(90_000);
    await phaseTwo(emu);
    emu.advance(2_500);
    await emu.stop();
    return { path, refs };
  }

  /** A copy of the journal with `edit` applied to it through SQLite. */
  function variant(path: string, name: string, edit: (db: Database.Database) => void): string {
    const out = join(dir, `${name}.sqlite`);
    copyFileSync(path, out);
    const db = new Database(out);
    edit(db);
    db.close();
    return out;
  }

  const snapshotSeqs = (path: string): number[] => {
    const db = new Database(path, { readonly: true });
    const seqs = (db.prepare('SELECT seq FROM snapshots ORDER BY seq DESC').all() as { seq: number }[]).map((r) => r.seq);
    db.close();
    return seqs;
  };

  /** Starts on `path`, reads everything, lets the market run 30 s more and reads again. */
  async function answers(
    path: string,
    refs: ScenarioRefs,
  ): Promise<{ emu: RunningEmulator; now: Record<string, unknown>; later: Record<string, unknown> }> {
    const emu = await startEmulator(scenarioConfig(path), { snapshotEvery: 1_000_000 });
    running.push(emu);
    const now = await readEverything(emu.url, KEYS, readRefs(refs), emu.clock.now());
    emu.advance(30_000);
    const later = await readEverything(emu.url, KEYS, readRefs(refs), emu.clock.now());
    return { emu, now, later };
  }

  const expectSame = (a: Record<string, unknown>, b: Record<string, unknown>) => {
    expect(Object.keys(b)).to.deep.equal(Object.keys(a));
    for (const key of Object.keys(a)) expect(b[key], key).to.deep.equal(a[key]);
  };

  it('rebuilds_from_a_snapshot_and_its_tail_what_the_whole_journal_rebuilds', async () => {
    const { path, refs } = await session();
    const seqs = snapshotSeqs(path);
    // Snapshots were taken along the way (every 40 entries) and at the clean stop; the journal is kept.
    expect(seqs.length).to.equal(2);
    const full = variant(path, 'journal-only', (db) => db.exec('DELETE FROM snapshots'));
    const tail = variant(path, 'older-snapshot', (db) => db.prepare('DELETE FROM snapshots WHERE seq = ?').run(seqs[0]!));

    const reference = await answers(full, refs);
    expect([reference.emu.snapshotSeq, reference.emu.replayedTail]).to.deep.equal([undefined, reference.emu.replayed]);
    const fromTail = await answers(tail, refs);
    expect(fromTail.emu.snapshotSeq).to.equal(seqs[1]);
    expect(fromTail.emu.replayedTail).to.be.above(0);
    expect(fromTail.emu.replayed).to.equal(reference.emu.replayed);
    const fromStop = await answers(path, refs);
    expect([fromStop.emu.snapshotSeq, fromStop.emu.replayedTail]).to.deep.equal([seqs[0], 0]);

    expectSame(reference.now, fromTail.now);
    expectSame(reference.now, fromStop.now);
    // The market model goes on the same way from each: its state came back whole.
    expectSame(reference.later, fromTail.later);
    expectSame(reference.later, fromStop.later);
    for (const r of [reference, fromTail, fromStop]) expect(r.emu.checkInvariants()).to.deep.equal([]);
  });

  it('falls_back_to_the_previous_snapshot_or_the_whole_journal_when_a_snapshot_is_torn', async () => {
    const { path, refs } = await session();
    const seqs = snapshotSeqs(path);
    const tear = (db: Database.Database, seq: number) =>
      db.prepare('UPDATE snapshots SET data = substr(data, 1, length(data) / 2) WHERE seq = ?').run(seq);
    const newestTorn = variant(path, 'newest-torn', (db) => tear(db, seqs[0]!));
    const allTorn = variant(path, 'all-torn', (db) => seqs.forEach((s) => tear(db, s)));
    const reference = await answers(
      variant(path, 'journal-only', (db) => db.exec('DELETE FROM snapshots')),
      refs,
    );

    const errors: string[] = [];
    const start = async (p: string) => {
      const emu = await startEmulator(scenarioConfig(p), {
        snapshotEvery: 1_000_000,
        onInternalError: (e) => errors.push((e as Error).message),
      });
      running.push(emu);
      return emu;
    };
    const a = await start(newestTorn);
    expect(a.snapshotSeq).to.equal(seqs[1]);
    expect(await readEverything(a.url, KEYS, readRefs(refs), a.clock.now())).to.deep.equal(reference.now);
    const b = await start(allTorn);
    expect(b.snapshotSeq).to.equal(undefined);
    expect(await readEverything(b.url, KEYS, readRefs(refs), b.clock.now())).to.deep.equal(reference.now);
    // Each skipped snapshot is reported, naming what was wrong with it.
    expect(errors).to.deep.equal([
      `snapshot at entry ${seqs[0]!}: checksum mismatch (torn or damaged); restoring from an older state`,
      `snapshot at entry ${seqs[0]!}: checksum mismatch (torn or damaged); restoring from an older state`,
      `snapshot at entry ${seqs[1]!}: checksum mismatch (torn or damaged); restoring from an older state`,
    ]);
  });
});
