/**
 * Persistence of the paper venue as an append-only command journal in SQLite (better-sqlite3).
 *
 * Why a journal and not a state snapshot: the engines (spot and contract venues) are deterministic
 * functions of their commands and the clock, and keep their state private. Recording every state-
 * changing call — user orders and settings, deposits, the market model's steps — with its time, and
 * replaying the calls through the same engines at start-up, rebuilds balances, open
 * orders with their ids and fills, positions, order and trade history and the tape exactly, with no
 * second (serialised) representation of engine internals to keep in sync. SQLite gives a durable,
 * atomic append per command (WAL), so a crash loses at most the commands in flight — none of them
 * acknowledged yet (see Group commit) — which a whole-file snapshot rewritten on a timer cannot promise.
 *
 * Arguments are stored as JSON; bigint values are tagged so they come back as bigint.
 *
 * Group commit: a committed transaction per command cost 85-130 µs on this file system against about
 * 17 µs per command committed 16 at a time. So the HTTP front holds the commits of the requests it
 * handles in one event-loop turn (holdCommits) and commits them together (commitHeld) before it sends
 * any of their answers (emulator/http/response-batch.ts): an acknowledged request is durable, and a
 * crash before the commit loses only commands nobody was told about, each wholly (one row each).
 *
 * Compaction: what happens on a timer — a market model step with every crowd order it places and
 * cancels, the fair / index prices and funding pushed after it, the 00:00 UTC equity snapshots — is a
 * deterministic function of the state and the time. Such a call is journaled ONCE (`runRecorded`) and
 * runs with the journal muted, so replay re-runs the call instead of its effects: one row per model
 * step instead of hundreds of crowd commands (engine/market-epochs.ts). Measured with the default
 * market (4 instruments, 10 levels, 1 s steps): 124 MB and 1 007 189 rows per simulated hour before,
 * 128 KB and 3 628 rows after (test/emulator/support/measure-journal.ts).
 *
 * Snapshots: replaying a whole day of steps takes minutes, so every so many entries the engines' state
 * is written whole (engine/engine-snapshot.ts) into the `snapshots` table, with the seq of the last
 * entry it reflects, in one SQLite transaction (a crash leaves the previous snapshot, never half of a
 * new one); a start restores the newest sound snapshot and replays only the entries after it. The
 * journal itself is kept whole: a journal-only file (written before snapshots existed) still loads.
 */
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';

/**
 * The engines' time seen by the journal: `hold` runs a command with the engines' clock frozen at one
 * instant (the PinnedClock), which is the instant journaled with it.
 */
export interface CommandTime {
  hold<T>(fn: (time: number) => T): T;
}

/**
 * When to snapshot. By default by the work since the last one: the wall time spent in commands is
 * about what replaying them at the next start costs, so a snapshot is due once that work reaches
 * `workPerCost` times what the last snapshot cost (at least `minWorkMs`), which bounds both the
 * restart's replay and the snapshots' share of the run; and at most every `maxEntries` entries.
 * `everyEntries` replaces all that by a fixed count (tests).
 */
export interface CheckpointPolicy {
  readonly run: () => void;
  /** A wall clock (ms) for measuring work, never for the state. */
  readonly wallNow: () => number;
  readonly minWorkMs: number;
  readonly workPerCost: number;
  readonly maxEntries: number;
  readonly everyEntries?: number | undefined;
}

/** A stored snapshot of the engines (engine/engine-snapshot.ts). */
export interface StoredSnapshot {
  /** Seq of the last journal entry the snapshot reflects. */
  readonly seq: number;
  /** Entries up to and including `seq`. */
  readonly entries: number;
  readonly time: number;
  /** What the restore needs before the data (JSON). */
  readonly header: string;
  readonly checksum: string;
  readonly data: Buffer;
}

export interface JournalEntry {
  readonly seq: number;
  readonly time: number;
  readonly target: string;
  readonly method: string;
  readonly args: unknown[];
}

const BIGINT_TAG = '$bigint';

function replacer(_k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return { [BIGINT_TAG]: v.toString() };
  // Decimal and other objects with toJSON serialise through it; decimal.js gives the plain string.
  return v;
}

function reviver(_k: string, v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const rec = v as Record<string, unknown>;
    const keys = Object.keys(rec);
    if (keys.length === 1 && keys[0] === BIGINT_TAG && typeof rec[BIGINT_TAG] === 'string') return BigInt(rec[BIGINT_TAG]);
  }
  return v;
}

