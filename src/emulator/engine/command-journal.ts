/**
 * Persistence of the paper venue as an append-only command journal in SQLite (better-sqlite3).
 *
 * Why a journal and not a state snapshot: the engines (spot and contract venues) are deterministic
 * functions of their commands and the clock, and keep their state private. Recording every state-
 * changing call — user orders, crowd orders of the market model, deposits, funding settlements — with
 * its time, and replaying the calls through the same engines at start-up, rebuilds balances, open
 * orders with their ids and fills, positions, order and trade history and the tape exactly, with no
 * second (serialised) representation of engine internals to keep in sync. SQLite gives a durable,
 * atomic append per command (WAL), so a crash loses at most the command in flight, which a whole-file
 * snapshot rewritten on a timer cannot promise.
 *
 * Arguments are stored as JSON; bigint values are tagged so they come back as bigint.
 */
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';

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

  constructor(readonly path: string) {
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
    `);
    this.insert = this.db.prepare('INSERT INTO commands (time, target, method, args) VALUES (?, ?, ?, ?)');
    this.getMeta = this.db.prepare('SELECT value FROM meta WHERE key = ?');
    this.putMeta = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  }

  append(time: number, target: string, method: string, args: readonly unknown[]): void {
    if (this.closed) return;
    this.insert.run(time, target, method, JSON.stringify(args, replacer));
  }

  /** Every entry in order (streamed, so a long journal does not sit in memory twice). */
  *entries(): IterableIterator<JournalEntry> {
    const stmt = this.db.prepare<[], { seq: number; time: number; target: string; method: string; args: string }>('SELECT seq, time, target, method, args FROM commands ORDER BY seq');
    for (const row of stmt.iterate()) {
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
    this.closed = true;
    this.db.close();
  }
}

/**
 * Wraps an engine so every call of the named methods is appended to the journal (after it returned:
 * a call that threw changed nothing and is not replayed). Reads pass straight through.
 */
export function journaled<T extends object>(target: T, name: string, methods: readonly (keyof T & string)[], journal: CommandJournal | undefined, now: () => number): T {
  if (!journal) return target;
  const recorded = new Set<string>(methods);
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver) as unknown;
      if (typeof prop !== 'string' || !recorded.has(prop) || typeof value !== 'function') {
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(obj) : value;
      }
      return (...args: unknown[]) => {
        const time = now();
        const out = (value as (...a: unknown[]) => unknown).apply(obj, args);
        journal.append(time, name, prop, args);
        return out;
      };
    },
  });
}