export class CommandJournal {
  private readonly db: Db;
  private readonly insert: Statement<[number, string, string, string]>;
  private readonly getMeta: Statement<[string], { value: string }>;
  private readonly putMeta: Statement<[string, string]>;
  private closed = false;
  /** > 0 while a recorded call (or the replay) runs: its effects are not journaled again. */
  private muted = 0;
  private lastSeq = 0;
  private total = 0;
  private sinceCheckpoint = 0;
  /** Wall-clock ms spent in commands since the last checkpoint: about what replaying them would take. */
  private workSinceCheckpoint = 0;
  /** Wall-clock ms the last checkpoint took. */
  private checkpointCost = 0;
  private checkpoint: CheckpointPolicy | undefined;
  /** Appends go into one open transaction until commitHeld() (see Group commit above). */
  private holding = false;
  private held = false;

  /** `time`: the engines' clock; without it the journal can be read but not written (tools, tests). */
  constructor(
    readonly path: string,
    private readonly time?: CommandTime,
  ) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS commands (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        time INTEGER NOT NULL,
        target TEXT NOT NULL,
        method TEXT NOT NULL,
        args TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS snapshots (
        seq INTEGER PRIMARY KEY,
        entries INTEGER NOT NULL,
        time INTEGER NOT NULL,
        header TEXT NOT NULL,
        checksum TEXT NOT NULL,
        data BLOB NOT NULL
      );
    `);
    this.insert = this.db.prepare('INSERT INTO commands (time, target, method, args) VALUES (?, ?, ?, ?)');
    this.getMeta = this.db.prepare('SELECT value FROM meta WHERE key = ?');
    this.putMeta = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    const at = this.db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq, COUNT(*) AS n FROM commands').get() as { seq: number; n: number };
    this.lastSeq = at.seq;
    this.total = at.n;
  }

  append(time: number, target: string, method: string, args: readonly unknown[]): void {
    if (this.closed || this.muted > 0) return;
    if (this.holding && !this.held) {
      this.db.exec('BEGIN');
      this.held = true;
    }
    this.lastSeq = Number(this.insert.run(time, target, method, JSON.stringify(args, replacer)).lastInsertRowid);
    this.total++;
    this.sinceCheckpoint++;
  }

  /**
   * From now until commitHeld(), appends are committed together. The caller must call commitHeld()
   * before it tells anyone that a command made in between happened (the HTTP front: before the answers).
   */
  holdCommits(): void {
    if (!this.closed) this.holding = true;
  }

  /** Commits what holdCommits() held; on failure nothing held is kept (and the error is thrown). */
  commitHeld(): void {
    this.holding = false;
    if (!this.held) return;
    this.held = false;
    try {
      this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
  }

  /**
   * Runs the policy's checkpoint (a snapshot) after the first command that makes it due: between two
   * commands, where the state is exactly that of the entries. A tail replayed at start-up counts as
   * `pendingEntries` appended since the last checkpoint that took `pendingWorkMs`.
   */
  onCheckpoint(policy: CheckpointPolicy, pendingEntries = 0, pendingWorkMs = 0): void {
    this.checkpoint = policy;
    this.sinceCheckpoint = pendingEntries;
    this.workSinceCheckpoint = pendingWorkMs;
  }

  /** After a top-level command that started at wall time `t0`: the checkpoint when it is due. */
  private afterCommand(t0: number | undefined): void {
    const c = this.checkpoint;
    if (!c || this.muted > 0 || this.closed) return;
    if (t0 !== undefined) this.workSinceCheckpoint += c.wallNow() - t0;
    const due =
      c.everyEntries !== undefined
        ? this.sinceCheckpoint >= c.everyEntries
        : this.sinceCheckpoint >= c.maxEntries ||
          (this.sinceCheckpoint > 0 && this.workSinceCheckpoint >= Math.max(c.minWorkMs, c.workPerCost * this.checkpointCost));
    if (!due) return;
    const start = c.wallNow();
    this.sinceCheckpoint = 0;
    this.workSinceCheckpoint = 0;
    c.run();
    this.checkpointCost = c.wallNow() - start;
  }

  /** Seq of the last entry (0 for an empty journal) and the number of entries. */
  position(): { seq: number; entries: number } {
    return { seq: this.lastSeq, entries: this.total };
  }

  /**
   * Stores a snapshot reflecting the entries up to `seq`, and drops all but the newest `keep` — in one
   * transaction, so a crash while writing leaves the older snapshots as they were.
   */
  saveSnapshot(s: StoredSnapshot, keep = 2): void {
    this.sinceCheckpoint = 0;
    this.db.transaction(() => {
      this.db
        .prepare('INSERT OR REPLACE INTO snapshots (seq, entries, time, header, checksum, data) VALUES (?, ?, ?, ?, ?, ?)')
        .run(s.seq, s.entries, s.time, s.header, s.checksum, s.data);
      this.db.prepare('DELETE FROM snapshots WHERE seq NOT IN (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?)').run(keep);
    })();
  }

  /** Stored snapshots, newest first (streamed: each is read only if the newer one was unusable). */
  *snapshots(): IterableIterator<StoredSnapshot> {
    const seqs = (this.db.prepare('SELECT seq FROM snapshots ORDER BY seq DESC').all() as { seq: number }[]).map((r) => r.seq);
    const one = this.db.prepare<[number], StoredSnapshot>('SELECT seq, entries, time, header, checksum, data FROM snapshots WHERE seq = ?');
    for (const seq of seqs) {
      const row = one.get(seq);
      if (row) yield row;
    }
  }

  /** Runs `fn` with appends switched off (replay, and the effects of a recorded call). */
  suppress<T>(fn: () => T): T {
    this.muted++;
    try {
      return fn();
    } finally {
      this.muted--;
    }
  }

  /**
   * Journals the call `target.method(args)`, then runs `fn` (which makes it) with the journal muted, the
   * engines' clock held at the journaled time. Recorded before it runs: if it throws halfway, replay
   * re-runs it and fails the same way, so the rebuilt state is the state the run had. Inside another
   * recorded call (or the replay) it only runs.
   */
  runRecorded<T>(target: string, method: string, args: readonly unknown[], fn: () => T): T {
    if (this.closed || this.muted > 0) return fn();
    const t0 = this.checkpoint?.wallNow();
    const out = this.clock().hold((time) => {
      this.append(time, target, method, args);
      return this.suppress(fn);
    });
    this.afterCommand(t0);
    return out;
  }

  /**
   * Runs the command `target.method(args)` (`fn` makes it) and journals it when it returned: a call that
   * threw changed nothing and is not replayed.
   *
   * Why the clock is held: a command reads the clock many times (order time, then a fill's, a
   * position's, a trigger's), and on the system clock those reads straddle millisecond boundaries,
   * while the replay runs the command at the one journaled time. Held live too, the live run and the
   * replay see the same time at every read, so they take the same branches and draw the same numbers.
   * Nested commands (an engine call made from inside another) run muted: replaying the outer re-makes them.
   */
  runCommand<T>(target: string, method: string, args: readonly unknown[], fn: () => T): T {
    if (this.closed || this.muted > 0) return fn();
    const t0 = this.checkpoint?.wallNow();
    const out = this.clock().hold((time) => {
      const result = this.suppress(fn);
      this.append(time, target, method, args);
      return result;
    });
    this.afterCommand(t0);
    return out;
  }

  private clock(): CommandTime {
    if (!this.time) throw new Error(`journal ${this.path} was opened without a clock: it cannot record`);
    return this.time;
  }

  /** Every entry after `afterSeq` in order (streamed, so a long journal does not sit in memory twice). */
  *entries(afterSeq = 0): IterableIterator<JournalEntry> {
    const stmt = this.db.prepare<[number], { seq: number; time: number; target: string; method: string; args: string }>(
      'SELECT seq, time, target, method, args FROM commands WHERE seq > ? ORDER BY seq',
    );
    for (const row of stmt.iterate(afterSeq)) {
      yield { seq: row.seq, time: row.time, target: row.target, method: row.method, args: JSON.parse(row.args, reviver) as unknown[] };
    }
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM commands').get() as { n: number }).n;
  }

  meta(key: string): string | undefined {
    return this.getMeta.get(key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.putMeta.run(key, value);
  }

  close(): void {
    if (this.closed) return;
    try {
      this.commitHeld();
    } finally {
      this.closed = true;
      this.db.close();
    }
  }
}

/**
 * Wraps an engine so every call of the named methods is journaled (CommandJournal.runCommand). Reads
 * pass straight through.
 */
export function journaled<T extends object>(
  target: T,
  name: string,
  methods: readonly (keyof T & string)[],
  journal: CommandJournal | undefined,
): T {
  if (!journal) return target;
  const recorded = new Set<string>(methods);
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver) as unknown;
      if (typeof prop !== 'string' || !recorded.has(prop) || typeof value !== 'function') {
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(obj) : value;
      }
      return (...args: unknown[]) => journal.runCommand(name, prop, args, () => (value as (...a: unknown[]) => unknown).apply(obj, args));
    },
  });
}
